package factcheck

import (
	"fmt"
	"slices"
	"strings"
)

// An office or a family relation is one member of a closed set: a text
// that sets another member of the same set beside a character's name, in
// apposition ("the chief of staff, Kutúzov", "Sónya, the goddaughter"),
// states that fact otherwise, whatever the key's word. The reading is by
// the kind of the value: the declared value belongs to a set below, the
// text puts another member of it next to the name with "the", and the
// member is none of the character's own values in any chapter.

// closedSets are the English offices and family relations, each member
// in lower case, words joined by spaces (a hyphen reads as a space).
var closedSets = map[string][]string{
	"office": {
		"commander in chief", "chief of staff", "quartermaster general", "minister of war", "minister of foreign affairs",
		"minister of police", "minister", "ambassador", "chancellor", "governor general", "governor", "adjutant general",
		"adjutant", "aide de camp", "secretary of state", "rector", "curate", "vicar", "archbishop", "bishop",
		"chamberlain", "magistrate", "steward", "bailiff",
	},
	"relation": {
		"niece", "nephew", "goddaughter", "godson", "godfather", "godmother", "ward", "cousin", "daughter", "son",
		"stepdaughter", "stepson", "granddaughter", "grandson", "sister", "brother", "aunt", "uncle",
		"daughter in law", "son in law", "sister in law", "brother in law",
	},
}

// memberSpaces reads hyphens and possessive endings as spaces.
var memberSpaces = strings.NewReplacer("-", " ", "’s", " ", "'s", " ")

// closedMember is the set and the member a declared value names: the
// longest member that is the whole value or ends it ("the count's niece",
// "rector of Hunsford" begins with its member).
func closedMember(v string) (set, member string) {
	ws := strings.Join(strings.Fields(memberSpaces.Replace(strings.ToLower(v))), " ")
	for s, members := range closedSets {
		for _, m := range members {
			if (ws == m || strings.HasSuffix(ws, " "+m) || strings.HasPrefix(ws, m+" of ")) && len(m) > len(member) {
				set, member = s, m
			}
		}
	}
	return set, member
}

// memberAt is the longest member of set whose words are d's words from i
// on (lower case, joined by spaces or hyphens), and the index of its last
// word; -1 when none.
func memberAt(d *doc, i int, set string) (string, int) {
	best, last := "", -1
	for _, m := range closedSets[set] {
		parts := strings.Fields(m)
		if i+len(parts) > len(d.words) {
			continue
		}
		ok := true
		for j, p := range parts {
			if strings.ToLower(d.words[i+j].s) != p || j > 0 && d.between(i+j-1, i+j) != " " && d.between(i+j-1, i+j) != "-" {
				ok = false
				break
			}
		}
		if ok && len(m) > len(best) {
			best, last = m, i+len(parts)-1
		}
	}
	return best, last
}

// memberEndingAt is the longest member of set whose last word is d's word
// j, and the index of its first word; -1 when none.
func memberEndingAt(d *doc, j int, set string) (string, int) {
	best, first := "", -1
	for _, m := range closedSets[set] {
		n := len(strings.Fields(m))
		if i := j - n + 1; i >= 0 {
			if got, last := memberAt(d, i, set); got == m && last == j && len(m) > len(best) {
				best, first = m, i
			}
		}
	}
	return best, first
}

// checkAppositions finds another office or relation in apposition to a
// character's name.
func (k *Knowledge) checkAppositions(d *doc) []Finding {
	if d.cjk {
		return nil
	}
	// What each character's closed facts are, read once per text.
	type closedFact struct{ key, val, set, declared string }
	type closedInfo struct {
		facts []closedFact
		own   map[string]bool
	}
	infos := map[*entInfo]*closedInfo{}
	var out []Finding
	for _, m := range d.mentions {
		if len(m.ents) != 1 || m.firstWord < 0 || !m.ents[0].person || m.possessive {
			continue
		}
		e := m.ents[0]
		info := infos[e]
		if info == nil {
			info = &closedInfo{own: map[string]bool{}}
			for key, val := range d.factsOf(e) {
				if set, declared := closedMember(val); set != "" {
					info.facts = append(info.facts, closedFact{key, val, set, declared})
				}
			}
			// Every value e has in any chapter: a member it holds,
			// held or will hold is no contradiction ("his cousin" of
			// a niece is said from another side, and has a possessive).
			if len(info.facts) > 0 {
				k.eachFact(e, func(_, v string) {
					if _, m := closedMember(v); m != "" {
						info.own[m] = true
					}
				})
			}
			slices.SortFunc(info.facts, func(a, b closedFact) int { return strings.Compare(a.key, b.key) })
			infos[e] = info
		}
		for _, cf := range info.facts {
			// One finding a name: the first fact by key that reads it.
			if f, ok := appositionOf(d, m, e, cf.key, cf.val, cf.set, cf.declared, info.own); ok {
				out = append(out, f)
				break
			}
		}
	}
	// The sets the files list themselves: counties, regiments (keysets.go).
	return append(out, k.checkKeySets(d)...)
}

