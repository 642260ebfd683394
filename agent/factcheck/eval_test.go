package factcheck

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/internal/projecttest"

	"github.com/flowcabal/flowcabal/knowledge"
)

// sharedDir finds shared/<rel> by walking up from the package: the
// evaluation data lives beside the repository (../shared from its root).
func sharedDir(t testing.TB, rel string) string {
	t.Helper()
	return filepath.Join(projecttest.Shared(t), rel)
}

// evalTargets runs a case file against a project and checks issue 7's
// targets: precision (findings on the originals counted as false) at
// least 0.9, recall at least 0.8, at most one false positive per 20
// originals.
// prev gives the previous chapter ("" for none; nil for no continuity).
func evalTargets(t *testing.T, project, casesFile string, prev func(int) string) *Report {
	t.Helper()
	p, errs := knowledge.LoadProject(project)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	f, err := os.Open(casesFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cases, err := ReadCases(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatal("no cases")
	}
	rep := Evaluate(cases, FromProject(p, testFolder), prev)
	var out bytes.Buffer
	rep.Write(&out)
	t.Logf("%s", out.String())
	prec, rec, fp := rep.Totals()
	if prec < 0.9 || rec < 0.8 || float64(fp)*20 > float64(len(cases)) {
		t.Errorf("precision %.2f (want >= 0.9), recall %.2f (want >= 0.8), %d false positives on %d originals (want <= 1 per 20)", prec, rec, fp, len(cases))
	}
	last := strings.TrimSpace(out.String())
	last = last[strings.LastIndex(last, "\n")+1:]
	if !regexp.MustCompile(`^precision: \d\.\d\d recall: \d\.\d\d false-positives: \d+$`).MatchString(last) {
		t.Errorf("closing line %q", last)
	}
	return rep
}

func TestEvalPrideAndPrejudice(t *testing.T) {
	rep := evalTargets(t, sharedDir(t, "eval/pride-and-prejudice"), sharedDir(t, "eval/role-c-planted.jsonl"), corpusPrev(t, "pride-and-prejudice"))
	figs := rep.Figures()
	for _, typ := range []string{TypeName, TypeFact, TypeState, TypeWorld} {
		if f := figs[typ]; f == nil || f.Cases != 10 || f.Recall < 0.8 || f.Precision < 0.9 {
			t.Errorf("%s: %+v", typ, f)
		}
	}
}

func TestEvalHongloumeng(t *testing.T) {
	evalTargets(t, filepath.Join(testdataDir, "hongloumeng"), filepath.Join(testdataDir, "hongloumeng-planted.jsonl"), corpusPrev(t, "hongloumeng"))
}

// corpusPrev returns the previous chapter of a corpus book, as the
// evaluation command's --chapters gives it.
func corpusPrev(t testing.TB, book string) func(int) string {
	dir := sharedDir(t, "corpus/"+book)
	return func(ch int) string {
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("%03d.txt", ch-1)))
		if err != nil {
			return ""
		}
		return string(b)
	}
}

// TestEvalContinuity: names that chapter N-1 of 红楼梦 uses, misspelt in
// chapter N by a homophone (make-hongloumeng-continuity.py), checked
// with the whole previous chapter.
func TestEvalContinuity(t *testing.T) {
	rep := evalTargets(t, filepath.Join(testdataDir, "hongloumeng"), filepath.Join(testdataDir, "hongloumeng-continuity.jsonl"), corpusPrev(t, "hongloumeng"))
	if f := rep.Figures()[TypeContinuity]; f == nil || f.Cases != 30 || f.Recall < 0.8 || f.Precision < 1 {
		t.Errorf("continuity: %+v", f)
	}
}

func TestReadCasesErrors(t *testing.T) {
	for _, in := range []string{"{", `{"id":"x","modified_excerpt":"ab","span":[1,9]}`} {
		if _, err := ReadCases(strings.NewReader("\n" + in + "\n")); err == nil || !strings.Contains(err.Error(), "line 2") {
			t.Errorf("%q: error %v", in, err)
		}
	}
	cs, err := ReadCases(strings.NewReader(`{"id":"a","type":"name","modified_excerpt":"林黛王","span":[0,3]}` + "\n\n"))
	if err != nil || len(cs) != 1 || cs[0].Span != [2]int{0, 3} {
		t.Errorf("%v %v", cs, err)
	}
}

