package factcheck

import (
	"strings"
	"unicode"
)

// A general reading of "this name takes part in this scene", for English
// narration, that needs no particular construction of the verb: the name,
// alone or as one item of a list of people, is the subject of a finite
// verb in the past that opens on it, or the object of a verb that needs
// its object at hand (touched, taken along, found somewhere). The other
// checks of this package read one construction each; this one reads the
// clause's frame and leaves out what is plainly talk of someone absent:
// thought, memory, letters, news, death, hypotheses, habits and negation.

// notSceneVerbs are verbs in the past whose subject need not be in any
// scene: thinking, knowing, feeling towards someone, remembering,
// writing, reporting, dying, living somewhere, leaving or staying away.
var notSceneVerbs = wordSet("thought", "knew", "believed", "supposed", "expected", "hoped", "wished", "feared", "wanted", "intended",
	"meant", "remembered", "recollected", "recalled", "forgot", "forgave", "loved", "liked", "disliked", "hated", "admired", "preferred",
	"settled", "mourned", "grieved", "regretted", "missed", "wrote", "sent", "reported", "related", "informed", "promised", "heard", "learned", "learnt",
	"died", "perished", "fell", "lived", "resided", "dwelt", "married", "left", "remained", "stayed", "returned", "departed", "owned",
	"seemed", "appeared", "became", "continued", "used", "lost", "won", "inherited", "served", "belonged", "deserved", "wished",
	"ought", "needed", "owed", "possessed", "dreamed", "dreamt", "imagined", "fancied", "understood", "felt", "had", "was", "were",
	"did", "could", "would", "should", "might", "must")

// commentPronouns open a comment set between commas after a subject:
// "Charlotte, she soon found, was depending on the plan".
var commentPronouns = wordSet("i", "he", "she", "we", "they", "you", "it", "one")

// sceneAdverbs may stand between a subject and its verb: "Lydia then
// went", "Mr. Bingley presently rose".
var sceneAdverbs = wordSet("then", "now", "too", "also", "again", "presently", "instantly", "immediately", "suddenly", "soon", "first", "at", "once", "last", "all", "both", "together", "just", "quickly", "quietly", "slowly", "silently")

// sceneClauseOpeners may open a clause before its subject: conjunctions,
// subordinators of the moment and adverbs of sequence.
var sceneClauseOpeners = wordSet("and", "but", "then", "so", "now", "yet", "when", "while", "whilst", "as", "after",
	"though", "although", "presently", "meanwhile", "soon", "suddenly", "instantly", "immediately", "there", "here", "where", "whereupon", "just")

// momentLeads open a phrase of time before a subject, of at most four
// more words: "In a moment Lydia…", "At the end of January Pierre…".
var momentLeads = wordSet("in", "at", "after", "during", "on")

// timeNouns after a place preposition make the phrase one of time, not
// of place: "saw Jane in the spring".
var timeNouns = wordSet("spring", "summer", "autumn", "winter", "morning", "evening", "afternoon", "night", "year", "years", "past", "time",
	"days", "day", "week", "month", "course", "meantime", "end", "beginning", "first", "last", "papers", "newspaper", "newspapers", "letter",
	"letters", "world", "habit", "least", "same", "moment")

// contactVerbs take their object by the body or bring it along: whoever is
// kissed, embraced or seized is within reach.
var contactVerbs = wordSet("kissed", "kissing", "embraced", "embracing", "hugged", "hugging", "greeted", "greeting", "seized", "seizing",
	"grasped", "grasping", "clasped", "clasping", "touched", "touching", "pushed", "pushing", "patted", "patting", "nudged", "nudging",
	"lifted", "lifting", "carried", "carrying", "supported", "supporting", "welcomed", "welcoming", "joined", "joining", "accompanied",
	"accompanying", "escorted", "escorting", "overtook", "overtaking", "fetched", "fetching", "conducted", "conducting", "ushered",
	"ushering", "dragged", "dragging", "seated", "seating", "saluted", "saluting", "tickled", "nursed", "nursing", "undressed", "dressed",
	// Interrupting, hushing or beckoning someone needs them in earshot.
	"interrupted", "interrupting", "hushed", "hushing", "silenced", "beckoned", "beckoning",
	// Looking someone over needs them in sight.
	"regarded", "regarding", "eyed", "eyeing", "surveyed", "surveying", "scrutinized", "scrutinised", "watched", "watching", "addressed", "addressing")

