package factcheck

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/hanzi"
	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// cjkFrequentSlips finds one character of a name the book writes often
// put for another that reads or looks like it, in a window the book
// never writes but here: 鳳結 for 鳳姐, 八接 for 八戒, 加母 for 賈母.
// What makes such a window a slip and not a word is the manuscript's
// counts alone: the name is written at least minSlipName times, the
// window nowhere else, and the text around the window is the text the
// book writes around the name (the character before it, or the one
// after, stands beside the name elsewhere), so that the window stands
// in the name's place. cjkNearMisses reads the same windows by the
// shapes of words; this pass needs no dictionary and so reaches the
// two-character names, where most slips fall.
func (k *Knowledge) cjkFrequentSlips(d *doc) []Finding {
	if k.book == nil {
		return nil
	}
	var out []Finding
	rs := d.frunes
	for i := range rs {
		if !prose.IsCJK(rs[i]) {
			continue
		}
		// As in cjkNearMisses: a window with a later character changed
		// starts with a name's first.
		startsName := len(k.cjk[rs[i]]) > 0
		for _, n := range k.cjkLens {
			if i+n > len(rs) || n > 4 {
				continue
			}
			for pos := 0; pos < n && (pos == 0 || startsName); pos++ {
				key := cjkKey{n: n, pos: pos}
				copy(key.r[:n], rs[i:i+n])
				key.r[pos] = 0
				for _, s := range k.cjkNear[key] {
					if f, ok := k.frequentSlip(d, i, n, pos, s); ok {
						out = append(out, f)
					}
				}
			}
		}
	}
	return out
}

// minSlipName is how often the book must write a name for a window one
// character from it, written nowhere else, to be taken for a slip by the
// counts alone: half again minFrequentName, as no shape of the window
// speaks for it.
const minSlipName = 30

// addressPrefixes make a form of address of a family name (老朱, 小李).
const addressPrefixes = "老小阿"

// frequentSlip reads the window of n characters at i as the name s with
// its character at pos slipped, and returns the finding when the book's
// counts say so.
func (k *Knowledge) frequentSlip(d *doc, i, n, pos int, s *nameSeq) (Finding, bool) {
	rs := d.frunes
	a, b := s.runes[pos], rs[i+pos]
	if a == b || !prose.IsCJK(b) || s.exclude {
		return Finding{}, false
	}
	for j := i; j < i+n; j++ {
		if !prose.IsCJK(rs[j]) {
			return Finding{}, false
		}
	}
	if !k.slipPair(d, i, s, pos) {
		return Finding{}, false
	}
	if n == 2 {
		kept := s.runes[1-pos]
		// A numeral and one character count something before they name
		// anyone (二解 of a song's verses beside 二姐), and 老, 小 or 阿
		// before a family name address another person (老朱 beside 老豬).
		// The book tells what it counts: a character it writes after
		// other numerals (一解, 三解) is counted; one it never counts (結,
		// 蒼) after the numeral of a name it writes hundreds of times
		// is that name's (八結 for 八戒, 三蒼 for 三藏).
		if prose.IsCJKNumeral(kept) && (pos == 0 || k.countedByNumerals(b, kept)) || pos == 1 && strings.ContainsRune(addressPrefixes, kept) && surnameSet.has(b) {
			return Finding{}, false
		}
	}
	// The text's own counts first, then the book's, the fewest strings
	// first: each new string the book is asked about costs a pass over it.
	inText := countRunes(rs, rs[i:i+n])
	name, window := string(s.runes), string(rs[i:i+n])
	if inText > 1 {
		return Finding{}, false
	}
	alone := k.slipStandsAlone(rs, i, n, pos, s)
	if !alone && k.book.countCJK(name) < minSlipName {
		return Finding{}, false
	}
	start, end := d.roff[i], d.roff[i+n]
	// A declared name inside the window (太太 of 勞太太) is a mention only
	// if the character before it makes a word with it that the book
	// writes; a pair it never writes (勞太) is the slip's.
	restOnly := pos == 0 && n >= 3 && (alone || k.book.countCJK(string(rs[i:i+2])) == 0) && !d.overlapsMention(start, d.roff[i+1])
	if d.overlapsMention(start, end) && !restOnly {
		return Finding{}, false
	}
	if k.book.countCJK(window) > inText {
		return Finding{}, false
	}
	// The window stands where the book puts the name: what comes before
	// it, or after it, comes before or after the name elsewhere.
	before, after := "", ""
	if i > 0 && prose.IsCJK(rs[i-1]) {
		before = string(rs[i-1])
	}
	if i+n < len(rs) && prose.IsCJK(rs[i+n]) {
		after = string(rs[i+n])
	}
	// A character on either side that the book writes beside the name
	// is evidence; a break before the window is none alone (汝來何幹:
	// 如來何 is nowhere).
	left := before != "" && k.book.countCJK(before+name) >= minSlotUses
	right := after != "" && k.book.countCJK(name+after) >= minSlotUses
	brk := i == 0 || prose.NameBreak(rs[i-1])
	// Or the stops around it are the stops the book puts around the
	// name: 「屋空， as 「悟空， (weak alone, so both sides).
	// The book's text is folded with its punctuation (， as ,).
	stops := before == "" && (i == 0 || k.book.countCJK(k.book.folder.Fold(string(rs[i-1]))+name) >= minSlotUses) &&
		after == "" && (i+n == len(rs) || k.book.countCJK(name+k.book.folder.Fold(string(rs[i+n]))) >= minSlotUses)
	if !alone && (!left && !right && !stops || brk && after != "" && !right) {
		return Finding{}, false
	}
	// The changed character makes no word with its outer neighbour (回顧
	// of 回顧雨村): a pair the book writes is a word there.
	// Unless the rest of the window is written by the book only inside
	// the name (鵑 of 紫鵑: 且說自鵑, though the book writes 說自 of 說自己
	// far more than 說紫鵑): no word of the book is left for it to make.
	if pos == 0 && before != "" && k.book.countCJK(before+string(b)) > k.book.countCJK(before+name) && !k.keptBound(rs[i+1:i+n], s) {
		return Finding{}, false
	}
	if pos == n-1 && after != "" && k.book.countCJK(string(b)+after) > k.book.countCJK(name+after) && !k.keptBound(rs[i:i+n-1], s) {
		return Finding{}, false
	}
	fix := []rune(d.text[start:end])
	fix[pos] = k.inScriptOf(d, i, n, s.runes[pos])
	return cjkSlipFinding(d, start, end, fix, s, 0.8), true
}

