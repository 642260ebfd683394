package factcheck

import (
	"fmt"
	"strings"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// English predications of a place: where someone lives ("moved to
// Otrádnoe", "settled at Bald Hills", "lived in Moscow") and where they
// come from ("a native of Vorónezh", "born in Smolénsk"). The place is a
// declared location the text names; it contradicts the declared value
// only when neither names the other and the location's file does not
// name the declared place (a house inside its town).

// latinPlaceVerbs lead from a subject to a place of residence or origin:
// one or two words, then the place.
var latinPlaceVerbs = []struct {
	words []string
	keys  map[string]bool
	what  string
	move  bool
}{
	{[]string{"moved", "to"}, residenceKeys, "moves to", true},
	{[]string{"settled", "in"}, residenceKeys, "settles in", true},
	{[]string{"settled", "at"}, residenceKeys, "settles at", true},
	{[]string{"lived", "in"}, residenceKeys, "lives in", false},
	{[]string{"lived", "at"}, residenceKeys, "lives at", false},
	{[]string{"lives", "in"}, residenceKeys, "lives in", false},
	{[]string{"lives", "at"}, residenceKeys, "lives at", false},
	{[]string{"native", "of"}, originKeys, "comes from", false},
	{[]string{"born", "in"}, originKeys, "comes from", false},
	{[]string{"born", "at"}, originKeys, "comes from", false},
	{[]string{"came", "from"}, originKeys, "comes from", false},
}

// checkLatinPlaces finds places predicated of the subject of a sentence.
func (k *Knowledge) checkLatinPlaces(d *doc) []Finding {
	if len(k.ents) == 0 || len(d.mentions) == 0 {
		return nil
	}
	var out []Finding
	for mi, m := range d.mentions {
		if m.firstWord < 0 || len(m.ents) != 1 || m.ents[0].person {
			continue
		}
		loc := m.ents[0]
		for _, pv := range latinPlaceVerbs {
			n := len(pv.words)
			i := m.firstWord - n
			if i < 0 || d.inQuote(m.start) {
				continue
			}
			ok := true
			for j, w := range pv.words {
				if strings.ToLower(d.words[i+j].s) != w || !sameClause(d, i+j, i+j+1) {
					ok = false
				}
			}
			if !ok {
				continue
			}
			e := d.sentenceSubject(mi, i)
			if e == nil {
				continue
			}
			key, declared := "", ""
			for kk, v := range d.factsOf(e) {
				if pv.keys[normKey(kk)] {
					key, declared = kk, v
				}
			}
			if key == "" || k.samePlace(loc, declared) {
				continue
			}
			line, since := e.e.FactSource(key, d.chapter)
			// A move is how a residence changes: "moved to Moscow"
			// contradicts the file only in the chapter where the file
			// itself moves them (somewhere else).
			if pv.move && since != d.chapter {
				continue
			}
			out = append(out, Finding{
				Type:       TypeFact,
				Start:      m.start,
				End:        m.end,
				Message:    fmt.Sprintf("the text says %s %s %s, but %s's %s is %q as of chapter %d", e.e.Name, pv.what, d.text[m.start:m.end], e.e.Name, key, declared, d.chapter),
				Evidence:   Evidence{Path: e.e.Path, Resource: e.e.Resource, Key: key, Value: declared, Line: line, Since: since},
				Suggestion: declared,
				Confidence: 0.7,
			})
		}
	}
	return out
}

// samePlace reports whether the location loc agrees with a declared place
// value: one names the other, or the location's file names it.
func (k *Knowledge) samePlace(loc *entInfo, declared string) bool {
	decl := prose.Unaccented(declared)
	for _, n := range loc.e.Names() {
		if n := prose.Unaccented(n); strings.Contains(decl, n) || strings.Contains(n, decl) {
			return true
		}
	}
	return strings.Contains(prose.Unaccented(loc.e.Description), decl)
}

// sentenceSubject is the person a sentence is about, for a predicate at
// word w: the first person named in the sentence before w, when nothing
// but lead words, time phrases or commas come before that name
// ("In the winter of 1813 Nicholas married Princess Mary and moved to…").
func (d *doc) sentenceSubject(before, w int) *entInfo {
	sent := d.sents[d.sentenceAt(d.words[w].start)]
	for i := 0; i < before; i++ {
		m := d.mentions[i]
		if m.start < sent.start || m.firstWord < 0 {
			continue
		}
		if m.firstWord >= w || len(m.ents) != 1 || !m.ents[0].person || m.possessive {
			return nil
		}
		// What stands before the subject: a time or place phrase
		// ("In the winter of 1813"), lead words; no verb of another
		// subject ("Pierre told her that Nicholas…").
		for _, x := range prose.LatinWords(d.text[sent.start:m.start]) {
			if lx := strings.ToLower(x); !leadWords[lx] && !timeWords[lx] {
				if r := x[0]; r < '0' || r > '9' {
					return nil
				}
			}
		}
		return m.ents[0]
	}
	return nil
}

// timeWords may open a sentence before its subject.
var timeWords = wordSet("in", "on", "the", "of", "winter", "summer", "spring", "autumn", "year", "years", "month", "months", "week", "day",
	"january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
	"early", "late", "end", "beginning", "following", "next", "that", "same", "during", "a", "few", "later", "afterwards")
