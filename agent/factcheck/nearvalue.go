package factcheck

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// minNearValue is the shortest Chinese fact value a near value is looked
// for anywhere: shorter values ("八百里") occur as other things too often.
// A value of minNearValueNamed characters (江西糧道) is looked for only
// where its holder was named a sentence or two before.
const (
	minNearValue      = 5
	minNearValueNamed = 4
)

// checkNearValues finds Chinese fact values written with one character
// changed: a value the book declares of an entity (海州弘農郡聚賢莊, a
// rod's 一萬三千五百斤) stated with another place or number in its place
// (泗州弘農郡聚賢莊, 一萬八千五百斤). Whatever the construction around it,
// a long value that matches but for one character is that fact, stated
// otherwise. A run that is itself a value declared of someone, or a
// declared name, is not a finding.
func (k *Knowledge) checkNearValues(d *doc) []Finding {
	if !d.cjk {
		return nil
	}
	type value struct {
		e         *entInfo
		key, text string
		runes     []rune
	}
	var values []value
	declared := map[string]bool{}
	for _, e := range k.ents {
		for key, v := range d.factsOf(e) {
			rs := k.foldRunes(v)
			if len(rs) < minNearValueNamed || !prose.AllCJK(rs) {
				continue
			}
			values = append(values, value{e, key, v, rs})
			declared[string(rs)] = true
		}
	}
	if len(values) == 0 {
		return nil
	}
	// A window one character from a value matches it at its first or its
	// second character: only those values are compared at a position.
	byFirst, bySecond := map[rune][]int{}, map[rune][]int{}
	for vi, v := range values {
		byFirst[v.runes[0]] = append(byFirst[v.runes[0]], vi)
		bySecond[v.runes[1]] = append(bySecond[v.runes[1]], vi)
	}
	var out []Finding
	rs := d.frunes
	var cands []int // reused: the values to compare at a position
	for i := range rs {
		cands = append(cands[:0], byFirst[rs[i]]...)
		if i+1 < len(rs) {
			for _, vi := range bySecond[rs[i+1]] {
				if values[vi].runes[0] != rs[i] {
					cands = append(cands, vi)
				}
			}
		}
		for _, vi := range cands {
			v := values[vi]
			n := len(v.runes)
			if i+n > len(rs) {
				continue
			}
			diff, at := 0, -1
			for j := 0; j < n && diff <= 1; j++ {
				if rs[i+j] != v.runes[j] {
					diff++
					at = j
				}
			}
			// One character changed, and changed as facts change: a
			// numeral for another (一萬三千 for 一萬八千), a direction
			// (江西 for 江南), or the name part of a place or a board
			// before its ending (泗州 for 海州, 禮部 for 工部). Another
			// change is as often the same fact in other words (西方 for
			// 西天).
			if diff != 1 || !prose.IsCJK(rs[i+at]) {
				continue
			}
			a, b := v.runes[at], rs[i+at]
			numeral := prose.IsCJKNumeral(a) && prose.IsCJKNumeral(b)
			direction := isDirection(a) && isDirection(b)
			place := at+1 < n && (placeEnding(v.runes[at+1]) || boardEnding(v.runes[at+1]))
			window := string(rs[i : i+n])
			start, end := d.roff[i], d.roff[i+n]
			if !numeral && !direction && !place && !d.namedAs(v.e, start) {
				continue
			}
			if declared[window] || d.overlapsMention(d.roff[i+at], d.roff[i+at+1]) {
				continue
			}
			// A weapon's number is part of its name (九齒釘鈀): another
			// number is another weapon, whoever is said to hold it
			// (一個使七齒釘鈀 of three disciples).
			numbered := numeral && strings.ContainsRune(weaponKinds, v.runes[n-1])
			if n < minNearValue && !numbered && !d.namedBefore(v.e, start, 2) {
				continue
			}
			out = append(out, k.nearValueFinding(d, v.e, start, end, v.key, v.text))
		}
	}
	return oneHolder(d, out)
}

// minSegmentedValue is the shortest Chinese value read as a place name
// of several levels, of which one may be replaced whole.
const minSegmentedValue = 8

