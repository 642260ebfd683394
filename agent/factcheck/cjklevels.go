package factcheck

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// A long Chinese place value names its levels from the largest down to
// the place itself: 號山枯松澗火雲洞 is the cave 火雲洞 of 枯松澗 of 號山.
// Stated with the last level replaced by another place of the same kind
// (號山枯松澗黑風洞), the levels above say which value it is and the
// replacement what it contradicts it with: another cave, which the book
// names (a declared name, or a form the manuscript writes elsewhere), not
// words that happen to end alike (號山枯松澗有個洞).

// lastLevelLen is the length of the last level read: a name of two
// characters and its place ending (火雲洞, 水簾洞, 花果山).
const lastLevelLen = 3

// minLevelsAbove is the fewest characters the levels above the last must
// have to say which value it is.
const minLevelsAbove = 5

// levelFunctionRunes are characters of grammar, never of a place's own
// name: a run holding one is words, not another place.
const levelFunctionRunes = "的之是在有个個一这這那了不也又和与與及或把被从從到往"

// checkReplacedLastLevels finds e's long place values stated with their
// last level replaced by another place of the book of the same ending.
func (k *Knowledge) checkReplacedLastLevels(d *doc, ft string, e *entInfo, key, v string, vr []rune) []Finding {
	n := len(vr)
	if n < minLevelsAbove+lastLevelLen || !prose.AllCJK(vr) || !placeEnding(vr[n-1]) {
		return nil
	}
	above := string(vr[:n-lastLevelLen])
	if !d.mayHold(above) {
		return nil
	}
	var out []Finding
	counted, ri := 0, 0
	for from := 0; ; {
		j := strings.Index(ft[from:], above)
		if j < 0 {
			break
		}
		at := from + j
		from = at + len(above)
		ri += utf8.RuneCountInString(ft[counted:at])
		counted = at
		s := ri + utf8.RuneCountInString(above)
		if s+lastLevelLen > len(d.frunes) {
			continue
		}
		w := d.frunes[s : s+lastLevelLen]
		if !prose.AllCJK(w) || w[lastLevelLen-1] != vr[n-1] || slices.Equal(w, vr[n-lastLevelLen:]) {
			continue
		}
		if strings.ContainsAny(string(w[:lastLevelLen-1]), levelFunctionRunes) || !k.namesPlace(string(w)) {
			continue
		}
		if window := above + string(w); k.declaredAnywhere(window) || k.declaredWithin(window) {
			continue
		}
		start, end := d.roff[ri], d.roff[s+lastLevelLen]
		out = append(out, k.nearValueFinding(d, e, start, end, key, v))
	}
	return out
}

// namesPlace reports whether the folded form w is a place of the book: a
// declared name or alias, or a form the manuscript writes minBookUses
// times at least.
func (k *Knowledge) namesPlace(w string) bool {
	for _, e := range k.ents {
		for _, n := range e.e.Names() {
			if string(k.foldRunes(n)) == w {
				return true
			}
		}
	}
	return k.book != nil && k.book.countCJK(w) >= minBookUses
}
