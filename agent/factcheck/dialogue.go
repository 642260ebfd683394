package factcheck

import (
	"strings"
	"unicode"
)

// Dialogue: whose a value is when an English reply states it with no
// subject at all, in an exchange of bare quotations, one a paragraph:
//
//	“What is his name?”
//	“Bingley.”
//	“Is he married or single?”
//	“Oh, single, my dear! A single man of large fortune; four or five thousand a year.”
//
// The reply answers the question right before it, and that question asks
// about the one person its pronoun stands for: the one person of that
// gender the nearest earlier quotation of the exchange that names anyone
// names. Only an amount said on its own (not owned by a word before it)
// is read so. Refused: narration anywhere in the exchange (a speech tag, an
// action: who is talked about may be in the scene), a question with no
// pronoun or pronouns of both genders, a name in the question, or a name or a
// personal pronoun in the reply before the value, a quotation that names two people of the
// pronoun's gender or one of unknown gender, more than three quotations
// back.

// maxExchangeBack is how many quotations before the question the pronoun
// is looked up in.
const maxExchangeBack = 3

// answerHolder is the person a bare reply's value at p speaks of, or nil.
func (k *Knowledge) answerHolder(d *doc, eff []effMention, p int) *entInfo {
	qi := d.quoteAt(p)
	if qi < 2 || !d.bareQuote(qi) || !d.bareQuote(qi-1) || !d.adjoins(qi-1) {
		return nil
	}
	reply := d.quoted[qi-1]
	if namesPerson(eff, reply.start, p) || hasSubjectPronoun(d.text[reply.start:p]) {
		return nil
	}
	question := d.quoted[qi-2]
	if !strings.HasSuffix(strings.TrimRight(d.text[question.start:question.end], "”\"’' "), "?") || namesPerson(eff, question.start, question.end) {
		return nil
	}
	g := thirdPerson(d.text[question.start:question.end])
	if g == 0 || g == 'x' {
		return nil
	}
	for i := qi - 2; i >= 1 && i >= qi-2-maxExchangeBack; i-- {
		if !d.bareQuote(i) || !d.adjoins(i) {
			return nil
		}
		q := d.quoted[i-1]
		var only *entInfo
		named := false
		for _, m := range eff {
			if m.start < q.start || m.end > q.end || !m.ent.person {
				continue
			}
			named = true
			if m.ent.gender == 0 {
				return nil
			}
			if m.ent.gender != g {
				continue
			}
			if only != nil && only != m.ent {
				return nil
			}
			only = m.ent
		}
		if named {
			return only
		}
	}
	return nil
}

// bareQuote reports whether quotation qi (1-based) is a paragraph of its
// own: nothing but white space between it and the line breaks around it.
func (d *doc) bareQuote(qi int) bool {
	q := d.quoted[qi-1]
	before := d.text[:q.start]
	line := before[strings.LastIndexByte(before, '\n')+1:]
	after := d.text[q.end:]
	if i := strings.IndexByte(after, '\n'); i >= 0 {
		after = after[:i]
	}
	return strings.TrimSpace(line) == "" && strings.TrimSpace(after) == ""
}

// adjoins reports whether quotation qi (1-based) follows the one before
// it with nothing but white space between.
func (d *doc) adjoins(qi int) bool {
	return qi >= 2 && strings.TrimSpace(d.text[d.quoted[qi-2].end:d.quoted[qi-1].start]) == ""
}

// namesPerson reports whether a person is named within [from, to).
func namesPerson(eff []effMention, from, to int) bool {
	for _, m := range eff {
		if m.start >= from && m.end <= to && m.ent.person {
			return true
		}
	}
	return false
}

// thirdPerson is the gender of the English third-person singular
// pronouns of s: 'm', 'f', 0 for none, 'x' for both.
func thirdPerson(s string) byte {
	var g byte
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }) {
		h := pronounGender(w)
		if h == 0 {
			continue
		}
		if g != 0 && g != h {
			return 'x'
		}
		g = h
	}
	return g
}

// subjectPronouns are the English personal pronouns: in a reply, any of
// them gives the value a subject of its own (“They spent five thousand a
// year”, “I have five thousand a year”).
var subjectPronouns = wordSet("i", "me", "you", "we", "us", "they", "them", "it", "he", "him", "his", "she", "her", "hers", "one")

// hasSubjectPronoun reports whether s says any of subjectPronouns.
func hasSubjectPronoun(s string) bool {
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) }) {
		if subjectPronouns[strings.ToLower(w)] {
			return true
		}
	}
	return false
}

// onlyPersonBefore is the one person of gender g, other than except,
// named between the start of the paragraph paras paragraphs before the
// one holding p and p; nil when none, several, or one of unknown gender
// are named there, or a scene break (a line with no letter) stands
// between.
func onlyPersonBefore(d *doc, eff []effMention, p int, g byte, except *entInfo, paras int) *entInfo {
	from := strings.LastIndexByte(d.text[:p], '\n') + 1
	for n := 0; n < paras && from > 0; n++ {
		prev := strings.TrimRight(d.text[:from], "\n\r \t")
		start := strings.LastIndexByte(prev, '\n') + 1
		if !strings.ContainsFunc(prev[start:], unicode.IsLetter) {
			break // * * *: another scene
		}
		from = start
	}
	return onlyPersonIn(eff, from, p, g, except)
}

// pronounGender is 'm' for a masculine English pronoun of the third
// person (he, him, his, himself), 'f' for a feminine one, else 0.
func pronounGender(w string) byte {
	switch strings.ToLower(w) {
	case "he", "him", "his", "himself":
		return 'm'
	case "she", "her", "hers", "herself":
		return 'f'
	}
	return 0
}
