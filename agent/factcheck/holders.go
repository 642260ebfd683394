package factcheck

import (
	"slices"
	"sort"
	"strings"
	"unicode/utf8"
)

// Holders: whose a fact is when the clause that states it does not name
// them. The checkers compare a stated value with the facts of a named
// holder; a pronoun, a demonstrative or an introduction that names its
// person later leaves them without one. This file resolves such a holder
// only where the text leaves a single reading, and refuses everywhere
// else (a wrong holder is a false finding; no holder is at worst a miss).
//
// Resolved:
//
//   - Chinese forward naming: 他/她 (or an introduction 有一個…的，)
//     opening its clause, whose person the text names right after with a
//     naming word opening a clause of the same or the next sentence, in
//     the same quotation or narration (他是牛魔王的兒子，…。乳名叫做紅孩兒;
//     外有一個帶發修行的，本是蘇州人氏，…，法名妙玉). A sentence between the
//     two must open with the same pronoun.
//   - Chinese conversation topic: 他/她 opening a clause inside a
//     quotation, when the quotations of the last four sentences name one
//     declared person only, a short question asked about them (雨村老先生是
//     貴本家不是？, 襲人怎么不見？, 悟空何在？), and the narration there does not
//     name them (not a speaker, not in the scene): 馮紫英道：“雨村老先生是貴本家
//     不是？”…賈政道：“說也話長．他原籍是…”.
//   - Chinese first person: a sentence of a quotation that opens with the
//     speaker's word for themself (貧僧, 小弟, 老拙, 俺…) is said of the
//     speaker (唐僧道：「貧僧俗名陳玄奘，原籍…」), as 我 shortly before a
//     value is (cjkSpeaker).
//   - English pronoun in a sentence that names one person of its gender,
//     before the pronoun and once at least not as a possessor ("Despite
//     Count Bezúkhov’s wealth, since he had come into an income of…,
//     Pierre felt").
//   - English demonstrative description opening a sentence ("This
//     black-eyed girl of eleven, …"): the one declared person of that
//     gender named in its paragraph and the paragraphs on either side.
//
// Refused: a Chinese 他 in narration that no naming follows (the old
// novels write 他 of men and women alike, and the last named person is
// often not the one meant: 紅樓夢 ch. 37); 他們, 他的, 他家, 他父親, 他媽
// (the value is a relative's); a pronoun after a speech verb's subject
// (他道是…); a pronoun whose sentence names someone before it; a naming
// after someone else is brought in (姓…, 一個…); a conversation that names
// two people, or someone undeclared (名喚陳清), or whose topic speaks or is
// in the scene, or whose answer first speaks of someone else (那公主，…。
// 他本是…), or whose last question asks about 你 or 我; a first person
// followed by someone else (你, 他, 貧僧的徒弟, 老拙有個舍弟); an English
// pronoun whose sentence names two people of its gender, or whose
// possessor is followed by an undeclared relation ("Darcy’s cousin … he"),
// or with no name before it ("He gave Pierre…").

// reference is a span of text that stands for a declared entity without
// naming it: a resolved pronoun or introduction.
type reference struct {
	start, end int
	ent        *entInfo
}

// cjkNamingWords name the person a clause is about (both scripts,
// longest first): 乳名叫做紅孩兒, 法名妙玉, 名喚英蓮.
var cjkNamingWords = []string{"名字叫做", "名字唤做", "名字喚做", "乳名叫做", "乳名唤做", "乳名喚做", "法名叫做", "小名叫做",
	"名字叫", "名唤做", "名喚做", "乳名", "法名", "小名", "学名", "學名", "名唤", "名喚", "名叫"}

// notHolderAfter are the characters after 他/她 (folded) that make it
// no holder: a plural (他們, 他兩個, 他三人) or possessive, a relative or a
// servant of theirs (他父親, 他媽, 他丫頭), their household, a speech verb.
const notHolderAfter = "们的家两二三四几俩众等父母爹娘妈哥姐弟妹兄叔伯舅姑姨嫂儿女子妻夫师徒主老丫奶太婆媳孙侄道说问笑叫"

