package entitysuggest

import "slices"

// Chinese shortens a long name or title by leaving out characters inside
// it and keeping its two ends: 觀世音 is said 觀音 (觀世音菩薩, 觀音菩薩),
// 玉皇大帝 玉帝. A form that is another form with one or two characters
// left out between the same first and last character is that form
// shortened, where it shortens no other form. A family name and a given
// name are never so shortened (王熙鳳 is not 王鳳, who would be someone
// else), and neither is a title alone (大王 is not 大力王). What is left
// out is inside the name: no rank among siblings nor 老 or 小, which
// make another title of another person (老大王 is not 老王, 老太太 not
// 太太), no particle or classifier (唱個大喏 is a phrase).
const (
	// minAbbrevUses is how often both forms must occur.
	minAbbrevUses = 3
	// maxAbbrevGap is how many characters the short form may leave out.
	maxAbbrevGap = 2
)

// cjkAbbreviationLinks links each form to the one longer form it
// shortens.
func cjkAbbreviationLinks(ex *extraction, surnames bookSurnames) [][2]int32 {
	usable := func(f *form) bool {
		if f.key == "" || f.drop || f.votesOnly || f.bare != "" || f.count < minAbbrevUses || f.loc > f.person {
			return false
		}
		rs := []rune(f.key)
		return !cjkFirstStopSet.has(rs[0]) && !cjkPronouns[string(rs[:min(2, len(rs))])] && !slices.ContainsFunc(rs, cjkClassifierSet.has)
	}
	byEnds := map[[2]rune][]int32{}
	for i, f := range ex.forms {
		rs := []rune(f.key)
		if !usable(f) || len(rs) < 3 || surnames.has(rs[0]) {
			continue
		}
		k := [2]rune{rs[0], rs[len(rs)-1]}
		byEnds[k] = append(byEnds[k], int32(i))
	}
	var out [][2]int32
	for i, f := range ex.forms {
		rs := []rune(f.key)
		if !usable(f) || len(rs) < 2 {
			continue
		}
		long := int32(-1)
		for _, j := range byEnds[[2]rune{rs[0], rs[len(rs)-1]}] {
			lr := []rune(ex.forms[j].key)
			if int(j) == i || len(lr) <= len(rs) || len(lr)-len(rs) > maxAbbrevGap || !abbreviates(rs, lr) {
				continue
			}
			if long >= 0 {
				long = -2 // shortens two forms: neither for sure
				break
			}
			long = j
		}
		if long >= 0 {
			out = append(out, [2]int32{long, int32(i)})
		}
	}
	sortPairs(out)
	return out
}

// abbreviates reports whether short is long with some characters left
// out, in order, none of them a rank (but for 大 of a title), 老 or 小, a
// particle or a classifier.
func abbreviates(short, long []rune) bool {
	if short[0] == '老' || short[0] == '小' {
		return false // 老王: a family name made familiar, said of many
	}
	// 大 of a title the long form ends with is no rank (大 of 玉皇大帝).
	title := len(long) - cjkTitleList.suffix(long)
	i := 0
	for p, r := range long {
		if i < len(short) && short[i] == r {
			i++
			continue
		}
		if cjkRankSet.has(r) && p < title || r == '老' || r == '小' || cjkFirstStopSet.has(r) {
			return false
		}
	}
	return i == len(short) && len(short) < len(long)
}
