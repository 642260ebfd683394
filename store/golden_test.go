package store

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/store")

// TestGoldenIndex compares what the indexer makes of the fixture project
// testdata/store/project (resources, kinds, chapters, titles, names,
// diagnostics, relations, arcs: Chinese, names outside the BMP, CRLF, a
// BOM, broken and missing front matter, a hidden folder, a relation
// leaving the project) with testdata/store/project.golden. Run with
// -update to refresh.
func TestGoldenIndex(t *testing.T) {
	for _, name := range []string{"project"} {
		t.Run(name, func(t *testing.T) {
			root := copyProject(t, filepath.Join("..", "testdata", "store", name))
			s := openStore(t, root, Options{})
			if _, err := s.Index(context.Background(), nil); err != nil {
				t.Fatal(err)
			}
			got := renderIndex(t, s)
			path := filepath.Join("..", "testdata", "store", name+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./store -run TestGoldenIndex -update)", err)
			}
			if got != string(want) {
				t.Errorf("index of %s differs from %s:\n%s", name, path, firstDiff(got, string(want)))
			}
		})
	}
}

func renderIndex(t *testing.T, s *Store) string {
	var b strings.Builder
	rs, err := s.Resources(ResourceQuery{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		fmt.Fprintf(&b, "%s kind=%s", r.Path, r.Kind)
		if r.Chapter > 0 {
			fmt.Fprintf(&b, " chapter=%d", r.Chapter)
		}
		if r.Span[0] > 0 {
			fmt.Fprintf(&b, " span=%d-%d", r.Span[0], r.Span[1])
		}
		fmt.Fprintf(&b, " chars=%d title=%q", r.Chars, r.Title)
		if len(r.Names) > 0 {
			fmt.Fprintf(&b, " names=%q", r.Names)
		}
		b.WriteString("\n")
		for _, d := range r.Diagnostics {
			fmt.Fprintf(&b, "  diagnostic %s\n", d)
		}
		rels, _ := s.Relations(r.Path)
		for _, rel := range rels {
			fmt.Fprintf(&b, "  -> %s %s (%s)\n", rel.Kind, rel.To, rel.Source)
		}
	}
	text := "宝玉見了颦儿，又見Dragon 🐉與𠀀 the Ancient。"
	ms, err := s.Mentions(context.Background(), text)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		fmt.Fprintf(&b, "mention %q at %d-%d (%q) -> %s\n", m.Name, m.Start, m.End, text[m.Start:m.End], m.Entity)
	}
	arcs, _ := s.Arcs()
	for _, a := range arcs {
		fmt.Fprintf(&b, "arc %d: chapters %d-%d %q source=%q\n", a.N, a.From, a.To, a.Chapters, a.Source)
	}
	return b.String()
}
