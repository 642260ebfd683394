package textsearch

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestCounterLinesAddUp holds the long-text path, which counts line by
// line and keeps the counts, to what one pass over the whole text counts,
// in both encodings, on texts made of the characters that decide where
// the tokenizers' pieces end: newlines of both kinds, spaces before and
// after them, ideographic spaces, punctuation at a line's end and start
// (o200k_base's slash included), letters, digits and Chinese.
func TestCounterLinesAddUp(t *testing.T) {
	atoms := []string{"\n", "\n", "\r\n", " ", "  ", "\t", "\u3000", "。", "「", "」", "/", ".", "'s", "--",
		"Elizabeth", "the", "said", "42", "1811", "寶玉", "道", "笑", "𠀋", "é", "\n\n", " \n", "\n "}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, model := range []string{"gpt-4", "gpt-4o"} {
		c := NewCounter(model)
		if err := c.load(); err != nil {
			t.Fatal(err)
		}
		for k := 0; k < 60; k++ {
			var b strings.Builder
			for b.Len() < longText+rng.IntN(3*longText) {
				b.WriteString(atoms[rng.IntN(len(atoms))])
			}
			text := b.String()
			want, _ := c.codec.Count(text)
			for pass := 0; pass < 2; pass++ { // counted, then from what was kept
				if got, err := c.Count(text); err != nil || got != want {
					t.Fatalf("%s, text %d, pass %d: %d by lines, %d in one pass (%v)\n%q", model, k, pass, got, want, err, text)
				}
			}
		}
	}
}

func TestParagraphEnd(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"no newline", 10},
		{"a\nb", 2},
		{"a\n\n\nb", 4},
		{"a \n \n  b", 5}, // the run up to its last newline
		{"a\r\n\r\nb", 5}, // CRLF
		{"a\n\u3000\u3000b", 2},
		{"a.\n/b\nc", 6}, // not before a slash
		{"a\n", 2},
	} {
		if got := paragraphEnd(tc.in); got != tc.want {
			t.Errorf("paragraphEnd(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}
