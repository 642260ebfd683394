package factcheck

import (
	"fmt"
	"strings"
	"unicode"

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
	if strings.Contains(prose.Unaccented(loc.e.Description), decl) {
		return true
	}
	// The declared place lies within loc by the files (Longbourn, part of
	// Hertfordshire).
	for _, n := range loc.e.Names() {
		if k.placeWithin(string(k.foldRunes(declared)), string(k.foldRunes(n))) {
			return true
		}
	}
	return false
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

// estateNouns before "in"/"at" and a place say where their owner's
// property or home lies: "his large estate in Staffordshire".
var estateNouns = wordSet("estate", "estates", "property", "seat", "house", "home", "lands", "living", "parish", "residence", "lodgings")

// placeKindEndings are the last letters a place name shares with others
// of its kind (Derbyshire, Staffordshire); placeKindWords the last word
// (Gracechurch Street, Grosvenor Street).
var (
	placeKindEndings = []string{"shire"}
	placeKindWords   = wordSet("street", "square", "hall", "park", "abbey", "court", "place", "lodge", "house", "row", "lane")
)

// sameKindOfPlace reports whether two place names are of one kind by
// their form and differ: "Staffordshire" and "Derbyshire", "Grosvenor
// Street" and "Gracechurch Street".
func sameKindOfPlace(a, b string) bool {
	a, b = prose.Unaccented(strings.TrimSpace(a)), prose.Unaccented(strings.TrimSpace(b))
	if a == "" || b == "" || strings.EqualFold(a, b) {
		return false
	}
	for _, e := range placeKindEndings {
		if strings.HasSuffix(strings.ToLower(a), e) && strings.HasSuffix(strings.ToLower(b), e) && len(a) > len(e) && len(b) > len(e) {
			return !strings.ContainsAny(a, " ") && !strings.ContainsAny(b, " ")
		}
	}
	aw, bw := strings.Fields(a), strings.Fields(b)
	return len(aw) == 2 && len(bw) == 2 && aw[1] == bw[1] && placeKindWords[aw[1]] && aw[0] != bw[0]
}

// checkEstatePlaces finds the place of someone's estate or home given in
// the form of another place of the kind their file declares: "his large
// estate in Staffordshire" of a man whose county is Derbyshire. The
// holder is the possessive before the noun, a name or a pronoun.
func (k *Knowledge) checkEstatePlaces(d *doc) []Finding {
	if d.cjk || len(k.ents) == 0 {
		return nil
	}
	var out []Finding
	var eff []effMention
	for i := 1; i+1 < len(d.words); i++ {
		if p := strings.ToLower(d.words[i].s); (p != "in" && p != "at") || !sameClause(d, i, i+1) {
			continue
		}
		// The place: one or two capitalised words.
		j := i + 1
		if r := []rune(d.words[j].s)[0]; !unicode.IsUpper(r) {
			continue
		}
		end := j
		if nx := d.words[min(j+1, len(d.words)-1)].s; j+1 < len(d.words) && d.between(j, j+1) == " " && placeKindWords[strings.ToLower(nx)] && unicode.IsUpper([]rune(nx)[0]) {
			end = j + 1
		}
		place := d.text[d.words[j].start:d.words[end].end]
		// The noun of property, up to two words before "in".
		noun := -1
		for n := i - 1; n >= 0 && n >= i-3 && sameClause(d, n, n+1); n-- {
			if estateNouns[strings.ToLower(d.words[n].s)] {
				noun = n
				break
			}
		}
		if noun < 0 {
			continue
		}
		if eff == nil {
			eff = k.effMentions(d)
		}
		var key, val string
		has := func(e *entInfo) bool {
			var ok bool
			key, val, ok = d.firstFact(e, func(_, fv string) bool { return sameKindOfPlace(place, fv) })
			return ok
		}
		c := claim{start: d.words[j].start, end: d.words[end].end, wordIdx: noun}
		e, _ := k.holder(d, eff, c, has)
		if e == nil {
			continue
		}
		has(e)
		line, since := e.e.FactSource(key, d.chapter)
		out = append(out, Finding{
			Type:       TypeFact,
			Start:      c.start,
			End:        c.end,
			Message:    fmt.Sprintf("the text puts %s's %s in %s, but %s's %s is %q as of chapter %d", e.e.Name, d.words[noun].s, place, e.e.Name, key, val, d.chapter),
			Evidence:   Evidence{Path: e.e.Path, Resource: e.e.Resource, Key: key, Value: val, Line: line, Since: since},
			Suggestion: val,
			Confidence: 0.65,
		})
	}
	return out
}