func TestExpectedName(t *testing.T) {
	for in, want := range map[string]string{
		"misspelled name; should be Kitty (entities/characters/catherine-bennet)": "Kitty",
		"misspelled name; should be Lady Catherine (entities/x)":                  "Lady Catherine",
		"misspelled name; should be 林黛玉 (entities/characters/lin-daiyu)":          "林黛玉",
		"entities/characters/x facts.age = 27":                                    "",
	} {
		if got := expectedName(in); got != want {
			t.Errorf("expectedName(%q) = %q want %q", in, got, want)
		}
	}
}

// TestEvalRandom: planted errors drawn at random (make-*-random.py), not
// hand-picked, as a check that the checkers are not fitted to the
// hand-made sets.
func TestEvalRandom(t *testing.T) {
	t.Run("pride-and-prejudice", func(t *testing.T) {
		evalTargets(t, sharedDir(t, "eval/pride-and-prejudice"), filepath.Join(testdataDir, "pride-and-prejudice-random.jsonl"), corpusPrev(t, "pride-and-prejudice"))
	})
	t.Run("hongloumeng", func(t *testing.T) {
		evalTargets(t, filepath.Join(testdataDir, "hongloumeng"), filepath.Join(testdataDir, "hongloumeng-random.jsonl"), corpusPrev(t, "hongloumeng"))
	})
}

// TestEvalDevelopmentBooks holds the development sets of books the
// checkers were not first built on (testdata/eval: War and Peace, 西遊記,
// and a 紅樓夢 set with entity files of its own), each checked with its
// whole book as the manuscript, as `flowcabal eval checks --chapters`
// does. The floors sit a little under the figures of the commit that set
// them (0.95/0.90, 1.00/0.78, 1.00/0.75), so that a change that loses
// cases across books fails here.
func TestEvalDevelopmentBooks(t *testing.T) {
	for _, book := range []string{"war-and-peace", "xiyouji", "hongloumeng"} {
		t.Run(book, func(t *testing.T) {
			evalBook(t, filepath.Join("..", "..", "testdata", "eval", book), book, 0.9, 0.7, 2)
		})
	}
}

