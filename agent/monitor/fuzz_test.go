package monitor

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzLocate: any text and quote give either nothing or a range inside the
// text on rune boundaries, never a panic.
func FuzzLocate(f *testing.F) {
	f.Add(enText, "said Mrs Bennet", -1)
	f.Add(zhText, "因贱荆去世", 3)
	f.Add("a\xffb c", "b c", 1000000)
	f.Add("𠀀🙂 x", "🙂 X", -7)
	f.Add("", "…", 0)
	f.Add("ab … cd", "ab ... cd", 0)
	f.Fuzz(func(t *testing.T, text, quote string, near int) {
		l := NewLocator(text, folder)
		s, e, how, ok := l.Locate(quote, near)
		if !ok {
			if how != HowMissing {
				t.Fatalf("not found but how = %s", how)
			}
			return
		}
		if s < 0 || e > len(text) || s >= e {
			t.Fatalf("range %d..%d in %d bytes", s, e, len(text))
		}
		if utf8.ValidString(text) && (!utf8.RuneStart(text[s]) || (e < len(text) && !utf8.RuneStart(text[e]))) {
			t.Fatalf("range %d..%d splits a rune", s, e)
		}
		if how == HowExact && text[s:e] != strings.TrimSpace(quote) {
			t.Fatalf("exact match %q for %q", text[s:e], quote)
		}
	})
}

// BenchmarkLocate measures locating loose quotes in a chapter of about
// 10,000 characters: one found after folding, one with an edit (the
// approximate match), one that matches nothing (the worst case).
func BenchmarkLocate(b *testing.B) {
	chapter := strings.Repeat(zhText, 10000/utf8.RuneCountInString(zhText)) + enText
	quotes := map[string]string{
		"folded":  "因贱荆去世，都中家岳母念及小女无人依傍教育",
		"fuzzy":   "he sat about twelve minutes with him in his library",
		"missing": "Mr. Darcy rode a grey mare all the way to Pemberley that night",
	}
	for name, q := range quotes {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				NewLocator(chapter, folder).Locate(q, -1)
			}
		})
	}
}
