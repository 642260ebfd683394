package factcheck

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// Whom a scene holds by the company they keep: a name that is one item
// of a list of people is in the scene when the list is (the list taken
// as a whole before and after it), someone taken along by the hand or
// the arm, someone asked to sit down, someone looked at, someone "with"
// whom an act is done. None of these needs the name to be the subject
// of its clause; each still needs the construction, and none holds in a
// clause of memory or report.

// personNouns are the nouns of people an item of a list of people may
// end with: "the lady", "her cousin", "the officers".
var personNouns = wordSet("lady", "ladies", "gentleman", "gentlemen", "officer", "officers", "girls", "boys", "children", "nurse",
	"governess", "servants", "footman", "maid", "others", "guests", "visitors", "party", "family",
	"sister", "brother", "wife", "husband", "mother", "father", "son", "daughter", "aunt", "uncle", "cousin", "niece", "nephew", "friend",
	"sisters", "brothers", "daughters", "sons", "cousins", "friends", "count", "countess", "prince", "princess")

// itemModifiers may open an item of a list of people before its name or
// noun: "his sister Georgiana", "old Count Bezúkhov", "the lady".
var itemModifiers = wordSet("his", "her", "their", "my", "our", "the", "old", "young", "little", "both", "two", "three")

// maxItemWords is the longest item of a list of people, in words.
const maxItemWords = 5

// personWord reports whether word i may end an item of a list of people:
// a capitalised word (a name) or a noun of people.
func personWord(d *doc, i int) bool {
	w := d.words[i].s
	return unicode0Upper(w) || personNouns[strings.ToLower(w)]
}

// itemStart returns the first word of the item of a list of people that
// ends with word e: back over the name's words ("Mrs. Hurst"), a noun of
// people and the modifiers before it ("her cousin Colonel
// Fitzwilliam"); -1 when word e ends no such item.
func itemStart(d *doc, e int) int {
	if e < 0 || !personWord(d, e) {
		return -1
	}
	s := e
	for s > 0 && e-s+1 < maxItemWords {
		p, g := d.words[s-1].s, d.between(s-1, s)
		lp := strings.ToLower(p)
		switch {
		case unicode0Upper(p) && nameGap(g) && !leadWords[lp] && !itemBreaks[lp]:
		case g == " " && (personNouns[lp] || itemModifiers[lp]):
		default:
			return s
		}
		s--
	}
	return s
}

// itemBreaks are capitalised words that cannot be part of a name before
// another: a sentence's pronoun or article.
var itemBreaks = wordSet("i", "he", "she", "they", "we", "it", "the", "a", "an", "his", "her", "their", "in", "on", "at", "with", "of")

// itemEnd returns the last word of the item of a list of people that
// starts at word s, or -1.
func itemEnd(d *doc, s int) int {
	e, last := s, -1
	for e < len(d.words) && e-s < maxItemWords {
		if e > s && !nameGap(d.between(e-1, e)) {
			break
		}
		w := d.words[e].s
		lw := strings.ToLower(w)
		switch {
		case unicode0Upper(w) && !itemBreaks[lw] || personNouns[lw]:
			last = e
		case itemModifiers[lw] && last < 0:
		default:
			return last
		}
		e++
	}
	return last
}

// latinList returns the first and last words of the list of people that
// holds m (items joined by commas and "and": "Mrs. Hurst and Miss
// Bingley, her cousin Colonel Fitzwilliam, and the lady"), and how many
// items it has; the item m alone when it stands in none.
func latinList(d *doc, m mention) (first, last, items int) {
	first = itemStart(d, m.lastWord)
	if first < 0 || first > m.firstWord {
		first = m.firstWord
	}
	last, items = m.lastWord, 1
back:
	for first > 1 {
		k, g := first, d.between(first-1, first)
		var end int
		switch {
		case strings.TrimSpace(g) == ",":
			end = k - 1
		case g == " " && strings.ToLower(d.words[k-1].s) == "and":
			if b := strings.TrimSpace(d.between(k-2, k-1)); b != "" && b != "," {
				break back
			}
			end = k - 2
		default:
			break back
		}
		s := itemStart(d, end)
		if s < 0 {
			break
		}
		first, items = s, items+1
	}
	for last+1 < len(d.words) {
		g := strings.TrimSpace(d.between(last, last+1))
		n := last + 1
		if g != "," && g != "" {
			break
		}
		if strings.ToLower(d.words[n].s) == "and" {
			if strings.TrimSpace(d.between(n, n+1)) != "" || n+1 >= len(d.words) {
				break
			}
			n++
		} else if g != "," {
			break
		}
		e := itemEnd(d, n)
		if e < 0 {
			break
		}
		last, items = e, items+1
	}
	return first, last, items
}

