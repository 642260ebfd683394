package factcheck

import (
	"strings"
	"unicode/utf8"
)

// A speaker may state their own parentage or marriage: 「我是陳光蕊的兒子」
// said by 玄奘 makes 陳光蕊 his father as surely as 玄奘是陳光蕊的兒子
// would. The first person stands for the speaker only where it opens a
// clause of a quotation whose speaker is known (a tag before it, or a
// name the speaker gives themself), and only a kinship construction
// right after its copula is read (cjkKinAfter), so that 我是你的兒子 or a
// first person inside a longer clause says nothing. English says it as
// “I am the son of Prince Vasíli,” said Anatole, or “I am Mr. Darcy’s
// wife”: the speaker is the one a speech tag names right after or right
// before the quotation.

// cjkSelfKinWords are the first persons that may open such a clause.
var cjkSelfKinWords = []string{"我", "俺", "吾"}

// checkSelfKin finds kinship a speaker predicates of themself that
// contradicts what their file declares.
func (k *Knowledge) checkSelfKin(d *doc) []Finding {
	if len(d.quoted) == 0 {
		return nil
	}
	if !d.cjk {
		return k.checkLatinSelfKin(d)
	}
	var out []Finding
	var eff []effMention
	for _, q := range d.quoted {
		for p := q.start; p < q.end; {
			_, size := utf8.DecodeRuneInString(d.text[p:])
			word := ""
			for _, w := range cjkSelfKinWords {
				if strings.HasPrefix(d.text[p:], w) {
					word = w
					break
				}
			}
			if word == "" || p > q.start && !clauseOpensAt(d.text, p, q.start) {
				p += max(size, 1)
				continue
			}
			end := p + len(word)
			p = end
			ostart, oend, other, surname, role, ok := d.cjkKinAfter(k, end)
			// A name no file declares is read only when the kinship word
			// follows it at once (我是劉洪的兒子): a family name at the
			// head of a longer phrase (我是東土大唐聖僧的徒弟) is no name.
			if !ok || other == nil && !kinWordAfterMark(d.text[oend:]) {
				continue
			}
			if eff == nil {
				eff = k.effMentions(d)
			}
			e := k.cjkSpeaker(d, eff, end)
			if e == nil || !e.person || other == e {
				continue
			}
			role = childRole(d, role, other, ostart, oend)
			if f, bad := k.judgeKin(d, e, ostart, oend, other, surname, role); bad {
				out = append(out, f)
			}
		}
	}
	return out
}

// clauseOpensAt reports whether byte offset p of text opens a clause: the
// character before it (not before from) is a clause mark or a quotation
// mark.
func clauseOpensAt(text string, p, from int) bool {
	if p <= from {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(text[from:p])
	return strings.ContainsRune(clauseOpeners, r)
}

// latinSelfOpeners are an English first person and its copula.
var latinSelfOpeners = []string{"I am ", "I was ", "I’m ", "I'm "}

// checkLatinSelfKin is checkSelfKin for English.
func (k *Knowledge) checkLatinSelfKin(d *doc) []Finding {
	var out []Finding
	var eff []effMention
	for _, q := range d.quoted {
		for _, op := range latinSelfOpeners {
			for i := q.start; i < q.end; {
				j := strings.Index(d.text[i:q.end], op)
				if j < 0 {
					break
				}
				at := i + j
				i = at + len(op)
				if !latinClauseOpensAt(d.text, at, q.start) {
					continue
				}
				ostart, oend, other, role, ok := d.latinKinAt(at + len(op))
				if !ok {
					continue
				}
				if eff == nil {
					eff = k.effMentions(d)
				}
				e := latinTagSpeaker(d, eff, q)
				if e == nil || other == e {
					continue
				}
				role = childRole(d, role, other, ostart, oend)
				if f, bad := k.judgeKin(d, e, ostart, oend, other, 0, role); bad {
					out = append(out, f)
				}
			}
		}
	}
	return out
}

// latinClauseOpensAt reports whether p opens a sentence of the quotation
// that starts at from: right after its mark, or after a full stop, an
// exclamation or a question and a space.
func latinClauseOpensAt(text string, p, from int) bool {
	lead := strings.TrimRight(text[from:p], " ")
	r, size := utf8.DecodeLastRuneInString(lead)
	return size == len(lead) || strings.ContainsRune(".!?;", r)
}

// latinKinAt reads a kinship noun tied to a declared person at byte
// offset at: "the son of X", "a daughter of X", "X’s wife".
func (d *doc) latinKinAt(at int) (int, int, *entInfo, kinRole, bool) {
	if xs, xe, other, role, ok := d.kinNounOf(at, 0); ok {
		return xs, xe, other, role, true
	}
	om, ok := d.personMentionAt(at, 0)
	if !ok || !om.possessive {
		return 0, 0, nil, kinRole{}, false
	}
	for _, p := range []string{"’s ", "'s "} {
		if r, cut := strings.CutPrefix(d.text[om.end:], p); cut {
			noun := strings.TrimRight(strings.SplitN(r, " ", 2)[0], ",.;:!?”\"")
			if role, ok := latinKin[noun]; ok {
				return at, om.end + len(p) + len(noun), om.ents[0], role, true
			}
		}
	}
	return 0, 0, nil, kinRole{}, false
}

// latinTagSpeaker is the person a speech tag names next to quotation q:
// right after it (“…,” said Anatole; “…,” Anatole replied) or right
// before it (Anatole said, “…”). Nil when the tag names no one.
func latinTagSpeaker(d *doc, eff []effMention, q span) *entInfo {
	for _, m := range eff {
		if m.start >= q.end && m.start-q.end <= 12 || m.end <= q.start && q.start-m.end <= 12 {
			if m.ent.person && !d.inQuote(m.start) && d.tagSpeaker(m) {
				return m.ent
			}
		}
	}
	return nil
}

// kinNounOf reads "the son of X", "a daughter of X" at byte offset at: a
// kinship noun and the declared person it ties, found within reach
// words (personMentionAt).
func (d *doc) kinNounOf(at, reach int) (int, int, *entInfo, kinRole, bool) {
	rest := d.text[at:]
	for _, art := range []string{"the ", "a ", "an "} {
		if !strings.HasPrefix(rest, art) {
			continue
		}
		noun, _, _ := strings.Cut(rest[len(art):], " ")
		role, ok := latinKin[noun]
		if !ok || !strings.HasPrefix(rest[len(art)+len(noun):], " of ") {
			continue
		}
		xs := at + len(art) + len(noun) + len(" of ")
		if om, ok := d.personMentionAt(xs, reach); ok {
			return xs, om.end, om.ents[0], role, true
		}
	}
	return 0, 0, nil, kinRole{}, false
}
