package factcheck

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/hanzi"
	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
	"github.com/flowcabal/flowcabal/textsearch"
)

// Chinese fiction introduces a character by letting them speak or by
// addressing them: "雨村笑道", "，如海道：", "雨村先生". Those positions,
// after a break in the text (punctuation, a line start, a closing quote),
// give names without a dictionary; the near-miss test then runs on the
// names the previous chapter established.

// cjkSpeechVerbs end a speaker's name (folded, simplified). Longer first, so
// that "冷笑道" is taken whole rather than leaving "冷" in the name.
var cjkSpeechVerbs = []string{
	"冷笑道", "陪笑道", "含笑道", "笑说道", "笑问道",
	"笑道", "说道", "问道", "叹道", "忙道", "答道", "回道", "哭道", "喝道", "骂道", "便道", "又道", "因道", "听了", "听说", "急道", "怒道", "喜道",
	"道", "说",
}

// addressTitles follow a name in address ("雨村先生", "宝玉二爷").
var addressTitles = []string{"老爷", "太太", "姑娘", "奶奶", "大人", "先生", "夫人", "小姐", "公子", "大爷", "二爷", "相公", "娘子", "姑娘", "哥哥", "姐姐", "妹妹"}

// nameStop are characters that do not start a name in these positions:
// pronouns, particles, adverbs and verbs that sit between a break and a
// speech verb ("他便道", "众人都说").
const nameStop = "要会能可该应想叫让请我你他她它们您咱汝吾尔这那此是的了不也都就又在有个么什谁何怎一来去着说道听笑问看便忙因只却倒还亦遂乃才早正先再已曾将把被给向和与及同并而且或若如之其所者乎哉呢吗吧啊呀哦嗯罢众人家里外上下前后中内得地没无未别各每些几多少两"

// nameInnerStop are characters that end or continue no name: particles
// and the adverbs that come between a name and its verb ("黛玉便道").
const nameInnerStop = "里上下中内外边的了是也都就又便忙因只却倒还着说道听笑问看们么呢吗吧啊呀我你他她这那在有不"

// surnames are common family names (simplified). A surname and one or
// two characters after a break, followed by a verb or an adverb, name a
// person often enough ("贾赦听了", "，王仁便").
const surnames = "赵钱孙李周吴郑王冯陈褚卫蒋沈韩杨朱秦尤许吕施张孔曹严魏陶姜谢邹苏潘范彭鲁韦袁柳鲍史唐费薛雷贺倪汤殷罗郝傅卞齐康伍顾孟黄穆萧尹姚邵汪狄臧戴宋庞熊纪舒董梁杜阮贾娄颜郭林钟徐邱骆夏蔡胡霍卢詹刘邢焦柯甄赖卓"

// nameFollowers may follow a surnamed name as its clause goes on.
const nameFollowers = "便忙也又因等听见笑来去进回问叹哭命叫只却遂已正才都在和与同并之的想看坐走起站倒亦乃方"

// runeSet is textsearch.RuneSet under the package's lower-case names.
type runeSet struct{ textsearch.RuneSet }

func runeSetOf(s string) *runeSet { return &runeSet{*textsearch.RuneSetOf(s)} }

func (m *runeSet) add(r rune)      { m.Add(r) }
func (m *runeSet) has(r rune) bool { return m.Has(r) }

// runeList is a list of words as runes, with the set of their first runes.
type runeList struct {
	words [][]rune
	first *runeSet
}

func runeListOf(ws []string) *runeList {
	l := &runeList{first: &runeSet{}}
	for _, w := range ws {
		rs := []rune(w)
		l.words = append(l.words, rs)
		l.first.add(rs[0])
	}
	return l
}

// prefixOf reports whether rs starts with one of the words.
func (l *runeList) prefixOf(rs []rune) bool {
	if len(rs) == 0 || !l.first.has(rs[0]) {
		return false
	}
	for _, w := range l.words {
		if len(rs) >= len(w) && slices.Equal(rs[:len(w)], w) {
			return true
		}
	}
	return false
}

