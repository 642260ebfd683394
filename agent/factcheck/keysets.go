package factcheck

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// Some keys take their values from a small set the files themselves
// list: the county a place lies in (Kent, Hertfordshire, Derbyshire), the
// regiment an officer serves in (Semënov, Pávlograd). A member of that
// set predicated of an entity whose own value is another contradicts it:
// "Hunsford, near Westerham, Hertfordshire" of a Hunsford in Kent;
// "Dólokhov, an officer of the Pávlograd Hussars" of a Semënov officer.
// A member is the first capitalised word of a value ("Pávlograd" of
// "Pávlograd hussars"), so that the book's other ways of writing it
// ("the Pávlograd regiment") still name it.

// containerKeys are the keys of the larger place an entity lies in or
// belongs to.
var containerKeys = wordSet("county", "province", "shire", "district", "region")

// regimentKeys are the keys of the unit someone serves in.
var regimentKeys = wordSet("regiment")

// serviceNouns name a soldier by what he is in his unit.
var serviceNouns = wordSet("officer", "ensign", "captain", "lieutenant", "colonel", "major", "cornet", "cadet", "soldier",
	"private", "commander", "general", "hussar")

// regimentBetween are the words that may stand between a name and its
// service noun and still predicate the noun of the name ("Dólokhov—who
// was now again an officer in the"); any other word may make the officer
// someone else ("Dólokhov met an officer of the").
var regimentBetween = wordSet("who", "was", "is", "had", "been", "now", "again", "then", "still", "already", "once", "an", "a", "the", "young", "old", "serving", "as")

// setMember is the first capitalised word of a value, or "".
func setMember(v string) string {
	for _, w := range prose.LatinWords(v) {
		if r := []rune(w)[0]; unicode.IsUpper(r) {
			return w
		}
	}
	return ""
}

// keySet gathers every member the files give a lower-case key, in any
// chapter, without accents.
func (k *Knowledge) keySet(key string) map[string]bool {
	out := map[string]bool{}
	for _, e := range k.ents {
		k.eachFact(e, func(fk, fv string) {
			if strings.ToLower(fk) == key {
				if w := setMember(fv); w != "" {
					out[prose.Unaccented(w)] = true
				}
			}
		})
	}
	return out
}

// checkKeySets finds a member of a key's set predicated of an entity
// whose value of that key is another member.
func (k *Knowledge) checkKeySets(d *doc) []Finding {
	if d.cjk {
		return nil
	}
	var out []Finding
	sets := map[string]map[string]bool{}
	for mi, m := range d.mentions {
		if len(m.ents) != 1 || m.firstWord < 0 || m.possessive {
			continue
		}
		e := m.ents[0]
		facts := d.factsOf(e)
		for _, key := range slices.Sorted(maps.Keys(facts)) {
			lk := strings.ToLower(key)
			var wi int
			switch {
			case containerKeys[lk] && !e.person:
				wi = d.containerAfter(m)
			case containerKeys[lk]:
				// "Mr. Darcy of Derbyshire".
				wi = -1
				if i := m.lastWord + 1; i+1 < len(d.words) && d.between(m.lastWord, i) == " " && d.words[i].s == "of" && d.between(i, i+1) == " " {
					wi = i + 1
				}
			case regimentKeys[lk] && e.person:
				wi = d.regimentAfter(mi)
			default:
				continue
			}
			if wi < 0 {
				continue
			}
			if sets[lk] == nil {
				sets[lk] = k.keySet(lk)
			}
			said := prose.Unaccented(d.words[wi].s)
			if !sets[lk][said] || prose.Unaccented(setMember(facts[key])) == said {
				continue
			}
			own := false
			k.eachFact(e, func(fk, fv string) {
				if strings.ToLower(fk) == lk && prose.Unaccented(setMember(fv)) == said {
					own = true
				}
			})
			if own {
				continue
			}
			f := k.cjkFactFinding(d, e, d.words[wi].start, d.words[wi].end, key, facts[key], 0.6)
			f.Message = fmt.Sprintf("the text puts %s in %s, but %s's %s is %q as of chapter %d", e.e.Name, d.words[wi].s, e.e.Name, key, facts[key], d.chapter)
			out = append(out, f)
			break
		}
	}
	return out
}

// containerAfter is the index of the word naming the larger place right
// after a place's mention m ("Hunsford, Kent", "Longbourn in
// Hertfordshire", "Hunsford, near Westerham, Kent"), or -1.
func (d *doc) containerAfter(m mention) int {
	i := m.lastWord + 1
	if i >= len(d.words) {
		return -1
	}
	gap := d.between(m.lastWord, i)
	if gap == ", " && strings.ToLower(d.words[i].s) == "near" {
		// ", near Westerham, ": a nearer place first.
		for j := i + 1; j < len(d.words) && j <= i+3; j++ {
			if d.between(j, j+1) == ", " && j+1 < len(d.words) {
				i, gap = j+1, ", "
				break
			}
		}
	}
	if gap == ", " || gap == " " {
		if w := d.words[i].s; w == "in" && i+1 < len(d.words) && d.between(i, i+1) == " " {
			i++
		} else if gap == " " {
			return -1
		}
	} else {
		return -1
	}
	if !unicode.IsUpper([]rune(d.words[i].s)[0]) || i+1 < len(d.words) && d.between(i, i+1) == " " && unicode.IsUpper([]rune(d.words[i+1].s)[0]) {
		return -1 // a longer name ("Kent House") is another place
	}
	// "Rosings, Derbyshire and London": a list of places, not one inside
	// another.
	if i+1 < len(d.words) && d.between(i, i+1) == " " {
		if w := strings.ToLower(d.words[i+1].s); w == "and" || w == "or" {
			return -1
		}
	}
	if i+1 < len(d.words) && d.between(i, i+1) == ", " && i+2 < len(d.words) && unicode.IsUpper([]rune(d.words[i+1].s)[0]) {
		return -1
	}
	return i
}

// regimentAfter is the index of the unit's first word in "NAME, an
// officer of the Pávlograd Hussars" or "NAME was now an officer in the
// Semënov regiment", or -1.
func (d *doc) regimentAfter(mi int) int {
	m := d.mentions[mi]
	next := len(d.text)
	if mi+1 < len(d.mentions) {
		next = d.mentions[mi+1].start
	}
	for i := m.lastWord + 1; i+3 < len(d.words) && i <= m.lastWord+8 && d.words[i].start < next; i++ {
		w := strings.ToLower(d.words[i].s)
		if serviceNouns[w] {
			if of := strings.ToLower(d.words[i+1].s); (of == "of" || of == "in") && strings.ToLower(d.words[i+2].s) == "the" && sameClause(d, m.lastWord, i+3) {
				if u := d.words[i+3].s; unicode.IsUpper([]rune(u)[0]) {
					return i + 3
				}
			}
			return -1
		}
		if !regimentBetween[w] {
			return -1
		}
	}
	return -1
}
