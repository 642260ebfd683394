package factcheck

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// offices are Chinese official posts and degrees: a text that gives a
// character another post than the declared one contradicts it.
const officeList = "知县 知府 知州 巡抚 总督 尚书 侍郎 员外郎 主事 御史 学政 粮道 道台 将军 都尉 校尉 参将 游击 守备 千总 把总 丞相 太尉 都督 刺史 太守 县令 县丞 同知 通判 翰林 状元 榜眼 探花 举人 秀才 进士 贡生 监生 太医 军师 元帅 先锋 提督 总兵"

// cjkColours maps colour characters to the groups of colourGroups.
var cjkColours = map[rune]string{
	'黑': "dark", '乌': "dark", '烏': "dark", '褐': "dark", '棕': "dark",
	'蓝': "blue", '藍': "blue", '碧': "blue", '绿': "green", '綠': "green", '灰': "grey",
	'金': "fair", '黄': "fair", '黃': "fair", '红': "red", '紅': "red", '赤': "red", '白': "white", '银': "white", '銀': "white",
}

// cjkFactInfo is what the Chinese fact checks need, built once.
type cjkFactInfo struct {
	units   map[string]bool // units of numeric CJK values: "里", "两"
	offices map[string]bool // offices, folded
	// officeFirst holds the first characters of offices, when some
	// entity has an office at all (nil otherwise).
	officeFirst map[rune]bool
	colour      bool // some entity has a CJK colour fact of eyes or hair
	// measured holds the entities with a measure among their facts in
	// some chapter (ownedValues reads no other's).
	measured map[*entInfo]bool
}

func (k *Knowledge) buildCJKFacts() {
	ci := &cjkFactInfo{units: map[string]bool{}, offices: map[string]bool{}, measured: map[*entInfo]bool{}}
	for _, o := range strings.Fields(officeList) {
		ci.offices[string(k.foldRunes(o))] = true
	}
	for _, e := range k.ents {
		k.eachFact(e, func(key, val string) {
			if f := k.foldRunes(strings.TrimSpace(val)); len(f) > 0 && ci.offices[string(f)] && ci.officeFirst == nil {
				ci.officeFirst = map[rune]bool{}
				for o := range ci.offices {
					r, _ := utf8.DecodeRuneInString(o)
					ci.officeFirst[r] = true
				}
			}
			if u, _, ok := k.cjkQuantity(val); ok && u != "" {
				ci.units[u] = true
				ci.measured[e] = true
			}
			if isColourKeyCJK(key) {
				for _, r := range val {
					if _, ok := cjkColours[r]; ok {
						ci.colour = true
					}
				}
			}
		})
	}
	k.cjkFacts = ci
}

func isColourKeyCJK(key string) bool {
	return strings.ContainsAny(key, "眼眸发髮")
}

// cjkQuantity reads a value such as "三十里" or "一千两": its number and
// unit (folded). ok is false when the value does not start with a numeral
// or the unit is long or missing.
func (k *Knowledge) cjkQuantity(v string) (unit string, n int, ok bool) {
	rs := k.foldRunes(strings.TrimSpace(v))
	i := 0
	for i < len(rs) && prose.IsCJKNumeral(rs[i]) {
		i++
	}
	if i == 0 || i == len(rs) || len(rs)-i > 2 || !prose.IsCJK(rs[i]) {
		return "", 0, false
	}
	n, ok = prose.ParseCJKNumber(string(rs[:i]))
	if !ok {
		return "", 0, false
	}
	unit = string(rs[i:])
	if unit == "岁" || unit == "个" || unit == "位" {
		return "", 0, false
	}
	return unit, n, true
}

