package session

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/flowcabal/flowcabal/internal/projecttest"
)

func TestThreadsFollowTheFiles(t *testing.T) {
	root := projecttest.Copy(t, "pride-and-prejudice")
	s := New(root, Options{})
	defer s.Close()
	threads, window := s.Threads()
	if window != 5 || len(threads) != 1 || threads[0].Name != "The entail" || threads[0].Due != 0 {
		t.Fatalf("threads %v, window %d", threads, window)
	}
	p := filepath.Join(root, "entities", "plot-threads", "the-entail.md")
	if err := os.WriteFile(p, []byte("---\nname: The entail\nkind: plot-thread\nopened: 3\ndue: 9\n---\nBody.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Another folder's entity declared a thread by its kind.
	q := filepath.Join(root, "entities", "locations", "the-lease.md")
	if err := os.WriteFile(q, []byte("---\nname: 租約 𝄞\nkind: plot-thread\ndue: 4\n---\nBody.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	threads, _ = s.Threads()
	if len(threads) != 2 || threads[0].Name != "租約 𝄞" || threads[1].Due != 9 {
		t.Fatalf("after the edits: %d threads, first %q", len(threads), threads[0].Name)
	}
}

// BenchmarkThreads is the cost of the plot threads to the diagnostics of
// an open workflow (asked at each change): the entity files' sizes and
// times, read again only when one changed.
func BenchmarkThreads(b *testing.B) {
	root := projecttest.Copy(b, "pride-and-prejudice")
	s := New(root, Options{})
	defer s.Close()
	s.Threads()
	b.ResetTimer()
	for range b.N {
		if ts, _ := s.Threads(); len(ts) != 1 {
			b.Fatal(len(ts))
		}
	}
}
