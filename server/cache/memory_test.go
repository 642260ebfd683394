package cache

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"weak"

	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/protocol"
)

// chainFlow is flow number i of lspbench's workspace: 200 nodes, each
// reading the one before it (and the tenth before), flow i using flow i-1.
func chainFlow(i, nodes int) string {
	var b strings.Builder
	if i > 0 {
		fmt.Fprintf(&b, "use \"flow-%02d.flow\" as prev\n\n", i-1)
	}
	fmt.Fprintf(&b, "workflow \"第%d卷 · 红楼\" {\n  budget = 24000\n}\n\n", i)
	for n := 0; n < nodes; n++ {
		fmt.Fprintf(&b, "node n%d \"第%d节 宝玉与黛玉\" {\n  temperature = 0.7\n", n, n)
		fmt.Fprintf(&b, "  user \"\"\"\n    Write part %d of the chapter. 黛玉葬花，宝玉听曲。\n", n)
		switch {
		case n > 0:
			fmt.Fprintf(&b, "    From {{n%d}}", n-1)
			if n > 10 {
				fmt.Fprintf(&b, " and {{n%d}}", n-10)
			}
			b.WriteString("\n")
		case i > 0:
			fmt.Fprintf(&b, "    After {{prev.n%d}}\n", nodes-1)
		}
		if n%20 == 0 {
			b.WriteString("    Style: {{@meta/style-guide}}\n")
		}
		b.WriteString("  \"\"\"\n}\n\n")
	}
	return b.String()
}

// chainWorkspace writes flows chained files of nodes nodes and a
// knowledge file under a temporary project.
func chainWorkspace(tb testing.TB, flows, nodes int) (dir string) {
	dir = tb.TempDir()
	write := func(rel, s string) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	write("flowcabal.toml", "budget = 24000\n")
	write("meta/style-guide.md", "# Style\n\nShort sentences.\n")
	for i := 0; i < flows; i++ {
		write(fmt.Sprintf("workflows/flow-%02d.flow", i), chainFlow(i, nodes))
	}
	return dir
}

func flowURI(dir string, i int) protocol.DocumentURI {
	return FileURI(filepath.Join(dir, "workflows", fmt.Sprintf("flow-%02d.flow", i)))
}

func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// BenchmarkRetained measures what the workspace keeps once every file of
// lspbench's workspace (50 flows of 200 nodes) has been checked, with one
// file open and edited: the heap the garbage collector must mark on every
// cycle of the language server. Each iteration builds a fresh workspace.
func BenchmarkRetained(b *testing.B) {
	const flows, nodes = 50, 200
	dir := chainWorkspace(b, flows, nodes)
	open := flowURI(dir, 25)
	src, err := os.ReadFile(filepath.Join(dir, "workflows", "flow-25.flow"))
	if err != nil {
		b.Fatal(err)
	}
	var retained uint64
	for b.Loop() {
		base := liveHeap()
		ws, err := NewWorkspace([]string{dir}, workflowlang.UTF16)
		if err != nil {
			b.Fatal(err)
		}
		ws.Open(open, "flow", 1, string(src))
		for _, f := range ws.Snapshot().Files() {
			ws.Snapshot().Check(f)
		}
		for v := int32(2); v < 12; v++ {
			s, _, err := ws.Change(open, v, []Change{{Text: string(src)}})
			if err != nil {
				b.Fatal(err)
			}
			f, _ := s.File(open)
			s.Check(f)
		}
		retained = liveHeap() - base
		runtime.KeepAlive(ws)
	}
	b.ReportMetric(float64(retained)/(1<<20), "retained-MB")
}

// BenchmarkEdit is the work of one didChange of the open file in that
// workspace: the new snapshot and the check of the edited file.
func BenchmarkEdit(b *testing.B) {
	const flows, nodes = 50, 200
	dir := chainWorkspace(b, flows, nodes)
	open := flowURI(dir, 25)
	src, err := os.ReadFile(filepath.Join(dir, "workflows", "flow-25.flow"))
	if err != nil {
		b.Fatal(err)
	}
	ws, err := NewWorkspace([]string{dir}, workflowlang.UTF16)
	if err != nil {
		b.Fatal(err)
	}
	ws.Open(open, "flow", 1, string(src))
	for _, f := range ws.Snapshot().Files() {
		ws.Snapshot().Check(f)
	}
	v := int32(2)
	for b.Loop() {
		s, _, err := ws.Change(open, v, []Change{{Text: string(src)}})
		if err != nil {
			b.Fatal(err)
		}
		v++
		f, _ := s.File(open)
		s.Check(f)
	}
}

// TestClosedTreesAreNotKept: once every file is checked, the trees of
// closed files are freed (but for the few recent ones the workspace keeps),
// the open document's is kept, and an edit leaves nothing of the old
// version behind once its snapshot is dropped.
func TestClosedTreesAreNotKept(t *testing.T) {
	const flows = 12
	dir := chainWorkspace(t, flows, 20)
	ws, err := NewWorkspace([]string{dir}, workflowlang.UTF16)
	if err != nil {
		t.Fatal(err)
	}
	open := flowURI(dir, 6)
	src, _ := os.ReadFile(filepath.Join(dir, "workflows", "flow-06.flow"))
	s, _, _ := ws.Open(open, "flow", 1, string(src))
	var trees []weak.Pointer[workflowlang.File]
	var results []weak.Pointer[workflowlang.Result]
	for _, f := range s.Files() {
		trees = append(trees, weak.Make(s.Parse(f)))
		results = append(results, weak.Make(s.Check(f)))
	}
	f6, _ := s.File(open)
	oldTree := weak.Make(s.Parse(f6))
	s, _, err = ws.Change(open, 2, []Change{{Text: string(src) + "\n"}})
	if err != nil {
		t.Fatal(err)
	}
	f6, _ = s.File(open)
	s.Check(f6)
	runtime.GC()
	runtime.GC()
	alive := 0
	for i, f := range s.Files() {
		if trees[i].Value() != nil {
			alive++
		}
		if !f.Open && results[i].Value() != nil {
			t.Errorf("%s: the check result of a closed file is kept", f.Path)
		}
	}
	// The open document's tree, the file it uses (held by its check)
	// and the recent trees.
	if alive > recentTrees+2 {
		t.Errorf("%d of %d trees are still alive; want at most %d", alive, flows, recentTrees+2)
	}
	if oldTree.Value() != nil {
		t.Errorf("the tree of the edited document's old version is kept")
	}
	if s.Parse(f6) != s.Parse(f6) {
		t.Errorf("the open document is parsed twice")
	}
	runtime.KeepAlive(s)
}