// talkedOf reports whether a verb of memory, report or thought stands
// earlier in m's sentence: the whole sentence is then about the past or
// another's words ("She remembered the evening with Pétya singing").
func talkedOf(d *doc, m mention) bool {
	sent := d.sents[d.sentenceAt(m.start)]
	for n := m.firstWord - 1; n >= 0 && d.words[n].start >= sent.start; n-- {
		if recallVerbs[strings.ToLower(d.words[n].s)] {
			return true
		}
	}
	return strings.ContainsAny(d.text[sent.start:m.start], "“”\"")
}

// notNow are words before a verb that make it habitual, conditional or
// of an earlier time: "had walked with Lydia", "would sit with her".
var notNow = wordSet("had", "would", "could", "should", "might", "must", "will", "shall", "used", "to", "often", "always", "never", "sometimes", "usually", "once", "not")

// gatherVerbs before "round" put the one gathered round in the scene:
// "circles formed round old Count Bezúkhov".
var gatherVerbs = wordSet("formed", "gathered", "crowded", "pressed", "thronged", "clustered", "flocked", "assembled", "collected", "sat", "stood", "grouped", "closed", "swarmed")

// companionBetween are words that may stand between a verb of company
// and "with": "sitting there with", "walked to Meryton with".
var companionBetween = wordSet("there", "here", "down", "up", "together", "back", "out", "in", "on", "off", "about", "alone", "to", "into",
	"through", "across", "along", "round", "around", "the", "a", "over", "quietly", "slowly", "side", "by", "apart")

// inCompany reports whether m, or the list of people that holds m, is
// whom a verb of company is done with ("sitting there with Mrs. Hurst
// and Miss Bingley, her cousin Colonel Fitzwilliam", "Jane walked to
// Meryton with Lydia"), who rides or sits "with" the scene's people
// (an absolute: "with Prince Andrew riding at Natásha’s side"), round
// whom people gather, or whom someone sees with them ("she saw Mr.
// Darcy and his sister Georgiana with him").
func inCompany(d *doc, m mention) bool {
	if m.possessive || m.firstWord < 1 || talkedOf(d, m) {
		return false
	}
	first, last, _ := latinList(d, m)
	if first < 1 || !sameClause(d, first-1, first) {
		return false
	}
	head := strings.ToLower(d.words[first-1].s)
	switch head {
	case "with":
		if absoluteWith(d, last) {
			return true
		}
		return companionBefore(d, first-1)
	case "round", "around":
		// "circles formed round old Count Bezúkhov"; "put her arm round
		// Pétya".
		if first < 2 || !sameClause(d, first-2, first-1) {
			return false
		}
		w := strings.ToLower(d.words[first-2].s)
		return (gatherVerbs[w] || w == "arm" || w == "arms") && !before(d, first-2, notNow)
	}
	if !perceptionVerbs[head] || d.between(first-1, first) != " " || before(d, first-1, notNow) {
		return false
	}
	// Seen with the one who sees, or with someone of the scene.
	j := last + 1
	if j+1 >= len(d.words) || !sameClause(d, last, j+1) || d.between(last, j) != " " || strings.ToLower(d.words[j].s) != "with" {
		return false
	}
	return leftPersons[strings.ToLower(d.words[j+1].s)]
}

// absoluteWith reports whether the list of people ending at word last,
// after "with", does something now: a participle follows ("with Prince
// Andrew riding at her side").
func absoluteWith(d *doc, last int) bool {
	j := last + 1
	if j >= len(d.words) || d.between(last, j) != " " {
		return false
	}
	w := d.words[j].s
	lw := strings.ToLower(w)
	return utf8.RuneCountInString(lw) > 5 && strings.HasSuffix(lw, "ing") && unicode.IsLower([]rune(w)[0]) && !notActing[lw] && lw != "having" && lw != "being"
}

// companionBefore reports whether a verb of company (companionVerbs)
// stands before "with" at word w, with only words of place or manner
// between and nothing that makes it habitual or past.
func companionBefore(d *doc, w int) bool {
	for n := w - 1; n >= 0 && n >= w-5; n-- {
		if !sameClause(d, n, n+1) || strings.Contains(d.between(n, n+1), ",") {
			return false
		}
		// "walked in the garden with": over a phrase of place.
		if p := placePhraseBefore(d, n); p != n {
			n = p
		}
		lw := strings.ToLower(d.words[n].s)
		if companionVerbs[lw] {
			return !before(d, n, notNow)
		}
		if !companionBetween[lw] && !unicode0Upper(d.words[n].s) {
			return false
		}
	}
	return false
}

// before reports whether the word just before word i (in its clause) is
// one of set.
func before(d *doc, i int, set map[string]bool) bool {
	return i > 0 && sameClause(d, i-1, i) && set[strings.ToLower(d.words[i-1].s)]
}

