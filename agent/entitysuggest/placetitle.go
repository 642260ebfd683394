package entitysuggest

import (
	"slices"
	"unicode/utf8"
)

// minPlaceNames is how often the text must write a place right before a
// name (南海觀音) to take that place's titled form (南海菩薩) for the
// person of that name and title (觀音菩薩).
const minPlaceNames = 2

// cjkPlaceTitleCounts counts, for each form of a place and a title (南海
// 菩薩, the bodhisattva of the southern sea) and each form of a name and
// that same title (觀音菩薩), how often the text writes the place right
// before the name as an epithet (南海觀音): the place is where the titled
// one dwells, and the text says who dwells there. The counts are keyed
// by the two forms.
func cjkPlaceTitleCounts(chs []cjkChapter, ex *extraction) map[[2]int32]int {
	byKey := formsByFolded(chs, ex)
	// The titled forms by their title: the part before it and the form.
	type titled struct {
		before string
		form   int32
	}
	byTitle := map[string][]titled{}
	for key, fi := range byKey {
		f := ex.forms[fi]
		if len(f.titles) != 1 || f.drop {
			continue
		}
		rs := []rune(key)
		tn := utf8.RuneCountInString(f.titles[0])
		if tn >= len(rs) {
			continue
		}
		t := string(rs[len(rs)-tn:])
		byTitle[t] = append(byTitle[t], titled{string(rs[:len(rs)-tn]), fi})
	}
	// For each place with a titled form: the names it may stand before,
	// each with the form of that name and the title.
	type cand struct {
		name           []rune
		placed, person int32 // 南海菩薩, 觀音菩薩
	}
	cands := map[int32][]cand{}
	for _, ts := range byTitle {
		for _, pt := range ts {
			p, ok := byKey[pt.before]
			if !ok || ex.forms[p].loc <= ex.forms[p].person {
				continue
			}
			for _, nt := range ts {
				if nt.form == pt.form || nt.before == pt.before {
					continue
				}
				if n, ok := byKey[nt.before]; ok && ex.forms[n].loc > ex.forms[n].person {
					continue // a place too (東海龍王 beside 南海龍王)
				}
				cands[p] = append(cands[p], cand{[]rune(nt.before), pt.form, nt.form})
			}
		}
	}
	if len(cands) == 0 {
		return nil
	}
	count := map[[2]int32]int{}
	for _, m := range ex.stream {
		cs := cands[m.form]
		if len(cs) == 0 {
			continue
		}
		rs := chs[m.chap].folded
		end := int(m.pos) + utf8.RuneCountInString(ex.forms[m.form].key)
		if end > len(rs) {
			continue
		}
		for _, c := range cs {
			if hasRunes(rs[end:], c.name) {
				count[[2]int32{c.placed, c.person}]++
			}
		}
	}
	return count
}

// placeTitleLinks links each place's titled form to the one entry the
// names written after the place minPlaceNames times are of, once the
// forms are resolved (觀音菩薩 and 觀世音菩薩, both written after 南海, are
// one person). Where they are of two entries, the text says no one and
// nothing is linked.
func placeTitleLinks(count map[[2]int32]int, r *resolution) [][2]int32 {
	byPlaced := map[int32][]int32{} // placed form -> entries
	rep := map[int32]int32{}        // entry -> a form of it counted
	for k, n := range count {
		e := r.of[k[1]]
		if n < minPlaceNames || e < 0 {
			continue
		}
		if !slices.Contains(byPlaced[k[0]], e) {
			byPlaced[k[0]] = append(byPlaced[k[0]], e)
		}
		if f, ok := rep[e]; !ok || k[1] < f {
			rep[e] = k[1]
		}
	}
	var out [][2]int32
	for placed, es := range byPlaced {
		if len(es) == 1 {
			p := rep[es[0]]
			out = append(out, [2]int32{min(placed, p), max(placed, p)})
		}
	}
	sortPairs(out)
	return out
}