// checkReplacedSegments finds a long Chinese place value stated with its
// first level replaced whole by another of the same kind: 南贍部洲傲來國
// 花果山水簾洞 for 東勝神洲傲來國花果山水簾洞. The rest of the value, four
// characters at least, says which value it is; the replaced level ends as
// the declared one does (洲), so it is a place of that rank.
func (k *Knowledge) checkReplacedSegments(d *doc) []Finding {
	if !d.cjk {
		return nil
	}
	var out []Finding
	ft := d.foldedText()
	for _, e := range k.ents {
		for key, v := range d.factsOf(e) {
			vr := k.foldRunes(v)
			// 號山枯松澗黑風洞 for 號山枯松澗火雲洞 (cjklevels.go).
			out = append(out, k.checkReplacedLastLevels(d, ft, e, key, v, vr)...)
			if len(vr) < minSegmentedValue || !prose.AllCJK(vr) {
				continue
			}
			// The first level: two to five characters ending a place.
			p := -1
			for i := 1; i < min(5, len(vr)-4); i++ {
				if placeEnding(vr[i]) {
					p = i
					break
				}
			}
			if p < 0 {
				continue
			}
			// The rest after the first level, or the next level alone
			// when it is a place of three characters at least (南贍部洲
			// 傲來國人氏 for 東勝神洲傲來國花果山): the one level names
			// the place the replaced one should contain.
			fs := k.replacedBefore(d, ft, e, key, v, vr, p, string(vr[p+1:]))
			if len(fs) == 0 {
				fs = k.replacedBefore(d, ft, e, key, v, vr, p, nextLevel(vr, p+1))
			}
			out = append(out, fs...)
		}
	}
	return oneHolder(d, out)
}

// nextLevel is the place level of vr that starts at from: up to and
// including its first place ending, three characters at least; "" when
// there is none or it is the whole rest.
func nextLevel(vr []rune, from int) string {
	for i := from + 2; i < len(vr)-1; i++ {
		if placeEnding(vr[i]) {
			return string(vr[from : i+1])
		}
	}
	return ""
}

// replacedBefore finds suffix in the text after a first level of p+1
// characters other than vr's own that ends as vr[p] does.
// ft is the folded text.
func (k *Knowledge) replacedBefore(d *doc, ft string, e *entInfo, key, v string, vr []rune, p int, suffix string) []Finding {
	if suffix == "" || !d.mayHold(suffix) {
		return nil
	}
	var out []Finding
	// ri counts the runes before at, on from the last occurrence's.
	counted, ri := 0, 0
	for from := 0; ; {
		j := strings.Index(ft[from:], suffix)
		if j < 0 {
			break
		}
		at := from + j
		from = at + len(suffix)
		ri += utf8.RuneCountInString(ft[counted:at])
		counted = at
		if ri < p+1 {
			continue
		}
		w := d.frunes[ri-p-1 : ri]
		if !prose.AllCJK(w) || w[p] != vr[p] || slices.Equal(w, vr[:p+1]) {
			continue
		}
		window := string(w) + suffix
		if k.declaredAnywhere(window) || k.declaredWithin(window) {
			continue
		}
		start, end := d.roff[ri-p-1], d.roff[ri+utf8.RuneCountInString(suffix)]
		out = append(out, k.nearValueFinding(d, e, start, end, key, v))
	}
	return out
}

// nearValueFinding is the finding of a Chinese value at [start, end) that
// stands where e's declared val for key should: the declared value is
// the fix.
func (k *Knowledge) nearValueFinding(d *doc, e *entInfo, start, end int, key, val string) Finding {
	f := k.cjkFactFinding(d, e, start, end, key, val, 0.6)
	f.Message = fmt.Sprintf("the text says “%s”, but %s's %s is “%s” as of chapter %d", d.text[start:end], e.e.Name, key, val, d.chapter)
	f.Suggestion = val
	return f
}

