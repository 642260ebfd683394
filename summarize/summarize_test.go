package summarize

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/flowcabal/flowcabal/textsearch"
)

func corpusDir(t testing.TB) string {
	t.Helper()
	dir, _ := os.Getwd()
	for d := dir; ; d = filepath.Dir(d) {
		p := filepath.Join(d, "shared", "corpus")
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return p
		}
		if filepath.Dir(d) == d {
			t.Fatalf("no shared/corpus above %s", dir)
		}
	}
}

func chapter(t testing.TB, book string, n int) string {
	b, err := os.ReadFile(filepath.Join(corpusDir(t), book, fmt.Sprintf("%03d.txt", n)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func newSummarizer() *Summarizer {
	return New(textsearch.NewAnalyzer(nil), textsearch.NewCounter(""))
}

func TestSummarizeChapters(t *testing.T) {
	s := newSummarizer()
	for _, tc := range []struct {
		book string
		n    int
	}{{"pride-and-prejudice", 1}, {"pride-and-prejudice", 34}, {"hongloumeng", 1}, {"hongloumeng", 27}} {
		text := chapter(t, tc.book, tc.n)
		got, err := s.Summarize(text)
		if err != nil {
			t.Fatal(err)
		}
		if !got.Extractive() {
			t.Errorf("not marked extractive: %q", got.Method)
		}
		if got.L0Tokens <= 0 || got.L0Tokens >= 50 {
			t.Errorf("%s %d: L0 has %d tokens: %q", tc.book, tc.n, got.L0Tokens, got.L0)
		}
		if got.L1Tokens < L1Min || got.L1Tokens > L1Max {
			t.Errorf("%s %d: L1 has %d tokens", tc.book, tc.n, got.L1Tokens)
		}
		if strings.HasPrefix(strings.ToLower(got.L0), "chapter") {
			t.Errorf("%s %d: L0 is the heading: %q", tc.book, tc.n, got.L0)
		}
		again, _ := s.Summarize(text)
		if again != got {
			t.Errorf("%s %d: not deterministic", tc.book, tc.n)
		}
		// Every sentence of L1 is from the text (whitespace aside).
		flat := strings.Join(strings.Fields(text), " ")
		for _, part := range strings.Split(got.L1, " … ") {
			part = strings.TrimSpace(part)
			if _, after, ok := strings.Cut(part, "\n"); ok && !strings.Contains(flat, part) {
				part = after
			}
			if !strings.Contains(flat, part) {
				t.Errorf("%s %d: L1 part not in text: %q", tc.book, tc.n, part)
			}
		}
		t.Logf("%s %d\nL0 (%d): %s\nL1 (%d): %.300s…", tc.book, tc.n, got.L0Tokens, got.L0, got.L1Tokens, got.L1)
	}
}

func TestSummarizeShortAndOdd(t *testing.T) {
	s := newSummarizer()
	tests := []string{"", "Just one line.", "# Title\n\nShort body here.", "\xff\xfe", strings.Repeat("word ", 3000),
		strings.Repeat("很长的句子没有标点", 400)}
	for _, in := range tests {
		got, err := s.Summarize(in)
		if err != nil {
			t.Fatalf("%.20q: %v", in, err)
		}
		if got.L0Tokens >= 50 || got.L1Tokens > L1Max {
			t.Errorf("%.20q: L0 %d L1 %d tokens", in, got.L0Tokens, got.L1Tokens)
		}
	}
}

func BenchmarkSummarizeHongloumengChapter(b *testing.B) {
	s := newSummarizer()
	text := chapter(b, "hongloumeng", 27)
	s.Summarize(text)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		s.Summarize(text)
	}
}

func TestShortTextHasLevels(t *testing.T) {
	got, err := newSummarizer().Summarize("Chapter 1\n\nA fox ran.\n")
	if err != nil {
		t.Fatal(err)
	}
	if got.L0 != "A fox ran." || !strings.Contains(got.L1, "A fox ran.") {
		t.Errorf("L0 %q L1 %q", got.L0, got.L1)
	}
}

// Comments (a profile's section markers) never reach the levels.
func TestSummaryLeavesOutComments(t *testing.T) {
	s := newSummarizer()
	in := "<!-- model -->\nElizabeth walks to Netherfield through the mud. <!-- a note\nover lines --> Jane is ill there.\n<!-- /model -->\n<!-- author -->\nDarcy notices her eyes.\n<!-- /author -->\n"
	got, err := s.Summarize(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, level := range []string{got.L0, got.L1} {
		if strings.Contains(level, "<!--") || strings.Contains(level, "-->") || strings.Contains(level, "a note") {
			t.Errorf("comment in a level: %q", level)
		}
	}
	if !strings.Contains(got.L1, "Netherfield") {
		t.Errorf("L1 lost the text: %q", got.L1)
	}
}

// TestSummaryHoldsNoPartOfTheText: a summary's levels are copies, not
// slices of the text (or of its copy without comments): a kept summary
// of one sentence must not keep a whole chapter alive. Chinese and
// English chapters, with and without an HTML comment.
func TestSummaryHoldsNoPartOfTheText(t *testing.T) {
	s := newSummarizer()
	for _, tc := range []struct {
		book    string
		n       int
		comment bool
	}{{"hongloumeng", 1, false}, {"hongloumeng", 27, true}, {"pride-and-prejudice", 1, false}, {"pride-and-prejudice", 34, true}} {
		text := chapter(t, tc.book, tc.n)
		if tc.comment {
			text = "<!-- 作者注：𝄞 -->\n" + text
		}
		got, err := s.Summarize(text)
		if err != nil {
			t.Fatal(err)
		}
		for _, lv := range []struct{ name, s string }{{"L0", got.L0}, {"L1", got.L1}} {
			if lv.s == "" {
				t.Errorf("%s %d: empty %s", tc.book, tc.n, lv.name)
				continue
			}
			start := uintptr(unsafe.Pointer(unsafe.StringData(text)))
			at := uintptr(unsafe.Pointer(unsafe.StringData(lv.s)))
			if at >= start && at < start+uintptr(len(text)) {
				t.Errorf("%s %d: %s is a slice of the text at byte %d", tc.book, tc.n, lv.name, at-start)
			}
		}
	}
}
