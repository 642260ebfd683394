package factcheck

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// Birth order stated of a named character ("Colonel Fitzwilliam, the
// eldest son of his uncle"), against a declared value that gives it
// ("younger son of an earl"). Only apposition and a copula right after
// the name count: "the eldest son" elsewhere in the sentence may be
// anyone's.

// birthRank groups the order words that say the same: the eldest is the
// elder of two, the younger may be the second or the third.
var birthRank = map[string]string{
	"eldest": "first", "elder": "first", "oldest": "first", "older": "first", "first": "first",
	"younger": "later", "youngest": "later", "second": "2", "third": "3", "fourth": "4", "fifth": "5",
	"only": "only",
}

// birthKin are the nouns an order word is said of.
const birthKin = `son|daughter|brother|sister|child|girl|boy`

var (
	birthInText  = regexp.MustCompile(`^(?:,| was| is)\s+(?:the|an?|his|her)\s+(` + orderWords() + `)\s+(` + birthKin + `)\b`)
	birthInValue = regexp.MustCompile(`\b(` + orderWords() + `)\s+(` + birthKin + `)\b`)
)

func orderWords() string {
	return strings.Join(slices.Sorted(maps.Keys(birthRank)), "|")
}

// birthOrdersAgree reports whether two order words can say the same:
// the same group, or "younger" against a numbered place.
func birthOrdersAgree(a, b string) bool {
	ga, gb := birthRank[a], birthRank[b]
	if ga == gb {
		return true
	}
	numbered := func(g string) bool { return g >= "2" && g <= "5" && len(g) == 1 }
	return ga == "later" && numbered(gb) || gb == "later" && numbered(ga)
}

// checkBirthOrder finds a birth order predicated of a name that differs
// from the one a fact of the named character declares for the same noun.
func (k *Knowledge) checkBirthOrder(d *doc) []Finding {
	var out []Finding
	for _, m := range d.mentions {
		if m.firstWord < 0 || len(m.ents) != 1 || !m.ents[0].person {
			continue
		}
		rest := d.text[m.end:min(len(d.text), m.end+60)]
		g := birthInText.FindStringSubmatchIndex(strings.ToLower(rest))
		if g == nil {
			continue
		}
		said, noun := strings.ToLower(rest[g[2]:g[3]]), strings.ToLower(rest[g[4]:g[5]])
		// "the only daughter who remained at home" restricts "only" to
		// some: only "the only son of", or the phrase ending, says it.
		if after := strings.TrimLeft(rest[g[5]:], " "); said == "only" && !strings.HasPrefix(after, "of ") && (after == "" || prose.IsLatinWordRune([]rune(after)[0])) {
			continue
		}
		e := m.ents[0]
		facts := d.factsOf(e)
		for _, key := range slices.Sorted(maps.Keys(facts)) {
			v := facts[key]
			dg := birthInValue.FindStringSubmatch(strings.ToLower(v))
			// A value that is the order word alone ("youngest") gives
			// it for whatever noun the text says.
			if w := strings.TrimPrefix(strings.ToLower(strings.TrimSpace(v)), "the "); dg == nil && birthRank[w] != "" && w != "only" {
				dg = []string{w, w, noun}
			}
			if dg == nil || dg[2] != noun || birthOrdersAgree(said, dg[1]) {
				continue
			}
			start, end := m.end+g[2], m.end+g[3]
			line, since := e.e.FactSource(key, d.chapter)
			out = append(out, Finding{
				Type:       TypeFact,
				Start:      start,
				End:        end,
				Message:    fmt.Sprintf("the text makes %s the %s %s, but %s's %s is %q as of chapter %d", d.text[m.start:m.end], d.text[start:end], noun, e.e.Name, key, v, d.chapter),
				Evidence:   Evidence{Path: e.e.Path, Resource: e.e.Resource, Key: key, Value: v, Line: line, Since: since},
				Suggestion: matchCase(dg[1], d.text[start:end]),
				Confidence: 0.8,
			})
			break
		}
	}
	return out
}
