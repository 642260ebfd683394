package factcheck

import (
	"strings"
	"unicode/utf8"
)

// What ties a number to a fact, when no possessive or have-form does: the
// fact's own key, written as a word of the same stem in the clause before
// the number ("Mr. Bingley inherited property to the amount of nearly a
// hundred thousand pounds" for inheritance; "his income was" for
// income). An entity file names a fact by what the book calls it, so its
// key is the book's word, whatever its inflection.

// keyStemLen is how many leading letters a word of the text and a word of
// a key share to be one word (inherit-ed, inherit-ance).
const keyStemLen = 6

// keyWordBack is how many words before a number the key's word is looked
// for, within its clause.
const keyWordBack = 9

// stemsMatch reports whether a word of the text and a word of a key share
// their first keyStemLen letters, both being that long at least.
func stemsMatch(w, key string) bool {
	return len(w) >= keyStemLen && len(key) >= keyStemLen && w[:keyStemLen] == key[:keyStemLen]
}

// keyWordsOf splits a fact key into its lower-case words
// (gambling_debt: gambling, debt).
func keyWordsOf(key string) []string {
	return strings.FieldsFunc(strings.ToLower(key), func(r rune) bool { return r == '_' || r == ' ' || r == '-' })
}

// keyWordBefore reports whether the clause before word i writes a word of
// the key of some declared quantity in unit (singular unit words joined
// by spaces, as a qty claim's noun).
func (k *Knowledge) keyWordBefore(d *doc, i int, unit string) bool {
	var keyWords []string
	for _, e := range k.ents {
		k.eachFact(e, func(key, val string) {
			_, _, rest, ok := parseValue(val)
			if !ok || len(rest) == 0 {
				return
			}
			u := make([]string, len(rest))
			for j, w := range rest {
				u[j] = singular(w)
			}
			if strings.Join(u, " ") != unit {
				return
			}
			keyWords = append(keyWords, keyWordsOf(key)...)
		})
	}
	if len(keyWords) == 0 {
		return false
	}
	for j := i - 1; j >= 0 && j >= i-keyWordBack && sameClause(d, j, j+1); j-- {
		w := strings.ToLower(d.words[j].s)
		for _, kw := range keyWords {
			if stemsMatch(w, kw) {
				return true
			}
		}
	}
	return false
}

// futureBefore reports whether the clause before word i has a verb of the
// future or of what is arranged ("will be married at", "is to be married
// at", "shall come of age at"): an age said with "at" is then the one the
// holder is about to reach, as good as the present one; after a past verb
// ("had married at sixteen") it dates an event, often long past.
func futureBefore(d *doc, i int) bool {
	for j := i - 1; j >= 0 && j >= i-6 && sameClause(d, j, j+1); j-- {
		w := strings.ToLower(d.words[j].s)
		switch w {
		case "will", "shall", "ll":
			return true
		case "to":
			if j > 0 && sameClause(d, j-1, j) {
				switch strings.ToLower(d.words[j-1].s) {
				case "is", "are", "am", "going":
					return true
				}
			}
		case "was", "were", "had", "did", "would", "should", "could", "when", "if", "unless":
			return false
		}
	}
	return false
}

// bareAtAge reports whether the number of words first..last is an age
// said with "at" after a future verb: "She will be married at sixteen!"
// The number must end its clause (a unit after it measures something
// else: "at sixteen miles").
func bareAtAge(d *doc, first, last, v int) bool {
	if first < 1 || strings.ToLower(d.words[first-1].s) != "at" || v < 10 || v >= 120 {
		return false
	}
	end := d.words[last].end
	rest := strings.TrimLeft(d.text[end:], " ")
	if rest != "" {
		r, _ := utf8.DecodeRuneInString(rest)
		if !strings.ContainsRune(".,;:!?”’\"—)", r) {
			return false
		}
	}
	return futureBefore(d, first-1)
}

// maxSpeechTag is the longest narration between two quotations that
// still join them into one speech ("“My dear, dear Lydia!” she cried:
// “this is delightful…”"), in bytes.
const maxSpeechTag = 40

// speechOf is quotation qi (1-based) of d with the quotations before it
// that a short speech tag joins to it: one speech.
func (d *doc) speechOf(qi int) span {
	q := d.quoted[qi-1]
	for i := qi - 2; i >= 0; i-- {
		tag := d.text[d.quoted[i].end:q.start]
		if len(tag) > maxSpeechTag || strings.Contains(tag, "\n") {
			break
		}
		q.start = d.quoted[i].start
	}
	return q
}

