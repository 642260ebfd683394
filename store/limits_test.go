package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestResourceLimits: a project with 10,000 entity files and a 5 MB
// chapter indexes, answers mentions and summarises the chapter.
func TestResourceLimits(t *testing.T) {
	if testing.Short() {
		t.Log("short: 2,000 entities instead of 10,000")
	}
	n := 10000
	if testing.Short() {
		n = 2000
	}
	ctx := context.Background()
	root := t.TempDir()
	for i := 0; i < n; i++ {
		p := filepath.Join(root, "entities", "characters", fmt.Sprintf("e%05d.md", i))
		if i == 0 {
			os.MkdirAll(filepath.Dir(p), 0o755)
		}
		os.WriteFile(p, fmt.Appendf(nil, "---\nname: Person %05d\naliases: [P%05d]\nrelations:\n  - { to: entities/characters/e%05d, kind: knows }\n---\nA person.\n", i, i, (i+1)%n), 0o644)
	}
	para := strings.Repeat("寶玉與黛玉在園中說話，Person 00042 walked by. ", 40) + "\n\n"
	writeFile(t, root, "manuscript/chapter-001/content.md", strings.Repeat(para, 5<<20/len(para)))
	start := time.Now()
	s := openStore(t, root, Options{})
	rep, err := s.Index(ctx, nil)
	t.Logf("index of %d entities and a 5 MB chapter: %s", n, time.Since(start))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Entities != n || rep.Chapters != 1 {
		t.Fatalf("stats = %+v", rep.Stats)
	}
	ms, err := s.Mentions(ctx, "Then P00042 met Person 09999.")
	if err != nil || len(ms) < 1 || ms[0].Entity != "entities/characters/e00042" {
		t.Errorf("mentions = %+v, %v", ms, err)
	}
	in, _ := s.RelationsTo("entities/characters/e00042")
	if len(in) != 1 || in[0].From != "entities/characters/e00041" {
		t.Errorf("relations to e00042 = %+v", in)
	}
	s.Close()
	start = time.Now()
	s = openStore(t, root, Options{})
	if _, err := s.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("summaries: %s", time.Since(start))
	l1, _ := s.Level("manuscript/chapter-001", 1)
	if l1.Text == "" || l1.Pending {
		t.Errorf("L1 of the 5 MB chapter = %+v", l1)
	}
}
