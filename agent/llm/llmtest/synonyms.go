package llmtest

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
)

// EmbedWith is [Embed] with a table of synonyms: every word (or CJK
// phrase) that is a key of synonyms is embedded as its value, so texts
// that say the same thing in other words come out close. It is a
// stand-in for meaning that a test can reason about, not a model: a
// scripted server uses it when its [Script.Synonyms] is set.
//
// Latin words match whole and lower-cased ("Grief" is "grief"); keys
// holding CJK characters match as substrings, longest first.
func EmbedWith(text string, dim int, synonyms map[string]string) []float32 {
	if len(synonyms) == 0 {
		return Embed(text, dim)
	}
	var phrases []string
	words := map[string]string{}
	for k, v := range synonyms {
		if strings.IndexFunc(k, isCJK) >= 0 {
			phrases = append(phrases, k)
		} else {
			words[strings.ToLower(k)] = v
		}
	}
	// Longest first, then byte order: the rewrite does not depend on the
	// map's order.
	slices.SortFunc(phrases, func(a, b string) int {
		if c := cmp.Compare(len(b), len(a)); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	if len(phrases) > 0 {
		pairs := make([]string, 0, 2*len(phrases))
		for _, p := range phrases {
			// Spaces keep a replacement from joining the words around it.
			pairs = append(pairs, p, " "+synonyms[p]+" ")
		}
		text = strings.NewReplacer(pairs...).Replace(text)
	}
	if len(words) > 0 {
		var b, word strings.Builder
		flush := func() {
			if word.Len() == 0 {
				return
			}
			w := word.String()
			if s, ok := words[w]; ok {
				w = s
			}
			b.WriteString(w)
			word.Reset()
		}
		for _, r := range text {
			if !isCJK(r) && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
				word.WriteRune(unicode.ToLower(r))
				continue
			}
			flush()
			b.WriteRune(r)
		}
		flush()
		text = b.String()
	}
	return Embed(text, dim)
}