// slipPair reports whether the text's character at i+pos could be a slip
// for the name's at pos: a reading in common, any a dictionary gives
// either (what a pinyin input method offers: 葬 for 藏, zàng of 三藏),
// or a shape the eye or the hand confuses, compared as the text writes
// it as well as folded (奘 壯: folded, 壯 is 壮, nothing like 奘).
// Wider shape relations (a radical added, a shared lower part) were
// tried: with the counts alone to judge, they took 園好 for 園子 and 大怪
// for 大聖 in the whole books.
func (k *Knowledge) slipPair(d *doc, i int, s *nameSeq, pos int) bool {
	a, b := s.runes[pos], d.frunes[i+pos]
	if hanzi.ReadAlike(a, b) || hanzi.LookAlike(a, b) || hanzi.LookAlike(b, a) || k.lookAlikeAsWritten(d, i, s, pos) {
		return true
	}
	written, _ := utf8.DecodeRuneInString(d.text[d.roff[i+pos]:])
	for _, x := range []rune{a, k.toTraditional(a)} {
		for _, y := range []rune{b, written} {
			if hanzi.LookAlike(x, y) || hanzi.LookAlike(y, x) {
				return true
			}
		}
	}
	return false
}

// countNumerals are the numerals (folded) whose words the book counts
// with: a character written after several of them is a measure or a
// thing counted.
const countNumerals = "一二两三四五六七八九十百千万几"

// minCountingNumerals is how many numerals besides a name's own the book
// must write a character after for it to be a thing counted: one alone
// may be an adverb's (一接, as soon as met) or a longer number's (千揭).
const minCountingNumerals = 2

// countedByNumerals reports whether the book writes r after at least
// minCountingNumerals numerals other than own.
func (k *Knowledge) countedByNumerals(r, own rune) bool {
	n := 0
	for _, num := range countNumerals {
		if num != own && k.book.countCJK(string([]rune{num, r})) > 0 {
			if n++; n >= minCountingNumerals {
				return true
			}
		}
	}
	return false
}

