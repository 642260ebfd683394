package entitysuggest

import (
	"slices"
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
	"兄弟", "丫头", "哥儿", "姐儿", "儿", "二爷", "大爷", "三爷", "二哥", "大哥", "二叔", "叔",
	"姨娘", "姨妈", "太太", "老爷", "老爹", "夫人", "大人", "师父", "师兄", "兄",
}

// addressSex is the sex of whom an address suffix speaks to: where a stem
// stands in the names of a man and a woman (宝 of 宝玉 and 宝钗), 宝兄弟
// can only be the man.
var addressSex = func() map[string]byte {
	m := map[string]byte{}
	for _, w := range strings.Fields("姑娘 大姑娘 二姑娘 三姑娘 姐姐 大姐姐 二姐姐 妹妹 大妹妹 丫头 姐儿 姨娘 姨妈 太太 夫人") {
		m[w] = 'f'
	}
	for _, w := range strings.Fields("哥哥 二哥哥 大哥哥 兄弟 哥儿 二爷 大爷 三爷 二哥 大哥 二叔 叔 老爷 老爹 师兄 兄") {
		m[w] = 'm'
	}
	return m
}()

// suggestionSex is the sex the titles in an entry's names tell ('m',
// 'f'), 0 when they tell none or both.
func suggestionSex(s *Suggestion, folder *textsearch.Folder) byte {
	var m, f bool
	for _, n := range s.Names() {
		rs := []rune(folder.Fold(n))
		if k := cjkTitleList.suffix(rs); k > 0 && k < len(rs) {
			switch cjkTitleSex[string(rs[len(rs)-k:])] {
			case 'm':
				m = true
			case 'f':
				f = true
			}
		}
	}
	switch {
	case m && !f:
		return 'm'
	case f && !m:
		return 'f'
	}
	return 0
}

