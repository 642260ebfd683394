package factcheck

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// A brother or sister named after a declared person by a full name no
// file declares (襲人之兄王子騰, 探春的妹妹林如玉): a sibling by blood bears
// the holder's family name, so where the holder's declared sibling is of
// the holder's own family (花自芳 of 襲人, whose aliases say 花), a name
// of another family is another person. A name of the same family, or a
// holder whose declared siblings are of other families (cousins, sworn
// brothers), says nothing.

// siblingWords follow 的 or 之 after the holder, longest first; the
// one-character ones after 之 only.
var siblingWords = []string{"哥哥", "兄弟", "弟弟", "姐姐", "姊姊", "妹妹", "兄長", "兄长", "兄", "弟", "姐", "姊", "妹"}

// checkCJKSiblingNames finds a sibling of another family named after a
// person whose sibling of their own family is declared.
func (k *Knowledge) checkCJKSiblingNames(d *doc) []Finding {
	if !d.cjk || k.book == nil {
		return nil
	}
	var out []Finding
	for _, m := range d.mentions {
		if len(m.ents) != 1 || !m.ents[0].person || m.firstWord >= 0 {
			continue
		}
		after := d.text[m.end:]
		mark := ""
		for _, mk := range []string{"之", "的"} {
			if strings.HasPrefix(after, mk) {
				mark = mk
			}
		}
		if mark == "" {
			continue
		}
		word := ""
		for _, w := range siblingWords {
			if strings.HasPrefix(after[len(mark):], w) && (mark == "之" || utf8.RuneCountInString(w) > 1) {
				word = w
				break
			}
		}
		if word == "" {
			continue
		}
		at := m.end + len(mark) + len(word)
		if _, named := d.personMentionAt(at, 0); named {
			continue // a declared person: kinship.go and families.go
		}
		s, e, ok := d.bookNameStartingAt(k, at)
		if !ok {
			continue
		}
		if f, bad := k.judgeSiblingName(d, m.ents[0], s, e, siblingSex(word)); bad {
			out = append(out, f)
		}
	}
	return out
}

// judgeSiblingName compares the undeclared full name at [s, e), said to
// be holder's sibling of sex sex, with holder's declared siblings of
// holder's own family.
func (k *Knowledge) judgeSiblingName(d *doc, holder *entInfo, s, e int, sex byte) (Finding, bool) {
	keys := brotherKeys
	if sex == 'f' {
		keys = sisterKeys
	}
	name := string(k.foldRunes(d.text[s:e]))
	nf := string([]rune(name)[:1])
	facts := d.factsOf(holder)
	own := func(f string) bool {
		if k.bearsFamily(holder, f, true) {
			return true
		}
		for fk, fv := range facts {
			if surnameKeys[normKey(fk)] && string(k.foldRunes(strings.TrimSpace(fv))) == f {
				return true
			}
		}
		return false
	}
	for _, fk := range sortedKeys(facts) {
		if !slices.Contains(keys, strings.ToLower(fk)) {
			continue
		}
		fv := facts[fk]
		if dv := string(k.foldRunes(fv)); strings.Contains(dv, name) || strings.Contains(name, dv) {
			return Finding{}, false
		}
		fams := k.declaredFamilies(fv, true)
		if !slices.ContainsFunc(fams, own) || slices.Contains(fams, nf) || own(nf) {
			continue
		}
		f := k.cjkFactFinding(d, holder, s, e, fk, fv, 0.6)
		f.Message = fmt.Sprintf("the text makes %q %s's sibling, but %s's %s is %q as of chapter %d, and a sibling by blood is of the %s family", d.text[s:e], holder.e.Name, holder.e.Name, fk, fv, d.chapter, strings.Join(fams, "/"))
		return f, true
	}
	return Finding{}, false
}

// sortedKeys are the keys of facts in order, for findings that do not
// change from run to run.
func sortedKeys(facts map[string]string) []string {
	keys := make([]string, 0, len(facts))
	for fk := range facts {
		keys = append(keys, fk)
	}
	slices.Sort(keys)
	return keys
}

// bookNameStartingAt finds a full name no file declares that starts at
// byte offset at: a family name and one or two characters the manuscript
// writes often enough to be a person of the book (王子騰 in 襲人之兄王子騰
// 也正進京), the longer first. It returns the name's span.
func (d *doc) bookNameStartingAt(k *Knowledge, at int) (int, int, bool) {
	first, size := utf8.DecodeRuneInString(d.text[at:])
	if !k.isFamilyName(first) {
		return 0, 0, false
	}
	for _, n := range []int{2, 1} {
		end, ok := at+size, true
		for i := 0; i < n && ok; i++ {
			r, sz := utf8.DecodeRuneInString(d.text[end:])
			ok = prose.IsCJK(r) && !strings.ContainsRune("的之是乃和与與及同也便又就", r)
			end += sz
		}
		if !ok || d.overlapsMention(at, end) {
			continue
		}
		// 柳二郎, 蓉哥兒: a rank or a familiar ending is another kind of name.
		if strings.ContainsFunc(d.text[at+size:end], func(r rune) bool {
			return prose.IsCJKNumeral(r) || strings.ContainsRune("郎哥兒儿爺爷姐娘氏家", r)
		}) {
			continue
		}
		if k.book.countCJK(string(k.foldRunes(d.text[at:end]))) >= minBookNameUses {
			return at, end, true
		}
	}
	return 0, 0, false
}
