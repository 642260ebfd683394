package workflowlang

import (
	"bytes"
	"strconv"
	"unicode/utf8"
)

// textBuilder accumulates the blocks of a prompt or text value: runs of
// literal text (with the source span they came from) and references.
type textBuilder struct {
	p      *parser
	blocks []Block
	buf    []byte
	start  int  // source start of the open run, -1 when none
	end    int  // source end of the open run
	pure   bool // the run is exactly src[start:end]
}

func (p *parser) newTextBuilder() textBuilder {
	return textBuilder{p: p, start: -1, blocks: p.blocks[:0]}
}

// add appends src[from:to] as it is.
func (tb *textBuilder) add(from, to int, text []byte) {
	if tb.start < 0 {
		tb.start, tb.pure = from, true
	} else if from != tb.end {
		tb.pure = false
	}
	tb.buf = append(tb.buf, text...)
	tb.end = to
}

// addString appends text in place of src[from:to].
func (tb *textBuilder) addString(from, to int, text string) {
	if tb.start < 0 {
		tb.start = from
	}
	tb.pure = false
	tb.buf = append(tb.buf, text...)
	tb.end = to
}

func (tb *textBuilder) flush() {
	if tb.start >= 0 {
		t := tb.p.texts.new()
		if tb.pure {
			t.Text = tb.p.s[tb.start:tb.end]
		} else {
			t.Text = string(tb.buf)
		}
		t.Span = Span{tb.start, tb.end}
		tb.blocks = append(tb.blocks, t)
		tb.buf = tb.buf[:0]
		tb.start = -1
	}
}

func (tb *textBuilder) ref(r *Ref) {
	tb.flush()
	tb.blocks = append(tb.blocks, r)
}

// done returns the blocks in a slice of their own.
func (tb *textBuilder) done() []Block {
	tb.flush()
	tb.p.blocks = tb.blocks[:0]
	if len(tb.blocks) == 0 {
		return nil
	}
	return append([]Block(nil), tb.blocks...)
}

func isBlank(line []byte) bool {
	for _, c := range line {
		if c != ' ' && c != '\t' && c != '\r' {
			return false
		}
	}
	return true
}

// tripleLayout describes how the raw content src[a:b] of a """ block maps
// to its text: the first line is dropped when blank, so is a blank last
// line, and the indentation common to the non-blank lines is stripped.
type tripleLayout struct {
	start, end int    // the content after dropping first/last lines
	inline     bool   // the first kept line starts on the opener's line
	indent     []byte // the common indentation
}

func layoutTriple(src []byte, a, b int) tripleLayout {
	l := tripleLayout{start: a, end: b, inline: true}
	firstNL := bytes.IndexByte(src[a:b], '\n')
	if firstNL < 0 {
		return l // a one-line block: taken as written
	}
	firstNL += a
	if isBlank(src[a:firstNL]) {
		l.start = firstNL + 1
		l.inline = false
	}
	lastNL := bytes.LastIndexByte(src[a:b], '\n') + a
	if lastNL+1 >= l.start && isBlank(src[lastNL+1:b]) {
		if lastNL+1 == l.start {
			l.end = l.start
		} else {
			l.end = lastNL
			if l.end > l.start && src[l.end-1] == '\r' {
				l.end-- // the CR of a CRLF
			}
		}
	}
	// Common indentation of the lines that start at a line start.
	first := true
	ls := l.start
	if l.inline {
		nl := bytes.IndexByte(src[ls:l.end], '\n')
		if nl < 0 {
			return l
		}
		ls += nl + 1
	}
	for ls <= l.end {
		le := bytes.IndexByte(src[ls:l.end], '\n')
		if le < 0 {
			le = l.end
		} else {
			le += ls
		}
		w := ls
		for w < le && (src[w] == ' ' || src[w] == '\t') {
			w++
		}
		if !isBlank(src[w:le]) {
			if first {
				l.indent = src[ls:w]
				first = false
			} else {
				n := 0
				for n < len(l.indent) && ls+n < w && src[ls+n] == l.indent[n] {
					n++
				}
				l.indent = l.indent[:n]
			}
		}
		if le == l.end {
			break
		}
		ls = le + 1
	}
	return l
}

// decodeText decodes a """…""" token into blocks and returns them with
// the span of the content between the quotes.
func (p *parser) decodeText(t token) ([]Block, Span) {
	a, b := t.start+3, t.end-3
	if t.open {
		b = t.end
	}
	if b < a {
		b = a
	}
	p.checkBytes(a, b)
	l := layoutTriple(p.src, a, b)
	tb := p.newTextBuilder()
	p.scanBody(&tb, l.start, l.end, !l.inline, l.indent, true, true)
	return tb.done(), Span{a, b}
}

