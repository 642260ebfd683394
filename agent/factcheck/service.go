package factcheck

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// Whom a character serves: a value such as "adjutant to Kutúzov" or
// "Kutúzov's adjutant" names a post (the role noun) and the one it is
// held under, by name. The text contradicts it when it gives the character
// the same post under another name: "Prince Bolkónski, one of Bagratión's
// adjutants", "aide to Bagratión". The character must be named just
// before, in apposition or with a copula, so that a post of someone else
// in the sentence is not read as theirs. Neither the master nor the other
// needs a file: the names are compared as words.

// serviceValue is a declared value read as a post and the last word of
// the name it is held under.
type serviceValue struct {
	role  string // singular, lower case
	under string // unaccented, lower case
}

// parseService reads "R to P", "R of P" and "P's R" from a declared value,
// where P is a capitalised name.
func parseService(v string) (serviceValue, bool) {
	ws := strings.Fields(v)
	for i, w := range ws {
		w = strings.Trim(w, ",.;()")
		if (w == "to" || w == "of") && i > 0 && i+1 < len(ws) {
			if r := roleWord(ws[i-1]); r != "" {
				if p := nameAfter(ws[i+1:]); p != "" {
					return serviceValue{role: r, under: p}, true
				}
			}
		}
		for _, poss := range []string{"’s", "'s"} {
			if base, ok := strings.CutSuffix(w, poss); ok && i+1 < len(ws) && capitalised(base) {
				if r := roleWord(ws[i+1]); r != "" {
					return serviceValue{role: r, under: prose.Unaccented(strings.ToLower(base))}, true
				}
			}
		}
	}
	return serviceValue{}, false
}

// nameAfter is the last word of the run of capitalised words that opens
// ws (the surname of "Prince Bagratión"), unaccented and lower case.
func nameAfter(ws []string) string {
	last := ""
	for _, w := range ws {
		w = strings.Trim(w, ",.;()")
		if !capitalised(w) {
			break
		}
		last = w
	}
	if last == "" || titleWords[last] {
		return ""
	}
	return prose.Unaccented(strings.ToLower(last))
}

func capitalised(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

// roleWord is w as a role noun, singular and lower case, or "" when w is
// a word of another kind (an article, a name).
func roleWord(w string) string {
	w = strings.Trim(w, ",.;()")
	if len(w) < 4 || capitalised(w) || stopRoleWords[w] {
		return ""
	}
	return singular(w)
}

// servicePredicates may stand between a name and the post said of it.
var servicePredicates = wordSet("was", "is", "had", "has", "been", "became", "become", "one", "of", "the", "a", "an", "as",
	"now", "then", "still", "also", "appointed", "made", "serving", "served", "serves", "named", "chief", "senior", "junior", "new")

var stopRoleWords = wordSet("that", "this", "those", "them", "then", "than", "with", "from", "into", "under", "over", "some", "none", "each")

// checkService finds a declared post given in the text under another
// name.
func (k *Knowledge) checkService(d *doc) []Finding {
	if d.cjk {
		return nil
	}
	// The posts declared of the people the text names.
	type held struct {
		e        *entInfo
		key, val string
		sv       serviceValue
	}
	var posts []held
	seen := map[*entInfo]bool{}
	for _, m := range d.mentions {
		for _, e := range m.ents {
			if seen[e] || !e.person {
				continue
			}
			seen[e] = true
			for key, v := range d.factsOf(e) {
				if sv, ok := parseService(v); ok {
					posts = append(posts, held{e, key, v, sv})
				}
			}
		}
	}
	if len(posts) == 0 {
		return nil
	}
	var out []Finding
	for i, w := range d.words {
		role := singular(strings.ToLower(w.s))
		// "Q's R", "one of Q's Rs"; "R to Q", "Rs of Q".
		var q string
		var at, end int // the construction's first word, and its end
		if i >= 2 && d.words[i-1].s == "s" && d.between(i-1, i) == " " && (d.between(i-2, i-1) == "’" || d.between(i-2, i-1) == "'") && capitalised(d.words[i-2].s) {
			q, at, end = d.words[i-2].s, i-2, w.end
		} else if i+2 < len(d.words) && (d.words[i+1].s == "to" || d.words[i+1].s == "of") && sameClause(d, i, i+2) {
			var qi int
			q, qi = nameAfterWords(d, i+2)
			at, end = i, d.words[max(qi, 0)].end
		}
		if q == "" || titleWords[q] {
			continue
		}
		for _, p := range posts {
			if p.sv.role != role || prose.Unaccented(strings.ToLower(q)) == p.sv.under || !slices.Contains(d.serviceHolders(at), p.e) {
				continue
			}
			out = append(out, Finding{
				Type:       TypeFact,
				Start:      d.words[at].start,
				End:        end,
				Message:    fmt.Sprintf("the text makes %s %s’s %s, but %s's %s is %q as of chapter %d", p.e.e.Name, q, role, p.e.e.Name, p.key, p.val, d.chapter),
				Evidence:   Evidence{Path: p.e.e.Path, Resource: p.e.e.Resource, Key: p.key, Value: p.val},
				Suggestion: p.val,
				Confidence: 0.6,
			})
			break
		}
	}
	return out
}

// nameAfterWords is the last word of the run of capitalised words from
// word i of d in its clause and its index, or "" and -1.
func nameAfterWords(d *doc, i int) (string, int) {
	last, li := "", -1
	for j := i; j < len(d.words) && (j == i || sameClause(d, j-1, j) && d.between(j-1, j) == " "); j++ {
		if !capitalised(d.words[j].s) {
			break
		}
		last, li = d.words[j].s, j
	}
	return last, li
}

// serviceHolders are whom a construction starting at word at may be said
// of: the people a name just before it in its clause may be, in
// apposition or after a copula ("Prince Bolkónski, one of …", "Andrew was
// aide to …"), at most five words before and with no other name between.
// A name that two files bear (Prince Bolkónski, father and son) gives
// both; the one whose file declares the post is judged.
func (d *doc) serviceHolders(at int) []*entInfo {
	for i := len(d.mentions) - 1; i >= 0; i-- {
		m := d.mentions[i]
		if m.lastWord < 0 || m.lastWord >= at {
			continue
		}
		if !sameClause(d, m.lastWord, at) || at-m.lastWord > 5 || m.possessive {
			return nil
		}
		// Only words that predicate the post stand between ("met
		// Bagratión's adjutants" says nothing of Andrew's own).
		for j := m.lastWord + 1; j < at; j++ {
			if !servicePredicates[strings.ToLower(d.words[j].s)] {
				return nil
			}
		}
		return m.ents
	}
	return nil
}
