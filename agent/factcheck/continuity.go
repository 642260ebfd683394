package factcheck

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/lexicon"
)

// personTitles are titles whose change for the same surname between two
// chapters is worth a look ("Colonel Forster" then "Captain Forster").
var personTitles = map[string]string{
	"Mr": "civil", "Mrs": "married", "Miss": "unmarried", "Sir": "knight", "Lady": "lady", "Dr": "doctor",
}

// checkContinuity compares the text with the previous chapter: a surname
// that had one rank there and another here, and a name that the previous
// chapter introduced (used at least twice, not declared) spelt one edit
// differently here.
func (k *Knowledge) checkContinuity(d *doc, prev string) []Finding {
	var out []Finding
	if d.cjk {
		out = k.checkContinuityCJK(d, prev)
	}
	pw := wordsOf(prev)
	titles := map[string]map[string]bool{} // surname -> titles seen
	counts := map[string]int{}
	lowerSeen := map[string]bool{}
	for i, w := range pw {
		counts[w.s]++
		if r, _ := utf8.DecodeRuneInString(w.s); unicode.IsLower(r) {
			lowerSeen[w.s] = true
		}
		if i+1 < len(pw) && (rankClass[w.s] != "" || personTitles[w.s] != "") && nameGap(prev[w.end:pw[i+1].start]) {
			s := pw[i+1].s
			if titles[s] == nil {
				titles[s] = map[string]bool{}
			}
			titles[s][w.s] = true
		}
	}
	for i := 0; i+1 < len(d.words); i++ {
		title, sur := d.words[i].s, d.words[i+1].s
		class := rankClass[title]
		if class == "" || !nameGap(d.between(i, i+1)) {
			continue
		}
		seen := titles[sur]
		if len(seen) == 0 || seen[title] || k.nameWords[sur] {
			continue
		}
		for old := range seen {
			if rankClass[old] != class {
				continue
			}
			out = append(out, Finding{
				Type:       TypeContinuity,
				Start:      d.words[i].start,
				End:        d.words[i].end,
				Message:    fmt.Sprintf("%s %s was %s %s in the previous chapter", title, sur, old, sur),
				Evidence:   Evidence{Key: "title", Value: old, Quote: old + " " + sur},
				Suggestion: old,
				Confidence: 0.6,
			})
			break
		}
	}
	// Names introduced in the previous chapter.
	var intro []string
	for w, n := range counts {
		r, _ := utf8.DecodeRuneInString(w)
		if n >= 2 && unicode.IsUpper(r) && utf8.RuneCountInString(w) >= 4 && !lexicon.IsOrdinary(w) && !lowerSeen[strings.ToLower(w)] && !k.nameWords[w] && !titleWords[w] {
			intro = append(intro, w)
		}
	}
	if len(intro) == 0 {
		return out
	}
	for _, w := range d.words {
		r, _ := utf8.DecodeRuneInString(w.s)
		if !unicode.IsUpper(r) || counts[w.s] > 0 || k.nameWords[w.s] || lexicon.IsOrdinary(w.s) || d.lowerSeen[strings.ToLower(w.s)] || d.count[w.s] >= 3 {
			continue
		}
		rs := []rune(strings.ToLower(w.s))
		for _, p := range intro {
			pr := []rune(strings.ToLower(p))
			if pr[0] != rs[0] || pluralOf(rs, pr) || pluralOf(pr, rs) || slavicForm(rs, pr) || slavicForm(pr, rs) || editDistance(rs, pr, 1) != 1 || k.book.knownLatin(w.s, p) {
				continue
			}
			out = append(out, Finding{
				Type:       TypeContinuity,
				Start:      w.start,
				End:        w.end,
				Message:    fmt.Sprintf("%q: the previous chapter spells this name %q", w.s, p),
				Evidence:   Evidence{Key: "name", Value: p, Quote: p},
				Suggestion: p,
				Confidence: 0.6,
			})
			break
		}
	}
	return out
}
