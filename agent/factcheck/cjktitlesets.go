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
		if m.firstWord >= 0 || len(m.ents) != 1 || !m.ents[0].person {
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
			s, end, ok := titleBeside(d, k, m, tv)
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
		if o == e || !o.person {
			continue
		}
		k.eachFact(o, func(key, v string) {
			i := slices.IndexFunc(keys, func(x string) bool { return strings.EqualFold(x, key) })
			if i < 0 {
				return
			}
			fv := string(k.foldRunes(strings.TrimSpace(v)))
			if utf8.RuneCountInString(fv) < 3 || !prose.AllCJK([]rune(fv)) || own[fv] || k.namesOtherThan(fv, o) {
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
// 沙僧's alias as well as his office, and stays his.
func (k *Knowledge) namesOtherThan(fv string, o *entInfo) bool {
	for _, x := range k.ents {
		if x == o {
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
func titleBeside(d *doc, k *Knowledge, m mention, tv titleValue) (int, int, bool) {
	val := tv.val
	n := utf8.RuneCountInString(val)
	// The title may be or hold a mention of its holder (捲簾大將 of 沙僧,
	// 大聖 in 齊天大聖), none of anyone else.
	free := func(s, e int) bool {
		for _, i := range d.mentionsIn(s-64, e) {
			om := d.mentions[i]
			if om.start < e && s < om.end && !(om.start >= s && om.end <= e && slices.Contains(om.ents, tv.owner)) {
				return false
			}
		}
		return true
	}
	// Right before: 淨壇使者孫悟空.
	s := m.start
	for i := 0; i < n && s > 0; i++ {
		_, size := utf8.DecodeLastRuneInString(d.text[:s])
		s -= size
	}
	if string(k.foldRunes(d.text[s:m.start])) == val && free(s, m.start) {
		return s, m.start, true
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
