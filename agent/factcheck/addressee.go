package factcheck

import (
	"strings"
	"unicode/utf8"
)

// Addressee: whose a fact is when a Chinese quotation states it of 你
// (汝, 您), the one spoken to. The speech itself or its attribution tells
// who that is in two ways a writer of any book uses:
//
//   - a vocative opening a sentence of the quotation, a declared person's
//     name and a comma or an exclamation mark (如來道：“聖僧，汝前世原是…。
//     …汝為…”); the latest one before the value holds, so a speech that
//     turns to someone else (“──孫悟空，汝因…”) turns its 汝 with it;
//   - the narration's attribution naming the listener between 對, 向 or
//     問 and the speech verb (邢夫人對迎春冷笑道：“你…”).
//
// English speech does the same with "you": a vocative opening or closing
// a sentence of the speech (“Lydia! Come here. You are…”, “Come here,
// Lydia. You are…”) or "to" after a speech verb in its tag (said Jane to
// Lydia); a vocative in the value's own sentence is already the name the
// holder steps of facts.go find.
//
// Refused: 你 that does not open its clause (打你, 與你) or the value's
// clause (你既來了，原是…); 你們, 你的, 你家,
// 你父親 (the value is not the listener's own); 我 or 他 between 你 and the
// value; another person named between the vocative and 你; a vocative and
// an attribution that name two people; a listener who is the speaker.

// secondPerson are the ways a Chinese speaker says "you" to one person.
const secondPerson = "你汝您"

// addresseeWindow is how many characters before a value 你 may stand
// and still be its subject (你原籍是…, 汝前世原是…), as cjkSpeaker reads 我.
const addresseeWindow = 8

// cjkAddressee returns the person the Chinese quotation holding p is
// spoken to when 你 (汝, 您) opens a clause shortly before p, or nil.
func (k *Knowledge) cjkAddressee(d *doc, eff []effMention, p int) *entInfo {
	qi := d.quoteAt(p)
	if qi == 0 {
		return nil
	}
	q := d.quoted[qi-1]
	you := secondPersonBefore(d.text[q.start:p])
	if you < 0 {
		return nil
	}
	you += q.start
	voc := k.vocativeBefore(d, eff, q, you)
	att := k.attributedListener(d, eff, q)
	switch {
	case voc == nil && att == nil:
		return nil
	case voc != nil && att != nil && voc != att:
		return nil
	case voc == nil:
		return att
	}
	// Without 對 the name before the speech verb is the speaker's: one
	// who calls themself is no listener.
	if att == nil && k.quoteSpeaker(d, eff, p) == voc {
		return nil
	}
	return voc
}

// secondPersonBefore is the byte offset in s of a 你 (汝, 您) within the
// last addresseeWindow characters of s that opens its clause and is the
// subject of what follows it, or -1.
func secondPersonBefore(s string) int {
	rs := []rune(s)
	from := max(0, len(rs)-addresseeWindow)
	at := -1
	for i := len(rs) - 1; i >= from; i-- {
		if strings.ContainsRune(secondPerson, rs[i]) {
			at = i
			break
		}
	}
	if at < 0 {
		return -1
	}
	// 打你, 與你: an object; only a clause's first word is its subject.
	if at > 0 && !strings.ContainsRune(clauseOpeners, rs[at-1]) {
		return -1
	}
	// 你們, 你的, 你家, 你父親: not the listener's own value.
	if at+1 < len(rs) && strings.ContainsRune(notHolderAfter, rs[at+1]) {
		return -1
	}
	// Someone else brought in between (你說我…, 你看他…), or another
	// clause begun (你既來了，原是…).
	if strings.ContainsAny(string(rs[at+1:]), "我他她吾俺咱") || strings.ContainsAny(string(rs[at+1:]), clauseOpeners) {
		return -1
	}
	return len(string(rs[:at]))
}

// vocativeBefore is the person the latest vocative of quotation q before
// you calls: a declared person's name opening a sentence of the
// quotation, followed by a comma or an exclamation mark. Nil when there
// is none, or when someone else is named between it and you.
func (k *Knowledge) vocativeBefore(d *doc, eff []effMention, q span, you int) *entInfo {
	var voc *entInfo
	for _, m := range eff {
		if m.start < q.start {
			continue
		}
		if m.end > you {
			break
		}
		if !m.ent.person {
			continue
		}
		if isVocative(d.text[q.start:m.start], d.text[m.end:]) && !m.possessive {
			voc = m.ent
			continue
		}
		if voc != nil && m.ent != voc {
			return nil // 聖僧，孫悟空汝…: whom 你 means is no longer plain
		}
	}
	return voc
}

// isVocative reports whether a name between before and after (the
// quotation up to it and the text after it) is said to someone: it opens
// the quotation or a sentence of it and a comma or an exclamation mark
// follows.
func isVocative(before, after string) bool {
	r, _ := utf8.DecodeRuneInString(after)
	if r != '，' && r != '！' && r != ',' && r != '!' {
		return false
	}
	before = strings.TrimRight(before, " \n─—-")
	if before == "" {
		return true
	}
	last, _ := utf8.DecodeLastRuneInString(before)
	return strings.ContainsRune("“「『\"。！？．；", last)
}