// clauseOpeners end the clause before a Chinese clause.
const clauseOpeners = "，。．！？；：「」『』“”\"\n"

// references returns the resolved Chinese references of d, in order,
// computed once.
func (k *Knowledge) references(d *doc) []reference {
	if d.refsDone {
		return d.refs
	}
	d.refsDone = true
	if !d.cjk {
		return nil
	}
	eff := k.effMentions(d)
	rs := d.frunes
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		start, end := -1, -1
		switch {
		case r == '他' || r == '她':
			// 他們, 他的, 他家, 他父親, 他媽: not one person, or not the
			// holder of what follows; 他道, 他說: the speaker, whom a
			// naming later in the speech is not.
			if i+1 < len(rs) && strings.ContainsRune(notHolderAfter, rs[i+1]) {
				continue
			}
			if i > 0 && !strings.ContainsRune(clauseOpeners, rs[i-1]) {
				continue
			}
			start, end = i, i+1
		case r == '一' && i+1 < len(rs) && strings.ContainsRune("个位", rs[i+1]):
			// 有一個帶發修行的，: an introduction, ended by 的 and a comma
			// within eight characters.
			j := i + 2
			for j < len(rs) && j-i <= 10 && rs[j] != '的' && !strings.ContainsRune(clauseOpeners, rs[j]) {
				j++
			}
			if j+1 >= len(rs) || rs[j] != '的' || rs[j+1] != '，' || i == 0 || !strings.ContainsRune("有是", rs[i-1]) {
				continue
			}
			start, end = i, j+1
		default:
			continue
		}
		e := k.namedAfter(d, eff, d.roff[start], d.roff[end])
		if e == nil && (r == '他' || r == '她') {
			e = k.conversationTopic(d, eff, d.roff[start])
		}
		if e != nil {
			d.refs = append(d.refs, reference{d.roff[start], d.roff[end], e})
		}
		i = end - 1
	}
	return d.refs
}

// namedAfter is the person a naming word opening a clause names after the
// reference [start, end), in the same quotation or the same narration: in
// its sentence, or the next, or the one after that when the next opens
// with the same pronoun. Nil when the reference's sentence names someone
// before it, or someone else is brought in before the naming (姓…).
func (k *Knowledge) namedAfter(d *doc, eff []effMention, start, end int) *entInfo {
	si := d.sentenceAt(start)
	q := d.quoteAt(start)
	pron := d.text[start:end]
	// A name before the reference in its sentence may be whom it means
	// (我那大徒弟姓豬，名悟能八戒，他生得長嘴獠牙…).
	for _, m := range eff {
		if m.start >= d.sents[si].start && m.end <= start && m.ent.person && d.quoteAt(m.start) == q {
			return nil
		}
	}
	last := si
	for s := si + 1; s <= si+2 && s < len(d.sents); s++ {
		last = s
		if !strings.HasPrefix(strings.TrimLeft(d.text[d.sents[s].start:], " \n"), pron) {
			break
		}
	}
	if last >= len(d.sents) {
		last = len(d.sents) - 1
	}
	limit := d.sents[last].end
	mi := sort.Search(len(eff), func(i int) bool { return eff[i].start >= end })
	for ; mi < len(eff) && eff[mi].start < limit; mi++ {
		m := eff[mi]
		if d.quoteAt(m.start) != q {
			continue
		}
		lead := d.text[end:m.start]
		// Someone else introduced in between (第二個徒弟姓沙，…, 這位珍爺
		// 倒生了一個兒子，…，名叫賈蓉): the naming may be theirs.
		// 他還有一女，…，乳名寶釵: 有一 brings someone in however it counts them.
		if strings.Contains(lead, "姓") || strings.Contains(lead, "一個") || strings.Contains(lead, "一个") || strings.Contains(lead, "一位") || strings.Contains(lead, "有一") {
			return nil
		}
		named := endingOf(lead, cjkNamingWords)
		if named == "" {
			continue
		}
		before := strings.TrimSuffix(lead, named)
		if r, _ := utf8.DecodeLastRuneInString(before); before != "" && !strings.ContainsRune(clauseOpeners, r) {
			continue
		}
		// The sentence between must go on about the same person.
		if d.sentenceAt(m.start) > si+1 && !strings.HasPrefix(strings.TrimLeft(d.text[d.sents[si+1].start:], " \n"), pron) {
			return nil
		}
		if !m.ent.person || m.possessive {
			return nil
		}
		return m.ent
	}
	return nil
}

