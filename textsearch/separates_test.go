package textsearch

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// termsOf is the passages' terms, one after another.
func termsOf(a *Analyzer, text string, ps []Passage) []string {
	var out []string
	for _, p := range ps {
		out = append(out, a.Terms(text[p.Start:p.End])...)
	}
	return out
}

func TestSeparates(t *testing.T) {
	a := NewAnalyzer(NewFolder())
	for _, tc := range []struct {
		name string
		text string
		ps   []Passage
		want bool
	}{
		{"paragraphs", "寶玉笑道\n\n黛玉聽了", []Passage{{0, 12}, {14, 26}}, true},
		{"touching at a full stop", "寶玉笑道。黛玉聽了", []Passage{{0, 15}, {15, 27}}, true},
		{"inside a Chinese run", "寶玉笑道黛玉聽了", []Passage{{0, 12}, {12, 24}}, false},
		{"inside an English word", "Elizabeth", []Passage{{0, 4}, {4, 9}}, false},
		{"after an apostrophe", "dogs'day", []Passage{{0, 5}, {5, 8}}, false},
		{"text outside the passages", "Darcy smiled. Jane", []Passage{{0, 13}}, false},
		{"blank outside the passages", "\n Darcy smiled. \n", []Passage{{2, 15}}, true},
		{"astral letters split", "𠀀𠀁", []Passage{{0, 4}, {4, 8}}, false},
		{"overlapping", "ab cd", []Passage{{0, 3}, {2, 5}}, false},
	} {
		got := a.Separates(tc.text, tc.ps)
		if got != tc.want {
			t.Errorf("%s: Separates = %v, want %v", tc.name, got, tc.want)
		}
		if got && !slices.Equal(termsOf(a, tc.text, tc.ps), a.Terms(tc.text)) {
			t.Errorf("%s: separated, but the terms differ", tc.name)
		}
	}
}

// Wherever Separates says so, the passages' terms are the text's, over
// random texts and random cuts as well as the cuts Passages makes.
func TestSeparatesKeepsTheTerms(t *testing.T) {
	a := NewAnalyzer(NewFolder())
	alphabet := []string{"寶", "玉", "黛", "。", "，", "「", "」", "a", "B", "é", "'", " ", "\n", "\n\n", ".", "3", "𠀀", "Ｑ", "—"}
	rng := rand.New(rand.NewPCG(1, 2))
	separated := 0
	for n := 0; n < 20000; n++ {
		var b strings.Builder
		for range 1 + rng.IntN(40) {
			b.WriteString(alphabet[rng.IntN(len(alphabet))])
		}
		text := b.String()
		cuts := [][]Passage{Passages(text, 1+rng.IntN(8))}
		// Random cuts at rune boundaries, some gaps left between them.
		var ps []Passage
		at := 0
		for at < len(text) {
			start := at
			for start < len(text) && rng.IntN(4) == 0 {
				start = next(text, start)
			}
			end := start
			for end < len(text) && (end == start || rng.IntN(5) != 0) {
				end = next(text, end)
			}
			if end > start {
				ps = append(ps, Passage{start, end})
			}
			at = end
		}
		cuts = append(cuts, ps)
		for _, ps := range cuts {
			if !a.Separates(text, ps) {
				continue
			}
			separated++
			if got, want := termsOf(a, text, ps), a.Terms(text); !slices.Equal(got, want) {
				t.Fatalf("%q cut %v: Separates, but the terms are %q, want %q", text, ps, got, want)
			}
		}
	}
	if separated < 5000 {
		t.Errorf("only %d of 40000 cuts separated: the test says little", separated)
	}
}

func next(s string, i int) int {
	for i++; i < len(s) && s[i]&0xC0 == 0x80; i++ {
	}
	return i
}