// listenerMarks stand between a speaker and whom they speak to in an
// attribution (寶玉對黛玉道, 賈政向寶玉說, 王夫人問襲人道).
const listenerMarks = "對对向問问"

// attributedListener is the person the attribution of quotation q names
// as spoken to: a name right after 對 (向, 問) and at most a few
// characters of adverbs and a speech verb before the quotation. Nil when
// there is none, or another person is named after the listener.
func (k *Knowledge) attributedListener(d *doc, eff []effMention, q span) *entInfo {
	before, ok := d.speechTag(q)
	if !ok {
		return nil
	}
	for i := len(eff) - 1; i >= 0; i-- {
		m := eff[i]
		if m.end > len(before) {
			continue
		}
		if utf8.RuneCountInString(before[m.end:]) > 6 || strings.ContainsAny(before[m.end:], clauseOpeners) || d.inQuote(m.start) {
			return nil
		}
		r, _ := utf8.DecodeLastRuneInString(before[:m.start])
		if !m.ent.person || m.possessive || !strings.ContainsRune(listenerMarks, r) {
			return nil
		}
		return m.ent
	}
	return nil
}

// englishAddressee is the person an English quotation speaks to when
// "you" opens the clause of the value at p (“Lydia! Come here. You are
// but twelve”): the latest vocative of the speech before it, a declared
// person's name opening a sentence of a quotation before a comma or an
// exclamation mark, or closing one after a comma ("Come here, Lydia."),
// or else the listener a speech tag names after "to" (said Jane to
// Lydia). Nil when the two disagree, when someone else is named between
// the vocative and "you", or when "you" is not the clause's first word.
func (k *Knowledge) englishAddressee(d *doc, eff []effMention, p int) *entInfo {
	qi := d.quoteAt(p)
	if qi == 0 {
		return nil
	}
	sent := d.sents[d.sentenceAt(p)]
	you := -1
	for j := d.wordAt(p) - 1; j >= 0 && d.words[j].start >= sent.start; j-- {
		if strings.EqualFold(d.words[j].s, "you") {
			you = j
			break
		}
	}
	if you < 0 {
		return nil
	}
	// The clause's first word: after a quotation mark, a stop, a comma
	// or a semicolon.
	lead := strings.TrimRight(d.text[max(sent.start, d.quoted[qi-1].start):d.words[you].start], " \n")
	if last, _ := utf8.DecodeLastRuneInString(lead); lead != "" && !strings.ContainsRune("“\"‘.!?,;—", last) {
		return nil
	}
	speech := d.speechOf(qi)
	var voc *entInfo
	for _, m := range eff {
		if m.start < speech.start || m.end > d.words[you].start || !m.ent.person {
			continue
		}
		if d.inQuote(m.start) && !m.possessive && englishVocative(d.text[speech.start:m.start], d.text[m.end:]) {
			voc = m.ent
			continue
		}
		if d.inQuote(m.start) && voc != nil && m.ent != voc {
			return nil
		}
	}
	att := k.toListener(d, eff, speech, d.quoted[qi-1].start)
	switch {
	case voc == nil:
		return att
	case att != nil && att != voc:
		return nil
	}
	return voc
}

// englishVocative reports whether a name between before and after is
// said to someone: it opens a sentence of a quotation and a comma or an
// exclamation mark follows ("Lydia, …", "Lydia! …"), or a comma comes
// before it and a stop after it ("Come here, Lydia.").
func englishVocative(before, after string) bool {
	b := strings.TrimRight(before, " \n")
	a, _ := utf8.DecodeRuneInString(after)
	last, _ := utf8.DecodeLastRuneInString(b)
	if (a == ',' || a == '!') && (b == "" || strings.ContainsRune("“\"‘.!?", last)) {
		return true
	}
	return last == ',' && strings.ContainsRune(".!?", a)
}

// toListener is the person a speech tag within the speech before the
// quotation at qstart names after "to" next to a speech verb ("said Jane
// to Lydia", "said to Lydia"), or nil.
func (k *Knowledge) toListener(d *doc, eff []effMention, speech span, qstart int) *entInfo {
	// The tag before the quotation in its paragraph, or between the
	// quotations the speech joins.
	from := strings.LastIndexByte(d.text[:qstart], '\n') + 1
	if speech.start < qstart {
		from = speech.start
	}
	var found *entInfo
	for _, m := range eff {
		if m.start < from || m.end > qstart || d.inQuote(m.start) || !m.ent.person || m.possessive {
			continue
		}
		i := d.wordAt(m.start)
		if i < 2 || !strings.EqualFold(d.words[i-1].s, "to") || !sameClause(d, i-1, i) {
			continue
		}
		// said to Lydia; said Jane to Lydia.
		if !speechVerbs[strings.ToLower(d.words[i-2].s)] && !(i >= 3 && speechVerbs[strings.ToLower(d.words[i-3].s)]) {
			continue
		}
		if found != nil && found != m.ent {
			return nil
		}
		found = m.ent
	}
	return found
}
