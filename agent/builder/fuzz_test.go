package builder

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/workflowlang"
)

// FuzzApplyPatch feeds arbitrary operation batches to the patcher: it may
// reject them, never panic, and what it accepts checks without new errors.
func FuzzApplyPatch(f *testing.F) {
	for _, seed := range []string{
		`[{"op":"add","path":"/nodes/-","value":{"localId":"n1","template":"self-critique","input":"draft"}}]`,
		`[{"op":"move","from":"/nodes/0","path":"/nodes/-"}]`,
		`[{"op":"copy","from":"/nodes/draft/prompts/0","path":"/nodes/outline/prompts/-"}]`,
		`[{"op":"replace","path":"/nodes/$x","value":{}}]`,
		`[{"op":"add","path":"/workflow/attrs/budget","value":-1}]`,
		`[{"op":"remove","path":"/nodes/0/prompts/0/blocks/0"}]`,
		`[{"op":"add","path":"/nodes/0","value":{"localId":"a","user":"{{$a}}"}}]`,
		`[{"op":"add","path":"/uses/-","value":{"path":"x.flow","alias":"x"}}]`,
		`[{"op":"replace","path":"/nodes/draft/prompts/1/blocks/1","value":"{{ }}"}]`,
	} {
		f.Add(seed)
	}
	lib, err := DefaultLibrary()
	if err != nil {
		f.Fatal(err)
	}
	src, err := os.ReadFile(fixture)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, batch string) {
		var ops []Op
		if json.Unmarshal([]byte(batch), &ops) != nil {
			return
		}
		res := workflowlang.Check(workflowlang.Parse("chapter.flow", src), workflowlang.Env{})
		a, err := applyPatch(lib, res, workflowlang.Env{}, ops)
		if err != nil {
			var pe *PatchError
			if !errors.As(err, &pe) {
				t.Fatalf("not a PatchError: %v", err)
			}
			return
		}
		for _, d := range a.result.Diagnostics {
			if d.Severity == workflowlang.SeverityError && d.Path == "" {
				t.Fatalf("accepted a patch with an error: %s %s\n%s", d.Code, d.Message, a.newText)
			}
		}
	})
}

// TestSampleWorkflows runs the deterministic features over the sample
// projects' workflows: every snippet offered at the end of a file, and
// every node's code actions.
func TestSampleWorkflows(t *testing.T) {
	lib, err := DefaultLibrary()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../../testdata/projects/*/workflows/*.flow")
	if len(files) == 0 {
		t.Fatal("no sample workflows")
	}
	errorsIn := func(src []byte) int {
		n := 0
		for _, d := range workflowlang.Check(workflowlang.Parse("w.flow", src), workflowlang.Env{}).Diagnostics {
			if d.Severity == workflowlang.SeverityError && d.Code != workflowlang.CodeMissingUse && d.Code != workflowlang.CodeUnknownUseNode {
				n++
			}
		}
		return n
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		res := workflowlang.Check(workflowlang.Parse("w.flow", src), workflowlang.Env{})
		before := errorsIn(src)
		snips := lib.Snippets(res, len(src))
		if len(snips) == 0 {
			t.Errorf("%s: no snippets at the end", file)
		}
		for _, s := range snips {
			text := append(append([]byte(nil), src...), []byte("\n"+s.Text+"\n")...)
			if got := errorsIn(text); got != before {
				t.Errorf("%s: snippet %s adds %d errors", file, s.Template, got-before)
			}
			if strings.Contains(s.Text, "{{in}}") {
				t.Errorf("%s: snippet %s keeps {{in}}", file, s.Template)
			}
		}
		for _, n := range res.File.Nodes {
			if len(lib.CodeActions(res, n.Name.Name)) != 3 {
				t.Errorf("%s: node %s lacks code actions", file, n.Name.Name)
			}
		}
	}
}
