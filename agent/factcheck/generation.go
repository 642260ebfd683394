package factcheck

import (
	"strings"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// A family name or title shared by a father and a son ("Prince
// Bolkónski") names the elder when "old" stands before it ("old Prince
// Bolkónski") and the younger after "young": the entity files say which
// one is the old one when one of his names holds the word ("the old
// prince", "old Count Rostóv").

// generationWords group the words that set one generation of a family
// apart: the old one, the young one.
var generationWords = map[string]string{
	"old": "old", "elder": "old", "eldest": "old",
	"young": "young", "younger": "young", "youngest": "young", "little": "young",
}

// byGeneration keeps, of the entities an ambiguous name may stand for,
// the one whose declared names hold a word of the generation that the
// word before the name (before) states; all of them when none or more
// than one does.
func byGeneration(ents []*entInfo, before string) []*entInfo {
	gen, ok := generationWords[before]
	if !ok {
		return ents
	}
	var kept []*entInfo
	for _, e := range ents {
		for _, n := range append([]string{e.e.Name}, e.e.Aliases...) {
			if namesGeneration(n, gen) {
				kept = append(kept, e)
				break
			}
		}
	}
	if len(kept) != 1 {
		return ents
	}
	return kept
}

// namesGeneration reports whether the name n holds a word of generation
// gen: "the old prince" holds "old".
func namesGeneration(n, gen string) bool {
	for _, w := range prose.LatinWords(n) {
		if generationWords[strings.ToLower(w)] == gen {
			return true
		}
	}
	return false
}