// sentWithin reports whether m's owner "sent down" or "sent up" word: a
// message from one floor of the house to another ("Hélène sent down
// word from her rooms"), not a letter from afar.
func sentWithin(d *doc, m mention) bool {
	j := m.lastWord + 1
	if m.possessive || j+1 >= len(d.words) || d.between(m.lastWord, j) != " " || d.between(j, j+1) != " " {
		return false
	}
	if strings.ToLower(d.words[j].s) != "sent" {
		return false
	}
	switch strings.ToLower(d.words[j+1].s) {
	case "down", "up", "in":
		return true
	}
	return false
}

// cjkTakeVerbs take hold of someone: 拉了秦鐘走開, 扶著寶玉, 攜了黛玉進
// 來. Verbs of taking along (帶了, 領了, 同著) are not among them: a
// journey told (帶了林姑娘同送靈到蘇州) takes someone elsewhere; nor are
// 背著 (behind one's back), 跟著 (serving under), 按著 (according to).
var cjkTakeVerbs = []string{"拉",
	// Bringing someone along (寶玉帶著晴雯進來, 領了他們過來).
	"帶", "带", "領", "领", "攜", "携", "扶", "攙", "搀", "挽", "牽", "牵", "抱", "摟", "搂", "揪", "拖", "拽", "推",
	// Surrounding someone (丫頭們簇擁著黛玉進來, 圍著寶玉).
	"簇擁", "簇拥", "圍", "围"}

// cjkTakeAspects follow a verb of taking hold: 拉了, 扶著, 抱住, 扶起.
const cjkTakeAspects = "了著着住起"

// cjkBound reports whether m is the object of the disposal marker 將 or
// 把 and of a verb of seizing or binding after it: "又將孫行者也綑在一
// 處", "把唐僧拿了". Whom one seizes or ties is at hand. Not whose
// belongings are meant (把寶玉的衣服), nor in a memory, nor a body
// (把黛玉的靈柩).
func (d *doc) cjkBound(m mention) bool {
	before := d.text[:m.start]
	r, _ := utf8.DecodeLastRuneInString(before)
	if r != '將' && r != '将' && r != '把' || d.recalledBefore(m.start) {
		return false
	}
	rest := d.text[m.end:]
	for n := 0; n < 2; n++ {
		if r, size := utf8.DecodeRuneInString(rest); strings.ContainsRune(cjkBesideAdverbs, r) {
			rest = rest[size:]
		}
	}
	v, size := utf8.DecodeRuneInString(rest)
	// "把平兒扶了正": raised to a wife's rank, not held up.
	if v == '扶' && strings.HasPrefix(strings.TrimPrefix(rest[size:], "了"), "正") {
		return false
	}
	return strings.ContainsRune(cjkSeizing, v) && !diesNext(rest) && !funeralNear(rest)
}

// cjkSeizing are verbs of seizing and binding someone (綑, 綁, 拿, 擒),
// or of handling them by the body (把晴雯扶起來, 把寶玉推了一把, 把黛玉
// 摟在懷裏); carrying (抬, 背) is left out, as it is done to a body too.
const cjkSeizing = "綑捆綁绑縛缚拿擒捉揪按拴鎖锁吊" + "扶拉推攙搀摟搂拽扯抱"

// cjkTaken reports whether m is someone taken hold of or taken along:
// "寶玉拉了秦鐘走開", "扶著黛玉進來". Whose belongings or hand are taken
// (拉著黛玉的丫頭, 抱著黛玉的靈牌) is no one taken; nor whom one
// remembers taking along.
func (d *doc) cjkTaken(m mention) bool {
	// "帶了寶玉，黛玉，秦鐘往水月庵來": any item of a list taken along.
	first := d.commaListStart(m)
	before := d.text[:first.start]
	a, size := utf8.DecodeLastRuneInString(before)
	if !strings.ContainsRune(cjkTakeAspects, a) {
		return false
	}
	before = before[:len(before)-size]
	took := false
	for _, v := range cjkTakeVerbs {
		if strings.HasSuffix(before, v) {
			took = true
			break
		}
	}
	if !took || d.recalledBefore(first.start) {
		return false
	}
	rest := d.text[m.end:]
	r, _ := utf8.DecodeRuneInString(rest)
	return r != '的' && r != '之' && !diesNext(rest) && !funeralNear(rest) && !journeyAfter(d.text[d.commaListEnd(m):])
}