// checkCJKFacts: quantities with a declared unit ("离京城只有五里"), posts
// ("贾雨村升了知县") and colours of eyes or hair ("一双碧绿的眼睛").
func (k *Knowledge) checkCJKFacts(d *doc, eff []effMention) []Finding {
	ci := k.cjkFacts
	if ci == nil {
		return nil
	}
	var out []Finding
	rs := d.frunes
	for i := 0; i < len(rs); i++ {
		// Quantities.
		if len(ci.units) > 0 && prose.IsCJKNumeral(rs[i]) && (i == 0 || !prose.IsCJKNumeral(rs[i-1])) {
			j := i
			for j < len(rs) && prose.IsCJKNumeral(rs[j]) {
				j++
			}
			if v, ok := prose.ParseCJKNumber(string(rs[i:j])); ok {
				for u := range ci.units {
					ur := []rune(u)
					if j+len(ur) <= len(rs) && slices.Equal(rs[j:j+len(ur)], ur) {
						if f, ok := k.judgeCJKQuantity(d, eff, d.roff[i], d.roff[j+len(ur)], u, v); ok {
							out = append(out, f)
						}
						break
					}
				}
			}
			i = j - 1
			continue
		}
		// Posts.
		if ci.officeFirst[rs[i]] {
			n := 0
			for _, w := range []int{3, 2} {
				if i+w <= len(rs) && ci.offices[string(rs[i:i+w])] {
					n = w
					break
				}
			}
			if n > 0 {
				if f, ok := k.judgeCJKOffice(d, eff, d.roff[i], d.roff[i+n], string(rs[i:i+n]), i); ok {
					out = append(out, f)
				}
				i += n - 1
				continue
			}
		}
		// Colours of eyes and hair.
		if g, ok := cjkColours[rs[i]]; ok && ci.colour {
			// "碧绿": one colour of several characters.
			e := i + 1
			for e < len(rs) && cjkColours[rs[e]] != "" {
				e++
			}
			for j := e; j < len(rs) && j <= e+2; j++ {
				if strings.ContainsRune("眼眸发", rs[j]) {
					if f, ok := k.judgeCJKColour(d, eff, d.roff[i], d.roff[e], g, cjkColours[rs[e-1]]); ok {
						out = append(out, f)
					}
					break
				}
			}
			i = e - 1
		}
	}
	return out
}

// cjkHolder is the latest person (or any entity, when places is set)
// mentioned before offset p in its sentence and on the same side of any
// quotation mark, within maxBytes.
func (k *Knowledge) cjkHolder(d *doc, eff []effMention, p, maxBytes int, ok func(*entInfo) bool) *entInfo {
	return d.latestBefore(eff, p, maxBytes, func(m effMention) bool {
		return !(m.possessive && !m.relational) && ok(m.ent)
	})
}

// latestBefore is the entity of the latest mention of eff that ends before
// offset p in its sentence, on the same side of any quotation mark,
// within maxBytes (0: anywhere in the sentence), for which f holds.
func (d *doc) latestBefore(eff []effMention, p, maxBytes int, f func(effMention) bool) *entInfo {
	si := d.sentenceAt(p)
	q := d.inQuote(p)
	for i := len(eff) - 1; i >= 0; i-- {
		m := eff[i]
		if m.end > p {
			continue
		}
		if m.start < d.sents[si].start || maxBytes > 0 && p-m.end > maxBytes {
			break
		}
		if d.inQuote(m.start) == q && f(m) {
			return m.ent
		}
	}
	return nil
}

func (k *Knowledge) judgeCJKQuantity(d *doc, eff []effMention, start, end int, unit string, v int) (Finding, bool) {
	// 八百里火焰: the place named after the measure is what it measures.
	if f, ok, placed := k.judgeQuantityBeforePlace(d, start, end, unit, v); placed {
		return f, ok
	}
	sent := d.sents[d.sentenceAt(start)]
	sentFolded := string(k.foldRunes(d.text[sent.start:sent.end]))
	var key, val string
	has := func(e *entInfo) bool {
		for kk, vv := range d.factsOf(e) {
			u, _, ok := k.cjkQuantity(vv)
			if !ok || u != unit {
				continue
			}
			// A key naming a place ("离京城", "距扬州") applies only when
			// the sentence names it.
			place := strings.NewReplacer("距离", "", "距離", "", "离", "", "離", "", "距", "", "到", "", "至", "").Replace(string(k.foldRunes(kk)))
			if prose.HasCJK(place) && !strings.Contains(sentFolded, place) {
				continue
			}
			// What the number measures must be named in the sentence: a
			// part of the key (金箍棒 of 金箍棒重, 寬), since every 里 of a
			// journey is not the length of a somersault. A key in
			// another script cannot be named there: left to the model.
			// Or the words the manuscript writes before the declared
			// value elsewhere (觔斗 before 十萬八千里) stand before it.
			if !keyInSentence(string(k.foldRunes(kk)), sentFolded) && !k.cueBefore(d, start, string(k.foldRunes(strings.TrimSpace(vv)))) &&
				!dimensionAt(d, start, end, kk) {
				continue
			}
			key, val = kk, vv
			return true
		}
		return false
	}
	e := k.cjkHolder(d, eff, start, 90, has)
	if e == nil {
		if r := k.refBefore(d, eff, start, 90); r != nil && has(r) {
			e = r
		}
	}
	if e == nil {
		e = k.quantityOwner(d, eff, start, sentFolded, has)
	}
	if e == nil {
		// 五里半大，可以蓋造省親別院: a size, of the place the sentence names.
		if pe, pk, pv := k.sizedPlace(d, eff, start, end, unit); pe != nil {
			if _, dv, _ := k.cjkQuantity(pv); dv == v {
				return Finding{}, false
			}
			f := k.cjkFactFinding(d, pe, start, end, pk, pv, 0.65)
			f.Suggestion = strings.TrimSpace(pv)
			return f, true
		}
		return Finding{}, false
	}
	has(e)
	_, dv, _ := k.cjkQuantity(val)
	if dv == v {
		return Finding{}, false
	}
	f := k.cjkFactFinding(d, e, start, end, key, val, 0.75)
	f.Suggestion = strings.TrimSpace(val)
	return f, true
}

