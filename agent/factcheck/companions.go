package factcheck

import "strings"

// English company of a scene beyond a verb of company right before
// "with": the agents of a passive of accompanying ("followed by his wife
// and Pétya"), a companion phrase set off by commas between a subject
// and its verb ("The countess, with Pétya and Sónya, drove off"), and a
// place between the verb of company and "with" ("walked in the garden
// with Pétya").

// accompanyParticiples take as agent, after "by", whoever goes along or
// meets someone on the spot: "followed by Pétya", "joined by his wife
// and Natásha".
var accompanyParticiples = wordSet("followed", "accompanied", "joined", "attended", "escorted", "surrounded", "preceded", "met",
	"greeted", "overtaken", "pursued", "flanked")

// byCompanions reports whether m, one item of a list of people, is the
// agent of a passive of accompanying: "came in, followed by his wife and
// Pétya". Not of a time before ("had been followed by"), nor in a
// sentence of memory or report.
func byCompanions(d *doc, m mention) bool {
	if m.possessive || m.firstWord < 2 {
		return false
	}
	first, last, _ := latinList(d, m)
	if first > m.firstWord || last < m.lastWord || first < 2 {
		return false
	}
	if strings.ToLower(d.words[first-1].s) != "by" || d.between(first-1, first) != " " || !sameClause(d, first-2, first-1) {
		return false
	}
	p := first - 2
	if !accompanyParticiples[strings.ToLower(d.words[p].s)] || before(d, p, notNow) || before(d, p, habitual) {
		return false
	}
	if before(d, p, wordSet("been")) && p > 1 && notNow[strings.ToLower(d.words[p-2].s)] {
		return false
	}
	return !talkedOf(d, m)
}

// withAside reports whether m, one item of a list of people after
// "with", stands in a phrase set off by commas after a subject of people,
// with a verb of the scene after it: "The countess, with Pétya and Sónya,
// drove to the Troitsa".
func withAside(d *doc, m mention) bool {
	if m.possessive || m.firstWord < 2 || asideBefore(d, m) {
		return false
	}
	first, last, _ := latinList(d, m)
	w := first - 1
	if first > m.firstWord || last < m.lastWord || w < 1 || strings.ToLower(d.words[w].s) != "with" || d.between(w, first) != " " {
		return false
	}
	if strings.TrimSpace(d.between(w-1, w)) != "," || !personWord(d, w-1) {
		return false
	}
	j := last + 1
	if j >= len(d.words) || strings.TrimSpace(d.between(last, j)) != "," {
		return false
	}
	if lw := strings.ToLower(d.words[j].s); strings.HasSuffix(lw, "ly") && len(lw) > 4 && j+1 < len(d.words) && d.between(j, j+1) == " " {
		j++
	}
	if !sceneVerb(d.words[j].s) {
		return false
	}
	return j+1 >= len(d.words) || !departing[strings.ToLower(d.words[j+1].s)]
}

// motionPreps open a phrase of where a verb of company or motion takes
// place or goes: "walked in the garden", "went to the ball".
var motionPreps = wordSet("in", "into", "to", "towards", "toward", "across", "through", "along", "round", "around", "about", "up", "down", "on", "at", "over")

// placePhraseBefore returns the word before a phrase of place that ends
// at word n ("in the garden", "to the ball", "up the stairs"): a
// preposition, a determiner and one or two more words; n itself when no
// such phrase ends there. A phrase of time (in the evening) is a place
// too for this: it keeps the verb of the moment.
func placePhraseBefore(d *doc, n int) int {
	for k := n - 1; k >= 1 && k >= n-2; k-- {
		if !sameClause(d, k, k+1) || strings.Contains(d.between(k, k+1), ",") {
			return n
		}
		if placeDeterminers[strings.ToLower(d.words[k].s)] && motionPreps[strings.ToLower(d.words[k-1].s)] && sameClause(d, k-1, k) {
			if k-2 >= 0 && sameClause(d, k-2, k-1) && !strings.Contains(d.between(k-2, k-1), ",") {
				return k - 2
			}
			return n
		}
	}
	return n
}