// bringVerbs take their object along when "with" and the bringer follow:
// "taking old Prince Bolkónski with her", "brought Lydia with him".
var bringVerbs = wordSet("took", "taking", "takes", "brought", "bringing", "brings", "had", "having")

// withBringer are the words after "with" that make the one taken along
// the bringer's company.
var withBringer = wordSet("him", "her", "them", "me", "us", "himself", "herself", "themselves")

// seeVerbs perceive their object where it is when a place or what it is
// doing follows: "found Mr. Wickham at his elbow", "saw Lydia standing".
var seeVerbs = wordSet("found", "finds", "finding", "find", "saw", "see", "seeing", "beheld", "noticed", "perceived",
	"observed", "espied", "discovered", "spied", "spotted", "glimpsed")

// factiveFeelings before "to find" or "to see" make it what happened, not
// what was hoped: "were surprised to find Mr. Wickham at his elbow".
var factiveFeelings = wordSet("surprised", "astonished", "amazed", "glad", "delighted", "pleased", "shocked", "startled", "relieved", "sorry", "happy", "vexed", "annoyed", "mortified")

// placeVerbs put someone somewhere of the scene when a place phrase
// follows: "put Mr. Collins on her other side", "placed Lydia beside
// her".
var placeVerbs = wordSet("put", "placed", "placing", "set", "setting", "laid", "sat", "stood", "drew", "pulled")

// withMovers are verbs of going or coming that take their company after
// "with": "They went out with the little princess".
var withMovers = wordSet("went", "came", "walked", "rode", "drove", "ran", "hurried", "strolled", "stepped", "sauntered", "wandered",
	"galloped", "marched", "set", "started", "returned", "entered", "arrived", "appeared", "sat", "stood", "remained", "stayed",
	// Moving house or travelling with one's family: "moved to Bald Hills
	// with his wife, his mother, and Sónya".
	"moved", "travelled", "traveled", "journeyed", "drove")

// movedWith reports whether "with" at word w follows a verb of going or
// coming in the past, with at most three words of direction between and
// none of leaving ("went off with Wickham" is the elopement retold), and
// no "had", "would" or habit before the verb.
func movedWith(d *doc, w int) bool {
	for n := w - 1; n >= 0 && n >= w-4 && sameClause(d, n, n+1) && !strings.Contains(d.between(n, n+1), ","); n-- {
		// "went to the ball together with": over a phrase of place.
		if p := placePhraseBefore(d, n); p != n {
			n = p
		}
		lw := strings.ToLower(d.words[n].s)
		if departing[lw] {
			return false
		}
		if withMovers[lw] {
			return !before(d, n, notNow) && !before(d, n, habitual)
		}
		// "moved to Bald Hills with": the name of where they go.
		if !companionBetween[lw] && !(unicode0Upper(d.words[n].s) && !itemBreaks[lw]) {
			return false
		}
	}
	return false
}

// placePreps open a phrase of where someone is.
var placePreps = wordSet("at", "in", "on", "by", "beside", "near", "behind", "before", "among", "upon", "under", "outside", "inside", "within", "against")

// placeDeterminers open the noun of a place phrase.
var placeDeterminers = wordSet("the", "his", "her", "their", "its", "a", "an", "my", "our", "your")

// participant reports whether m's owner takes part in the narrated scene
// by the plainest reading of its clause: the subject of a verb of the
// scene, or the object of an act that needs them at hand.
func participant(d *doc, m mention, strict bool) bool {
	if m.firstWord < 0 || m.possessive || d.inQuote(m.start) || asideBefore(d, m) {
		return false
	}
	first, last, _ := latinList(d, m)
	if first > m.firstWord || last < m.lastWord {
		return false
	}
	// A list never runs across a sentence's end ("Princess Mary. Pétya").
	sent := d.sents[d.sentenceAt(m.start)]
	for first < m.firstWord && d.words[first].start < sent.start {
		first++
	}
	for last > m.lastWord && d.words[last].start >= sent.end {
		last--
	}
	if listActs(d, first, last, strict) || !strict && thereWas(d, first, last) {
		return true
	}
	return presenceObject(d, first, last, strict)
}

