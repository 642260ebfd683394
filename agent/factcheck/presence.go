package factcheck

import (
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// More ways a text puts someone into its scene, beside those of state.go:
// lists joined by commas, someone seen where they are, someone placed,
// sent for or left at a table. Each needs the construction itself; a
// name that is only talked about (remembered, asked after, written of)
// fits none of them.

// cjkActingWords are verbs of two characters that, after a name (and
// adverbs), make it the actor on the spot: winning a fight, rejoicing,
// sharing a table with someone (不與黛玉湘云等同席).
var cjkActingWords = []string{"得勝", "得胜", "歡喜", "欢喜", "大喜", "同席", "同桌",
	// A bearing shown on the spot (黛玉冷笑了一聲, 低頭不語, 紅了臉),
	// a change of shape (變做一個老兒).
	"冷笑", "含笑", "低頭", "低头", "紅了臉", "红了脸", "變做", "变做", "變作", "变作", "對坐", "对坐",
	// A silence kept in the scene (黛玉只是不理, 半日不言語), puzzlement
	// shown (正自納悶).
	"不語", "不语", "不言", "不理", "不睬", "不答", "不作聲", "不作声", "不做聲", "不做声", "不則聲", "不则声", "不吭聲", "不吭声", "默然", "納悶", "纳闷",
	// Keeping company on the spot: the seat of honour taken (甄太太同賈
	// 母上坐), a crowd round someone (嬪妃和唐太宗簇擁著公主), leading
	// the way; a group at a loss together (鳳姐和平兒三人猜疑).
	"上坐", "簇擁", "簇拥", "圍隨", "围随", "引路", "陪坐", "盤坐", "盘坐", "猜疑", "疑惑", "議論", "议论", "計議", "计议"}

// actingWord reports whether rest opens with one of cjkActingWords.
func actingWord(rest string) bool {
	for _, w := range cjkActingWords {
		if strings.HasPrefix(rest, w) {
			return true
		}
	}
	return false
}

// cjkDegree are adverbs of two characters that may stand between a name
// and its verb (唐王十分歡喜).
// 一面 opens the first of two things done at once (賈政一面說，一面走).
var cjkDegree = []string{"十分", "甚是", "好生", "滿心", "满心", "一面",
	// Time, manner and degree: 黛玉半日不言語, 不覺紅了臉, 方才醒來,
	// 微微一笑, 只是不理, 正自納悶.
	"只是", "半日", "半晌", "一聲兒", "一声儿", "不覺", "不觉", "越發", "越发", "方才", "正自", "微微", "早已", "登時", "登时",
	// Not holding back (忍不住笑了).
	"忍不住", "禁不住", "不禁", "不由得", "不由"}

// skipDegree drops up to two adverbs of degree that rest opens with.
func skipDegree(rest string) string {
	for n := 0; n < 2; n++ {
		cut := false
		for _, w := range cjkDegree {
			if r, ok := strings.CutPrefix(rest, w); ok {
				rest, cut = r, true
				break
			}
		}
		if !cut {
			break
		}
	}
	return rest
}

// cjkKinChars double into words of kinship (哥哥, 妹妹, 奶奶), not of
// manner.
const cjkKinChars = "哥姐妹弟爺爷奶媽妈爸叔伯姑舅嫂太婆公"

// skipManner drops a phrase of manner made by doubling, and its 的 or
// 地, that rest opens with: 笑吟吟的, 悄悄的, 氣忿忿的. It returns rest
// unchanged when there is none.
func skipManner(rest string) string {
	at, prev := 0, rune(0)
	doubled := false
	for n := 0; n < 5 && at < len(rest); n++ {
		r, size := utf8.DecodeRuneInString(rest[at:])
		if (r == '的' || r == '地') && n >= 2 {
			if doubled {
				return rest[at+size:]
			}
			return rest
		}
		if !prose.IsCJK(r) || strings.ContainsRune(cjkKinChars, r) {
			return rest
		}
		if r == prev {
			doubled = true
		}
		prev = r
		at += size
	}
	return rest
}

// cjkItemSeps join the items of a list of people: 李氏，鳳姐兒，秦氏.
var cjkItemSeps = []string{"，", "、"}

// cjkListClosers close a list of people that acts as one subject or
// shares something out among them (每人一乘四人轎).
var cjkListClosers = []string{"每人", "各人", "各自", "二人", "三人", "四人", "五人", "幾個", "几個", "几个", "幾人", "几人", "等人", "等", "都", "俱", "一齊", "一齐"}

// cjkShares are closers after which what follows is shared out among
// the list in the scene, no verb needed (每人一乘四人轎).
var cjkShares = map[string]bool{"每人": true, "各人": true, "各自": true}

// maxBareItem is the longest item, in characters, of a list of people
// that is not a declared name (李氏, 薛姨媽).
const maxBareItem = 3

// cjkCommaList reports whether m is an item of a list of people joined by
// commas (or 、) that a group word closes, the list being the subject of
// a verb or sharing something out: "李氏，鳳姐兒，秦氏，薛姨媽每人一乘四人
// 轎", "寶釵，黛玉二人共坐一輛". The list has three items or more, two
// of them declared people; the others are short (undeclared names). A
// list that follows a verb of its clause (想起李氏，鳳姐兒…) is an
// object: its first item would hold more than a name.
func (d *doc) cjkCommaList(m mention) bool {
	items, named := 1, 1
	// Backwards from m, first over names joined to it by 和 (寶琴和黛玉).
	at := m.start
	for {
		q, ok := d.personEndingAt(at)
		if !ok || q.end == at {
			break
		}
		items, named, at = items+1, named+1, q.start
	}
	// "，寶琴和林黛玉": or a short undeclared name, an item of its own.
	if start, ok := joinedBareItem(d.text[:at]); ok && len(d.mentionsIn(start, at)) == 0 {
		items, at = items+1, start
	}
	for {
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
			// "鳳姐和平兒，尤二姐三人": names joined by 和 make items of
			// the list too.
			for {
				q, ok := d.personEndingAt(p.start)
				if !ok || q.end == p.start {
					break
				}
				items, named, p = items+1, named+1, q
			}
			if before := d.text[:p.start]; !opensItem(before) && !opensClause(before) && !listOpener(before) {
				// 想起李氏，…: a name that ends a longer item.
				return false
			}
			items, named, at = items+1, named+1, p.start
			continue
		}
		n, start := 0, end
		for n <= maxBareItem && start > 0 {
			r, size := utf8.DecodeLastRuneInString(d.text[:start])
			if !prose.IsCJK(r) {
				break
			}
			start -= size
			n++
			// "只有邢岫烟，寶釵": the first item after the narrator's 有.
			if n >= 2 && n <= maxBareItem && thereAre(d.text[:start]) {
				break
			}
		}
		if n < 1 || n > maxBareItem || !opensItem(d.text[:start]) && !thereAre(d.text[:start]) || len(d.mentionsIn(start, end)) > 0 {
			break
		}
		items, at = items+1, start
	}
	if !opensItem(d.text[:at]) && !opensClause(d.text[:at]) && !listOpener(d.text[:at]) {
		return false
	}
	there := thereAre(d.text[:at])
	// Forwards from m to the closer, first over names joined to it by
	// 和 (賈政和李紈，鳳姐…).
	at = m.end
	for {
		q, ok := d.personStartingAt(at)
		if !ok || q.start == at {
			break
		}
		items, named, at = items+1, named+1, q.end
	}
	for {
		if c, rest, ok := listCloser(d.text[at:]); ok {
			if items < 3 || named < 2 {
				return false
			}
			if cjkShares[c] {
				r, _ := utf8.DecodeRuneInString(rest)
				return prose.IsCJK(r) && r != '的' && r != '之'
			}
			// "家里只有薛姨媽，寶釵，寶琴和黛玉幾個": the people there are.
			if there {
				return true
			}
			rest = trimGroupAdverbs(rest)
			return actsNext(rest)
		}
		sep := ""
		for _, s := range cjkItemSeps {
			if strings.HasPrefix(d.text[at:], s) {
				sep = s
			}
		}
		if sep == "" {
			return false
		}
		at += len(sep)
		if p, ok := d.personStartingAt(at); ok && p.start == at {
			items, named, at = items+1, named+1, p.end
			// "寶琴和林黛玉幾個": names joined by 和 end the list.
			for {
				q, ok := d.personStartingAt(at)
				if !ok || q.start == at {
					break
				}
				items, named, at = items+1, named+1, q.end
			}
			continue
		}
		// A bare item of two or three characters, then a separator or
		// the closer.
		next := -1
		pos := at
		for n := 1; n <= maxBareItem && pos < len(d.text); n++ {
			r, size := utf8.DecodeRuneInString(d.text[pos:])
			if !prose.IsCJK(r) {
				break
			}
			pos += size
			tail := d.text[pos:]
			// One character names an item only between separators, as
			// the book shortens names that share a character (迎，探，
			// 惜 for 迎春, 探春, 惜春).
			if n < 2 && !strings.HasPrefix(tail, "，") && !strings.HasPrefix(tail, "、") {
				continue
			}
			if _, _, ok := listCloser(tail); ok || strings.HasPrefix(tail, "，") || strings.HasPrefix(tail, "、") {
				next = pos
				break
			}
		}
		if next < 0 || len(d.mentionsIn(at, next)) > 0 {
			return false
		}
		items, at = items+1, next
	}
}

