package factcheck

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kinship told through a possessive pronoun in English: "his wife,
// Hélène", "her husband Pierre", "his son, Nicholas", "Hélène, his
// wife,", "his father, Prince Vasíli". The pronoun stands
// for the one person of its gender named before it in the sentence; with
// two (Prince Vasíli led Pierre to his daughter) whose it is cannot be
// told, and nothing is judged. The name after the kinship noun is checked
// both ways: against the holder's declared wife or husband, and against
// its own declared spouse or parent.

// checkPronounKin finds "his/her NOUN[,] NAME" and "NAME, his/her NOUN"
// where the tie contradicts a declared one.
func (k *Knowledge) checkPronounKin(d *doc) []Finding {
	if d.cjk {
		return nil
	}
	var out []Finding
	for _, m := range d.mentions {
		if m.firstWord < 0 || len(m.ents) != 1 || !m.ents[0].person {
			continue
		}
		e := m.ents[0]
		p, g, noun, ok := pronounKinBefore(d.text[:m.start])
		if !ok {
			// "Hélène, his wife,": the pronoun after the name; its
			// holder is still named before the name.
			if g, noun, ok = pronounKinAfter(d.text[m.end:]); !ok {
				continue
			}
			p = m.start
		}
		h := d.pronounHolder(p, g)
		if h == nil || h == e {
			continue
		}
		// "the figure of his father, Prince Vasíli": a parent is his
		// file's to give (kinholder.go).
		if noun == "father" || noun == "mother" {
			if m.possessive || p < m.start && !nameClosesPhrase(d.text[m.end:]) {
				continue
			}
			if f, bad := k.judgeHolderKin(d, h, noun, e, p, m.end); bad {
				out = append(out, f)
			}
			continue
		}
		role := latinKin[noun]
		// The holder's side: his wife is the one his file declares.
		if own, ok := holderRole[noun]; ok {
			if f, bad := k.judgeKin(d, h, m.start, m.end, e, 0, own); bad {
				out = append(out, f)
				continue
			}
		}
		role = childRole(d, role, h, m.start, m.end)
		if f, bad := k.judgeKin(d, e, m.start, m.end, h, 0, role); bad {
			out = append(out, f)
		}
	}
	return out
}

// pronounKinBefore reads "his NOUN, " or "her NOUN " at the end of before:
// the pronoun's offset, its gender and the kinship noun.
func pronounKinBefore(before string) (int, byte, string, bool) {
	b, ok := strings.CutSuffix(before, ", ")
	if !ok {
		b, ok = strings.CutSuffix(before, " ")
	}
	if !ok {
		return 0, 0, "", false
	}
	for _, noun := range []string{"wife", "husband", "son", "daughter", "father", "mother"} {
		b2, cut := strings.CutSuffix(b, " "+noun)
		if !cut {
			continue
		}
		for _, pr := range []string{"his", "her", "His", "Her"} {
			b3, cut := strings.CutSuffix(b2, pr)
			if !cut {
				continue
			}
			if r, _ := utf8.DecodeLastRuneInString(b3); b3 != "" && (r == '’' || r == '\'' || r == '-' || unicode.IsLetter(r)) {
				continue
			}
			return len(b3), pronounGender(pr), noun, true
		}
	}
	return 0, 0, "", false
}

// holderRole is what the kinship noun makes the pronoun's person: the
// husband of "his wife", the wife of "her husband". A parent's file names
// no child by a key of its own, so "his son" has none.
var holderRole = map[string]kinRole{"wife": roleSpouseOfWoman, "husband": roleSpouseOfMan}

// pronounHolder is the one person of gender g named in the sentence before
// offset p, outside speech when p is outside it and inside when inside;
// nil when there is none, or more than one, or a person of unknown gender
// stands between.
func (d *doc) pronounHolder(p int, g byte) *entInfo {
	if g == 0 {
		return nil
	}
	s := d.sents[d.sentenceAt(p)]
	var found *entInfo
	for _, i := range d.mentionsIn(s.start, p) {
		m := d.mentions[i]
		if m.end > p || m.start < s.start || d.inQuote(m.start) != d.inQuote(p) {
			continue
		}
		if len(m.ents) != 1 || !m.ents[0].person {
			continue
		}
		switch e := m.ents[0]; e.gender {
		case g:
			if found != nil && found != e {
				return nil
			}
			found = e
		case 0:
			if found != nil {
				return nil
			}
		}
	}
	return found
}

// pronounKinAfter reads ", his NOUN" right after a name, the noun ending
// its phrase ("Hélène, his wife, came"; not "his wife’s sister").
func pronounKinAfter(after string) (byte, string, bool) {
	rest, ok := strings.CutPrefix(after, ", ")
	if !ok {
		return 0, "", false
	}
	for _, pr := range []string{"his ", "her "} {
		r, cut := strings.CutPrefix(rest, pr)
		if !cut {
			continue
		}
		for _, noun := range []string{"wife", "husband", "son", "daughter", "father", "mother"} {
			if tail, cut := strings.CutPrefix(r, noun); cut && (tail == "" || strings.ContainsRune(",.;!?", firstRune(tail))) {
				return pronounGender(strings.TrimSpace(pr)), noun, true
			}
		}
	}
	return 0, "", false
}