// scanBody decodes src[a:b] into tb. In triple mode lines lose the indent
// prefix (as far as it matches) and "\r\n" becomes "\n"; otherwise string
// escapes apply. Refs are parsed when refs is set.
func (p *parser) scanBody(tb *textBuilder, a, b int, lineStart bool, indent []byte, triple, refs bool) {
	src := p.src
	i := a
	for i < b {
		if lineStart {
			for j := 0; j < len(indent) && i < b && src[i] == indent[j]; j++ {
				i++
			}
			lineStart = false
			continue
		}
		// A run of ordinary bytes.
		j := i
		for j < b {
			c := src[j]
			if c == '\n' || c == '\r' || c == '\\' || c == '{' {
				break
			}
			j++
		}
		if j > i {
			tb.add(i, j, src[i:j])
			i = j
			continue
		}
		c := src[i]
		switch {
		case c == '\n':
			tb.add(i, i+1, src[i:i+1])
			i++
			lineStart = triple
		case c == '\r':
			if triple && i+1 < b && src[i+1] == '\n' {
				tb.addString(i, i+2, "\n")
				i += 2
				lineStart = true
			} else {
				tb.add(i, i+1, src[i:i+1])
				i++
			}
		case c == '\\':
			i = p.escape(tb, i, b, triple)
		case c == '{':
			if i+1 < b && src[i+1] == '{' && refs {
				i = p.ref(tb, i, b)
			} else {
				tb.add(i, i+1, src[i:i+1])
				i++
			}
		}
	}
}

func hasAt(src []byte, i, b int, s string) bool {
	return b-i >= len(s) && string(src[i:i+len(s)]) == s
}

