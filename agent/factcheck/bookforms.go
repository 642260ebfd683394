package factcheck

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
	"github.com/flowcabal/flowcabal/textsearch"
)

// bookForms is the manuscript as a dictionary: how often the book spells
// each form. A near-miss of a declared name that the book itself uses
// often ("Rostóvs" beside "Rostóva", "Moscou" in French dialogue, a
// second character one letter from the first) is a word of the book, not
// a typo; a form used once beside a name used hundreds of times is one.
// It is built on first use, so that a project whose checks find no
// near-miss never reads its whole manuscript for it.
type bookForms struct {
	chapters []string
	folder   *textsearch.Folder

	once  sync.Once
	latin map[string]int // capitalised Latin words, as written
	cjk   string         // the chapters folded, for counting CJK forms

	// bytes counts each byte value of cjk: a form is looked for by its
	// rarest byte (see countIn).
	bytes [256]int

	// chars counts each character of cjk: a single character is counted
	// there, as countIn would count it by scanning the whole book once
	// for each character asked about.
	chars map[rune]int

	mu       sync.Mutex
	cjkCount map[string]int
	exact    map[string]int

	// byNumber holds each chapter by its number (nil when unknown), and
	// acting holds, per chapter, the sentences each person acts in
	// there, made on first use.
	byNumber map[int]string
	acting   map[int]*followedChapter
	// arrivals holds, per chapter, the places its narration arrives at
	// (sceneplace.go), made on first use.
	arrivals map[int][]arrival

	// nums numbers chapters (nil when unknown); cjkStarts are the
	// offsets in cjk where the chapters numbered cjkNums start (made by
	// build); valueOccs holds the occurrences of declared values found
	// there (valuecues.go), made on first use, under mu.
	nums      []int
	cjkStarts []int
	cjkNums   []int
	valueOccs map[string][]valueOcc
}

// Thresholds of bookForms.known: a form is the book's own when it occurs
// at least minBookUses times and at least once per maxNameRatio uses of
// the name it resembles.
const (
	minBookUses  = 2
	maxNameRatio = 200
)

func newBookForms(chapters []string, folder *textsearch.Folder) *bookForms {
	if len(chapters) == 0 {
		return nil
	}
	return &bookForms{chapters: chapters, folder: folder}
}

func (b *bookForms) build() {
	b.latin = map[string]int{}
	var cjk strings.Builder
	for ci, ch := range b.chapters {
		start := -1
		withCJK := false
		for i, r := range ch {
			switch {
			case unicode.IsLetter(r) || r == '\'' && start >= 0:
				if start < 0 {
					start = i
				}
				if prose.IsCJK(r) {
					withCJK = true
				}
			default:
				if start >= 0 {
					b.addLatin(ch[start:i])
					start = -1
				}
			}
		}
		if start >= 0 {
			b.addLatin(ch[start:])
		}
		if withCJK {
			if ci < len(b.nums) {
				b.cjkStarts = append(b.cjkStarts, cjk.Len())
				b.cjkNums = append(b.cjkNums, b.nums[ci])
			}
			cjk.WriteString(b.folder.Fold(ch))
			cjk.WriteByte('\n')
		}
	}
	b.cjk = cjk.String()
	b.cjkCount = map[string]int{}
	for i := 0; i < len(b.cjk); i++ {
		b.bytes[b.cjk[i]]++
	}
	b.chars = map[rune]int{}
	for _, r := range b.cjk {
		b.chars[r]++
	}
}

// countIn is strings.Count(text, s) for a non-empty s, found by the byte of
// s that is rarest in the book (by b.bytes). strings.Count looks for the
// first byte of s, which for Chinese is one of the few lead bytes that
// begin every other character: it stops every three to six bytes of a
// 30 MB book. A continuation byte stops it fifty times less often.
// Matches are counted as strings.Count counts them: each from the
// leftmost start, none overlapping.
func (b *bookForms) countIn(text, s string) int {
	if len(s) < 2 {
		return strings.Count(text, s)
	}
	rare := 0
	for i := 1; i < len(s); i++ {
		if b.bytes[s[i]] < b.bytes[s[rare]] {
			rare = i
		}
	}
	n, next, c := 0, 0, s[rare]
	for i := rare; i < len(text); {
		j := strings.IndexByte(text[i:], c)
		if j < 0 {
			break
		}
		start := i + j - rare
		if start >= next && start+len(s) <= len(text) && text[start:start+len(s)] == s {
			n++
			next = start + len(s)
			i = next + rare
		} else {
			i += j + 1
		}
	}
	return n
}