// commaListStart returns the first name of the list of people joined by
// commas or 、 that m stands in (帶了寶玉，黛玉，秦鐘: 寶玉 for 黛玉), m
// itself when it is first.
func (d *doc) commaListStart(m mention) mention {
	for n := 0; n < 8; n++ {
		before := d.text[:m.start]
		sep := ""
		for _, s := range []string{"，", "、"} {
			if strings.HasSuffix(before, s) {
				sep = s
			}
		}
		if sep == "" {
			return m
		}
		p, ok := d.personEndingAt(m.start - len(sep))
		if !ok || p.end != m.start-len(sep) {
			return m
		}
		m = p
	}
	return m
}

// commaListEnd returns where the list of people joined by commas or 、
// that m stands in ends.
func (d *doc) commaListEnd(m mention) int {
	end := m.end
	for n := 0; n < 8; n++ {
		sep := ""
		for _, s := range []string{"，", "、"} {
			if strings.HasPrefix(d.text[end:], s) {
				sep = s
			}
		}
		if sep == "" {
			return end
		}
		p, ok := d.personStartingAt(end + len(sep))
		if !ok || p.start != end+len(sep) {
			return end
		}
		end = p.end
	}
	return end
}

// cjkJourneyMarks after whom one takes along make it a journey told, not a
// scene: 帶了林姑娘同送靈到蘇州, 領了他往揚州去.
var cjkJourneyMarks = []string{"到", "往", "至", "赴", "回", "去"}

// journeyAfter reports whether the clause that rest opens (up to the next
// comma or stop) tells of going somewhere: a destination or a going away.
// Coming in (進來) and coming over (過來) stay in the scene, and so does
// a going denied before its first mark (晚間也不回那府里去: they stay).
func journeyAfter(rest string) bool {
	if i := strings.IndexAny(rest, "，。．；！？,.;!?\n"); i >= 0 {
		rest = rest[:i]
	}
	first := -1
	for _, w := range cjkJourneyMarks {
		if i := strings.Index(rest, w); i >= 0 && (first < 0 || i < first) {
			first = i
		}
	}
	if first < 0 {
		return false
	}
	// "往水月庵來": coming to a place, which the scene follows.
	if strings.HasSuffix(rest, "來") || strings.HasSuffix(rest, "来") {
		if !strings.Contains(rest, "去") {
			return false
		}
	}
	lead := rest[:first]
	// 不一時到了, 不多時回來: words of time, not denials.
	for _, w := range cjkSoonWords {
		lead = strings.ReplaceAll(lead, w, "")
	}
	return !strings.ContainsAny(lead, cjkDenials)
}

// cjkDenials deny the verb after them: 不回, 沒去, 未到, 別走.
const cjkDenials = "不沒没未別别休莫"

// cjkSoonWords open with a denial but tell time: 不一時, 不多時, 不覺.
var cjkSoonWords = []string{"不一時", "不一时", "不多時", "不多时", "不久", "不覺", "不觉", "不日", "不時", "不时", "不住"}

// diesNext reports whether rest opens with a death or a funeral: "秦鐘死了".
func diesNext(rest string) bool {
	for _, w := range []string{"去世", "死", "亡", "逝", "歿", "殁", "的死", "之死", "臨終", "临终", "咽氣", "咽气"} {
		if strings.HasPrefix(rest, w) {
			return true
		}
	}
	return false
}

// cjkGazeVerbs look at someone in front of one: 看著黛玉, 望了寶玉一眼.
var cjkGazeVerbs = []string{"看著", "看着", "望著", "望着", "瞅著", "瞅着", "盯著", "盯着", "瞧著", "瞧着", "看了", "望了", "瞅了", "瞧了", "瞪了", "瞪著", "瞪着"}

