package factcheck

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/hanzi"
	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// Chinese predications of a place: where someone lives (住在…, 家住…) and
// where they come from (原籍…, 本貫…人氏, 是…人氏, …人也). The value is
// another entity, a place, so the check is not a string compare: a place
// the text predicates of a character contradicts the declared one only
// when neither names the other (大觀園 and 大觀園瀟湘館 agree) and no
// declared location mentioned there is part of the declared value.

// residenceKeys and originKeys are the fact keys of those values, folded
// and lower case.
var (
	residenceKeys = wordSet("住处", "住所", "住址", "居所", "居处", "住", "家", "residence", "home", "lives", "address",
		"lives in", "lives at", "dwelling", "abode", "lodgings", "place of residence", "current residence")
	originKeys = wordSet("原籍", "祖籍", "籍贯", "籍", "家乡", "故乡", "origin", "birthplace", "hometown",
		"native place", "place of birth", "birth place", "home town", "native of", "native", "born in", "born at", "place of origin")
)

// normKey is a fact key as the key sets above hold it: lower case, with
// the word breaks authors write in keys ("native_place", "place-of-birth")
// as spaces.
func normKey(key string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(key), func(r rune) bool { return r == '_' || r == '-' || r == ' ' }), " ")
}

// placePredicate is one marker of a place predication, folded.
type placePredicate struct {
	marker string
	keys   map[string]bool
	what   string
	// named marks a marker that says other things too (住了 is also
	// "stopped": 哭聲住了, 止住了眾人): the place after it counts only
	// when it ends as a place or a dwelling does (櫳翠庵, 瀟湘館).
	named bool
}

var placePredicates = []placePredicate{
	{"住在", residenceKeys, "lives in", false},
	{"住于", residenceKeys, "lives in", false},
	{"家住", residenceKeys, "lives in", false},
	{"住的是", residenceKeys, "lives in", false},
	{"住了", residenceKeys, "lives in", true},
	{"现居", residenceKeys, "lives in", false},
	{"见居", residenceKeys, "lives in", false},
	{"原籍", originKeys, "comes from", false},
	{"祖居", originKeys, "comes from", false},
	{"祖籍", originKeys, "comes from", false},
	{"本贯", originKeys, "comes from", false},
	{"籍贯", originKeys, "comes from", false},
	{"祖贯", originKeys, "comes from", false},
	{"乡贯", originKeys, "comes from", false},
	{"本籍", originKeys, "comes from", false},
}

// The markers as runes, and the set of their first runes, for the scan.
var (
	placeMarkerRunes = func() [][]rune {
		out := make([][]rune, len(placePredicates))
		for i, pp := range placePredicates {
			out[i] = []rune(pp.marker)
		}
		return out
	}()
	placeMarkerFirst = func() *runeSet {
		s := &runeSet{}
		for _, pp := range placePredicates {
			r, _ := utf8.DecodeRuneInString(pp.marker)
			s.add(r)
		}
		return s
	}()
)

// dwellingEnding reports whether r ends the name of a dwelling (folded):
// a hall, a studio, a lodge, a garden court (蘅蕪苑, 瀟湘館, 櫳翠庵, 秋爽齋).
func dwellingEnding(r rune) bool {
	return strings.ContainsRune("庵苑馆院斋轩楼阁堂房舍园居", r)
}

// placeStop ends a predicated place: punctuation, and the words that
// follow a place (中, 里, 的, 人氏).
func placeStop(r rune) bool {
	return !prose.IsCJK(r) || strings.ContainsRune("中里内的人，。、；：！？了也", r)
}