// topicWindow is how many sentences back the conversation topic is read.
const topicWindow = 4

// conversationTopic is the one declared person the quotations of the
// last few sentences name, for a pronoun at p inside a quotation, when a
// question asked about them; nil in narration, when they name two people
// or none, when the narration names them too (in the scene), when that
// person is the speaker of p's quotation, or when p's own sentence names
// anyone before p.
func (k *Knowledge) conversationTopic(d *doc, eff []effMention, p int) *entInfo {
	if !d.inQuote(p) {
		return nil
	}
	si := d.sentenceAt(p)
	from := d.sents[max(0, si-topicWindow)].start
	var only *entInfo
	var present []*entInfo
	asked := false
	for _, m := range eff {
		if m.start < from {
			continue
		}
		if m.start >= p {
			break
		}
		if !m.ent.person {
			continue
		}
		if m.start >= d.sents[si].start && d.quoteAt(m.start) == d.quoteAt(p) {
			// 鴛鴦再不這樣，他娘儿兩個…: a name in the pronoun's own
			// sentence may be set against it as well as meant.
			return nil
		}
		if !d.inQuote(m.start) {
			// Named in the narration, they are in the scene: 他 in the
			// talk is rather someone away (迎春道：…寶釵道：“他住的是紫菱洲，
			// 就叫他`菱洲'，四丫頭在藕香榭…”).
			present = append(present, m.ent)
			continue
		}
		if m.possessive && !m.relational {
			return nil // a possessor may be the topic's relative
		}
		if only != nil && only != m.ent {
			return nil
		}
		only = m.ent
		asked = asked || d.askedAbout(m)
	}
	if !asked {
		return nil
	}
	if only == nil || slices.Contains(present, only) {
		return nil
	}
	if sp := k.quoteSpeaker(d, eff, p); sp == only {
		return nil
	}
	if !d.quoteLeadClear(p) || d.lastQuestionAsksOther(from, p) {
		return nil
	}
	// The speaker who names themself (老拙叫做陳澄。…他今年…) is not whom
	// 他 means.
	qi := sort.Search(len(d.quoted), func(i int) bool { return d.quoted[i].end > p })
	if k.selfNamed(d, eff, d.quoted[qi]) == only {
		return nil
	}
	// Someone named in the window whom no file declares (這個是我舍弟，名喚
	// 陳清) may be whom 他 means.
	if k.namesUndeclared(d, eff, from, p) {
		return nil
	}
	return only
}

// namesUndeclared reports whether a naming word in [from, to) is followed
// by no declared name: a person the entity files do not know.
func (k *Knowledge) namesUndeclared(d *doc, eff []effMention, from, to int) bool {
	seg := d.text[from:to]
	for _, w := range append(cjkNamingWords, selfNaming...) {
		for i := 0; ; {
			j := strings.Index(seg[i:], w)
			if j < 0 {
				break
			}
			at := from + i + j + len(w)
			i += j + len(w)
			for _, v := range []string{"叫做", "喚做", "唤做", "是", ""} {
				if strings.HasPrefix(d.text[at:], v) {
					at += len(v)
					break
				}
			}
			declared := false
			for _, m := range eff {
				if m.start == at {
					declared = true
					break
				}
			}
			if !declared {
				return true
			}
		}
	}
	return false
}

