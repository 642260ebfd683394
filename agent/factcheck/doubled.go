package factcheck

import (
	"github.com/flowcabal/flowcabal/agent/factcheck/hanzi"
	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// A name or form of address that doubles a character (劉姥姥, 李嬤嬤,
// 周奶奶) is typed as a word: an input method offers the doubled
// syllable whole, and a slip changes both characters at once (劉佬佬).
// cjkNearMisses compares windows that differ in one character; the
// doubled pair is compared here, as one slip.

// doubledKey is the key of a name whose characters pos and pos+1 are the
// same, in Knowledge.cjkDoubled: the name with both left out.
type doubledKey struct {
	n, pos int
	r      [maxCJKName]rune
}

// indexDoubled adds s to k.cjkDoubled under each doubled pair after its
// first character (a family name is never doubled).
func (k *Knowledge) indexDoubled(s *nameSeq) {
	n := len(s.runes)
	for p := 1; p+1 < n; p++ {
		if s.runes[p] != s.runes[p+1] {
			continue
		}
		key := doubledKey{n: n, pos: p}
		copy(key.r[:], s.runes)
		key.r[p], key.r[p+1] = 0, 0
		if k.cjkDoubled == nil {
			k.cjkDoubled = map[doubledKey][]*nameSeq{}
		}
		k.cjkDoubled[key] = append(k.cjkDoubled[key], s)
	}
}

// cjkDoubledMisses finds windows that are a declared name of three or
// more characters with its doubled pair replaced by another doubled
// character that sounds or looks the same (佬佬 for 姥姥). As for a
// one-character slip: the window is no declared name, occurs once in
// the text, overlaps no mention, and, with the manuscript known, the
// book writes the name often and the window at most once.
func (k *Knowledge) cjkDoubledMisses(d *doc) []Finding {
	var out []Finding
	rs := d.frunes
	for i := range rs {
		if len(k.cjk[rs[i]]) == 0 {
			continue // the first character is the name's own
		}
		for _, n := range k.cjkLens {
			if n < 3 || i+n > len(rs) {
				continue
			}
			for p := 1; p+1 < n; p++ {
				b := rs[i+p]
				if rs[i+p+1] != b || !prose.IsCJK(b) {
					continue
				}
				key := doubledKey{n: n, pos: p}
				copy(key.r[:n], rs[i:i+n])
				key.r[p], key.r[p+1] = 0, 0
				for _, s := range k.cjkDoubled[key] {
					if a := s.runes[p]; a == b || !hanzi.Homophone(a, b) && !hanzi.LookAlike(a, b) {
						continue
					}
					if f, ok := k.doubledFinding(d, i, n, p, s); ok {
						out = append(out, f)
					}
				}
			}
		}
	}
	return dedupe(out)
}

// doubledFinding judges the window rs[i:i+n] against s, whose pair at p
// it doubles otherwise.
func (k *Knowledge) doubledFinding(d *doc, i, n, p int, s *nameSeq) (Finding, bool) {
	rs := d.frunes
	window := rs[i : i+n]
	for j := i; j < i+n; j++ {
		if !prose.IsCJK(rs[j]) {
			return Finding{}, false
		}
	}
	start, end := d.roff[i], d.roff[i+n]
	if k.declaredCJK(window) || d.overlapsMention(start, end) || countRunes(rs, window) > 1 {
		return Finding{}, false
	}
	if k.book != nil && (k.book.countCJK(string(s.runes)) < minFrequentName || k.book.countCJK(string(window)) > 1) {
		return Finding{}, false
	}
	fix := []rune(d.text[start:end])
	a := k.inScriptOf(d, i, n, s.runes[p])
	fix[p], fix[p+1] = a, a
	return cjkSlipFinding(d, start, end, fix, s, 0.85), true
}
