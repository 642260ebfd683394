package factcheck

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// Siblings by family. A file that declares a brother (襲人's 花自芳) says
// nothing of other brothers, so a sibling the text gives cannot be judged
// by name. It can by family: brothers and sisters by blood bear one family
// name, so when the text makes someone of another family the sibling of a
// holder whose declared sibling bears the holder's own family name, the
// text gives the tie to the wrong person (襲人的哥哥薛蟠).
//
// The invariant that keeps it quiet: a finding needs a declared sibling
// of the holder's own family (a sworn brother of another family, 孫悟空's
// 牛魔王, says nothing of blood), a family name for the person the text
// names that none of their names shares with that sibling, and, in
// English, a brother: a sister takes her husband's name.

// siblingKeys are the fact keys that hold a brother or a sister.
var (
	brotherKeys = []string{"brother", "brothers", "elder_brother", "younger_brother", "sibling", "siblings", "哥哥", "兄", "兄長", "兄长", "弟弟", "弟", "兄弟"}
	sisterKeys  = []string{"sister", "sisters", "elder_sister", "younger_sister", "sibling", "siblings", "姐姐", "姊姊", "妹妹", "姐", "妹", "姊妹"}
)

// siblingSex tells, from the kinship word in a construction's text, whether
// it makes the named person a brother ('m') or a sister ('f'); 0 when the
// word is not found.
func siblingSex(text string) byte {
	switch {
	case strings.Contains(text, "brother") || strings.ContainsAny(text, "哥兄弟"):
		return 'm'
	case strings.Contains(text, "sister") || strings.ContainsAny(text, "姐姊妹"):
		return 'f'
	}
	return 0
}

// judgeSiblingFamily reads a sibling construction between the mention m
// and the other person, whose span is [ostart, oend): m's person is the
// other's brother or sister. It reports a contradiction with a declared
// sibling, on either side, by family.
func (k *Knowledge) judgeSiblingFamily(d *doc, m mention, ostart, oend int, other *entInfo) (Finding, bool) {
	if other == nil || len(m.ents) != 1 {
		return Finding{}, false
	}
	e := m.ents[0]
	start, end := min(m.start, ostart), max(m.end, oend)
	sex := siblingSex(d.text[start:end])
	if sex == 0 || e == other {
		return Finding{}, false
	}
	cjk := prose.HasCJK(d.text[start:end])
	if !cjk && sex != 'm' {
		return Finding{}, false
	}
	keys := brotherKeys
	if sex == 'f' {
		keys = sisterKeys
	}
	// The other's declared brother (or sister), against m's person; then
	// m's declared siblings against the other, whose sex the file gives.
	if f, bad := k.siblingOfOtherFamily(d, other, e, keys, start, end, cjk); bad {
		return f, true
	}
	// In Chinese a sister keeps her family name too, so where the file
	// gives no sex, any declared sibling will do.
	var back []string
	switch {
	case other.gender == 'm':
		back = brotherKeys
	case other.gender == 'f' && cjk:
		back = sisterKeys
	case cjk:
		back = append(slices.Clone(brotherKeys), sisterKeys...)
	}
	if back == nil {
		return Finding{}, false
	}
	return k.siblingOfOtherFamily(d, e, other, back, start, end, cjk)
}

// siblingOfOtherFamily reports whether the text, making named the sibling
// of holder, contradicts a sibling declared under one of keys.
func (k *Knowledge) siblingOfOtherFamily(d *doc, holder, named *entInfo, keys []string, start, end int, cjk bool) (Finding, bool) {
	facts := d.factsOf(holder)
	for _, fk := range slices.Sorted(maps.Keys(facts)) {
		if !slices.Contains(keys, strings.ToLower(fk)) {
			continue
		}
		fv := facts[fk]
		if namesEntity(fv, named) {
			return Finding{}, false
		}
		fams := k.declaredFamilies(fv, cjk)
		// Only a sibling of the holder's own family is one by blood.
		blood := slices.ContainsFunc(fams, func(f string) bool { return k.bearsFamily(holder, f, cjk) })
		if !blood {
			continue
		}
		nf := k.familyOf(named, cjk)
		if nf == "" || slices.Contains(fams, nf) || slices.ContainsFunc(fams, func(f string) bool { return k.bearsFamily(named, f, cjk) }) {
			return Finding{}, false
		}
		f := k.cjkFactFinding(d, holder, start, end, fk, fv, 0.6)
		f.Message = fmt.Sprintf("the text says %q, but %s's %s is %q as of chapter %d, of another family than %s", d.text[start:end], holder.e.Name, fk, fv, d.chapter, named.e.Name)
		return f, true
	}
	return Finding{}, false
}

// declaredFamilies are the family names of the people a sibling value
// lists (花自芳; 鹿力大仙、羊力大仙; "Fitzwilliam Darcy"): a declared
// person's own family where the value names one, else the value's.
func (k *Knowledge) declaredFamilies(v string, cjk bool) []string {
	var out []string
	for _, part := range strings.FieldsFunc(v, func(r rune) bool { return strings.ContainsRune("、，,;；/和及與与", r) }) {
		part = strings.TrimSpace(part)
		if i := strings.IndexAny(part, "(（"); i >= 0 {
			part = strings.TrimSpace(part[:i])
		}
		part = strings.TrimPrefix(part, "and ")
		fam := ""
		for _, o := range k.ents {
			if o.person && namesEntity(part, o) {
				fam = k.familyOf(o, cjk)
				break
			}
		}
		if fam == "" {
			fam = k.familyOfName(part, cjk)
		}
		if fam != "" && !slices.Contains(out, fam) {
			out = append(out, fam)
		}
	}
	return out
}

// familyOf is the family name of an entity's canonical name, or "".
func (k *Knowledge) familyOf(e *entInfo, cjk bool) string {
	return k.familyOfName(e.e.Name, cjk)
}

// familyOfName is the family name a person's full name begins with
// (Chinese: a family name before a given name of one or two characters) or ends with (English: the last capitalised word that is no
// title), or "".
func (k *Knowledge) familyOfName(n string, cjk bool) string {
	if cjk {
		rs := k.foldRunes(strings.TrimSpace(n))
		// Three characters are a family and a given name where the
		// first is a family name at all; two only with a common one (晴雯
		// and 襲人 are given names).
		switch {
		case !prose.AllCJK(rs):
			return ""
		case len(rs) == 3 && k.isFamilyName(rs[0]), len(rs) == 2 && surnameSet.has(rs[0]):
			return string(rs[0])
		}
		return ""
	}
	ws := prose.LatinWords(n)
	if len(ws) < 2 {
		return ""
	}
	w := ws[len(ws)-1]
	if r, _ := utf8.DecodeRuneInString(w); !unicode.IsUpper(r) || len(w) < 3 || titleWords[w] || peerTitles[w] || rankClass[w] != "" {
		return ""
	}
	return prose.Unaccented(w)
}

// bearsFamily reports whether one of e's names bears the family name f:
// begins with it (Chinese: 花大姐姐 of 襲人), or holds it as a word.
func (k *Knowledge) bearsFamily(e *entInfo, f string, cjk bool) bool {
	for _, n := range e.e.Names() {
		if cjk {
			if rs := k.foldRunes(n); len(rs) >= 2 && string(rs[0]) == f {
				return true
			}
			continue
		}
		for _, w := range prose.LatinWords(n) {
			if prose.Unaccented(w) == f {
				return true
			}
		}
	}
	return false
}
