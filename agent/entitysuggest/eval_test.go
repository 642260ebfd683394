package entitysuggest

import (
	"context"
	"github.com/flowcabal/flowcabal/internal/projecttest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/knowledge"
)

// sharedDir finds shared/<rel> by walking up from the package: the books
// and the evaluation data live beside the repository (../shared).
func sharedDir(t testing.TB, rel string) string {
	t.Helper()
	return filepath.Join(projecttest.Shared(t), rel)
}

func loadEntities(t testing.TB, dir string) []*knowledge.Entity {
	t.Helper()
	p, errs := knowledge.LoadProject(dir)
	if len(errs) > 0 {
		t.Fatalf("entities of %s: %v", dir, errs)
	}
	if len(p.Entities) == 0 {
		t.Fatalf("no entities under %s", dir)
	}
	return p.Entities
}

// TestEvalBooks measures the suggestions on the shared books against
// their entity files (the 15 character files most mentioned in the book
// are its important characters) and holds the figures reached: at least
// 12 of 15 in the top 40 (fewer for Journey to the West, whose minor
// immortals rank below its demons and role nouns), no entry merging two
// people, and an alias share a little under the one measured when this
// was last changed (the 60% is reached on Pride and Prejudice,
// on War and Peace in all sets, on 西遊記 in most, not on 紅樓夢), on
// the entity files of the test projects and on those written apart
// (testdata/eval/fresh, fresh3 … fresh11).
func TestEvalBooks(t *testing.T) {
	repo := func(rel string) string {
		wd, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		return filepath.Join(wd, "..", "..", rel)
	}
	cases := []struct {
		book, entities string
		found          int
		aliasShare     float64
	}{
		{"pride-and-prejudice", sharedDir(t, "eval/pride-and-prejudice"), 15, 0.85},
		{"hongloumeng", repo("testdata/assemble/hongloumeng-entities"), 15, 0.51},
		{"hongloumeng", repo("testdata/projects/hongloumeng"), 6, 0.64},
		{"hongloumeng", repo("testdata/eval/hongloumeng"), 15, 0.55},
		{"war-and-peace", repo("testdata/eval/war-and-peace"), 15, 0.67},
		{"xiyouji", repo("testdata/eval/xiyouji"), 15, 0.56},
		// The entity files written apart from this code, the more honest
		// measure.
		{"pride-and-prejudice", repo("testdata/eval/fresh/pride-and-prejudice"), 15, 0.88},
		{"hongloumeng", repo("testdata/eval/fresh/hongloumeng"), 15, 0.58},
		{"war-and-peace", repo("testdata/eval/fresh/war-and-peace"), 15, 0.68},
		{"xiyouji", repo("testdata/eval/fresh/xiyouji"), 10, 0.73},
		{"war-and-peace", repo("testdata/eval/fresh3/war-and-peace"), 13, 0.71},
		{"xiyouji", repo("testdata/eval/fresh3/xiyouji"), 8, 0.77},
		// Held back until the sessions that added them ended; fresh5
		// P&P holds Colonel Fitzwilliam, whose family name is Darcy's
		// given name.
		{"hongloumeng", repo("testdata/eval/fresh4/hongloumeng"), 15, 0.57},
		{"pride-and-prejudice", repo("testdata/eval/fresh4/pride-and-prejudice"), 15, 0.86},
		{"hongloumeng", repo("testdata/eval/fresh5/hongloumeng"), 12, 0.65},
		{"pride-and-prejudice", repo("testdata/eval/fresh5/pride-and-prejudice"), 12, 0.91},
		{"war-and-peace", repo("testdata/eval/fresh5/war-and-peace"), 10, 0.71},
		{"xiyouji", repo("testdata/eval/fresh5/xiyouji"), 7, 0.75},
		// fresh6 and fresh7, held back from the work on suggestions
		// until the end of the session of 2026-11-27 (fifth).
		{"hongloumeng", repo("testdata/eval/fresh6/hongloumeng"), 14, 0.52},
		{"xiyouji", repo("testdata/eval/fresh6/xiyouji"), 11, 0.75},
		{"pride-and-prejudice", repo("testdata/eval/fresh6/pride-and-prejudice"), 15, 0.82},
		{"war-and-peace", repo("testdata/eval/fresh6/war-and-peace"), 14, 0.70},
		{"hongloumeng", repo("testdata/eval/fresh7/hongloumeng"), 14, 0.59},
		{"xiyouji", repo("testdata/eval/fresh7/xiyouji"), 12, 0.81},
		{"pride-and-prejudice", repo("testdata/eval/fresh7/pride-and-prejudice"), 15, 0.88},
		{"war-and-peace", repo("testdata/eval/fresh7/war-and-peace"), 15, 0.73},
		// fresh8, held back from the work on suggestions until the end of
		// the session of 2026-11-27 (sixth).
		{"hongloumeng", repo("testdata/eval/fresh8/hongloumeng"), 15, 0.60},
		{"xiyouji", repo("testdata/eval/fresh8/xiyouji"), 12, 0.69},
		{"pride-and-prejudice", repo("testdata/eval/fresh8/pride-and-prejudice"), 15, 0.81},
		{"war-and-peace", repo("testdata/eval/fresh8/war-and-peace"), 15, 0.68},
		// fresh9, held back from the work on suggestions until the end of
		// the session of 2026-11-27 (seventh).
		{"hongloumeng", repo("testdata/eval/fresh9/hongloumeng"), 14, 0.61},
		{"xiyouji", repo("testdata/eval/fresh9/xiyouji"), 14, 0.52},
		{"pride-and-prejudice", repo("testdata/eval/fresh9/pride-and-prejudice"), 15, 0.83},
		{"war-and-peace", repo("testdata/eval/fresh9/war-and-peace"), 15, 0.71},
		// fresh10, held back until the end of the session of 2026-11-27
		// (eighth), one session longer than the others.
		{"hongloumeng", repo("testdata/eval/fresh10/hongloumeng"), 15, 0.59},
		{"xiyouji", repo("testdata/eval/fresh10/xiyouji"), 13, 0.67},
		{"pride-and-prejudice", repo("testdata/eval/fresh10/pride-and-prejudice"), 15, 0.83},
		{"war-and-peace", repo("testdata/eval/fresh10/war-and-peace"), 15, 0.67},
		// fresh11, held back until the end of the session of 2026-11-28
		// (ninth), one session longer than the others.
		{"hongloumeng", repo("testdata/eval/fresh11/hongloumeng"), 15, 0.55},
		{"xiyouji", repo("testdata/eval/fresh11/xiyouji"), 13, 0.68},
		{"pride-and-prejudice", repo("testdata/eval/fresh11/pride-and-prejudice"), 15, 0.81},
		{"war-and-peace", repo("testdata/eval/fresh11/war-and-peace"), 15, 0.63},
		// fresh12, held back until the session of 2026-11-28 (tenth), one
		// session longer than the others.
		{"hongloumeng", repo("testdata/eval/fresh12/hongloumeng"), 15, 0.53},
		{"xiyouji", repo("testdata/eval/fresh12/xiyouji"), 14, 0.48},
		{"pride-and-prejudice", repo("testdata/eval/fresh12/pride-and-prejudice"), 15, 0.83},
		{"war-and-peace", repo("testdata/eval/fresh12/war-and-peace"), 15, 0.55},
		// fresh16, run at the start and end of the session of 2026-11-28
		// (twelfth) that added it.
		{"hongloumeng", repo("testdata/eval/fresh16/hongloumeng"), 15, 0.77},
		{"xiyouji", repo("testdata/eval/fresh16/xiyouji"), 11, 0.83},
		{"pride-and-prejudice", repo("testdata/eval/fresh16/pride-and-prejudice"), 15, 0.83},
		{"war-and-peace", repo("testdata/eval/fresh16/war-and-peace"), 15, 0.8},
		// fresh20, run at the start and end of the session of 2026-11-28
		// (thirteenth) that added it.
		{"hongloumeng", repo("testdata/eval/fresh20/hongloumeng"), 14, 0.78},
		{"xiyouji", repo("testdata/eval/fresh20/xiyouji"), 10, 0.9},
		{"pride-and-prejudice", repo("testdata/eval/fresh20/pride-and-prejudice"), 15, 0.85},
		{"war-and-peace", repo("testdata/eval/fresh20/war-and-peace"), 15, 0.89},
	}
	for _, c := range cases {
		t.Run(c.book+"/"+filepath.Base(c.entities), func(t *testing.T) {
			chs, err := ReadBook(sharedDir(t, "corpus/"+c.book))
			if err != nil {
				t.Fatal(err)
			}
			rep, err := Evaluate(context.Background(), chs, loadEntities(t, c.entities), EvalOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			rep.Format(&b, 40)
			t.Log("\n" + b.String())
			if rep.Found < c.found {
				t.Errorf("found %d of %d important characters in the top 40, want at least %d", rep.Found, len(rep.Characters), c.found)
			}
			if len(rep.Merges) > 0 {
				t.Errorf("entries merging two people: %v", rep.Merges)
			}
			if s := rep.AliasShare(); s < c.aliasShare {
				t.Errorf("alias share %.2f, want at least %.2f", s, c.aliasShare)
			}
		})
	}
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