// quotedOnlyOfGender is, for a pronoun at p in direct speech, the one
// person of gender g the same speech names before p ("My dear, dear
// Lydia! … She will be married at sixteen!"): within one speech a
// pronoun refers back to whom that speech has spoken of. A speech is the
// quotation of p and those before it in its paragraph that only a short
// speech tag parts from it. nil when the speech names none or several of
// that gender before p.
func (k *Knowledge) quotedOnlyOfGender(d *doc, eff []effMention, p int, g byte) *entInfo {
	qi := d.quoteAt(p)
	if qi == 0 || g == 0 {
		return nil
	}
	q := d.speechOf(qi)
	var only *entInfo
	for _, m := range eff {
		if m.start < q.start || m.start >= p {
			continue
		}
		if !d.inQuote(m.start) {
			// The speech tag's "she cried" names the speaker.
			return nil
		}
		if addressedBetween(d, m.end, p) {
			// "My dear Mr. Bennet, … what are you talking of? Why, he
			// has…": a name the speech then says "you" to is whom it
			// speaks to, and "he" is someone else.
			return nil
		}
		if !m.ent.person || m.ent.gender != g {
			continue
		}
		if only != nil && only != m.ent {
			return nil
		}
		only = m.ent
	}
	return only
}

// addressedBetween reports whether the text between byte offsets from and
// to says "you" (or "your", "yourself"…): the speech addresses someone.
func addressedBetween(d *doc, from, to int) bool {
	for i := d.wordAt(from); i < len(d.words) && d.words[i].start < to; i++ {
		switch strings.ToLower(d.words[i].s) {
		case "you", "your", "yours", "yourself", "yourselves", "thou", "thee", "thy":
			return true
		}
	}
	return false
}

// amountLeads may open a sentence before the amount it consists of ("A
// clear twelve thousand a year!", "Full ten thousand a year!").
var amountLeads = wordSet("a", "an", "full", "fully", "only", "clear", "above", "nearly", "near", "almost", "about", "quite", "and", "oh", "why")

// exclaimedAmountHolder is whose an amount is when a sentence of direct
// speech consists of it ("Mr. Darcy! … A house in town! Eight thousand a
// year!"): the one entity with a fact of its kind the speech has named
// before it, the speech tag naming no one. An amount that is part
// of a clause (spent, lost, asked for) says nothing of whose it is; nil.
func (k *Knowledge) exclaimedAmountHolder(d *doc, eff []effMention, c claim, has func(*entInfo) bool) *entInfo {
	if c.wordIdx < 0 || !d.inQuote(c.start) {
		return nil
	}
	sent := d.sents[d.sentenceAt(c.start)]
	// Only leads before the amount in its sentence.
	for j := c.wordIdx - 1; j >= 0 && d.words[j].start >= sent.start; j-- {
		if !amountLeads[strings.ToLower(d.words[j].s)] {
			return nil
		}
	}
	// And nothing after it but the end of the sentence.
	if rest := strings.TrimSpace(d.text[c.end:sent.end]); strings.TrimLeft(rest, "!.?”’\"") != "" {
		return nil
	}
	qi := d.quoteAt(c.start)
	q := d.speechOf(qi)
	var only, speaker *entInfo
	for _, m := range eff {
		if m.start < q.start || m.start >= c.start || !m.ent.person {
			continue
		}
		if !d.inQuote(m.start) {
			// The speaker of the tag (replied Wickham) says "I" of
			// themself; anyone else there may be whose the amount is.
			if speaker == nil && d.tagSpeaker(m) {
				speaker = m.ent
				continue
			}
			return nil
		}
		if !has(m.ent) {
			continue
		}
		if only != nil && only != m.ent {
			return nil
		}
		only = m.ent
	}
	if only != nil || speaker == nil {
		return only
	}
	// “Yes,” replied Wickham; “his estate there is a noble one. A clear
	// twelve thousand per annum.”: the speech names no one but says "his"
	// before the amount; it is the one man the speech's paragraph and the
	// two before it name, the speaker aside.
	g := thirdPerson(d.text[d.quoted[qi-1].start:c.start])
	if g == 0 || g == 'x' || namesPerson(eff, d.quoted[qi-1].start, c.start) {
		return nil
	}
	if e := onlyPersonBefore(d, eff, c.start, g, speaker, 2); e != nil && has(e) {
		return e
	}
	return nil
}

// tagSpeaker reports whether mention m, in narration, is the speaker a
// speech tag names: right after a speech verb (replied Wickham) or right
// before one (Wickham replied).
func (d *doc) tagSpeaker(m effMention) bool {
	i := d.wordAt(m.start)
	if i > 0 && i <= len(d.words) && speechVerbs[strings.ToLower(d.words[i-1].s)] && sameClause(d, i-1, min(i, len(d.words)-1)) {
		return true
	}
	j := d.wordAt(m.end)
	return j < len(d.words) && speechVerbs[strings.ToLower(d.words[j].s)] && sameClause(d, j-1, j)
}
