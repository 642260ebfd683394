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
// needs no marker for it; acting's readings need a verb they know.
func (d *doc) cjkOpensNarratedClause(m mention) bool {
	before := cutOneSuffix(d.text[:m.start], cjkDemonstratives)
	before = cutOneSuffix(before, cjkNarrationOpeners)
	if r, _ := utf8.DecodeLastRuneInString(before); before != "" && !prose.NameBreak(r) {
		return false
	}
	end := groupTail(d.text, m.end)
	rest := d.text[end:]
	// "牛王口中嚷道": what the mouth or the hand does is the owner's.
	for _, w := range cjkBodyPlaces {
		if r, ok := strings.CutPrefix(rest, w); ok {
			rest = r
			break
		}
	}
	r, _ := utf8.DecodeRuneInString(rest)
	if !prose.IsCJK(r) || strings.ContainsRune(cjkNotPredicate, r) {
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
	return !cjkKeptOut(d.text[min(lo, len(before)):len(before)], d.text[min(end, hi):hi])
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

// cutOneSuffix returns s without the first of words it ends with.
func cutOneSuffix(s string, words []string) string {
	for _, w := range words {
		if t, ok := strings.CutSuffix(s, w); ok {
			return t
		}
	}
	return s
}

// cjkDemonstratives may stand before a name that opens a clause (那奎木狼).
var cjkDemonstratives = []string{"那", "這", "这"}

// cjkNarrationOpeners open a clause of narration before its subject: the
// storyteller's 話說, and words of the time of the scene (此時八戒抖搜精
// 神, 當下寶玉正因晴雯不自在), which tell that the subject is there now.
var cjkNarrationOpeners = []string{"話說", "话说", "卻說", "却说", "且說", "且说",
	"此時", "此时", "當下", "当下", "須臾", "须臾", "登時", "登时", "一時", "一时", "忽然", "霎時", "霎时", "頓時", "顿时"}

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
const cjkNotPredicate = "的之等們们和與与同及并並、是乃為为系係輩辈兩两二三四五六七八九十家府處处房屋裏里中上下姑娘兒儿子哥弟姐妹父母手身眼臉脸頭头心口腳脚"

// cjkGoing open a predicate of going somewhere.
var cjkGoing = []string{"步行", "到", "往", "去", "回", "赴", "來至", "来至", "進", "进", "出"}

// cjkNotPresentCues in a clause make it one of memory, talk, dreams,
// death, burial, letters or errands sent from afar (打發了人送來).
var cjkNotPresentCues = []string{"想", "想起", "想著", "想着", "提起", "說起", "说起", "記得", "记得", "夢", "梦", "死", "亡", "靈", "灵", "柩", "去世", "喪", "丧", "信", "畫", "画", "說", "说", "道", "聽", "听", "聞", "闻", "當日", "当日", "那日", "曾", "生前", "在日", "若", "如今", "葬", "打發", "打发", "遣", "差人", "何至", "自稱", "自称"}
