package workflowlang

import (
	"testing"
	"unicode/utf8"
)

func TestMapperWideCharacters(t *testing.T) {
	// Line 0: a 中 𠀀 😀 b; line 1: x, an invalid byte, y; line 2: empty.
	src := []byte("a中𠀀😀b\nx\xffy\n")
	m := NewMapper(src)
	tests := []struct {
		off               int
		u16, u8, u32      int
		line              int
		roundTripsExactly bool
	}{
		{0, 0, 0, 0, 0, true},   // a
		{1, 1, 1, 1, 0, true},   // 中
		{4, 2, 4, 2, 0, true},   // 𠀀 (two UTF-16 units)
		{8, 4, 8, 3, 0, true},   // 😀 (two UTF-16 units)
		{12, 6, 12, 4, 0, true}, // b
		{13, 7, 13, 5, 0, true}, // end of line 0
		{14, 0, 0, 0, 1, true},  // x
		{15, 1, 1, 1, 1, true},  // the invalid byte counts one unit
		{16, 2, 2, 2, 1, true},  // y
		{18, 0, 0, 0, 2, true},  // the last, empty line
		{5, 2, 4, 2, 0, false},  // inside 𠀀: its start
		{10, 4, 8, 3, 0, false}, // inside 😀: its start
	}
	for _, tt := range tests {
		for _, enc := range []struct {
			e    Encoding
			want int
		}{{UTF16, tt.u16}, {UTF8, tt.u8}, {UTF32, tt.u32}} {
			p := m.Position(tt.off, enc.e)
			if p.Line != tt.line || p.Col != enc.want {
				t.Errorf("Position(%d, %v) = %+v, want %d:%d", tt.off, enc.e, p, tt.line, enc.want)
			}
			off, err := m.Offset(p, enc.e)
			if err != nil {
				t.Errorf("Offset(%+v, %v): %v", p, enc.e, err)
			}
			if tt.roundTripsExactly && off != tt.off {
				t.Errorf("Offset(Position(%d)) = %d in %v", tt.off, off, enc.e)
			}
		}
	}
	// Between the two UTF-16 halves of 𠀀: the character's start.
	if off, err := m.Offset(Position{0, 3}, UTF16); err != nil || off != 4 {
		t.Errorf("mid-surrogate offset %d %v", off, err)
	}
	// Past the end of a line: an error, or the line end when clamped.
	if _, err := m.Offset(Position{0, 8}, UTF16); err == nil {
		t.Error("column past the end accepted")
	}
	if off := m.ClampOffset(Position{0, 99}, UTF16); off != 13 {
		t.Errorf("clamped offset %d, want 13", off)
	}
	if off := m.ClampOffset(Position{9, 0}, UTF16); off != len(src) {
		t.Errorf("clamped line %d", off)
	}
	if _, err := m.Offset(Position{3, 0}, UTF8); err == nil {
		t.Error("line past the end accepted")
	}
}

// TestSpansWithWideCharacters checks that spans of references in Chinese
// and astral text map to the right editor columns.
func TestSpansWithWideCharacters(t *testing.T) {
	src := "node 第十二章 {\n  user \"\"\"\n    😀𠀀 见 {{前情}} 与 {{@meta/风格}}\n  \"\"\"\n}\nnode 前情 { user \"x\" }\n"
	f := Parse("w.flow", []byte(src))
	if len(f.Diagnostics) > 0 {
		t.Fatalf("%+v", f.Diagnostics)
	}
	refs := f.Node("第十二章").Refs()
	m := f.Mapper()
	// Line 2 is `    😀𠀀 见 {{前情}} …`: in UTF-16, 4 spaces + 2 + 2 + space + 见 + space = 11.
	if p := m.Position(refs[0].Span.Start, UTF16); p != (Position{2, 11}) {
		t.Errorf("ref at %+v, want 2:11", p)
	}
	if p := m.Position(refs[0].Span.End, UTF16); p != (Position{2, 17}) {
		t.Errorf("ref end at %+v, want 2:17", p)
	}
	if p := m.Position(refs[0].NameSpan.Start, UTF32); p != (Position{2, 11}) {
		t.Errorf("name at %+v in UTF-32, want 2:11", p)
	}
	if got := src[refs[1].PathSpan.Start:refs[1].PathSpan.End]; got != "meta/风格" {
		t.Errorf("path span %q", got)
	}
	if got := src[f.Nodes[0].Name.Span.Start:f.Nodes[0].Name.Span.End]; got != "第十二章" {
		t.Errorf("name span %q", got)
	}
}

// TestColumnCountsAsRuneByRune: Column, which counts runs of ASCII eight
// bytes at a time, gives at every offset of lines that mix long ASCII
// runs with Chinese, astral (𝄞) and invalid bytes what counting one
// character at a time gives, in UTF-16 and UTF-32.
func TestColumnCountsAsRuneByRune(t *testing.T) {
	byRune := func(line []byte, off int, enc Encoding) int {
		n := 0
		for i := 0; i < off; {
			r, size := utf8.DecodeRune(line[i:])
			if i+size > off {
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
	for _, line := range []string{
		"    Previous chapter: {{@manuscript/chapter-001:L1}}",
		"寫她：{{@entities/characters/林黛玉:L1}} and then some ASCII text",
		"𝄞😀 abcdefghijklmnop 黛玉 qrstuvwxyz0123456789 𝄞",
		"abcdefg\xffabcdefgh\xed\xa0\x80abcdefghijklmnop\xf0\x9d\x84",
		"12345678𝄞12345678中12345678",
		"",
	} {
		for _, enc := range []Encoding{UTF16, UTF32} {
			for off := 0; off <= len(line); off++ {
				if got, want := Column([]byte(line), off, enc), byRune([]byte(line), off, enc); got != want {
					t.Errorf("Column(%q, %d, %v) = %d, one character at a time %d", line, off, enc, got, want)
				}
			}
		}
	}
}