// asideBefore reports whether m's clause, before m, makes what it says
// of m talk rather than scene: a word of memory, report, wish or supposition (notSceneWords,
// recallVerbs), or a negation ("did not bring Lydia with her"). The
// clause runs back to a semicolon, a colon, a dash, a quotation (its tag
// is narration: "“…,” said Mrs. Bennet, while Charlotte sat by them") or
// a comma and a conjunction.
func asideBefore(d *doc, m mention) bool {
	sent := d.sents[d.sentenceAt(m.start)]
	own := seriesClauseStart(d, m)
	for n := m.firstWord - 1; n >= 0 && d.words[n].start >= sent.start; n-- {
		if strings.ContainsAny(d.between(n, n+1), ";:—–(“”\"") {
			break
		}
		w := strings.ToLower(d.words[n].s)
		if (notSceneWords[w] || recallVerbs[w]) && !outOfScope(d, n, own) {
			return true
		}
		switch w {
		case "not", "never", "no", "nor", "neither", "without":
			return true
		}
		if n > 0 && strings.Contains(d.between(n-1, n), ",") && clauseJoiners[w] {
			break
		}
	}
	return false
}

// opensAt reports whether the list that starts at word first opens its
// clause: at the start of its sentence or after a semicolon, colon or
// dash, or after a comma and a conjunction, with only conjunctions,
// adverbs of the moment, or one short phrase of time before it; or after
// an opening clause of time and a comma. bare says the list follows a
// bare comma after a clause of its own ("…, the little princess ran"),
// where only a verb right after it makes it a subject.
func opensAt(d *doc, first int) (opens, bare bool) {
	var lead []string
	n := first - 1
	for ; n >= 0; n-- {
		g := d.between(n, n+1)
		if strings.ContainsAny(g, ".!?;:—–(\n“”\"") {
			break
		}
		if strings.Contains(g, ",") {
			// ", and Lydia went": a clause joined by a conjunction.
			if len(lead) > 0 && clauseJoiners[strings.ToLower(lead[len(lead)-1])] {
				break
			}
			// "When Princess Mary returned to her room, Natásha and Pétya
			// met her": after a clause or phrase of time that opens the
			// sentence.
			if len(lead) > 0 {
				return false, false
			}
			// "The servants came out to meet them, the little princess
			// ran down the steps": one more clause of a narrated series,
			// its verb right after its subject.
			return true, !introducedAt(d, n)
		}
		lead = append(lead, d.words[n].s)
		if len(lead) > 5 {
			return false, false
		}
	}
	// lead is nearest first; read it from the clause's start.
	for k := len(lead) - 1; k >= 0; k-- {
		w := strings.ToLower(lead[k])
		if sceneClauseOpeners[w] || leadWords[w] {
			continue
		}
		// "In a moment Lydia…": a preposition of time and at most three
		// lower-case words.
		if k == len(lead)-1 && momentLeads[w] && k <= 4 {
			return true, false
		}
		return false, false
	}
	return true, false
}

// introOpeners open a clause or phrase of time or circumstance set
// before a sentence's subject: "When he came in, …", "On the gentlemen's
// approaching, …".
var introOpeners = wordSet("when", "as", "while", "whilst", "after", "on", "upon", "at", "in", "once", "whenever", "having", "during")

// introducedAt reports whether the words from the start of the sentence
// (or clause) up to word n, which a comma ends, are an opening phrase of
// time or circumstance: its first word (after "and" or "but") is one of
// introOpeners and it holds no other comma or break.
func introducedAt(d *doc, n int) bool {
	sent := d.sents[d.sentenceAt(d.words[n].start)]
	s := n
	for s > 0 && d.words[s-1].start >= sent.start && n-s < 20 {
		g := d.between(s-1, s)
		if strings.ContainsAny(g, ",;:—–(“”\"") {
			return false
		}
		s--
	}
	if s > 0 && d.words[s-1].start >= sent.start {
		return false
	}
	w := strings.ToLower(d.words[s].s)
	if (w == "and" || w == "but") && s < n {
		w = strings.ToLower(d.words[s+1].s)
	}
	return introOpeners[w]
}

