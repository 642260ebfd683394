package factcheck

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// The roles a person plays in a narrated scene besides its subject's:
// the one spoken to, the one whose steps are heard, the one who stands
// somewhere in it, the one there is in a place, and the one who acts on
// another person. Each is a construction of the language that puts its
// owner on the spot, whatever the verb.

// vocativeLeads may open a quotation before the name of the one spoken
// to: "Oh, Hélène, …", "My dear Lydia, …".
var vocativeLeads = wordSet("oh", "ah", "o", "my", "dear", "dearest", "well", "now", "come", "yes", "no")

// tellVerbs in the tag after a quotation make it speech in the scene
// ("…,” he told his wife): the speech verbs and those that take the
// hearer as object.
var tellVerbs = wordSet("told", "tells", "said", "says", "asked", "asks", "cried", "called", "whispered", "replied",
	"answered", "exclaimed", "shouted", "murmured", "repeated", "continued", "added", "began", "begged", "urged")

// addressedInSpeech reports whether m, inside a quotation, opens it as
// the one spoken to ("“Hélène, I shall go on to Petersburg,” he told his
// wife"): the name first in the quotation (after an interjection or
// "my dear"), a comma and more speech after it, or set off by commas
// later in it (setOffInSpeech: "“You forget, Lydia, that he is poor”"),
// and the quotation closed and followed by a tag with a verb of telling
// among its first four words.
// A name called in a quotation that no tag puts in the scene (a letter, a
// prayer, a cry in a dream) is no finding.
func addressedInSpeech(d *doc, m mention) bool {
	// Chinese is left out: its quotations call the dead in grief and
	// possession (寶玉滴下淚來，說：「林妹妹，…」) and address by kinship
	// forms that are others' aliases (三妹妹).
	if m.firstWord < 0 || m.possessive {
		return false
	}
	// The quotation that holds m.
	qi := sort.Search(len(d.quoted), func(i int) bool { return d.quoted[i].end > m.start })
	if qi >= len(d.quoted) || d.quoted[qi].start > m.start {
		return false
	}
	q := d.quoted[qi]
	lead := strings.TrimLeft(d.text[q.start:m.start], "“\"'‘ ")
	opening := true
	for _, w := range strings.FieldsFunc(lead, func(r rune) bool { return r == ',' || r == ' ' || r == '!' }) {
		if !vocativeLeads[strings.ToLower(w)] {
			opening = false
		}
	}
	if opening {
		// A comma, then what is said to them: a name cried alone (“My
		// dear, dear Lydia!” she cried; “Mr. Darcy!” repeated Elizabeth)
		// is an exclamation about its owner.
		after, ok := strings.CutPrefix(d.text[m.end:q.end], ",")
		if !ok || strings.TrimRight(after, " ”\"") == "" {
			return false
		}
	} else if !setOffInSpeech(d, m) {
		return false
	}
	// The quotation must close on its own mark, then a tag follows.
	if closing, _ := utf8.DecodeLastRuneInString(d.text[q.start:q.end]); closing != '”' && closing != '"' {
		return false
	}
	tail := d.text[q.end:min(len(d.text), q.end+80)]
	if i := strings.IndexAny(tail, "“\"\n.;"); i >= 0 {
		tail = tail[:i]
	}
	words := strings.FieldsFunc(tail, func(r rune) bool { return !unicode.IsLetter(r) && r != '’' && r != '\'' })
	if len(words) < 2 {
		return false
	}
	// "…,” he told his wife; "…,” said Pierre; "…,” cried her mother;
	// "…,” the old prince said.
	for _, w := range words[:min(4, len(words))] {
		if tellVerbs[strings.ToLower(w)] {
			return true
		}
	}
	return false
}

// heardNouns are the sounds a person makes that others in a scene hear:
// "the steps of Toll, …, and Bolkhovítinov". Not what is seen ("the face
// and figure of Prince Andrew appeared"), which a return brings.
var heardNouns = wordSet("step", "steps", "footstep", "footsteps", "voice", "voices", "tread", "knock", "laugh", "laughter")

// heardOf reports whether m is the owner, alone or one of a list of
// names, of a heardNoun with "of": "he heard the steps of Toll,
// Konovnítsyn, Prince Andrew, and Bolkhovítinov". It is the possessive
// ("Wickham's quick step") put the other way round.
func heardOf(d *doc, m mention) bool {
	if m.firstWord < 0 {
		return false
	}
	// Back over the list to "of": capitalised words, commas, "and".
	for j := m.firstWord - 1; j >= 1 && j >= m.firstWord-12; j-- {
		if !sameClause(d, j, j+1) && !strings.Contains(d.between(j, j+1), ",") {
			return false
		}
		if strings.ContainsAny(d.between(j, j+1), ".!?;:“”\"\n") {
			return false
		}
		w := d.words[j].s
		switch {
		case w == "of":
			return heardNouns[strings.ToLower(d.words[j-1].s)] && d.between(j-1, j) == " "
		case w == "and" || unicode.IsUpper([]rune(w)[0]):
			continue
		}
		return false
	}
	return false
}