// TestEvalFreshBooks holds the fresh sets (testdata/eval/fresh*/README.md)
// to floors a little under their figures: a change that loses cases on
// books written by another hand fails here. fresh3 is a pair written
// later by another writer; fresh4 was held back until the end of the
// session that added it; fresh5 holds facts and states only, in
// constructions of its writers' choosing; fresh6 to fresh12, four books
// of sixteen cases each, were held back until the end of the sessions
// that added them (fresh10 to fresh12 one session longer); fresh16 and
// fresh20, of eighteen cases each, were run at the start and end of the
// sessions that added them (fresh16 was then tuned on, one session
// later). minPrec is
// 0.95 unless given: fresh11's Pride and Prejudice keeps the false finding
// it had when it was first run (testdata/eval/fresh11/README.md).
func TestEvalFreshBooks(t *testing.T) {
	for _, tc := range []struct {
		set, book string
		minRecall float64
		minPrec   float64
	}{
		{"fresh", "xiyouji", 0.8, 0}, {"fresh", "war-and-peace", 0.8, 0}, {"fresh", "hongloumeng", 0.85, 0}, {"fresh", "pride-and-prejudice", 0.85, 0},
		{"fresh3", "xiyouji", 0.85, 0}, {"fresh3", "war-and-peace", 0.85, 0},
		{"fresh4", "hongloumeng", 0.85, 0}, {"fresh4", "pride-and-prejudice", 0.75, 0},
		{"fresh5", "hongloumeng", 0.55, 0}, {"fresh5", "xiyouji", 0.8, 0}, {"fresh5", "pride-and-prejudice", 0.75, 0}, {"fresh5", "war-and-peace", 0.85, 0},
		{"fresh6", "hongloumeng", 0.75, 0}, {"fresh6", "xiyouji", 0.75, 0}, {"fresh6", "pride-and-prejudice", 0.7, 0}, {"fresh6", "war-and-peace", 0.85, 0},
		{"fresh7", "hongloumeng", 0.9, 0}, {"fresh7", "xiyouji", 0.9, 0}, {"fresh7", "pride-and-prejudice", 0.85, 0}, {"fresh7", "war-and-peace", 0.95, 0},
		{"fresh8", "hongloumeng", 0.6, 0}, {"fresh8", "xiyouji", 0.6, 0}, {"fresh8", "pride-and-prejudice", 0.5, 0}, {"fresh8", "war-and-peace", 0.75, 0},
		{"fresh9", "hongloumeng", 0.85, 0}, {"fresh9", "xiyouji", 0.9, 0}, {"fresh9", "pride-and-prejudice", 0.8, 0}, {"fresh9", "war-and-peace", 0.9, 0},
		{"fresh10", "hongloumeng", 0.65, 0}, {"fresh10", "xiyouji", 0.7, 0}, {"fresh10", "pride-and-prejudice", 0.8, 0}, {"fresh10", "war-and-peace", 0.8, 0},
		{"fresh11", "hongloumeng", 0.7, 0}, {"fresh11", "xiyouji", 0.7, 0}, {"fresh11", "pride-and-prejudice", 0.65, 0.8}, {"fresh11", "war-and-peace", 0.75, 0},
		{"fresh12", "hongloumeng", 0.6, 0}, {"fresh12", "xiyouji", 0.6, 0}, {"fresh12", "pride-and-prejudice", 0.55, 0}, {"fresh12", "war-and-peace", 0.55, 0},
		{"fresh16", "hongloumeng", 0.7, 0}, {"fresh16", "xiyouji", 0.75, 0}, {"fresh16", "pride-and-prejudice", 0.6, 0}, {"fresh16", "war-and-peace", 0.75, 0},
		{"fresh20", "hongloumeng", 0.45, 0}, {"fresh20", "xiyouji", 0.6, 0}, {"fresh20", "pride-and-prejudice", 0.65, 0}, {"fresh20", "war-and-peace", 0.4, 0},
	} {
		t.Run(tc.set+"/"+tc.book, func(t *testing.T) {
			minPrec := tc.minPrec
			if minPrec == 0 {
				minPrec = 0.95
			}
			evalBook(t, filepath.Join("..", "..", "testdata", "eval", tc.set, tc.book), tc.book, minPrec, tc.minRecall, 1)
		})
	}
}

// evalBook scores the planted set in dir against the corpus book, the
// whole book as the manuscript, and fails under the floors given.
func evalBook(t *testing.T, dir, book string, minPrec, minRec float64, maxFP int) {
	t.Helper()
	p, errs := knowledge.LoadProject(dir)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	k := FromProject(p, testFolder)
	corpus := sharedDir(t, "corpus/"+book)
	var chapters []string
	var nums []int
	for ch := 1; ; ch++ {
		b, err := os.ReadFile(filepath.Join(corpus, fmt.Sprintf("%03d.txt", ch)))
		if err != nil {
			break
		}
		chapters = append(chapters, string(b))
		nums = append(nums, ch)
	}
	k.UseManuscriptChapters(nums, chapters)
	f, err := os.Open(filepath.Join(dir, "planted.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	cases, err := ReadCases(f)
	if err != nil {
		t.Fatal(err)
	}
	rep := Evaluate(cases, k, corpusPrev(t, book))
	prec, rec, fp := rep.Totals()
	t.Logf("%s: precision %.2f recall %.2f, %d false positives on %d originals", dir, prec, rec, fp, len(cases))
	if prec < minPrec || rec < minRec || fp > maxFP {
		t.Errorf("%s: precision %.2f (want >= %.2f), recall %.2f (want >= %.2f), %d false positives (want <= %d)", dir, prec, minPrec, rec, minRec, fp, maxFP)
	}
}
