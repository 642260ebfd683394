package factcheck

import "strings"

// An English clause in the past perfect tells of a time before the scene
// ("Mr. Bingley, when questioned by Jane, had long ago asserted his
// blamelessness"; "she was sorry that she had been led to make Mr. Darcy
// acquainted with their fears"): the people in it acted then, not where
// the chapter is now. The past perfect alone is also the tense of a scene
// told from a later one (a planted "Jane had come down to breakfast"
// still puts her there), so the clause must also say it is earlier: a
// time word of the past, or a clause of report or feeling opened by
// "that" before both the verb and the name. Chinese marks no such tense;
// its flashbacks are read by retold.

// pastTimeWords in a past-perfect clause put it before the scene.
var pastTimeWords = wordSet("ago", "before", "formerly", "once", "already",
	"previously", "earlier", "hitherto", "lately", "long")

// perfectAdverbs may stand between "had" and its participle.
var perfectAdverbs = wordSet("long", "ago", "already", "never", "often", "once", "not",
	"just", "also", "always", "since", "before", "then", "formerly", "previously", "ever",
	"even", "only", "twice", "frequently", "but", "so", "much", "at", "first")

// irregularParticiples are common past participles not ending in -ed.
var irregularParticiples = wordSet("been", "known", "seen", "made", "done", "gone", "given",
	"taken", "written", "heard", "told", "said", "brought", "thought", "left", "met", "come",
	"become", "found", "kept", "held", "spoken", "got", "gotten", "felt", "sent", "spent",
	"taught", "won", "lost", "led", "put", "set", "run", "begun", "grown", "shown", "drawn")

// backstory reports whether Latin mention m stands in a past-perfect
// clause told as earlier than the scene.
func (d *doc) backstory(m mention) bool {
	if m.firstWord < 0 {
		return false
	}
	lo, hi := d.clauseBounds(m.start, m.end)
	first := m.firstWord
	for first > 0 && d.words[first-1].start >= lo {
		first--
	}
	for j := first; j < len(d.words) && d.words[j].end <= hi; j++ {
		if !strings.EqualFold(d.words[j].s, "had") || !d.participleAfter(j, hi) || relativeBetween(d, m.lastWord, j) {
			continue
		}
		if d.pastTimeIn(first, hi) {
			return true
		}
		// "… allow that Mr. Bingley, when questioned by Jane, had …":
		// a "that" before both the name and the verb.
		for t := first; t < m.firstWord && t < j; t++ {
			if strings.EqualFold(d.words[t].s, "that") {
				return true
			}
		}
	}
	return false
}

// participleAfter reports whether the "had" at word j is an auxiliary: a
// past participle follows, after adverbs or one parenthesis set off by
// commas ("she had, from the distress of the moment, been led").
func (d *doc) participleAfter(j, hi int) bool {
	k := j + 1
	if k < len(d.words) && strings.TrimSpace(d.between(j, k)) == "," {
		for n := 0; n < 8 && k+1 < len(d.words) && d.words[k+1].end <= hi; n++ {
			k++
			if strings.Contains(d.between(k-1, k), ",") {
				break
			}
		}
		if !strings.Contains(d.between(k-1, k), ",") {
			return false
		}
	}
	for n := 0; n < 4 && k < len(d.words) && d.words[k].end <= hi; n, k = n+1, k+1 {
		w := strings.ToLower(d.words[k].s)
		if irregularParticiples[w] || len(w) > 3 && strings.HasSuffix(w, "ed") {
			return true
		}
		if !perfectAdverbs[w] && !strings.HasSuffix(w, "ly") {
			return false
		}
	}
	return false
}

// pastTimeIn reports whether words [from, …) up to offset hi hold a time
// word of the past ("long ago", "before", "already").
func (d *doc) pastTimeIn(from, hi int) bool {
	for j := from; j < len(d.words) && d.words[j].end <= hi; j++ {
		w := strings.ToLower(d.words[j].s)
		if w == "long" {
			// "long ago", not "as long as" or "a long letter".
			if j+1 < len(d.words) && strings.EqualFold(d.words[j+1].s, "ago") {
				return true
			}
			continue
		}
		if pastTimeWords[w] {
			return true
		}
	}
	return false
}

// relativeBetween reports whether a relative word stands between words i
// and j: the "had" at j then opens a clause about the name at i ("Jane,
// who had never before been in so grand a room, kept close beside her
// sister"), whose own verb is still the scene's.
func relativeBetween(d *doc, i, j int) bool {
	for t := i + 1; t < j; t++ {
		if relativeWords[strings.ToLower(d.words[t].s)] {
			return true
		}
	}
	return false
}
