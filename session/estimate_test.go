package session

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/flowcabal/flowcabal/internal/projecttest"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// BenchmarkEstimate measures one estimate of the sample chapter workflow
// (three nodes, each with Role A's context of up to 24,000 tokens), as the
// editor's lenses ask for it after a change: knowledge already read, no
// store yet. Run: go test ./session -run '^$' -bench Estimate -benchmem
func BenchmarkEstimate(b *testing.B) {
	root := projecttest.Copy(b, "pride-and-prejudice")
	projecttest.UseModels(b, root, "http://127.0.0.1:1/v1", "K")
	p := filepath.Join(root, "workflows", "chapter-11.flow")
	src, err := os.ReadFile(p)
	if err != nil {
		b.Fatal(err)
	}
	wf := workflowlang.Check(workflowlang.Parse(p, src), workflowlang.Env{})
	s := New(root, Options{})
	defer s.Close()
	if _, err := s.estimate(wf); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for range b.N {
		est, err := s.estimate(wf)
		if err != nil || len(est.Nodes) != 3 {
			b.Fatal(err)
		}
	}
}