// cjkPostures are verbs of where a body is: after one, 在 and a place
// phrase put its subject there (跟在轎旁, 站在門口, 坐在炕上).
const cjkPostures = "跟站坐立躺跪躲藏候侍守陪蹲靠倚歪睡伏"

// cjkPostured reports whether m's owner is placed in the scene by a verb
// of posture and a place: the name, at most two more characters of
// manner (步行, 也, 悄悄), then a posture verb, 在 and a place phrase
// (賈政步行跟在轎旁, 黛玉獨自坐在窗下). The characters between hold no
// possessive (寶玉的丫頭坐在 is the maid) and no punctuation.
func (d *doc) cjkPostured(m mention) bool {
	rest := d.text[m.end:]
	for n := 0; n < 3 && rest != ""; n++ {
		r, size := utf8.DecodeRuneInString(rest)
		if !prose.IsCJK(r) || strings.ContainsRune("的之是說说道", r) {
			return false
		}
		if strings.ContainsRune(cjkPostures, r) {
			if after, ok := strings.CutPrefix(rest[size:], "在"); ok && placePhraseEnd(after) > 0 {
				return true
			}
		}
		rest = rest[size:]
	}
	return false
}

// cjkThereIs reports whether m is introduced by the narrator's 有 as being
// in a place of the scene: (又)有 + the name + 在 + a place phrase
// (又有黃袍怪在洞中作客). 有 opens its clause or follows an adverb.
func (d *doc) cjkThereIs(m mention) bool {
	before, ok := strings.CutSuffix(d.text[:m.start], "有")
	if !ok {
		return false
	}
	before = strings.TrimSuffix(before, "個")
	before = strings.TrimSuffix(before, "个")
	if p, _ := utf8.DecodeLastRuneInString(before); !strings.ContainsRune("又還还卻却更也只另", p) && !opensClause(before) {
		return false
	}
	rest := d.text[m.end:]
	for n := 0; n < 2; n++ {
		if r, size := utf8.DecodeRuneInString(rest); strings.ContainsRune(cjkBesideAdverbs, r) {
			rest = rest[size:]
		}
	}
	after, ok := strings.CutPrefix(rest, "在")
	return ok && placePhraseEnd(after) > 0
}

// cjkNotOnTheSpot are verbs before a person that do not put the subject
// with them: thinking of, dreaming of, mourning, worshipping, talking of,
// and the prepositions and markers of cjkObjectMarkers that are no act.
const cjkNotOnTheSpot = "想念思憶忆記记夢梦恨愛爱怕哭祭拜葬說说提談谈講讲聽听知為为因起與与和同跟及並并或的之是有在了著着等"

// cjkActsOn reports whether m's owner acts on another person in the
// scene: the name opening its clause or joined by a companion word to
// another (孫行者與八戒), at most two adverbs, a verb of one character
// that is no thought or talk of someone (請, 扶, 推, 喚), and a person
// right after it (八戒請三藏上馬).
func (d *doc) cjkActsOn(m mention) bool {
	before := d.text[:m.start]
	p, _ := utf8.DecodeLastRuneInString(before)
	joined := false
	if strings.ContainsRune(cjkCompanions, p) {
		_, joined = d.personEndingAt(len(before))
	}
	if !joined && !opensClause(before) {
		return false
	}
	rest := d.text[m.end:]
	for n := 0; n < 2; n++ {
		if r, size := utf8.DecodeRuneInString(rest); strings.ContainsRune(cjkAdverbs, r) && !strings.ContainsRune("同不大", r) {
			rest = rest[size:]
		}
	}
	v, size := utf8.DecodeRuneInString(rest)
	if !prose.IsCJK(v) || strings.ContainsRune(cjkNotOnTheSpot, v) {
		return false
	}
	at := len(d.text) - len(rest) + size
	o, ok := d.personStartingAt(at)
	return ok && o.start == at && o.ents[0] != m.ents[0]
}

// perceivedParticiples are the passive of perception verbs: "was seen",
// "had been observed".
var perceivedParticiples = wordSet("seen", "observed", "noticed", "perceived", "heard", "found", "discovered", "espied")

// reportWords in a phrase between commas make what follows hearsay.
var reportWords = wordSet("said", "says", "reported", "told", "heard", "known", "believed", "thought", "seemed", "seems", "rumoured", "rumored", "supposed", "they", "people")