// oneHolder keeps, where values of several entities are near the same
// text, the finding of the one the sentence mentions; none when it
// mentions none or several of them.
func oneHolder(d *doc, fs []Finding) []Finding {
	type span struct{ s, e int }
	by := map[span][]Finding{}
	var order []span
	for _, f := range fs {
		k := span{f.Start, f.End}
		if by[k] == nil {
			order = append(order, k)
		}
		by[k] = append(by[k], f)
	}
	var out []Finding
	for _, k := range order {
		c := by[k]
		if len(c) == 1 {
			out = append(out, c[0])
			continue
		}
		sent := d.sents[d.sentenceAt(k.s)]
		var named []Finding
		for _, f := range c {
			for _, m := range d.mentions {
				if m.start >= sent.start && m.end <= sent.end && slices.ContainsFunc(m.ents, func(e *entInfo) bool { return e.e.Path == f.Evidence.Path }) {
					named = append(named, f)
					break
				}
			}
		}
		if len(named) == 1 {
			out = append(out, named[0])
		}
	}
	return out
}

// placeEnding reports whether r ends a Chinese place name (州, 洲, 郡, 山,
// 洞, 國…), folded.
func placeEnding(r rune) bool {
	return strings.ContainsRune("州洲郡县縣府城山洞国國庄莊村河江湖海岛島寺宫宮殿关關岭嶺峰谷坡岗崗", r)
}

// boardEnding reports whether r ends the name of a board or office of
// state (工部, 翰林院, 巡鹽御史司), folded.
func boardEnding(r rune) bool {
	return strings.ContainsRune("部院司監监署衙營营", r)
}

// isDirection reports whether r is a compass direction.
func isDirection(r rune) bool {
	return strings.ContainsRune("東西南北东", r)
}

// namedBefore reports whether e is mentioned in the sentence holding
// byte offset at (before at) or in the back sentences before it.
func (d *doc) namedBefore(e *entInfo, at, back int) bool {
	si := d.sentenceAt(at)
	from := d.sents[max(si-back, 0)].start
	for _, m := range d.mentions {
		if m.start >= at {
			break
		}
		if m.start >= from && slices.Contains(m.ents, e) {
			return true
		}
	}
	return false
}

// cjkNamingVerbs give what someone is called or made (牛魔王，稱為平天大聖).
var cjkNamingVerbs = []string{"稱為", "称为", "號為", "号为", "喚做", "唤做", "叫做", "名喚", "名唤", "人稱", "人称", "綽號", "绰号", "封為", "封为", "官拜", "現任", "现任", "號", "号"}

// cjkAppointVerbs give the post someone is raised or appointed to
// (賈雨村升了應天府尹).
var cjkAppointVerbs = []string{"升了", "升為", "升为", "升任", "陞了", "陞任", "補授了", "补授了", "補授", "补授", "授了", "調任", "调任", "出任", "做了", "點了", "点了", "欽點了", "钦点了", "放了"}

// cjkPostVerbs are the appointment verbs that give nothing but a post:
// after them a two-character value (學差, 鹽差) is compared too. 做了
// makes one many things (做了女婿).
var cjkPostVerbs = map[string]bool{"升了": true, "陞了": true, "補授了": true, "补授了": true, "授了": true, "點了": true, "点了": true, "欽點了": true, "钦点了": true}

// cjkVerbAdverbs may stand between a holder and the verb: 賈政又點了學差.
const cjkVerbAdverbs = "又也便就已才新遂竟再今"

