package factcheck

import (
	"fmt"
	"slices"
	"strings"
)

// Callings: "Sir William, who had formerly practised as an attorney in
// Meryton" of a man whose file says his former occupation was trade. A
// calling is one of a closed set of English words for what people do for
// a living, grouped by what they name alike (an attorney is a lawyer); a
// calling predicated of a holder whose file gives another group's word
// contradicts it.

// callingGroups gives each calling word its group.
var callingGroups = func() map[string]string {
	out := map[string]string{}
	for group, words := range map[string][]string{
		"law":      {"attorney", "lawyer", "solicitor", "barrister", "advocate", "notary"},
		"church":   {"clergyman", "curate", "rector", "vicar", "parson", "priest", "chaplain", "minister", "deacon", "bishop"},
		"medicine": {"physician", "doctor", "surgeon", "apothecary"},
		"trade":    {"trade", "tradesman", "merchant", "shopkeeper", "grocer", "draper", "haberdasher", "mercer"},
		"land":     {"farmer", "landowner", "squire"},
		"bank":     {"banker"},
		"teaching": {"tutor", "governess", "schoolmaster", "schoolmistress", "teacher"},
		"service":  {"butler", "housekeeper", "steward", "valet", "footman", "coachman", "maid"},
		"army":     {"soldier"},
		"sea":      {"sailor", "seaman", "mariner"},
	} {
		for _, w := range words {
			out[w] = group
		}
	}
	return out
}()

// callingLeads put a calling after them as what the subject is or was:
// "practised as an attorney", "had been a clergyman", "served as a tutor".
var callingLeads = wordSet("as", "been", "was", "is", "became")

// checkCallings compares a calling predicated of a person with the
// callings their facts give.
func (k *Knowledge) checkCallings(d *doc) []Finding {
	if d.cjk {
		return nil
	}
	var out []Finding
	var eff []effMention
	for i := 2; i < len(d.words); i++ {
		w := strings.ToLower(d.words[i].s)
		group := callingGroups[w]
		if group == "" {
			continue
		}
		// "as an attorney", "had been a clergyman", "in trade".
		art := strings.ToLower(d.words[i-1].s)
		lead := strings.ToLower(d.words[i-2].s)
		switch {
		case (art == "a" || art == "an") && callingLeads[lead] && sameClause(d, i-2, i):
		case w == "trade" && (art == "in" || art == "into") && sameClause(d, i-1, i):
		default:
			continue
		}
		// "a man who had practised as an attorney": a relative clause
		// speaks of the noun before it, which must be a name.
		if !d.relativeOfName(i - 2) {
			continue
		}
		if eff == nil {
			eff = k.effMentions(d)
		}
		// "Her father had been a clergyman": the calling is the
		// father's, which her file gives under that relation's key.
		rel := d.relationSubject(i - 2)
		var key, val string
		has := func(e *entInfo) bool {
			var ok bool
			key, val, ok = d.firstFact(e, func(fk, fv string) bool {
				if rel != "" {
					if !relationKey(fk, rel) {
						return false
					}
				} else if !callingKey(fk) {
					return false
				}
				return slices.ContainsFunc(strings.Fields(strings.ToLower(fv)), func(x string) bool {
					return callingGroups[strings.Trim(x, ",.;()")] != ""
				})
			})
			return ok
		}
		c := claim{start: d.words[i].start, end: d.words[i].end, wordIdx: i - 2}
		var e *entInfo
		if rel != "" {
			e = d.possessorOf(i-2, rel)
		}
		if e != nil && !has(e) {
			continue
		}
		if e == nil {
			e, _ = k.holder(d, eff, c, has)
		}
		if e == nil && rel != "" {
			e = k.relativesHolder(d, i-2, has)
		}
		if e == nil {
			continue
		}
		has(e)
		same := false
		for _, x := range strings.Fields(strings.ToLower(val)) {
			if callingGroups[strings.Trim(x, ",.;()")] == group {
				same = true
			}
		}
		if same {
			continue
		}
		line, since := e.e.FactSource(key, d.chapter)
		who := e.e.Name
		if rel != "" {
			who += "'s " + rel
		}
		out = append(out, Finding{
			Type:       TypeFact,
			Start:      c.start,
			End:        c.end,
			Message:    fmt.Sprintf("the text makes %s a %s, but %s's %s is %q as of chapter %d", who, w, e.e.Name, key, val, d.chapter),
			Evidence:   Evidence{Path: e.e.Path, Resource: e.e.Resource, Key: key, Value: val, Line: line, Since: since},
			Confidence: 0.6,
		})
	}
	return out
}