// The tables above as sets, read-only after package initialisation.
var (
	speechVerbList   = runeListOf(cjkSpeechVerbs)
	addressTitleList = runeListOf(addressTitles)
	nameStopSet      = runeSetOf(nameStop)
	nameInnerStopSet = runeSetOf(nameInnerStop)
	surnameSet       = runeSetOf(surnames)
	nameFollowerSet  = runeSetOf(nameFollowers)
	kinshipSet       = runeSetOf(kinshipChars)
)

// nameKey is a name of two or three folded characters (the third zero
// for two), a map key that needs no allocation.
type nameKey [3]rune

func keyOf(rs []rune) nameKey {
	var k nameKey
	copy(k[:], rs)
	return k
}

func (k nameKey) runes() []rune {
	if k[2] == 0 {
		return k[:2]
	}
	return k[:]
}

// cjkIntroduced returns the names that the folded text rs uses as a
// speaker or in address at least once and at least twice in all
// (two or three characters).
func cjkIntroduced(rs []rune) map[nameKey]introduced {
	found := map[nameKey]introduced{}
	for i := 0; i < len(rs); i++ {
		if !prose.IsCJK(rs[i]) || nameStopSet.has(rs[i]) {
			continue
		}
		surnamed := surnameSet.has(rs[i])
		// After a break any name; else only a surname and a speech verb
		// ("都笑向李纨道").
		broken := i == 0 || prose.NameBreak(rs[i-1])
		if !broken && !surnamed {
			continue
		}
		for n := 2; n <= 3 && i+n <= len(rs); n++ {
			name := rs[i : i+n]
			if !allNameRunes(name[1:]) {
				break
			}
			rest := rs[i+n:]
			speaks := speechVerbList.prefixOf(rest)
			if !broken && !speaks {
				continue
			}
			if speaks || addressTitleList.prefixOf(rest) ||
				(surnamed && len(rest) > 0 && nameFollowerSet.has(rest[0])) {
				key := keyOf(name)
				in := found[key]
				in.speaker = in.speaker || speaks
				found[key] = in
			}
		}
	}
	for key := range found {
		// "宝玉想" is "宝玉" thinking.
		if key[2] != 0 {
			if _, ok := found[nameKey{key[0], key[1]}]; ok {
				delete(found, key)
			}
		}
	}
	// Count every candidate in one pass.
	first := &runeSet{}
	for key := range found {
		first.add(key[0])
	}
	for i := range rs {
		if !first.has(rs[i]) {
			continue
		}
		for n := 2; n <= 3 && i+n <= len(rs); n++ {
			key := keyOf(rs[i : i+n])
			if in, ok := found[key]; ok {
				in.count++
				found[key] = in
			}
		}
	}
	for key, in := range found {
		if in.count < 2 {
			delete(found, key)
		}
	}
	return found
}

// introduced is what the previous chapter shows of a name.
type introduced struct {
	count   int  // occurrences
	speaker bool // it speaks at least once ("如海笑道")
}

func allNameRunes(rs []rune) bool {
	for _, r := range rs {
		if !prose.IsCJK(r) || nameInnerStopSet.has(r) {
			return false
		}
	}
	return true
}

// countAll counts the occurrences of needle in hay.
func countAll(needle, hay []rune) int {
	n := 0
	for i := 0; i+len(needle) <= len(hay); i++ {
		if hay[i] == needle[0] && slices.Equal(hay[i:i+len(needle)], needle) {
			n++
		}
	}
	return n
}

