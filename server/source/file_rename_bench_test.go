package source

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/workflowlang"

	"github.com/flowcabal/flowcabal/internal/cputime"
	"github.com/flowcabal/flowcabal/internal/projecttest"
)

// renameSetup writes lspbench's project: 130 chapters of manuscript and
// 50 workflows of 200 nodes (file i using file i-1), each naming
// chapters 1-10 once ({{@manuscript/chapter-001:L1}} in node n0...), with
// flow-25 open and every file checked.
func renameSetup(b *testing.B) (root string, snap *cache.Snapshot) {
	root = b.TempDir()
	write := func(rel, s string) { projecttest.WriteFile(b, root, rel, s) }
	write("flowcabal.toml", "budget = 24000\n")
	for c := 1; c <= 130; c++ {
		write(fmt.Sprintf("manuscript/chapter-%03d/content.md", c), "# 第"+fmt.Sprint(c)+"回\n\n寶玉聽曲。\n")
	}
	var open string
	for i := range 50 {
		var s strings.Builder
		if i > 0 {
			fmt.Fprintf(&s, "use \"flow-%02d.flow\" as prev\n\n", i-1)
		}
		for n := range 200 {
			fmt.Fprintf(&s, "node n%d \"第%d节 宝玉与黛玉\" {\n  user \"\"\"\n    Write part %d. 黛玉葬花。\n", n, n, n)
			switch {
			case n > 0:
				fmt.Fprintf(&s, "    From {{n%d}}\n", n-1)
			case i > 0:
				s.WriteString("    After {{prev.n199}}\n")
			}
			if n%20 == 0 {
				fmt.Fprintf(&s, "    Previous chapter: {{@manuscript/chapter-%03d:L1}}\n", n/20+1)
			}
			s.WriteString("  \"\"\"\n}\n\n")
		}
		if i == 25 {
			open = s.String()
		}
		write(fmt.Sprintf("workflows/flow-%02d.flow", i), s.String())
	}
	ws, err := cache.NewWorkspace([]string{root}, workflowlang.UTF16)
	if err != nil {
		b.Fatal(err)
	}
	snap, _, _ = ws.Open(cache.FileURI(filepath.Join(root, "workflows", "flow-25.flow")), "flow", 1, open)
	for _, f := range snap.Files() {
		snap.Check(f)
	}
	return root, snap
}

// BenchmarkMoveEdits renames a chapter folder nothing names and one that
// all 50 workflows name, as willRenameFiles does (the edits and their
// JSON).
func BenchmarkMoveEdits(b *testing.B) {
	root, snap := renameSetup(b)
	for _, tc := range []struct {
		name, chapter string
		files         int
	}{{"unnamed", "chapter-050", 0}, {"named-by-50", "chapter-001", 50}} {
		old := filepath.Join(root, "manuscript", tc.chapter)
		moves := []PathMove{{Old: old, New: old + "-renamed"}}
		b.Run(tc.name, func(b *testing.B) {
			defer reportCPU(b, cputime.Used())
			for b.Loop() {
				edits, _ := MoveEdits(snap, moves)
				if e := AppendWorkspaceEdit(nil, edits, Options{Encoding: workflowlang.UTF16}); len(edits) != tc.files || (tc.files > 0) != (string(e) != "null") {
					b.Fatalf("%d files edited, want %d", len(edits), tc.files)
				}
			}
		})
	}
}
