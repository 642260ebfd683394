package textsearch

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// A Folder maps text to the form used for matching: traditional Chinese
// characters become simplified ones, letters become lower case, and full
// width ASCII becomes ASCII. Folding is rune for rune, so a byte offset in
// folded text maps back to the original (see [Folder.FoldWithOffsets]).
//
// The traditional-to-simplified table is OpenCC's t2s character
// conversion (github.com/longbridgeapp/opencc) over the CJK blocks,
// generated into t2s_table.go (TestT2STableIsOpenCCs checks it against
// OpenCC and rewrites it with -update).
// OpenCC's phrase-level conversion is deliberately not used: phrase rules
// change lengths and are slow (about 4 ms per 23 KB chapter against well
// under 1 ms for the rune table), and character folding is what matching
// needs. The zero value is ready to use.
type Folder struct {
	once sync.Once
	t2s  map[rune]rune
	err  error
}

// NewFolder returns a Folder. It loads nothing until first used.
func NewFolder() *Folder { return &Folder{} }

func (f *Folder) load() {
	f.once.Do(func() { f.t2s = t2s() })
}

// t2s is the traditional-to-simplified table, decoded once per process
// from t2sPairs: deriving it from OpenCC at each start (running its
// converter over 28,000 characters) cost every process about 100 ms.
var t2s = sync.OnceValue(func() map[rune]rune {
	m := make(map[rune]rune, utf8.RuneCountInString(t2sPairs)/2)
	rest := t2sPairs
	for rest != "" {
		from, n := utf8.DecodeRuneInString(rest)
		to, k := utf8.DecodeRuneInString(rest[n:])
		m[from] = to
		rest = rest[n+k:]
	}
	return m
})

// Err reports whether the conversion table failed to load. A Folder whose
// table failed still folds case; it never panics.
func (f *Folder) Err() error {
	f.load()
	return f.err
}

// FoldRune folds one rune.
func (f *Folder) FoldRune(r rune) rune {
	if r < utf8.RuneSelf {
		if 'A' <= r && r <= 'Z' {
			return r + ('a' - 'A')
		}
		return r
	}
	if r >= 0xFF01 && r <= 0xFF5E { // full-width ASCII
		r -= 0xFEE0
		return unicode.ToLower(r)
	}
	if r >= 0x3400 && r <= 0xFAFF {
		f.load()
		if s, ok := f.t2s[r]; ok {
			return s
		}
		return r
	}
	switch r {
	case '\u2019', '\u2018': // curly apostrophes fold to the ASCII one
		return '\''
	}
	return unicode.ToLower(r)
}

// Fold returns s folded. Invalid UTF-8 bytes become U+FFFD.
func (f *Folder) Fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		b.WriteRune(f.FoldRune(r))
	}
	return b.String()
}

// FoldWithOffsets returns s folded and, for every byte offset i of the
// folded text that starts a rune (and for its length), the byte offset in
// s where that rune came from: off[i] is valid at rune starts and at
// len(folded).
func (f *Folder) FoldWithOffsets(s string) (folded string, off []int) {
	var b strings.Builder
	b.Grow(len(s))
	off = make([]int, 0, len(s)+1)
	for i, r := range s {
		fr := f.FoldRune(r)
		n := utf8.RuneLen(fr)
		if n < 0 {
			fr, n = utf8.RuneError, 3
		}
		for k := 0; k < n; k++ {
			off = append(off, i)
		}
		b.WriteRune(fr)
	}
	off = append(off, len(s))
	return b.String(), off
}