// quantityOwner is whose a measure is when no person stands before it as
// a subject: the possessor of the thing measured (老孫的觔斗雲，一縱有…),
// or the one a declared value in the sentence belongs to (這條棍本是如意金箍
// 棒…一萬八千斤重, of him whose weapon is 如意金箍棒). It is the latest
// possessive mention before p in the sentence, on the same side of any
// quotation mark; else the one entity with a measure of that unit whose
// other fact value of two characters or more the sentence writes.
func (k *Knowledge) quantityOwner(d *doc, eff []effMention, p int, sentFolded string, ok func(*entInfo) bool) *entInfo {
	if e := d.latestBefore(eff, p, 0, func(m effMention) bool { return m.possessive && ok(m.ent) }); e != nil {
		return e
	}
	var owner *entInfo
	for _, o := range k.ownedValues(d) {
		if o.e == owner || !strings.Contains(sentFolded, o.v) || !ok(o.e) {
			continue
		}
		if owner != nil {
			return nil // two owners: neither is judged
		}
		owner = o.e
	}
	return owner
}

// An ownedValue is a Chinese fact value of two characters or more that
// names a thing e has (a weapon, a home), folded: not a measure (七十二般)
// and not where e is (status, location).
type ownedValue struct {
	e *entInfo
	v string
}

// ownedValues lists the owned values, as of d's chapter, of every entity
// with a measure among its facts, made once per text.
func (k *Knowledge) ownedValues(d *doc) []ownedValue {
	if d.owned != nil {
		return d.owned
	}
	d.owned = []ownedValue{}
	for _, e := range k.ents {
		// Only who has a measure can own one: the others are skipped
		// before their values are folded.
		if k.cjkFacts == nil || !k.cjkFacts.measured[e] {
			continue
		}
		for key, v := range d.factsOf(e) {
			if nk := normKey(key); nk == "status" || nk == "location" {
				continue
			}
			if _, _, ok := k.cjkQuantity(v); ok {
				continue
			}
			if fv := string(k.foldRunes(strings.TrimSpace(v))); utf8.RuneCountInString(fv) >= 2 && prose.HasCJK(fv) {
				d.owned = append(d.owned, ownedValue{e, fv})
			}
		}
	}
	return d.owned
}

// officeMarkers predicate a post of the name before them (folded):
// 賈雨村做了知府, 升了知府, 補授知府, 是知府.
var officeMarkers = []string{"做了", "做", "任", "升", "补", "授", "为", "是", "乃", "当", "选", "调", "中了", "中"}

// officeHolder is the person an office at [start, end) is said of: the
// name right after it ("知府賈雨村"), or the name before it with a marker
// of predication between and no one else ("雨村便補授了知府"). A post
// elsewhere in a sentence that names a character is someone else's
// ("雨村見了那知府").
func (k *Knowledge) officeHolder(d *doc, eff []effMention, start, end int) *entInfo {
	for _, m := range eff {
		if m.start == end && m.ent.person {
			return m.ent
		}
	}
	for i := len(eff) - 1; i >= 0; i-- {
		m := eff[i]
		if m.end > start {
			continue
		}
		if !m.ent.person || m.possessive && !m.relational {
			return nil
		}
		if k.predicatesOffice(d, m.end, start) {
			return m.ent
		}
		return nil
	}
	return nil
}

// predicatesOffice reports whether the text from a holder to an office
// at to predicates it of them: at most eight characters in one clause,
// with a marker of predication (便補授了).
func (k *Knowledge) predicatesOffice(d *doc, from, to int) bool {
	gap := string(k.foldRunes(d.text[from:to]))
	if utf8.RuneCountInString(gap) > 8 || strings.ContainsAny(gap, "。！？；：「」“”\n") {
		return false
	}
	return slices.ContainsFunc(officeMarkers, func(mk string) bool { return strings.Contains(gap, mk) })
}

// officeReference is the person a resolved reference (holders.go) stands
// for when it comes before an office at start with a marker of
// predication between and no name (他便補授了知府).
func (k *Knowledge) officeReference(d *doc, eff []effMention, start int) *entInfo {
	refs := k.references(d)
	for i := len(refs) - 1; i >= 0; i-- {
		r := refs[i]
		if r.end > start {
			continue
		}
		if len(d.mentionsIn(r.end, start)) == 0 && k.predicatesOffice(d, r.end, start) {
			return r.ent
		}
		return nil
	}
	return nil
}

