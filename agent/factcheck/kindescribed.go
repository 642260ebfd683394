package factcheck

import (
	"strings"
)

// Kinship said of a description, not a name: "This stout young man was an
// illegitimate son of Count Bezúkhov". The description opens its sentence
// with This or That, and whom it describes the paragraphs around name: the
// one person of its gender there besides the kin named. An unseen book
// introduces a newcomer so before it names him, as often as by name.

// peerTitles are titles of rank that titleWords leaves out: two people
// who share one (Count Bezúkhov, Count Rostóv) share no family by it.
var peerTitles = map[string]bool{"Count": true, "Marquis": true, "Marquess": true, "Viscount": true, "Baronet": true, "Emperor": true, "Empress": true, "Tsar": true, "Grand": true}

// maxKinAdjectives is how many words may stand between the article and
// the kinship noun ("an illegitimate son", "the only daughter").
const maxKinAdjectives = 2

// checkDescribedKin finds kinship predicated of a demonstrative
// description that contradicts what the described person's file declares.
func (k *Knowledge) checkDescribedKin(d *doc) []Finding {
	var out []Finding
	if len(d.words) == 0 {
		return nil
	}
	var eff []effMention // made when a description is found
	for i := range d.words {
		g, ok := ageNouns[strings.ToLower(d.words[i].s)]
		if !ok || g == 0 || !demonstrativeNoun(d, i) {
			continue
		}
		// The copula and the article.
		j := i + 1
		if j+1 >= len(d.words) || !sameClause(d, i, j+1) {
			continue
		}
		if v := strings.ToLower(d.words[j].s); v != "was" && v != "is" {
			continue
		}
		j++
		if a := strings.ToLower(d.words[j].s); a != "a" && a != "an" && a != "the" {
			continue
		}
		// The kinship noun, after an adjective or two, and "of".
		var role kinRole
		found := false
		for n := j + 1; n <= j+1+maxKinAdjectives && n+1 < len(d.words) && sameClause(d, j, n+1); n++ {
			r, isKin := latinKin[strings.ToLower(d.words[n].s)]
			if !isKin {
				continue
			}
			if strings.ToLower(d.words[n+1].s) == "of" && !r.sibling {
				role, j, found = r, n+2, true
			}
			break
		}
		if !found || j >= len(d.words) {
			continue
		}
		om, ok := d.personMentionAt(d.words[j].start, 0)
		if !ok {
			continue
		}
		other := om.ents[0]
		if eff == nil {
			eff = k.effMentions(d)
		}
		holder := onlyPersonAround(d, eff, d.words[i].start, g, other) // the kin the description is said of left out
		if holder == nil {
			continue
		}
		role = childRole(d, role, other, om.start, om.end)
		if f, bad := k.judgeKin(d, holder, om.start, om.end, other, 0, role); bad {
			out = append(out, f)
		}
	}
	return out
}
