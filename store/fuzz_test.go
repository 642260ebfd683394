package store

import (
	"context"
	"testing"
)

// FuzzIndexFile indexes arbitrary bytes as an entity, a chapter and an
// arc summary: whatever the content, indexing succeeds (problems become
// diagnostics) and a second pass finds nothing changed.
func FuzzIndexFile(f *testing.F) {
	for _, seed := range []string{
		"---\nname: X\naliases: [a, b]\nrelations:\n  - { to: entities/y, kind: k }\n---\nbody",
		"---\nchapters: [3, 1]\n---\n",
		"---\nrelations: [1, {to: 3}, {to: ../../x, kind: k}]\nchapters: [a, b]\n---\n",
		"---\n: : :\n---\n",
		"\xff\xfe",
		"---\nname: &a [*a]\n---\n",
		"",
		"---\n---\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		root := t.TempDir()
		writeFile(t, root, "entities/characters/x.md", string(data))
		writeFile(t, root, "manuscript/chapter-1/content.md", string(data))
		writeFile(t, root, "summaries/arc-1.md", string(data))
		s, err := Open(context.Background(), root, Options{})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Close()
		if _, err := s.Index(context.Background(), nil); err != nil {
			t.Fatalf("index: %v", err)
		}
		if _, err := s.Mentions(context.Background(), "X a b"); err != nil {
			t.Fatal(err)
		}
		rep, err := s.Index(context.Background(), nil)
		if err != nil || rep.Changed+rep.Added+rep.Removed != 0 {
			t.Fatalf("second index: %+v %v", rep, err)
		}
	})
}
