package factcheck

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Kinship told from the holder's side in English: "Pierre’s father,
// Prince Vasíli", "Prince Andrew’s wife Hélène", "Prince Vasíli, Pierre’s
// father," and "Prince Vasíli, the father of Pierre". The possessor's
// file names the relative under the noun's own key (father, mother,
// spouse), so the named person is compared with that value, an entity.
// Kinship.go reads the same constructions from the named person's side
// (her declared husband), which a parent's or an aunt's file seldom gives.

// holderKinKeys are the English kinship nouns one holds once at a time,
// and the fact keys of the possessor's file that name the relative. Of a
// son, a sister or an aunt one may have several, under other family
// names (a married sister), and the file may name only one of them:
// families.go judges those by family name.
var holderKinKeys = map[string][]string{
	"father": {"father"}, "mother": {"mother"},
	"wife": {"spouse", "wife"}, "husband": {"spouse", "husband"},
}

// checkHolderKin finds a relative named by a possessive kinship noun whom
// the possessor's file does not give under that noun's key.
func (k *Knowledge) checkHolderKin(d *doc) []Finding {
	if d.cjk {
		return nil
	}
	var out []Finding
	for _, m := range d.mentions {
		if m.firstWord < 0 || len(m.ents) != 1 || !m.ents[0].person || m.possessive {
			continue
		}
		holder, noun, start, end, ok := d.holderKinOf(m)
		if !ok || holder == m.ents[0] {
			continue
		}
		if f, bad := k.judgeHolderKin(d, holder, noun, m.ents[0], start, end); bad {
			out = append(out, f)
		}
	}
	return out
}

// holderKinOf reads the possessor and the kinship noun a construction
// around mention m ties to it: "X’s NOUN, NAME", "X’s NOUN NAME",
// "NAME, X’s NOUN," and "NAME, the NOUN of X" or "NAME was the NOUN of
// X". It returns X, the noun and the span from the first of the two
// names to the end of the second.
func (d *doc) holderKinOf(m mention) (*entInfo, string, int, int, bool) {
	// X’s NOUN[,] NAME
	before := strings.TrimSuffix(d.text[:m.start], " ")
	if len(before) < len(d.text[:m.start]) && nameClosesPhrase(d.text[m.end:]) {
		before = strings.TrimSuffix(before, ",")
		for noun := range holderKinKeys {
			b, cut := strings.CutSuffix(before, " "+noun)
			if !cut {
				continue
			}
			for _, p := range []string{"’s", "'s"} {
				if b2, cut := strings.CutSuffix(b, p); cut {
					if x, ok := d.personMentionEndingAt(len(b2)); ok {
						return x.ents[0], noun, x.start, m.end, true
					}
				}
			}
		}
	}
	// NAME, X’s NOUN[,.;]  |  NAME, the NOUN of X  |  NAME was the NOUN of X
	after := d.text[m.end:]
	for _, lead := range []string{", ", " was ", " is "} {
		rest, cut := strings.CutPrefix(after, lead)
		if !cut {
			continue
		}
		at := m.end + len(lead)
		if r, cut := strings.CutPrefix(rest, "the "); cut {
			noun, tail, _ := strings.Cut(r, " ")
			if _, ok := holderKinKeys[noun]; ok && strings.HasPrefix(tail, "of ") {
				xs := at + len("the ") + len(noun) + len(" of ")
				if x, ok := d.personMentionAt(xs, 0); ok && !x.possessive {
					return x.ents[0], noun, m.start, x.end, true
				}
			}
			continue
		}
		if lead != ", " {
			continue
		}
		x, ok := d.personMentionAt(at, 0)
		if !ok || !x.possessive {
			continue
		}
		for _, p := range []string{"’s ", "'s "} {
			r, cut := strings.CutPrefix(d.text[x.end:], p)
			if !cut {
				continue
			}
			for noun := range holderKinKeys {
				if tail, cut := strings.CutPrefix(r, noun); cut && (tail == "" || strings.ContainsRune(",.;!?", firstRune(tail))) {
					return x.ents[0], noun, m.start, x.end + len(p) + len(noun), true
				}
			}
		}
	}
	return nil, "", 0, 0, false
}

// personMentionEndingAt is the mention of one person that ends at byte
// offset at.
func (d *doc) personMentionEndingAt(at int) (mention, bool) {
	for _, i := range d.mentionsIn(at-64, at) {
		if om := d.mentions[i]; om.end == at && len(om.ents) == 1 && om.ents[0].person {
			return om, true
		}
	}
	return mention{}, false
}

// judgeHolderKin compares the relative a kinship noun gives holder with
// what holder's file declares under that noun's key, in any chapter. Only
// a declared value that names another entity is contradicted.
func (k *Knowledge) judgeHolderKin(d *doc, holder *entInfo, noun string, rel *entInfo, start, end int) (Finding, bool) {
	facts := d.factsOf(holder)
	var key, val string
	for _, want := range holderKinKeys[noun] {
		for _, fk := range slices.Sorted(maps.Keys(facts)) {
			if strings.ToLower(fk) == want && strings.TrimSpace(facts[fk]) != "" {
				key, val = fk, facts[fk]
				break
			}
		}
		if key != "" {
			break
		}
	}
	// A woman called a father is some other misreading, not this tie.
	if rel.gender == 'f' && (noun == "father" || noun == "husband") || rel.gender == 'm' && (noun == "mother" || noun == "wife") {
		return Finding{}, false
	}
	if key == "" || !k.namesSomeone(val) || k.kinMatches(val, rel, 0) {
		return Finding{}, false
	}
	// Any chapter's value: a wife now dead, a father by adoption the file
	// gives later, are still his.
	named := false
	k.eachFact(holder, func(fk, fv string) {
		if slices.Contains(holderKinKeys[noun], strings.ToLower(fk)) && namesEntity(fv, rel) {
			named = true
		}
	})
	if named {
		return Finding{}, false
	}
	f := k.cjkFactFinding(d, holder, start, end, key, val, 0.6)
	f.Message = fmt.Sprintf("the text makes %s %s's %s, but %s's %s is %q as of chapter %d", rel.e.Name, holder.e.Name, noun, holder.e.Name, key, val, d.chapter)
	return f, true
}

// nameClosesPhrase reports whether the text after a name in apposition
// ends its phrase: punctuation or the end ("his father, Prince Vasíli,
// with"), not a verb that makes the name a new clause's subject ("from
// her father, the little princess sat").
func nameClosesPhrase(after string) bool {
	return after == "" || strings.ContainsRune(",.;:!?)”", firstRune(after))
}