// checkContinuityCJK reports a run of characters in d that is one
// character away from a name the previous chapter introduced: the same
// first character (the family name, or the first of a given name), a
// character that sounds the same or looks alike in another position,
// occurring once in d and never in the previous chapter, outside forms
// of address and declared names. Names the author declared are the name
// checker's; those are left out here.
func (k *Knowledge) checkContinuityCJK(d *doc, prev string) []Finding {
	prs := make([]rune, 0, len(prev)/3+1)
	for _, r := range prev {
		prs = append(prs, k.foldRune(r))
	}
	intro := cjkIntroduced(prs)
	if len(intro) == 0 {
		return nil
	}
	type cand struct {
		runes []rune
	}
	near := map[cjkKey][]*cand{}
	// First characters of the names: only windows starting with one are
	// looked up.
	first := &runeSet{}
	for key := range intro {
		first.add(key[0])
	}
	for key := range intro {
		rs := key.runes()
		if k.declaredCJK(rs) {
			continue
		}
		c := &cand{runes: rs}
		for pos := 1; pos < len(rs); pos++ {
			key := cjkKey{n: len(rs), pos: pos}
			copy(key.r[:], rs)
			key.r[pos] = 0
			near[key] = append(near[key], c)
		}
	}
	rs := d.frunes
	out := k.cjkTitleChanges(d, prev, prs, intro)
	// Characters of the introduced names, written right, in this text: a
	// window over them ("玉穿" of "宝玉穿着") is not a misspelling.
	covered := make([]bool, len(rs)+1)
	for i := range rs {
		if !first.has(rs[i]) {
			continue
		}
		for n := 2; n <= 3 && i+n <= len(rs); n++ {
			if _, ok := intro[keyOf(rs[i:i+n])]; ok {
				for j := i; j < i+n; j++ {
					covered[j] = true
				}
			}
		}
	}
	for i := range rs {
		if !first.has(rs[i]) {
			continue
		}
		for n := 2; n <= 3 && i+n <= len(rs); n++ {
			window := rs[i : i+n]
			if !prose.AllCJK(window) {
				break
			}
			if slices.Contains(covered[i:i+n], true) {
				continue
			}
			for pos := 1; pos < n; pos++ {
				key := cjkKey{n: n, pos: pos}
				copy(key.r[:], window)
				key.r[pos] = 0
				for _, c := range near[key] {
					a, b := c.runes[pos], window[pos]
					if a == b || kinshipSet.has(a) || kinshipSet.has(b) || !hanzi.Near(a, b) {
						continue
					}
					start, end := d.roff[i], d.roff[i+n]
					if d.overlapsMention(start, end) || countRunes(rs, window) > 1 || countRunes(prs, window) > 0 ||
						k.book.knownCJK(string(window), string(c.runes)) {
						continue
					}
					// No declared name says which form is right here, so
					// the manuscript must: a window the book writes
					// elsewhere too (那怪忽然, 長老莫管) is words of the
					// book that only look like a name beside a verb.
					if k.book != nil && k.book.countCJK(string(window)) > 1 {
						continue
					}
					// The changed character makes a word of the book with
					// its neighbour (忽然 of 那怪忽然, 世界 of 滿天世界).
					if k.book != nil && k.edgeInWord(rs, i, n, pos, nil) {
						continue
					}
					was := prevSpelling(prev, prs, c.runes)
					fix := []rune(d.text[start:end])
					fix[pos] = writtenAs(d, a, []rune(was)[pos])
					out = append(out, Finding{
						Type:       TypeContinuity,
						Start:      start,
						End:        end,
						Message:    fmt.Sprintf("“%s”: the previous chapter writes this name “%s”", d.text[start:end], was),
						Evidence:   Evidence{Key: "name", Value: was, Quote: was},
						Suggestion: string(fix),
						Confidence: 0.6,
					})
				}
			}
		}
	}
	return dedupe(out)
}

// writtenAs spells the folded character r as the text writes it
// elsewhere, else as the previous chapter wrote it (prevWritten): the
// book's script, whichever it is.
func writtenAs(d *doc, r, prevWritten rune) rune {
	for j, fr := range d.frunes {
		if fr == r {
			orig, _ := utf8.DecodeRuneInString(d.text[d.roff[j]:])
			return orig
		}
	}
	return prevWritten
}

