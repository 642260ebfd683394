package textsearch

import (
	"fmt"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/longbridgeapp/opencc"
)

// A Folder maps text to the form used for matching: traditional Chinese
// characters become simplified ones, letters become lower case, and full
// width ASCII becomes ASCII. Folding is rune for rune, so a byte offset in
// folded text maps back to the original (see [Folder.FoldWithOffsets]).
//
// The traditional-to-simplified table is derived once, lazily, from
// OpenCC's t2s character dictionary (github.com/longbridgeapp/opencc).
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

// cjkRanges are the blocks whose characters OpenCC may convert.
var cjkRanges = [][2]rune{{0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xF900, 0xFAFF}}

func (f *Folder) load() {
	f.once.Do(func() {
		cc, err := opencc.New("t2s")
		if err != nil {
			f.err = fmt.Errorf("load t2s table: %w", err)
			return
		}
		var b strings.Builder
		var rs []rune
		for _, r := range cjkRanges {
			for c := r[0]; c <= r[1]; c++ {
				rs = append(rs, c)
				b.WriteRune(c)
				b.WriteByte('\n')
			}
		}
		out, err := cc.Convert(b.String())
		if err != nil {
			f.err = fmt.Errorf("derive t2s table: %w", err)
			return
		}
		lines := strings.Split(out, "\n")
		m := make(map[rune]rune, 4096)
		if len(lines) >= len(rs) {
			for i, c := range rs {
				l := lines[i]
				r, n := utf8.DecodeRuneInString(l)
				if n == len(l) && r != c && r != utf8.RuneError {
					m[c] = r
				}
			}
		}
		f.t2s = m
	})
}

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
