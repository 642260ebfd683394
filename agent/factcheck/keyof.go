package factcheck

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// A fact key that is an English noun names its own frame: "the living of
// Hunsford" says which living, whatever the book's other chapters write.
// A key of one word whose declared value is the name of a declared place
// (a parish, an estate, a county) is contradicted by
// "the KEY of W" with W another proper name, when the sentence's holder
// of the key is one person: named before the frame in its sentence, or a
// pronoun there that stands for the one person of its gender the
// paragraph names. A value that is a person ("patroness: Lady
// Catherine", "sister: Louisa", declared or not) is left alone: "the
// patroness of Mr. Collins", "the sister of Charles" name the other side
// of the tie; and a W that is a person is no place.

// keyOfValue is one declared value read in the frame "the KEY of W".
type keyOfValue struct {
	e          *entInfo
	key, value string
}

// keyOfReadable reports whether key (normKey'd) and value v may be read
// in the frame "the KEY of W": a key of one word, a value of one to
// three capitalised words in the Latin script.
func keyOfReadable(key, v string) bool {
	ws := strings.Fields(v)
	return !strings.Contains(key, " ") && len(key) >= 3 && len(ws) > 0 && len(ws) <= 3 && !prose.HasCJK(v) && allCapitalized(ws)
}

// checkKeyOf finds "the KEY of W" said of a holder whose KEY is another
// proper name.
func (k *Knowledge) checkKeyOf(d *doc) []Finding {
	if d.cjk {
		return nil
	}
	var byKey map[string][]keyOfValue
	for _, e := range k.ents {
		if !e.person {
			continue
		}
		for key, v := range d.factsOf(e) {
			lk := normKey(key)
			v = strings.TrimSpace(v)
			if !keyOfReadable(lk, v) || !k.placeNamed(v) {
				continue
			}
			if byKey == nil {
				byKey = map[string][]keyOfValue{}
			}
			byKey[lk] = append(byKey[lk], keyOfValue{e, key, v})
		}
	}
	if len(byKey) == 0 {
		return nil
	}
	var out []Finding
	var eff []effMention
	for i := 0; i+3 < len(d.words); i++ {
		if !strings.EqualFold(d.words[i].s, "the") {
			continue
		}
		vals := byKey[strings.ToLower(d.words[i+1].s)]
		if len(vals) == 0 || d.words[i+2].s != "of" || !sameClause(d, i, i+3) {
			continue
		}
		// W: the capitalised words after "of", in the clause.
		j := i + 3
		for j < len(d.words) && j-i-3 < 3 && isCapitalized(d.words[j].s) && (j == i+3 || sameClause(d, j-1, j)) {
			j++
		}
		if j == i+3 {
			continue
		}
		start, end := d.words[i+3].start, d.words[j-1].end
		w := d.text[start:end]
		if k.personNamed(w) {
			continue
		}
		if eff == nil {
			eff = k.effMentions(d)
		}
		h := k.keyOfHolder(d, eff, d.words[i].start, vals)
		if h == nil {
			continue
		}
		fw, fv := foldName(w), foldName(h.value)
		if strings.Contains(fv, fw) || strings.Contains(fw, fv) {
			continue
		}
		f := k.cjkFactFinding(d, h.e, start, end, h.key, h.value, 0.7)
		f.Message = fmt.Sprintf("the text says “the %s of %s” of %s, but %s's %s is %q as of chapter %d", d.words[i+1].s, w, h.e.e.Name, h.e.e.Name, h.key, h.value, d.chapter)
		f.Suggestion = h.value
		out = append(out, f)
	}
	return out
}

// keyOfHolder is the one value of vals whose holder the sentence holding
// p speaks of before p: a person it names, or one a pronoun of it stands
// for (the one person of the pronoun's gender the paragraph names before
// it). Nil when none or several of them hold such a value.
func (k *Knowledge) keyOfHolder(d *doc, eff []effMention, p int, vals []keyOfValue) *keyOfValue {
	si := d.sentenceAt(p)
	if si < 0 {
		return nil
	}
	from := d.sents[si].start
	var found *keyOfValue
	take := func(e *entInfo) bool {
		for i := range vals {
			if vals[i].e == e {
				if found != nil && found.e != e {
					return false
				}
				found = &vals[i]
			}
		}
		return true
	}
	for _, m := range eff {
		if m.start >= from && m.end <= p && m.ent.person && !take(m.ent) {
			return nil
		}
	}
	for _, wd := range d.words {
		if wd.start < from || wd.end > p {
			continue
		}
		g := pronounGender(wd.s)
		if g == 0 {
			continue
		}
		if e := onlyPersonBefore(d, eff, wd.start, g, nil, 1); e != nil && !take(e) {
			return nil
		}
	}
	return found
}

// personNamed reports whether s is, or begins with, a declared person's
// name as written.
func (k *Knowledge) personNamed(s string) bool {
	fs := foldName(strings.TrimSpace(s))
	for _, e := range k.ents {
		if !e.person {
			continue
		}
		for _, n := range e.e.Names() {
			if fn := foldName(strings.TrimSpace(n)); fn != "" && (fs == fn || strings.HasPrefix(fs, fn+" ")) {
				return true
			}
		}
	}
	return false
}

// isCapitalized reports whether w begins with an upper-case letter.
func isCapitalized(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

// placeNamed reports whether s is the name or an alias of a declared
// entity that is no person (a location). The names are folded once.
func (k *Knowledge) placeNamed(s string) bool {
	k.placeNamesOnce.Do(func() {
		k.placeNames = map[string]bool{}
		for _, e := range k.ents {
			if e.person {
				continue
			}
			for _, n := range e.e.Names() {
				if fn := foldName(strings.TrimSpace(n)); fn != "" {
					k.placeNames[fn] = true
				}
			}
		}
	})
	return k.placeNames[foldName(strings.TrimSpace(s))]
}
