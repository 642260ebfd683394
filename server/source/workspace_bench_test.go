package source

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/lsptest"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// chainSetup writes lspbench's workflows (50 files of 200 nodes, file i
// using file i-1) and returns the workspace with every file checked, as
// the server's background diagnostics leave it, and flow-25 open.
func chainSetup(b *testing.B) (*cache.Snapshot, *cache.File, string) {
	dir := b.TempDir()
	var open string
	for i := range 50 {
		var s strings.Builder
		if i > 0 {
			fmt.Fprintf(&s, "use \"flow-%02d.flow\" as prev\n\n", i-1)
		}
		for n := range 200 {
			fmt.Fprintf(&s, "node n%d \"第%d节\" {\n  user \"\"\"\n    Write part %d.\n", n, n, n)
			switch {
			case n > 0:
				fmt.Fprintf(&s, "    From {{n%d}}\n", n-1)
			case i > 0:
				s.WriteString("    After {{prev.n199}}\n")
			}
			s.WriteString("  \"\"\"\n}\n\n")
		}
		if i == 25 {
			open = s.String()
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("flow-%02d.flow", i)), []byte(s.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	ws, err := cache.NewWorkspace([]string{dir}, workflowlang.UTF16)
	if err != nil {
		b.Fatal(err)
	}
	uri := cache.FileURI(filepath.Join(dir, "flow-25.flow"))
	snap, _, _ := ws.Open(uri, "flow", 1, open)
	for _, f := range snap.Files() {
		snap.Check(f)
	}
	f, _ := snap.File(uri)
	return snap, f, open
}

// BenchmarkWorkspaceSymbolsChain answers workspace/symbol over the 50
// files, most of them closed.
func BenchmarkWorkspaceSymbolsChain(b *testing.B) {
	snap, _, _ := chainSetup(b)
	for b.Loop() {
		if s := WorkspaceSymbols(snap, "n19", Options{}); len(s) != 550 && len(s) != maxWorkspaceSymbols {
			b.Fatalf("%d symbols", len(s))
		}
	}
}

// BenchmarkReferencesChain finds the references to flow-25's last node,
// which only flow-26 (closed) reads: two locations with the declaration.
func BenchmarkReferencesChain(b *testing.B) {
	snap, f, text := chainSetup(b)
	p := lsptest.Position(text, strings.Index(text, "node n199 ")+6, false)
	for b.Loop() {
		locs, err := References(snap, f, p, true, Options{})
		if err != nil || len(locs) != 2 {
			b.Fatalf("%d locations, %v", len(locs), err)
		}
	}
}
