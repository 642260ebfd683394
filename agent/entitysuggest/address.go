package entitysuggest

import (
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/textsearch"
)

// addressSuffixes are the kinship words and titles that follow part of a
// name to address or speak of that person in Chinese fiction: 林姑娘,
// 琏二爷, 袭人姐姐, 凤丫头, 云儿. Folded (simplified) forms. Words that name
// someone else by the name (琏二奶奶 and 蓉大奶奶 are the wives, X嫂子 the
// brother's wife) are left out: they would merge two people.
var addressSuffixes = []string{
	"姑娘", "大姑娘", "二姑娘", "三姑娘", "姐姐", "大姐姐", "二姐姐", "妹妹", "大妹妹", "哥哥", "二哥哥", "大哥哥",
	"兄弟", "丫头", "哥儿", "姐儿", "儿", "二爷", "大爷", "三爷", "二哥", "大哥", "二叔",
	"姨娘", "姨妈", "太太", "老爷", "夫人", "大人", "师父", "师兄", "兄",
}

// minAddressUses is how often a form of address must occur in the book to
// be taken as a name of the entry it addresses.
const minAddressUses = 3

// addressForms adds to the Chinese character entries the forms of address
// the book builds on their names: a stem of a name (the name, the given
// name, its first character, the family name) and a kinship word or title
// after it. A stem that stands in two entries' names (宝 of 宝玉 and 宝钗,
// 薛 of 薛蟠 and 薛姨妈) addresses neither for sure and is left alone, so
// that no entry merges two people.
func addressForms(out []Suggestion, chapters []Chapter, folder *textsearch.Folder) {
	var book, orig strings.Builder
	for _, c := range chapters {
		book.WriteString(folder.Fold(c.Text))
		book.WriteByte('\n')
		orig.WriteString(c.Text)
		orig.WriteByte('\n')
	}
	folded := book.String()
	origRunes := []rune(orig.String())
	// stems[s] are the entries a stem may address; before[s] the
	// characters that stand before the stem in those names (鸳 of 鸳鸯
	// before 鸯); taken[n] the entry that has n as a name already.
	stems := map[string][]int{}
	before := map[string][]string{}
	taken := map[string]bool{}
	for i, s := range out {
		for _, n := range s.Names() {
			f := folder.Fold(n)
			taken[f] = true
			if s.Kind != KindCharacter {
				continue
			}
			for _, st := range nameStems(f) {
				if !containsInt(stems[st], i) {
					stems[st] = append(stems[st], i)
				}
				if j := strings.Index(f, st); j > 0 {
					before[st] = append(before[st], f[:j])
				}
			}
		}
	}
	for st, owners := range stems {
		if len(owners) != 1 {
			continue
		}
		s := &out[owners[0]]
		// One character addresses someone only where the book uses it
		// in their names a third of the times at least (琏, 黛); 之 of
		// 林之孝 is everywhere.
		if utf8.RuneCountInString(st) == 1 {
			inNames := 0
			for _, n := range s.Names() {
				if f := folder.Fold(n); strings.Contains(f, st) {
					inNames += strings.Count(folded, f)
				}
			}
			if strings.Count(folded, st) > 3*inNames {
				continue
			}
		}
		for _, suf := range addressSuffixes {
			form := st + suf
			if taken[form] {
				continue
			}
			// Occurrences inside the full name (鸳鸯姐姐 for 鸯姐姐) are
			// the name's, not this form's.
			n := strings.Count(folded, form)
			for _, b := range before[st] {
				n -= strings.Count(folded, b+form)
			}
			if n < minAddressUses {
				continue
			}
			// Shown as the book writes it: folding keeps one rune for one.
			at := utf8.RuneCountInString(folded[:strings.Index(folded, form)])
			written := string(origRunes[at : at+utf8.RuneCountInString(form)])
			s.Aliases = append(s.Aliases, written)
			s.Mentions += n
			taken[form] = true
		}
	}
}

// nameStems are the parts of a (folded) Chinese name a form of address
// may start with: the name itself, and for a name of three characters its
// family name, its given name and the given name's first character; for
// two characters either one (平 of 平儿, 琏 of 贾琏, 云 of 湘云), unless
// it is a word of address itself (儿, 姐).
func nameStems(name string) []string {
	rs := []rune(name)
	if len(rs) < 2 || len(rs) > 4 || !textsearch.IsCJK(rs[0]) {
		return nil
	}
	// A name made of words of address (老太太, 二奶奶) is a title, not
	// a name to build on.
	if strings.IndexFunc(name, func(r rune) bool { return !addressChars.has(r) }) < 0 {
		return nil
	}
	out := []string{name}
	one := func(r rune) {
		if !addressChars.has(r) {
			out = append(out, string(r))
		}
	}
	switch len(rs) {
	case 2:
		if !cjkTitleList.prefixed(rs) {
			one(rs[0])
			one(rs[1])
		}
	case 3:
		if cjkSurnameSet.has(rs[0]) {
			if !addressChars.has(rs[1]) && !addressChars.has(rs[2]) {
				out = append(out, string(rs[1:]))
			}
			one(rs[0])
			one(rs[1])
		}
	}
	return out
}

// addressChars are the characters of the address suffixes and of the
// kinship words a name may end with (贾母, 王舅): a stem of one of them
// (儿 of 平儿, 母 of 贾母) would address no one in particular.
var addressChars = runeSetOf(strings.Join(addressSuffixes, "") + "老母父公婆叔伯舅氏奶嫂")

func containsInt(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
