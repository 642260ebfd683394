package factcheck

import (
	"strings"
	"unicode/utf8"
)

// latinOpensNarratedClause reports whether the English mention m is the
// subject of a clause acting now: it opens a sentence or a clause joined
// by "and", "but" or "then", follows a fronted clause of time, or stands
// right after "when" or "while" ("when Lydia came in"), and the
// word after it, past a few adverbs or a parenthesis between commas, is a
// verb in the past. A clause of memory, talk, letters, death or another
// time (a modal, the past perfect) is not. It reports too the other ways
// English puts a name in the scene that the general readings leave out
// (latinInScene).
func (d *doc) latinOpensNarratedClause(m mention) bool {
	if m.possessive {
		return false
	}
	// "Nicholas Kaysárov": a one-word name with a surname the mention
	// does not take is a namesake.
	if nx := m.lastWord + 1; m.firstWord == m.lastWord && nx < len(d.words) && d.between(m.lastWord, nx) == " " && unicode0Upper(d.words[nx].s) {
		return false
	}
	subject := m.lastWord+1 < len(d.words) && (latinClauseStart(d, m.firstWord) || afterFrontedClause(d, m.firstWord) || afterTimeConjunction(d, m.firstWord))
	scene := d.latinInScene(m)
	if !subject && !scene {
		return false
	}
	lo, hi := d.clauseBounds(m.start, m.end)
	low := lastingPosture(" " + strings.ToLower(d.text[lo:hi]) + " ")
	// The tense of the main verb after a relative clause of the scene
	// is no other time for it ("Prince Andrew, who often sat with them,
	// had realized"): the modals count up to the relative clause's end.
	modal := low
	if end := d.relativeEnd(m); end > 0 && end < hi {
		modal = lastingPosture(" " + strings.ToLower(d.text[lo:end]) + " ")
	}
	for i, w := range latinNotPresentCues {
		if in := low; i < latinModalCues {
			if !strings.Contains(modal, w) {
				continue
			}
		} else if !strings.Contains(in, w) {
			continue
		}
		return false
	}
	if d.firstPersonAround(m) {
		return false
	}
	if subject {
		wi := m.lastWord + 1
		switch strings.TrimSpace(d.between(m.lastWord, wi)) {
		case "":
			if d.latinVerbAt(wi) {
				return true
			}
		case ",":
			if d.verbAfterParenthesis(wi) {
				return true
			}
		}
	}
	if !scene {
		return false
	}
	for _, w := range latinNotLivingCues {
		if strings.Contains(low, w) {
			return false
		}
	}
	return true
}

// latinNotLivingCues in the clause of a name told of as looked at or
// gone to make it an image or a body, not the living person: "looked at
// the little princess's portrait", "went to Prince Andrew's coffin".
var latinNotLivingCues = []string{"coffin", "corpse", "body", "bier", "tomb", "monument", "picture", "icon", "statue", "image", "likeness"}

// afterTimeConjunction reports whether word wi follows "when" or "while"
// right before it, opening a clause of the scene: "when Lydia came in".
// "As" is left out: "just as Nicholas entered" is as often the return the
// files have not caught up with as a slip ("until", "till": a time
// before).
func afterTimeConjunction(d *doc, wi int) bool {
	if wi == 0 || d.between(wi-1, wi) != " " {
		return false
	}
	switch strings.ToLower(d.words[wi-1].s) {
	case "when", "while", "whilst":
		return true
	}
	return false
}

// latinInScene reports whether the name m is the goal of an act of the
// scene: spoken, turned, gone or looked to ("said she to Prince Andrew",
// "went up to Lydia", "moved threateningly toward the old prince",
// "looked round disapprovingly at Pétya and the little princess"); the
// subject of a relative clause of the scene ("Hélène—who sat weary at
// the samovar", "Lydia, who was passing"); the speaker of a
// line of dialogue ("“That’s right,” chimed in the little princess"); or
// the owner of a face or voice there ("Smiles decked the face of
// Mrs. Bennet").
func (d *doc) latinInScene(m mention) bool {
	return latinGoalOf(d, m.firstWord) || d.relativeActs(m) || chimedIn(d, m.firstWord) || presenceOf(d, m.firstWord) || whereDoing(d, m) || didInverted(d, m)
}