// listActs reports whether the list of people [first, last] is the
// subject of a verb of the scene: it opens its clause, a phrase between
// commas and adverbs of the moment at most stand after it, and then a
// verb in the past that is no thought, memory, writing or death, or
// "was"/"were" and a participle.
func listActs(d *doc, first, last int, strict bool) bool {
	opens, bare := opensAt(d, first)
	if !opens {
		return false
	}
	j := last + 1
	if j >= len(d.words) || !sameClause(d, last, j) || bare && d.between(last, j) != " " {
		return false
	}
	// ", who had come into Kent with his friend," or ", pale and uneasy,":
	// a phrase of the subject's own between commas, naming nobody else's
	// words.
	// "The two girls, Kitty and Lydia, ran": the verb right after the
	// list in apposition.
	if strings.TrimSpace(d.between(last, j)) == "," && sceneVerb(d.words[j].s) && apposedList(d, first, last) {
		return true
	}
	if strings.TrimSpace(d.between(last, j)) == "," {
		// ", she soon found, was depending": a comment of someone else's.
		if commentPronouns[strings.ToLower(d.words[j].s)] {
			return false
		}
		k := j
		for k < len(d.words) && k < j+16 && (k == j || sameClause(d, k-1, k) && !strings.Contains(d.between(k-1, k), ",")) {
			if reportWords[strings.ToLower(d.words[k].s)] || notSceneWords[strings.ToLower(d.words[k].s)] {
				return false
			}
			k++
		}
		if k >= len(d.words) || strings.TrimSpace(d.between(k-1, k)) != "," || !sameClause(d, k-1, k) {
			return false
		}
		// ", who drove up to the guardhouse that morning,": a relative
		// clause that narrates the subject's own act on the spot.
		if strings.ToLower(d.words[j].s) == "who" && k > j+1 && sceneVerb(d.words[j+1].s) {
			return true
		}
		j = k
	} else if d.between(last, j) != " " {
		return false
	}
	for n := 0; n < 2 && j < len(d.words); n++ {
		w := strings.ToLower(d.words[j].s)
		if habitual[w] {
			return false
		}
		if !sceneAdverbs[w] && !(strings.HasSuffix(w, "ly") && len(w) > 4) {
			break
		}
		if j+1 >= len(d.words) || !sameClause(d, j, j+1) {
			return false
		}
		j++
	}
	if j >= len(d.words) {
		return false
	}
	v := d.words[j].s
	lv := strings.ToLower(v)
	if !unicode.IsLower([]rune(v)[0]) || habitual[lv] {
		return false
	}
	next := ""
	if j+1 < len(d.words) && sameClause(d, j, j+1) {
		next = strings.ToLower(d.words[j+1].s)
	}
	if lv == "was" || lv == "were" {
		// "were all out of the chaise", "was sitting by the fire".
		return len(next) > 5 && strings.HasSuffix(next, "ing") && !notActing[next] && !stateParticiples[next] ||
			!strict && (next == "seated" || next == "present" || next == "standing" || (next == "all" || next == "both") && unicode.IsLower([]rune(d.words[j+1].s)[0]))
	}
	// "Mr. Darcy found, on further inquiry, that your father…": a verb
	// of perception before a clause is learning, not seeing.
	if seeVerbs[lv] && (clauseWords[next] || j+1 < len(d.words) && strings.Contains(d.between(j, j+1), ",")) {
		return false
	}
	return sceneVerb(v) && !departing[next] && !clauseWords[next]
}

// clauseWords open a clause that a verb takes as its object: "saw that",
// "knew how".
var clauseWords = wordSet("that", "how", "whether", "what", "why", "where")

// stateParticiples after "was" tell no act: "was living in town", "was
// missing".
var stateParticiples = wordSet("living", "staying", "expecting", "thinking", "missing", "wanting", "lacking", "remaining", "belonging")

// sceneVerb reports whether w is a verb in the past that narrates an act
// on the spot: an irregular past or a form in -ed, lower case, that is no
// thought, memory, writing, death, staying away or auxiliary.
func sceneVerb(w string) bool {
	lw := strings.ToLower(w)
	if w == "" || !unicode.IsLower([]rune(w)[0]) || notSceneVerbs[lw] || notActing[lw] || writingVerbs[lw] || habitual[lw] {
		return false
	}
	return pastVerbs[lw] || strings.HasSuffix(lw, "ed") && len(lw) > 4
}