func (b *bookForms) addLatin(w string) {
	r, _ := utf8.DecodeRuneInString(w)
	if unicode.IsUpper(r) && !prose.IsCJK(r) {
		b.latin[strings.TrimRight(w, "'")]++
	}
}

// knownLatin reports whether the book uses form often enough, against
// name, to be a word of its own.
func (b *bookForms) knownLatin(form, name string) bool {
	if b == nil {
		return false
	}
	b.once.Do(b.build)
	n := b.latin[form]
	return n >= minBookUses && n*maxNameRatio >= b.latin[name]
}

// writesLatin reports whether the book writes the capitalised form at
// least minBookUses times; with no book, it does.
func (b *bookForms) writesLatin(form string) bool {
	if b == nil {
		return true
	}
	b.once.Do(b.build)
	return b.latin[form] >= minBookUses
}

// knownCJK is knownLatin for a folded CJK form and the folded name it
// resembles.
func (b *bookForms) knownCJK(form, name string) bool {
	if b == nil {
		return false
	}
	b.once.Do(b.build)
	n, m := b.countCJK(form), b.countCJK(name)
	return n >= minBookUses && n*maxNameRatio >= m
}

// standsAlone reports whether the book uses rest (a folded CJK form) on
// its own at least three times as often as name, which ends with it.
func (b *bookForms) standsAlone(rest, name string) bool {
	if b == nil {
		return false
	}
	b.once.Do(b.build)
	return b.countCJK(rest) >= 3*max(b.countCJK(name), 1)
}

// usesExactly counts s in the manuscript as written (no folding).
func (b *bookForms) usesExactly(s string) int {
	if b == nil {
		return 0
	}
	b.mu.Lock()
	if b.exact == nil {
		b.exact = map[string]int{}
	}
	n, ok := b.exact[s]
	b.mu.Unlock()
	if ok {
		return n
	}
	// Counted without the lock, so that the checks of other chapters go
	// on meanwhile; two that count the same form store the same count.
	for _, ch := range b.chapters {
		n += strings.Count(ch, s)
	}
	b.mu.Lock()
	b.exact[s] = n
	b.mu.Unlock()
	return n
}

// nearbyWindow is how many chapters on either side usedNearby reads: about
// the span over which a book keeps calling someone by one rank.
const nearbyWindow = 10

// usedNearby reports whether another chapter of the manuscript within
// nearbyWindow chapters of chapter holds s as written. What the book
// itself writes of a time ("Major Denísov" in three chapters after a
// promotion the files never record) is the book's usage then, not a slip
// of the chapter at hand; the chapter itself is left out, so that its
// saved copy cannot vouch for what is being checked.
func (b *bookForms) usedNearby(s string, chapter int) bool {
	if b == nil || b.byNumber == nil {
		return false
	}
	for n := chapter - nearbyWindow; n <= chapter+nearbyWindow; n++ {
		if text, ok := b.byNumber[n]; ok && n != chapter && strings.Contains(text, s) {
			return true
		}
	}
	return false
}

// countCJK counts a folded CJK form in the manuscript.
func (b *bookForms) countCJK(s string) int {
	b.once.Do(b.build)
	if r, size := utf8.DecodeRuneInString(s); size == len(s) && r != utf8.RuneError {
		return b.chars[r]
	}
	b.mu.Lock()
	n, ok := b.cjkCount[s]
	b.mu.Unlock()
	if ok {
		return n
	}
	n = b.countIn(b.cjk, s)
	b.mu.Lock()
	b.cjkCount[s] = n
	b.mu.Unlock()
	return n
}
