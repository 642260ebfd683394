package factcheck

import (
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// cjkOpensNarratedClause reports whether the Chinese mention m opens a
// clause of narration (after a stop, or after 那/這 or a storyteller's
// 話說/卻說) and what follows it is its predicate: not a particle, a
// body part or a kinship word that makes it a modifier or an item (的,
// 之, 等, 和, 手, 哥哥…), not a copula that describes it, not a going,
// in a clause that is not about memory, thought, talk, dreams or death.
// Chinese narration names its subject at the head of the clause and
// needs no marker for it; acting's readings need a verb they know. One
// bidden do something (叫晴雯稱了銀子) opens the clause of what is bidden.
func (d *doc) cjkOpensNarratedClause(m mention) bool {
	if d.cjkPivot(m) {
		return true
	}
	// The list the name stands in opens the clause, or the name itself
	// does after 、 (將八戒、白骨夫人一齊捉到洞裏).
	before, ok := narrationBefore(d.text[:d.cjkListHead(m)])
	if !ok {
		if before, ok = narrationBefore(d.text[:m.start]); !ok {
			return false
		}
	}
	end := groupTail(d.text, d.cjkListTail(m))
	rest := d.text[end:]
	// "牛王口中嚷道": what the mouth or the hand does is the owner's.
	for _, w := range cjkBodyPlaces {
		if r, ok := strings.CutPrefix(rest, w); ok {
			rest = r
			break
		}
	}
	// "探春寶釵上去輕輕扶著": a step up to someone, not a place above.
	_, up := cutAnyPrefix(rest, "上前", "上來", "上来", "上去")
	r, _ := utf8.DecodeRuneInString(rest)
	if !prose.IsCJK(r) || !up && strings.ContainsRune(cjkNotPredicate, r) {
		return false
	}
	// A verb and 的 soon after make the name a modifier (秦鐘送來的書匣子);
	// a going is the journey that may be the absence itself (賈政步行到了
	// 學裏), read by departs and returns.
	n := 0
	for _, q := range rest {
		if !prose.IsCJK(q) || n == 4 {
			break
		}
		if q == '的' {
			return false
		}
		n++
	}
	for _, w := range cjkGoing {
		if strings.HasPrefix(rest, w) {
			return false
		}
	}
	// "此時黛玉不在自己房中": a predicate of absence.
	if head := runePrefix(rest, 4); strings.Contains(head, "不在") || strings.Contains(head, "沒在") || strings.Contains(head, "没在") || strings.Contains(head, "未在") {
		return false
	}
	// "元妃疾愈之后，家中俱各喜歡": a clause of time tells what was done
	// before the scene.
	if i := strings.IndexFunc(rest, prose.NameBreak); i > 0 {
		for _, w := range []string{"之後", "之后", "以後", "以后"} {
			if strings.HasSuffix(rest[:i], w) {
				return false
			}
		}
	}
	lo, hi := d.clauseBounds(m.start, m.end)
	// The storyteller's 話說 is no talk of the clause.
	return !cjkKeptOut(d.text[min(lo, len(before)):len(before)], ownClause(d.text[min(end, hi):hi]))
}

// ownClause is the part of after, the text after a subject, up to the
// first break: what comes after a comma may be another's (奎木狼咬釘嚼
// 鐵，…感蒙行者等打死蝎子精).
func ownClause(after string) string {
	if i := strings.IndexFunc(after, prose.NameBreak); i >= 0 {
		return after[:i]
	}
	return after
}

// cjkKeptOut reports whether the clause around a name, the text before
// it and the text after it, is one of memory, talk, dreams or death that
// keeps the name's owner out of the scene. Talk and hearing told after
// the name are its owner's (探春一听麝月的話, 賈政也不等說完),
// unless told as a habit or a report (素日常說, 所說).
func cjkKeptOut(before, after string) bool {
	for _, w := range cjkHabitCues {
		if strings.Contains(before, w) || strings.Contains(after, w) {
			return true
		}
	}
	for _, w := range cjkNotPresentCues {
		if strings.Contains(before, w) || !cjkOwnTalk(w) && strings.Contains(after, w) {
			return true
		}
	}
	for _, w := range cjkFuneralCues {
		if strings.Contains(before, w) || strings.Contains(after, w) {
			return true
		}
	}
	return false
}

// cjkOwnTalk reports whether the cue w is one of talk or hearing, which
// after a name is done by its owner. A thought is not: one may long for
// someone from afar (八戒想三藏多時了).
func cjkOwnTalk(w string) bool {
	return !strings.Contains(w, "想") && (strings.ContainsAny(w, "說说道聽听聞闻") || w == "提起")
}

// cjkHabitCues make talk a habit or a report, not something said in the
// scene: 常說, 素日, 每每, 所說, 說過.
var cjkHabitCues = []string{"常說", "常说", "素日", "每每", "向來", "向来", "時常", "时常", "所說", "所说", "說過", "说过"}

// cjkPivot reports whether m is the one whom someone in the scene bids
// do something there (因叫晴雯稱了几兩銀子, 請牛王收了眾怪, 宣龍馬顯聖):
// the object of the bidding opens the clause of what is bidden. Not
// when the bidding is only meant or asked for (要請, 去請), nor when the
// one bidden is to come or go (請黛玉來吃飯, 叫他去), nor in a clause of
// memory or talk.
func (d *doc) cjkPivot(m mention) bool {
	before, ok := cutAnySuffix(d.text[:m.start], cjkBidding...)
	if r, _ := utf8.DecodeLastRuneInString(before); !ok || strings.ContainsRune(cjkNotBid, r) || !bidDone(d.text[m.end:]) {
		return false
	}
	lo, hi := d.clauseBounds(m.start, m.end)
	// The storyteller's 話說 is no talk of the clause (話說孫大聖用盡心機，
	// 請牛王收了眾怪).
	told := d.text[min(lo, len(before)):len(before)]
	if t, ok := cutAnyPrefix(told, "話說", "话说", "卻說", "却说", "且說", "且说"); ok {
		told = t
	}
	return !cjkKeptOut(told, d.text[min(m.end, hi):hi])
}

// bidDone reports whether rest, after the name of one bidden, tells what
// they do on the spot: not a coming, which is only asked for (請黛玉來
// 吃飯), nor a going off, nor a 的 that makes a modifier of the name.
func bidDone(rest string) bool {
	if _, ok := cutAnyPrefix(rest, "來", "来", "過來", "过来", "上來", "上来", "前來", "前来"); ok {
		return false
	}
	for _, w := range cjkGoing {
		if strings.HasPrefix(rest, w) {
			return false
		}
	}
	if strings.ContainsRune(runePrefix(rest, 4), '的') {
		return false
	}
	r, _ := utf8.DecodeRuneInString(skipDegree(rest))
	return strings.ContainsRune(cjkActing+"稱称顯显收", r) && !strings.ContainsRune(cjkAdverbs, r)
}

// cjkBidding bid or send for someone to do something.
var cjkBidding = []string{"請", "请", "叫", "命", "令", "教", "宣", "喚", "唤", "讓", "让"}

// cjkNotBid before a bidding make it meant, asked for or denied, not
// done: 要請, 去叫, 不教.
const cjkNotBid = "去來来要想欲不沒没未若可該该須须好待別别莫休"

// narrationBefore returns before (the text up to a subject) without a
// demonstrative and an opener of narration, and whether what is left
// ends where a clause opens.
func narrationBefore(before string) (string, bool) {
	before = cutOneSuffix(before, cjkDemonstratives)
	before = cutOneSuffix(before, cjkNarrationOpeners)
	r, _ := utf8.DecodeLastRuneInString(before)
	return before, before == "" || prose.NameBreak(r)
}

// cjkListHead returns where the list of subjects that m stands in
// starts: names joined to it by 與, 和, 同, 及, 並, 、 or nothing (卻說孫大聖
// 與紅孩兒正要使法), and after 、 undeclared names (此時旃檀佛、鬥戰佛、
// 奎木狼…俱正果了本位). The list is the subject only where it opens its
// clause: as an object (找黛玉和寶玉) or a topic (說起黛玉與寶玉) it
// opens none.
func (d *doc) cjkListHead(m mention) int {
	at := m.start
	for n := 0; n < 8; n++ {
		if p, ok := d.personEndingAt(at); ok {
			at = p.start
			continue
		}
		if t, ok := cutAnySuffix(d.text[:at], "並", "并"); ok {
			if p, ok := d.personEndingAt(len(t)); ok {
				at = p.start
				continue
			}
		}
		if t, ok := strings.CutSuffix(d.text[:at], "、"); ok {
			if start, ok := undeclaredItemBefore(t); ok {
				at = start
				continue
			}
		}
		break
	}
	return at
}

// cjkListTail returns where the list of names that m opens or stands in
// ends: names joined to it by 與, 和, 同, 及, 並 or 、 (那奎木狼與行者相持).
func (d *doc) cjkListTail(m mention) int {
	at := m.end
	for n := 0; n < 8; n++ {
		if p, ok := d.personStartingAt(at); ok {
			at = p.end
			continue
		}
		if t, ok := cutAnyPrefix(d.text[at:], "並", "并"); ok {
			next := len(d.text) - len(t)
			if p, ok := d.personStartingAt(next); ok && p.start == next {
				at = p.end
				continue
			}
		}
		break
	}
	return at
}

// undeclaredItemBefore returns where the item of a list that before ends
// with starts: one to six characters back to a break, a 、 or an opener of
// narration, with no mark of a verb, an object or a modifier in it (說起
// 黛玉 is no item). ok is false when there is none.
func undeclaredItemBefore(before string) (start int, ok bool) {
	start = len(before)
	for n := 0; n <= 6; n++ {
		b := before[:start]
		if r, _ := utf8.DecodeLastRuneInString(b); b == "" || prose.NameBreak(r) || cutOneSuffix(b, cjkNarrationOpeners) != b {
			return start, n > 0
		}
		if n == 6 {
			break
		}
		r, size := utf8.DecodeLastRuneInString(b)
		if !prose.IsCJK(r) || strings.ContainsRune(cjkObjectMarkers+cjkNotAnItem, r) {
			break
		}
		start -= size
	}
	return 0, false
}

// cjkNotAnItem mark talk, a copula, a place or a modifier: a run of
// characters with one of them is no name in a list.
const cjkNotAnItem = "說说道聽听聞闻問问的之是在有"

// cutAnySuffix returns s without the first of words it ends with.
func cutAnySuffix(s string, words ...string) (string, bool) {
	for _, w := range words {
		if t, ok := strings.CutSuffix(s, w); ok {
			return t, true
		}
	}
	return s, false
}

// cutAnyPrefix returns s without the first of words it opens with.
func cutAnyPrefix(s string, words ...string) (string, bool) {
	for _, w := range words {
		if t, ok := strings.CutPrefix(s, w); ok {
			return t, true
		}
	}
	return s, false
}

// cutOneSuffix returns s without the first of words it ends with.
func cutOneSuffix(s string, words []string) string {
	t, _ := cutAnySuffix(s, words...)
	return t
}

// cjkDemonstratives may stand before a name that opens a clause (那奎木狼).
var cjkDemonstratives = []string{"那", "這", "这"}

// cjkNarrationOpeners open a clause of narration before its subject: the
// storyteller's 話說, and words of the time of the scene (此時八戒抖搜精
// 神, 當下寶玉正因晴雯不自在), which tell that the subject is there now.
var cjkNarrationOpeners = []string{"話說", "话说", "卻說", "却说", "且說", "且说",
	"此時", "此时", "當下", "当下", "須臾", "须臾", "登時", "登时", "一時", "一时", "忽然", "霎時", "霎时", "頓時", "顿时",
	// The storyteller's "meanwhile, here" (這里鳳姐和平兒…猜疑).
	"這里", "這裏", "这里"}

// cjkPlurals after a name make its owner one of a group that is still
// the clause's subject: 鳳姐等, 襲人們, 秦氏輩.
var cjkPlurals = []string{"等人", "等", "們", "们", "輩", "辈"}

// cjkGroupCounts may follow a plural: 賈母等眾人, 鳳姐等三人.
var cjkGroupCounts = []string{"一干人", "眾人", "众人", "二人", "兩人", "两人", "三人", "四人", "幾人", "几人", "數人", "数人"}

// groupTail returns where the plural after a name at offset at ends, with
// a count after it and a comma after 等 (虎力大仙等，一齊上前); at when
// there is none.
func groupTail(text string, at int) int {
	for _, p := range cjkPlurals {
		if !strings.HasPrefix(text[at:], p) {
			continue
		}
		at += len(p)
		for _, c := range cjkGroupCounts {
			if strings.HasPrefix(text[at:], c) {
				at += len(c)
				break
			}
		}
		return groupComma(text, at)
	}
	return at
}

// cjkNotPredicate may follow a name without making it a clause's subject.
const cjkNotPredicate = "者的之等們们和與与同及并並、是乃為为系係輩辈兩两二三四五六七八九十家府處处房屋裏里中上下姑娘兒儿子哥弟姐妹父母手身眼臉脸頭头心口腳脚"

// cjkGoing open a predicate of going somewhere.
var cjkGoing = []string{"步行", "到", "往", "去", "回", "赴", "來至", "来至", "進", "进", "出"}

// cjkFuneralCues tell of a coffin, a bier or a soul (停靈, 靈前, 陰靈):
// 靈 alone is as often a palace (靈霄殿) or a jade (通靈玉).
var cjkFuneralCues = []string{"停靈", "停灵", "守靈", "守灵", "送靈", "送灵", "靈前", "灵前", "靈位", "灵位", "靈牌", "灵牌", "靈堂", "灵堂", "靈旁", "灵旁", "靈床", "灵床", "靈車", "灵车",
	"辭靈", "辞灵", "接靈", "接灵", "伴靈", "伴灵", "寄靈", "寄灵", "安靈", "安灵", "請靈", "请灵", "駕靈", "驾灵", "陰靈", "阴灵", "魂靈", "魂灵", "靈魂", "灵魂", "英靈", "英灵", "之靈", "之灵", "顯靈", "显灵"}

// cjkNotPresentCues in a clause make it one of memory, talk, dreams,
// death, burial, letters, writing (寫著"檻外人妙玉恭肅遙叩芳辰") or
// errands sent from afar (打發了人送來).
var cjkNotPresentCues = []string{"想", "想起", "想著", "想着", "提起", "說起", "说起", "記得", "记得", "夢", "梦", "死", "亡", "柩", "去世", "喪", "丧", "信", "畫", "画", "寫著", "写着", "寫的", "写的", "說", "说", "道", "聽", "听", "聞", "闻", "當日", "当日", "那日", "曾", "生前", "在日", "若", "如今", "葬", "打發", "打发", "遣", "差人", "何至", "自稱", "自称"}