// quoteSpeaker is the person named right before the speech verb that
// opens the quotation holding p (賈政道：“…”), or nil.
func (k *Knowledge) quoteSpeaker(d *doc, eff []effMention, p int) *entInfo {
	qi := sort.Search(len(d.quoted), func(i int) bool { return d.quoted[i].end > p })
	if qi >= len(d.quoted) {
		return nil
	}
	before := strings.TrimRight(d.text[:d.quoted[qi].start], " ：:，,\n")
	for i := len(eff) - 1; i >= 0; i-- {
		m := eff[i]
		if m.end > len(before) {
			continue
		}
		if utf8.RuneCountInString(before[m.end:]) > 8 {
			return nil
		}
		return m.ent
	}
	return nil
}

// refBefore is the entity of a resolved reference that ends before p in
// its sentence, on the same side of any quotation mark, within maxBytes,
// with no person named between it and p.
func (k *Knowledge) refBefore(d *doc, eff []effMention, p, maxBytes int) *entInfo {
	refs := k.references(d)
	for i := len(refs) - 1; i >= 0; i-- {
		r := refs[i]
		if r.end > p {
			continue
		}
		if p-r.end > maxBytes || d.sentenceAt(r.start) != d.sentenceAt(p) || d.inQuote(r.start) != d.inQuote(p) {
			return nil
		}
		for _, m := range eff {
			if m.start >= r.end && m.end <= p && m.ent.person {
				return nil
			}
		}
		return r.ent
	}
	return nil
}

// relationWords follow a possessive to speak of a relative ("Darcy’s
// cousin"); declared or not, the relative may be whom a pronoun means.
var relationWords = wordSet("friend", "sister", "brother", "father", "mother", "wife", "husband", "cousin", "aunt", "uncle",
	"daughter", "son", "nephew", "niece", "guardian", "ward", "patroness", "heir", "tenant", "owner", "servant", "valet",
	"maid", "steward", "master", "mistress", "companion", "lover", "betrothed", "fiancé", "child", "children", "sons",
	"daughters", "sisters", "brothers", "parents", "family", "man", "woman", "bride", "groom", "colleague", "adjutant", "second")

// onlyOfGender is the entity every person mention of gender g in the
// sentence around p names, on p's side of any quotation mark, when one of
// them comes before the pronoun at p (an antecedent: "He gave Pierre…"
// is not Pierre's) and one is no possessive ("By Elizabeth’s
// instructions, she began…" is Georgiana). Nil when they name two or
// none, or a possessive among them is followed by a relation noun its
// entity files do not resolve.
func (k *Knowledge) onlyOfGender(d *doc, eff []effMention, p int, g byte) *entInfo {
	if g == 0 {
		return nil
	}
	sent := d.sents[d.sentenceAt(p)]
	q := d.inQuote(p)
	var only *entInfo
	before, named := false, false
	for _, m := range eff {
		if m.start < sent.start || m.end > sent.end || !m.ent.person || d.inQuote(m.start) != q || d.comparedWith(m.start) {
			continue
		}
		if m.possessive && !m.relational {
			j := d.wordAt(m.end)
			if j < len(d.words) && d.words[j].s == "s" {
				j++
			}
			for n := 0; n < 3 && j+n < len(d.words) && (n == 0 || sameClause(d, j, j+n)); n++ {
				if relationWords[strings.ToLower(d.words[j+n].s)] {
					return nil
				}
			}
		}
		if m.ent.gender != g {
			if m.ent.gender == 0 {
				return nil // of no known gender: it may be the one meant
			}
			continue
		}
		if only != nil && only != m.ent {
			return nil
		}
		only = m.ent
		if m.start < p {
			before = true
		}
		if !m.possessive || m.relational {
			named = true
		}
	}
	if !before || !named {
		return nil
	}
	return only
}

