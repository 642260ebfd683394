package factcheck

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// A Chinese title or office set beside a name: 淨壇使者孫悟空 (a title
// right before the name), 八戒本是捲簾大將臨凡 and 紅孩兒，號聖嬰大王 (after
// the name and a copula or 號). The files themselves give the closed set:
// the values the same key has for the other characters. A value another
// character holds under the key the named one declares, and that is none
// of the named one's own values in any chapter, contradicts it; any other
// words there (an epithet, a rank the files do not list) say nothing.
// A place is named the same way after the places it lies in, a chain with
// no break (西牛賀洲海東傲來國花果山): another place's continent or country
// in the chain before it contradicts its own.

// titleCopulas join a name to its title after it, longest first.
var titleCopulas = []string{"乃是", "本是", "原是", "號叫做", "號稱", "号称", "稱為", "称为", "乃", "號", "号"}

// nonTitleKey reports whether a key holds values that are people or places, read elsewhere
// (kinship.go, cjkpredicates.go, weapons.go), or the state.
func nonTitleKey(key string) bool {
	nk := normKey(key)
	if residenceKeys[nk] || originKeys[nk] || weaponKeys[nk] || nk == "status" || nk == "location" {
		return true
	}
	for _, r := range []kinRole{roleSpouse, roleSpouseOfMan, roleSpouseOfWoman, roleBetrothed, roleChild, roleDisciple, roleServant, roleSibling} {
		if slices.Contains(r.keys, nk) {
			return true
		}
	}
	return false
}

// titleValue is a value of a key held by a character other than the one
// named, folded.
type titleValue struct {
	key, val string
	owner    *entInfo
}

// checkCJKTitleSets finds another character's title or office beside a
// name.
func (k *Knowledge) checkCJKTitleSets(d *doc) []Finding {
	if !d.cjk {
		return nil
	}
	var out []Finding
	// What each named character's others' titles are, once per text.
	titles := map[*entInfo][]titleValue{}
	for _, m := range d.mentions {
		if m.firstWord >= 0 || len(m.ents) != 1 {
			continue
		}
		e := m.ents[0]
		facts := d.factsOf(e)
		others, done := titles[e]
		if !done {
			var keys []string
			for key := range facts {
				if !nonTitleKey(key) && prose.HasCJK(facts[key]) {
					keys = append(keys, key)
				}
			}
			if len(keys) > 0 {
				slices.Sort(keys)
				others = k.othersTitles(e, keys)
			}
			titles[e] = others
		}
		for _, tv := range others {
			s, end, ok := titleBeside(d, k, m, tv, !e.person)
			if !ok {
				continue
			}
			out = append(out, k.cjkFactFinding(d, e, s, end, tv.key, facts[tv.key], 0.6))
			break
		}
	}
	return out
}

// othersTitles are the values other characters have, in any chapter,
// under one of keys (compared without case): three characters at least,
// no one's name, and none of e's own values in any chapter.
func (k *Knowledge) othersTitles(e *entInfo, keys []string) []titleValue {
	own := map[string]bool{}
	k.eachFact(e, func(_, v string) { own[string(k.foldRunes(strings.TrimSpace(v)))] = true })
	var out []titleValue
	seen := map[titleValue]bool{}
	for _, o := range k.ents {
		if o == e || o.person != e.person {
			continue
		}
		k.eachFact(o, func(key, v string) {
			i := slices.IndexFunc(keys, func(x string) bool { return strings.EqualFold(x, key) })
			if i < 0 {
				return
			}
			fv := string(k.foldRunes(strings.TrimSpace(v)))
			if utf8.RuneCountInString(fv) < 3 || !prose.AllCJK([]rune(fv)) || own[fv] || k.namesOtherThan(fv, o, !e.person) {
				return
			}
			// A place's values in a chain are places (東勝神洲, 傲來國);
			// another name of a place (有鳳來儀 of 瀟湘館) may stand
			// beside it in a list of names.
			if last, _ := utf8.DecodeLastRuneInString(fv); !e.person && !placeEnding(last) {
				return
			}
			for o := range own {
				if o != "" && (strings.Contains(o, fv) || strings.Contains(fv, o)) {
					return
				}
			}
			tv := titleValue{keys[i], fv, o}
			if !seen[tv] {
				seen[tv] = true
				out = append(out, tv)
			}
		})
	}
	slices.SortFunc(out, func(a, b titleValue) int { return strings.Compare(a.key+a.val, b.key+b.val) })
	return out
}