// presenceObject reports whether the list of people [first, last] is the
// object of an act that needs it at hand: a verb of contact or company
// ("kissed Lydia", "joined Mr. Bingley"), a verb of taking or bringing
// with the bringer after it ("taking old Prince Bolkónski with her"), or
// a verb of finding or seeing with where the one found is or what they
// do after it ("found Mr. Wickham at his elbow"). The verb is narrated
// now: no "had", "would", "to" or habit before it, save "to" after a
// feeling of what happened ("were surprised to find").
func presenceObject(d *doc, first, last int, strict bool) bool {
	v := first - 1
	if v < 0 || d.between(v, first) != " " {
		return false
	}
	lv := strings.ToLower(d.words[v].s)
	if lv == "with" {
		// "entered with Lydia at her side".
		return movedWith(d, v) || !strict && atSide(d, last+1)
	}
	if !strict && (besideMover(d, v) || movedAside(d, v, last) || gaveGesture(d, v, last) || actedOnInRoom(d, v, last)) {
		return true
	}
	// "caught sight of Lydia among the crowd": a verb of seeing.
	if lv == "of" && v > 1 && strings.ToLower(d.words[v-1].s) == "sight" && sightVerbs[strings.ToLower(d.words[v-2].s)] {
		lv = "saw"
	}
	if !contactVerbs[lv] && !bringVerbs[lv] && !seeVerbs[lv] && !placeVerbs[lv] {
		return false
	}
	if v > 0 && sameClause(d, v-1, v) {
		p := strings.ToLower(d.words[v-1].s)
		switch {
		case p == "to":
			if v < 2 || !factiveFeelings[strings.ToLower(d.words[v-2].s)] {
				return false
			}
		case notNow[p] || habitual[p] || p == "not" || p == "never":
			return false
		}
	}
	if contactVerbs[lv] {
		return !strict
	}
	j := last + 1
	if j+1 >= len(d.words) || !sameClause(d, last, j+1) || d.between(last, j) != " " {
		return false
	}
	w := strings.ToLower(d.words[j].s)
	if bringVerbs[lv] {
		return w == "with" && withBringer[strings.ToLower(d.words[j+1].s)] || w == "along"
	}
	// Seen doing something, the dead too ("found the little princess
	// bending over the cradle"), but lying still is how the dead are seen.
	if len(w) > 5 && strings.HasSuffix(w, "ing") && unicode.IsLower([]rune(d.words[j].s)[0]) && !notActing[w] && w != "lying" {
		return true
	}
	if strict {
		return false
	}
	if placePreps[w] && placeDeterminers[strings.ToLower(d.words[j+1].s)] && j+2 < len(d.words) && sameClause(d, j+1, j+2) {
		return !timeNouns[strings.ToLower(d.words[j+2].s)] && !pastTimeAfter(d, j+2)
	}
	return postures[w]
}

// pastTimes in a clause date what it tells before the scene: "saw Lydia
// at the ball last winter", "found him there years ago".
var pastTimes = wordSet("last", "ago", "formerly", "previously", "once", "since", "earlier", "before", "years", "winter", "summer", "spring", "autumn")

// pastTimeAfter reports whether a word of pastTimes stands in the clause
// from word i on.
func pastTimeAfter(d *doc, i int) bool {
	for n := i; n < len(d.words) && n < i+12; n++ {
		if n > i && strings.ContainsAny(d.between(n-1, n), ".!?;:“”\"\n") {
			return false
		}
		if pastTimes[strings.ToLower(d.words[n].s)] {
			return true
		}
	}
	return false
}

// sightVerbs before "sight of": "caught sight of Lydia".
var sightVerbs = wordSet("caught", "catching", "got", "getting")

// sideNouns after "at her" or "by his" say where someone stands by another: "at her
// side", "at his elbow", "by her side".
var sideNouns = wordSet("side", "elbow", "heels", "shoulder", "feet", "knee", "knees", "back")

// atSide reports whether words from i on say the person before them is at
// someone's side: "at her side", "by his elbow".
func atSide(d *doc, i int) bool {
	if i+2 >= len(d.words) || !sameClause(d, i-1, i+2) {
		return false
	}
	p, o := strings.ToLower(d.words[i].s), strings.ToLower(d.words[i+1].s)
	return (p == "at" || p == "by") && (o == "her" || o == "his" || o == "their" || o == "my" || o == "your") && sideNouns[strings.ToLower(d.words[i+2].s)]
}

// besidePreps put someone next to, behind or before the subject of a verb
// of going or sitting: "sat down next to Lydia", "moved towards Lydia".
// "After" is left out: "came in after Lydia had gone" tells an order of
// events.
var besidePreps = wordSet("beside", "behind", "opposite", "near", "towards", "toward", "next", "close")