// minSlipWord is how often the book must write the word a slip falls in
// (a name of two characters, or the two of a longer name around the
// slip: 丫頭 of 林丫頭) for the window's own pairs to judge it, with no
// slot around it that the book writes: a word written hundreds of times
// is one the hand slips in, and its slip one the book never writes.
const minSlipWord = 100

// slipStandsAlone reports whether the window of n characters at i, the
// name s with its character at pos slipped, can be read only as the
// name: the pair of the name around the slip is a word the book writes
// at least minSlipWord times (探春, 丫頭 of 林丫頭, 夫人 of 王夫人), the
// slipped character makes no pair the book writes more than here with
// either neighbour, inside the window or out (林雅, 雅頭; 名貪 of 名貪春),
// and the kept characters at the window's edges make no more pairs with
// the text outside than the name does (春天 would make 貪春天 a verb and
// its object). No word of the book then explains the window.
func (k *Knowledge) slipStandsAlone(rs []rune, i, n, pos int, s *nameSeq) bool {
	name := s.runes
	uses := 0
	for j := max(0, pos-1); j <= pos && j+1 < n; j++ {
		uses = max(uses, k.book.countCJK(string(name[j:j+2])))
	}
	if uses < minSlipWord {
		return false
	}
	for _, at := range []int{i + pos - 1, i + pos} {
		if at < 0 || at+1 >= len(rs) || !prose.IsCJK(rs[at]) || !prose.IsCJK(rs[at+1]) {
			continue
		}
		if k.book.countCJK(string(rs[at:at+2])) > 1 {
			return false
		}
	}
	// A kept edge pairs with the text outside when the book writes the
	// pair more often than the name beside that text (汝來何: 來何, never
	// 如來何).
	firstOut := pos > 0 && i > 0 && prose.IsCJK(rs[i-1]) && k.book.countCJK(string(rs[i-1:i+1])) > k.book.countCJK(string(rs[i-1])+string(name))
	lastOut := pos < n-1 && i+n < len(rs) && prose.IsCJK(rs[i+n]) && k.book.countCJK(string(rs[i+n-1:i+n+1])) > k.book.countCJK(string(name)+string(rs[i+n]))
	if n == 2 {
		return !firstOut && !lastOut
	}
	// In a longer window the slipped character pairs with neither
	// neighbour, so the window parts only where every kept edge is a
	// word with the text outside (林壓頭倒: 林 after a break, though the
	// book writes 頭倒 of 小丫頭倒茶; 如寶雅頭: 如寶 of 不如寶玉, but 頭
	// before a stop).
	switch {
	case pos == 0:
		return !lastOut
	case pos == n-1:
		// Nor where the kept part is written only as the name's start
		// (寶兄 of 寶兄弟): 儿寶 of 那儿寶玉 does not part 寶兄低.
		return !firstOut || k.book.countCJK(string(rs[i:i+pos])) <= k.book.countCJK(string(name))+1
	}
	return !firstOut || !lastOut
}

// maxBoundShare is the share of its uses, one in so many, that a part of a
// name may have outside the names of its entity and still be bound to
// them: 鵑 is written 440 times in 紅樓夢, 433 of them in 紫鵑.
const maxBoundShare = 50

// keptBound reports whether the book writes part, what a window keeps of
// the name s, inside the longer names of s's entities (counted as the
// book writes them) all but at most once in every maxBoundShare uses, and
// those names at least minSlipName times.
func (k *Knowledge) keptBound(part []rune, s *nameSeq) bool {
	p := string(part)
	var forms []string
	for _, ei := range s.ents {
		for _, n := range ei.e.Names() {
			// The part a name of its own (八戒 of 豬八戒) is written
			// apart from the longer names: it binds nothing.
			if f := string(k.foldRunes(n)); f != p && strings.Contains(f, p) && !slices.Contains(forms, f) {
				forms = append(forms, f)
			}
		}
	}
	inNames := 0
	for _, f := range forms {
		// A form holding another (林黛玉, 黛玉) is counted in the other.
		if !slices.ContainsFunc(forms, func(o string) bool { return o != f && strings.Contains(f, o) }) {
			inNames += k.book.countCJK(f)
		}
	}
	return inNames >= minSlipName && (k.book.countCJK(p)-inNames)*maxBoundShare <= inNames
}
