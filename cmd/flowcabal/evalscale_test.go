package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/internal/projecttest"
	"github.com/flowcabal/flowcabal/internal/webnovel"
)

// The planted scene: words found nowhere in the books, added to the
// undisguised text of 紅樓夢 chapter 5 before the book is indexed.
const (
	plantedScene = "寶玉在沁芳閘邊拾得一枚刻著北斗七星的銅羅盤，偷偷藏在枕下，連襲人也不曾告訴。"
	plantedQuery = `{"id":"planted","book":"hongloumeng","writing_chapter":601,"query":"宝玉想起那回在沁芳闸边捡到的刻着北斗七星的铜罗盘。","answer_chapters":[5],"evidence":"刻著北斗七星的銅羅盤"}`
)

var scaleLine = regexp.MustCompile(`^(\S+) W=(\d+) source=(\w+):\[([\d ]+)\] answer=\[([\d ]+)\] back=(\d+) hit=(yes|no) .* evidence=(yes|no) `)

// TestEvalContextGeneratedBook runs `flowcabal eval context --generated`
// on a 600-chapter book made with --distinct and indexed by flowcabal
// index: the 紅樓夢 queries' answer chapters are carried into the
// undisguised pass, asked from
// chapter 601, 250 and more chapters later; a scene planted there is
// found, and Role A's recall and evidence are above the whole-chapter
// baseline's. Misuse fails with a clear error.
func TestEvalContextGeneratedBook(t *testing.T) {
	repo := filepath.Join("..", "..")
	root := filepath.Join(t.TempDir(), "book")
	_, err := webnovel.Generate(root, webnovel.Options{Corpus: filepath.Join(projecttest.Shared(t), "corpus"), Chapters: 600, ChapterChars: 6000, Seed: 11,
		Entities: []string{filepath.Join(repo, "testdata", "assemble", "hongloumeng-entities"), filepath.Join(repo, "testdata", "eval", "xiyouji")}, Distinct: true})
	if err != nil {
		t.Fatal(err)
	}
	man, err := webnovel.ReadManifest(root)
	if err != nil {
		t.Fatal(err)
	}
	planted := man.Source("hongloumeng", 5).Original
	p := filepath.Join(root, webnovel.ChapterDir(planted[len(planted)-1]), "content.md")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, append(data, plantedScene+"\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	queries := filepath.Join(t.TempDir(), "queries.jsonl")
	base, err := os.ReadFile(filepath.Join(repo, "testdata", "assemble", "hongloumeng-queries.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(queries, append(base, plantedQuery+"\n"...), 0o644); err != nil {
		t.Fatal(err)
	}

	// Before flowcabal index there are no kept indexes to measure.
	if code, _, errs := runCLI(t, "", "eval", "context", "--generated", root, "--queries", queries, "--budget", "8000", "--min-back", "250"); code != exitFailure || !strings.Contains(errs, "run flowcabal index") {
		t.Fatalf("without a store: exit %d, %q", code, errs)
	}
	indexRoleA(t, root)
	if code, _, errs := runCLI(t, "", "eval", "context", "--generated", root, "--queries", queries, "--budget", "8000"); code != exitFailure || !strings.Contains(errs, "fewer than --min-back 1000") {
		t.Fatalf("answers under 1,000 chapters back: exit %d, %q", code, errs)
	}
	code, out, errs := runCLI(t, "", "eval", "context", "--generated", root, "--queries", queries, "--budget", "8000", "--min-back", "250", "--baseline")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Contains(out, "analysed again") {
		t.Errorf("Role A was not built from the kept indexes alone:\n%s", out)
	}
	lines := 0
	for _, l := range strings.Split(out, "\n") {
		m := scaleLine.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		lines++
		if m[2] != "601" {
			t.Errorf("%s asked from chapter %s, not 601", m[1], m[2])
		}
		if back, _ := strconv.Atoi(m[6]); back < 250 {
			t.Errorf("%s: answer %d chapters back", m[1], back)
		}
		// Every answer chapter is a chapter of the undisguised pass
		// holding the text of one of the source answer chapters.
		var orig []int
		for _, f := range strings.Fields(m[4]) {
			n, _ := strconv.Atoi(f)
			orig = append(orig, man.Source(m[3], n).Original...)
		}
		for _, f := range strings.Fields(m[5]) {
			if n, _ := strconv.Atoi(f); !slices.Contains(orig, n) {
				t.Errorf("%s: answer chapter %d does not hold source chapters %s (%v)", m[1], n, m[4], orig)
			}
		}
		if m[1] == "planted" {
			if !slices.Contains(strings.Fields(m[5]), strconv.Itoa(planted[len(planted)-1])) || m[7] != "yes" || m[8] != "yes" {
				t.Errorf("the planted scene (chapter %d) was not found:\n%s", planted[len(planted)-1], l)
			}
		}
	}
	if lines != 9 {
		t.Fatalf("%d query lines, want 9:\n%s", lines, out)
	}
	s, _ := scoreOf(out)
	t.Logf("at 8k: recall %.2f evidence %.2f; baseline %.2f / %.2f", s.recall, s.evidence, s.baseRecall, s.baseEvidence)
	if s.recall < 0.75 || s.evidence < 0.75 || s.recall <= s.baseRecall || s.evidence <= s.baseEvidence {
		t.Errorf("recall %.2f evidence %.2f; want at least 0.75 and above the baseline's %.2f / %.2f\n%s", s.recall, s.evidence, s.baseRecall, s.baseEvidence, out)
	}
}

// scoreOf reads the closing lines of an eval context report.
func scoreOf(out string) (evalScore, bool) {
	var s evalScore
	ms := closing.FindAllStringSubmatch(out, -1)
	for _, m := range ms {
		r, _ := strconv.ParseFloat(m[2], 64)
		e, _ := strconv.ParseFloat(m[5], 64)
		if m[1] != "" {
			s.baseRecall, s.baseEvidence = r, e
		} else {
			s.recall, s.evidence = r, e
		}
	}
	return s, len(ms) == 2
}
