package factcheck

import (
	"strings"
	"unicode"
)

// A sentence of narration may string clauses together with commas, each
// with its own subject and verb: "Maria thought speaking out of the
// question, Jane answered only when she was addressed, and the gentlemen
// did nothing but eat". A verb of thought or memory in one clause says
// nothing of the next one's subject, unless it took a clause of its own
// ("remembered how Pétya laughed, Natásha sang") that the series may
// continue.

// clauseLinks after a verb of thought or report open the clause it
// takes, which a series of clauses after it may continue.
var clauseLinks = wordSet("how", "that", "when", "whether", "what", "why", "where", "if", "of", "about", "as")

// seriesClauseStart returns the first word of the clause m opens within a
// narrated series: m, or the list of people that holds m, stands after a
// comma (and a conjunction at most) and a verb of the scene follows it
// directly. It returns -1 when m opens no such clause.
func seriesClauseStart(d *doc, m mention) int {
	if m.firstWord < 1 || m.possessive {
		return -1
	}
	first, last, _ := latinList(d, m)
	if first > m.firstWord || last < m.lastWord || first < 1 {
		return -1
	}
	start := first
	if clauseJoiners[strings.ToLower(d.words[first-1].s)] && first >= 2 && d.between(first-1, first) == " " {
		start = first - 1
	}
	if start < 1 || strings.TrimSpace(d.between(start-1, start)) != "," {
		return -1
	}
	j := last + 1
	if j >= len(d.words) || d.between(last, j) != " " || !sceneVerb(d.words[j].s) {
		return -1
	}
	if j+1 < len(d.words) && sameClause(d, j, j+1) && clauseWords[strings.ToLower(d.words[j+1].s)] {
		return -1
	}
	return start
}

// outOfScope reports whether the verb of thought or report at word v
// governs nothing past the start of the series clause at word own (-1:
// none): v stands before it, and no clause link follows v.
func outOfScope(d *doc, v, own int) bool {
	if own < 0 || v >= own || wholeSentence[strings.ToLower(d.words[v].s)] {
		return false
	}
	return v+1 >= len(d.words) || !clauseLinks[strings.ToLower(d.words[v+1].s)]
}

// wholeSentence are words of condition, mood or a letter that colour the
// whole sentence, not one clause of a series: "If anyone spoke to her,
// Jane answered" is a habit, not a scene.
var wholeSentence = wordSet("if", "unless", "whether", "would", "could", "might", "should", "perhaps", "letter",
	"wish", "hope", "fear", "suppose", "remember", "whenever", "though", "although")

// maxAsideWords is the longest phrase, in words, set between commas
// after a name before the participle of an absolute clause.
const maxAsideWords = 10

// absoluteActs reports whether m is the subject of an absolute clause
// that follows a clause of its own after a bare comma, with a participle
// of what it is doing, right after the name or after one phrase set off
// by commas: "the bride and bridegroom set off from the church door, Mr.
// Bingley, come down from town for the day, handing the bride into the
// carriage". Lying still is how the dead are shown, not an act.
func absoluteActs(d *doc, m mention) bool {
	if m.firstWord < 1 || m.possessive || d.inQuote(m.start) || asideBefore(d, m) {
		return false
	}
	if opens, bare := opensAt(d, m.firstWord); !opens || !bare {
		return false
	}
	j := m.lastWord + 1
	if j >= len(d.words) || strings.TrimSpace(d.between(m.lastWord, j)) != "," {
		return false
	}
	if participleAt(d, j) {
		return true
	}
	for n := j; n+1 < len(d.words) && n < j+maxAsideWords; n++ {
		g := d.between(n, n+1)
		if strings.ContainsAny(g, ".!?;:—–()“”\"\n") {
			return false
		}
		w := strings.ToLower(d.words[n].s)
		if reportWords[w] || notSceneWords[w] || recallVerbs[w] {
			return false
		}
		if strings.TrimSpace(g) == "," {
			return participleAt(d, n+1)
		}
	}
	return false
}

// participleAt reports whether word i is a present participle of an act
// (not of being, having, lying or staying away).
func participleAt(d *doc, i int) bool {
	w := d.words[i].s
	lw := strings.ToLower(w)
	return len(lw) > 5 && strings.HasSuffix(lw, "ing") && unicode.IsLower([]rune(w)[0]) && !notActing[lw] &&
		!stateParticiples[lw] && lw != "having" && lw != "lying"
}
