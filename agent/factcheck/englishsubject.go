package factcheck

import (
	"strings"
	"unicode/utf8"
)

// latinOpensNarratedClause reports whether the English mention m opens a
// sentence or a clause joined by "and", "but" or "then", and the word
// after it, past a few adverbs, is a verb in the past: the clause's
// subject acting now. A clause of memory, talk, letters, death or
// another time (a modal, the past perfect) is not.
func (d *doc) latinOpensNarratedClause(m mention) bool {
	if m.possessive || m.lastWord+1 >= len(d.words) || !latinClauseStart(d, m.firstWord) {
		return false
	}
	low := " " + strings.ToLower(d.clauseAround(m.start, m.end)) + " "
	for _, w := range latinNotPresentCues {
		if strings.Contains(low, w) {
			return false
		}
	}
	for wi := m.lastWord + 1; wi < len(d.words) && wi <= m.lastWord+3; wi++ {
		if strings.TrimSpace(d.between(wi-1, wi)) != "" {
			return false
		}
		w := strings.ToLower(d.words[wi].s)
		if w == "was" || w == "were" {
			// "Prince Andrew was not there", "was abroad", "was
			// occasionally a visitor": being somewhere else, or a habit.
			nx := ""
			if wi+1 < len(d.words) {
				nx = strings.ToLower(d.words[wi+1].s)
			}
			// "was buried at sea": a passive tells what was done to them.
			passive := irregularParticiples[nx] || len(nx) > 3 && strings.HasSuffix(nx, "ed")
			return nx != "" && !elsewhere[nx] && !strings.HasSuffix(nx, "ly") && !passive
		}
		switch w {
		case "stayed", "remained":
			return false // a stay told as a whole, not an act of the scene
		case "named", "called", "christened":
			return false // naming, not acting (participant.go)
		}
		if latinPastVerbs[w] || len(w) > 4 && strings.HasSuffix(w, "ed") {
			return true
		}
		if !strings.HasSuffix(w, "ly") && !latinSubjectAdverbs[w] {
			return false
		}
	}
	return false
}

// latinClauseStart reports whether word wi starts a sentence or a clause
// joined by "and", "but" or "then".
func latinClauseStart(d *doc, wi int) bool {
	before := strings.TrimRight(d.text[:d.words[wi].start], " \t")
	if before == "" {
		return true
	}
	if r, _ := utf8.DecodeLastRuneInString(before); strings.ContainsRune(".!?;\n", r) {
		return true
	}
	if wi > 0 {
		switch strings.ToLower(d.words[wi-1].s) {
		case "and", "but", "then":
			return strings.TrimSpace(d.between(wi-1, wi)) == ""
		}
	}
	return false
}

// latinSubjectAdverbs may stand between a subject and its verb.
var latinSubjectAdverbs = wordSet("soon", "then", "also", "now", "still", "again", "just", "suddenly", "too", "even", "only", "immediately")

// latinNotPresentCues in a clause put it in memory, talk, a letter, death
// or another time.
var latinNotPresentCues = []string{" had ", " would ", " could ", " should ", " might ", " must ", " will ", " may ", "remember", "recall", "thought", "dream", "letter", "wrote", "write", "portrait", "grave", "death", "died", "dead", "funeral", " late ", "used to", "memor", "news", "report", "heard", "told", "said of", "spoke of", "talk", "hoped", "wished", "feared", "believed", "expected", "supposed"}

// latinPastVerbs are the irregular past forms narration uses most ("left"
// is a departure, read by departs).
var latinPastVerbs = wordSet("went", "came", "saw", "took", "gave", "got", "sat", "stood", "ran", "rose", "began", "made",
	"held", "felt", "knew", "met", "brought", "found", "spoke", "put", "set", "led", "rode", "drove",
	"threw", "shook", "caught", "kept", "laid", "lay", "sang", "drew", "wore", "ate", "drank", "fell", "struck", "broke",
	"bent", "sent", "sprang", "swung", "wept", "slept", "woke", "awoke", "hid", "fought", "won", "lost",
	"became", "bought", "hung", "shot", "flung", "clung", "tore", "cut", "said", "was", "were")