// callingKey reports whether a fact key holds what someone does for a
// living: occupation, profession, trade, calling, former_occupation…
func callingKey(key string) bool {
	for _, p := range strings.FieldsFunc(strings.ToLower(key), func(r rune) bool { return r == '_' || r == '-' || r == ' ' }) {
		switch p {
		case "occupation", "profession", "trade", "calling", "job", "work", "employment", "career":
			return true
		}
	}
	return false
}

// relativeOfName reports whether the relative clause word i stands in,
// if any, belongs to a name: the nearest "who", "whom" or "that" before
// word i in its sentence follows a person's name (and a comma). With no
// relative word before it, the clause is the sentence's own.
func (d *doc) relativeOfName(i int) bool {
	sent := d.sents[d.sentenceAt(d.words[i].start)]
	for r := i; r > 0 && d.words[r].start >= sent.start; r-- {
		switch strings.ToLower(d.words[r].s) {
		case "who", "whom", "that", "which":
		default:
			continue
		}
		for _, mi := range d.mentionsIn(d.words[r-1].start-64, d.words[r-1].end) {
			if m := d.mentions[mi]; m.lastWord == r-1 && len(m.ents) > 0 && m.ents[0].person {
				return true
			}
		}
		return false
	}
	return true
}

// relationSubject is the relation noun the clause of the lead word at
// lead is about when its subject is a possessive and that noun ("Her
// father had been", "his uncle was"): "father", or "" when the subject
// is someone's own.
func (d *doc) relationSubject(lead int) string {
	for j := lead - 1; j >= 1 && j >= lead-4 && sameClause(d, j, lead); j-- {
		w := strings.ToLower(d.words[j].s)
		if _, ok := relationNouns[w]; !ok {
			continue
		}
		switch p := strings.ToLower(d.words[j-1].s); {
		case p == "her" || p == "his" || p == "their":
			return w
		case p == "s" && j >= 2 && (d.between(j-2, j-1) == "’" || d.between(j-2, j-1) == "'"):
			return w
		}
		return ""
	}
	return ""
}

// possessorOf is the one person named in the possessive before the
// relation noun rel of the clause of word lead ("Mr. Wickham’s father
// had been"), or nil.
func (d *doc) possessorOf(lead int, rel string) *entInfo {
	for j := lead - 1; j >= 2 && j >= lead-4; j-- {
		if strings.ToLower(d.words[j].s) != rel || d.words[j-1].s != "s" {
			continue
		}
		for _, mi := range d.mentionsIn(d.words[j-2].start-64, d.words[j-2].end) {
			if m := d.mentions[mi]; m.lastWord == j-2 && len(m.ents) == 1 && m.ents[0].person {
				return m.ents[0]
			}
		}
		return nil
	}
	return nil
}

// relationKey reports whether a fact key is the relation noun rel or
// names it among its parts (father, father_occupation).
func relationKey(key, rel string) bool {
	return slices.Contains(strings.FieldsFunc(strings.ToLower(key), func(r rune) bool { return r == '_' || r == '-' || r == ' ' }), rel)
}

// relativesHolder is whose relative a clause like "Her father had been"
// speaks of when no name of hers is near: the one person of the
// possessive's gender whose file gives that relative's calling (has),
// if she or someone her file relates her to is named in the paragraph
// ("Mr. Bennet’s property … their mother’s fortune … Her father").
func (k *Knowledge) relativesHolder(d *doc, lead int, has func(*entInfo) bool) *entInfo {
	var g byte
	for j := lead - 1; j >= 0 && j >= lead-5 && sameClause(d, j, lead); j-- {
		switch strings.ToLower(d.words[j].s) {
		case "her":
			g = 'f'
		case "his":
			g = 'm'
		}
	}
	if g == 0 {
		return nil
	}
	var only *entInfo
	for _, e := range k.ents {
		if !e.person || e.gender != g || !has(e) {
			continue
		}
		if only != nil {
			return nil
		}
		only = e
	}
	if only == nil {
		return nil
	}
	from, to := paragraphsAround(d.text, d.words[lead].start)
	for _, mi := range d.mentionsIn(from, to) {
		for _, x := range d.mentions[mi].ents {
			if x == only || k.relatedTo(x, only) {
				return only
			}
		}
	}
	return nil
}

// relatedTo reports whether a's file relates it to b.
func (k *Knowledge) relatedTo(a, b *entInfo) bool {
	for _, r := range a.e.Relations {
		if k.byResource(r.To) == b {
			return true
		}
	}
	return false
}