// checkNamedValues finds a title or post given right after its holder
// and a naming or appointment verb that has the declared value's ending
// but another name before it (應天府尹 for 京兆府尹, 平天大聖 for 齊天大聖):
// the construction says whose value it is, and the ending what kind, so
// the rest may differ in more than one character.
func (k *Knowledge) checkNamedValues(d *doc) []Finding {
	var out []Finding
	for _, verbs := range [][]string{cjkNamingVerbs, cjkAppointVerbs} {
		for _, v := range verbs {
			// A verb the text cannot hold is not scanned for: the
			// scan of a Chinese text is slow.
			if !d.mayHold(string(k.foldRunes(v))) {
				continue
			}
			for from := 0; ; {
				i := strings.Index(d.text[from:], v)
				if i < 0 {
					break
				}
				at := from + i + len(v)
				from = at
				// The holder right before the verb, or before one adverb
				// and the verb.
				hend := at - len(v)
				if r, size := utf8.DecodeLastRuneInString(d.text[:hend]); strings.ContainsRune(cjkVerbAdverbs, r) {
					hend -= size
				}
				var holder *entInfo
				for _, mi := range d.mentionsIn(hend-64, hend) {
					if m := d.mentions[mi]; (m.end == at-len(v) || m.end == hend) && len(m.ents) == 1 {
						holder = m.ents[0]
					}
				}
				if holder == nil {
					continue
				}
				if f, ok := k.namedValue(d, holder, at, cjkPostVerbs[v]); ok {
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// namedValue compares the run of text at byte offset at with the values
// of holder's facts that end alike (see checkNamedValues). post is set
// after a verb that gives a post only: a two-character value is then
// compared by its last character (鹽差 for 學差).
func (k *Knowledge) namedValue(d *doc, holder *entInfo, at int, post bool) (Finding, bool) {
	text := k.foldRunes(d.text[at:min(len(d.text), at+64)])
	for key, val := range d.factsOf(holder) {
		vr := k.foldRunes(val)
		n := len(vr)
		if n < 2 || n == 2 && !post || n > len(text) || !prose.AllCJK(vr) || !prose.AllCJK(text[:n]) {
			continue
		}
		w := text[:n]
		same := 2
		if n == 2 {
			// Where the holder is (京中 against 郎中) is no post.
			if nk := normKey(key); nk == "status" || nk == "location" || residenceKeys[nk] || originKeys[nk] {
				continue
			}
			same = 1
		}
		if slices.Equal(w, vr) || !slices.Equal(w[n-same:], vr[n-same:]) || k.declaredAnywhere(string(w)) {
			continue
		}
		// The run ends where the value does: not inside a longer word.
		if n < len(text) && prose.IsCJK(text[n]) && !strings.ContainsRune("兼之的了，。", text[n]) {
			continue
		}
		end := at
		for i := 0; i < n && end < len(d.text); i++ {
			_, size := utf8.DecodeRuneInString(d.text[end:])
			end += size
		}
		if d.overlapsMention(at, end) {
			continue
		}
		return k.nearValueFinding(d, holder, at, end, key, val), true
	}
	return Finding{}, false
}

// declaredAnywhere reports whether the folded run s is a fact value some
// entity declares (in any chapter) or a declared name.
func (k *Knowledge) declaredAnywhere(s string) bool {
	found := false
	for _, e := range k.ents {
		k.eachFact(e, func(_, v string) {
			if string(k.foldRunes(v)) == s {
				found = true
			}
		})
		for _, n := range e.e.Names() {
			if string(k.foldRunes(n)) == s {
				found = true
			}
		}
		if found {
			return true
		}
	}
	return false
}

// declaredWithin reports whether the folded run s is part of a fact value
// some entity declares (in any chapter): 泗州弘農郡 of another's 泗州弘農郡
// 聚賢莊 is that place.
func (k *Knowledge) declaredWithin(s string) bool {
	found := false
	for _, e := range k.ents {
		k.eachFact(e, func(_, v string) {
			if !found && strings.Contains(string(k.foldRunes(v)), s) {
				found = true
			}
		})
		if found {
			return true
		}
	}
	return false
}

// namedAs reports whether the text right before byte offset at is a
// mention of e and a naming verb: then whatever the value's change, it
// is said of e as its title or office.
func (d *doc) namedAs(e *entInfo, at int) bool {
	before := d.text[:at]
	for _, v := range cjkNamingVerbs {
		b, ok := strings.CutSuffix(before, v)
		if !ok {
			continue
		}
		b = strings.TrimSuffix(strings.TrimSuffix(b, "，"), ",")
		for _, i := range d.mentionsIn(len(b)-64, len(b)) {
			if m := d.mentions[i]; m.end == len(b) && slices.Contains(m.ents, e) {
				return true
			}
		}
		return false
	}
	return false
}
