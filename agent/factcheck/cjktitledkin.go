package factcheck

import (
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// Titled names in Chinese kinship: a qualifier, a title and a given name
// (東海龍王敖廣, 西海龍王敖閏, 鐵扇公主). A kinship construction may name
// the other person so (本是東海龍王敖廣之子) where no file declares them,
// and the declared value is told the same way (father: 西海龍王敖閏): two
// such names of one title with another qualifier or another given name
// are two people, whatever part of them the book writes often.

// titledHeads end the title of a titled name (folded).
var titledHeads = []string{"龙王", "天王", "大王", "真君", "星君", "元帅", "将军", "公主", "大仙", "国王", "娘娘"}

// titledName is a titled name cut into its parts (folded).
type titledName struct{ qual, head, given string }

// parseTitled cuts a folded name into qualifier, title and given name:
// two to four characters before a head of titledHeads, at most three
// after it. ok is false for anything else.
func parseTitled(s string) (titledName, bool) {
	rs := []rune(s)
	if !prose.AllCJK(rs) {
		return titledName{}, false
	}
	for _, h := range titledHeads {
		i := strings.LastIndex(s, h)
		if i < 0 {
			continue
		}
		q, g := s[:i], s[i+len(h):]
		if n := utf8.RuneCountInString(q); n < 2 || n > 4 || utf8.RuneCountInString(g) > 3 {
			continue
		}
		return titledName{q, h, g}, true
	}
	return titledName{}, false
}

// otherTitled reports whether two folded names are titled names of one
// title that are two people: the qualifiers differ (東海, 西海), or both
// give a given name and they differ (敖廣, 敖閏).
func otherTitled(a, b string) bool {
	ta, ok := parseTitled(a)
	if !ok {
		return false
	}
	tb, ok := parseTitled(b)
	if !ok || ta.head != tb.head {
		return false
	}
	return ta.qual != tb.qual || ta.given != "" && tb.given != "" && ta.given != tb.given
}

// titledEndingAt finds a titled name that ends at byte offset end and
// starts after a break, a copula or a mark (本是|東海龍王敖廣之子): its
// start.
func (d *doc) titledEndingAt(k *Knowledge, end int) (int, bool) {
	start := end
	for n := 0; n < 9; n++ {
		r, size := utf8.DecodeLastRuneInString(d.text[:start])
		if !prose.IsCJK(r) || strings.ContainsRune("的之是乃為为係系即", r) {
			break
		}
		start -= size
	}
	for s := start; s < end; {
		if _, ok := parseTitled(string(k.foldRunes(d.text[s:end]))); ok {
			return s, true
		}
		_, size := utf8.DecodeRuneInString(d.text[s:])
		s += size
	}
	return 0, false
}

// titledStartingAt finds a titled name that starts at byte offset at and
// runs to 的 or 之 (是|西海龍王敖閏之子): its end.
func (d *doc) titledStartingAt(k *Knowledge, at int) (int, bool) {
	end := at
	for n := 0; n < 9 && end < len(d.text); n++ {
		r, size := utf8.DecodeRuneInString(d.text[end:])
		if r == '的' || r == '之' {
			if _, ok := parseTitled(string(k.foldRunes(d.text[at:end]))); ok {
				return end, true
			}
			return 0, false
		}
		if !prose.IsCJK(r) {
			return 0, false
		}
		end += size
	}
	return 0, false
}