// checkCJKPlaces finds places predicated of a character against the
// declared residence or origin.
func (k *Knowledge) checkCJKPlaces(d *doc) []Finding {
	if !d.cjk || len(k.ents) == 0 {
		return nil
	}
	eff := k.effMentions(d)
	var out []Finding
	rs := d.frunes
	for i := range rs {
		for pi, pp := range placePredicates {
			mr := placeMarkerRunes[pi]
			if !placeMarkerFirst.has(rs[i]) || i+len(mr) > len(rs) || !slices.Equal(rs[i:i+len(mr)], mr) {
				continue
			}
			start := i + len(mr)
			// 原籍是江西饒州府人: a copula after the marker is no place;
			// nor 在 after 家住 (我家住在福陵山).
			if start < len(rs) && strings.ContainsRune("是乃系为在于", rs[start]) {
				start++
			}
			end := start
			for end < len(rs) && end-start < maxPlaceRunes && !placeStop(rs[end]) {
				end++
			}
			// A place that runs on past ten characters is cut, not
			// read (祖貫東勝神洲海東傲來國花|果山水簾洞居住), unless it
			// is told in levels from a region down (祖居北俱蘆洲傲來國花果
			// 山水簾洞) and ends within sixteen.
			if end-start > 10 {
				if _, levels := firstLevel(string(rs[start:end])); !levels {
					end = start + 10
				}
			}
			if end-start >= 10 && end < len(rs) && !placeStop(rs[end]) {
				continue
			}
			// 花果山水簾洞居住: the verb after the place is no part of it.
			if end-start > 4 && string(rs[end-2:end]) == "居住" {
				end -= 2
			}
			if end-start < 2 || pp.named && !dwellingEnding(rs[end-1]) && !placeEnding(rs[end-1]) {
				continue
			}
			if f, ok := k.judgeCJKPlace(d, eff, d.roff[i], d.roff[start], d.roff[end], pp); ok {
				out = append(out, f)
			}
		}
		// "是揚州人氏", "乃姑蘇人也": the place before 人氏 or 人也,
		// after a copula.
		if rs[i] == '人' && i+1 < len(rs) && (rs[i+1] == '氏' || rs[i+1] == '也') {
			for _, cop := range "是乃系为" {
				j := i - 1
				for j >= 0 && i-j <= 10 && rs[j] != cop && !placeStop(rs[j]) {
					j--
				}
				if j >= 0 && rs[j] == cop && i-j-1 >= 2 {
					pp := placePredicate{string(cop), originKeys, "comes from", false}
					if f, ok := k.judgeCJKPlace(d, eff, d.roff[j], d.roff[j+1], d.roff[i], pp); ok {
						out = append(out, f)
					}
					break
				}
			}
		}
	}
	return out
}

func (k *Knowledge) judgeCJKPlace(d *doc, eff []effMention, marker, start, end int, pp placePredicate) (Finding, bool) {
	keyOf := func(e *entInfo) (string, string) {
		for key, v := range d.factsOf(e) {
			if pp.keys[normKey(string(k.foldRunes(key)))] {
				return key, v
			}
		}
		return "", ""
	}
	has := func(e *entInfo) bool { key, _ := keyOf(e); return key != "" && e.person }
	// A relative clause names its holder after it: 原籍金陵的林黛玉.
	e := relativeHolder(d, eff, end, has)
	relative := e != nil
	if e == nil {
		e = k.cjkHolder(d, eff, marker, 24, has)
	}
	if e == nil {
		// 他原籍是…, 有一個…的，本是…人氏: a pronoun or an introduction
		// whose person holders.go can tell.
		if r := k.refBefore(d, eff, marker, 24); r != nil {
			if !has(r) {
				return Finding{}, false
			}
			e = r
		}
	}
	if e == nil {
		// 還有一女，原籍金陵，乳名寶釵: the subject named later.
		if r := k.namedInNextClause(d, eff, marker); r != nil {
			if !has(r) {
				return Finding{}, false
			}
			e = r
		}
	}
	if e == nil {
		if d.inQuote(marker) {
			e = k.cjkSpeaker(d, eff, marker)
			if e == nil {
				e = k.cjkAddressee(d, eff, marker)
			}
		}
		if e == nil || !has(e) {
			return Finding{}, false
		}
	}
	// 住了 takes its subject right before it (寶釵住了蘅蕪苑): in a list
	// of such clauses (探春住了秋爽齋，惜春住了蓼風軒) a name no file
	// declares is the subject, not the one a clause before.
	if pp.named && !subjectRightBefore(d, eff, e, marker) {
		return Finding{}, false
	}
	key, declared := keyOf(e)
	place := string(k.foldRunes(d.text[start:end]))
	decl := string(k.foldRunes(declared))
	if strings.Contains(decl, place) || strings.Contains(place, decl) || containsSounding(place, decl) {
		return Finding{}, false
	}
	// Places of several levels agree when their first levels do (東勝神洲
	// 海東傲來國 of 東勝神洲傲來國花果山); the rest is told in other words.
	// Two places of one kind under it (福陵山白雲洞, 福陵山雲棧洞) are two.
	// A place read past ten characters is judged by its top level only
	// (祖居傲來國花果山水簾洞 beside the continent 東勝神洲 says nothing).
	// So is any place where the declared one is a region alone (東勝神洲):
	// 傲來國花果山 lies in some region, which the text does not say.
	if (utf8.RuneCountInString(place) > 10 || isRegion(decl)) && !regionsDiffer(place, decl) {
		return Finding{}, false
	}
	otherUnder := false
	if a, ok := firstLevel(place); ok {
		if b, ok := firstLevel(decl); ok && a == b {
			if !otherLastLevel(place[len(a):], decl[len(b):]) {
				return Finding{}, false
			}
			otherUnder = true
		}
	}
	// Two regions of one kind at the top (北俱蘆洲 and 東勝神洲, 江西省
	// and 浙江省): the lower levels, whatever their files say, lie in
	// another.
	if !regionsDiffer(place, decl) && !k.placeStands(d, e, pp, start, end, place, decl, otherUnder, relative) {
		return Finding{}, false
	}
	f := k.cjkFactFinding(d, e, start, end, key, declared, 0.7)
	f.Message = fmt.Sprintf("the text says %s %s “%s”, but %s's %s is “%s” as of chapter %d", e.e.Name, pp.what, d.text[start:end], e.e.Name, key, declared, d.chapter)
	f.Suggestion = declared
	return f, true
}

