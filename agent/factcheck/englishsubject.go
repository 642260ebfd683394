package factcheck

import (
	"strings"
	"unicode/utf8"
)

// latinOpensNarratedClause reports whether the English mention m opens a
// sentence or a clause joined by "and", "but" or "then", and the word
// after it, past a few adverbs or a parenthesis between commas, is a verb
// in the past: the clause's subject acting now. A clause of memory, talk,
// letters, death or another time (a modal, the past perfect) is not.
func (d *doc) latinOpensNarratedClause(m mention) bool {
	if m.possessive || m.lastWord+1 >= len(d.words) || !latinClauseStart(d, m.firstWord) && !afterFrontedClause(d, m.firstWord) {
		return false
	}
	low := " " + strings.ToLower(d.clauseAround(m.start, m.end)) + " "
	for _, w := range latinNotPresentCues {
		if strings.Contains(low, w) {
			return false
		}
	}
	if d.firstPersonAround(m) {
		return false
	}
	wi := m.lastWord + 1
	switch strings.TrimSpace(d.between(m.lastWord, wi)) {
	case "":
		return d.latinVerbAt(wi)
	case ",":
		return d.verbAfterParenthesis(wi)
	}
	return false
}

// firstPersonAround reports whether the sentence of m, outside
// quotation marks, speaks in the first person ("I joined them
// unexpectedly; and then Georgiana, unable to support the idea,
// acknowledged the whole to me"): a letter or a story a character tells,
// of another place and time than the scene.
func (d *doc) firstPersonAround(m mention) bool {
	sent := d.sents[d.sentenceAt(m.start)]
	for wi := d.wordAt(sent.start); wi < len(d.words) && d.words[wi].end <= sent.end; wi++ {
		if w := d.words[wi].s; (w == "I" || firstPersonWords[w]) && !d.inQuote(d.words[wi].start) {
			return true
		}
	}
	return false
}

// firstPersonWords are the first person's pronouns besides "I".
var firstPersonWords = wordSet("me", "my", "myself", "Me", "My", "Myself")