// didBases are the bare verbs of the scene an inverted "did" takes.
var didBases = wordSet("say", "speak", "look", "come", "go", "enter", "smile", "laugh", "turn", "walk", "sit", "stand", "take", "give",
	"dance", "cry", "reply", "answer", "exclaim", "glance", "address", "ask", "repeat", "rise", "bow", "kiss", "press", "shake")

// didDenials before an inverted "did" deny the act or ask about it: "nor
// did Lydia come", "why did Lydia go".
var didDenials = wordSet("nor", "never", "not", "neither", "seldom", "rarely", "scarcely", "hardly", "little", "why", "how", "what", "where", "when", "whether", "if", "no", "nowhere")

// didInverted reports whether m is the subject of an emphatic "did" put
// before it, with a bare verb of the scene after it: "more than once
// during dinner did Lydia say voluntarily to Elizabeth". A denial or a
// question before it ("nor did Lydia come", "why did Lydia go?") is no
// act.
func didInverted(d *doc, m mention) bool {
	i, j := m.firstWord-1, m.lastWord+1
	if i < 0 || j >= len(d.words) || m.possessive || strings.ToLower(d.words[i].s) != "did" || d.between(i, m.firstWord) != " " || d.between(m.lastWord, j) != " " {
		return false
	}
	if !didBases[strings.ToLower(d.words[j].s)] {
		return false
	}
	sent := d.sents[d.sentenceAt(m.start)]
	if strings.Contains(d.text[m.end:sent.end], "?") {
		return false
	}
	for k := i - 1; k >= 0 && d.words[k].start >= sent.start; k-- {
		if didDenials[strings.ToLower(d.words[k].s)] {
			return false
		}
	}
	return true
}

// latinHabits are adverbs of habit.
var latinHabits = wordSet("often", "usually", "always", "generally", "frequently", "sometimes")

// postureProgressives are what one is doing where one is, in the
// progressive: after "had been" they last up to the moment of the scene
// ("had been sitting with them at least an hour"), unlike a whole act
// told before it ("had gone").
var postureProgressives = wordSet("sitting", "standing", "waiting", "walking", "talking", "playing", "dancing", "watching", "listening", "reading", "pacing", "chatting")

// hadBeenAt reports whether words from wi on read "had been" and a verb
// of postureProgressives.
func hadBeenAt(d *doc, wi int) bool {
	if wi+2 >= len(d.words) || strings.ToLower(d.words[wi].s) != "had" || strings.ToLower(d.words[wi+1].s) != "been" {
		return false
	}
	return d.between(wi, wi+1) == " " && d.between(wi+1, wi+2) == " " && postureProgressives[strings.ToLower(d.words[wi+2].s)]
}

// whereDoing reports whether the name opens a clause of "where" that
// says what its owner is doing at the place the sentence names: "the
// house, where the old prince was still pacing his study". Only the
// progressive of the scene counts: "where Prince Andrew had died" or
// "where he lived" tell of another time.
func whereDoing(d *doc, m mention) bool {
	wi, j := m.firstWord, m.lastWord+1
	if wi == 0 || j+1 >= len(d.words) || d.between(wi-1, wi) != " " || strings.ToLower(d.words[wi-1].s) != "where" || m.possessive {
		return false
	}
	if w := strings.ToLower(d.words[j].s); w != "was" && w != "were" {
		return false
	}
	for n := j + 1; n < len(d.words) && n <= j+2; n++ {
		if d.between(n-1, n) != " " {
			return false
		}
		w := strings.ToLower(d.words[n].s)
		if postureProgressives[w] {
			return true
		}
		if w != "still" && w != "already" && w != "now" && w != "just" {
			return false
		}
	}
	return false
}