// cjkGazedAt reports whether m is whom someone looks at: "眾人都看著黛
// 玉", "看了黛玉一眼". A look of 了 needs 一眼 after the name (看了秦鐘
// may be a visit); what is the name's (看著黛玉的詩) is not the name.
func (d *doc) cjkGazedAt(m mention) bool {
	before := d.text[:m.start]
	gaze := ""
	for _, v := range cjkGazeVerbs {
		if strings.HasSuffix(before, v) {
			gaze = v
			break
		}
	}
	if gaze == "" || d.recalledBefore(m.start) {
		return false
	}
	// 眼看著秦鐘死了: a death watched, told in the death's chapter.
	rest := d.text[m.end:]
	if diesNext(rest) || funeralNear(rest) {
		return false
	}
	if strings.HasSuffix(gaze, "了") {
		return strings.HasPrefix(rest, "一眼") || strings.HasPrefix(rest, "兩眼") || strings.HasPrefix(rest, "两眼")
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return r != '的' && r != '之'
}

// cjkInviteVerbs ask someone to sit or eat with the company: 讓鴛鴦…去坐,
// 請寶玉坐.
var cjkInviteVerbs = []string{"讓", "让", "請", "请"}

// cjkTellVerbs tell someone to do something: 叫黛玉坐下, 命寶玉坐.
var cjkTellVerbs = []string{"叫", "命", "令"}

// cjkSitting are what someone is asked to do at a table: sit, eat,
// drink.
var cjkSitting = []string{"坐", "入座", "入席", "上座", "吃", "喝", "飲", "饮", "歇"}

// cjkInvited reports whether m, or the list of people that holds m (its
// other items undeclared names of two or three characters, or declared
// people), is asked to sit or eat: "讓鴛鴦，琥珀，彩霞，金釧，平儿去
// 坐", "請寶玉坐". Asking someone to come (請黛玉來) may send for them
// from afar and is not among these.
func (d *doc) cjkInvited(m mention) bool {
	// Back to the verb of asking.
	at, asked, told := m.start, false, false
	for n := 0; n < 12; n++ {
		before := d.text[:at]
		for _, v := range cjkInviteVerbs {
			if strings.HasSuffix(before, v) {
				asked = true
			}
		}
		// "賈母叫黛玉坐下": told to sit, the verb right after (叫黛玉去
		// may send for her).
		for _, v := range cjkTellVerbs {
			if strings.HasSuffix(before, v) {
				asked, told = true, true
			}
		}
		if asked {
			break
		}
		sep := ""
		for _, s := range cjkItemSeps {
			if strings.HasSuffix(before, s) {
				sep = s
			}
		}
		if sep == "" {
			return false
		}
		end := at - len(sep)
		if p, ok := d.personEndingAt(end); ok && p.end == end {
			at = p.start
			continue
		}
		start, ok := d.bareItemBefore(end)
		if !ok {
			return false
		}
		at = start
	}
	if !asked || d.recalledBefore(at) {
		return false
	}
	// On to what they are asked to do.
	at = m.end
	for n := 0; n < 12; n++ {
		rest := d.text[at:]
		if sits(rest) && !(told && strings.HasPrefix(rest, "去")) {
			return true
		}
		sep := ""
		for _, s := range cjkItemSeps {
			if strings.HasPrefix(rest, s) {
				sep = s
			}
		}
		if sep == "" {
			return false
		}
		at += len(sep)
		if p, ok := d.personStartingAt(at); ok && p.start == at {
			at = p.end
			continue
		}
		end, ok := d.bareItemAfter(at)
		if !ok {
			return false
		}
		at = end
	}
	return false
}

// sits reports whether rest opens with a verb of sitting or eating,
// after 去 at most.
func sits(rest string) bool {
	rest = strings.TrimPrefix(rest, "去")
	for _, w := range cjkSitting {
		if strings.HasPrefix(rest, w) {
			return true
		}
	}
	return false
}

// bareItemBefore returns where an undeclared name of two or three
// characters ends at end when a separator of items or a verb of asking
// stands before it.
func (d *doc) bareItemBefore(end int) (int, bool) {
	return d.bareNameBefore(end, func(before string) bool {
		for _, s := range append(append(append([]string{}, cjkItemSeps...), cjkInviteVerbs...), cjkTellVerbs...) {
			if strings.HasSuffix(before, s) {
				return true
			}
		}
		return false
	})
}

// bareNameBefore returns where an undeclared name of two or three
// characters that ends at end starts, when opens says the text before it
// opens an item; a declared name in the span makes it no bare name.
func (d *doc) bareNameBefore(end int, opens func(before string) bool) (int, bool) {
	start := end
	for n := 1; n <= maxBareItem && start > 0; n++ {
		r, size := utf8.DecodeLastRuneInString(d.text[:start])
		if !prose.IsCJK(r) || strings.ContainsRune("的之了著着", r) {
			return 0, false
		}
		start -= size
		if n < 2 {
			continue
		}
		if len(d.mentionsIn(start, end)) > 0 {
			return 0, false
		}
		if opens(d.text[:start]) {
			return start, true
		}
	}
	return 0, false
}

// bareItemAfter returns where an undeclared name of two or three
// characters that starts at at ends: before a separator of items or a
// verb of sitting.
func (d *doc) bareItemAfter(at int) (int, bool) {
	pos := at
	for n := 1; n <= maxBareItem && pos < len(d.text); n++ {
		r, size := utf8.DecodeRuneInString(d.text[pos:])
		if !prose.IsCJK(r) || strings.ContainsRune("的之了著着", r) {
			return 0, false
		}
		pos += size
		if n < 2 {
			continue
		}
		tail := d.text[pos:]
		if (strings.HasPrefix(tail, "，") || strings.HasPrefix(tail, "、") || sits(tail)) && len(d.mentionsIn(at, pos)) == 0 {
			return pos, true
		}
	}
	return 0, false
}

// askedToSit reports whether m, or the list of people that holds m, is
// asked or made to sit down: "begged Lydia to sit down", "made Pétya
// and Natásha sit down beside her".
func askedToSit(d *doc, m mention) bool {
	if m.possessive || m.firstWord < 1 || talkedOf(d, m) {
		return false
	}
	first, last, _ := latinList(d, m)
	if first < 1 || d.between(first-1, first) != " " || !askVerbs[strings.ToLower(d.words[first-1].s)] || before(d, first-1, notNow) {
		return false
	}
	j := last + 1
	if j < len(d.words) && strings.ToLower(d.words[j].s) == "to" && d.between(last, j) == " " {
		j++
	}
	if j+1 >= len(d.words) || !sameClause(d, last, j+1) {
		return false
	}
	switch w, nx := strings.ToLower(d.words[j].s), strings.ToLower(d.words[j+1].s); {
	case w == "sit":
		return true
	case w == "be" && nx == "seated", w == "take" && (nx == "a" || nx == "her" || nx == "his") && j+2 < len(d.words) && seatNouns[strings.ToLower(d.words[j+2].s)]:
		return true
	}
	return false
}

// askVerbs ask or make someone do something there and then.
var askVerbs = wordSet("asked", "begged", "invited", "bade", "bid", "made", "pressed", "motioned", "told", "entreated", "urged", "let")

// passVerbs hand someone a thing across the room: "handed Lydia the
// cup", "poured Pétya some tea". Giving and showing are not among them
// (given by will or by letter).
var passVerbs = wordSet("handed", "passed", "poured", "offered", "tossed", "threw", "hands", "passes", "pours", "offers")

// objectOpeners open the thing handed after the person: "the cup".
var objectOpeners = wordSet("the", "a", "an", "his", "her", "their", "some", "another", "my", "your")

// passedThing reports whether m is whom a thing is handed, the person
// before the thing: "She handed Lydia the cup".
func passedThing(d *doc, m mention) bool {
	i, j := m.firstWord-1, m.lastWord+1
	if m.possessive || i < 0 || j >= len(d.words) || d.between(i, m.firstWord) != " " || d.between(m.lastWord, j) != " " {
		return false
	}
	return passVerbs[strings.ToLower(d.words[i].s)] && objectOpeners[strings.ToLower(d.words[j].s)] && !before(d, i, notNow)
}

// introducedTo reports whether m is introduced or presented to someone:
// "Mrs. Bennet introduced Lydia to them".
func introducedTo(d *doc, m mention) bool {
	i, j := m.firstWord-1, m.lastWord+1
	if m.possessive || i < 0 || j >= len(d.words) || d.between(i, m.firstWord) != " " || d.between(m.lastWord, j) != " " {
		return false
	}
	switch strings.ToLower(d.words[i].s) {
	case "introduced", "presented":
		return strings.ToLower(d.words[j].s) == "to" && !before(d, i, notNow)
	}
	return false
}

// questionWords open what someone is asked to their face: "asked Lydia
// whether she was well".
var questionWords = wordSet("whether", "if", "what", "how", "why", "where", "who", "when")

// askedToFace reports whether m is asked a question: "Mr. Bennet asked
// Lydia whether she was well".
func askedToFace(d *doc, m mention) bool {
	i, j := m.firstWord-1, m.lastWord+1
	if m.possessive || i < 0 || j >= len(d.words) || d.between(i, m.firstWord) != " " || d.between(m.lastWord, j) != " " {
		return false
	}
	switch strings.ToLower(d.words[i].s) {
	case "asked", "questioned":
		return questionWords[strings.ToLower(d.words[j].s)] && !before(d, i, notNow)
	}
	return false
}

// leadVerbs lead, pull or help someone somewhere: "Natásha led Pétya to
// the window", "pulled Pétya into the room".
var leadVerbs = wordSet("led", "pulled", "dragged", "drew", "pushed", "carried", "helped", "guided", "ushered", "hurried", "leads", "pulls", "drags", "draws")

// leadDirections after the one led say where: "into the room", "aside".
var leadDirections = wordSet("into", "out", "toward", "towards", "across", "along", "away", "aside", "up", "down", "back", "in", "through", "over", "round", "onto")

// ledSomewhere reports whether m is led, pulled or helped somewhere:
// "led Pétya to the window", "drew Lydia aside". "To" counts before a
// place only ("led Pétya to believe" is no leading).
func ledSomewhere(d *doc, m mention) bool {
	i, j := m.firstWord-1, m.lastWord+1
	if m.possessive || i < 0 || j >= len(d.words) || d.between(i, m.firstWord) != " " || d.between(m.lastWord, j) != " " {
		return false
	}
	if !leadVerbs[strings.ToLower(d.words[i].s)] || before(d, i, notNow) {
		return false
	}
	w := strings.ToLower(d.words[j].s)
	if w == "to" {
		return j+1 < len(d.words) && d.between(j, j+1) == " " && objectOpeners[strings.ToLower(d.words[j+1].s)]
	}
	return leadDirections[w]
}

// cjkGoingWith are words of going along with someone: 同著黛玉出來, 陪著
// 黛玉進去.
var cjkGoingWith = []string{"同著", "同着", "陪著", "陪着"}

// cjkFollowing are words of following someone (跟著晴雯進來, 隨著寶玉走
// 來): who "came with" someone once (跟著黛玉來的, 跟著賈璉往揚州去)
// tells a past journey, so a journey after the name is not read.
var cjkFollowing = []string{"跟著", "跟着", "隨著", "随着"}

// cjkGoesWith reports whether m is whom someone goes along with or
// follows, a verb of the moment after the name: "寶玉同著黛玉出來",
// "寶玉跟著晴雯進來".
func (d *doc) cjkGoesWith(m mention) bool {
	with, following := false, false
	for _, w := range cjkGoingWith {
		if strings.HasSuffix(d.text[:m.start], w) {
			with = true
		}
	}
	for _, w := range cjkFollowing {
		if strings.HasSuffix(d.text[:m.start], w) {
			following = true
		}
	}
	if !with && !following || d.recalledBefore(m.start) {
		return false
	}
	rest := d.text[m.end:]
	if following && journeyAfter(rest) {
		return false
	}
	how, _ := verbAfter(rest)
	return how != ""
}

// cjkClauseOpeners may stand before the first item of a list that is
// its clause's subject: 當下寶玉、黛玉…都在, 只見黛玉、寶釵走來.
var cjkClauseOpeners = []string{"當下", "当下", "此時", "此时", "這時", "这时", "那時", "那时", "只見", "只见", "忽見", "忽见", "但見", "但见"}

// opensCJKList reports whether before (the text up to a list's first
// item) ends where a clause opens, or after an opener of narration.
func opensCJKList(before string) bool {
	if opensClause(before) {
		return true
	}
	for _, w := range cjkClauseOpeners {
		if strings.HasSuffix(before, w) {
			return true
		}
	}
	return false
}

// cjkListSubject reports whether m is an item of a list that opens its
// clause and acts: its items declared people or undeclared names of two
// or three characters, joined by 、 or ，; the last item runs into its
// verb (探春、惜春、黛玉、湘雲進來) or a group word closes the list
// (…等都在賈母房中). A list joined by ， (which also joins clauses)
// needs three items, two of them declared; one joined by 、 two items.
// A list after a verb (想起探春、黛玉) opens no clause.
func (d *doc) cjkListSubject(m mention) bool {
	if d.recalledBefore(m.start) {
		return false
	}
	items, named, comma := 1, 1, false
	at, stop := m.start, ""
	for n := 0; n < 12; n++ {
		sep := ""
		for _, s := range cjkItemSeps {
			if strings.HasSuffix(d.text[:at], s) {
				sep = s
			}
		}
		if sep == "" {
			break
		}
		end := at - len(sep)
		if p, ok := d.personEndingAt(end); ok && p.end == end {
			at, items, named = p.start, items+1, named+1
		} else if start, ok := d.bareListItemBefore(end); ok {
			at, items = start, items+1
		} else {
			stop = sep
			break
		}
		comma = comma || sep == "，"
	}
	// Where the walk stopped at a separator whose item it could not
	// read, the list may go on before it (讓鴛鴦，琥珀，…): only a comma
	// before a list joined by 、 surely ends a clause (說著，探春、黛玉).
	if stop == "、" || stop != "" && comma || !opensCJKList(d.text[:at]) {
		return false
	}
	at = m.end
	for n := 0; n < 12; n++ {
		rest := d.text[at:]
		if _, after, ok := listCloser(rest); ok {
			if items < 2 || comma && (items < 3 || named < 2) {
				return false
			}
			tail := strings.TrimPrefix(strings.TrimPrefix(after, "都"), "也")
			return actsNext(after) || strings.HasPrefix(tail, "在")
		}
		sep := ""
		for _, s := range cjkItemSeps {
			if strings.HasPrefix(rest, s) {
				sep = s
			}
		}
		if sep == "" {
			// The last item ran into the verb: m itself.
			if items < 2 || comma && (items < 3 || named < 2) {
				return false
			}
			return actsNext(rest)
		}
		comma = comma || sep == "，"
		at += len(sep)
		if p, ok := d.personStartingAt(at); ok && p.start == at {
			at, items, named = p.end, items+1, named+1
			continue
		}
		// A bare item: two or three characters, then a separator, a
		// group word or the verb.
		next := -1
		pos := at
		for k := 1; k <= maxBareItem && pos < len(d.text); k++ {
			r, size := utf8.DecodeRuneInString(d.text[pos:])
			if !prose.IsCJK(r) || strings.ContainsRune("的之了著着", r) {
				break
			}
			pos += size
			if k < 2 {
				continue
			}
			tail := d.text[pos:]
			if _, _, ok := listCloser(tail); ok || strings.HasPrefix(tail, "，") || strings.HasPrefix(tail, "、") || actsNext(tail) {
				next = pos
				break
			}
		}
		if next < 0 || len(d.mentionsIn(at, next)) > 0 {
			return false
		}
		at, items = next, items+1
		if rest := d.text[at:]; !strings.HasPrefix(rest, "，") && !strings.HasPrefix(rest, "、") {
			if _, _, ok := listCloser(rest); !ok {
				if items < 2 || comma && (items < 3 || named < 2) {
					return false
				}
				return actsNext(rest)
			}
		}
	}
	return false
}

// bareListItemBefore returns where an undeclared name of two or three
// characters that ends at end starts, when a separator of items, a
// clause's opening or an opener of narration stands before it.
func (d *doc) bareListItemBefore(end int) (int, bool) {
	return d.bareNameBefore(end, func(before string) bool {
		return strings.HasSuffix(before, "、") || strings.HasSuffix(before, "，") || opensCJKList(before)
	})
}

// maxAppositive is the longest phrase, in bytes, set between commas after
// a name that cjkAppositive reads over (fourteen characters).
const maxAppositive = 14 * 3

// cjkAppositive reports whether m opens its clause and, after a phrase
// between commas that names nobody (那個最愛哭的, 聽了這話), an adverb of
// sequence and a verb follow: the name is their subject ("黛玉，那個最愛
// 哭的，也笑了").
func (d *doc) cjkAppositive(m mention) bool {
	if !opensClause(d.text[:m.start]) || d.recalledBefore(m.start) {
		return false
	}
	rest, ok := strings.CutPrefix(d.text[m.end:], "，")
	if !ok {
		return false
	}
	i := strings.Index(rest[:min(len(rest), maxAppositive+len("，"))], "，")
	if i <= 0 {
		return false
	}
	phrase := rest[:i]
	for _, r := range phrase {
		if !prose.IsCJK(r) {
			return false
		}
	}
	from := m.end + len("，")
	if len(d.mentionsIn(from, from+i)) > 0 {
		return false
	}
	after := rest[i+len("，"):]
	r, size := utf8.DecodeRuneInString(after)
	if !strings.ContainsRune(cjkSequence, r) {
		return false
	}
	nx, _ := utf8.DecodeRuneInString(after[size:])
	return !strings.ContainsRune(cjkNotAVerb, nx) && actsNext(after)
}

// amongThem reports whether m is one of a group that acts, set between
// commas: "The whole party, Lydia among them, walked to Meryton",
// "Lydia among them, they walked on".
func amongThem(d *doc, m mention) bool {
	j := m.lastWord + 1
	if m.possessive || j+2 >= len(d.words) || d.between(m.lastWord, j) != " " || strings.ToLower(d.words[j].s) != "among" || d.between(j, j+1) != " " {
		return false
	}
	switch strings.ToLower(d.words[j+1].s) {
	case "them", "us":
	default:
		return false
	}
	if strings.TrimSpace(d.between(j+1, j+2)) != "," {
		return false
	}
	k := j + 2
	switch strings.ToLower(d.words[k].s) {
	case "they", "we":
		if k+1 >= len(d.words) || d.between(k, k+1) != " " {
			return false
		}
		k++
	}
	v := strings.ToLower(d.words[k].s)
	return (pastVerbs[v] || strings.HasSuffix(v, "ed") && len(v) > 4) && !notActing[v]
}

// cjkTending are what one does to another's body or dress: 替黛玉披上斗
// 篷, 給寶玉梳頭, 替他捶腿. Doing something for someone (替黛玉報仇,
// 給黛玉寫信) is not among them.
var cjkTending = []string{"披", "穿", "戴", "梳", "捶", "蓋", "盖", "擦", "拭", "脫", "脱", "掖", "揉", "搥"}

// cjkTended reports whether m is whom someone tends by hand: "寶玉替黛玉
// 披上斗篷".
func (d *doc) cjkTended(m mention) bool {
	p, _ := utf8.DecodeLastRuneInString(d.text[:m.start])
	if !strings.ContainsRune("替給给為为", p) || d.recalledBefore(m.start) {
		return false
	}
	rest := d.text[m.end:]
	for _, w := range cjkTending {
		if strings.HasPrefix(rest, w) {
			return true
		}
	}
	return false
}
