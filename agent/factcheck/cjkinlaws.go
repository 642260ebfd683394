package factcheck

import (
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// Kinship said from the other side: 狗儿遂將岳母劉姥姥接來 says that 劉姥姥
// is 狗儿's mother-in-law, so 狗儿 is her son-in-law. A file declares the
// tie on one side (劉姥姥's son_in_law: 狗儿); the text, writing the word of
// the other side between the two names, states the same fact, and with
// another name before it (王成遂將岳母劉姥姥) another son-in-law. The one
// before may be a name no file declares: a short run that opens its clause
// with a family name.

// cjkParentsInLaw are the words for a wife's parent, after the son-in-law
// and before the parent's name.
var cjkParentsInLaw = []string{"岳母", "岳父", "丈母", "丈人", "岳丈"}

// sonInLawKeys are the keys (normKey'd) of a declared son-in-law.
var sonInLawKeys = wordSet("son in law", "女婿", "女婿名", "婿", "女婿是")

// cjkLinkers may stand between the son-in-law and the kinship word: a
// possessive, or the object marker of 將岳母…接來, after an adverb.
var cjkLinkers = []string{"的", "之", "將", "将", "把"}

// cjkClauseAdverbs may stand between a subject and its verb.
const cjkClauseAdverbs = "遂便就又也乃才已竟即"

// checkCJKInLaws finds a son-in-law the text names, by a parent-in-law
// word before the parent's name, other than the declared one.
func (k *Knowledge) checkCJKInLaws(d *doc) []Finding {
	if !d.cjk {
		return nil
	}
	var out []Finding
	for _, w := range cjkParentsInLaw {
		if !d.mayHold(string(k.foldRunes(w))) {
			continue
		}
		for from := 0; ; {
			i := strings.Index(d.text[from:], w)
			if i < 0 {
				break
			}
			ks := from + i
			from = ks + len(w)
			parent, ok := d.personMentionAt(from, 0)
			if !ok {
				continue
			}
			key, declared := "", ""
			for fk, fv := range d.factsOf(parent.ents[0]) {
				if sonInLawKeys[normKey(fk)] && strings.TrimSpace(fv) != "" {
					key, declared = fk, strings.TrimSpace(fv)
				}
			}
			if key == "" {
				continue
			}
			start, end, other, ok := k.sonInLawBefore(d, ks)
			if !ok {
				continue
			}
			if other != nil && (other == parent.ents[0] || k.kinMatches(declared, other, 0)) {
				continue
			}
			if other == nil {
				name := d.text[start:end]
				if fold := string(k.foldRunes(name)); strings.Contains(string(k.foldRunes(declared)), fold) || strings.Contains(fold, string(k.foldRunes(declared))) {
					continue
				}
			}
			out = append(out, k.cjkFactFinding(d, parent.ents[0], start, end, key, declared, 0.6))
		}
	}
	return out
}

// sonInLawBefore finds the name before byte offset p (the kinship word),
// past one linker and one adverb: a person's mention (other set), or a
// run of two or three characters opening its clause with a family name
// (other nil). ok is false when neither stands there.
func (k *Knowledge) sonInLawBefore(d *doc, p int) (start, end int, other *entInfo, ok bool) {
	end = p
	for _, l := range cjkLinkers {
		if strings.HasSuffix(d.text[:end], l) {
			end -= len(l)
			break
		}
	}
	if r, size := utf8.DecodeLastRuneInString(d.text[:end]); strings.ContainsRune(cjkClauseAdverbs, r) {
		end -= size
	}
	for _, mi := range d.mentionsIn(end-64, end) {
		if m := d.mentions[mi]; m.end == end && len(m.ents) == 1 && m.ents[0].person {
			return m.start, m.end, m.ents[0], true
		}
	}
	// An undeclared name: the clause's first characters.
	start = end
	n := 0
	for start > 0 && n <= 3 {
		r, size := utf8.DecodeLastRuneInString(d.text[:start])
		if !prose.IsCJK(r) || strings.ContainsRune("，。；：！？「」『』“”、．,.;:!?", r) {
			break
		}
		start -= size
		n++
	}
	if n < 2 || n > 3 {
		return 0, 0, nil, false
	}
	if r, size := utf8.DecodeLastRuneInString(d.text[:start]); size > 0 && !strings.ContainsRune("，。；：！？「」『』“”、．,.;:!?\n", r) {
		return 0, 0, nil, false
	}
	if first, _ := utf8.DecodeRuneInString(d.text[start:end]); !k.isFamilyName(first) || d.overlapsMention(start, end) {
		return 0, 0, nil, false
	}
	return start, end, nil, true
}
