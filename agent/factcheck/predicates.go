package factcheck

import (
	"fmt"
	"strings"
)

// predicated finds the English rank and marital facts stated of a named
// character by a construction rather than a declared title: a rank
// predicated by a copula ("Berg was already a general"), and a marital
// word in apposition or predicated ("Bilíbin, a widower"; "was a
// widower") of someone declared unmarried or married.
func (k *Knowledge) predicated(d *doc) []Finding {
	var out []Finding
	for mi, m := range d.mentions {
		if len(m.ents) != 1 || m.firstWord < 0 || !m.ents[0].person {
			continue
		}
		e := m.ents[0]
		facts := d.factsOf(e)
		rk := ""
		for key := range facts {
			if lk := strings.ToLower(key); lk == "rank" || lk == "military_rank" {
				rk = key
			}
		}
		if rk != "" {
			if f, ok := k.rankOf(d, mi, e, rk, facts[rk]); ok {
				out = append(out, f)
			}
		}
		if f, ok := k.maritalOf(d, mi, e, facts); ok {
			out = append(out, f)
		}
	}
	return out
}

// rankWords splits a declared rank into capitalised words: "lieutenant
// colonel" is {"Lieutenant", "Colonel"}.
func rankWords(v string) []string {
	// "private (reduced to the ranks)", "major, retired": the rank is
	// what comes before a remark.
	if i := strings.IndexAny(v, "(,;"); i > 0 {
		v = v[:i]
	}
	var out []string
	for _, w := range strings.Fields(strings.ReplaceAll(v, "-", " ")) {
		out = append(out, capitalize(w))
	}
	return out
}

// rankOf checks a rank predicated of mention mi against the declared rank: another rank of the same class (military,
// peer) contradicts it; a word of the declared rank ("Colonel" of a
// lieutenant colonel) does not.
func (k *Knowledge) rankOf(d *doc, mi int, e *entInfo, key, declared string) (Finding, bool) {
	m := d.mentions[mi]
	words := rankWords(declared)
	if len(words) == 0 || rankClass[words[len(words)-1]] == "" {
		return Finding{}, false
	}
	class := rankClass[words[len(words)-1]]
	check := func(wi int) (Finding, bool) {
		w := capitalize(d.words[wi].s)
		if rankClass[w] != class || containsString(words, w) {
			return Finding{}, false
		}
		line, since := e.e.FactSource(key, d.chapter)
		return Finding{
			Type:       TypeFact,
			Start:      d.words[wi].start,
			End:        d.words[wi].end,
			Message:    fmt.Sprintf("the text makes %s a %s, but %s's %s is %q as of chapter %d", e.e.Name, strings.ToLower(w), e.e.Name, key, declared, d.chapter),
			Evidence:   Evidence{Path: e.e.Path, Resource: e.e.Resource, Key: key, Value: declared, Line: line, Since: since},
			Suggestion: matchCase(strings.Join(words, " "), d.words[wi].s),
			Confidence: 0.7,
		}, true
	}
	// "Berg was already a general": a copula, an adverb or two, an article;
	// an apposition between commas may stand before the copula ("Berg,
	// the Rostóvs' son-in-law, was").
	i := m.lastWord + 1
	if i < len(d.words) && strings.TrimSpace(d.between(m.lastWord, i)) == "," {
		for j := i; j < len(d.words) && j < i+8; j++ {
			if j+1 < len(d.words) && strings.TrimSpace(d.between(j, j+1)) == "," {
				i = j + 1
				break
			}
		}
	}
	if i < len(d.words) && copula[strings.ToLower(d.words[i].s)] && !strings.ContainsAny(d.between(i-1, i), ";:") {
		i++
		for n := 0; n < 2 && i < len(d.words) && rankAdverbs[strings.ToLower(d.words[i].s)]; n++ {
			i++
		}
		if i+1 < len(d.words) && (d.words[i].s == "a" || d.words[i].s == "an") {
			return check(i + 1)
		}
		// "Dólokhov was serving as an ensign": a service in the rank.
		if j, ok := servingAs(d, i); ok {
			return check(j)
		}
	} else if j, ok := servingAs(d, i); ok && i < len(d.words) && !strings.ContainsAny(d.between(i-1, i), ";:") {
		// "Dólokhov served as an ensign".
		return check(j)
	}
	return Finding{}, false
}

// servingAs reads "serving as an", "served as a" at word i, the words of
// one clause, and gives the index of the word after the article.
func servingAs(d *doc, i int) (int, bool) {
	if i+3 >= len(d.words) || d.between(i, i+1) != " " || d.between(i+1, i+2) != " " || d.between(i+2, i+3) != " " {
		return 0, false
	}
	switch strings.ToLower(d.words[i].s) {
	case "serving", "served", "serves":
	default:
		return 0, false
	}
	if a := d.words[i+2].s; strings.ToLower(d.words[i+1].s) != "as" || a != "a" && a != "an" {
		return 0, false
	}
	return i + 3, true
}

var copula = wordSet("was", "is", "became", "becomes")

var rankAdverbs = wordSet("already", "now", "then", "still", "soon", "at", "last", "by", "this", "time", "promoted", "made")

// maritalOf checks "widow"/"widower" predicated of mention mi, in
// apposition ("Bilíbin, a widower", "a man of thirty-five, a widower")
// within its clause or after a copula, against a declared status of
// unmarried or married.
func (k *Knowledge) maritalOf(d *doc, mi int, e *entInfo, facts map[string]string) (Finding, bool) {
	m := d.mentions[mi]
	sk := firstKey(facts, "marital_status", "marital status", "status")
	status := strings.ToLower(strings.TrimSpace(facts[sk]))
	if status != "unmarried" && status != "married" && status != "single" {
		return Finding{}, false
	}
	sent := d.sents[d.sentenceAt(m.start)]
	for i := m.lastWord + 1; i < len(d.words) && d.words[i].start < sent.end && i <= m.lastWord+12; i++ {
		w := strings.ToLower(d.words[i].s)
		if w != "widow" && w != "widower" {
			continue
		}
		// "his being a widower" of a woman: the word is a man's, and so
		// someone else's; "widow" of a man likewise.
		if w == "widower" && e.gender == 'f' || w == "widow" && e.gender == 'm' {
			return Finding{}, false
		}
		// "the widower's son", "widow of": someone else's.
		if i+1 < len(d.words) && strings.ToLower(d.words[i+1].s) == "of" || strings.HasPrefix(d.text[d.words[i].end:], "’s") || strings.HasPrefix(d.text[d.words[i].end:], "'s") {
			return Finding{}, false
		}
		// Another name between them: the word may be theirs.
		if mi+1 < len(d.mentions) && d.mentions[mi+1].start < d.words[i].start {
			return Finding{}, false
		}
		prev := strings.ToLower(d.words[i-1].s)
		if prev != "a" && prev != "the" {
			return Finding{}, false
		}
		line, since := e.e.FactSource(sk, d.chapter)
		return Finding{
			Type:       TypeFact,
			Start:      d.words[i].start,
			End:        d.words[i].end,
			Message:    fmt.Sprintf("the text calls %s a %s, but %s's %s is %q as of chapter %d", e.e.Name, w, e.e.Name, sk, facts[sk], d.chapter),
			Evidence:   Evidence{Path: e.e.Path, Resource: e.e.Resource, Key: sk, Value: facts[sk], Line: line, Since: since},
			Confidence: 0.7,
		}, true
	}
	return Finding{}, false
}

func containsString(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