// appositionOf reads a member of set other than the declared one and e's
// own (any chapter) in apposition to, or predicated of, mention m.
func appositionOf(d *doc, m mention, e *entInfo, key, val, set, declared string, own map[string]bool) (Finding, bool) {
	// "the chief of staff, Kutúzov": a member ending right before
	// ", Name", after "the".
	if j := m.firstWord - 1; j >= 1 && strings.TrimSpace(d.between(j, m.firstWord)) == "," {
		if w, first := memberEndingAt(d, j, set); w != "" && first >= 1 && strings.ToLower(d.words[first-1].s) == "the" && d.between(first-1, first) == " " && !own[w] && w != declared {
			return appositionFinding(d, e, key, val, first, j, w), true
		}
	}
	// "Sónya, the goddaughter.": "the" and a member right after "Name, ",
	// ending its clause (not "the niece of…", "the son's…").
	if i := m.lastWord + 1; i+1 < len(d.words) && strings.TrimSpace(d.between(m.lastWord, i)) == "," && strings.ToLower(d.words[i].s) == "the" && d.between(i, i+1) == " " {
		if w, last := memberAt(d, i+1, set); w != "" && !own[w] && w != declared && closesClause(d, last) {
			return appositionFinding(d, e, key, val, i+1, last, w), true
		}
	}
	// Predicated: "the choice of Kutúzov as minister of war", "Sónya was
	// the goddaughter": a member after "as", or after a copula and an
	// article, that no "of" or possessive makes someone else's.
	i := m.lastWord + 1
	if i+1 >= len(d.words) || d.between(m.lastWord, i) != " " {
		return Finding{}, false
	}
	lw := strings.ToLower(d.words[i].s)
	if lw != "as" && !copula[lw] {
		return Finding{}, false
	}
	// A role after "as" takes no article ("as minister of war"): "as a
	// general listens" compares.
	j := i + 1
	article := false
	if a := strings.ToLower(d.words[j].s); (a == "the" || a == "a" || a == "an") && j+1 < len(d.words) {
		j++
		article = true
	}
	if article == (lw == "as") {
		return Finding{}, false
	}
	if w, last := memberAt(d, j, set); w != "" && !own[w] && w != declared && !someoneElses(d, last) {
		return appositionFinding(d, e, key, val, j, last, w), true
	}
	return Finding{}, false
}

// closesClause reports whether word j ends its clause: punctuation after
// it other than a possessive's apostrophe, or the end of the text.
func closesClause(d *doc, j int) bool {
	if j+1 >= len(d.words) {
		return true
	}
	gap := strings.TrimSpace(d.between(j, j+1))
	return gap != "" && gap != "’" && gap != "'" && gap != "-"
}

// someoneElses reports whether the member ending at word j is followed by
// "of" or "to" or a possessive: "the niece of a poor gentleman", "the
// steward's son" speak of another.
func someoneElses(d *doc, j int) bool {
	if j+1 >= len(d.words) {
		return false
	}
	gap := d.between(j, j+1)
	if gap == "’" || gap == "'" {
		return true
	}
	w := strings.ToLower(d.words[j+1].s)
	return gap == " " && (w == "of" || w == "to" || w == "in")
}

func appositionFinding(d *doc, e *entInfo, key, val string, first, last int, w string) Finding {
	line, since := e.e.FactSource(key, d.chapter)
	start, end := d.words[first].start, d.words[last].end
	return Finding{
		Type:       TypeFact,
		Start:      start,
		End:        end,
		Message:    fmt.Sprintf("the text calls %s the %s, but %s's %s is %q as of chapter %d", e.e.Name, w, e.e.Name, key, val, d.chapter),
		Evidence:   Evidence{Path: e.e.Path, Resource: e.e.Resource, Key: key, Value: val, Line: line, Since: since},
		Suggestion: matchCase(val, d.text[start:end]),
		Confidence: 0.6,
	}
}
