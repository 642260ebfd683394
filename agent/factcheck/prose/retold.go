package prose

import (
	"strings"
	"unicode/utf8"
)

// flashbackLeads open a sentence that tells what happened before the
// scene. 當時 is not one: the old novels narrate the scene with it ("then").
var flashbackLeads = []string{"只因", "只为", "只為", "当初", "當初", "当年", "當年", "自从", "自從",
	"昔日", "昔年", "向年", "那年", "从前", "從前", "先前", "想当年", "想當年", "曾经", "曾經"}

// InVerse reports whether p lies in verse: a stretch between line breaks
// (or the double spaces that set verse apart in many editions) made of
// clauses of one length, five or seven characters (four when there are
// four clauses or more), beside another such stretch (a couplet of a
// poem), or of four clauses or more on its own. Two clauses of seven are
// common in prose; a run of couplets is not.
func InVerse(text string, p int) bool {
	start, end := segmentAround(text, p)
	n, clauses := verseMeasure(text[start:end])
	switch {
	case n == 0:
		return false
	case clauses >= 4:
		return true
	}
	// A couplet: the one before or after must scan the same.
	if start > 0 {
		ps, pe := segmentAround(text, lastNonSpace(text, start))
		if m, _ := verseMeasure(text[ps:pe]); m == n {
			return true
		}
	}
	if end < len(text) {
		e := firstNonSpace(text, end)
		if e < len(text) {
			_, f := segmentAround(text, e)
			if m, _ := verseMeasure(text[e:f]); m == n {
				return true
			}
		}
	}
	return false
}

// segmentAround returns the line (or double-space-delimited stretch) that
// holds byte offset p.
func segmentAround(text string, p int) (int, int) {
	start, end := p, p
	for start > 0 {
		r, size := utf8.DecodeLastRuneInString(text[:start])
		if r == '\n' || r == '\u3000' || r == ' ' && strings.HasSuffix(text[:start-size], " ") {
			break
		}
		start -= size
	}
	for end < len(text) {
		r, size := utf8.DecodeRuneInString(text[end:])
		if r == '\n' || r == '\u3000' || r == ' ' && strings.HasPrefix(text[end+size:], " ") {
			break
		}
		end += size
	}
	return start, end
}

func lastNonSpace(text string, p int) int {
	for p > 0 {
		r, size := utf8.DecodeLastRuneInString(text[:p])
		if r != '\n' && r != ' ' && r != '\u3000' && r != '\r' {
			return p - size
		}
		p -= size
	}
	return 0
}

func firstNonSpace(text string, p int) int {
	for p < len(text) {
		r, size := utf8.DecodeRuneInString(text[p:])
		if r != '\n' && r != ' ' && r != '\u3000' && r != '\r' {
			return p
		}
		p += size
	}
	return p
}

// verseMeasure returns the length shared by every clause of seg (5 or 7,
// or 4 with four clauses or more) and the number of clauses; 0 when seg
// does not scan.
func verseMeasure(seg string) (n, clauses int) {
	cs := strings.FieldsFunc(seg, func(r rune) bool {
		return strings.ContainsRune("，。；！？、,.;!? ", r)
	})
	if len(cs) < 2 {
		return 0, 0
	}
	n = -1
	for _, c := range cs {
		cl := 0
		for _, r := range c {
			if !IsCJK(r) {
				return 0, 0 // speech marks, Latin text: prose
			}
			cl++
		}
		if n >= 0 && cl != n {
			return 0, 0
		}
		n = cl
	}
	if n == 5 || n == 7 || n == 4 && len(cs) >= 4 {
		return n, len(cs)
	}
	return 0, 0
}

// InFlashback reports whether the sentence holding p opens with a word
// that sets it before the scene (只因, 當初, 自從…).
func InFlashback(text string, p int) bool {
	start := p
	for start > 0 {
		r, size := utf8.DecodeLastRuneInString(text[:start])
		if strings.ContainsRune("。！？!?\n」“”「", r) {
			break
		}
		start -= size
	}
	s := strings.TrimLeft(text[start:p], " \u3000\t")
	for _, w := range flashbackLeads {
		if strings.HasPrefix(s, w) {
			return true
		}
	}
	return false
}
