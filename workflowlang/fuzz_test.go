package workflowlang

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"
)

// FuzzParse runs parse, check, PathAt, format and the model round trip on
// arbitrary input: no panic, spans within bounds, the formatter idempotent
// and text-preserving on whatever parses, and an unchanged model giving no
// edits. The seed corpus is every .flow file under testdata.
func FuzzParse(f *testing.F) {
	for _, p := range flowFiles(f) {
		src, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(src)
	}
	f.Add([]byte(tenMistakes))
	f.Add([]byte("node a { user \"\"\"\n  \\\"\"\" \\{{ {{ a . b }} {{@x:L0}}\n\"\"\" }"))
	env := memEnv(map[string]string{"act.flow": "input goal\nnode plan { user \"{{goal}}\" }\n"}, map[string]int{"meta/style-guide": 10})
	f.Fuzz(func(t *testing.T, src []byte) {
		file := Parse("fuzz.flow", src)
		checkSpans(t, file)
		res := Check(file, env)
		for _, d := range res.Diagnostics {
			if d.Span.Start < 0 || d.Span.End > len(src) || d.Span.Start > d.Span.End {
				t.Fatalf("diagnostic span %v outside %d bytes: %s", d.Span, len(src), d.Message)
			}
		}
		for _, off := range []int{0, len(src) / 3, len(src) / 2, len(src)} {
			PathAt(file, off)
		}
		out, err := Format(file)
		if err != nil {
			return
		}
		assertFormatInvariants(t, "fuzz.flow", src, out)
		m := ToModel(res)
		data, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var back Model
		if err := json.Unmarshal(data, &back); err != nil {
			t.Fatal(err)
		}
		edits, err := Edits(file, &back)
		if err != nil {
			// Duplicate names cannot be expressed by the model.
			if hasDuplicateNodes(file) {
				return
			}
			t.Fatalf("Edits of an unchanged model: %v", err)
		}
		if len(edits) != 0 && !hasDuplicateNodes(file) {
			t.Fatalf("unchanged model gave edits %+v", edits)
		}
		if !bytes.Equal(ApplyEdits(src, nil), src) {
			t.Fatal("ApplyEdits without edits changed the source")
		}
	})
}

func hasDuplicateNodes(f *File) bool {
	seen := map[string]bool{}
	for _, n := range f.Nodes {
		if seen[n.Name.Name] {
			return true
		}
		seen[n.Name.Name] = true
	}
	for _, u := range f.Uses {
		if seen["use:"+u.Alias.Name] {
			return true
		}
		seen["use:"+u.Alias.Name] = true
	}
	for _, in := range f.Inputs {
		if seen["input:"+in.Name.Name] {
			return true
		}
		seen["input:"+in.Name.Name] = true
	}
	return false
}