// besideMovers are the verbs of posture or motion, or of a gesture at
// someone, that take such a preposition and a person.
var besideMovers = wordSet("sat", "stood", "knelt", "lay", "leaned", "leant", "bent", "turned", "stepped", "moved", "went", "came",
	"walked", "ran", "rushed", "hurried", "crept", "darted", "sprang", "flew", "drew", "pressed", "crowded", "edged", "sidled", "rode",
	"galloped", "pointed", "gestured", "motioned", "seated", "placed", "settled", "took")

// besideMover reports whether the word v before a person is a preposition
// of nearness after a verb of posture, motion or gesture in the past,
// with at most two words of direction between ("sat down next to",
// "pointed to", "turned towards"), and nothing that makes it habitual,
// hypothetical or of an earlier time before the verb.
func besideMover(d *doc, v int) bool {
	p := strings.ToLower(d.words[v].s)
	n := v - 1
	switch {
	case p == "to" && n >= 0 && (strings.ToLower(d.words[n].s) == "next" || strings.ToLower(d.words[n].s) == "close"):
		n--
	case p == "to" && n >= 0 && (strings.ToLower(d.words[n].s) == "pointed" || strings.ToLower(d.words[n].s) == "gestured" || strings.ToLower(d.words[n].s) == "motioned"):
	case p == "at" && n >= 0 && strings.ToLower(d.words[n].s) == "pointed":
	case besidePreps[p] && p != "next" && p != "close":
	default:
		return false
	}
	for k := n; k >= 0 && k >= n-2 && sameClause(d, k, k+1) && !strings.Contains(d.between(k, k+1), ","); k-- {
		w := strings.ToLower(d.words[k].s)
		if besideMovers[w] {
			return !before(d, k, notNow) && !before(d, k, habitual)
		}
		if departing[w] || !companionBetween[w] {
			return false
		}
	}
	return false
}

// namingVerbs after a name make its owner the one who calls something by
// a name, which tells a habit of speech, not an act of the scene: "the
// traits the old prince called boorishness", "whom the old prince called
// by the diminutive".
var namingVerbs = wordSet("called", "named", "termed", "nicknamed", "dubbed", "styled", "calls", "names")

// summonWords after "called" make it a call on the spot: "called out",
// "called to Kitty", "called on them", "called him".
var summonWords = wordSet("out", "to", "for", "on", "upon", "in", "up", "back", "after", "across", "over", "round", "at", "aloud", "again",
	"and", "from", "through", "down", "him", "her", "them", "me", "us", "you", "the", "a", "an", "his", "their", "my", "our", "your")

// namesSomething reports whether m is the subject of a verb of naming
// whose object is a name or a word, not a person called to: "called" is
// followed by "by" or by a lower-case word that no call takes; the other
// verbs of naming only name.
func namesSomething(d *doc, m mention) bool {
	j := m.lastWord + 1
	if m.firstWord < 0 || m.possessive || j+1 >= len(d.words) || d.between(m.lastWord, j) != " " || !namingVerbs[strings.ToLower(d.words[j].s)] || !sameClause(d, j, j+1) {
		return false
	}
	w := d.words[j+1].s
	lw := strings.ToLower(w)
	if v := strings.ToLower(d.words[j].s); lw == "by" || v != "called" && v != "calls" {
		return true
	}
	return unicode.IsLower([]rune(w)[0]) && !summonWords[lw] && !strings.HasSuffix(lw, "ly")
}

// asideWords after a person taken or sent somewhere move them within the
// house: "took Lydia aside", "followed Lydia upstairs". Away, off, home
// and back would move them out of the scene or tell a return.
var asideWords = wordSet("aside", "upstairs", "downstairs", "indoors", "outdoors", "outside", "inside", "forward", "forwards", "along", "nearer", "closer", "apart")

// movedAside reports whether the person [v+1, last] is the object of a
// verb in the past that moves them within the scene: the verb, the
// person, a word of asideWords ("She took Lydia aside").
func movedAside(d *doc, v, last int) bool {
	j := last + 1
	if j >= len(d.words) || d.between(last, j) != " " || !asideWords[strings.ToLower(d.words[j].s)] {
		return false
	}
	w := d.words[v].s
	if !sceneVerb(w) || before(d, v, notNow) || before(d, v, habitual) {
		return false
	}
	return true
}

