package factcheck

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// Headed values: an English fact value made of a proper name and the
// noun of its kind (Semënov regiment, Gracechurch Street, Pávlograd
// hussars) is contradicted by another proper name before the same noun,
// or before the noun the key names (regiment), in a clause that says it
// of the holder: "This was Dólokhov, an officer of the Preobrazhénsk
// regiment", "Rostóv continued to serve in the Izyúm regiment". The noun
// says the two are of one kind, the name that they differ; the holder is
// the one person the clause names before it, tied to it by apposition,
// a copula or a verb of serving, living or belonging.

// headedValue is one declared value read as a name and its kind's noun.
type headedValue struct {
	e          *entInfo
	key, value string
	name       string // the proper name, unaccented, lower case
}

// headedValues indexes the English values of the chapter's facts by the
// nouns that may stand after a name of their kind: the value's last word
// and the key's last word, singular and lower case.
func (k *Knowledge) headedValues(d *doc) map[string][]headedValue {
	var out map[string][]headedValue
	for _, e := range k.ents {
		if !e.person {
			continue
		}
		for key, v := range d.factsOf(e) {
			ws := strings.Fields(strings.Trim(v, " ."))
			if len(ws) < 1 || len(ws) > 4 || prose.HasCJK(v) {
				continue
			}
			// "the Semënov regiment": the article is no part of the name.
			if w := strings.ToLower(ws[0]); w == "the" {
				ws = ws[1:]
			}
			kp := strings.FieldsFunc(strings.ToLower(key), func(r rune) bool { return r == '_' || r == '-' || r == ' ' })
			var name, heads []string
			switch {
			case len(ws) >= 2 && allCapitalized(ws[:len(ws)-1]):
				name = ws[:len(ws)-1]
				heads = []string{singular(strings.ToLower(ws[len(ws)-1]))}
				if len(kp) > 0 && kp[len(kp)-1] != heads[0] {
					heads = append(heads, singular(kp[len(kp)-1]))
				}
			case len(ws) == 1 && allCapitalized(ws) && len(kp) > 0 && headNouns[kp[len(kp)-1]]:
				// "regiment: Pávlograd": the name alone, its kind's noun
				// in the key ("the Izyúm regiment").
				name = ws
				heads = []string{kp[len(kp)-1]}
			default:
				continue
			}
			hv := headedValue{e: e, key: key, value: v, name: foldName(strings.Join(name, " "))}
			for _, h := range heads {
				if out == nil {
					out = map[string][]headedValue{}
				}
				out[h] = append(out[h], hv)
			}
		}
	}
	return out
}

// allCapitalized reports whether every word of ws opens with a capital.
func allCapitalized(ws []string) bool {
	for _, w := range ws {
		r, _ := utf8.DecodeRuneInString(w)
		if !unicode.IsUpper(r) {
			return false
		}
	}
	return true
}

// foldName is a name compared without accents or case.
func foldName(s string) string { return strings.ToLower(prose.Unaccented(s)) }

// headNouns are the nouns of a kind that stand after a proper name of
// that kind (the Izyúm regiment, Wimpole Street, Rosings Park): a key
// ending in one ("regiment", "street") with a one-word name for a value
// is checked as the name and that noun.
var headNouns = wordSet("regiment", "battalion", "squadron", "brigade", "division", "corps",
	"street", "square", "lane", "road", "hall", "house", "lodge", "park", "parish", "college", "school", "church", "club", "ship")

// headedLinks tie a holder to what follows in its clause: a copula, a
// verb of serving, living or belonging.
var headedLinks = wordSet("was", "is", "were", "been", "became", "serve", "serves", "served", "serving",
	"joined", "entered", "commanded", "commands", "transferred", "belonged", "belongs", "lived", "lives", "living",
	"resided", "resides", "lodged", "lodges", "stayed", "dwelt")

