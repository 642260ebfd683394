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
//   - Chinese forward naming: 他/她 (or an introduction 一個…的) opening
//     its clause, whose person the text names right after with a naming
//     word opening a clause of the same or the next sentence (他是牛魔王的
//     兒子，…。乳名叫做紅孩兒; 外有一個帶發修行的，本是蘇州人氏，…，法名妙玉).
//     Between the two, the next sentence must go on about the same person
//     (open with the pronoun, or be the naming sentence itself).
//   - Chinese conversation topic: 他/她 opening a clause inside a
//     quotation, when the quotations of the last few sentences talk about
//     one declared person only, whom the narration there does not name
//     (not a speaker, not in the scene) (馮紫英道：“雨村老先生是貴本家不是？”
//     …賈政道：“說也話長．他原籍是…”).
//   - English pronoun in a sentence that names one person of its gender:
//     every mention of that gender in the sentence, possessive or not, is
//     the same entity ("Despite Count Bezúkhov’s wealth, since he had come
//     into an income of…, Pierre felt").
//   - English demonstrative description opening a sentence ("This
//     black-eyed girl of eleven, …"): the one declared person of that
//     gender named in its paragraph and the paragraphs on either side.
//
// Refused: a Chinese 他 in narration (the old novels write 他 of men and
// women alike, and the last named person is often not the one meant:
// 紅樓夢 ch. 37), 他們, 他的 and 他家; a pronoun whose candidates are two
// people or more; a possessive followed by an undeclared relation ("Darcy’s
// cousin … he"), whose pronoun may be the relative; a candidate who is the
// speaker of the quotation; a naming word more than one sentence away
// unless the sentence between opens with the same pronoun.

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
			// 他們, 他的, 他家: not one person, or not the holder; 他道,
			// 他說: the speaker, whom a naming later in the speech is not.
			if i+1 < len(rs) && strings.ContainsRune("们們的家道说說问問笑叫", rs[i+1]) {
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
// reference [start, end): in its sentence, or the next, or the one after
// that when the next opens with the same pronoun.
func (k *Knowledge) namedAfter(d *doc, eff []effMention, start, end int) *entInfo {
	si := d.sentenceAt(start)
	q := d.inQuote(start)
	pron := d.text[start:end]
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
		if d.inQuote(m.start) != q {
			continue
		}
		lead := d.text[end:m.start]
		named := ""
		for _, w := range cjkNamingWords {
			if strings.HasSuffix(lead, w) {
				named = w
				break
			}
		}
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
const topicWindow = 6

// conversationTopic is the one declared person the quotations of the
// last few sentences name, for a pronoun at p inside a quotation; nil in
// narration, when they name two people or none, or when that person is
// the speaker of p's quotation or named before p in its clause.
func (k *Knowledge) conversationTopic(d *doc, eff []effMention, p int) *entInfo {
	if !d.inQuote(p) {
		return nil
	}
	si := d.sentenceAt(p)
	from := d.sents[max(0, si-topicWindow)].start
	var only *entInfo
	var present []*entInfo
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
	}
	if only == nil || slices.Contains(present, only) {
		return nil
	}
	if sp := k.quoteSpeaker(d, eff, p); sp == only {
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
// is not Pierre's). Nil when they name two or none, or a possessive among
// them is followed by a relation noun its entity files do not resolve.
func (k *Knowledge) onlyOfGender(d *doc, eff []effMention, p int, g byte) *entInfo {
	if g == 0 {
		return nil
	}
	sent := d.sents[d.sentenceAt(p)]
	q := d.inQuote(p)
	var only *entInfo
	before := false
	for _, m := range eff {
		if m.start < sent.start || m.end > sent.end || !m.ent.person || d.inQuote(m.start) != q {
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
	}
	if !before {
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
	from, to := paragraphsAround(d.text, p)
	var only *entInfo
	for _, m := range eff {
		if m.start < from || m.end > to || !m.ent.person {
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