// latinGoalOf reports whether word wi, or the list of names it ends
// ("Pétya and the little princess"), is the object of a preposition of
// address, motion or gaze after a verb that takes it (goalVerbs), a
// pronoun ("said she to") or a few adverbs between them.
func latinGoalOf(d *doc, wi int) bool {
	j := wi - 1
	// Back over the names of a list before this one.
	for n := 0; j >= 0 && n < 8 && sameClause(d, j, j+1); n++ {
		w := d.words[j].s
		if w != "and" && !unicode0Upper(w) && strings.ToLower(w) != "the" || strings.TrimSpace(d.between(j, j+1)) != "" && j+1 != wi && w == "and" {
			break
		}
		j--
	}
	if j < 1 || !sameClause(d, j, j+1) {
		return false
	}
	// The word right before the name or its list is the preposition.
	prep := strings.ToLower(d.words[j].s)
	verbs := goalVerbs[prep]
	if verbs == nil {
		return false
	}
	for k, n := j-1, 0; k >= 0 && n < 3 && sameClause(d, k, k+1) && strings.TrimSpace(d.between(k, k+1)) == ""; k, n = k-1, n+1 {
		w := strings.ToLower(d.words[k].s)
		if verbs[w] {
			return true
		}
		if !strings.HasSuffix(w, "ly") && !goalParticles[w] && !(prep == "to" && (w == "he" || w == "she")) {
			return false
		}
	}
	return false
}

// goalVerbs are, for each preposition, the verbs in the past after which
// it takes someone present: one spoken, turned, gone or looked to.
var goalVerbs = map[string]map[string]bool{
	"to": wordSet("said", "spoke", "whispered", "murmured", "replied", "shouted", "called", "bowed", "nodded",
		"turned", "went", "ran", "came", "hurried", "rushed", "stepped", "walked", "crossed", "listened", "curtsied",
		"courtesied", "apologized", "explained", "introduced", "presented", "handed", "gave", "offered", "returned"),
	"toward":  wordSet("moved", "went", "ran", "came", "turned", "stepped", "walked", "rode", "advanced", "hurried", "rushed", "glanced", "looked", "bent", "leaned"),
	"towards": wordSet("moved", "went", "ran", "came", "turned", "stepped", "walked", "rode", "advanced", "hurried", "rushed", "glanced", "looked", "bent", "leaned"),
	"at":      wordSet("looked", "glanced", "stared", "gazed", "smiled", "laughed", "nodded", "frowned", "winked", "peered", "looking", "glancing", "staring", "gazing", "smiling"),
}

// goalParticles may stand between a verb of goalVerbs and its
// preposition: "went up to", "looked round at", "turned back to".
var goalParticles = wordSet("up", "over", "round", "around", "back", "across", "again", "straight", "quickly", "away")

// relativeActs reports whether a relative clause of the scene follows the
// name, at once or after a comma or a dash: "Hélène—who sat weary but
// resolute at the samovar", "Lydia, who was passing". A state, a habit
// or another time in the relative clause ("who lived in London", "who
// often joined them", "who had followed her in") is none.
func (d *doc) relativeActs(m mention) bool {
	wi := m.lastWord + 1
	if wi+1 >= len(d.words) || strings.ToLower(d.words[wi].s) != "who" {
		return false
	}
	if g := strings.TrimSpace(d.between(m.lastWord, wi)); g != "" && g != "," && g != "—" {
		return false
	}
	v := strings.ToLower(d.words[wi+1].s)
	if d.between(wi, wi+1) != " " {
		return false
	}
	// "the little princess, who had been waiting on the bank": waiting
	// up to the moment of the scene.
	if v == "had" && hadBeenAt(d, wi+1) {
		return true
	}
	// "Prince Andrew, who often sat with them": the company the scene's
	// people keep, told as their habit of the time.
	if wi+3 < len(d.words) && latinHabits[v] && companionVerbs[strings.ToLower(d.words[wi+2].s)] && strings.ToLower(d.words[wi+3].s) == "with" {
		return true
	}
	if relativeStates[v] {
		return false
	}
	if v == "was" || v == "were" {
		// "who was passing": the progressive is an act of the scene.
		nx := ""
		if wi+2 < len(d.words) {
			nx = strings.ToLower(d.words[wi+2].s)
		}
		return len(nx) > 5 && strings.HasSuffix(nx, "ing")
	}
	return latinPastVerbs[v] || pastVerbs[v]
}

// relativeStates after "who" tell what one is or has long done, not an
// act of the scene.
var relativeStates = wordSet("lived", "loved", "liked", "married", "knew", "owned", "belonged", "hated", "resided", "wished",
	"wanted", "preferred", "admired", "despised", "became", "seemed", "appeared", "felt", "had", "has", "was", "were")