// checkHeadedValues finds a headed value stated with another name (see
// the comment at the top of the file).
func (k *Knowledge) checkHeadedValues(d *doc) []Finding {
	if d.cjk || len(d.mentions) == 0 {
		return nil
	}
	index := k.headedValues(d)
	if len(index) == 0 {
		return nil
	}
	var out []Finding
	for i := 1; i < len(d.words); i++ {
		vals := index[singular(strings.ToLower(d.words[i].s))]
		if len(vals) == 0 {
			continue
		}
		// The capitalized run right before the noun, in its clause:
		// one to three words, not opening the sentence.
		first := i
		for j := i - 1; j >= 0 && j >= i-3 && d.between(j, j+1) == " "; j-- {
			r, _ := utf8.DecodeRuneInString(d.words[j].s)
			if !unicode.IsUpper(r) {
				break
			}
			first = j
		}
		if first == i || first == 0 || !sameClause(d, first-1, first) || d.overlapsMention(d.words[first].start, d.words[i-1].end) {
			continue
		}
		var nameWords []string
		for j := first; j < i; j++ {
			nameWords = append(nameWords, d.words[j].s)
		}
		stated := foldName(strings.Join(nameWords, " "))
		holder := d.headedHolder(first)
		if holder == nil {
			continue
		}
		for _, hv := range vals {
			if hv.e != holder {
				continue
			}
			if hv.name == stated || k.valueOfAnyChapter(holder, stated) {
				break
			}
			start, end := d.words[first].start, d.words[i].end
			line, since := holder.e.FactSource(hv.key, d.chapter)
			out = append(out, Finding{
				Type:       TypeFact,
				Start:      start,
				End:        end,
				Message:    fmt.Sprintf("the text says %q, but %s's %s is %q as of chapter %d", d.text[start:end], holder.e.Name, hv.key, hv.value, d.chapter),
				Evidence:   Evidence{Path: holder.e.Path, Resource: holder.e.Resource, Key: hv.key, Value: hv.value, Line: line, Since: since},
				Suggestion: hv.value,
				Confidence: 0.6,
			})
			break
		}
	}
	return out
}

// headedHolder is the person a value whose name starts at word first is
// said of: the one person named before it in its sentence, with no other
// name between, tied to it in the same clause by apposition (", an
// officer of") or a link word (headedLinks) within twelve words.
func (d *doc) headedHolder(first int) *entInfo {
	sent := d.sents[d.sentenceAt(d.words[first].start)]
	var holder *mention
	for mi := range d.mentions {
		m := &d.mentions[mi]
		if m.start < sent.start || m.end > d.words[first].start {
			continue
		}
		if m.firstWord < 0 || len(m.ents) != 1 {
			return nil
		}
		if holder != nil || !m.ents[0].person {
			return nil // two names, or a place between
		}
		holder = m
	}
	if holder == nil || holder.possessive || d.inQuote(holder.start) != d.inQuote(d.words[first].start) {
		return nil
	}
	// Further on, a pronoun of the holder's gender takes the name up
	// ("Nicholas Rostóv experienced … when, after 1807, he continued to
	// serve in").
	anchor := holder.lastWord
	if first-anchor > 12 {
		anchor = -1
		for j := first - 1; j > holder.lastWord && j >= first-12; j-- {
			w := strings.ToLower(d.words[j].s)
			if w == "he" && holder.ents[0].gender != 'f' || w == "she" && holder.ents[0].gender != 'm' {
				anchor = j
				break
			}
		}
		if anchor < 0 {
			return nil
		}
	}
	// A capitalized word between may name someone no file declares
	// ("Rostóv, and Dólokhov—who was").
	for j := anchor + 1; j < first; j++ {
		if r, _ := utf8.DecodeRuneInString(d.words[j].s); !sameClause(d, j-1, j) || unicode.IsUpper(r) {
			return nil
		}
	}
	next := anchor + 1
	if anchor == holder.lastWord && strings.TrimSpace(d.between(holder.lastWord, next)) == "," {
		switch strings.ToLower(d.words[next].s) {
		case "a", "an", "the", "one":
			return holder.ents[0]
		}
	}
	for j := next; j < first; j++ {
		if headedLinks[strings.ToLower(d.words[j].s)] {
			return holder.ents[0]
		}
	}
	return nil
}

// valueOfAnyChapter reports whether the folded name is part of a value e
// declares in some chapter: a former regiment is no contradiction.
func (k *Knowledge) valueOfAnyChapter(e *entInfo, name string) bool {
	found := false
	k.eachFact(e, func(_, v string) {
		if strings.Contains(foldName(v), name) {
			found = true
		}
	})
	return found
}