// demonstrativeHolder is the one declared person of gender g that the
// paragraph at p and the paragraphs on either side of it name, or nil.
func (k *Knowledge) demonstrativeHolder(d *doc, eff []effMention, p int, g byte) *entInfo {
	if g == 0 {
		return nil
	}
	return onlyPersonAround(d, eff, p, g, nil)
}

// onlyPersonAround is the one person of gender g, other than except,
// that the paragraph at byte offset p and the paragraphs on either side
// of it name; nil when they name none, several, or one of unknown gender.
func onlyPersonAround(d *doc, eff []effMention, p int, g byte, except *entInfo) *entInfo {
	from, to := paragraphsAround(d.text, p)
	return onlyPersonIn(eff, from, to, g, except)
}

// onlyPersonIn is the one person of gender g, other than except, named
// between byte offsets from and to; nil when none, several, or one of
// unknown gender is named there.
func onlyPersonIn(eff []effMention, from, to int, g byte, except *entInfo) *entInfo {
	var only *entInfo
	for _, m := range eff {
		if m.start < from || m.end > to || !m.ent.person || m.ent == except {
			continue
		}
		if m.ent.gender != g {
			if m.ent.gender == 0 {
				return nil
			}
			continue
		}
		if only != nil && only != m.ent {
			return nil
		}
		only = m.ent
	}
	return only
}

// demonstrativeNoun reports whether the noun at word i is the head of a
// description opening its sentence with "This" or "That" and at most four
// adjectives between ("This black-eyed, wide-mouthed girl").
func demonstrativeNoun(d *doc, i int) bool {
	j := i - 1
	for j >= 0 && j >= i-8 && sameClause(d, j, j+1) {
		w := strings.ToLower(d.words[j].s)
		if w == "this" || w == "that" {
			break
		}
		if w == "a" || w == "an" || w == "the" || w == "of" || w == "and" && j > 0 && d.between(j-1, j) != ", " {
			return false
		}
		j--
	}
	if j < 0 || j < i-8 {
		return false
	}
	if w := d.words[j].s; w != "This" && w != "That" {
		return false
	}
	// The sentence's first word, after any opening quote or line break.
	return strings.TrimLeft(d.text[d.sents[d.sentenceAt(d.words[j].start)].start:d.words[j].start], " \n\r“\"‘'") == ""
}

// paragraphsAround returns the byte span of the paragraph holding p with
// the non-blank paragraph before and the one after it.
func paragraphsAround(text string, p int) (int, int) {
	from := p
	for n := 0; n < 2 && from > 0; n++ {
		from = strings.LastIndex(strings.TrimRight(text[:from], "\n\r \t"), "\n") + 1
	}
	to := p
	for n := 0; n < 2 && to < len(text); n++ {
		rest := text[to:]
		i := strings.IndexByte(rest, '\n')
		if i < 0 {
			return from, len(text)
		}
		// Past the line break and any blank lines after it.
		j := i + len(rest[i:]) - len(strings.TrimLeft(rest[i:], "\n\r \t"))
		if n == 1 {
			j = i
		}
		to += j
	}
	return from, to
}

// selfWords are how a Chinese speaker says "I", humble forms included.
var selfWords = []string{"贫僧", "貧僧", "小弟", "老孙", "老孫", "老拙", "老身", "老汉", "老漢", "小人", "在下", "弟子", "奴家", "妾身", "晚生", "小生", "小的", "俺", "吾", "我"}

