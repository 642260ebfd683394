package factcheck

import (
	"fmt"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
	"github.com/flowcabal/flowcabal/lexicon"
)

// absentStatus are status values under which a character cannot act in a
// scene (unless the text places the scene at their location).
var absentStatus = map[string]string{
	"away": "away", "absent": "away", "at sea": "away", "exiled": "away", "banished": "away", "fled": "away", "overseas": "away", "elsewhere": "away", "abroad": "away", "gone": "away", "travelling": "away", "missing": "missing",
	"dead": "dead", "deceased": "dead", "died": "dead", "killed": "dead",
	"imprisoned": "imprisoned", "in prison": "imprisoned", "jailed": "imprisoned", "captive": "imprisoned",
	"in jail": "imprisoned", "arrested": "imprisoned", "in custody": "imprisoned", "prisoner": "imprisoned",
	"murdered": "dead", "executed": "dead", "drowned": "dead", "departed": "away", "in exile": "away", "travelling abroad": "away", "traveling": "away",
	"亡": "dead", "卒": "dead", "薨": "dead", "殁": "dead", "歿": "dead", "逝世": "dead", "故去": "dead", "身亡": "dead", "被杀": "dead", "遇害": "dead", "已逝": "dead", "病逝": "dead",
	"出家": "away", "远嫁": "away", "遠嫁": "away", "流放": "away", "充军": "away", "充軍": "away", "远行中": "away", "外出中": "away",
	"被捕": "imprisoned", "在狱": "imprisoned", "在獄": "imprisoned",
	"离开": "away", "离家": "away", "不在": "away", "外出": "away", "出门": "away", "远行": "away", "離開": "away",
	"死": "dead", "死亡": "dead", "已死": "dead", "已故": "dead", "去世": "dead", "亡故": "dead", "病故": "dead", "身故": "dead",
	"入狱": "imprisoned", "下狱": "imprisoned", "入獄": "imprisoned", "下獄": "imprisoned", "被囚": "imprisoned", "囚禁": "imprisoned",
}

// absence classifies a status value (lower case): "away", "dead",
// "imprisoned", "missing", or not absent. Besides the exact values it
// reads the first word of a longer one ("away (Brighton)", "dead since
// 1810") and a Chinese status that contains one ("已于八月去世").
func absence(status string) (string, bool) {
	status = strings.TrimSpace(status)
	if why, ok := absentStatus[status]; ok {
		return why, true
	}
	if ws := prose.LatinWords(status); len(ws) > 1 {
		if why, ok := absentStatus[ws[0]]; ok {
			return why, true
		}
		if len(ws) > 2 {
			if why, ok := absentStatus[ws[0]+" "+ws[1]]; ok {
				return why, true
			}
		}
	}
	if prose.HasCJK(status) {
		for k, why := range absentStatus {
			if utf8.RuneCountInString(k) >= 2 && prose.HasCJK(k) && strings.Contains(status, k) {
				return why, true
			}
		}
	}
	return "", false
}

// speechVerbs introduce a speaker after the quotation: "said Lydia".
var speechVerbs = wordSet("said", "cried", "replied", "observed", "exclaimed", "added", "continued", "answered",
	"asked", "whispered", "returned", "rejoined", "resumed", "repeated", "remarked", "began", "interrupted",
	"shouted", "called", "murmured", "muttered", "sighed", "laughed", "declared", "insisted", "pursued", "inquired", "enquired", "says", "asks", "replies", "cries")

// objectVerbs are speech verbs that also take a person as object.
var objectVerbs = wordSet("asked", "answered", "called", "interrupted", "returned", "began", "repeated", "pursued", "resumed", "continued", "asks", "answered", "enquired", "inquired")

// afterQuote reports whether word i follows a closing quotation mark,
// with at most a comma or stop between: “…,” said Lydia.
func afterQuote(d *doc, i int) bool {
	start := 0
	if i > 0 {
		start = d.words[i-1].end
	}
	gap := strings.TrimRight(d.text[start:d.words[i].start], " \n")
	gap = strings.TrimRight(gap, ",.!?")
	return strings.HasSuffix(gap, "”") || strings.HasSuffix(gap, "\"") || strings.HasSuffix(gap, "’")
}

// notActing follow a name without placing its owner in the scene: modal
// and perfect forms, writing and sending from afar, being elsewhere.
var notActing = wordSet("would", "could", "should", "might", "must", "may", "will", "shall", "had", "has", "have",
	"wrote", "writes", "written", "sent", "sends", "remained", "remains", "stayed", "stays", "left", "leaves", "was", "were", "is", "being", "never", "herself", "himself",
	"did", "does", "not", "and", "or", "nor", "who", "whom", "whose", "which", "that", "to", "of", "in", "at", "on", "for", "with", "from", "by", "as", "than", "s",
	// "Only Lydia was missing": a participle of being away.
	"missing", "wanting")

// beForms are "was"-like words that do place the subject in the scene
// when a participle or adjective of condition follows, not a place.
var beForms = wordSet("was", "were", "is")

// elsewhere after "was" keeps the subject out of the scene.
var elsewhere = wordSet("abroad", "far", "occasionally", "often", "frequently", "sometimes", "always", "seldom", "usually", "rarely", "gone", "away", "absent", "still", "now", "in", "at", "with", "not", "never", "dead", "missing", "wanting", "to", "safe", "married", "there", "a", "an", "the", "no", "expected", "supposed", "said", "thought", "believed", "known", "reported")

// pastVerbs are irregular past forms that mark an agent.
var pastVerbs = wordSet("came", "went", "sat", "stood", "spoke", "ran", "took", "gave", "made", "saw", "heard",
	"felt", "found", "got", "held", "kept", "knew", "led", "let", "lay", "met", "put", "rose", "said", "set", "shook",
	"thought", "told", "threw", "began", "bade", "bid", "brought", "caught", "drew", "drove", "fell", "flew", "fought", "hid",
	"laughed", "looked", "moved", "walked", "entered", "turned", "smiled", "seemed", "appeared", "answered", "replied", "cried",
	"whispered", "followed", "joined", "sprang", "stole", "struck", "swore", "wept", "won", "wore", "ate", "drank", "sang",
	"rode", "broke", "chose", "hurried", "talked", "danced", "played", "sits", "stands", "comes", "goes", "says", "speaks", "enters", "runs", "takes",
	"burst", "crept", "leapt", "knelt", "sank", "flung", "swung", "bent",
	// More of the irregular pasts a narrative moves its people with.
	"shut", "lit", "swept", "strode", "hung", "spun", "slid", "stuck", "bit", "sought", "bought", "taught", "fed", "rang",
	"slept", "leant", "shed", "tore", "woke", "awoke", "arose", "shrank", "clung", "shone", "blew", "grew", "spat", "slunk",
	"wrung", "spread", "cast", "thrust", "laid", "paid", "bore", "withdrew", "overheard", "understood", "dug", "slung", "strove")

// presence nouns after a possessive name put its owner in the scene.
var presenceNouns = wordSet("step", "steps", "footstep", "footsteps", "voice", "hand", "hands", "arm", "arms", "face",
	// Parts of the body one touches: "threw her arms round Lydia's neck".
	"neck", "cheek", "cheeks", "forehead", "shoulder", "shoulders", "waist", "lips", "sleeve",
	"entrance", "arrival", "laugh", "laughter", "figure", "knock", "tread", "approach", "eyes", "eye", "smile", "presence")

// familyNouns after a surname make it the family's.
var familyNouns = wordSet("family", "families", "household", "house", "estate", "estates", "children", "girls", "boys")

// leadWords may stand before a sentence's subject.
var leadWords = wordSet("but", "and", "then", "so", "now", "yet", "when", "while", "as", "here", "there", "soon", "meanwhile", "presently", "at", "last", "length", "instantly", "immediately", "after", "before", "this", "that", "time")

// notAgent before a name makes it an object, not the actor.
var notAgent = wordSet("until", "since", "seen", "saw", "see", "seeing", "visited", "visiting", "getting", "that", "whether", "if", "as", "of", "about", "from", "to", "for", "late", "poor", "dear", "upon", "on", "towards", "toward", "against", "like", "than", "without", "between", "among", "mention", "mentioned", "remember", "remembered", "thought", "think", "letter", "news")

