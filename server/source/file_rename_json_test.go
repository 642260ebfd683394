package source

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/workflowlang"
	fastjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/protocol"
)

// stdJSON is encoding/json's encoding of v as the server writes JSON:
// without HTML escapes, without the encoder's newline.
func stdJSON(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	e := json.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// reflectiveJSON is what the server's reflective encoder (segmentio's,
// which encodeTo uses) writes for v.
func reflectiveJSON(t *testing.T, v any) string {
	t.Helper()
	var b bytes.Buffer
	e := fastjson.NewEncoder(&b)
	e.SetEscapeHTML(false)
	if err := e.Encode(v); err != nil {
		t.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// TestAppendWorkspaceEditMatchesEncodingJSON: the JSON AppendWorkspaceEdit
// writes without reflection is, byte for byte, encoding/json's (and the
// server's reflective encoder's) encoding of WorkspaceEdit for the same
// edits: Chinese and astral text before the edits (UTF-16, UTF-8 and
// UTF-32 columns), new texts that need escapes (quotes, backslashes,
// control characters, U+2028, invalid UTF-8, <>& left as they are),
// URIs whose byte order is not the workflows' order, one new text in
// several edits (escaped once, copied after), one URI given
// twice, a workflow without edits, and nothing at all (null); the
// caller's edits keep their order. The two
// encoders differ on \b and \f (\b or \u0008): there the fast one must
// write what the reflective one does and decode to encoding/json's value.
func TestAppendWorkspaceEditMatchesEncodingJSON(t *testing.T) {
	src := []byte("node 甲 {\n  user \"\"\"\n    𝄞😀 寫她 {{@entities/characters/林黛玉}} 與 {{@meta/風格:L1}}\n  \"\"\"\n}\n")
	at := func(f *cache.File, old, newText string) SpanEdit {
		i := bytes.Index(f.Src, []byte(old))
		if i < 0 {
			t.Fatalf("%q not in %s", old, f.Src)
		}
		ls := bytes.LastIndexByte(f.Src[:i], '\n') + 1
		return SpanEdit{Span: workflowlang.Span{Start: i, End: i + len(old)}, NewText: newText, line: bytes.Count(f.Src[:i], []byte{'\n'}), lineStart: ls}
	}
	file := func(uri string) *cache.File { return &cache.File{URI: protocol.DocumentURI(uri), Src: src} }
	a := file("file:///w/%E7%AC%AC%E4%B8%80%E5%8D%B7.flow") // 第一卷: sorts before "file:///w/a"
	b := file("file:///w/a.flow")
	c := file("file:///w/𝄞/乙.flow")
	d := file(`file:///w/q"uote\.flow`)
	odd := []string{
		"entities/人物/黛玉", "meta/𝄞樂譜", `a"b\c`, "tab\there\nnew\rline", "\x00\x01\x1f\x7f", "<&>",
		"\u2028\u2029", "bad\xffutf8\xed\xa0\x80", "", strings.Repeat("長", 40),
	}
	cases := map[string][]FileEdit{
		"nothing": nil,
		"empty":   {},
		"one":     {{File: b, Edits: []SpanEdit{at(b, "entities/characters/林黛玉", "entities/characters/黛玉")}}},
		"key order is not byte order": {
			{File: b, Edits: []SpanEdit{at(b, "entities/characters/林黛玉", odd[0]), at(b, "meta/風格", odd[1])}},
			{File: a, Edits: []SpanEdit{at(a, "meta/風格", odd[2])}},
			{File: c, Edits: []SpanEdit{at(c, "entities/characters/林黛玉", odd[3])}},
			{File: d, Edits: []SpanEdit{at(d, "meta/風格", odd[4])}},
		},
		"one new text in every workflow, escaped once": {
			{File: a, Edits: []SpanEdit{at(a, "entities/characters/林黛玉", odd[2]), at(a, "meta/風格", odd[2])}},
			{File: b, Edits: []SpanEdit{at(b, "meta/風格", odd[2])}},
			{File: c, Edits: []SpanEdit{at(c, "meta/風格", odd[3])}},
			{File: d, Edits: []SpanEdit{at(d, "meta/風格", odd[2])}},
		},
		"one URI twice, and a workflow without edits": {
			{File: c, Edits: []SpanEdit{at(c, "entities/characters/林黛玉", odd[5])}},
			{File: a},
			{File: b, Edits: []SpanEdit{at(b, "meta/風格", odd[6])}},
			{File: c, Edits: []SpanEdit{at(c, "meta/風格", odd[7]), at(c, "meta/風格", odd[8])}},
			{File: c},
			{File: c, Edits: []SpanEdit{at(c, "entities/characters/林黛玉", odd[9])}},
		},
	}
	for name, edits := range cases {
		for _, enc := range []workflowlang.Encoding{workflowlang.UTF16, workflowlang.UTF8, workflowlang.UTF32} {
			o := Options{Encoding: enc}
			prefix := []byte(`{"result":`)
			before := append([]FileEdit(nil), edits...)
			got := AppendWorkspaceEdit(prefix, edits, o)
			for i := range before {
				if before[i].File != edits[i].File {
					t.Fatalf("%s: the caller's edits were reordered", name)
				}
			}
			if !bytes.HasPrefix(got, prefix) {
				t.Fatalf("%s: the bytes before were lost: %s", name, got)
			}
			got = got[len(prefix):]
			we := WorkspaceEdit(edits, o)
			if want := stdJSON(t, we); string(got) != want {
				t.Errorf("%s, %v:\n got %s\nwant %s (encoding/json)", name, enc, got, want)
			}
			if want := reflectiveJSON(t, we); string(got) != want {
				t.Errorf("%s, %v:\n got %s\nwant %s (the reflective encoder)", name, enc, got, want)
			}
		}
	}
	if AppendWorkspaceEdit(nil, nil, Options{}) == nil || string(AppendWorkspaceEdit(nil, nil, Options{})) != "null" {
		t.Errorf("no edits: %q, want null", AppendWorkspaceEdit(nil, nil, Options{}))
	}

	// \b and \f: encoding/json writes \b and \f, the reflective encoder
	// \u0008 and \u000c; both decode to the same text.
	edits := []FileEdit{{File: b, Edits: []SpanEdit{at(b, "meta/風格", "back\bspace form\ffeed")}}}
	got := AppendWorkspaceEdit(nil, edits, Options{Encoding: workflowlang.UTF16})
	we := WorkspaceEdit(edits, Options{Encoding: workflowlang.UTF16})
	if want := reflectiveJSON(t, we); string(got) != want {
		t.Errorf("\\b and \\f:\n got %s\nwant %s (the reflective encoder)", got, want)
	}
	var fromFast, fromStd protocol.WorkspaceEdit
	if err := json.Unmarshal(got, &fromFast); err != nil {
		t.Fatalf("%s: %v", got, err)
	}
	if err := json.Unmarshal([]byte(stdJSON(t, we)), &fromStd); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(fromFast, fromStd) || fromFast.Changes[b.URI][0].NewText != "back\bspace form\ffeed" {
		t.Errorf("\\b and \\f decode to %+v, encoding/json's to %+v", fromFast, fromStd)
	}
}