// opensWithSelf reports whether the sentence of quotation q that holds p
// opens with a speaker's word for themself and brings no one else in
// before p (你, 他, 她, a relative, 有個…): what it says up to p, it says
// of the speaker.
func (d *doc) opensWithSelf(q span, p int) bool {
	if p <= q.start || p > q.end {
		return false
	}
	open := q.start
	if _, size := utf8.DecodeRuneInString(d.text[open:]); size > 0 {
		open += size
	}
	if i := strings.LastIndexAny(d.text[open:p], "。！？．；"); i >= 0 {
		open += i
		_, size := utf8.DecodeRuneInString(d.text[open:])
		open += size
	}
	lead := d.text[open:p]
	if strings.ContainsAny(lead, "你他她汝") {
		return false
	}
	for _, w := range selfWords {
		if rest, ok := strings.CutPrefix(lead, w); ok {
			// 貧僧的徒弟, 老拙有個舍弟: someone else comes in, whose the
			// value may be.
			return !strings.ContainsAny(rest, "的之有父母兄弟姐妹兒儿子女妻夫師师徒舅姑叔伯嫂侄姪")
		}
	}
	return false
}

// askedAbout reports whether mention m is what a short question asks
// about: the subject opening a question of at most maxAsk characters that
// says neither 你 nor 我 (雨村老先生是貴本家不是？, 襲人怎么不見？), or a
// name with 呢 (賈政呢？). "唐太宗差你往西天見佛，誰教你…？" asks about 你.
func (d *doc) askedAbout(m effMention) bool {
	q, ok := d.questionAt(m.start)
	if !ok {
		return false
	}
	if strings.HasPrefix(d.text[m.end:], "呢") {
		return true
	}
	return strings.HasPrefix(q, d.text[m.start:m.end]) && utf8.RuneCountInString(q) <= maxAsk && !strings.ContainsAny(q, "你我您汝")
}

// maxAsk is the length of a question that asks about one person.
const maxAsk = 14

// questionAt returns the text of the question holding p, from the
// quotation mark or the sentence's start: ok is false when p's sentence
// does not end in a question mark.
func (d *doc) questionAt(p int) (string, bool) {
	s := d.sents[d.sentenceAt(p)]
	sent := strings.TrimRight(d.text[s.start:s.end], "”」』\"' \n")
	if !strings.HasSuffix(sent, "？") && !strings.HasSuffix(sent, "?") {
		return "", false
	}
	if i := strings.LastIndexAny(sent[:min(p-s.start, len(sent))], "“「『\""); i >= 0 {
		_, size := utf8.DecodeRuneInString(sent[i:])
		sent = sent[i+size:]
	}
	return strings.TrimSpace(sent), true
}

// lastQuestionAsksOther reports whether the latest question in the
// sentences [from, p) asks about the speaker or the listener (你怎麼與他
// 說來？): then 他 in the answer is someone that question brought in.
func (d *doc) lastQuestionAsksOther(from, p int) bool {
	for si := d.sentenceAt(p) - 1; si >= 0 && d.sents[si].start >= from; si-- {
		q, ok := d.questionAt(d.sents[si].end - 1)
		if !ok {
			continue
		}
		return strings.HasPrefix(q, "你") || strings.HasPrefix(q, "我") || strings.HasPrefix(q, "您") || strings.ContainsRune(q, '他')
	}
	return false
}

// quoteAt is 1 + the index of the quotation holding p, 0 in narration.
func (d *doc) quoteAt(p int) int {
	i := sort.Search(len(d.quoted), func(i int) bool { return d.quoted[i].end > p })
	if i < len(d.quoted) && d.quoted[i].start <= p {
		return i + 1
	}
	return 0
}