// placeStands reports whether a place predicated of e at [start, end)
// (place and decl folded) stands against the declared one: no file puts
// the one in the other, and it is a place at all.
func (k *Knowledge) placeStands(d *doc, e *entInfo, pp placePredicate, start, end int, place, decl string, otherUnder, relative bool) bool {
	// The character's own file says they live there too (黛玉 "住進大觀
	// 園" beside the residence 瀟湘館): the two are not at odds.
	if livesThere(string(k.foldRunes(e.e.Description)), place) || k.placeWithin(decl, place) {
		return false
	}
	// The place must be one: a declared location, or a name with a
	// place's ending (州, 府, 山…).
	located := false
	for _, mi := range d.mentionsIn(start, end) {
		m := d.mentions[mi]
		if m.end > end {
			continue
		}
		for _, le := range m.ents {
			if le.person {
				continue
			}
			located = true
			if otherUnder {
				continue // the first level the two share says nothing
			}
			// A location the declared value names (瀟湘館 inside
			// 大觀園瀟湘館) agrees with it.
			for _, n := range append([]string{le.e.Name}, le.e.Aliases...) {
				if f := string(k.foldRunes(n)); f != "" && strings.Contains(decl, f) {
					return false
				}
			}
			// The location's file names the declared place (大觀園's
			// description lists 瀟湘館).
			if strings.Contains(string(k.foldRunes(le.e.Description)), decl) {
				return false
			}
		}
	}
	// "…人氏", "…人也" after it say it is a place too (金陵人氏).
	last, _ := utf8.DecodeLastRuneInString(place)
	after := d.text[end:]
	native := (strings.HasPrefix(after, "人氏") || strings.HasPrefix(after, "人也")) &&
		!strings.ContainsFunc(place, func(r rune) bool { return prose.IsCJKNumeral(r) || r == '个' || r == '個' }) // 二十個僧人也: a count of people
	// In a relative clause (原籍金陵的林黛玉) 原籍, 祖貫 and the like take
	// nothing but a place. Elsewhere a place without an ending is another
	// name of a place as often (本籍南京 of 金陵), or after 住在 no place
	// at all (這里).
	origin := relative && (strings.HasSuffix(pp.marker, "籍") || strings.HasSuffix(pp.marker, "贯"))
	_, levels := firstLevel(place) // 南贍部洲海東傲來國…: a place of several levels
	if !located && !placeEnding(last) && !native && !origin && !levels && !(pp.named && dwellingEnding(last)) {
		return false
	}
	// After 住了 a dwelling is compared with a declared dwelling only: a
	// court of a house (怡紅院) is no other home than the house (榮國府).
	if dl, _ := utf8.DecodeLastRuneInString(decl); pp.named && dwellingEnding(last) != dwellingEnding(dl) {
		return false
	}
	return true
}

// placeWithin reports whether the declared place decl (folded) lies
// within place (folded) by the files: decl's own file gives place as a
// fact's value (所在: 大觀園, part_of: 大觀園) or relates to a location
// named place. Living in 瀟湘館 is living in 大觀園.
func (k *Knowledge) placeWithin(decl, place string) bool {
	named := func(e *entInfo, s string) bool {
		for _, n := range e.e.Names() {
			if string(k.foldRunes(n)) == s {
				return true
			}
		}
		return false
	}
	for _, e := range k.ents {
		if e.person || !named(e, decl) {
			continue
		}
		for _, v := range e.e.Facts {
			if string(k.foldRunes(v)) == place {
				return true
			}
		}
		for _, r := range e.e.Relations {
			if to := k.byResource(r.To); to != nil && !to.person && named(to, place) {
				return true
			}
		}
	}
	return false
}

