package lsptest

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// This file converts positions independently of the server's own mapper,
// so that tests check the server's ranges against a second implementation.

// Position returns the LSP position (UTF-16 units unless utf8) of byte
// offset off in text.
func Position(text string, off int, utf8Units bool) protocol.Position {
	line := strings.Count(text[:off], "\n")
	start := strings.LastIndex(text[:off], "\n") + 1
	col := 0
	if utf8Units {
		col = off - start
	} else {
		for _, r := range text[start:off] {
			col += utf16Len(r)
		}
	}
	return protocol.Position{Line: uint32(line), Character: uint32(col)}
}

func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}

// Offset returns the byte offset of an LSP position in text, or an error
// when the position is not inside it or splits a character.
func Offset(text string, p protocol.Position, utf8Units bool) (int, error) {
	lines := strings.SplitAfter(text, "\n")
	if int(p.Line) >= len(lines) {
		return 0, fmt.Errorf("line %d past the end (%d lines)", p.Line, len(lines))
	}
	off := 0
	for _, l := range lines[:p.Line] {
		off += len(l)
	}
	line := strings.TrimSuffix(lines[p.Line], "\n")
	col := 0
	for i, r := range line {
		if col == int(p.Character) {
			return off + i, nil
		}
		if col > int(p.Character) {
			return 0, fmt.Errorf("position %d:%d splits a character", p.Line, p.Character)
		}
		if utf8Units {
			col += utf8.RuneLen(r)
		} else {
			col += utf16Len(r)
		}
	}
	if col == int(p.Character) {
		return off + len(line), nil
	}
	return 0, fmt.Errorf("position %d:%d past the end of the line", p.Line, p.Character)
}

// Slice returns the text a range covers.
func Slice(text string, r protocol.Range, utf8Units bool) (string, error) {
	s, err := Offset(text, r.Start, utf8Units)
	if err != nil {
		return "", err
	}
	e, err := Offset(text, r.End, utf8Units)
	if err != nil {
		return "", err
	}
	if e < s {
		return "", fmt.Errorf("range end before start")
	}
	return text[s:e], nil
}

// Apply applies non-overlapping edits to text.
func Apply(text string, edits []protocol.TextEdit, utf8Units bool) (string, error) {
	type span struct {
		s, e int
		t    string
	}
	var spans []span
	for _, e := range edits {
		s, err := Offset(text, e.Range.Start, utf8Units)
		if err != nil {
			return "", err
		}
		en, err := Offset(text, e.Range.End, utf8Units)
		if err != nil {
			return "", err
		}
		spans = append(spans, span{s, en, e.NewText})
	}
	sort.SliceStable(spans, func(i, j int) bool { return spans[i].s < spans[j].s })
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		if sp.s < last {
			return "", fmt.Errorf("overlapping edits")
		}
		b.WriteString(text[last:sp.s])
		b.WriteString(sp.t)
		last = sp.e
	}
	b.WriteString(text[last:])
	return b.String(), nil
}