// escape handles a backslash at i and returns the offset after it.
func (p *parser) escape(tb *textBuilder, i, b int, triple bool) int {
	src := p.src
	if hasAt(src, i+1, b, "{{") {
		tb.addString(i, i+3, "{{")
		return i + 3
	}
	if triple {
		if hasAt(src, i+1, b, `"""`) {
			tb.addString(i, i+4, `"""`)
			return i + 4
		}
		tb.add(i, i+1, src[i:i+1])
		return i + 1
	}
	if i+1 >= b {
		tb.add(i, i+1, src[i:i+1])
		return i + 1
	}
	switch src[i+1] {
	case '"':
		tb.addString(i, i+2, `"`)
	case '\\':
		tb.addString(i, i+2, `\`)
	case 'n':
		tb.addString(i, i+2, "\n")
	case 't':
		tb.addString(i, i+2, "\t")
	case 'r':
		tb.addString(i, i+2, "\r")
	case 'u':
		if i+2 < b && src[i+2] == '{' {
			if end := bytes.IndexByte(src[i+3:b], '}'); end > 0 && end <= 6 {
				hex := string(src[i+3 : i+3+end])
				v, err := strconv.ParseUint(hex, 16, 32)
				if err == nil && utf8.ValidRune(rune(v)) {
					tb.addString(i, i+4+end, string(rune(v)))
					return i + 4 + end
				}
			}
		}
		p.errorf(Span{i, i + 2}, CodeSyntax, `bad \u escape: want \u{hex} with a valid code point`)
		tb.add(i, i+2, src[i:i+2])
	default:
		r, size := utf8.DecodeRune(src[i+1 : b])
		if r == utf8.RuneError && size <= 1 {
			size = 1
		}
		p.errorf(Span{i, i + 1 + size}, CodeSyntax, `unknown escape \%s: use \", \\, \n, \t, \u{…} or \{{`, string(src[i+1:i+1+size]))
		tb.add(i, i+1+size, src[i:i+1+size])
		return i + 1 + size
	}
	return i + 2
}

// ref parses the reference whose "{{" is at i, within one line, and
// returns the offset after it. A malformed reference is reported and kept
// as literal text so that the rest of the prompt still parses.
func (p *parser) ref(tb *textBuilder, i, b int) int {
	src := p.src
	// The line end and the next "}}" are remembered between references
	// so that a long line full of "{{" stays linear.
	if i >= p.lineEnd || b != p.lineLimit {
		p.lineLimit = b
		if e := bytes.IndexByte(src[i:b], '\n'); e < 0 {
			p.lineEnd = b
		} else {
			p.lineEnd = i + e
		}
		p.closeAt = -2
	}
	lineEnd := p.lineEnd
	if p.closeAt == -2 || (p.closeAt >= 0 && p.closeAt < i+2) {
		if c := bytes.Index(src[i+2:lineEnd], []byte("}}")); c < 0 {
			p.closeAt = -1
		} else {
			p.closeAt = i + 2 + c
		}
	}
	closeAt := -1
	if p.closeAt >= 0 {
		closeAt = p.closeAt - (i + 2)
	}
	if closeAt < 0 {
		p.errorf(Span{i, i + 2}, CodeSyntax, `unterminated reference: missing }} on this line (write \{{ for a literal {{)`)
		tb.add(i, i+2, src[i:i+2])
		return i + 2
	}
	innerEnd := i + 2 + closeAt
	end := innerEnd + 2
	a, e := i+2, innerEnd
	for a < e && (src[a] == ' ' || src[a] == '\t') {
		a++
	}
	for e > a && (src[e-1] == ' ' || src[e-1] == '\t') {
		e--
	}
	r := p.refs.new()
	r.Span, r.Inner = Span{i, end}, Span{a, e}
	bad := func(format string, args ...any) int {
		*r = Ref{}
		p.errorf(Span{i, end}, CodeSyntax, format, args...)
		tb.add(i, end, src[i:end])
		return end
	}
	if a == e {
		return bad("empty reference {{}}: want {{name}}, {{alias.node}} or {{@path}}")
	}
	if src[a] == '@' {
		pe := e
		if c := bytes.LastIndexByte(src[a:e], ':'); c >= 0 {
			pe = a + c
			lv := p.s[pe+1 : e]
			switch lv {
			case "L0", "L1", "L2":
			default:
				return bad("unknown level %q in {{%s}}: want L0, L1 or L2", lv, src[a:e])
			}
			r.Level = lv
			r.LevelSpan = Span{pe + 1, e}
		} else {
			r.Level = "L2"
		}
		if pe == a+1 {
			return bad("empty knowledge path in {{%s}}", src[a:e])
		}
		for k := a + 1; k < pe; k++ {
			if c := src[k]; c <= ' ' || c == 0x7f || c == '{' || c == '}' {
				return bad("malformed knowledge reference {{%s}}: a path has no spaces, control characters or braces", src[a:e])
			}
		}
		r.Kind = RefKnowledge
		r.Path = p.s[a+1 : pe]
		r.PathSpan = Span{a + 1, pe}
		tb.ref(r)
		return end
	}
	n1 := identEnd(src, a)
	switch {
	case n1 == e && n1 > a:
		r.Kind = RefNode
		r.Name = p.s[a:e]
		r.NameSpan = Span{a, e}
	case n1 > a && n1 < e && src[n1] == '.' && identEnd(src, n1+1) == e && e > n1+1:
		r.Kind = RefUse
		r.Alias = p.s[a:n1]
		r.AliasSpan = Span{a, n1}
		r.Name = p.s[n1+1 : e]
		r.NameSpan = Span{n1 + 1, e}
	default:
		return bad("malformed reference {{%s}}: want {{name}}, {{alias.node}} or {{@path}}", src[a:e])
	}
	tb.ref(r)
	return end
}

// stringLit decodes a "…" token without references.
func (p *parser) stringLit(t token) *StringLit {
	s := p.stringLitValue(t)
	return &s
}

func (p *parser) stringLitValue(t token) StringLit {
	a, b := t.start+1, t.end-1
	if t.open {
		b = t.end
	}
	if b < a {
		b = a
	}
	p.checkBytes(a, b)
	if bytes.IndexByte(p.src[a:b], '\\') < 0 {
		return StringLit{Value: p.s[a:b], Span: Span{t.start, t.end}}
	}
	tb := p.newTextBuilder()
	p.scanBody(&tb, a, b, false, nil, false, false)
	s := ""
	if blocks := tb.done(); len(blocks) > 0 {
		s = blocks[0].(*TextBlock).Text
	}
	return StringLit{Value: s, Span: Span{t.start, t.end}}
}

// decodeStringBlocks decodes a one-line prompt "…" with references.
func (p *parser) decodeStringBlocks(t token) ([]Block, Span) {
	a, b := t.start+1, t.end-1
	if t.open {
		b = t.end
	}
	if b < a {
		b = a
	}
	p.checkBytes(a, b)
	tb := p.newTextBuilder()
	p.scanBody(&tb, a, b, false, nil, false, true)
	return tb.done(), Span{a, b}
}