// chimedIn reports whether word wi follows a verb in the past and a
// particle right after a quotation: “That’s right, my dear,” chimed in
// the little princess.
func chimedIn(d *doc, wi int) bool {
	if wi < 2 || d.between(wi-1, wi) != " " || d.between(wi-2, wi-1) != " " || !afterQuote(d, wi-2) {
		return false
	}
	p, v := strings.ToLower(d.words[wi-1].s), strings.ToLower(d.words[wi-2].s)
	return (p == "in" || p == "out" || p == "up" || p == "forth") && (latinPastVerbs[v] || pastVerbs[v] || len(v) > 4 && strings.HasSuffix(v, "ed"))
}

// presenceOf reports whether word wi follows "the face of", "the voice
// of" and the like: the owner of a face seen or a voice heard is there.
func presenceOf(d *doc, wi int) bool {
	if wi < 3 || d.between(wi-1, wi) != " " || d.between(wi-2, wi-1) != " " || strings.ToLower(d.words[wi-1].s) != "of" {
		return false
	}
	return strings.ToLower(d.words[wi-3].s) == "the" && presenceOfNouns[strings.ToLower(d.words[wi-2].s)]
}

// presenceOfNouns before "of" and a name put its owner in the scene.
var presenceOfNouns = wordSet("face", "voice", "figure", "laugh", "laughter", "smile", "footsteps", "tread", "presence", "eyes")

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
		// "Colonel Fitzwilliam and Mr. Bingley had been sitting with
		// them": a posture up to the moment of the scene.
		if n == wi && hadBeenAt(d, n) {
			return true
		}
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
			if d.inRoomAfter(n + 1) {
				return true
			}
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

// inRoomAfter reports whether the words from wi on put the subject of
// "was" in a part of the house or a place of the scene ("was in the
// porch", "were at the window") or in a mood ("was in very great
// spirits"): "in" or "at" alone may be a town far away.
func (d *doc) inRoomAfter(wi int) bool {
	if wi+1 >= len(d.words) {
		return false
	}
	p := strings.ToLower(d.words[wi].s)
	if p != "in" && p != "at" && p != "by" && p != "near" {
		return false
	}
	n := wi + 1
	w := strings.ToLower(d.words[n].s)
	if p == "in" && moodWords[w] {
		return true
	}
	if w == "the" || w == "his" || w == "her" || w == "their" {
		n++
	}
	for ; n < len(d.words) && n <= wi+3; n++ {
		if !sameClause(d, n-1, n) {
			return false
		}
		if w := strings.ToLower(d.words[n].s); roomWords[w] {
			return true
		}
	}
	return false
}

// roomWords are parts of a house and places of a scene one is in or at.
var roomWords = wordSet("porch", "hall", "room", "drawing", "doorway", "door", "window", "yard", "study", "anteroom", "passage",
	"vestibule", "parlour", "parlor", "library", "gallery", "corridor", "shrubbery", "table", "stairs", "staircase",
	"balcony", "veranda", "ballroom", "dining", "breakfast", "bedroom", "nursery", "hut", "tent", "carriage", "sledge", "samovar")

// moodWords after "was in" make it a mood, not a place.
var moodWords = wordSet("spirits", "tears", "raptures", "high", "low", "great", "very", "such", "good", "excellent")

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
	// After a line of dialogue the name opens the narration again:
	// “Why haven’t they carried him away?” Prince Andrew was about to ask.
	if r, _ := utf8.DecodeLastRuneInString(before); strings.ContainsRune(".!?;\n”\"", r) {
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

// latinModalCues is how many of latinNotPresentCues, at their head, are
// the modals and the perfect.
const latinModalCues = 8

// lastingPosture rewrites, in the lower-case text low, "had been" and a
// verb of postureProgressives as "was": a posture kept up to the moment
// of the scene is no perfect of another time.
func lastingPosture(low string) string {
	if !strings.Contains(low, " had been ") {
		return low
	}
	for w := range postureProgressives {
		low = strings.ReplaceAll(low, " had been "+w, " was "+w)
	}
	return low
}

// relativeEnd returns where the relative clause of the scene after m
// ends (relativeActs), at the next comma, dash, semicolon or stop; 0
// when there is none.
func (d *doc) relativeEnd(m mention) int {
	if !d.relativeActs(m) {
		return 0
	}
	at := d.words[m.lastWord+1].end
	if i := strings.IndexAny(d.text[at:], ",;.!?—"); i >= 0 {
		return at + i
	}
	return 0
}

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