// gestureNouns are what one gives another to their face: "gave Lydia a
// look", "shewed Lydia the way".
var gestureNouns = wordSet("look", "glance", "smile", "nod", "kiss", "wink", "frown", "push", "shake", "hug", "pat", "nudge", "bow", "curtsey", "curtsy")

// gaveGesture reports whether the person [v+1, last] is given a gesture:
// "Mrs. Bennet gave Lydia a look".
func gaveGesture(d *doc, v, last int) bool {
	if lv := strings.ToLower(d.words[v].s); lv != "gave" && lv != "giving" && lv != "threw" && lv != "cast" {
		return false
	}
	j := last + 1
	for j < len(d.words) && j <= last+3 && sameClause(d, j-1, j) {
		w := strings.ToLower(d.words[j].s)
		if gestureNouns[w] {
			return !before(d, v, notNow)
		}
		if w != "a" && w != "an" && w != "one" && w != "another" && !strings.HasSuffix(w, "ly") && !strings.HasSuffix(w, "ing") && w != "quick" && w != "sharp" && w != "last" {
			return false
		}
		j++
	}
	return false
}

// actedOnInRoom reports whether the person [v+1, last] is the object of a
// verb in the past done to them in a room of the scene or at a part of
// one: "She stopped Lydia at the door", "left Lydia in the
// drawing-room". Being in a town is the location check's to judge.
func actedOnInRoom(d *doc, v, last int) bool {
	w := d.words[v].s
	if lw := strings.ToLower(w); (!sceneVerb(w) && lw != "left") || before(d, v, notNow) || before(d, v, habitual) {
		return false
	}
	j := last + 1
	if j+2 >= len(d.words) || d.between(last, j) != " " || !sameClause(d, last, j+2) {
		return false
	}
	if !placePreps[strings.ToLower(d.words[j].s)] || !placeDeterminers[strings.ToLower(d.words[j+1].s)] {
		return false
	}
	return roomNouns[strings.ToLower(d.words[j+2].s)] && !pastTimeAfter(d, j+2)
}

// headWords may stand in a noun phrase of people before its noun: "the
// two girls", "both sisters", "his two daughters".
var headWords = wordSet("the", "two", "three", "four", "both", "his", "her", "their", "my", "our", "all", "little", "young", "elder", "younger", "eldest", "youngest", "other")

// apposedList reports whether the list [first, last] opens with a noun
// phrase of people and a comma, the names after it in apposition: "The
// two girls, Kitty and Lydia".
func apposedList(d *doc, first, last int) bool {
	for k := first; k < last; k++ {
		if strings.TrimSpace(d.between(k, k+1)) == "," {
			return k > first && personNouns[strings.ToLower(d.words[k].s)] && peopleHead(d, k)
		}
		if !headWords[strings.ToLower(d.words[k].s)] && !personNouns[strings.ToLower(d.words[k].s)] {
			return false
		}
	}
	return false
}

// peopleHead reports whether the words from the start of the sentence to
// word n are a noun phrase of people (its noun last): "The two girls",
// "Both sisters".
func peopleHead(d *doc, n int) bool {
	if !personNouns[strings.ToLower(d.words[n].s)] {
		return false
	}
	sent := d.sents[d.sentenceAt(d.words[n].start)]
	for k := n - 1; k >= 0 && d.words[k].start >= sent.start; k-- {
		if d.between(k, k+1) != " " || !headWords[strings.ToLower(d.words[k].s)] {
			return false
		}
	}
	return true
}

// thereWas reports whether the list of people [first, last] is what
// "there was" or "there were" brings into the scene, with what they are
// doing after it: "There was Lydia, laughing as usual".
func thereWas(d *doc, first, last int) bool {
	if first < 2 || d.between(first-1, first) != " " || d.between(first-2, first-1) != " " {
		return false
	}
	if b := strings.ToLower(d.words[first-1].s); b != "was" && b != "were" || strings.ToLower(d.words[first-2].s) != "there" {
		return false
	}
	if first-2 > 0 && sameClause(d, first-3, first-2) && !sceneClauseOpeners[strings.ToLower(d.words[first-3].s)] {
		return false
	}
	j := last + 1
	if j >= len(d.words) || !sameClause(d, last, j) {
		return false
	}
	w := d.words[j].s
	return strings.TrimSpace(d.between(last, j)) == "," && len(w) > 5 && strings.HasSuffix(w, "ing") && unicode.IsLower([]rune(w)[0]) && !notActing[strings.ToLower(w)]
}
