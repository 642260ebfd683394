package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLargeProjects indexes the whole of both corpus books as
// manuscripts and checks what a writer's tools rely on: chapter counts,
// arcs, Chinese search with traditional/simplified folding, mentions,
// every summary made, and the database size against the text.
func TestLargeProjects(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		book       string
		entities   int
		chapters   int
		arcs       int
		query      string
		wantTop    []string // one of these chapters must rank first
		mention    string
		mentionKey string
	}{
		// 葬花 (burying flowers) is chapters 23 and 27; the query is in
		// simplified characters, the text traditional.
		{"hongloumeng", 100, 120, 12, "黛玉葬花", []string{"manuscript/chapter-023", "manuscript/chapter-027"}, "宝玉和黛玉在园中说话", "entities/characters/c000"},
		{"pride-and-prejudice", 0, 61, 7, "Pemberley housekeeper Mrs. Reynolds", []string{"manuscript/chapter-043"}, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.book, func(t *testing.T) {
			root := t.TempDir()
			makeCorpusProject(t, root, tt.book, tt.entities)
			s := openStore(t, root, Options{})
			rep, err := s.Index(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Chapters != tt.chapters || rep.Characters != tt.entities || rep.Arcs != tt.arcs || rep.WithDiagnostics != 0 {
				t.Fatalf("stats = %+v", rep.Stats)
			}
			hits, err := s.Search(ctx, SearchQuery{Text: tt.query, K: 3, Dir: "manuscript"})
			if err != nil || len(hits) == 0 {
				t.Fatalf("search %q: %v %v", tt.query, hits, err)
			}
			top := false
			for _, w := range tt.wantTop {
				top = top || hits[0].Path == w
			}
			if !top {
				t.Errorf("search %q ranks %v first, want one of %v", tt.query, hits, tt.wantTop)
			}
			if tt.mention != "" {
				ms, _ := s.Mentions(ctx, tt.mention)
				found := false
				for _, m := range ms {
					found = found || m.Entity == tt.mentionKey
				}
				if !found {
					t.Errorf("mentions in %q = %+v, want %s", tt.mention, ms, tt.mentionKey)
				}
			}
			n, err := s.Drain(ctx)
			if err != nil || n < tt.chapters+tt.arcs {
				t.Fatalf("drain made %d summaries: %v", n, err)
			}
			l0, _ := s.Level("manuscript/chapter-043", 0)
			l1, _ := s.Level("manuscript/chapter-043", 1)
			if l0.Text == "" || l0.Pending || !l0.Extractive || len(l1.Text) < 2*len(l0.Text) {
				t.Errorf("levels of chapter 43: L0 %q L1 %d bytes", l0.Text, len(l1.Text))
			}
			arc, _ := s.ArcLevel(5, 1)
			if arc.Text == "" || arc.Pending {
				t.Errorf("arc 5 L1 = %+v", arc)
			}
			s.Close()
			db, _ := os.Stat(filepath.Join(root, ".flowcabal", "project.db"))
			var text int64
			filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
				if err == nil && !fi.IsDir() && strings.HasSuffix(p, ".md") {
					text += fi.Size()
				}
				return nil
			})
			ratio := float64(db.Size()) / float64(text)
			t.Logf("%s: %d bytes of text, database %d bytes (%.2fx)", tt.book, text, db.Size(), ratio)
			if ratio >= 3 {
				t.Errorf("database is %.2fx the text, want under 3x", ratio)
			}
		})
	}
}

func TestSampleProjectHongloumeng(t *testing.T) {
	ctx := context.Background()
	root := copyProject(t, "../testdata/projects/hongloumeng")
	s := openStore(t, root, Options{})
	rep, err := s.Index(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Chapters != 5 || rep.Characters == 0 || rep.WithDiagnostics != 0 {
		t.Fatalf("stats = %+v, diagnostics %v", rep.Stats, rep.Diagnostics)
	}
	// A simplified alias finds the traditional name's entity.
	ms, _ := s.Mentions(ctx, "宝玉笑道")
	if len(ms) == 0 || ms[0].Entity != "entities/characters/jia-baoyu" {
		t.Errorf("mentions = %+v", ms)
	}
	in, _ := s.RelationsTo("entities/characters/lin-daiyu")
	if len(in) == 0 {
		t.Error("no relations to lin-daiyu")
	}
}