// latinVerbAt reports whether word wi, past at most two adverbs, is a
// verb in the past that places its subject in the scene.
func (d *doc) latinVerbAt(wi int) bool {
	for n := wi; n < len(d.words) && n <= wi+2; n++ {
		if n > wi && strings.TrimSpace(d.between(n-1, n)) != "" {
			return false
		}
		w := strings.ToLower(d.words[n].s)
		if w == "was" || w == "were" {
			// "Prince Andrew was not there", "was abroad", "was
			// occasionally a visitor": being somewhere else, or a habit.
			nx := ""
			for x := n + 1; x < len(d.words) && x <= n+2; x++ {
				// "Wickham, Lydia, were all forgotten": a word of
				// number stands before the participle.
				if nx = strings.ToLower(d.words[x].s); !latinBeQuantifiers[nx] {
					break
				}
			}
			// "was buried at sea": a passive tells what was done to them.
			passive := irregularParticiples[nx] || latinMoreParticiples[nx] || len(nx) > 3 && strings.HasSuffix(nx, "ed")
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

// verbAfterParenthesis reports whether the words from wi on are a
// parenthesis closed by a comma ("laughing", "with a smile", "after
// assuring them that he bore his young cousin no ill-will") and a verb in
// the past follows it: "Lydia, laughing, ran in". A parenthesis that
// moves the clause to another time, place or habit ("as usual", "as she
// remembered", "at Brighton", "years ago") or reports it ("he said")
// does not leave the name acting in the scene.
func (d *doc) verbAfterParenthesis(wi int) bool {
	for n := wi; n+1 < len(d.words) && n < wi+25; n++ {
		w := strings.ToLower(d.words[n].s)
		if parenthesisElsewhere[w] || n == wi && parenthesisOpensAside(d, n) {
			return false
		}
		gap := d.between(n, n+1)
		if strings.ContainsAny(gap, ".!?;:“”\"()\n") {
			return false
		}
		if strings.TrimSpace(gap) == "," && d.latinVerbAt(n+1) {
			return true
		}
	}
	return false
}

// parenthesisOpensAside reports whether the parenthesis opening at word n
// is a clause of its own ("he said", "as she remembered", "as usual") or
// names a place ("at Brighton", "in Moscow"); "as if" and "as though"
// tell the manner of the act and stay in the scene.
func parenthesisOpensAside(d *doc, n int) bool {
	w := strings.ToLower(d.words[n].s)
	if latinSubjectPronouns[w] {
		return true
	}
	if n+1 >= len(d.words) {
		return false
	}
	nx := d.words[n+1].s
	switch w {
	case "as":
		return nx != "if" && nx != "though"
	case "in", "at", "from":
		return unicode0Upper(nx)
	}
	return false
}

// latinMoreParticiples are past participles of a passive besides
// irregularParticiples: "were all forgotten", "was slain".
var latinMoreParticiples = wordSet("forgotten", "forgiven", "slain", "born", "borne", "beaten", "chosen", "driven", "eaten", "fallen",
	"hidden", "ridden", "risen", "shaken", "stolen", "struck", "sworn", "torn", "thrown", "worn", "broken", "bitten", "frozen",
	"forbidden", "overcome", "understood", "caught", "bought", "paid", "laid", "bound", "hung", "shot")

// latinBeQuantifiers may stand between "were" and what follows it.
var latinBeQuantifiers = wordSet("all", "both", "each")

// latinSubjectPronouns open a clause of their own.
var latinSubjectPronouns = wordSet("he", "she", "they", "i", "we", "you", "it")

// parenthesisElsewhere in a parenthesis after a name put its clause in
// another time or a habit: "Wickham, as usual, had gone", "Lydia, years
// ago, danced", "in her last letter".
var parenthesisElsewhere = wordSet("usual", "usually", "always", "ever", "often", "generally", "sometimes", "formerly", "once",
	"ago", "before", "since", "youth", "childhood", "child", "years", "last", "habit", "custom", "there")

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

// afterFrontedClause reports whether word wi follows the comma that
// closes a fronted clause of time or concession opening its sentence or
// clause ("When they reached the door, Jane stood", "and as Miss Bingley
// dared not approach, Lydia also recovered"): the name is the subject of
// the main clause, in the scene the fronted clause sets. A condition
// ("If the weather held", "Unless", "Had she known") is no scene, nor a
// habit or another time ("As usual", "When a child").
func afterFrontedClause(d *doc, wi int) bool {
	if wi == 0 || strings.TrimSpace(d.between(wi-1, wi)) != "," {
		return false
	}
	s := wi - 1
	for s > 0 && wi-s < 25 && sameClause(d, s-1, s) {
		s--
	}
	if s > 0 && sameClause(d, s-1, s) {
		return false // too long to be sure where it starts
	}
	for s < wi-1 && latinClauseJoiners[strings.ToLower(d.words[s].s)] {
		s++
	}
	if !frontedSubordinators[strings.ToLower(d.words[s].s)] || s+1 >= wi-1 {
		return false
	}
	return !frontedElsewhere[strings.ToLower(d.words[s+1].s)]
}

// latinClauseJoiners may stand before a fronted clause.
var latinClauseJoiners = wordSet("and", "but", "then", "yet", "so")

// frontedSubordinators open a fronted clause of the scene's time or a
// concession.
var frontedSubordinators = wordSet("when", "as", "while", "whilst", "after", "though", "although", "until", "till")

// frontedElsewhere after a subordinator make its clause a habit, another
// time or no clause of the scene: "As usual", "When a child", "As for
// Mary".
var frontedElsewhere = wordSet("usual", "always", "ever", "before", "a", "an", "young", "for", "to", "if", "though", "soon")

// latinSubjectAdverbs may stand between a subject and its verb.
var latinSubjectAdverbs = wordSet("rather", "soon", "then", "also", "now", "still", "again", "just", "suddenly", "too", "even", "only", "immediately")

// latinNotPresentCues in a clause put it in memory, talk, a letter, death
// or another time.
var latinNotPresentCues = []string{" had ", " would ", " could ", " should ", " might ", " must ", " will ", " may ", "remember", "recall", "thought", "dream", "letter", "wrote", "write", "portrait", "grave", "death", "died", "dead", "funeral", " late ", "used to", "memor", "news", "report", "heard", "told", "said of", "spoke of", "talk", "hoped", "wished", "feared", "believed", "expected", "supposed"}

// latinPastVerbs are the irregular past forms narration uses most ("left"
// is a departure, read by departs).
var latinPastVerbs = wordSet("went", "came", "saw", "took", "gave", "got", "sat", "stood", "ran", "rose", "began", "made",
	"held", "felt", "knew", "met", "brought", "found", "spoke", "put", "set", "led", "rode", "drove",
	"threw", "shook", "caught", "kept", "laid", "lay", "sang", "drew", "wore", "ate", "drank", "fell", "struck", "broke",
	"bent", "sent", "sprang", "swung", "wept", "slept", "woke", "awoke", "hid", "fought", "won", "lost",
	"became", "bought", "hung", "shot", "flung", "clung", "tore", "cut", "said", "was", "were",
	// The pasts a scene moves and turns its people with beyond the
	// commonest: "Lydia still knelt by the bed", "Prince Andrew strode".
	"let", "bade", "flew", "stole", "swore", "chose", "lit", "swept", "strode", "spun", "slid", "stuck", "sought", "taught",
	"fed", "rang", "leant", "leapt", "shed", "arose", "shrank", "shone", "blew", "grew", "spat", "slunk", "wrung", "spread",
	"cast", "thrust", "paid", "bore", "withdrew", "understood", "dug", "slung", "strove", "burst", "crept", "knelt", "sank",
	"forgot", "forgave", "overtook", "beheld", "swam", "froze", "dealt", "meant", "lent", "beat", "bit", "wound")