// groupAdverbs may follow a list's closer before its verb: 等俱各點了,
// 等一齊都笑.
var groupAdverbs = []string{"共", "同", "俱", "都", "皆", "各", "一齊", "一齐", "一同"}

// trimGroupAdverbs cuts the groupAdverbs rest opens with.
func trimGroupAdverbs(rest string) string {
	for n := 0; n < 3; n++ {
		cut := false
		for _, a := range groupAdverbs {
			if r, ok := strings.CutPrefix(rest, a); ok {
				rest, cut = r, true
				break
			}
		}
		if !cut {
			break
		}
	}
	return rest
}

// opensItem reports whether before ends where a list's item may open: at
// punctuation (or the start).
func opensItem(before string) bool {
	if before == "" {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(before)
	return !prose.IsCJK(r)
}

// listCloser returns the closer rest opens with and what follows it.
func listCloser(rest string) (string, string, bool) {
	for _, c := range cjkListClosers {
		if r, ok := strings.CutPrefix(rest, c); ok {
			return c, r, true
		}
	}
	return "", "", false
}

// seenBy reports whether m stands right after 見 that is a seeing: not
// in a dream, a thought, a negation (夢見, 想見, 不見), nor after any
// character of also (聽見: heard).
func (d *doc) seenBy(m mention, also string) bool {
	before := d.text[:m.start]
	var cut string
	for _, w := range []string{"見", "见"} {
		if b, ok := strings.CutSuffix(before, w); ok {
			cut = b
		}
	}
	if cut == "" {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(cut)
	return !strings.ContainsRune("夢梦想不未沒没少罕難难"+also, r)
}

// dreamBefore reports whether a dream (夢, 梦) is told within the four
// characters before: 夢中遇見, 夢裏見了.
func dreamBefore(before string) bool {
	for n := 0; n < 4 && before != ""; n++ {
		r, size := utf8.DecodeLastRuneInString(before)
		if r == '夢' || r == '梦' {
			return true
		}
		before = before[:len(before)-size]
	}
	return false
}

// cjkMeetings are the verbs of meeting someone on the spot: seeing them
// (見了), or running into them (遇見, 撞見, 碰見), with or without 了;
// the longer forms first.
var cjkMeetings = []string{"遇見了", "遇见了", "撞見了", "撞见了", "碰見了", "碰见了", "遇著了", "遇着了", "撞著了", "撞着了", "碰著了", "碰着了",
	"遇見", "遇见", "撞見", "撞见", "碰見", "碰见", "遇著", "遇着", "撞著", "撞着", "碰著", "碰着", "見了", "见了"}

// cjkMet reports whether m is whom someone meets on the spot: "眾人見了
// 黛玉，都站起來", or runs into (在院門口遇見尤二姐，二人站著說話, 撞見了
// 寶玉). Not in a dream, a thought, or not at all (夢見了, 想見了, 不見
// 了, 夢中遇見), nor what is the name's (見了黛玉的詩) or its coffin.
func (d *doc) cjkMet(m mention) bool {
	before := d.text[:m.start]
	var cut string
	for _, w := range cjkMeetings {
		if b, ok := strings.CutSuffix(before, w); ok {
			cut = b
			break
		}
	}
	if cut == "" || d.recalledBefore(m.start) {
		return false
	}
	// 曾: once, in the past (不曾遇見, 曾見了).
	if r, _ := utf8.DecodeLastRuneInString(cut); strings.ContainsRune("夢梦想不未沒没少罕難难聽听看望曾", r) || dreamBefore(cut) {
		return false
	}
	rest := d.text[m.end:]
	if funeralNear(rest) || diesNext(rest) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return r == '，' || r == '、' || r == '。' || r == '；' || strings.ContainsRune(cjkSequence, r)
}

// cjkSeenAt reports whether m is someone seen where they are: "見紅孩兒
// 也在洞裏". Seeing in a dream, in thought or not at all (夢見, 想見,
// 不見) does not place them.
func (d *doc) cjkSeenAt(m mention) bool {
	if !d.seenBy(m, "") {
		return false
	}
	rest := d.text[m.end:]
	for n := 0; n < 2; n++ {
		if r, size := utf8.DecodeRuneInString(rest); strings.ContainsRune(cjkBesideAdverbs, r) {
			rest = rest[size:]
		}
	}
	r, ok := strings.CutPrefix(rest, "在")
	return ok && placePhraseEnd(r) > 0
}

// cjkJoiners join one more name to a list closed by 等: 迎春姊妹等并寶玉.
var cjkJoiners = []string{"并", "並", "和", "與", "与", "及", "同"}

// afterGroupTail skips, from offset at just after a list's 等, one more
// joined name and tells whether the list then acts, a verb of boarding
// (上了那只) included.
func (d *doc) afterGroupTail(at int) bool {
	for _, j := range cjkJoiners {
		if strings.HasPrefix(d.text[at:], j) {
			if p, ok := d.personStartingAt(at + len(j)); ok {
				at = p.end
			}
			break
		}
	}
	rest := d.text[at:]
	return actsNext(rest) || strings.HasPrefix(rest, "上了")
}

// placingVerbs put someone somewhere in the scene: "put Mr. Collins on
// her other side".
var placingVerbs = wordSet("put", "placed", "seated", "set", "puts", "places", "seats", "sets", "called", "drew", "beckoned", "summoned")

// positionPreps after a placed name say where they sit or stand.
var positionPreps = wordSet("on", "by", "beside", "next", "between", "near", "opposite", "at", "to")

// seatNouns close a placing phrase: where at a table or in a room.
var seatNouns = wordSet("side", "right", "left", "chair", "seat", "sofa", "elbow", "table", "hand")

// placedBeside reports whether m is the object of a verb of placing with
// a seat after it: "put Mr. Collins on her other side". Putting a name
// out of one's head has no seat.
func placedBeside(d *doc, m mention) bool {
	i := m.firstWord - 1
	if i < 0 || m.possessive || !placingVerbs[strings.ToLower(d.words[i].s)] || d.between(i, m.firstWord) != " " {
		return false
	}
	j := m.lastWord + 1
	if j >= len(d.words) || !sameClause(d, m.lastWord, j) || !positionPreps[strings.ToLower(d.words[j].s)] {
		return false
	}
	for n := j + 1; n < len(d.words) && n <= j+4 && sameClause(d, n-1, n); n++ {
		if seatNouns[strings.ToLower(d.words[n].s)] {
			return true
		}
	}
	return false
}

// sentFor reports whether m is whom someone sends for: "would send for
// Karatáev as well".
func sentFor(d *doc, m mention) bool {
	prev := prevWords(d, m.firstWord, 2)
	if m.possessive || len(prev) < 2 || strings.ToLower(prev[0]) != "for" {
		return false
	}
	switch strings.ToLower(prev[1]) {
	case "send", "sent", "sends", "sending":
		return true
	}
	return false
}

// leftTo reports whether m is one of those left to do something where
// they are: "leaving God’s folk and the little princess to finish their
// tea". "Leaving" or "left" stands before, in the same clause (a quoted
// name may stand between), and "to" and a verb after.
func leftTo(d *doc, m mention) bool {
	j := m.lastWord + 1
	if m.possessive || j+1 >= len(d.words) || strings.ToLower(d.words[j].s) != "to" || d.between(m.lastWord, j) != " " || d.between(j, j+1) != " " {
		return false
	}
	switch v := strings.ToLower(d.words[j+1].s); v {
	case "the", "a", "an", "his", "her", "their", "its", "my", "your", "our", "him", "them", "me", "us", "himself", "herself", "themselves", "be", "whom":
		return false
	default:
		if len(v) < 3 || unicode0Upper(d.words[j+1].s) {
			return false
		}
	}
	sent := d.sents[d.sentenceAt(m.start)]
	for n := m.firstWord - 1; n >= 0 && n >= m.firstWord-8 && d.words[n].start >= sent.start; n-- {
		if strings.ContainsAny(d.between(n, n+1), ".!?;:,\n") {
			return false
		}
		switch strings.ToLower(d.words[n].s) {
		case "leaving", "left":
			return true
		}
	}
	return false
}

func unicode0Upper(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return r >= 'A' && r <= 'Z'
}

// firstOut reports whether m is "the first out" or "the first to meet"
// someone: "Lydia was the first out upon the steps to meet them".
func firstOut(d *doc, m mention) bool {
	j := m.lastWord + 1
	if j+3 >= len(d.words) || !sameClause(d, m.lastWord, j+3) {
		return false
	}
	if strings.ToLower(d.words[j].s) != "was" || strings.ToLower(d.words[j+1].s) != "the" || strings.ToLower(d.words[j+2].s) != "first" {
		return false
	}
	switch w := strings.ToLower(d.words[j+3].s); w {
	case "out", "down", "up", "in", "at":
		return true
	case "to":
		if j+4 < len(d.words) {
			return greetingVerbs[strings.ToLower(d.words[j+4].s)]
		}
	}
	return false
}

// greetingVerbs after "the first to" are done on the spot.
var greetingVerbs = wordSet("meet", "greet", "welcome", "receive", "enter", "rise", "run", "speak", "notice", "embrace", "kiss", "come")

// wouldNotLeave reports whether m "would not leave" a room or someone's
// side: where they stay.
func wouldNotLeave(d *doc, m mention) bool {
	j := m.lastWord + 1
	if j+4 >= len(d.words) || !sameClause(d, m.lastWord, j+4) {
		return false
	}
	if strings.ToLower(d.words[j].s) != "would" || strings.ToLower(d.words[j+1].s) != "not" || strings.ToLower(d.words[j+2].s) != "leave" {
		return false
	}
	for n := j + 3; n < len(d.words) && n <= j+6 && sameClause(d, n-1, n); n++ {
		switch strings.ToLower(d.words[n].s) {
		case "room", "side", "bedside", "bed", "chair":
			return true
		}
	}
	return false
}

// cjkSeenActing reports whether m is someone seen doing something: "眾人
// 見黛玉來了". Not in a dream, a thought, or not seen at all, as for
// cjkSeenAt.
func (d *doc) cjkSeenActing(m mention) bool {
	if !d.seenBy(m, "聽听") {
		return false
	}
	how, _ := verbAfter(d.text[m.end:])
	return how != ""
}

// cjkAddressed reports whether m is whom someone speaks to in the scene:
// "寶玉向黛玉笑道", "對黛玉說".
func (d *doc) cjkAddressed(m mention) bool {
	p, _ := utf8.DecodeLastRuneInString(d.text[:m.start])
	if d.recalledBefore(m.start) {
		return false
	}
	// "忙問黛玉：「怎樣？」": asked to their face.
	if strings.ContainsRune("問问", p) {
		rest := d.text[m.end:]
		return strings.HasPrefix(rest, "：「") || strings.HasPrefix(rest, "：“") || strings.HasPrefix(rest, "道：")
	}
	if !strings.ContainsRune("向對对朝", p) {
		return false
	}
	// "寶玉向黛玉點了點頭", "朝鳳姐使個眼色": a gesture made to someone,
	// as English "with a nod to Mr. Bingley".
	rest := d.text[m.end:]
	for _, g := range cjkGestures {
		if strings.HasPrefix(rest, g) {
			return true
		}
	}
	if p == '朝' {
		return false // 朝 is also a dynasty, a court, a morning
	}
	how, _ := verbAfter(rest)
	return how == "speaks"
}

// cjkGestures made to someone face to face: a nod, a wave, a wink.
var cjkGestures = []string{"點頭", "点头", "點了點頭", "点了点头", "點點頭", "点点头", "擺手", "摆手", "擺擺手", "摆摆手", "擺了擺手", "摆了摆手",
	"招手", "招招手", "招了招手", "使眼色", "使個眼色", "使个眼色", "使了個眼色", "使了个眼色", "努嘴", "努努嘴", "努了努嘴", "擠眼", "挤眼"}

// cjkRecalled are words of memory, dream and talk: a clause that holds
// one before a name tells of the past or of another's words.
var cjkRecalled = []string{"想起", "想著", "想着", "記得", "记得", "憶", "忆", "夢", "梦", "說起", "说起", "提起", "當日", "当日", "那日", "昔日", "那年", "當年", "当年", "從前", "从前"}

// recalledBefore reports whether the clause before offset at (from the
// last stop or comma) holds a word of memory or talk.
func (d *doc) recalledBefore(at int) bool {
	lo := max(0, at-60)
	for !utf8.RuneStart(d.text[lo]) {
		lo++
	}
	clause := d.text[lo:at]
	if i := strings.LastIndexAny(clause, "。，；：！？」“”「\n"); i >= 0 {
		clause = clause[i:]
	}
	for _, w := range cjkRecalled {
		if strings.Contains(clause, w) {
			return true
		}
	}
	return false
}

// cjkHandHeld reports whether m's hand is held: "寶玉拉著黛玉的手".
func (d *doc) cjkHandHeld(m mention) bool {
	if !strings.HasPrefix(d.text[m.end:], "的手") {
		return false
	}
	before := d.text[:m.start]
	if d.recalledBefore(m.start) {
		return false
	}
	for _, w := range []string{"拉著", "拉着", "拉了", "攜著", "携着", "攜了", "携了", "握著", "握着", "執著", "执着", "挽著", "挽着"} {
		if strings.HasSuffix(before, w) {
			return true
		}
	}
	return false
}

// progressive reports whether rest opens with 正在 and an act, not a
// place (黛玉正在垂淚, not 正在那裏).
func progressive(rest string) bool {
	r, ok := strings.CutPrefix(rest, "正在")
	if !ok {
		return false
	}
	c, _ := utf8.DecodeRuneInString(r)
	return prose.IsCJK(c) && !strings.ContainsRune("那這这此其他她我你家外裏里中病", c) && placePhraseEnd(r) == 0
}

// handVerbs take someone by the arm or hand: "took Lydia by the arm".
var handVerbs = wordSet("took", "seized", "caught", "grasped", "led", "pulled", "take", "takes", "taking", "seizing")

// bodyParts after "by the" of a person taken hold of.
var bodyParts = wordSet("arm", "hand", "hands", "shoulder", "shoulders", "elbow", "sleeve", "waist", "collar")

// takenBy reports whether m is taken hold of: "took Lydia by the arm".
func takenBy(d *doc, m mention) bool {
	i, j := m.firstWord-1, m.lastWord+1
	if i < 0 || m.possessive || j+2 >= len(d.words) || !handVerbs[strings.ToLower(d.words[i].s)] || d.between(i, m.firstWord) != " " || !sameClause(d, m.lastWord, j+2) {
		return false
	}
	return strings.ToLower(d.words[j].s) == "by" && strings.ToLower(d.words[j+1].s) == "the" && bodyParts[strings.ToLower(d.words[j+2].s)]
}

// handedTo reports whether m is whom something is handed or shaken hands
// with: "handed the letter to Lydia", "shook hands with Lydia".
func handedTo(d *doc, m mention) bool {
	prev := prevWords(d, m.firstWord, 5)
	if m.possessive || len(prev) < 2 {
		return false
	}
	switch strings.ToLower(prev[0]) {
	case "with":
		return strings.ToLower(prev[1]) == "hands" && len(prev) > 2 && shakeVerbs[strings.ToLower(prev[2])]
	case "to":
		// "the serf Denísov had handed over to Rostóv": a transfer of
		// a servant, not a thing handed across a room.
		for _, w := range prev[1:] {
			switch strings.ToLower(w) {
			case "over", "back", "had", "has", "been":
				return false
			case "handed", "hands", "handing":
				return true
			}
		}
	case "beside":
		return companionVerbs[strings.ToLower(prev[1])] || prev[1] == "down" && len(prev) > 2 && companionVerbs[strings.ToLower(prev[2])]
	}
	return false
}

var shakeVerbs = wordSet("shook", "shaking", "shake", "shakes")

// speechTag reports whether rest, after a name, is a tag of speech: up to
// four characters of manner, then 道 and the quotation (冷笑道：「, 含淚
// 道：「, 歎道：“). 知道 and 難道 are no speech; 的, 之 or 是 before 道
// make the name a possessor or a topic; a place in the tag (靈前哭道)
// is where the speaker turns, not the name's owner.
func speechTag(rest string) bool {
	at := 0
	for n := 0; n <= 4 && at < len(rest); n++ {
		r, size := utf8.DecodeRuneInString(rest[at:])
		if r == '道' {
			if n == 0 {
				return false
			}
			after := rest[at+size:]
			if !strings.HasPrefix(after, "：") && !strings.HasPrefix(after, ":") && !strings.HasPrefix(after, "「") && !strings.HasPrefix(after, "“") {
				return false
			}
			prev, _ := utf8.DecodeLastRuneInString(rest[:at])
			return !strings.ContainsRune("知難难味公一", prev)
		}
		if !prose.IsCJK(r) || strings.ContainsRune("的之是說说靈灵墳坟棺柩墓像", r) {
			return false
		}
		// "靈前哭道" speaks to a place of the dead; "上前道" steps up.
		if strings.ContainsRune(cjkLocatives, r) && !(n == 1 && stepsForward(rest)) {
			return false
		}
		at += size
	}
	return false
}

// roomNouns after "found X in the" are rooms of the scene.
var roomNouns = wordSet("window", "door", "table", "fire", "fireplace", "piano", "gate", "stairs", "staircase", "hall", "room", "drawing-room", "drawing", "study", "garden", "passage", "parlour", "parlor", "library", "porch", "carriage", "corridor", "ballroom", "anteroom", "vestibule", "doorway", "shrubbery", "breakfast-room", "dining-room", "sitting-room", "nursery")

// findVerbs find or see someone where they are.
var findVerbs = wordSet("found", "finds", "saw", "sees", "perceived", "beheld", "noticed", "espied")

// foundIn reports whether m is found or seen in a room or at a part of
// it: "found Lydia in the hall", "saw Lydia at the window". Seeing them
// in a season or at a ball of the past places nobody.
func foundIn(d *doc, m mention) bool {
	i, j := m.firstWord-1, m.lastWord+1
	if i < 0 || m.possessive || j+2 >= len(d.words) || d.between(i, m.firstWord) != " " || !sameClause(d, m.lastWord, j+2) {
		return false
	}
	if !findVerbs[strings.ToLower(d.words[i].s)] {
		return false
	}
	switch strings.ToLower(d.words[j].s) {
	case "in", "at", "by", "near":
	default:
		return false
	}
	return strings.ToLower(d.words[j+1].s) == "the" && roomNouns[strings.ToLower(d.words[j+2].s)]
}

// helpsDoing reports whether m "could not help" doing something, or does
// it themselves ("Lydia herself came in"), or does it "meanwhile".
func helpsDoing(d *doc, m mention) bool {
	j := m.lastWord + 1
	if j+1 >= len(d.words) || !sameClause(d, m.lastWord, j+1) || m.possessive {
		return false
	}
	w := strings.ToLower(d.words[j].s)
	switch {
	case w == "herself" || w == "himself":
		if d.between(m.lastWord, j) != " " || d.between(j, j+1) != " " {
			return false
		}
		v := strings.ToLower(d.words[j+1].s)
		return pastVerbs[v] && !notActing[v]
	case (w == "meanwhile" || w == "too" || w == "also" || w == "however") && strings.TrimSpace(d.between(m.lastWord, j)) == "," && strings.TrimSpace(d.between(j, j+1)) == ",":
		v := strings.ToLower(d.words[j+1].s)
		if beForms[v] && j+2 < len(d.words) {
			n := strings.ToLower(d.words[j+2].s)
			return len(n) > 5 && strings.HasSuffix(n, "ing")
		}
		return pastVerbs[v] || strings.HasSuffix(v, "ed") && len(v) > 4
	case w == "could" && j+3 < len(d.words) && sameClause(d, j, j+3):
		n := strings.ToLower(d.words[j+3].s)
		return strings.ToLower(d.words[j+1].s) == "not" && strings.ToLower(d.words[j+2].s) == "help" && len(n) > 5 && strings.HasSuffix(n, "ing")
	}
	return false
}

// cjkBesideName reports whether m is whom someone sits or stands beside:
// "坐在黛玉身邊", "挨著黛玉坐下".
func (d *doc) cjkBesideName(m mention) bool {
	before, rest := d.text[:m.start], d.text[m.end:]
	if strings.HasSuffix(before, "在") {
		for _, w := range []string{"身邊", "身边", "旁邊", "旁边", "跟前", "身旁", "面前", "對面", "对面", "身後", "身后"} {
			if strings.HasPrefix(rest, w) {
				return true
			}
		}
	}
	for _, w := range []string{"挨著", "挨着", "靠著", "靠着", "傍著", "傍着"} {
		if strings.HasSuffix(before, w) {
			return true
		}
	}
	return false
}

// recallVerbs before a name in its clause make the clause a memory, a
// dream or a report: "Natásha remembered how Pétya laughed".
var recallVerbs = wordSet("remembered", "remember", "remembers", "remembering", "recalled", "recall", "recollected", "recollect", "dreamed", "dreamt", "dreaming", "imagined", "fancied", "pictured", "told", "tells", "related", "heard", "learned", "learnt", "wondered", "thought", "thinking")

// recalledEnglish reports whether a verb of memory or report stands
// before m in its sentence, with "how", "that", "when" or "of" between:
// the name is talked about.
func recalledEnglish(d *doc, m mention) bool {
	sent := d.sents[d.sentenceAt(m.start)]
	linked := false
	own := seriesClauseStart(d, m)
	for n := m.firstWord - 1; n >= 0 && n >= m.firstWord-10 && d.words[n].start >= sent.start; n-- {
		if strings.ContainsAny(d.between(n, n+1), ";:“”\"") {
			return false
		}
		w := strings.ToLower(d.words[n].s)
		switch w {
		case "how", "that", "when", "of", "about", "whether":
			linked = true
		}
		if recallVerbs[w] && (linked || n == m.firstWord-1) && !outOfScope(d, n, own) {
			return true
		}
	}
	return false
}

// cleftSubject reports whether m is the subject of a cleft: "It was Lydia
// who opened the door".
func cleftSubject(d *doc, m mention) bool {
	i, j := m.firstWord-2, m.lastWord+1
	if i < 0 || j+1 >= len(d.words) || !sameClause(d, i, j+1) {
		return false
	}
	if strings.ToLower(d.words[i].s) != "it" || strings.ToLower(d.words[i+1].s) != "was" || strings.ToLower(d.words[j].s) != "who" {
		return false
	}
	v := strings.ToLower(d.words[j+1].s)
	return pastVerbs[v] || strings.HasSuffix(v, "ed") && len(v) > 4
}

// followedInto reports whether m is followed into a room, or gone up to,
// or come in with: "followed Lydia into the room", "went up to Pétya",
// "came in with Pétya".
func followedInto(d *doc, m mention) bool {
	prev := prevWords(d, m.firstWord, 3)
	if m.possessive || len(prev) == 0 {
		return false
	}
	p0 := strings.ToLower(prev[0])
	if p0 == "followed" || p0 == "follows" {
		j := m.lastWord + 1
		if j < len(d.words) && sameClause(d, m.lastWord, j) {
			switch strings.ToLower(d.words[j].s) {
			case "into", "out", "in", "up", "down", "across", "through":
				return true
			}
		}
		return false
	}
	if len(prev) < 3 {
		return false
	}
	p1, p2 := strings.ToLower(prev[1]), strings.ToLower(prev[2])
	switch {
	case p0 == "to" && p1 == "up":
		return motionVerbs[p2]
	case p0 == "with" && (p1 == "in" || p1 == "out" || p1 == "back" || p1 == "down"):
		return motionVerbs[p2]
	}
	return false
}

var motionVerbs = wordSet("went", "came", "walked", "ran", "rushed", "hurried", "stepped", "goes", "comes", "going", "coming", "walking", "running")

// sharedSeat reports whether m is one of two between whom someone sits:
// "sat between Jane and Lydia".
func sharedSeat(d *doc, m mention) bool {
	prev := prevWords(d, m.firstWord, 6)
	if m.possessive {
		return false
	}
	for k := 0; k+1 < len(prev); k++ {
		if strings.ToLower(prev[k]) != "between" {
			continue
		}
		p := strings.ToLower(prev[k+1])
		return companionVerbs[p] || p == "down" && k+2 < len(prev) && companionVerbs[strings.ToLower(prev[k+2])]
	}
	return false
}

// listSubject reports whether m is an item of a list of three or more
// people (two, when one is a group: "Pétya and the others") that opens
// its sentence as the subject of a verb in the past:
// "The Bennets, the Lucases, Lydia, and the officers sat down to
// supper". Each item is a name or "the" and a plural (the officers, the
// Lucases), of at most three words.
func listSubject(d *doc, m mention) bool {
	if m.possessive {
		return false
	}
	sent := d.sents[d.sentenceAt(m.start)]
	first := m.firstWord
	for first > 0 && d.words[first-1].start >= sent.start {
		first--
	}
	if strings.ContainsAny(d.text[sent.start:d.words[first].start], "“”\"") {
		return false
	}
	items, n, last, group := 0, first, -1, false
	for n < len(d.words) && n < first+20 {
		// One item: "the" and a plural, or capitalised words.
		k := n
		if strings.ToLower(d.words[k].s) == "the" && k+1 < len(d.words) && strings.HasSuffix(d.words[k+1].s, "s") && d.between(k, k+1) == " " {
			k += 2
			group = true
		} else {
			for k < len(d.words) && k < n+3 && unicode0Upper(d.words[k].s) && (k == n || nameGap(d.between(k-1, k))) {
				k++
			}
			if k == n {
				return false
			}
		}
		items++
		last = k - 1
		if k >= len(d.words) {
			return false
		}
		gap := strings.TrimSpace(d.between(last, k))
		w := strings.ToLower(d.words[k].s)
		if gap == "," && w == "and" {
			n = k + 1
			continue
		}
		if gap == "," {
			n = k
			continue
		}
		if gap == "" && w == "and" {
			n = k + 1
			continue
		}
		// "Pétya and the others sat down": two items, one a group.
		if gap != "" || items < 3 && !(items == 2 && group) || m.lastWord > last {
			return false
		}
		if beForms[w] && k+1 < len(d.words) {
			nx := strings.ToLower(d.words[k+1].s)
			return len(nx) > 4 && strings.HasSuffix(nx, "ing") || nx == "seated" || nx == "assembled"
		}
		return pastVerbs[w] || strings.HasSuffix(w, "ed") && len(w) > 4 && !notActing[w]
	}
	return false
}

// companionDoes reports whether rest, after a name joined by a companion
// word (同, 與, 和, 跟) to someone before it, tells what the two do on the
// spot: any act verbAfter reads (鴛鴦同晴雯在旁邊瞧著), or a tag of
// speech with its manner (老魔與白骨夫人喜道：「…」), whose speakers are
// both there.
func companionDoes(rest string) bool {
	if actsNext(rest) || speechTag(rest) {
		return true
	}
	how, _ := verbAfter(rest)
	return how != ""
}

// cjkSpots are locatives that make a place phrase alone after 在:
// 在前引路, 在後跟著, 在旁瞧著.
const cjkSpots = "前後后旁"

// spotEnd returns the byte length of the place phrase rest opens with
// after 在 (placePhraseEnd), or of a bare locative of cjkSpots that an
// act follows; 0 when there is none. Alone, 前 or 後 is as often a time
// (在前日), which no act follows.
func spotEnd(rest string) int {
	if end := placePhraseEnd(rest); end > 0 {
		return end
	}
	r, size := utf8.DecodeRuneInString(rest)
	if strings.ContainsRune(cjkSpots, r) && actsNext(rest[size:]) {
		return size
	}
	return 0
}

// listOpener reports whether before ends where a clause of narration
// opens after its opener (這里, 此時, 話說): a list of people there is its
// subject (這里鳳姐和平兒，尤二姐三人猜疑), or after the narrator's 有 of
// who is there (thereAre).
func listOpener(before string) bool {
	if _, ok := narrationBefore(before); ok {
		return true
	}
	return thereAre(before)
}

// thereAre reports whether before ends with the narrator's 有 of who is
// on the spot, after an adverb (只有, 還有, 又有): the list after it is
// the people there, whatever they do. 沒有 and 未有 deny them.
func thereAre(before string) bool {
	b, ok := strings.CutSuffix(before, "有")
	if !ok {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(b)
	return strings.ContainsRune("只還还又就也另尚", r)
}

// cjkGathering are verbs of calling people together: their object is
// the company of the scene.
var cjkGathering = []string{"喚聚", "唤聚", "召集", "聚集", "會聚", "会聚", "會集", "会集", "喚齊", "唤齐", "叫齊", "叫齐", "請齊", "请齐", "聚齊", "聚齐"}

// gathered reports whether a list joined by 、 is the object of a verb
// of gathering: the verb ends before, or opens the list's first item,
// which cjkSeriesAround reads as any run of characters (喚聚諸佛、阿羅).
func gathered(before, list string) bool {
	for _, v := range cjkGathering {
		if strings.HasSuffix(before, v) || strings.HasPrefix(list, v) {
			return true
		}
	}
	return false
}

// joinedBareItem returns where the short undeclared name that before
// ends with, joined by 和, 與 or 及, starts, when an item separator
// stands before it (，寶琴和).
func joinedBareItem(before string) (int, bool) {
	b, ok := cutAnySuffix(before, "和", "與", "与", "及")
	if !ok {
		return 0, false
	}
	for n, start := 1, len(b); n <= maxBareItem && start > 0; n++ {
		r, size := utf8.DecodeLastRuneInString(b[:start])
		if !prose.IsCJK(r) {
			break
		}
		start -= size
		if n < 2 {
			continue
		}
		for _, sep := range cjkItemSeps {
			if strings.HasSuffix(b[:start], sep) {
				return start, true
			}
		}
	}
	return 0, false
}

// cjkVerbPhraseAdverbs before 和, 與, 同 or 跟 make it a preposition that
// opens a verb phrase (正和秦氏盤算, 方和秦氏要硝, 忙與秦氏束裙), not a
// conjunction between nouns.
const cjkVerbPhraseAdverbs = "忙正方便又就遂才也都還还已先"

// cjkNoDeed after the one kept company with are no deed done together: a
// possessive, a copula, a likeness (和晴雯一樣), having or lacking, a
// negation.
const cjkNoDeed = "的之是一有無无沒没不像似"

// comitative reports whether, before being the text up to a companion
// word and rest the text after the one it joins, the companion word is a
// preposition after an adverb and a verb follows the one it joins: what
// is done with someone is done where they are, whatever the verb
// (鳳姐平兒等忙與秦氏束裙整袂).
func comitative(before, rest string) bool {
	a, _ := utf8.DecodeLastRuneInString(before)
	if !strings.ContainsRune(cjkVerbPhraseAdverbs, a) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest)
	return prose.IsCJK(r) && !strings.ContainsRune(cjkNoDeed, r)
}