// otherLastLevel reports whether two places under one first level end in
// two places of one kind (福陵山白雲洞 and 福陵山雲棧洞: two caves of the
// mountain): each rest ends with the same place ending and neither holds
// the other. Rests of other kinds (傲來國 and 傲來國花果山) are one place
// told in more or fewer levels.
func otherLastLevel(a, b string) bool {
	ra, rb := []rune(a), []rune(b)
	if len(ra) < 2 || len(rb) < 2 || ra[len(ra)-1] != rb[len(rb)-1] || !placeEnding(ra[len(ra)-1]) {
		return false
	}
	return !strings.Contains(a, b) && !strings.Contains(b, a)
}

// firstLevel is the first level of a place of several levels (folded):
// two to five characters ending as a place does (東勝神洲, 江西省), with
// more after it.
func firstLevel(place string) (string, bool) {
	rs := []rune(place)
	for i := 1; i < min(5, len(rs)-1); i++ {
		if placeEnding(rs[i]) {
			return string(rs[:i+1]), true
		}
	}
	return "", false
}

// maxPlaceRunes is the longest place a predication reads: one told in
// levels from a continent down to a cave.
const maxPlaceRunes = 16

// isRegion reports whether a folded place is a continent, a province or
// a country alone (東胜神洲, 江西省), of two to five characters.
func isRegion(s string) bool {
	rs := []rune(s)
	return len(rs) >= 2 && len(rs) <= 5 && strings.ContainsRune("洲省国", rs[len(rs)-1])
}

// regionsDiffer reports whether two places (folded) open with regions of
// one kind that differ (北俱芦洲… and 东胜神洲): a continent, a province or
// a country, the whole place or its first level.
func regionsDiffer(place, decl string) bool {
	// The region a place opens with: its shortest head of two to five
	// characters that ends as a region does (浙江省, not 浙江).
	top := func(s string) string {
		rs := []rune(s)
		for i := 1; i < min(5, len(rs)); i++ {
			if strings.ContainsRune("洲省国", rs[i]) {
				return string(rs[:i+1])
			}
		}
		return s
	}
	a, b := []rune(top(place)), []rune(top(decl))
	if len(a) < 2 || len(b) < 2 || len(a) > 5 || len(b) > 5 {
		return false
	}
	last := a[len(a)-1]
	if last != b[len(b)-1] || !strings.ContainsRune("洲省国", last) {
		return false
	}
	return !strings.Contains(string(a), string(b)) && !strings.Contains(string(b), string(a))
}

// relativeHolder is the person a Chinese relative clause ending at p
// describes: the name right after its 的 or 之 (原籍金陵的林黛玉).
func relativeHolder(d *doc, eff []effMention, p int, ok func(*entInfo) bool) *entInfo {
	var q int
	switch {
	case strings.HasPrefix(d.text[p:], "的"):
		q = p + len("的")
	case strings.HasPrefix(d.text[p:], "之"):
		q = p + len("之")
	default:
		return nil
	}
	for _, m := range eff {
		if m.start == q && !m.possessive && ok(m.ent) {
			return m.ent
		}
		if m.start > q {
			break
		}
	}
	return nil
}

// livesThere reports whether text (folded) says someone lives at place:
// 住 at most four characters before it (住进大观园, 住在园中的潇湘馆).
func livesThere(text, place string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], place)
		if j < 0 {
			return false
		}
		lead := []rune(text[:i+j])
		if k := slices.Index(lead[max(0, len(lead)-4):], '住'); k >= 0 {
			return true
		}
		i += j + len(place)
	}
}

// cjkCopulas stand between a holder and a predicated value (folded).
var cjkCopulas = []string{"本是", "原是", "乃是", "就是", "便是", "是", "乃", "为", "系",
	// Verbs of serving as say it too (舊時做天蓬元帥, 曾任…).
	"做了", "做过", "做", "作", "当了", "当过", "任"}

