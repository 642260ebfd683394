package cache

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/protocol"
)

func rng(l1, c1, l2, c2 uint32) *protocol.Range {
	return &protocol.Range{Start: protocol.Position{Line: l1, Character: c1}, End: protocol.Position{Line: l2, Character: c2}}
}

// TestIncrementalChangesInEveryEncoding applies the same edit, expressed
// in each encoding's units, after astral and Chinese characters.
func TestIncrementalChangesInEveryEncoding(t *testing.T) {
	const text = "a😀b\n第𠀀c\n"
	for _, tc := range []struct {
		enc  workflowlang.Encoding
		edit *protocol.Range // covers "c" on line 1
	}{
		{workflowlang.UTF16, rng(1, 3, 1, 4)},
		{workflowlang.UTF8, rng(1, 7, 1, 8)},
		{workflowlang.UTF32, rng(1, 2, 1, 3)},
	} {
		ws, _ := NewWorkspace(nil, tc.enc)
		uri := protocol.DocumentURI("untitled:x.flow")
		ws.Open(uri, "flow", 1, text)
		s, dirty, err := ws.Change(uri, 2, []Change{{Range: tc.edit, Text: "好"}, {Range: nil, Text: "whole"}, {Range: rng(0, 0, 0, 0), Text: ">"}})
		if err != nil || len(dirty) != 1 {
			t.Fatalf("enc %v: %v %v", tc.enc, dirty, err)
		}
		f, _ := s.File(uri)
		if string(f.Src) != ">whole" || f.Version != 2 {
			t.Errorf("enc %v: %q v%d", tc.enc, f.Src, f.Version)
		}
		s, _, _ = ws.Change(uri, 3, []Change{{Range: nil, Text: text}, {Range: tc.edit, Text: "好"}})
		f, _ = s.File(uri)
		if string(f.Src) != "a😀b\n第𠀀好\n" {
			t.Errorf("enc %v: edit gave %q", tc.enc, f.Src)
		}
	}
}

// TestOpenCloseAndWatchedFiles: the editor's text wins while open, the
// disk's after close; deleted files leave; knowledge is re-listed.
func TestOpenCloseAndWatchedFiles(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, s string) {
		p := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("flowcabal.toml", "")
	write("workflows/a.flow", "disk")
	write("meta/style-guide.md", "---\nkind: style\n---\n\n# Style\n\nShort sentences. Long ones too.\n")
	ws, err := NewWorkspace([]string{dir}, workflowlang.UTF16)
	if err != nil {
		t.Fatal(err)
	}
	s := ws.Snapshot()
	if r, ok := s.Resource("meta/style-guide"); !ok || r.Lead() != "Short sentences. Long ones too." {
		t.Fatalf("resource: %+v %v", r, ok)
	}
	a := FileURI(filepath.Join(dir, "workflows", "a.flow"))
	ws.Open(a, "flow", 1, "editor")
	// A change on disk while open does not replace the editor's text.
	write("workflows/a.flow", "disk 2")
	s, _ = ws.FilesChanged([]*protocol.FileEvent{{URI: a, Type: protocol.FileChangeTypeChanged}})
	if f, _ := s.File(a); string(f.Src) != "editor" {
		t.Errorf("open file replaced by disk: %q", f.Src)
	}
	s, _ = ws.Close(a)
	if f, ok := s.File(a); !ok || string(f.Src) != "disk 2" || f.Open {
		t.Errorf("after close: %+v", f)
	}
	os.Remove(filepath.Join(dir, "workflows", "a.flow"))
	write("meta/world-rules.md", "Rules.")
	s, dirty := ws.FilesChanged([]*protocol.FileEvent{
		{URI: a, Type: protocol.FileChangeTypeDeleted},
		{URI: FileURI(filepath.Join(dir, "meta", "world-rules.md")), Type: protocol.FileChangeTypeCreated}})
	if _, ok := s.File(a); ok || len(dirty) != 1 {
		t.Errorf("deleted file still there (dirty %v)", dirty)
	}
	if _, ok := s.Resource("meta/world-rules"); !ok {
		t.Errorf("created resource not listed")
	}
	// Spellings of the same file URI are one document.
	if KeyOf("file:///x/%E7%AC%AC.flow") != KeyOf("file:///x/第.flow") {
		t.Errorf("percent-encoding changes the key")
	}
	if _, ok := URIPath("untitled:Untitled-1"); ok {
		t.Errorf("untitled: has a path")
	}
}
