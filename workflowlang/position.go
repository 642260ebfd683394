package workflowlang

import (
	"encoding/binary"
	"fmt"
	"sort"
	"unicode/utf8"
)

// Encoding is the unit in which a column counts: what LSP calls the
// position encoding.
type Encoding int

// The encodings. UTF16 is LSP's default.
const (
	UTF16 Encoding = iota
	UTF8
	UTF32
)

// Position is a zero-based line and column; the column counts units of
// the encoding it was made for.
type Position struct {
	Line, Col int
}

// Mapper converts between byte offsets and line/column positions of one
// source. Lines end at '\n'; a "\r\n" counts its '\r' as the last byte of
// the line. Bytes that are not valid UTF-8 count as one unit each in every
// encoding (they are shown as U+FFFD, which is one UTF-16 unit).
type Mapper struct {
	src        []byte
	lineStarts []int // byte offset of each line's first byte
}

// NewMapper indexes src's lines. It keeps a reference to src.
func NewMapper(src []byte) *Mapper {
	starts := make([]int, 1, 1+len(src)/32)
	for i, b := range src {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &Mapper{src: src, lineStarts: starts}
}

// Column returns the column of byte offset off in line, the text of one
// line from its first byte, as a Mapper of it counts columns in enc; for
// a few positions whose line is known, without indexing a whole source.
func Column(line []byte, off int, enc Encoding) int {
	m := Mapper{src: line}
	return m.units(0, max(0, min(off, len(line))), enc)
}

// Lines reports the number of lines (a final line without '\n' counts).
func (m *Mapper) Lines() int { return len(m.lineStarts) }

// LineStart returns the byte offset where line begins, clamped to the source.
func (m *Mapper) LineStart(line int) int {
	if line < 0 {
		return 0
	}
	if line >= len(m.lineStarts) {
		return len(m.src)
	}
	return m.lineStarts[line]
}

// lineEnd is the offset of the line's '\n', or the end of the source.
func (m *Mapper) lineEnd(line int) int {
	if line+1 < len(m.lineStarts) {
		return m.lineStarts[line+1] - 1
	}
	return len(m.src)
}

// Position returns the position of byte offset off. Offsets outside the
// source are clamped; an offset inside a multi-byte character maps to the
// start of that character.
func (m *Mapper) Position(off int, enc Encoding) Position {
	off = max(0, min(off, len(m.src)))
	line := sort.Search(len(m.lineStarts), func(i int) bool { return m.lineStarts[i] > off }) - 1
	start := m.lineStarts[line]
	return Position{Line: line, Col: m.units(start, off, enc)}
}

// units counts the encoding units of src[from:to], stopping before a
// character that straddles to.
func (m *Mapper) units(from, to int, enc Encoding) int {
	if enc == UTF8 {
		// Snap to a character boundary so that the column is one an
		// editor can show.
		for to > from && to < len(m.src) && !utf8.RuneStart(m.src[to]) && to-from > 0 {
			if isContinuation(m.src, to) {
				to--
				continue
			}
			break
		}
		return to - from
	}
	n := 0
	for i := from; i < to; {
		// ASCII is one unit a byte in every encoding: eight bytes of it
		// are counted at once (most of a line of paths and names).
		if i+8 <= to && binary.LittleEndian.Uint64(m.src[i:i+8])&0x8080808080808080 == 0 {
			n += 8
			i += 8
			continue
		}
		if m.src[i] < utf8.RuneSelf { // one unit in every encoding
			n++
			i++
			continue
		}
		r, size := utf8.DecodeRune(m.src[i:])
		if i+size > to {
			break
		}
		if enc == UTF16 && r >= 0x10000 && size == 4 {
			n += 2
		} else {
			n++
		}
		i += size
	}
	return n
}

// isContinuation reports whether src[i] continues a valid multi-byte
// character that started before i.
func isContinuation(src []byte, i int) bool {
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		if utf8.RuneStart(src[j]) {
			_, size := utf8.DecodeRune(src[j:])
			return j+size > i
		}
	}
	return false
}

// Offset returns the byte offset of p. A column past the end of its line
// is an error (LSP allows clients to send it, so callers that must be
// lenient use ClampOffset); so is a line past the last.
func (m *Mapper) Offset(p Position, enc Encoding) (int, error) {
	if p.Line < 0 || p.Line >= len(m.lineStarts) || p.Col < 0 {
		return 0, fmt.Errorf("position %d:%d is outside the document (%d lines)", p.Line, p.Col, len(m.lineStarts))
	}
	off, ok := m.walk(p, enc)
	if !ok {
		return 0, fmt.Errorf("column %d is past the end of line %d", p.Col, p.Line)
	}
	return off, nil
}

// ClampOffset is Offset that clamps out-of-range lines and columns to the
// nearest valid offset, as the LSP specification asks of servers for
// columns past the end of a line.
func (m *Mapper) ClampOffset(p Position, enc Encoding) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(m.lineStarts) {
		return len(m.src)
	}
	off, _ := m.walk(Position{Line: p.Line, Col: max(p.Col, 0)}, enc)
	return off
}

// walk advances p.Col units from the start of p.Line. It stops at the end
// of the line; ok is false when the column lay beyond it. A column that
// falls between the two halves of a surrogate pair maps to the character's
// start.
func (m *Mapper) walk(p Position, enc Encoding) (int, bool) {
	i := m.lineStarts[p.Line]
	end := m.lineEnd(p.Line)
	n := 0
	for n < p.Col {
		if i >= end {
			return end, false
		}
		r, size := utf8.DecodeRune(m.src[i:])
		w := 1
		switch enc {
		case UTF8:
			w = size
		case UTF16:
			if r >= 0x10000 && size == 4 {
				w = 2
			}
		}
		if n+w > p.Col {
			return i, true
		}
		n += w
		i += size
	}
	return i, true
}
