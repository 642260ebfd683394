package factcheck

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Years of events: a fact whose key names an event and a year
// ("wedding_year: 1813", "year_of_death: 1805") is contradicted by another
// year in a sentence that names its holder and the event ("Natásha's
// wedding to Bezúkhov, which took place in 1815").

// eventWords are the words by which a text names each event a year key
// may name, by the key's word.
var eventWords = map[string][]string{
	"wedding":  {"wedding", "married", "marriage", "marry", "wed"},
	"marriage": {"wedding", "married", "marriage", "marry", "wed"},
	"married":  {"wedding", "married", "marriage", "marry", "wed"},
	"birth":    {"born", "birth"},
	"born":     {"born", "birth"},
	"death":    {"died", "death", "dies", "killed"},
	"died":     {"died", "death", "dies", "killed"},
}

// yearFact is a declared year of an event.
type yearFact struct {
	e     *entInfo
	key   string
	year  int
	words []string
}

// yearFacts lists the year facts of d's chapter.
func (k *Knowledge) yearFacts(d *doc) []yearFact {
	var out []yearFact
	for _, e := range k.ents {
		for key, v := range d.factsOf(e) {
			if y, words, ok := eventYear(key, v); ok {
				out = append(out, yearFact{e, key, y, words})
			}
		}
	}
	return out
}

// eventYear reads a fact as the year of an event: a key with "year" and
// an event's word in it, a value of four digits. It returns the year and
// the words that name the event in a text.
func eventYear(key, val string) (int, []string, bool) {
	y, err := strconv.Atoi(strings.TrimSpace(val))
	if err != nil || y < 1000 || y > 2200 {
		return 0, nil, false
	}
	var words []string
	for _, p := range strings.FieldsFunc(strings.ToLower(key), func(r rune) bool { return r == '_' || r == '-' || r == ' ' }) {
		words = append(words, eventWords[p]...)
	}
	// The value is a year: a key naming the event alone (married_in,
	// born) says what the year is of as well as wedding_year does.
	return y, words, len(words) > 0
}

// checkYears compares the years of a sentence with the declared years of
// the events it names, for the one person it names that has such a year.
func (k *Knowledge) checkYears(d *doc) []Finding {
	if d.cjk {
		return nil
	}
	var facts []yearFact
	var out []Finding
	for i, w := range d.words {
		y, err := strconv.Atoi(w.s)
		if err != nil || len(w.s) != 4 || y < 1000 || y > 2200 {
			continue
		}
		if facts == nil {
			if facts = k.yearFacts(d); len(facts) == 0 {
				return nil
			}
		}
		sent := d.sents[d.sentenceAt(w.start)]
		words := map[string]bool{}
		for j := i - 1; j >= 0 && d.words[j].start >= sent.start; j-- {
			words[strings.ToLower(d.words[j].s)] = true
		}
		for j := i + 1; j < len(d.words) && d.words[j].start < sent.end; j++ {
			words[strings.ToLower(d.words[j].s)] = true
		}
		var hit *yearFact
		n := 0
		for fi := range facts {
			f := &facts[fi]
			if !d.namedIn(f.e, sent.start, sent.end) {
				continue
			}
			if d.eventNextTo(i, sent, f.words) {
				hit = f
				n++
			}
		}
		// "married in 1813, and in 1820 had three daughters": the
		// sentence states the declared year too, and the other is
		// another event's.
		if n != 1 || hit.year == y || words[strconv.Itoa(hit.year)] {
			continue
		}
		line, since := hit.e.e.FactSource(hit.key, d.chapter)
		out = append(out, Finding{
			Type:       TypeFact,
			Start:      w.start,
			End:        w.end,
			Message:    fmt.Sprintf("the text says %s, but %s's %s is %d as of chapter %d", w.s, hit.e.e.Name, hit.key, hit.year, d.chapter),
			Evidence:   Evidence{Path: hit.e.e.Path, Resource: hit.e.e.Resource, Key: hit.key, Value: strconv.Itoa(hit.year), Line: line, Since: since},
			Suggestion: strconv.Itoa(hit.year),
			Confidence: 0.7,
		})
	}
	return out
}

// eventNextTo reports whether the sentence names one of the event's words
// with no other year between it and the year at word i: "married in the
// early spring of 1813, and in 1820 had three daughters" dates the
// wedding 1813 and something else 1820.
func (d *doc) eventNextTo(i int, sent span, words []string) bool {
	isYear := func(s string) bool {
		y, err := strconv.Atoi(s)
		return err == nil && len(s) == 4 && y >= 1000 && y <= 2200
	}
	for j := i - 1; j >= 0 && d.words[j].start >= sent.start; j-- {
		if isYear(d.words[j].s) {
			break
		}
		if slices.Contains(words, strings.ToLower(d.words[j].s)) {
			return true
		}
	}
	for j := i + 1; j < len(d.words) && d.words[j].start < sent.end; j++ {
		if isYear(d.words[j].s) {
			break
		}
		if slices.Contains(words, strings.ToLower(d.words[j].s)) {
			return true
		}
	}
	return false
}

// namedIn reports whether a mention of e lies in [start, end).
func (d *doc) namedIn(e *entInfo, start, end int) bool {
	for _, mi := range d.mentionsIn(start, end) {
		for _, x := range d.mentions[mi].ents {
			if x == e {
				return true
			}
		}
	}
	return false
}