func (k *Knowledge) judgeCJKOffice(d *doc, eff []effMention, start, end int, office string, ri int) (Finding, bool) {
	// "原任知县", "前任知府": a former post.
	if ri > 0 && strings.ContainsRune("原前旧舊曾", d.frunes[ri-1]) || ri > 1 && strings.ContainsRune("原前旧舊曾", d.frunes[ri-2]) {
		return Finding{}, false
	}
	var key, val string
	has := func(e *entInfo) bool {
		if !e.person {
			return false
		}
		for kk, vv := range d.factsOf(e) {
			if k.cjkFacts.offices[string(k.foldRunes(strings.TrimSpace(vv)))] {
				key, val = kk, vv
				return true
			}
		}
		return false
	}
	e := k.officeHolder(d, eff, start, end)
	if e == nil {
		e = k.officeReference(d, eff, start)
	}
	if e == nil || !has(e) {
		return Finding{}, false
	}
	if string(k.foldRunes(strings.TrimSpace(val))) == office {
		return Finding{}, false
	}
	f := k.cjkFactFinding(d, e, start, end, key, val, 0.7)
	f.Suggestion = strings.TrimSpace(val)
	return f, true
}

func (k *Knowledge) judgeCJKColour(d *doc, eff []effMention, start, end int, group, group2 string) (Finding, bool) {
	e := k.cjkHolder(d, eff, start, 60, func(e *entInfo) bool { return e.person })
	if e == nil {
		return Finding{}, false
	}
	for kk, vv := range d.factsOf(e) {
		if !isColourKeyCJK(kk) {
			continue
		}
		declared := ""
		for _, r := range vv {
			if g, ok := cjkColours[r]; ok {
				declared = g
				break
			}
		}
		if declared == "" || declared == group || declared == group2 {
			return Finding{}, false
		}
		return k.cjkFactFinding(d, e, start, end, kk, vv, 0.7), true
	}
	return Finding{}, false
}

func (k *Knowledge) cjkFactFinding(d *doc, e *entInfo, start, end int, key, val string, conf float64) Finding {
	line, since := e.e.FactSource(key, d.chapter)
	return Finding{
		Type:       TypeFact,
		Start:      start,
		End:        end,
		Message:    fmt.Sprintf("the text says %q, but %s's %s is %q as of chapter %d", d.text[start:end], e.e.Name, key, val, d.chapter),
		Evidence:   Evidence{Path: e.e.Path, Resource: e.e.Resource, Key: key, Value: val, Line: line, Since: since},
		Confidence: conf,
	}
}

// keyInSentence reports whether a folded Chinese fact key is named in a
// folded sentence: the whole key when it is one character, else any two
// characters of it that stand together.
func keyInSentence(key, sent string) bool {
	rs := []rune(key)
	if !prose.HasCJK(key) || len(rs) == 0 {
		return false
	}
	if len(rs) == 1 {
		return strings.ContainsRune(sent, rs[0])
	}
	for i := 0; i+1 < len(rs); i++ {
		if prose.IsCJK(rs[i]) && prose.IsCJK(rs[i+1]) && strings.Contains(sent, string(rs[i:i+2])) {
			return true
		}
	}
	return false
}

// dimensionWords are the Chinese words of a dimension that a key in
// another script names (width: 寬, 闊, 徑…), both scripts.
var dimensionWords = map[string][]string{
	"width": {"寬", "宽", "闊", "阔", "廣", "广", "徑", "径", "橫", "横"}, "breadth": {"寬", "宽", "闊", "阔", "廣", "广", "徑", "径", "橫", "横"},
	"length": {"長", "长"}, "height": {"高"}, "depth": {"深"},
	"circumference": {"周圍", "周围", "方圓", "方圆", "圍", "围"}, "perimeter": {"周圍", "周围", "方圓", "方圆", "圍", "围"},
}

// dimensionAt reports whether the quantity at [start, end) is told as the
// dimension a key in another script names (width: 八百里), by the
// dimension's word right before the number, a verb between (寬有八百里,
// 徑過六百里), or right after the unit (八百里寬). Further off the word
// is of something else (長老 of a monk).
func dimensionAt(d *doc, start, end int, key string) bool {
	kp := strings.Fields(normKey(key))
	if len(kp) == 0 {
		return false
	}
	words := dimensionWords[kp[len(kp)-1]]
	if len(words) == 0 {
		return false
	}
	before := d.text[:start]
	for _, v := range []string{"有", "約", "约", "過", "过", "足", "足有"} {
		if b, ok := strings.CutSuffix(before, v); ok {
			before = b
			break
		}
	}
	after := d.text[end:]
	for _, w := range words {
		if strings.HasSuffix(before, w) || strings.HasPrefix(after, w) {
			return true
		}
	}
	return false
}
