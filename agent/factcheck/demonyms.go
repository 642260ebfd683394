package factcheck

import (
	"fmt"
	"strings"
	"sync"
	"unicode"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
	"golang.org/x/text/language/display"
)

// An origin told by a people's adjective: "the son of an obscure Polish
// gentleman" says Berg is Polish, against a declared origin "Livonian".
// The adjectives come from CLDR's English names of languages (Polish,
// German, Prussian, Georgian…), which are the peoples' adjectives in
// most cases, and from the declared origins themselves (Livonian).

// demonymsOf is the CLDR set, made once.
var demonymsOf = sync.OnceValue(func() map[string]bool {
	names := display.English.Languages()
	out := map[string]bool{}
	for _, tag := range display.Supported.Tags() {
		if n := names.Name(tag); n != "" && !strings.ContainsAny(n, " -()") {
			out[n] = true
		}
	}
	return out
})

// parentNouns after a people's adjective say who someone's parent was
// ("the son of an obscure Polish gentleman"); stockNouns say it outright
// ("of German descent"). A title ("a Polish count") is only someone else.
var (
	parentNouns = wordSet("gentleman", "nobleman", "family", "merchant", "officer", "priest", "peasant", "landowner", "woman", "lady", "mother", "father")
	childNouns  = wordSet("son", "daughter", "child", "grandson", "granddaughter")
	stockNouns  = wordSet("descent", "extraction", "origin", "birth", "parentage", "stock", "blood")
)

// isDemonym reports whether w (capitalised) names a people: a CLDR
// language name or a word of a declared origin.
func (k *Knowledge) isDemonym(w string) bool {
	if demonymsOf()[w] {
		return true
	}
	k.originWordsOnce.Do(func() {
		k.originWords = map[string]bool{}
		for _, e := range k.ents {
			k.eachFact(e, func(key, val string) {
				if !originKeys[normKey(key)] && strings.ToLower(key) != "nationality" {
					return
				}
				for _, x := range prose.LatinWords(val) {
					if r := x[0]; r >= 'A' && r <= 'Z' && len(x) > 3 {
						k.originWords[x] = true
					}
				}
			})
		}
	})
	return k.originWords[w]
}

// checkDemonymOrigins finds a people's adjective said of someone's parents
// or stock ("the son of an obscure Polish gentleman", "of German
// descent") against the declared origin of the one person with an origin
// the text names nearby.
func (k *Knowledge) checkDemonymOrigins(d *doc) []Finding {
	var out []Finding
	var eff []effMention
	for i, w := range d.words {
		if r := w.s[0]; r < 'A' || r > 'Z' || i+1 >= len(d.words) || !k.isDemonym(w.s) {
			continue
		}
		next := strings.ToLower(d.words[i+1].s)
		if !sameClause(d, i, i+1) {
			continue
		}
		// "of German descent"; "the son of a[n] [adjective] Polish
		// gentleman".
		ok := false
		var named *entInfo
		switch {
		case stockNouns[next]:
			ok = i > 0 && strings.ToLower(d.words[i-1].s) == "of"
		case parentNouns[next]:
			for j := i - 1; j >= 1 && j >= i-4; j-- {
				if strings.ToLower(d.words[j].s) == "of" {
					ok = childNouns[strings.ToLower(d.words[j-1].s)]
					break
				}
			}
		}
		// "the German tutor Dessalles": a people's adjective between
		// "the" and the noun of a named person's calling says what they
		// are; not a sentence's subject ("a German beats Buonaparte").
		calling := i > 0 && strings.ToLower(d.words[i-1].s) == "the" && unicode.IsLower([]rune(next)[0]) &&
			!strings.HasSuffix(next, "s") && !strings.HasSuffix(next, "ed") && !stockNouns[next]
		if !ok && calling && i+2 < len(d.words) && d.between(i, i+1) == " " && d.between(i+1, i+2) == " " {
			for _, mi := range d.mentionsIn(d.words[i+2].start, d.words[i+2].start+1) {
				if m := d.mentions[mi]; m.firstWord == i+2 && len(m.ents) == 1 && m.ents[0].person {
					named, ok = m.ents[0], true
				}
			}
		}
		if !ok {
			continue
		}
		if eff == nil {
			eff = k.effMentions(d)
		}
		keyOf := func(e *entInfo) (string, string) {
			for key, v := range d.factsOf(e) {
				if lk := strings.ToLower(key); originKeys[normKey(key)] || lk == "nationality" {
					return key, v
				}
			}
			return "", ""
		}
		e := named
		if e == nil {
			e = k.holderInScope(eff, w.start, func(e *entInfo) bool { key, _ := keyOf(e); return e.person && key != "" })
		}
		if e == nil {
			continue
		}
		if k, _ := keyOf(e); k == "" {
			continue
		}
		key, declared := keyOf(e)
		stated, judged := false, false
		for _, x := range prose.LatinWords(declared) {
			if prose.Unaccented(x) == prose.Unaccented(w.s) {
				stated = true
			}
			if k.isDemonym(x) {
				judged = true
			}
		}
		if stated || !judged {
			continue // the same people, or a declared origin that names none
		}
		f := k.cjkFactFinding(d, e, w.start, w.end, key, declared, 0.65)
		f.Message = fmt.Sprintf("the text makes %s %s by birth, but %s's %s is %q as of chapter %d", e.e.Name, w.s, e.e.Name, key, declared, d.chapter)
		out = append(out, f)
	}
	return out
}