// checkCJKValueSwaps finds a value declared of one entity predicated of
// another with a copula: "沙悟淨，汝本是天蓬元帥" gives 沙悟淨 the 前身 that
// 豬八戒's file declares, while 沙悟淨's own 前身 is 捲簾大將. A value is
// an entity here (a former self, a master, a mountain), so it is found
// by the other entity that holds it, not by its wording.
func (k *Knowledge) checkCJKValueSwaps(d *doc) []Finding {
	if !d.cjk || len(k.ents) == 0 {
		return nil
	}
	type held struct {
		e        *entInfo
		key, val string
	}
	byValue := map[string][]held{}
	for _, e := range k.ents {
		for key, v := range d.factsOf(e) {
			f := string(k.foldRunes(strings.TrimSpace(v)))
			if utf8.RuneCountInString(f) < 3 || !prose.AllCJK([]rune(f)) || strings.EqualFold(key, "status") {
				continue
			}
			byValue[f] = append(byValue[f], held{e, key, v})
		}
	}
	if len(byValue) == 0 {
		return nil
	}
	var eff []effMention
	var out []Finding
	ft := d.foldedText()
	for val, holders := range byValue {
		if !d.mayHold(val) {
			continue
		}
		for i := 0; ; {
			j := strings.Index(ft[i:], val)
			if j < 0 {
				break
			}
			at := i + j
			i = at + len(val)
			// The copula right before the value.
			cop := endingOf(ft[:at], cjkCopulas)
			if cop == "" {
				continue
			}
			// 叫做, 喚做, 看作, 當做: a name given or a likeness, not a post
			// served in (此處叫做蛇盤山鷹愁澗).
			if strings.HasPrefix(cop, "做") || strings.HasPrefix(cop, "作") {
				if r, _ := utf8.DecodeLastRuneInString(ft[:at-len(cop)]); strings.ContainsRune("叫唤喚称稱看当當比算", r) {
					continue
				}
			}
			// The value ends its clause ("汝本是天蓬元帥。", "…是也"): a
			// value followed by 的 or by more of a name is part of
			// something else (是王夫人的親戚, 是邢夫人岫煙陪著).
			if next, _ := utf8.DecodeRuneInString(ft[i:]); i < len(ft) && prose.IsCJK(next) && next != '也' {
				continue
			}
			ri := utf8.RuneCountInString(ft[:at])
			start, end := d.roff[ri], d.roff[ri+utf8.RuneCountInString(val)]
			copStart := d.roff[ri-utf8.RuneCountInString(cop)]
			if eff == nil {
				eff = k.effMentions(d)
			}
			h := k.cjkHolder(d, eff, copStart, 24, func(e *entInfo) bool { return e.person })
			if h != nil && !k.topicOf(d, eff, h, copStart) {
				continue
			}
			// "八戒道：「我乃是捲簾大將」": the speaker says it of
			// themself.
			if h == nil {
				h = k.refBefore(d, eff, copStart, 6)
			}
			if h == nil {
				h = k.cjkSpeaker(d, eff, copStart)
			}
			if h == nil {
				h = k.cjkAddressee(d, eff, copStart)
			}
			if h == nil || slices.ContainsFunc(holders, func(x held) bool { return x.e == h }) {
				continue
			}
			for _, x := range holders {
				own, ok := d.factsOf(h)[x.key]
				if !ok || strings.Contains(string(k.foldRunes(own)), val) {
					continue
				}
				f := k.cjkFactFinding(d, h, start, end, x.key, own, 0.7)
				f.Message = fmt.Sprintf("the text makes “%s” %s's %s, but that is %s's; %s's %s is “%s” as of chapter %d", d.text[start:end], h.e.Name, x.key, x.e.e.Name, h.e.Name, x.key, own, d.chapter)
				f.Suggestion = own
				out = append(out, f)
				break
			}
		}
	}
	slices.SortFunc(out, func(a, b Finding) int { return a.Start - b.Start })
	return out
}

// topicOf reports whether the latest mention of h before the copula at p
// is the copula's subject: right before it with at most two adverbs
// between ("沙悟淨本是"), or addressed and then called 汝 or 你
// ("沙悟淨，汝本是"). A name a clause earlier ("行者急回頭上望，原來是")
// is not.
func (k *Knowledge) topicOf(d *doc, eff []effMention, h *entInfo, p int) bool {
	for i := len(eff) - 1; i >= 0; i-- {
		m := eff[i]
		if m.end > p || m.ent != h {
			continue
		}
		gap := []rune(d.text[m.end:p])
		switch {
		case len(gap) <= 2 && !slices.ContainsFunc(gap, func(r rune) bool { return !prose.IsCJK(r) }):
			return true
		case len(gap) == 2 && strings.ContainsRune("，,", gap[0]) && strings.ContainsRune("汝你爾尔", gap[1]):
			return true
		}
		return false
	}
	return false
}

