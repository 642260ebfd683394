package factcheck

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// Chinese puts a measure before the noun it measures: 八百里流沙河, 八百里
// 火焰 (the fire of 火焰山), 三十里的黃風嶺. A quantity right before a
// place's name, or before its name without the generic ending (火焰 of
// 火焰山, 流沙 of 流沙河), is that place's measure, whatever the fact's
// key: the noun it modifies says what it measures, as the key's word
// would.

// placeAfterQuantity is the measured place whose name, alias or name
// stem begins at rune index j of d (after an optional 的), with the one
// fact of unit among its facts as of the chapter: nil when none, or when
// the place has several facts of that unit (which it measures is then
// not known).
func (k *Knowledge) placeAfterQuantity(d *doc, j int, unit string) (e *entInfo, key, val string) {
	rs := d.frunes
	if j < len(rs) && rs[j] == '的' {
		j++
	}
	if j >= len(rs) || !prose.IsCJK(rs[j]) {
		return nil, "", ""
	}
	for me := range k.cjkFacts.measured {
		if me.person || !k.placeNamedAt(me, rs, j) {
			continue
		}
		n := 0
		for kk, vv := range d.factsOf(me) {
			if u, _, ok := k.cjkQuantity(vv); ok && u == unit {
				n++
				key, val = kk, vv
			}
		}
		if n != 1 {
			return nil, "", ""
		}
		if e != nil && e != me {
			return nil, "", "" // two places begin there
		}
		e = me
	}
	if e == nil {
		return nil, "", ""
	}
	// Read the fact again: the loop above may have left another place's.
	for kk, vv := range d.factsOf(e) {
		if u, _, ok := k.cjkQuantity(vv); ok && u == unit {
			key, val = kk, vv
		}
	}
	return e, key, val
}

// placeNamedAt reports whether one of e's names (folded), or one of them
// without its place ending when two characters or more remain (火焰 of
// 火焰山), begins at rune index j of rs.
func (k *Knowledge) placeNamedAt(e *entInfo, rs []rune, j int) bool {
	for _, n := range append([]string{e.e.Name}, e.e.Aliases...) {
		nr := k.foldRunes(strings.TrimSpace(n))
		if len(nr) >= 3 && placeEnding(nr[len(nr)-1]) {
			nr = nr[:len(nr)-1]
		}
		if len(nr) < 2 || !prose.IsCJK(nr[0]) || j+len(nr) > len(rs) {
			continue
		}
		if string(rs[j:j+len(nr)]) == string(nr) {
			return true
		}
	}
	return false
}

// supposing are the words that open a clause of what is supposed, not
// stated: 那怕他八萬里火焰 (even were it eighty thousand li of fire), 若有
// 千里, 縱然….
var supposing = []string{"那怕", "哪怕", "縱然", "纵然", "縱使", "纵使", "即使", "即便", "就是", "便是", "假如", "假若", "倘若", "倘或", "如果", "若是", "若有", "任他", "憑他", "凭他", "饒他", "饶他"}

// supposedBefore reports whether the clause before byte offset p of d (back
// to a comma or a stop) opens with a supposing word.
func supposedBefore(d *doc, p int) bool {
	from := max(d.sents[d.sentenceAt(p)].start, strings.LastIndexAny(d.text[:p], "，,；;：:「『“")+1)
	clause := string(d.text[from:p])
	for _, w := range supposing {
		if strings.Contains(clause, w) {
			return true
		}
	}
	return false
}

// judgeQuantityBeforePlace judges a quantity of unit and value v at bytes
// [start, end) of d when it stands before a measured place's name. placed
// is false when no such name follows: the other holders are then tried.
func (k *Knowledge) judgeQuantityBeforePlace(d *doc, start, end int, unit string, v int) (f Finding, ok, placed bool) {
	j := sort.SearchInts(d.roff, end)
	if j >= len(d.roff) || d.roff[j] != end {
		return Finding{}, false, false
	}
	e, key, val := k.placeAfterQuantity(d, j, unit)
	if e == nil {
		return Finding{}, false, false
	}
	if _, dv, _ := k.cjkQuantity(val); dv == v || supposedBefore(d, start) {
		return Finding{}, false, true
	}
	f = k.cjkFactFinding(d, e, start, end, key, val, 0.7)
	f.Suggestion = strings.TrimSpace(val)
	return f, true, true
}

// sizeKeys are the keys (normKey'd) of the size of a place.
var sizeKeys = wordSet("size", "area", "circumference", "extent", "大小", "面积", "面積", "方圆", "方圓", "周围", "周圍", "週圍", "占地", "佔地")

// sizeLeads, right before a measure, make it a size: 方圓三里, 周圍十里.
var sizeLeads = []string{"方圓", "方圆", "周圍", "周围", "週圍", "週围"}

// sizedPlace is whose size a measure of unit at bytes [start, end) of d
// states when the text marks it a size (三里半大, 方圓三里) and the
// sentence names one place, before or after it, with a size of that unit
// (…五里半大，可以蓋造省親別院了): a size is the place's, wherever its name
// stands in the sentence.
func (k *Knowledge) sizedPlace(d *doc, eff []effMention, start, end int, unit string) (e *entInfo, key, val string) {
	sized := false
	if r, size := utf8.DecodeRuneInString(d.text[end:]); r == '大' {
		// 大 ends the measure (五里半大，), not a word (三里大路).
		next, _ := utf8.DecodeRuneInString(d.text[end+size:])
		sized = next == utf8.RuneError || !prose.IsCJK(next) || strings.ContainsRune("，。；！？、的小", next)
	}
	for _, l := range sizeLeads {
		if strings.HasSuffix(strings.TrimRight(d.text[:start], "有約约"), l) {
			sized = true
		}
	}
	if !sized {
		return nil, "", ""
	}
	sent := d.sents[d.sentenceAt(start)]
	for _, m := range eff {
		if m.start < sent.start || m.end > sent.end || m.ent.person || m.ent == e {
			continue
		}
		kk, vv := "", ""
		for fk, fv := range d.factsOf(m.ent) {
			if u, _, ok := k.cjkQuantity(fv); ok && u == unit && sizeKeys[normKey(fk)] {
				kk, vv = fk, fv
			}
		}
		if kk == "" {
			continue
		}
		if e != nil {
			return nil, "", "" // two sized places
		}
		e, key, val = m.ent, kk, vv
	}
	return e, key, val
}
