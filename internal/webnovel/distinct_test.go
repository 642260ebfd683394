package webnovel

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/internal/projecttest"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/textsearch"
)

func testEntities() []string {
	repo := filepath.Join("..", "..")
	return []string{filepath.Join(repo, "testdata", "assemble", "hongloumeng-entities"), filepath.Join(repo, "testdata", "eval", "xiyouji")}
}

// TestDistinctBookMapsEverySourceChapter: in a book made with Distinct
// the undisguised pass holds each source chapter's paragraphs exactly, in
// chapters of its own, where the manifest says; the disguised passes hold
// no declared name, and name the same character differently from one
// pass to the next; the passes tile the book.
func TestDistinctBookMapsEverySourceChapter(t *testing.T) {
	corpus := filepath.Join(projecttest.Shared(t), "corpus")
	dir := filepath.Join(t.TempDir(), "book")
	rep, err := Generate(dir, Options{Corpus: corpus, Chapters: 600, ChapterChars: 6000, Seed: 11, Entities: testEntities(), Distinct: true})
	if err != nil {
		t.Fatal(err)
	}
	man, err := ReadManifest(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Chapters != 600 || man.OriginalPass != 2 || len(man.Passes) < 3 {
		t.Fatalf("report %+v, manifest passes %+v", rep, man.Passes)
	}
	// The passes tile chapters 1..600 in order; the second is the
	// original and complete.
	next := 1
	for i, p := range man.Passes {
		if p.Pass != i+1 || p.First != next || p.Last < p.First || p.Disguised != (p.Pass != 2) {
			t.Fatalf("pass %d: %+v (want first %d)", i+1, p, next)
		}
		next = p.Last + 1
	}
	if next != 601 || !man.Passes[1].Complete || man.Passes[len(man.Passes)-1].Complete {
		t.Fatalf("passes %+v", man.Passes)
	}
	chapter := func(n int) string {
		data, err := os.ReadFile(filepath.Join(dir, ChapterDir(n), "content.md"))
		if err != nil {
			t.Fatal(err)
		}
		head := fmt.Sprintf("# 第%d章\n\n", n)
		if !strings.HasPrefix(string(data), head) {
			t.Fatalf("chapter %d starts %q", n, string(data)[:min(len(data), 40)])
		}
		return strings.TrimPrefix(string(data), head)
	}
	owner := map[int]string{}
	for _, b := range Books {
		files, _ := filepath.Glob(filepath.Join(corpus, b, "*.txt"))
		if len(files) == 0 {
			t.Fatalf("no chapters of %s", b)
		}
		for i := range files {
			n := i + 1
			sm := man.Source(b, n)
			if sm == nil || len(sm.Original) == 0 {
				t.Fatalf("%s %d: not mapped: %+v", b, n, sm)
			}
			var got strings.Builder
			for i, c := range sm.Original {
				if c < man.Passes[1].First || c > man.Passes[1].Last || (i > 0 && c != sm.Original[i-1]+1) {
					t.Fatalf("%s %d: original chapters %v outside the original pass or not consecutive", b, n, sm.Original)
				}
				if o, ok := owner[c]; ok {
					t.Fatalf("chapter %d holds %s and %s %d", c, o, b, n)
				}
				owner[c] = fmt.Sprintf("%s %d", b, n)
				got.WriteString(chapter(c))
			}
			if want := sourceParagraphs(t, filepath.Join(corpus, b, fmt.Sprintf("%03d.txt", n))); got.String() != want {
				t.Fatalf("%s %d: chapters %v do not hold its text as it is", b, n, sm.Original)
			}
			if len(sm.Copies) == 0 || sm.Copies[0].Pass != 1 {
				t.Fatalf("%s %d: no copy in the first pass: %+v", b, n, sm.Copies)
			}
		}
	}
	if len(owner) != man.Passes[1].Last-man.Passes[1].First+1 {
		t.Fatalf("the original pass has %d chapters, %d of them mapped", man.Passes[1].Last-man.Passes[1].First+1, len(owner))
	}

	// No declared name in a disguised pass, and 林黛玉's copy of her
	// entrance (紅樓夢 chapter 3) names her otherwise in passes 1 and 3.
	m := declaredNames(t)
	for _, p := range man.Passes {
		if !p.Disguised {
			continue
		}
		for c := p.First; c <= p.Last; c++ {
			if ms := m.Find(chapter(c)); len(ms) > 0 {
				text := chapter(c)
				t.Fatalf("chapter %d (disguised pass %d) names %q: %q", c, p.Pass, ms[0].Name, text[max(0, ms[0].Start-30):min(len(text), ms[0].End+30)])
			}
		}
	}
	sm := man.Source("hongloumeng", 3)
	orig := chapter(sm.Original[0])
	if !strings.Contains(orig, "林黛玉拋父進京都") {
		t.Fatalf("the original of chapter 3 lacks its title: %q", orig[:200])
	}
	title := map[int]string{}
	for _, cp := range sm.Copies {
		for _, c := range cp.Chapters {
			text := chapter(c)
			if i := strings.Index(text, "拋父進京都"); i >= 0 {
				title[cp.Pass] = text[max(0, i-9):i]
			}
		}
	}
	if title[1] == "" || title[3] == "" || title[1] == title[3] || strings.Contains(title[1]+title[3], "黛玉") {
		t.Fatalf("the disguised copies of chapter 3's title name her %q (pass 1) and %q (pass 3)", title[1], title[3])
	}

	// The same seed makes the same book.
	again := filepath.Join(t.TempDir(), "again")
	if _, err := Generate(again, Options{Corpus: corpus, Chapters: 600, ChapterChars: 6000, Seed: 11, Entities: testEntities(), Distinct: true}); err != nil {
		t.Fatal(err)
	}
	for _, c := range []int{1, 300, 600} {
		a, _ := os.ReadFile(filepath.Join(dir, ChapterDir(c), "content.md"))
		b, _ := os.ReadFile(filepath.Join(again, ChapterDir(c), "content.md"))
		if !bytes.Equal(a, b) {
			t.Fatalf("chapter %d differs between two runs of one seed", c)
		}
	}
}

// sourceParagraphs is a chapter file's paragraphs as the generator deals
// them, each followed by a blank line.
func sourceParagraphs(t *testing.T, path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	sc := bufio.NewScanner(bytes.NewReader(bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		if l := strings.TrimSpace(sc.Text()); l != "" {
			for _, p := range cut(l, 6000) {
				b.WriteString(p + "\n\n")
			}
		}
	}
	return b.String()
}

// declaredNames finds every name and alias the test's entity files
// declare, and the given names of three-character Chinese names.
func declaredNames(t *testing.T) *textsearch.Matcher {
	var entries []textsearch.MatchEntry
	for _, dir := range testEntities() {
		p, errs := knowledge.LoadProject(dir)
		if p == nil || len(p.Entities) == 0 {
			t.Fatalf("entities of %s: %v", dir, errs)
		}
		for _, e := range p.Entities {
			names := e.Names()
			if rs := []rune(e.Name); e.Kind == "character" && len(rs) == 3 {
				names = append(names, string(rs[1:]))
			}
			entries = append(entries, textsearch.MatchEntry{Key: e.Path, Names: names, Exclude: e.Exclude})
		}
	}
	return textsearch.NewMatcher(textsearch.NewFolder(), entries)
}