// declaredCJK reports whether the folded runes rs are a declared name or
// part of one.
func (k *Knowledge) declaredCJK(rs []rune) bool {
	for _, seqs := range k.cjk {
		for _, s := range seqs {
			if !s.exclude && len(s.runes) >= len(rs) && countAll(rs, s.runes) > 0 {
				return true
			}
		}
	}
	return false
}

// prevSpelling returns the first occurrence of the folded name rs in the
// previous chapter as written there (its script).
func prevSpelling(prev string, prs, rs []rune) string {
	for i := 0; i+len(rs) <= len(prs); i++ {
		if slices.Equal(prs[i:i+len(rs)], rs) {
			// Runes of prev in order: find byte offsets of rune i and i+len.
			j, start := 0, -1
			for off := range prev {
				if j == i {
					start = off
				}
				if j == i+len(rs) {
					return prev[start:off]
				}
				j++
			}
			if start >= 0 {
				return prev[start:]
			}
		}
	}
	return string(rs)
}

// titleSex is the sex a title of address implies: "老爷" a man, "太太" a
// woman. Kin terms ("姐姐") are left out: a woman calls a man's wife by
// them as well.
var titleSex = map[string]byte{
	"老爷": 'm', "大人": 'm', "先生": 'm', "公子": 'm', "大爷": 'm', "二爷": 'm', "相公": 'm',
	"太太": 'f', "夫人": 'f', "小姐": 'f', "娘子": 'f', "奶奶": 'f', "姑娘": 'f',
}

// titlesAfter calls yield with the index and the title of each
// occurrence of name in rs that a title of titleSex follows.
func titlesAfter(rs, name []rune, yield func(i int, title string)) {
	for i := 0; i+len(name)+2 <= len(rs); i++ {
		if rs[i] != name[0] || !slices.Equal(rs[i:i+len(name)], name) {
			continue
		}
		j := i + len(name)
		if !addressTitleList.first.has(rs[j]) {
			continue
		}
		if t := string(rs[j : j+2]); titleSex[t] != 0 {
			yield(j, t)
		}
	}
}

// cjkTitleChanges reports a speaker that the previous chapter addressed
// only with a woman's titles ("翠缕姑娘") and this text with a man's
// ("翠缕老爷").
func (k *Knowledge) cjkTitleChanges(d *doc, prev string, prs []rune, intro map[nameKey]introduced) []Finding {
	var out []Finding
	for key, in := range intro {
		name := key.runes()
		// Only a person who speaks; "东府", "亲家" take titles for the
		// household's men and women alike.
		if !in.speaker || strings.ContainsAny(string(name), "家府房院门") {
			continue
		}
		sex, was := byte(0), ""
		mixed := false
		titlesAfter(prs, name, func(_ int, t string) {
			if sex != 0 && titleSex[t] != sex {
				mixed = true
			}
			sex, was = titleSex[t], t
		})
		// Only a woman's name given a man's title: "X太太", "X奶奶"
		// after a man's name is his wife ("蓉大奶奶").
		if sex != 'f' || mixed {
			continue
		}
		quote := prevSpelling(prev, prs, append(slices.Clip(name), []rune(was)...))
		titlesAfter(d.frunes, name, func(i int, t string) {
			if titleSex[t] == sex {
				return
			}
			start, end := d.roff[i], d.roff[i+2]
			written := d.text[d.roff[i-len(name)]:end]
			qr := []rune(quote)
			out = append(out, Finding{
				Type:       TypeContinuity,
				Start:      start,
				End:        end,
				Message:    fmt.Sprintf("“%s”: the previous chapter calls this person “%s”", written, quote),
				Evidence:   Evidence{Key: "title", Value: was, Quote: quote},
				Suggestion: string(qr[len(qr)-2:]),
				Confidence: 0.5,
			})
		})
	}
	return out
}