// namesOtherThan reports whether a folded value holds a declared name or
// alias of two characters or more of someone other than o: 捲簾大將 may be
// 沙僧's alias as well as his office, and stays his. With places set, the
// names of places (a continent with a file of its own) are allowed.
func (k *Knowledge) namesOtherThan(fv string, o *entInfo, places bool) bool {
	for _, x := range k.ents {
		if x == o || places && !x.person {
			continue
		}
		for _, n := range x.e.Names() {
			fn := string(k.foldRunes(n))
			if utf8.RuneCountInString(fn) >= 2 && strings.Contains(fv, fn) {
				return true
			}
		}
	}
	return false
}

// titleBeside finds the folded title tv.val right before mention m, or after
// it past a copula (乃, 本是, 號), with at most three characters of the
// name's own (和尚) and a comma between. It returns the title's span.
func titleBeside(d *doc, k *Knowledge, m mention, tv titleValue, place bool) (int, int, bool) {
	val := tv.val
	n := utf8.RuneCountInString(val)
	// The title may be or hold a mention of its holder (捲簾大將 of 沙僧,
	// 大聖 in 齊天大聖), none of anyone else; a place may be a place's.
	free := func(s, e int) bool {
		for _, i := range d.mentionsIn(s-64, e) {
			om := d.mentions[i]
			if om.start < e && s < om.end && !(om.start >= s && om.end <= e && (slices.Contains(om.ents, tv.owner) || place && !om.ents[0].person)) {
				return false
			}
		}
		return true
	}
	// Right before: 淨壇使者孫悟空; for a place, with up to six
	// characters of places between, the last a place's ending
	// (東勝神洲海東傲來國花果山).
	back := func(p, runes int) int {
		for i := 0; i < runes && p > 0; i++ {
			_, size := utf8.DecodeLastRuneInString(d.text[:p])
			p -= size
		}
		return p
	}
	for gap := 0; gap <= 6 && (gap == 0 || place); gap++ {
		ge := back(m.start, gap)
		if gap > 0 {
			r, _ := utf8.DecodeRuneInString(d.text[ge:])
			last, _ := utf8.DecodeLastRuneInString(d.text[:m.start])
			if !prose.IsCJK(r) || strings.ContainsRune("，。、；：！？的之在於于到往向是乃", r) || !placeEnding(k.foldRune(last)) {
				break
			}
			if gap > 1 {
				if g := d.text[ge:m.start]; strings.ContainsAny(g, "，。、；：！？「」“”的之在於于到往向是乃") || !prose.AllCJK([]rune(g)) {
					break
				}
			}
		}
		s := back(ge, n)
		if string(k.foldRunes(d.text[s:ge])) == val && free(s, ge) {
			return s, ge, true
		}
	}
	if place {
		return 0, 0, false
	}
	// After: 八戒本是捲簾大將, 悟淨和尚，乃天蓬元帥.
	p := m.end
	for i := 0; i <= 3 && p < len(d.text); i++ {
		rest := d.text[p:]
		rest = strings.TrimPrefix(rest, "，")
		for _, c := range titleCopulas {
			if !strings.HasPrefix(rest, c) {
				continue
			}
			ts := len(d.text) - len(rest) + len(c)
			te := ts
			for j := 0; j < n && te < len(d.text); j++ {
				_, size := utf8.DecodeRuneInString(d.text[te:])
				te += size
			}
			if string(k.foldRunes(d.text[ts:te])) == val && free(ts, te) {
				return ts, te, true
			}
			break
		}
		r, size := utf8.DecodeRuneInString(d.text[p:])
		if !prose.IsCJK(r) || strings.ContainsRune("的之是乃號号", r) {
			break
		}
		p += size
	}
	return 0, 0, false
}