// titleHeads end a Chinese title or post; what comes before them tells
// which one (威烈將軍, 神威將軍).
var titleHeads = []string{"将军", "元帅", "大将", "尚书", "侍郎", "御史", "知府", "知县", "总兵", "都尉", "校尉", "太尉", "总督", "巡抚", "真君", "天王", "星君", "大仙", "公主", "夫人"}

// titleHeadRunes are titleHeads as runes, in their order.
var titleHeadRunes = func() [][]rune {
	out := make([][]rune, len(titleHeads))
	for i, h := range titleHeads {
		out[i] = []rune(h)
	}
	return out
}()

// checkCJKTitles finds a title put before a character's name that has the
// head of the declared title but another qualifier: "神威將軍賈珍" where
// the file says 賈珍 is 世襲三品爵威烈將軍.
func (k *Knowledge) checkCJKTitles(d *doc) []Finding {
	if !d.cjk || len(k.ents) == 0 {
		return nil
	}
	var out []Finding
	for _, m := range d.mentions {
		if len(m.ents) != 1 || !m.ents[0].person {
			continue
		}
		e := m.ents[0]
		ri, ok := slices.BinarySearch(d.roff, m.start)
		if !ok || ri < 4 {
			continue
		}
		// The heads the text ends with before the name, then the facts
		// that end with one of them.
		var heads [][]rune
		for _, hr := range titleHeadRunes {
			if n := len(hr); ri >= n+2 && slices.Equal(d.frunes[ri-n:ri], hr) {
				heads = append(heads, hr)
			}
		}
		if heads == nil {
			continue
		}
		for key, v := range d.factsOf(e) {
			decl := k.foldRunes(strings.TrimSpace(v))
			for _, hr := range heads {
				n := len(hr)
				if len(decl) < n+2 || !slices.Equal(decl[len(decl)-n:], hr) {
					continue
				}
				// The two characters before the head: the qualifier.
				q := d.frunes[ri-n-2 : ri-n]
				dq := decl[len(decl)-n-2 : len(decl)-n]
				if slices.Equal(q, dq) || !prose.AllCJK(q) || slices.ContainsFunc(q, func(r rune) bool { return prose.NameBreak(r) }) {
					continue
				}
				// The text's title must be a title too, not a phrase
				// ending in a head: it stands after a break or a rank
				// word of the declared value (三品爵).
				before := ri - n - 2
				if before > 0 && !prose.NameBreak(d.frunes[before-1]) && !slices.Contains(decl, d.frunes[before-1]) {
					continue
				}
				start, end := d.roff[ri-n-2], d.roff[ri]
				f := k.cjkFactFinding(d, e, start, end, key, v, 0.7)
				f.Message = fmt.Sprintf("the text calls %s “%s”, but %s's %s is “%s” as of chapter %d", e.e.Name, d.text[start:end], e.e.Name, key, v, d.chapter)
				f.Suggestion = string(dq) + string(hr)
				out = append(out, f)
			}
		}
	}
	return out
}

// containsSounding reports whether place writes decl (both folded) with
// characters of the same readings, one at least another character: the
// book's other spelling of the same place (胡州 of chapter 1, 浙江湖州府 of
// chapter 92), not another place.
func containsSounding(place, decl string) bool {
	p, q := []rune(place), []rune(decl)
	if len(q) < 2 {
		return false
	}
	for i := 0; i+len(q) <= len(p); i++ {
		same := true
		for j, r := range q {
			if p[i+j] == r {
				continue
			}
			if a := hanzi.Reading(r); a == "" || a != hanzi.Reading(p[i+j]) {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}

// endingOf is the first of words that s ends with, or "".
func endingOf(s string, words []string) string {
	for _, w := range words {
		if strings.HasSuffix(s, w) {
			return w
		}
	}
	return ""
}

// subjectRightBefore reports whether a mention of e ends at p or one CJK
// character before it (寶釵住了, 寶釵也住了).
func subjectRightBefore(d *doc, eff []effMention, e *entInfo, p int) bool {
	for _, m := range eff {
		if m.ent != e || m.end > p {
			continue
		}
		gap := []rune(d.text[m.end:p])
		if len(gap) == 0 || len(gap) == 1 && prose.IsCJK(gap[0]) {
			return true
		}
	}
	return false
}