// addressee returns the entry a stem and a suffix address: the one entry
// the stem stands in, or, where it stands in several, the one of the
// suffix's sex that holds four fifths of the mentions of those not known
// to be of the other sex; else -1.
func addressee(owners []int, suf string, out []Suggestion, sex []byte) int {
	if len(owners) == 1 {
		return owners[0]
	}
	want := addressSex[suf]
	if want == 0 {
		return -1
	}
	who, sum := -1, 0
	for _, o := range owners {
		switch sex[o] {
		case want:
			if who >= 0 {
				return -1
			}
			who = o
			sum += out[o].Mentions
		case 0:
			sum += out[o].Mentions
		}
	}
	if who < 0 || 5*out[who].Mentions < 4*sum {
		return -1
	}
	return who
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
func addressForms(out []Suggestion, chapters []Chapter, folder *textsearch.Folder, surnames bookSurnames) {
	// stems[s] are the entries a stem may address; before[s] the
	// characters that stand before the stem in those names (鸳 of 鸳鸯
	// before 鸯); taken[n] the entry that has n as a name already.
	stems := map[string][]int{}
	// family marks a stem that is the family name of the entry's full
	// name (孫 of 孫悟空): 孫兒 is a grandson, not Sun Wukong.
	type familyKey struct {
		stem  string
		entry int
	}
	family := map[familyKey]bool{}
	before := map[string][]string{}
	taken := map[string]bool{}
	for i, s := range out {
		for _, n := range s.Names() {
			f := folder.Fold(n)
			taken[f] = true
			if s.Kind != KindCharacter {
				continue
			}
			rs := []rune(f)
			for _, st := range nameStems(f, surnames) {
				if !containsInt(stems[st], i) {
					stems[st] = append(stems[st], i)
				}
				if len(rs) == 3 && st == string(rs[0]) && surnames.has(rs[0]) {
					family[familyKey{st, i}] = true
				}
				if j := strings.Index(f, st); j > 0 {
					before[st] = append(before[st], f[:j])
				}
			}
		}
	}
	sex := make([]byte, len(out))
	for i := range out {
		if out[i].Kind == KindCharacter {
			sex[i] = suggestionSex(&out[i], folder)
		}
	}
	// The stems, what stands before them and the suffixes are read as
	// runes once: converting them at every character of the book took
	// a third of the time of Chinese suggestions.
	type stemRunes struct {
		s      string
		rs     []rune
		before [][]rune
	}
	byFirst := map[rune][]stemRunes{}
	for st := range stems {
		r, _ := utf8.DecodeRuneInString(st)
		sr := stemRunes{s: st, rs: []rune(st)}
		for _, b := range before[st] {
			sr.before = append(sr.before, []rune(b))
		}
		byFirst[r] = append(byFirst[r], sr)
	}
	if len(byFirst) == 0 {
		return
	}
	suffixRunes := make([][]rune, len(addressSuffixes))
	for i, suf := range addressSuffixes {
		suffixRunes[i] = []rune(suf)
	}
	// One pass over the book counts every stem and every form built on
	// one, and keeps where each form first stands, to show it as written.
	type seen struct {
		n       int
		written string
	}
	forms := map[string]*seen{}
	single := map[string]int{}
	for _, c := range chapters {
		orig := []rune(c.Text)
		rs := []rune(folder.Fold(c.Text))
		if len(rs) != len(orig) {
			orig = rs // folding keeps one rune for one; never trust it blindly
		}
		for i, r := range rs {
			for _, str := range byFirst[r] {
				st, sr := str.s, str.rs
				if !hasRunes(rs[i:], sr) {
					continue
				}
				if len(sr) == 1 {
					single[st]++
				}
				if followsAnyRunes(rs[:i], str.before) {
					continue // inside the full name (鸳鸯姐姐 for 鸯姐姐)
				}
				if len(sr) == 1 && i > 0 && familiarPrefix(rs[i-1]) {
					form := string(rs[i-1]) + st
					f := forms[form]
					if f == nil {
						f = &seen{written: string(orig[i-1 : i+1])}
						forms[form] = f
					}
					f.n++
				}
				rest := rs[i+len(sr):]
				for si, suf := range addressSuffixes {
					fr := suffixRunes[si]
					if !hasRunes(rest, fr) {
						continue
					}
					form := st + suf
					f := forms[form]
					if f == nil {
						f = &seen{written: string(orig[i : i+len(sr)+len(fr)])}
						forms[form] = f
					}
					f.n++
				}
			}
		}
	}
	// Stems in a fixed order: two stems may build the same form.
	sts := make([]string, 0, len(stems))
	for st := range stems {
		sts = append(sts, st)
	}
	slices.Sort(sts)
	for _, st := range sts {
		owners := stems[st]
		// 老孙: a family name made familiar names the one entry
		// whose full name has it, where no other entry's name holds it.
		for _, p := range familiarPrefixes {
			form := string(p) + st
			f := forms[form]
			if taken[form] || f == nil || f.n < minAddressUses || len(owners) != 1 || !family[familyKey{st, owners[0]}] {
				continue
			}
			s := &out[owners[0]]
			if n := single[st]; n > 3*s.Mentions {
				continue
			}
			s.Aliases = append(s.Aliases, f.written)
			s.Mentions += f.n
			taken[form] = true
		}
		for _, suf := range addressSuffixes {
			form := st + suf
			f := forms[form]
			if taken[form] || f == nil || f.n < minAddressUses {
				continue
			}
			o := addressee(owners, suf, out, sex)
			if o < 0 || suf == "儿" && family[familyKey{st, o}] {
				continue
			}
			s := &out[o]
			// One character addresses someone only where the book uses
			// it in their names a third of the times at least (琏, 黛);
			// 之 of 林之孝 is everywhere.
			if n, ok := single[st]; ok && n > 3*s.Mentions {
				continue
			}
			s.Aliases = append(s.Aliases, f.written)
			s.Mentions += f.n
			taken[form] = true
		}
	}
}

// familiarPrefixes make a family name familiar: 老孙 (old Sun). Not 小:
// 小孙 is a grandson far more often than young Sun.
var familiarPrefixes = []rune{'老'}

func familiarPrefix(r rune) bool { return slices.Contains(familiarPrefixes, r) }

// hasRunes reports whether rs starts with prefix.
func hasRunes(rs, prefix []rune) bool {
	if len(rs) < len(prefix) {
		return false
	}
	for i, r := range prefix {
		if rs[i] != r {
			return false
		}
	}
	return true
}

// followsAnyRunes reports whether rs ends with one of ends.
func followsAnyRunes(rs []rune, ends [][]rune) bool {
	for _, er := range ends {
		if len(rs) >= len(er) && hasRunes(rs[len(rs)-len(er):], er) {
			return true
		}
	}
	return false
}

// nameStems are the parts of a (folded) Chinese name a form of address
// may start with: the name itself, and for a name of three characters its
// family name, its given name and the given name's first character; for
// two characters either one (平 of 平儿, 琏 of 贾琏, 云 of 湘云), unless
// it is a word of address itself (儿, 姐).
func nameStems(name string, surnames bookSurnames) []string {
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
		switch {
		case cjkTitleList.suffix(rs) == 1:
			// A word and a title (聖僧, the holy monk; 唐僧): the
			// word is a stem only as a family name.
			if surnames.has(rs[0]) {
				one(rs[0])
			}
		case !cjkTitleList.prefixed(rs):
			one(rs[0])
			one(rs[1])
		}
	case 3:
		if surnames.has(rs[0]) {
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

// selfAddress are the words after one character of a given name that
// address or speak of that person herself or himself (鳳姐, 鳳丫頭,
// 環哥兒), folded: kinship words of the person, not of a spouse. Not 兒
// alone: X兒 is the whole name of many a servant (興兒 is no 冷子興).
var selfAddress = func() []string {
	out := []string{"姐", "哥"}
	for _, w := range addressSuffixes {
		if w != "儿" {
			out = append(out, w)
		}
	}
	return out
}()

// peerAddress are the words of address after a family name that speak to
// someone of the speaker's generation (史妹妹, 林姑娘), folded.
var peerAddress = []string{"姑娘", "大姑娘", "二姑娘", "三姑娘", "姐姐", "大姐姐", "二姐姐", "妹妹", "大妹妹", "哥哥", "大哥哥", "二哥哥", "兄弟"}

// givenCharAddress merges the entries that the book only names by one
// character and a word of address (鳳姐, 鳳姐兒, 鳳丫頭; 鳳哥兒) into the
// entry whose full name has that character in its given name (王熙鳳),
// where no other entry's names hold the character at all: the familiar
// name of a person is built on the given name, and the book writes the
// full name seldom, in other scenes (a chapter's argument, the
// narrator's introduction), where the nearby text cannot tie the two.
// A family name (王 of 王熙鳳) is no given name, and neither is a
// kinship word (邢大舅): 王夫人, 舅太太 are someone else. A family name
// with a word of address to one's own generation (史妹妹, 史大姑娘) is
// merged likewise, into the one entry whose full name has that family
// name.
func givenCharAddress(out []Suggestion, folder *textsearch.Folder, surnames bookSurnames) []Suggestion {
	// stem returns the one character all the entry's names are built
	// on, or 0.
	stem := func(s *Suggestion) rune {
		var st rune
		for _, n := range s.Names() {
			rs := []rune(folder.Fold(n))
			if len(rs) < 2 || !slices.Contains(selfAddress, string(rs[1:])) || st != 0 && rs[0] != st {
				return 0
			}
			st = rs[0]
		}
		return st
	}
	// given reports whether r stands in the given name of one of the
	// entry's full names (a family name and a given name).
	given := func(s *Suggestion, r rune) bool {
		for _, n := range s.Names() {
			rs := []rune(folder.Fold(n))
			if len(rs) < 2 || len(rs) > 3 || !surnames.has(rs[0]) || !slices.Contains(rs[1:], r) {
				continue
			}
			if !slices.ContainsFunc(rs[1:], addressChars.has) {
				return true
			}
		}
		return false
	}
	// family reports whether r is the family name of one of the entry's
	// full names.
	family := func(s *Suggestion, r rune) bool {
		for _, n := range s.Names() {
			rs := []rune(folder.Fold(n))
			if len(rs) == 3 && rs[0] == r && surnames.has(r) && !slices.ContainsFunc(rs[1:], addressChars.has) {
				return true
			}
		}
		return false
	}
	// peers reports whether all the entry's names address someone of the
	// speaker's own generation (史妹妹, 史大姑娘): a family name so
	// addressed is that of the young woman or man, where the family has
	// one; 王夫人, 薛姨媽 are the elders of a family.
	peers := func(s *Suggestion) bool {
		for _, n := range s.Names() {
			if !slices.Contains(peerAddress, string([]rune(folder.Fold(n))[1:])) {
				return false
			}
		}
		return true
	}
	byStem := map[rune][]int{} // the entries built on one character only
	holders := map[rune][]int{}
	// firsts[r] are the entries with a name that starts with r: of a
	// family name, those who bear it (長史官 holds 史, bears no name 史).
	firsts := map[rune][]int{}
	for i := range out {
		if out[i].Kind != KindCharacter {
			continue
		}
		st := stem(&out[i])
		if st != 0 {
			byStem[st] = append(byStem[st], i)
			continue
		}
		for _, n := range out[i].Names() {
			f := folder.Fold(n)
			for _, r := range f {
				if !containsInt(holders[r], i) {
					holders[r] = append(holders[r], i)
				}
			}
			if r, _ := utf8.DecodeRuneInString(f); !containsInt(firsts[r], i) {
				firsts[r] = append(firsts[r], i)
			}
		}
	}
	gone := map[int]bool{}
	sts := make([]rune, 0, len(byStem))
	for st := range byStem {
		sts = append(sts, st)
	}
	slices.Sort(sts)
	for _, st := range sts {
		var o *Suggestion
		byGiven := false
		switch hs, fs := holders[st], firsts[st]; {
		case len(hs) == 1 && given(&out[hs[0]], st):
			o, byGiven = &out[hs[0]], true
		case len(fs) == 1 && family(&out[fs[0]], st):
			o = &out[fs[0]]
		default:
			continue
		}
		for _, i := range byStem[st] {
			s := &out[i]
			if a, b := suggestionSex(s, folder), suggestionSex(o, folder); a != 0 && b != 0 && a != b {
				continue
			}
			if !byGiven && !peers(s) {
				continue
			}
			// The person keeps the full name; the familiar forms come
			// first among the aliases, being the ones the book uses.
			o.Aliases = append(s.Names(), o.Aliases...)
			if o.Mentions > 0 {
				o.Score *= float64(o.Mentions+s.Mentions) / float64(o.Mentions)
			} else {
				o.Score = s.Score
			}
			o.Mentions += s.Mentions
			o.FirstChapter = min(o.FirstChapter, s.FirstChapter)
			o.LastChapter = max(o.LastChapter, s.LastChapter)
			o.Chapters = max(o.Chapters, s.Chapters)
			o.Related = append(o.Related, s.Related...)
			gone[i] = true
		}
	}
	if len(gone) == 0 {
		return out
	}
	kept := out[:0]
	for i, s := range out {
		if !gone[i] {
			kept = append(kept, s)
		}
	}
	return kept
}
