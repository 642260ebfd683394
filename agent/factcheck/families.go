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

// Siblings and children by family. A file that declares a brother
// (襲人's 花自芳) or a son says nothing of other brothers or sons, so a
// sibling or child the text gives cannot be judged by name. It can by
// family: brothers and sisters by blood, and a father's children, bear one
// family name, so when the text makes someone of another family the
// sibling or child of a holder whose declared sibling or child bears the
// holder's own family name, the text gives the tie to the wrong person
// (襲人的哥哥薛蟠, 賈政之子薛蟠).
//
// The invariant that keeps it quiet: a finding needs a declared sibling
// or child of the holder's own family (a sworn brother of another family,
// 孫悟空's 牛魔王, says nothing of blood; nor a mother's son of her
// husband's family), a family name for the person the text names that
// none of their names shares with that one, and, for an English sibling,
// a brother: a sister takes her husband's name.

// siblingKeys are the fact keys that hold a brother or a sister.
var (
	brotherKeys = []string{"brother", "brothers", "elder_brother", "younger_brother", "sibling", "siblings", "哥哥", "兄", "兄長", "兄长", "弟弟", "弟", "兄弟"}
	sisterKeys  = []string{"sister", "sisters", "elder_sister", "younger_sister", "sibling", "siblings", "姐姐", "姊姊", "妹妹", "姐", "妹", "姊妹"}
)

// childKeys are the fact keys that hold a parent's children.
var childKeys = []string{"son", "sons", "daughter", "daughters", "child", "children", "兒子", "儿子", "女兒", "女儿", "子女", "兒女", "儿女"}

// judgeChildFamily reads a construction that makes m's person the child of
// the other, whose span is [ostart, oend), against the children the other
// declares: a parent who bears the declared children's family name (a
// father; in English a mother by marriage too) has no child of another
// family. A mother of another family (王夫人, whose son is a 賈) is not
// judged.
func (k *Knowledge) judgeChildFamily(d *doc, m mention, ostart, oend int, other *entInfo) (Finding, bool) {
	if other == nil || len(m.ents) != 1 || m.ents[0] == other {
		return Finding{}, false
	}
	start, end := min(m.start, ostart), max(m.end, oend)
	return k.ofOtherFamily(d, other, m.ents[0], childKeys, start, end, prose.HasCJK(d.text[start:end]))
}

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
	if f, bad := k.ofOtherFamily(d, other, e, keys, start, end, cjk); bad {
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
	return k.ofOtherFamily(d, e, other, back, start, end, cjk)
}

// ofOtherFamily reports whether the text, making named the sibling or child
// of holder, contradicts a person of holder's own family declared under
// one of keys.
func (k *Knowledge) ofOtherFamily(d *doc, holder, named *entInfo, keys []string, start, end int, cjk bool) (Finding, bool) {
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