// seenDoingPassive reports whether m is the subject of a perception in
// the passive with what its owner is doing after it: "Wickham, pale and
// uneasy, had been seen handing him into the chaise", "Darcy and Bingley
// were seen riding towards the house". It is seenDoing turned round;
// being seen somewhere ("was seen in Brighton") is a report.
func seenDoingPassive(d *doc, m mention) bool {
	if m.firstWord < 0 || m.possessive {
		return false
	}
	j := m.lastWord + 1
	// A phrase of its own between commas ("Wickham, pale and uneasy,"),
	// or the rest of a list joined by "and".
	if j < len(d.words) && strings.TrimSpace(d.between(m.lastWord, j)) == "," {
		k := j + 1
		for k < len(d.words) && k <= j+5 && !strings.Contains(d.between(k-1, k), ",") {
			k++
		}
		if k >= len(d.words) || strings.TrimSpace(d.between(k-1, k)) != "," {
			return false
		}
		// "Wickham, it was said, had been seen gaming": a report.
		for _, w := range d.words[j:k] {
			if reportWords[strings.ToLower(w.s)] {
				return false
			}
		}
		j = k
	}
	if j+2 >= len(d.words) || !sameClause(d, m.lastWord, j+2) {
		return false
	}
	w := strings.ToLower(d.words[j].s)
	switch {
	case w == "was" || w == "were":
		j++
	case (w == "had" || w == "has" || w == "have") && strings.ToLower(d.words[j+1].s) == "been":
		j += 2
	default:
		return false
	}
	if j+1 >= len(d.words) || !perceivedParticiples[strings.ToLower(d.words[j].s)] || d.between(j, j+1) != " " {
		return false
	}
	v := d.words[j+1].s
	return len(v) > 5 && strings.HasSuffix(v, "ing") && unicode.IsLower([]rune(v)[0])
}

// notSceneWords before a name in its sentence make what is said of it a
// memory, a wish, a supposition or a report, not the scene: "Elizabeth
// remembered the steps of Wickham", "If Wickham had been seen riding".
var notSceneWords = wordSet("if", "unless", "whether", "wish", "wished", "wishes", "hope", "hoped", "hoping", "would", "could",
	"might", "should", "perhaps", "remember", "remembered", "remembering", "recalled", "recollected", "dreamed", "dreamt",
	"imagined", "fancied", "pictured", "thought", "fear", "feared", "suppose", "supposed", "said", "told", "wrote", "letter")

// notInScene reports whether a notSceneWord stands before m in its sentence
// (at most twelve words back).
func notInScene(d *doc, m mention) bool {
	sent := d.sents[d.sentenceAt(m.start)]
	for n := m.firstWord - 1; n >= 0 && n >= m.firstWord-12 && d.words[n].start >= sent.start; n-- {
		if strings.ContainsAny(d.between(n, n+1), "“”\"") {
			break
		}
		if notSceneWords[strings.ToLower(d.words[n].s)] {
			return true
		}
	}
	return false
}

// sceneRole says how m's owner is put in the scene by one of the
// constructions of this file ("" when none does).
func sceneRole(d *doc, m mention) string {
	if m.firstWord < 0 && (d.cjkPostured(m) || d.cjkThereIs(m) || d.cjkActsOn(m)) {
		return "is in the scene"
	}
	if seenDoingPassive(d, m) && !notInScene(d, m) {
		return "is in the scene"
	}
	return ""
}

// listHead returns the first word of the list of names whose item is
// mention mi: back over the mentions joined to it by "and" or commas
// (Mrs. Bennet and Kitty and Lydia).
func listHead(d *doc, mi int) int {
	for mi > 0 {
		p, m := d.mentions[mi-1], d.mentions[mi]
		if p.firstWord < 0 || m.firstWord < 0 {
			break
		}
		if g := strings.TrimSpace(d.text[p.end:m.start]); g != "and" && g != "," && g != ", and" {
			break
		}
		mi--
	}
	return d.mentions[mi].firstWord
}

// setOffInSpeech reports whether m, later in a quotation than its first
// words, is set off as the one spoken to: a comma before it, and a
// comma, a question or exclamation mark or the end of the sentence
// after it ("“Hush, Lydia,”", "“You forget, Lydia, that he is poor”").
// One item of a list ("Wickham, Lydia, and Kitty") or a name in
// apposition to a person before it ("your father, Mr. Bennet,") is no
// one spoken to.
func setOffInSpeech(d *doc, m mention) bool {
	if m.firstWord < 1 || strings.TrimSpace(d.between(m.firstWord-1, m.firstWord)) != "," {
		return false
	}
	rest := d.text[m.end:]
	if !strings.HasPrefix(rest, ",") && !strings.HasPrefix(rest, "?") && !strings.HasPrefix(rest, "!") && !strings.HasPrefix(rest, ".") {
		return false
	}
	if _, _, items := latinList(d, m); items > 1 {
		return false
	}
	if strings.HasPrefix(rest, ",") && m.lastWord+1 < len(d.words) && strings.ToLower(d.words[m.lastWord+1].s) == "and" {
		return false
	}
	pw := d.words[m.firstWord-1]
	p := strings.ToLower(pw.s)
	// A capitalised word before the comma is a name in apposition,
	// unless it opens the quotation ("“Hush, Lydia,”").
	opensQuote := pw.start > 0 && strings.ContainsAny(d.text[max(0, pw.start-3):pw.start], "“\"")
	return !personNouns[p] && !familyTerms[p] && (opensQuote || !unicode0Upper(pw.s)) && p != "him" && p != "her" && p != "them"
}