// quoteLeadClear reports whether the quotation holding p says nothing
// before p's sentence that could give 他 another subject: each sentence
// before it asks a question, is short (說也話長．), or has the speaker or
// the listener for subject (我…, 你…). "那寶象國王公主，非凡人也。他本是…"
// fails: 他 is that princess.
func (d *doc) quoteLeadClear(p int) bool {
	qi := d.quoteAt(p)
	if qi == 0 {
		return false
	}
	q := d.quoted[qi-1]
	si := d.sentenceAt(p)
	for s := d.sentenceAt(q.start); s < si; s++ {
		from, to := max(d.sents[s].start, q.start), min(d.sents[s].end, q.end)
		if from >= to {
			continue
		}
		sent := d.text[from:to]
		if i := strings.IndexAny(sent, "“「『\""); i >= 0 && from == q.start {
			_, size := utf8.DecodeRuneInString(sent[i:])
			sent = sent[i+size:]
		}
		sent = strings.TrimSpace(sent)
		switch {
		case strings.HasSuffix(strings.TrimRight(sent, "”」』\""), "？"), utf8.RuneCountInString(sent) <= 6:
		case strings.HasPrefix(sent, "我") || strings.HasPrefix(sent, "你") || strings.HasPrefix(sent, "俺") || strings.HasPrefix(sent, "咱"):
		default:
			return false
		}
	}
	// In p's own sentence, a demonstrative subject before it (那公主，他…).
	lead := d.text[max(d.sents[si].start, q.start):p]
	return !strings.ContainsAny(lead, "那這这")
}

// personPronouns are the Chinese words for a person that stand for a
// subject without naming it.
const personPronouns = "他她我你汝吾俺您咱"

// introducers bring a new person into a Chinese sentence (有一個…,
// 生得一女, 膝下只有一位公子).
var introducers = []string{"一位", "一個", "一个", "一女", "一子", "一兒", "一儿", "一男", "有一", "生了", "生得"}

// namedInNextClause is the person a naming clause later in p's sentence
// names, when the value at p stands in a clause with no subject of its
// own and everything from the sentence's start to the naming names no one
// (還有一女，今年十七歲，乳名寶釵; 今年才十八歲，法名妙玉): a Chinese
// sentence leaves its subject out until it names it. The naming must open
// one of the next three clauses, in the same quotation or narration, with
// a declared person's name right after the naming word. Nil when a person
// is named (other than one compared with: 比薛蟠大兩歲) or a pronoun
// stands anywhere before the naming, when someone is brought in between
// the value and the naming (年已六十，膝下只有一位公子，名喚…), or the
// naming names no declared person.
func (k *Knowledge) namedInNextClause(d *doc, eff []effMention, p int) *entInfo {
	s := d.sents[d.sentenceAt(p)]
	from, to := s.start, s.end
	if qi := d.quoteAt(p); qi > 0 {
		from, to = max(from, d.quoted[qi-1].start), min(to, d.quoted[qi-1].end)
	} else if i := strings.LastIndexAny(d.text[from:p], "”」』\""); i >= 0 {
		from += i + 1 // narration after a quotation in the same sentence
	}
	namesNoOne := func(a, b int) bool {
		if strings.ContainsAny(d.text[a:b], personPronouns) {
			return false
		}
		for _, m := range eff {
			if m.start >= a && m.end <= b && m.ent.person && !d.comparedWith(m.start) {
				return false
			}
		}
		return true
	}
	pos := p
	for n := 0; n < 3; n++ {
		i := strings.IndexAny(d.text[pos:to], "，；,;")
		if i < 0 {
			return nil
		}
		_, size := utf8.DecodeRuneInString(d.text[pos+i:])
		if !namesNoOne(from, pos+i) {
			return nil
		}
		// 年已六十，膝下只有一位公子，名喚…; 嫡妻賈氏，生得一女，乳名…:
		// someone brought in after the value is whom the naming names.
		for _, w := range introducers {
			if strings.Contains(d.text[p:pos+i], w) {
				return nil
			}
		}
		pos += i + size
		for _, w := range cjkNamingWords {
			if !strings.HasPrefix(d.text[pos:], w) {
				continue
			}
			at := pos + len(w)
			for _, m := range eff {
				if m.start == at && m.ent.person && !m.possessive {
					return m.ent
				}
			}
			return nil
		}
	}
	return nil
}