func wordSet(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

// cjkActing are characters that, right after a name, make it the actor.
// Motion and handling verbs count too (過來, 隨後緊跟, 押後, 舉叉), and the
// disposal markers 將 and 把 (悟空將酒一飲而乾): verse that retells the
// past uses them of the absent (灌江小聖把兵揚), and verse is told apart
// by its form (retold.go).
const cjkActing = "道说說笑哭问問答走来來去进進出坐站叹嘆拉拿看听聽起喊叫忙便又也遂回吩骂罵跑抬点點见見接递遞送放端喝吃写寫念读讀唱拍摇搖握扶推跪躺睡醒望瞧抱取提带帶领領" +
	"过過跟随隨押举舉饮飲停率引追赶趕执執揪跳骑騎驾駕闯闖迎陪将將把挑扛背牽牵拖捧擔担叮嘱囑商啐伏服侍伺" +
	// Hearing, anger, fear, arming, bowing, thanking, answering: what a
	// character does on the spot (牛王懷恨，沒奈何披掛了).
	"聞闻言怒驚惊懷怀披拜叩磕辭辞應应謝谢" +
	// Calling out and waking someone (鴛鴦等喚醒回來).
	"喚唤" +
	// Drawing and swinging a weapon, a leap (牛王掣出寶劍, 縱身一跳).
	"掣掄抡縱纵" +
	// Fighting (行者與牛王戰了百十回合).
	"戰战鬥斗" +
	// Gestures of the face and hands (抿著嘴笑, 瞅了寶玉一眼, 拭淚, 掩
	// 面, 捂著嘴).
	"抿瞅瞪盯揉拭擦掩捂"

// cjkBeside after a name puts its owner in the scene: "尤二姐在旁听說".
// cjkBesideAdverbs may stand between a name and cjkBeside (倒也在座).
const cjkBesideAdverbs = "也倒亦都正還还卻却仍又早已"

var cjkBeside = []string{"在旁", "在一旁", "在側", "在侧", "在座", "在坐", "在席", "在跟前", "在身邊", "在身边"}

// cjkFrom open a phrase of where a move starts or goes (紅孩兒也從洞裏跑出來).
const cjkFrom = "從从自往向朝"

// cjkObjectMarkers before a name make it an object: verbs of seeing,
// visiting, recalling, mourning, and prepositions.
const cjkObjectMarkers = "看见見给給叫同和与與把将將替为為向对對跟找请請提想念哭祭拜葬因起梦夢了著着"

// cjkCompanions before a name make it someone's companion (同, 與, 和,
// 跟): with someone acting after it, the name is in the scene.
const cjkCompanions = "同与與和跟"

// cjkListed reports whether m is one of a list of names that acts as one
// subject: "寶釵黛玉寶玉等正在沒法", "鳳姐、平兒都笑了". The names follow
// one another (bare, or with 、 和 與 及 between) and a group word (等, 們,
// 都, 二人…) or a verb closes the list.
func (d *doc) cjkListed(m mention) bool {
	first := d.listStart(m)
	names := 1
	at := first.end
	for {
		next, ok := d.personStartingAt(at)
		if !ok {
			break
		}
		names++
		at = next.end
	}
	if names < 2 || at < m.end {
		return false
	}
	rest := d.text[at:]
	grouped := false
	for _, g := range []string{"等人", "等", "們", "们", "二人", "三人", "四人", "兩個", "两个", "兩人", "两人", "幾個", "几個", "几个", "幾人", "几人", "眾人", "众人", "都", "俱", "一齊", "一齐", "齊", "齐"} {
		if t, ok := strings.CutPrefix(rest, g); ok {
			rest, grouped = t, true
			break
		}
	}
	if !grouped {
		// "晴雯襲人才伏侍他睡下": a bare list that opens its clause is
		// the subject when a verb follows; after a verb it is an object
		// (叫晴雯襲人來).
		open, _ := utf8.DecodeLastRuneInString(d.text[:first.start])
		if first.start > 0 && !unicode.IsPunct(open) && !unicode.IsSpace(open) {
			return false
		}
		return actsNext(rest)
	}
	return actsNext(rest) || strings.HasPrefix(rest, "正在") || strings.HasPrefix(rest, "在")
}

// maxSeriesItem is the longest item, in characters, of a list joined by
// 、 that cjkSeriesAround walks over.
const maxSeriesItem = 6

// cjkSeriesAround returns where the list joined by 、 that holds m
// starts and ends, when it has another item besides m: its items are
// any runs of characters (皇后嬪妃、虎力大仙、兩班文武), each at most
// maxSeriesItem long; the first stops short of a companion word before
// it.
func (d *doc) cjkSeriesAround(m mention) (first, last int, ok bool) {
	first, last = m.start, m.end
	for strings.HasSuffix(d.text[:first], "、") {
		at := first - len("、")
		n := 0
		for ; n < maxSeriesItem && at > 0; n++ {
			r, size := utf8.DecodeLastRuneInString(d.text[:at])
			if !prose.IsCJK(r) || strings.ContainsRune(cjkCompanions, r) {
				break
			}
			at -= size
		}
		if n == 0 {
			break
		}
		first, ok = at, true
	}
	for strings.HasPrefix(d.text[last:], "、") {
		at := last + len("、")
		n := 0
		for ; n < maxSeriesItem && at < len(d.text); n++ {
			r, size := utf8.DecodeRuneInString(d.text[at:])
			if !prose.IsCJK(r) || r == '等' {
				break
			}
			at += size
		}
		if n == 0 {
			break
		}
		last, ok = at, true
	}
	return first, last, ok
}

// listStart returns the first name of the list of names that m ends
// (m itself when no name stands joined before it).
func (d *doc) listStart(m mention) mention {
	for {
		prev, ok := d.personEndingAt(m.start)
		if !ok {
			return m
		}
		m = prev
	}
}

// personStartingAt returns the person mention that starts at offset at,
// after at most one joining word (、 和 與 及).
func (d *doc) personStartingAt(at int) (mention, bool) {
	for _, j := range []string{"", "、", "和", "与", "與", "及", "同"} {
		if !strings.HasPrefix(d.text[at:], j) {
			continue
		}
		for _, i := range d.mentionsIn(at+len(j), at+len(j)+1) {
			if mm := d.mentions[i]; mm.start == at+len(j) && len(mm.ents) > 0 && mm.ents[0].person {
				return mm, true
			}
		}
	}
	return mention{}, false
}

// personEndingAt returns the person mention that ends at offset at, before
// at most one joining word.
func (d *doc) personEndingAt(at int) (mention, bool) {
	for _, j := range []string{"", "、", "和", "与", "與", "及", "同"} {
		if !strings.HasSuffix(d.text[:at], j) {
			continue
		}
		end := at - len(j)
		for _, i := range d.mentionsIn(end-64, end) {
			if mm := d.mentions[i]; mm.end == end && len(mm.ents) > 0 && mm.ents[0].person {
				return mm, true
			}
		}
	}
	return mention{}, false
}

// companionAfter finds the companion that starts at byte offset at: a
// person's name or a group (眾清客, 众人), and returns where it ends.
func (d *doc) companionAfter(at int) (int, bool) {
	for _, m := range d.mentionsIn(at, at+1) {
		if mm := d.mentions[m]; mm.start == at && len(mm.ents) > 0 && mm.ents[0].person {
			return mm.end, true
		}
	}
	rest := d.text[at:]
	for _, g := range []string{"眾", "众"} {
		if !strings.HasPrefix(rest, g) {
			continue
		}
		end := at + len(g)
		// A group word is short: up to three characters after 眾.
		for n := 0; n < 3 && end < len(d.text); n++ {
			r, size := utf8.DecodeRuneInString(d.text[end:])
			if !prose.IsCJK(r) || strings.ContainsRune(cjkAdverbs, r) || strings.ContainsRune(cjkActing, r) {
				break
			}
			end += size
		}
		return end, true
	}
	return 0, false
}

// afterList skips, from byte offset at, the names and groups that follow
// a companion joined to the subject ("賈母正和賈政王夫人眾姊妹商議": 王夫人
// and 眾姊妹 after 賈政) and returns where the verb may start.
func (d *doc) afterList(at int) int {
	for n := 0; n < 6; n++ {
		if next, ok := d.personStartingAt(at); ok {
			at = next.end
			continue
		}
		if end, ok := d.companionAfter(at); ok && end > at {
			at = end
			continue
		}
		break
	}
	// "同秦叔寶、徐茂公等": names the files do not declare, joined by 、
	// and closed by 等.
	for strings.HasPrefix(d.text[at:], "、") {
		item, n := at+len("、"), 0
		for ; n < 4 && item < len(d.text); n++ {
			r, size := utf8.DecodeRuneInString(d.text[item:])
			if !prose.IsCJK(r) || r == '等' || r == '、' || r == '的' {
				break
			}
			item += size
		}
		if n == 0 || !strings.HasPrefix(d.text[item:], "、") && !strings.HasPrefix(d.text[item:], "等") {
			break
		}
		at = item
	}
	// "寶玉與黛玉兩個坐在一處": a count of the list.
	for _, c := range []string{"兩個", "两个", "兩人", "两人", "二人", "三個", "三个", "三人", "幾個", "几個", "几个", "幾人", "几人"} {
		if strings.HasPrefix(d.text[at:], c) {
			return at + len(c)
		}
	}
	// "不与黛玉湘云寶琴等同席": a short undeclared name may end the
	// list before its 等.
	rest := d.text[at:]
	for _, n := range []int{0, 2, 3} {
		r := runePrefix(rest, n)
		if n > 0 && (!allCJK(r) || strings.ContainsAny(r, "的之")) {
			break
		}
		if t, ok := strings.CutPrefix(rest[len(r):], "等人"); ok {
			return len(d.text) - len(t)
		}
		if t, ok := strings.CutPrefix(rest[len(r):], "等"); ok {
			return len(d.text) - len(t)
		}
	}
	return at
}

// allCJK reports whether s is all CJK characters.
func allCJK(s string) bool {
	for _, r := range s {
		if !prose.IsCJK(r) {
			return false
		}
	}
	return s != ""
}

// movesAfterPlace reports whether, within five characters of a place
// word, a verb of motion follows (洞裏跑出來, 後門走進): the place's name
// first, the verb after it.
func movesAfterPlace(rest string) bool {
	rs := []rune(rest)
	for i := 1; i < len(rs) && i <= 5; i++ {
		if !prose.IsCJK(rs[i]) {
			return false
		}
		if strings.ContainsRune("跑走來来去進进出回奔趕赶飛飞跳", rs[i]) {
			return true
		}
	}
	return false
}

// actsNext reports whether an acting character follows within three
// characters (adverbs between).
func actsNext(rest string) bool {
	rest = skipDegree(rest)
	for n := 0; n < 3 && rest != ""; n++ {
		if stepsForward(rest) || actingWord(rest) {
			return true
		}
		r, size := utf8.DecodeRuneInString(rest)
		if strings.ContainsRune(cjkActing, r) && !strings.ContainsRune(cjkAdverbs, r) {
			return true
		}
		if !strings.ContainsRune(cjkAdverbs, r) {
			return false
		}
		rest = rest[size:]
	}
	return false
}

// stepsForward reports whether rest opens with a step towards someone
// (上前, 近前, 向前): 上 alone is as often "on".
func stepsForward(rest string) bool {
	for _, w := range []string{"上前", "近前", "向前", "前來", "前来"} {
		if strings.HasPrefix(rest, w) {
			return true
		}
	}
	return false
}

// cjkLocatives end a phrase of place: 屋里, 庵裏, 亭後, 門外.
const cjkLocatives = "裏里內内中上下外前後后旁邊边處处頭头面"

// placePhraseEnd returns the byte length of the place phrase rest opens
// with: one to five characters, the last a locative; 0 when there is
// none.
func placePhraseEnd(rest string) int {
	at := 0
	for n := 0; n < 6 && at < len(rest); n++ {
		r, size := utf8.DecodeRuneInString(rest[at:])
		if !prose.IsCJK(r) {
			return 0
		}
		at += size
		if n > 0 && strings.ContainsRune(cjkLocatives, r) {
			return at
		}
	}
	return 0
}

// cjkAdverbs may stand between a name and its verb.
const cjkAdverbs = "又便也忙就才却卻因遂只都正早已微一轻輕慢连連先再还還不暗急即亦仍竟自齊齐免備备同大"

func (k *Knowledge) checkState(d *doc) []Finding {
	var out []Finding
	byEnt := map[*entInfo][]int{} // the sentences each away character acts in
	for mi, m := range d.mentions {
		if len(m.ents) != 1 {
			continue // an ambiguous alias cannot prove anything
		}
		e := m.ents[0]
		if !e.person {
			continue
		}
		facts := d.factsOf(e)
		sk := firstKey(facts, "state", "condition", "状态", "狀態", "presence", "status")
		status := strings.ToLower(strings.TrimSpace(facts[sk]))
		why, absent := absence(status)
		if !absent {
			continue
		}
		// One spoken to in a quotation is in the scene (sceneroles.go);
		// any other name in speech is talk of its owner.
		addressed := d.inQuote(m.start) && addressedInSpeech(d, m)
		if d.inQuote(m.start) && !addressed || d.retold(m.start) || d.bareTitle(mi) {
			continue
		}
		if loc := facts["location"]; loc != "" && (containsPlace(d.placeClause(m), loc) || d.cjk && d.sceneAt(m.start, loc) || why == "away" && d.narratedPlaceBefore(m, loc)) {
			continue
		}
		how, conf := k.acting(d, mi, why == "dead")
		if how == "" && (m.firstWord < 0 && d.cjkOpensNarratedClause(m) || m.firstWord >= 0 && !d.inQuote(m.start) && d.latinOpensNarratedClause(m)) {
			how, conf = "acts", 0.6
		}
		if addressed {
			how, conf = "is spoken to", 0.7
		}
		if how == "" {
			continue
		}
		// These read far around the mention: only for someone acting.
		if why == "dead" && d.inVision(m.start) {
			continue
		}
		// Acts told of an earlier time (backstory.go) or in a scene set
		// where the file puts the character (sceneplace.go) are no
		// finding, but still acts of the text, for whether it follows
		// the character.
		if why == "away" && (d.backstory(m) || facts["location"] != "" && k.sceneIsAt(d, m, facts["location"])) {
			byEnt[e] = append(byEnt[e], d.sentenceAt(m.start))
			continue
		}
		if why != "dead" && k.followedInBook(e, d) {
			continue
		}
		// A letter from afar ("Mr. Gardiner added, in his letter"); an
		// away character's return, which ends the absence the file
		// declares ("Mr. Collins returned", "unless Mr. Darcy
		// returned"), or the departure that began it (近日林黛玉回去),
		// and the dead do not come back. Still an act of
		// the text, for whether it follows the character.
		if k.fromAfar(d, m) || why != "dead" && (k.returns(d, m) || k.departs(d, m)) {
			byEnt[e] = append(byEnt[e], d.sentenceAt(m.start))
			continue
		}
		msg := fmt.Sprintf("%s is %s as of chapter %d", e.e.Name, why, d.chapter)
		if loc := facts["location"]; loc != "" && why == "away" {
			msg = fmt.Sprintf("%s is away (%s) as of chapter %d", e.e.Name, loc, d.chapter)
		}
		msg += ", but " + how + " here"
		line, since := e.e.FactSource(sk, d.chapter)
		out = append(out, Finding{
			Type:       TypeState,
			Start:      m.start,
			End:        m.end,
			Message:    msg,
			Evidence:   Evidence{Path: e.e.Path, Resource: e.e.Resource, Key: sk, Value: facts[sk], Line: line, Since: since},
			Confidence: conf,
		})
		byEnt[e] = append(byEnt[e], d.sentenceAt(m.start))
	}
	return followed(out, byEnt, d)
}

// writingVerbs after a name make it the writer of a letter.
var writingVerbs = wordSet("wrote", "writes", "writing", "written")

// letterPhrases in the clause of a name tell what its owner says by
// letter ("Mr. Gardiner added, in his letter").
var letterPhrases = []string{"in his letter", "in her letter", "in their letter", "by letter", "by express"}

// cjkLetterWords in the clause of a name tell of its owner's letter
// (folded): 來信, 信上說.
var cjkLetterWords = []string{"来信", "寄来", "捎来", "信上", "信中", "信内", "书中说", "书上说"}

// fromAfar reports whether the text speaks of m's owner writing from
// afar: a writing verb after the name, or a letter told of in its
// clause. Someone holding or reading a letter is still in the scene.
func (k *Knowledge) fromAfar(d *doc, m mention) bool {
	clause := d.clauseAround(m.start, m.end)
	if m.firstWord < 0 {
		folded := string(k.foldRunes(clause))
		for _, w := range cjkLetterWords {
			if strings.Contains(folded, w) {
				return true
			}
		}
		return false
	}
	for j := m.lastWord + 1; j < len(d.words) && j <= m.lastWord+2 && sameClause(d, j-1, j); j++ {
		if writingVerbs[strings.ToLower(d.words[j].s)] {
			return true
		}
	}
	// "a letter from Nicholas": what he wrote, not he.
	before := strings.ToLower(d.text[max(0, m.start-16):m.start])
	if strings.HasSuffix(before, "letter from ") || strings.HasSuffix(before, "note from ") {
		return true
	}
	lc := strings.ToLower(clause)
	for _, p := range letterPhrases {
		if strings.Contains(lc, p) {
			return true
		}
	}
	return false
}

// returnVerbs after a name bring its owner back.
var returnVerbs = wordSet("returned", "returns", "arrived", "arrives")

// cjkReturns after a name bring its owner back (folded).
var cjkReturns = []string{"回来", "归来", "回家", "回府", "赶回", "回到", "回京", "到家"}

// returns reports whether m is the subject of a return (after at most
// one adverb): "Mr. Collins returned", "came back", "回來了".
func (k *Knowledge) returns(d *doc, m mention) bool {
	if m.firstWord < 0 {
		return k.cjkVerbAfter(d, m, cjkReturns)
	}
	for j := m.lastWord + 1; j < len(d.words) && j <= m.lastWord+2 && sameClause(d, j-1, j); j++ {
		w := strings.ToLower(d.words[j].s)
		if returnVerbs[w] {
			return true
		}
		if (w == "came" || w == "got" || w == "comes") && j+1 < len(d.words) {
			if nx := strings.ToLower(d.words[j+1].s); nx == "back" || nx == "home" {
				return true
			}
		}
		if !strings.HasSuffix(w, "ly") && w != "then" && w != "soon" && w != "now" {
			break
		}
	}
	return false
}

// cjkDepartures after a name take its owner away (folded): the going
// that an away status begins with, told in the chapter or recalled.
var cjkDepartures = []string{"回去", "回南", "回乡", "离了", "离开", "动身", "起身往", "起程", "启程", "辞去", "辞别"}

// departs reports whether m, a CJK name, is the subject of a departure
// (after at most one adverb): "近日林黛玉回去", "黛玉已動身".
func (k *Knowledge) departs(d *doc, m mention) bool {
	return m.firstWord < 0 && k.cjkVerbAfter(d, m, cjkDepartures)
}

// cjkVerbAfter reports whether one of verbs (folded) follows m, a CJK
// name, directly or after one adverb.
func (k *Knowledge) cjkVerbAfter(d *doc, m mention, verbs []string) bool {
	rs := k.foldRunes(d.text[m.end:min(len(d.text), m.end+12)])
	for n := 0; n < 2 && len(rs) > 0; n++ {
		for _, w := range verbs {
			if strings.HasPrefix(string(rs), w) {
				return true
			}
		}
		if !strings.ContainsRune(cjkAdverbs, rs[0]) {
			break
		}
		rs = rs[1:]
	}
	return false
}

// scenesFollowed is how many sentences of a text an away character must
// act in for the text to be taken as following them where they are.
const scenesFollowed = 2

// followed drops the state findings of a character who acts in several
// sentences of the text: a chapter that follows a character is set where
// they are (Nicholas with the army while he is away from home), which a
// location given in words ("the army in Austria") cannot show. A
// character put by mistake into a scene appears in it once or twice. The
// dead are never followed.
func followed(out []Finding, byEnt map[*entInfo][]int, d *doc) []Finding {
	drop := map[string]bool{}
	for e, sents := range byEnt {
		distinct := map[int]bool{}
		for _, s := range sents {
			distinct[s] = true
		}
		if len(distinct) >= scenesFollowed && !isDead(d.factsOf(e)) {
			drop[e.e.Path] = true
		}
	}
	if len(drop) == 0 {
		return out
	}
	kept := out[:0]
	for _, f := range out {
		if !drop[f.Evidence.Path] {
			kept = append(kept, f)
		}
	}
	return kept
}

// followedInBook reports whether the manuscript's own chapter d.chapter,
// of which d is a part, follows the away character e where d stands: e
// acts in scenesFollowed+1 sentences or more of the chapter within
// followSentences sentences of d (of the whole chapter when d cannot be
// found in it, as a text generated for the chapter cannot), or in some
// of those and scenesFollowed+1 of the whole chapter. A passage
// checked alone (a few paragraphs) cannot show that the chapter is set
// where e is, which followed judges for a whole chapter; a chapter that
// follows e in its second half does not put e into its first. When d is
// the chapter, or most of it, followed has judged already.
func (k *Knowledge) followedInBook(e *entInfo, d *doc) bool {
	b := k.book
	if b == nil || b.byNumber == nil {
		return false
	}
	text, ok := b.byNumber[d.chapter]
	if !ok || len(d.text) >= len(text)*3/4 {
		return false
	}
	b.mu.Lock()
	fc, ok := b.acting[d.chapter]
	b.mu.Unlock()
	if !ok {
		fc = &followedChapter{acts: map[*entInfo][]int{}}
		cd := k.analyze(text, d.chapter)
		for _, s := range cd.sents {
			fc.sentEnds = append(fc.sentEnds, s.end)
		}
		seen := map[*entInfo]map[int]bool{}
		for mi, m := range cd.mentions {
			if len(m.ents) != 1 || !m.ents[0].person || cd.inQuote(m.start) || cd.retold(m.start) {
				continue
			}
			if how, _ := k.acting(cd, mi, false); how == "" {
				continue
			}
			pe := m.ents[0]
			if seen[pe] == nil {
				seen[pe] = map[int]bool{}
			}
			if si := cd.sentenceAt(m.start); !seen[pe][si] {
				seen[pe][si] = true
				fc.acts[pe] = append(fc.acts[pe], si)
			}
		}
		b.mu.Lock()
		if b.acting == nil {
			b.acting = map[int]*followedChapter{}
		}
		b.acting[d.chapter] = fc
		b.mu.Unlock()
	}
	lo, hi := 0, len(fc.sentEnds)
	if at, ok := placeIn(text, d.text); ok {
		lo = fc.sentenceAt(at) - followSentences
		hi = fc.sentenceAt(at+len(d.text)) + followSentences
	}
	n := 0
	for _, si := range fc.acts[e] {
		if si >= lo && si <= hi {
			n++
		}
	}
	// Acting near the passage and often in the chapter is followed too
	// (a chapter that follows its heroine writes "she" more than her
	// name); not acting anywhere near it is a scene elsewhere.
	return n > scenesFollowed || n > 0 && len(fc.acts[e]) > scenesFollowed
}

// followedChapter is what followedInBook keeps of a chapter: the end of
// each sentence, and the sentences each person acts in.
type followedChapter struct {
	sentEnds []int
	acts     map[*entInfo][]int
}

func (fc *followedChapter) sentenceAt(p int) int {
	return sort.SearchInts(fc.sentEnds, p+1)
}

// followSentences is how far around a passage, in sentences, the chapter
// is read for the characters it follows: a scene or two, in either
// language.
const followSentences = 40

// placeIn finds where a passage of a chapter stands in it: the offset of
// its first or its last 90 bytes (a planted or edited word may change
// either end, rarely both).
func placeIn(chapter, passage string) (int, bool) {
	p := strings.TrimSpace(passage)
	const probe = 90
	if len(p) < 2*probe {
		if i := strings.Index(chapter, p); i >= 0 {
			return i, true
		}
		return 0, false
	}
	head := p[:probe]
	for !utf8.ValidString(head) {
		head = head[:len(head)-1]
	}
	if i := strings.Index(chapter, head); i >= 0 {
		return i, true
	}
	tail := p[len(p)-probe:]
	for !utf8.ValidString(tail) {
		tail = tail[1:]
	}
	if i := strings.Index(chapter, tail); i >= 0 {
		return max(0, i+len(tail)-len(p)), true
	}
	return 0, false
}

// isDead reports whether facts say the character has died.
func isDead(facts map[string]string) bool {
	sk := firstKey(facts, "state", "condition", "状态", "狀態", "presence", "status")
	why, absent := absence(strings.ToLower(strings.TrimSpace(facts[sk])))
	return absent && why == "dead"
}

// clauseAround returns the text around [start, end) within its sentence
// and clause (up to ";" or ":"), at most 100 bytes on either side. A span
// that runs past its sentence's end ("Margaret. Hale", one name across a
// full stop) is kept whole.
func (d *doc) clauseAround(start, end int) string {
	lo, hi := d.clauseBounds(start, end)
	return d.text[lo:hi]
}

// clauseBounds are the offsets of clauseAround's text.
func (d *doc) clauseBounds(start, end int) (int, int) {
	s := d.sents[d.sentenceAt(start)]
	lo, hi := max(s.start, start-100), max(end, min(s.end, end+100))
	lo = min(lo, start)
	if i := strings.LastIndexAny(d.text[lo:start], ";:"); i >= 0 {
		lo += i + 1
	}
	if i := strings.IndexAny(d.text[end:hi], ";:"); i >= 0 {
		hi = end + i
	}
	return lo, hi
}

// placeClause is the clause around m that may say where m's owner is:
// clauseAround, cut before a relative clause that belongs to another
// noun after m ("her cousin Colonel Fitzwilliam, and the lady with whom
// she lived in London": London is the lady's). A relative clause right
// after m (", who was in London,") is m's own and stays.
func (d *doc) placeClause(m mention) string {
	lo, hi := d.clauseBounds(m.start, m.end)
	if m.firstWord < 0 {
		return d.text[lo:hi]
	}
	for j := m.lastWord + 1; j < len(d.words) && d.words[j].start < hi; j++ {
		if !relativeWords[strings.ToLower(d.words[j].s)] {
			continue
		}
		// Another noun between m and the relative word.
		if j-m.lastWord >= 3 {
			hi = d.words[j].start
		}
		break
	}
	return d.text[lo:hi]
}

// sceneAt reports whether the paragraph before offset at, up to
// sceneReach bytes back, sets its scene at the Chinese place loc: it
// names loc or the end of it, of three characters or more (落伽山 of
// 南海普陀落伽山), the place's own name after the region's.
func (d *doc) sceneAt(at int, loc string) bool {
	lo := max(0, at-sceneReach)
	if i := strings.LastIndex(d.text[lo:at], "\n\n"); i >= 0 {
		lo += i
	}
	before := d.text[lo:at]
	rs := []rune(strings.TrimSpace(loc))
	for n := len(rs); n >= 3; n-- {
		if strings.Contains(before, string(rs[len(rs)-n:])) {
			return true
		}
	}
	return false
}

// narratedPlaceBefore reports whether the narration of m's paragraph,
// before m, names the declared location loc by any of its entity's names:
// "But why Mr. Darcy came so often to the Parsonage it was more difficult
// to understand. … Mrs. Collins knew not what to make of him" is set
// where Charlotte, away at Hunsford (the Parsonage), is.
func (d *doc) narratedPlaceBefore(m mention, loc string) bool {
	lo := max(0, m.start-sceneReach)
	if i := strings.LastIndex(d.text[lo:m.start], "\n\n"); i >= 0 {
		lo += i
	}
	for _, pm := range d.mentions {
		if pm.start < lo || pm.end > m.start || len(pm.ents) != 1 || pm.ents[0].person || d.inQuote(pm.start) {
			continue
		}
		e := pm.ents[0].e
		for _, n := range append([]string{e.Name}, e.Aliases...) {
			if strings.EqualFold(strings.TrimSpace(n), strings.TrimSpace(loc)) {
				return true
			}
		}
	}
	return false
}

// sceneReach is how far back sceneAt reads for where a scene is set.
const sceneReach = 600

// containsPlace reports whether sent names place (as a whole word for
// Latin text).
func containsPlace(sent, place string) bool {
	for _, p := range strings.Split(place, ",") {
		p = strings.TrimSpace(p)
		if p == "" {
			continue
		}
		for i := 0; ; {
			j := strings.Index(sent[i:], p)
			if j < 0 {
				break
			}
			if prose.HasCJK(p) || wordBoundary(sent, i+j, i+j+len(p)) {
				return true
			}
			i += j + len(p)
		}
	}
	return false
}

// acting says how mention mi makes its entity act in the scene ("" when
// it does not), with a confidence.
// For the dead (strict), being described ("was buried") and leading a
// sentence ("Frederick, when he was a boy,") are memories, not acts.
func (k *Knowledge) acting(d *doc, mi int, strict bool) (string, float64) {
	m := d.mentions[mi]
	if m.firstWord < 0 {
		return cjkActs(d, m)
	}
	// "Andrew Kaysárov": a one-word name with a surname the files do not
	// give it is a namesake.
	if m.firstWord == m.lastWord && m.lastWord+1 < len(d.words) && d.between(m.lastWord, m.lastWord+1) == " " {
		if nx := d.words[m.lastWord+1].s; unicode.IsUpper([]rune(nx)[0]) && !k.nameWords[nx] && !lexicon.IsOrdinary(nx) {
			return "", 0
		}
	}
	prev := prevWords(d, m.firstWord, 3)
	if namesSomething(d, m) {
		return "", 0
	}
	if !strict && turnedTo(d, m) {
		return "is in the scene", 0.7
	}
	if seenDoing(d, m) {
		return "is in the scene", 0.75
	}
	if sentFor(d, m) {
		return "is sent for", 0.7
	}
	// "heard the steps of Toll and Prince Andrew": the noun, not the
	// verb of report, takes the name (sceneroles.go).
	if heardOf(d, m) && !notInScene(d, m) {
		return "is in the scene", 0.7
	}
	if recalledEnglish(d, m) {
		return "", 0
	}
	if cleftSubject(d, m) || followedInto(d, m) || sharedSeat(d, m) || listSubject(d, m) || absoluteActs(d, m) || byCompanions(d, m) || withAside(d, m) {
		return "is in the scene", 0.7
	}
	if leftTo(d, m) || wouldNotLeave(d, m) || takenBy(d, m) || handedTo(d, m) || helpsDoing(d, m) || !strict && foundIn(d, m) || !strict && (placedBeside(d, m) || firstOut(d, m)) {
		return "is in the scene", 0.7
	}
	if inCompany(d, m) || askedToSit(d, m) || passedThing(d, m) || introducedTo(d, m) || askedToFace(d, m) || ledSomewhere(d, m) || amongThem(d, m) {
		return "is in the scene", 0.7
	}
	if sentWithin(d, m) {
		return "acts", 0.7
	}
	if how := sceneRole(d, m); how != "" {
		return how, 0.7
	}
	if len(prev) > 0 && notAgent[strings.ToLower(prev[0])] && !partOf(prev) {
		// "were surprised to find Mr. Wickham at his elbow": the
		// general reading of participation (participant.go) still
		// reads an object.
		if participant(d, m, strict) {
			return "takes part in the scene", 0.7
		}
		return "", 0
	}
	// "little Nicholas", "young Nicholas Bolkónski": a child named after
	// the character; "the Rostóv family": all of them, not one.
	for _, p := range prev[:min(2, len(prev))] {
		if lp := strings.ToLower(p); lp == "little" || lp == "young" {
			return "", 0
		}
		if r := p[0]; r < 'A' || r > 'Z' {
			break
		}
	}
	if next := m.lastWord + 1; next < len(d.words) && familyNouns[strings.ToLower(d.words[next].s)] && d.between(m.lastWord, next) == " " {
		return "", 0
	}
	if m.possessive {
		// "Wickham’s quick step was heard": a possessive with a noun of
		// presence within two words.
		j := m.lastWord + 1
		if j < len(d.words) && d.words[j].s == "s" {
			j++
		}
		for n := 0; n < 3 && j+n < len(d.words); n++ {
			if presenceNouns[strings.ToLower(d.words[j+n].s)] {
				return "is present", 0.75
			}
		}
		return "", 0
	}
	if len(prev) > 0 && speechVerbs[strings.ToLower(prev[0])] && d.between(m.firstWord-1, m.firstWord) == " " {
		// "asked Lydia to dance" is not speech: verbs that also take an
		// object count only right after a quotation.
		if !objectVerbs[strings.ToLower(prev[0])] || afterQuote(d, m.firstWord-1) {
			return "speaks", 0.9
		}
	}
	if len(prev) > 0 && strings.ToLower(prev[0]) == "by" && sameClause(d, m.firstWord-1, m.firstWord) {
		return "acts", 0.8
	}
	// “…,” interceded Prince Andrew: any verb in the past right after a
	// quotation attributes it.
	if len(prev) > 0 && d.between(m.firstWord-1, m.firstWord) == " " && afterQuote(d, m.firstWord-1) {
		if p := strings.ToLower(prev[0]); pastVerbs[p] || strings.HasSuffix(p, "ed") && len(p) > 4 {
			return "speaks", 0.85
		}
	}
	// "The countess was sitting with the old count": the companion of
	// someone sitting, playing or walking is there too.
	if len(prev) > 1 && strings.ToLower(prev[0]) == "with" {
		if p := strings.ToLower(prev[1]); companionVerbs[p] {
			return "is in the scene", 0.75
		}
		// "They had just been preparing to walk with Lydia": about to
		// go with them, not wishing to.
		if p4 := prevWords(d, m.firstWord, 4); len(p4) > 3 && companionBases[strings.ToLower(p4[1])] && strings.ToLower(p4[2]) == "to" && aboutTo[strings.ToLower(p4[3])] {
			return "is in the scene", 0.7
		}
	}
	if listedPresent(d, m) {
		return "is listed among those present", 0.75
	}
	if gazedAt(d, m) || invertedSubject(d, m) || pluralSubject(d, m) {
		return "is in the scene", 0.7
	}
	if how, ok := subjectOf(d, m, strict); ok {
		return how, 0.8
	}
	if coordinated(d, mi) {
		return "is in the scene", 0.7
	}
	if participant(d, m, strict) {
		return "takes part in the scene", 0.7
	}
	return "", 0
}

// companionVerbs before "with" put the person after it in the scene.
var companionVerbs = wordSet("sitting", "sat", "standing", "stood", "playing", "played", "walking", "walked", "talking", "talked",
	"dancing", "danced", "dining", "dined", "riding", "rode", "chatting", "chatted", "drinking", "supping", "breakfasting")

// companionBases are companionVerbs in the bare form, after "to".
var companionBases = wordSet("sit", "stand", "play", "walk", "talk", "dance", "dine", "ride", "chat", "drink", "sup", "breakfast")

// aboutTo before "to" and a verb make it the act being begun in the
// scene, not one wished for or planned (wished to, meant to, was to).
var aboutTo = wordSet("preparing", "prepared", "ready", "began", "begun", "beginning", "started", "starting", "sat", "stayed", "stopped")

// presenceLeads open a sentence that lists who is somewhere: "At that
// table were…", "Round her sat…", "There were…".
var presenceLeads = wordSet("at", "in", "around", "round", "beside", "near", "among", "there", "by")

// movingParticiples after the last item of a list put the whole list in
// motion in the scene: "Dron, Dunyásha, the nurse, and the old prince
// following her".
var movingParticiples = wordSet("following", "walking", "standing", "sitting", "coming", "riding", "running", "waiting", "bringing", "behind")

// listFollowing reports whether m is the last item of a list of three or
// more (", and" before it, two commas before that in its clause) that a
// participle of motion or position follows.
func listFollowing(d *doc, m mention) bool {
	if m.lastWord < 0 || m.lastWord+1 >= len(d.words) || d.between(m.lastWord, m.lastWord+1) != " " ||
		!movingParticiples[strings.ToLower(d.words[m.lastWord+1].s)] {
		return false
	}
	before := d.text[:m.start]
	for _, art := range []string{"the ", "old ", "young "} {
		before = strings.TrimSuffix(before, art)
	}
	before = strings.TrimSuffix(before, "the ")
	if !strings.HasSuffix(before, ", and ") {
		return false
	}
	clause := before[:len(before)-len(", and ")]
	if i := strings.LastIndexAny(clause, ";:.!?“”\"\n"); i >= 0 {
		clause = clause[i+1:]
	}
	return strings.Count(clause, ",") >= 2
}

// listedPresent reports whether m is an item of the list of those present
// that a sentence such as "At that table were his mother, …, Sónya,
// Pétya, Natásha" gives: the sentence opens with a place or "there",
// then "were" (or "sat", "stood"), then items separated by commas.
func listedPresent(d *doc, m mention) bool {
	if listFollowing(d, m) {
		return true
	}
	sent := d.sents[d.sentenceAt(m.start)]
	after := d.text[m.end:max(m.end, sent.end)] // a name may run past its sentence's end
	if !strings.HasPrefix(after, ",") && !strings.HasPrefix(after, " and ") && !strings.HasPrefix(after, ".") {
		return false
	}
	verb := -1
	for j := m.firstWord - 1; j >= 0 && d.words[j].start >= sent.start; j-- {
		if strings.ContainsAny(d.between(j, j+1), ";:“”\"") {
			return false
		}
		switch strings.ToLower(d.words[j].s) {
		case "were", "sat", "stood":
			verb = j
		}
		if verb >= 0 {
			break
		}
	}
	if verb < 1 || !strings.Contains(d.between(verb, m.firstWord), ",") {
		return false
	}
	first := 0
	for first < len(d.words) && d.words[first].start < sent.start {
		first++
	}
	return first < verb && presenceLeads[strings.ToLower(d.words[first].s)]
}

// gazedAt reports whether m is the object of a verb that needs its
// object in the scene, alone or after "and" ("slowly regarded his
// sister and Pierre").
func gazedAt(d *doc, m mention) bool {
	prev := prevWords(d, m.firstWord, 5)
	if len(prev) > 0 && gazeVerbs[strings.ToLower(prev[0])] {
		return true
	}

	if len(prev) < 2 || strings.ToLower(prev[0]) != "and" {
		return false
	}
	for _, w := range prev[1:] {
		lw := strings.ToLower(w)
		if gazeVerbs[lw] {
			return true
		}
		if lw != "his" && lw != "her" && lw != "their" && lw != "the" && !familyTerms[lw] {
			return false
		}
	}
	return false
}

// turnedTo reports whether m is addressed by a turn, a bow or a smile:
// "turned to Prince Andrew", "smiled at Natásha". It is no evidence
// against the dead, whose names the living children bear (little Andrew
// of the epilogue, beckoned to).
func turnedTo(d *doc, m mention) bool {
	prev := prevWords(d, m.firstWord, 2)
	// "turned to Natásha’s mother": the mother, not Natásha.
	if len(prev) < 2 || m.possessive {
		return false
	}
	p := strings.ToLower(prev[0])
	return (p == "to" || p == "at") && turnVerbs[strings.ToLower(prev[1])]
}

// turnVerbs before "to" or "at" address someone in the scene.
var turnVerbs = wordSet("turned", "bowed", "nodded", "whispered", "smiled", "glanced", "winked", "beckoned", "looked", "curtsied", "curtseyed", "waved",
	"said", "spoke", "replied", "murmured", "talked", "chatted",
	// "Turning to Lydia, she said…".
	"turning", "bowing", "nodding", "whispering", "smiling", "glancing", "winking", "beckoning", "looking", "waving", "speaking", "talking", "chatting",
	// The gesture named as a noun: "with a nod to Mr. Bingley", "a
	// bow to Natásha", "a glance at Pierre".
	"nod", "bow", "smile", "glance", "wink", "wave", "whisper", "curtsy", "curtsey")

// invertedLeads open a sentence whose subject follows its verb: "Beside
// her sat Prince Andrew", "Among the guests was Pierre".
var invertedLeads = wordSet("then", "beside", "among", "behind", "opposite", "near", "next", "around", "round", "before", "between",
	"in", "out", "up", "down", "back", "forward", "at")

// invertedVerbs stand between such a lead and the subject.
var invertedVerbs = wordSet("sat", "stood", "was", "were", "lay", "came", "walked", "rode", "knelt",
	"ran", "rushed", "hurried", "stepped", "strode", "burst", "marched", "galloped")

// invertedSubject reports whether m is the subject after its verb in a
// sentence opened by a place beside the speaker's people (not a town: a
// sentence that names the away character's own place is judged by the
// location check).
func invertedSubject(d *doc, m mention) bool {
	i := m.firstWord - 1
	if i < 1 || !invertedVerbs[strings.ToLower(d.words[i].s)] || d.between(i, m.firstWord) != " " {
		return false
	}
	sent := d.sents[d.sentenceAt(m.start)]
	first := i
	for first > 0 && d.words[first-1].start >= sent.start {
		first--
	}
	if i-first > 7 || !invertedLeads[strings.ToLower(d.words[first].s)] {
		return false
	}
	return !strings.ContainsAny(d.text[d.words[first].start:d.words[i].start], ";:“”\"")
}

// familyTerms may stand with a possessive between a gaze verb and "and".
var familyTerms = wordSet("sister", "brother", "wife", "husband", "mother", "father", "son", "daughter", "aunt", "uncle", "cousin", "niece", "nephew", "friend", "guest", "guests")

// partOf matches "on the part of X".
func partOf(prev []string) bool {
	return len(prev) >= 2 && strings.ToLower(prev[0]) == "of" && strings.ToLower(prev[1]) == "part"
}

// prevWords returns up to n words before word i, nearest first, stopping
// at a sentence or clause break.
func prevWords(d *doc, i, n int) []string {
	var out []string
	for j := i - 1; j >= 0 && len(out) < n; j-- {
		gap := d.between(j, j+1)
		if strings.ContainsAny(gap, ".!?;:“”\"\n") {
			break
		}
		out = append(out, d.words[j].s)
	}
	return out
}

func sameClause(d *doc, i, j int) bool {
	return !strings.ContainsAny(d.between(i, j), ".!?;:“”\"\n")
}

// subjectOf reports whether mention m is the subject of a verb: followed
// by a finite verb, or standing first in its sentence (after a
// conjunction or two) with the verb later.
func subjectOf(d *doc, m mention, strict bool) (string, bool) {
	j := m.lastWord + 1
	if j >= len(d.words) {
		return "", false
	}
	gap := d.between(m.lastWord, j)
	// Skip one adverb: "Lydia then went", "Lydia, however, came".
	next := strings.ToLower(d.words[j].s)
	if habitual[next] {
		return "", false
	}
	if (strings.HasSuffix(next, "ly") || next == "then" || next == "now" || next == "soon" || next == "however") && j+1 < len(d.words) && !strings.ContainsAny(d.between(j, j+1), ".!?;:") {
		j++
		gap += d.between(j-1, j)
		next = strings.ToLower(d.words[j].s)
	}
	if strings.ContainsAny(gap, ".!?;:“”\"\n") {
		return "", false
	}
	// "Karatáev, the Russian soldier the Frenchman had pushed away, was
	// sitting": an appositive between the name and its verb.
	if strings.TrimSpace(gap) == "," && (next == "the" || next == "a" || next == "an") {
		for n := j; n+1 < len(d.words) && n < j+15; n++ {
			b := d.between(n, n+1)
			if strings.ContainsAny(b, ".!?;:“”\"\n") {
				break
			}
			if strings.TrimSpace(b) == "," {
				j, gap, next = n+1, " ", strings.ToLower(d.words[n+1].s)
				break
			}
		}
	}
	plain := strings.TrimSpace(gap) == ""
	// "Lydia, laughing, ran to the window"; "Pierre, sitting at the foot
	// of the bed, looked up": a participle's phrase between commas, then
	// a verb.
	// "Mr. Bennet, from the foot of the table, drily begged her": a
	// phrase of place between commas, then the verb.
	// "Lydia, with a loud laugh, declared": a phrase of manner.
	if strings.TrimSpace(gap) == "," && (placePrepositions[next] || next == "with" || next == "without") && d.opensLatinClause(m) {
		for n := j + 1; n+1 < len(d.words) && n < j+10; n++ {
			b := d.between(n, n+1)
			if strings.ContainsAny(b, ".!?;:“”\"\n") {
				break
			}
			if strings.TrimSpace(b) == "," {
				v := strings.ToLower(d.words[n+1].s)
				if strings.HasSuffix(v, "ly") && n+2 < len(d.words) && d.between(n+1, n+2) == " " {
					v = strings.ToLower(d.words[n+2].s)
				}
				if pastVerbs[v] || strings.HasSuffix(v, "ed") && len(v) > 4 {
					return "acts", true
				}
				break
			}
		}
	}
	// "The little princess, who sat by the samovar with her work, kept
	// glancing": a relative clause of the sentence's subject says what
	// she does there.
	if strings.TrimSpace(gap) == "," && next == "who" && j+1 < len(d.words) && d.between(j, j+1) == " " && d.opensSentence(m) {
		if v := strings.ToLower(d.words[j+1].s); pastVerbs[v] {
			return "acts", true
		}
	}
	// "Pétya, his face flushed, ran to the door": a phrase of his own
	// between commas (an absolute) before the verb.
	if strings.TrimSpace(gap) == "," && (next == "his" || next == "her" || next == "their") && d.opensLatinClause(m) {
		if v, ok := verbAfterRelative(d, j); ok {
			return v, true
		}
	}
	// "Mr. Bingley, who had ridden over from Netherfield on hearing of
	// their return, was talking to Mr. Bennet": the verb after a
	// relative clause is the subject's, when the subject opens its
	// clause.
	if strings.TrimSpace(gap) == "," && relativeWords[next] && d.opensLatinClause(m) {
		if v, ok := verbAfterRelative(d, j); ok {
			return v, true
		}
	}
	if strings.TrimSpace(gap) == "," && strings.HasSuffix(next, "ing") && len(next) > 5 && !notActing[next] {
		if j+1 < len(d.words) && strings.TrimSpace(d.between(j, j+1)) == "," {
			return "acts", true
		}
		for n := j + 1; n+1 < len(d.words) && n < j+10; n++ {
			b := d.between(n, n+1)
			if strings.ContainsAny(b, ".!?;:“”\"\n") {
				break
			}
			if strings.TrimSpace(b) == "," {
				if v := strings.ToLower(d.words[n+1].s); pastVerbs[v] || strings.HasSuffix(v, "ed") && len(v) > 4 {
					return "acts", true
				}
				break
			}
		}
	}
	if plain {
		if beForms[next] {
			// "was sitting": the progressive is an action, of the dead
			// too.
			if j+1 < len(d.words) && sameClause(d, j, j+1) {
				if w := strings.ToLower(d.words[j+1].s); strings.HasSuffix(w, "ing") && len(w) > 5 && !notActing[w] && d.between(j, j+1) == " " {
					return "acts", true
				}
			}
			if strict {
				return "", false
			}
			if j+1 < len(d.words) && sameClause(d, j, j+1) && !elsewhere[strings.ToLower(d.words[j+1].s)] {
				return "is in the scene", true
			}
			// "Prince Andrew was there too, and sat opposite them": the
			// next verb of the same subject is an act.
			if andActs(d, j+1) {
				return "acts", true
			}
			return "", false
		}
		// "Mr. Bingley did not look perfectly calm": a bearing not
		// shown is still shown in the scene; "did not come" is not.
		if (next == "did" || next == "does") && j+2 < len(d.words) && strings.ToLower(d.words[j+1].s) == "not" &&
			sameClause(d, j, j+2) && bearingVerbs[strings.ToLower(d.words[j+2].s)] {
			return "acts", true
		}
		// "Pétya had just come in": a perfect of the moment before.
		if next == "had" && j+2 < len(d.words) && sameClause(d, j, j+2) && strings.ToLower(d.words[j+1].s) == "just" && justDone[strings.ToLower(d.words[j+2].s)] {
			return "acts", true
		}
		// "Lydia too was there": one more of those present.
		if (next == "too" || next == "also") && j+2 < len(d.words) && sameClause(d, j, j+2) && strings.ToLower(d.words[j+1].s) == "was" {
			if p := strings.ToLower(d.words[j+2].s); (p == "there" || p == "present") && !strict {
				return "is in the scene", true
			}
		}
		// "Pétya left the room": who leaves a room was in it.
		if next == "left" && j+2 < len(d.words) && d.between(j, j+1) == " " && strings.ToLower(d.words[j+1].s) == "the" && roomNouns[strings.ToLower(d.words[j+2].s)] {
			return "acts", true
		}
		// "Mr. Wickham left them": leaving someone is being with them.
		if next == "left" && j+1 < len(d.words) && d.between(j, j+1) == " " && leftPersons[strings.ToLower(d.words[j+1].s)] {
			return "acts", true
		}
		if notActing[next] {
			return "", false
		}
		if pastVerbs[next] || (strings.HasSuffix(next, "ed") && len(next) > 4) {
			// "went away", "set off": leaving the scene.
			if j+1 < len(d.words) && departing[strings.ToLower(d.words[j+1].s)] {
				return "", false
			}
			return "acts", true
		}
	}
	if strict {
		return "", false
	}
	// First in its sentence: "But Mr. Bennet, though he assured her…".
	start := d.sents[d.sentenceAt(m.start)].start
	lead := d.text[start:m.start]
	for _, w := range prose.LatinWords(lead) {
		if !leadWords[strings.ToLower(w)] {
			return "", false
		}
	}
	if strings.ContainsAny(lead, "“”\"") {
		return "", false
	}
	// The verb comes after a clause: "But Mr. Bennet, though he assured
	// her…".
	if strings.TrimSpace(gap) == "," && subordinators[next] {
		return "acts", true
	}
	return "", false
}

// justDone after "had just" are what someone did on the spot a moment
// before: "had just come in".
var justDone = wordSet("come", "entered", "walked", "stepped", "sat", "joined", "risen", "got", "taken", "finished", "said", "run", "climbed")

// bearingVerbs after "did not" still show the subject in the scene.
var bearingVerbs = wordSet("look", "seem", "speak", "answer", "reply", "smile", "laugh", "move", "stir", "listen", "wait", "sit", "rise", "notice")

// leftPersons after "left" are the people left, in whose company the
// subject was.
var leftPersons = wordSet("them", "us", "him", "her", "me", "you")

// perceptionVerbs take what is seen and then what it is doing: "she saw
// the old prince walking", "found Jane seated".
var perceptionVerbs = wordSet("saw", "found", "beheld", "noticed", "perceived", "watched", "observed", "espied", "discovered", "sees", "finds")

// postures after a seen name say the name's owner is there.
var postures = wordSet("seated", "standing", "sitting", "lying", "stretched", "bent", "kneeling", "waiting", "alone", "already", "still",
	"come", "go", "enter", "leave", "walk", "run", "stand", "sit", "rise", "cross")

// seenDoing reports whether m is what a verb of perception takes, with
// what it is doing after it: "There he found the little princess bending
// over the cradle". Seeing a name alone ("saw Jane's letter", "saw Jane
// in the spring") says nothing of where its owner is now.
func seenDoing(d *doc, m mention) bool {
	i, j := m.firstWord-1, m.lastWord+1
	if i < 0 || j >= len(d.words) || !perceptionVerbs[strings.ToLower(d.words[i].s)] || d.between(i, m.firstWord) != " " || m.possessive {
		return false
	}
	if !sameClause(d, m.lastWord, j) || strings.TrimSpace(d.between(m.lastWord, j)) != "" {
		return false
	}
	w := d.words[j].s
	return postures[w] || len(w) > 5 && strings.HasSuffix(w, "ing") && unicode.IsLower([]rune(w)[0])
}

// pluralSubject reports whether m is one of a plural subject whose verb
// places them all: "as he, Mr. Darcy and the females of the family were
// sitting together". The name follows a comma or "and" (or opens the
// clause), and from it to "were" and a participle stand only names,
// "and", articles, possessives and nouns of people.
func pluralSubject(d *doc, m mention) bool {
	if m.possessive || m.firstWord < 1 {
		return false
	}
	if g := strings.TrimSpace(d.between(m.firstWord-1, m.firstWord)); g != "," && strings.ToLower(d.words[m.firstWord-1].s) != "and" {
		return false
	}
	joined := false
	for j := m.lastWord + 1; j < len(d.words) && j <= m.lastWord+8 && sameClause(d, j-1, j); j++ {
		w := d.words[j].s
		lw := strings.ToLower(w)
		if lw == "were" {
			if !joined || j+1 >= len(d.words) || !sameClause(d, j, j+1) {
				return false
			}
			nx := d.words[j+1].s
			return len(nx) > 4 && strings.HasSuffix(nx, "ing") || nx == "seated" || nx == "assembled" || nx == "gathered" || nx == "all"
		}
		switch {
		case lw == "and":
			joined = true
		case subjectFiller[lw], unicode.IsUpper([]rune(w)[0]):
		default:
			return false
		}
	}
	return false
}

// subjectFiller are the words a plural subject of people may hold
// besides names and "and".
var subjectFiller = wordSet("the", "of", "his", "her", "their", "a", "an", "two", "both", "family", "ladies", "females", "gentlemen",
	"party", "rest", "others", "children", "girls", "sisters", "brothers", "daughters", "sons", "wife", "husband", "mother", "father", "guests")

// gazeVerbs take as object someone in the scene: "regarded his sister
// and Pierre", "kissed Natásha".
var gazeVerbs = wordSet("regarded", "eyed", "watched", "embraced", "kissed", "greeted", "hugged", "addressed", "scrutinized", "surveyed")

// andActs reports whether, from word i on in the sentence, ", and" or
// "and" is followed by a verb in the past, with no other subject between
// (a pronoun or a capitalised word would start another clause's).
func andActs(d *doc, i int) bool {
	for n := i; n+1 < len(d.words) && n < i+8; n++ {
		if strings.ContainsAny(d.between(n, n+1), ".!?;:“”\"\n") {
			return false
		}
		w := strings.ToLower(d.words[n].s)
		if w != "and" {
			continue
		}
		v := strings.ToLower(d.words[n+1].s)
		return pastVerbs[v] || strings.HasSuffix(v, "ed") && len(v) > 4
	}
	return false
}

// habitual adverbs make a summary of what someone used to do, not a scene.
var habitual = wordSet("occasionally", "often", "frequently", "sometimes", "always", "seldom", "usually", "rarely", "never", "generally")

var departing = wordSet("away", "off", "abroad", "home")

// opensSentence reports whether m stands first in its sentence, after
// lead words at most ("But Mr. Bennet, …"): the sentence's subject, not
// an apposition ("to see him, Prince Andrew, in that square").
func (d *doc) opensSentence(m mention) bool {
	if m.firstWord < 0 {
		return false
	}
	sent := d.sents[d.sentenceAt(m.start)]
	if strings.ContainsAny(d.text[sent.start:m.start], ",;:“”\"") {
		return false
	}
	for _, w := range prose.LatinWords(d.text[sent.start:m.start]) {
		if !leadWords[strings.ToLower(w)] {
			return false
		}
	}
	return true
}

// relativeWords open a relative clause set between commas after a name.
var relativeWords = wordSet("who", "whom", "whose", "which")

// opensLatinClause reports whether m opens its clause: first in its
// sentence, or after a semicolon, a colon, a dash or a comma and a
// conjunction, lead words at most before it ("; Mr. Bingley, who…, was
// talking").
func (d *doc) opensLatinClause(m mention) bool {
	if m.firstWord < 0 {
		return false
	}
	sent := d.sents[d.sentenceAt(m.start)]
	lead := d.text[sent.start:m.start]
	if i := strings.LastIndexAny(lead, ";:—–"); i >= 0 {
		lead = lead[i+1:]
	}
	// ", and Lydia, who…": a clause joined by a conjunction.
	if i := strings.LastIndex(lead, ","); i >= 0 {
		ws := prose.LatinWords(lead[i+1:])
		if len(ws) == 0 || !clauseJoiners[strings.ToLower(ws[0])] {
			return false
		}
		lead = lead[i+1:]
	}
	if strings.ContainsAny(lead, "“”\"(") {
		return false
	}
	// "Kitty and Lydia, who…": one of a subject of names.
	for _, w := range prose.LatinWords(lead) {
		if lw := strings.ToLower(w); !leadWords[lw] && !unicode0Upper(w) && lw != "and" {
			return false
		}
	}
	return true
}

// clauseJoiners open a clause after a comma: ", and Lydia, who…".
var clauseJoiners = wordSet("and", "but", "while", "whilst", "yet", "when")

// maxRelativeWords is the longest relative clause, in words, that
// verbAfterRelative reads over.
const maxRelativeWords = 25

// verbAfterRelative reads, from the relative word at word j, to the
// comma that closes the clause and returns how the word after it makes
// the name before the clause act: a verb in the past (not of leaving or
// writing), or a progressive.
func verbAfterRelative(d *doc, j int) (string, bool) {
	for n := j; n+1 < len(d.words) && n < j+maxRelativeWords; n++ {
		b := d.between(n, n+1)
		if strings.ContainsAny(b, ".!?;:“”\"\n()") {
			return "", false
		}
		if strings.TrimSpace(b) != "," {
			continue
		}
		k := n + 1
		v := strings.ToLower(d.words[k].s)
		if strings.HasSuffix(v, "ly") && k+1 < len(d.words) && d.between(k, k+1) == " " {
			k++
			v = strings.ToLower(d.words[k].s)
		}
		nx := ""
		if k+1 < len(d.words) && d.between(k, k+1) == " " {
			nx = strings.ToLower(d.words[k+1].s)
		}
		if beForms[v] {
			if len(nx) > 5 && strings.HasSuffix(nx, "ing") && !notActing[nx] {
				return "acts", true
			}
			return "", false
		}
		if notActing[v] || departing[nx] {
			return "", false
		}
		if pastVerbs[v] || strings.HasSuffix(v, "ed") && len(v) > 4 {
			return "acts", true
		}
		return "", false
	}
	return "", false
}

// placePrepositions open a phrase of where someone is, set between
// commas after their name.
var placePrepositions = wordSet("from", "at", "across", "near", "beside", "behind", "by", "on", "in")

// subordinators open a clause between a subject and its verb.
var subordinators = wordSet("though", "although", "when", "after", "having", "while", "whilst", "who", "on", "upon", "before", "as")

// coordinated reports whether mention mi is joined by "and" or a comma to
// a mention of a present character in the same clause: "Mrs. Bennet and
// Lydia", "Elizabeth, Wickham, and Darcy".
func coordinated(d *doc, mi int) bool {
	m := d.mentions[mi]
	for _, ni := range []int{mi - 1, mi + 1} {
		if ni < 0 || ni >= len(d.mentions) {
			continue
		}
		n := d.mentions[ni]
		var gap string
		if ni < mi {
			gap = d.text[n.end:m.start]
		} else {
			gap = d.text[m.end:n.start]
		}
		g := strings.TrimSpace(gap)
		if g != "and" && g != "," && g != ", and" && g != "和" && g != "、" && g != "与" && g != "與" {
			continue
		}
		if len(n.ents) != 1 || !n.ents[0].person {
			continue
		}
		if _, absent := absence(strings.ToLower(d.factsOf(n.ents[0])["status"])); absent {
			continue
		}
		// The group must be a subject (a verb follows) or the people "on
		// whose part" something is felt.
		first := min(m.firstWord, n.firstWord)
		last := max(m.lastWord, n.lastWord)
		if first < 0 {
			return true
		}
		// What stands before the whole list says what it is ("on the
		// part of Mrs. Bennet and Kitty and Lydia").
		if prev := prevWords(d, listHead(d, min(mi, ni)), 3); partOf(prev) || len(prev) > 0 && strings.ToLower(prev[0]) == "by" {
			// "joined by Mary and Mr. Bennet": the agents of a passive.
			return true
		}
		if last+1 < len(d.words) && sameClause(d, last, last+1) && strings.TrimSpace(d.between(last, last+1)) == "" {
			nx := strings.ToLower(d.words[last+1].s)
			if nx == "were" || pastVerbs[nx] || (strings.HasSuffix(nx, "ed") && len(nx) > 4) {
				return true
			}
		}
	}
	return false
}

// cjkActs: a CJK name followed (after at most two adverbs) by a verb of
// speech or motion.
func cjkActs(d *doc, m mention) (string, float64) {
	// "寶玉記得黛玉說過": a clause of memory or talk; "自賈璉送黛玉往揚州
	// 去后": what someone did since when the scene opens.
	if d.recalledBefore(m.start) || d.cjkSinceClause(m) {
		return "", 0
	}
	rest := d.text[m.end:]
	// "只見虎力大仙走上殿來": the narrator shows someone acting.
	for _, w := range []string{"只見", "只见", "忽見", "忽见", "但見", "但见"} {
		if !strings.HasSuffix(d.text[:m.start], w) {
			continue
		}
		if actsNext(rest) {
			return "acts", 0.75
		}
		// "只見行者在旁袖手看著", "忽見金角大王從亭後轉將出來".
		for _, b := range cjkBeside {
			if strings.HasPrefix(rest, b) {
				return "is in the scene", 0.75
			}
		}
		if how, conf := verbAfter(rest); how != "" {
			return how, conf
		}
	}
	// "忽見秦氏和襲人招手叫他": whom the narrator shows is there, alone
	// or first of a list, whatever they do; not whose thing is shown
	// (只見晴雯的丫頭) nor one shown dead or laid out.
	if shown := d.listStart(m); narratorShows(d.text[:shown.start]) && !diesNext(rest) && !funeralNear(rest) {
		if r, _ := utf8.DecodeRuneInString(rest); r != '的' && r != '之' {
			return "is in the scene", 0.7
		}
	}
	// "轉手遞與牛魔王": whom something is handed to is at hand.
	for _, w := range []string{"遞與", "遞給", "遞给", "递与", "递给", "遞到", "递到"} {
		if strings.HasSuffix(d.text[:m.start], w) {
			return "is in the scene", 0.7
		}
	}
	// "旁邊立著虎力大仙": someone standing or sitting there.
	for _, w := range []string{"立著", "站著", "坐著", "跪著", "立着", "站着", "坐着", "跪着", "侍立", "陪著", "陪着"} {
		if strings.HasSuffix(d.text[:m.start], w) {
			return "is in the scene", 0.7
		}
	}
	// "虎力大仙等三人一齊上前": one named for a group that acts.
	for _, g := range []string{"等人", "等"} {
		if r, ok := strings.CutPrefix(rest, g); ok {
			for _, n := range []string{"二人", "三人", "四人", "兩人", "两人", "眾人", "众人"} {
				r = strings.TrimPrefix(r, n)
			}
			if actsNext(r) {
				return "acts", 0.7
			}
			break
		}
	}
	// "見是襲人和晴雯": whom one sees arrive, alone or in a list.
	first := d.listStart(m)
	for _, w := range []string{"見是", "见是"} {
		if strings.HasSuffix(d.text[:first.start], w) {
			return "is in the scene", 0.7
		}
	}
	prev, size := utf8.DecodeLastRuneInString(d.text[:m.start])
	// "又見那善財童子上前": the marker stands before the demonstrative.
	if strings.ContainsRune("那這这", prev) {
		if pp, _ := utf8.DecodeLastRuneInString(d.text[:m.start-size]); strings.ContainsRune(cjkObjectMarkers, pp) {
			return "", 0
		}
	}
	// "那妖魔同白骨夫人進了銀安殿", "和黛玉說話": a companion of someone
	// acting is in the scene.
	// "同晴雯搶白了寶玉": or does something to someone with them.
	if strings.ContainsRune(cjkCompanions, prev) && (companionDoes(d.text[d.afterList(m.end):]) || d.actsOnPerson(d.afterList(m.end)) || comitative(d.text[:m.start-size], d.text[d.afterList(m.end):])) {
		return "is in the scene", 0.7
	}
	// "同皇后嬪妃、虎力大仙、兩班文武，送出朝門": one of a list joined
	// by 、 after a companion word, the other items any nouns, with
	// someone acting after the list.
	if first, last, ok := d.cjkSeriesAround(m); ok {
		p, _ := utf8.DecodeLastRuneInString(d.text[:first])
		if strings.ContainsRune(cjkCompanions, p) && actsNext(strings.TrimPrefix(d.text[last:], "，")) {
			return "is in the scene", 0.7
		}
		// "虎力大仙、鹿力大仙等也隨在後面": a list that opens its clause,
		// closed by a group word, then a verb.
		// "黛玉、寶釵都笑了": any group word closes it.
		if c, _, ok := listCloser(d.text[last:]); ok && opensClause(d.text[:first]) && d.afterGroupTail(last+len(c)) {
			return "is listed among those present", 0.75
		}
		// "喚聚諸佛、阿羅、…、齊天大聖、比丘僧尼等眾": those called
		// together are there.
		if gathered(d.text[:first], d.text[first:]) {
			return "is listed among those present", 0.75
		}
	}
	// "見紅孩兒也在洞裏": someone seen where they are.
	if d.cjkSeenAt(m) || d.cjkBesideName(m) || d.cjkSeenActing(m) || d.cjkAddressed(m) || d.cjkHandHeld(m) {
		return "is in the scene", 0.7
	}
	// "拉了秦鐘走開", "眾人都看著黛玉", "讓鴛鴦，琥珀，金釧，平儿去坐":
	// taken along, looked at, asked to sit.
	if d.cjkTaken(m) || d.cjkTold(m) || d.cjkBound(m) || d.cjkGazedAt(m) || d.cjkInvited(m) || d.cjkMet(m) || d.cjkGoesWith(m) || d.cjkTended(m) {
		return "is in the scene", 0.7
	}
	if d.cjkListSubject(m) {
		return "is listed among those present", 0.75
	}
	if d.cjkAppositive(m) {
		return "acts", 0.7
	}
	if how := sceneRole(d, m); how != "" {
		return how, 0.7
	}
	// "寶琴和林黛玉几個": 和 ends a list of those there, not an object's
	// marker.
	if strings.ContainsRune(cjkCompanions, prev) && d.cjkCommaList(m) {
		return "is listed among those present", 0.75
	}
	// "看晴雯去", "因凤姐去世": the name is an object, or its owner dies.
	if strings.ContainsRune(cjkObjectMarkers, prev) {
		return "", 0
	}
	// "尤二姐倒也在座": one or two adverbs may come between.
	besideRest := rest
	for n := 0; n < 2; n++ {
		if r, size := utf8.DecodeRuneInString(besideRest); strings.ContainsRune(cjkBesideAdverbs, r) {
			besideRest = besideRest[size:]
		}
	}
	for _, w := range cjkBeside {
		if strings.HasPrefix(besideRest, w) {
			return "is in the scene", 0.75
		}
	}
	if d.cjkListed(m) || d.cjkCommaList(m) || d.cjkLooseList(m) {
		return "is listed among those present", 0.75
	}
	// "秦鐘和眾清客都道", "賈母和王夫人提起": the first of two joined
	// subjects acts with the second.
	if r, size := utf8.DecodeRuneInString(rest); strings.ContainsRune(cjkCompanions, r) {
		// "孫悟空同秦叔寶、徐茂公等，將著一個龍頭": a list closed by 等
		// may be set off from its verb by a comma.
		after, ok := d.companionAfter(m.end + size)
		if ok {
			after = d.afterList(after)
		} else {
			after, ok = groupEnd(d.text, m.end+size)
		}
		if ok {
			after = groupComma(d.text, after)
			if actsNext(d.text[after:]) || d.actsOnPerson(after) {
				return "acts", 0.7
			}
		}
	}
	for _, w := range []string{"去世", "死", "亡", "逝", "歿", "殁", "之死", "的死"} {
		if strings.HasPrefix(rest, w) {
			return "", 0
		}
	}
	if funeralNear(rest) {
		return "", 0
	}
	// "說著，奎木狼也掣出刀來": a name that opens its clause, then an
	// adverb of sequence, is the subject of the verb after it, whatever
	// the verb; not of a copula, a negation or a modal (晴雯也是個好的).
	if opensClause(d.text[:m.start]) {
		if r, size := utf8.DecodeRuneInString(rest); strings.ContainsRune(cjkSequence, r) {
			if nx, _ := utf8.DecodeRuneInString(rest[size:]); prose.IsCJK(nx) && !strings.ContainsRune(cjkNotAVerb, nx) {
				return "acts", 0.7
			}
		}
	}
	// "黛玉向寶玉說：", "黛玉對紫鵑笑道": the speaker turned to someone.
	if r, size := utf8.DecodeRuneInString(rest); strings.ContainsRune("向對对", r) {
		at := m.end + size
		if p, ok := d.personStartingAt(at); ok && p.start == at {
			at = p.end
		} else if n := pronounAt(d.text[at:]); n > 0 {
			at += n
		} else {
			at = -1
		}
		if at > 0 {
			if how, conf := verbAfter(d.text[at:]); how == "speaks" {
				return how, conf
			}
		}
	}
	return verbAfter(rest)
}

// cjkShowWords are the narrator's "one sees": what follows is on the spot.
var cjkShowWords = []string{"只見", "只见", "忽見", "忽见", "但見", "但见", "又見", "又见", "卻見", "却见", "見是", "见是"}

// narratorShows reports whether before ends with one of cjkShowWords.
func narratorShows(before string) bool {
	for _, w := range cjkShowWords {
		if strings.HasSuffix(before, w) {
			return true
		}
	}
	return false
}

// pronounAt returns the length of the personal pronoun or group word
// text opens with, 0 when none.
func pronounAt(text string) int {
	for _, p := range []string{"眾人", "众人", "大家", "他們", "他们", "她們", "她们", "他", "她", "我", "你"} {
		if strings.HasPrefix(text, p) {
			return len(p)
		}
	}
	return 0
}

// funeralNear reports whether the six characters after a name tell of
// its owner's funeral or coffin, not the person: "贾母一早出殡", "扶了賈
// 母靈柩".
func funeralNear(rest string) bool {
	near := runePrefix(rest, 6)
	for _, w := range []string{"出殡", "出殯", "入殓", "入殮", "发引", "發引", "下葬", "灵柩", "靈柩", "棺", "丧", "喪", "灵", "靈"} {
		if strings.Contains(near, w) {
			return true
		}
	}
	return false
}

// cjkSequence are adverbs of sequence (也掣出, 便走, 忙問): after a name
// that opens its clause, a verb follows.
const cjkSequence = "也便就忙遂又卻却即亦"

// cjkNotAVerb after an adverb of sequence make what follows a state, a
// negation or an intention, not an act in the scene.
const cjkNotAVerb = "是有曾已不沒没可該该在的未無无要會会能應应須须還还甚極极最很"

// opensClause reports whether before (the text up to a name) ends where a
// clause opens: at the start, after punctuation or a space, or after
// 說著 / 只見 and their like.
func opensClause(before string) bool {
	before = strings.TrimRight(before, " \t")
	if before == "" {
		return true
	}
	for _, w := range []string{"說著", "说着", "說畢", "说毕", "然後", "然后", "隨後", "随后", "一時", "一时"} {
		if strings.HasSuffix(before, w) {
			return true
		}
	}
	r, _ := utf8.DecodeLastRuneInString(before)
	return unicode.IsPunct(r) || unicode.IsSpace(r)
}

// verbAfter reads what follows a name for a verb it is the subject of:
// after at most two adverbs, a verb of speech, motion or handling; a
// move from a place (也從洞裏跑出來); a verb after where they are (在屋里
// 說); a step forward.
func verbAfter(rest string) (string, float64) {
	// "冷笑道：「…」": a tag of speech with its manner.
	if speechTag(rest) {
		return "speaks", 0.85
	}
	// "笑吟吟的道：「…」", "悄悄的拉了寶玉一把": a manner by doubling.
	if r := skipManner(rest); r != rest {
		if after, ok := strings.CutPrefix(r, "道"); ok && (strings.HasPrefix(after, "：") || strings.HasPrefix(after, "「") || strings.HasPrefix(after, "“")) {
			return "speaks", 0.85
		}
		rest = r
	}
	// "黛玉手里拿著一本書": what a hand or a mouth does is the owner's.
	for _, w := range cjkBodyPlaces {
		if r, ok := strings.CutPrefix(rest, w); ok && actsNext(r) {
			return "acts", 0.7
		}
	}
	rest = skipDegree(rest)
	for n := 0; n < 3 && rest != ""; n++ {
		if stepsForward(rest) || actingWord(rest) {
			return "acts", 0.75
		}
		// After an adverb: "虎力大仙也在席上相陪".
		for _, w := range cjkBeside {
			if n > 0 && strings.HasPrefix(rest, w) {
				return "is in the scene", 0.75
			}
		}
		r, size := utf8.DecodeRuneInString(rest)
		// "也從洞裏跑出來": a place of a move, then the move.
		if strings.ContainsRune(cjkFrom, r) {
			if movesAfterPlace(rest[size:]) {
				return "acts", 0.7
			}
			return "", 0
		}
		// "正在垂淚": doing something now.
		if progressive(rest) {
			return "acts", 0.7
		}
		// "在屋里說", "在庵裏聽見": where they are, then what they do.
		if r == '在' {
			if end := spotEnd(rest[size:]); end > 0 && actsNext(rest[size+end:]) {
				return "acts", 0.7
			}
			return "", 0
		}
		if strings.ContainsRune(cjkActing, r) && !strings.ContainsRune(cjkAdverbs, r) {
			// "黛玉送来的东西": a relative clause about what they once did;
			// not after a disposal marker, whose object 的 describes
			// (晴雯早把他的書匣子收拾好了).
			if !strings.ContainsRune("把將将", r) && strings.ContainsRune(runePrefix(rest[size:], 3), '的') {
				return "", 0
			}
			if strings.ContainsRune("道说說问問答骂罵", r) || strings.HasPrefix(rest[size:], "道") {
				return "speaks", 0.85
			}
			return "acts", 0.75
		}
		if !strings.ContainsRune(cjkAdverbs, r) || unicode.IsSpace(r) {
			return "", 0
		}
		rest = rest[size:]
	}
	return "", 0
}

// cjkBodyPlaces after a name say where in or on its owner something is
// done: 手里拿著, 口內說, 眼中流淚.
var cjkBodyPlaces = []string{"手里", "手裏", "手中", "手內", "手内", "口中", "口內", "口内", "口裏", "口里", "眼中", "眼裏", "眼里"}

// runePrefix is the first n characters of s (all of s when shorter),
// counted as a conversion to []rune counts them, without converting the
// rest of a chapter.
func runePrefix(s string, n int) string {
	i := 0
	for ; n > 0 && i < len(s); n-- {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return s[:i]
}

// cjkSinceClause reports whether m opens a clause of time past, after
// 自 or 自從 and closed by 後 or 以來 before the clause ends: "自賈璉送黛
// 玉往揚州去后，", "自從寶玉搬進園來以後". What the name does there is
// what happened before the scene, as in "since he left".
func (d *doc) cjkSinceClause(m mention) bool {
	before := d.text[:m.start]
	if !strings.HasSuffix(before, "自") && !strings.HasSuffix(before, "自從") && !strings.HasSuffix(before, "自从") {
		return false
	}
	rest := d.text[m.end:]
	if i := strings.IndexAny(rest, "，,。；;！？!?：:「」“”\n"); i >= 0 {
		rest = rest[:i]
	}
	for _, w := range []string{"後", "后", "以來", "以来"} {
		if strings.HasSuffix(rest, w) {
			return true
		}
	}
	return false
}
