package workflowlang

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// ErrSyntax is returned (wrapped) by Format for a file with errors found
// while parsing: their text cannot be placed reliably.
var ErrSyntax = errors.New("file has syntax errors")

// Format returns f in canonical form, comments kept. It refuses a file
// with syntax errors, since their text cannot be placed reliably.
//
// The canonical form: two-space indentation; one item per paragraph; one
// member (attribute or prompt) per line in source order; `key = value`
// with single spaces; lists on one line; prompt blocks as
//
//	user """
//	  text
//	"""
//
// indented one level below their member, text unchanged (a text that
// this layout cannot carry, such as one whose every line starts with a
// space, is written as a one-line "…" string with escapes). A blank line
// the author put between members or comments is kept (at most one);
// comments stay on their line, before or after what they annotate.
func Format(f *File) ([]byte, error) {
	for _, d := range f.Diagnostics {
		if d.Severity == SeverityError {
			pos := f.Mapper().Position(d.Span.Start, UTF8)
			return nil, fmt.Errorf("%s:%d:%d: %s: %w", f.Path, pos.Line+1, pos.Col+1, d.Message, ErrSyntax)
		}
	}
	p := &printer{src: f.Src, comments: f.Comments}
	for i, it := range f.Items {
		if i > 0 && (hasBody(it) || hasBody(f.Items[i-1])) {
			p.needBlank = true
		}
		p.item(it)
	}
	p.flushComments(len(f.Src), 0)
	return p.out, nil
}

func hasBody(it Item) bool {
	switch it := it.(type) {
	case *Node, *Workflow:
		return true
	case *Use:
		return len(it.Args) > 0
	case *Input:
		return len(it.Attrs) > 0
	}
	return false
}

// printer writes the canonical form, taking comments in source order.
type printer struct {
	src       []byte
	comments  []*Comment
	ci        int // next comment to print
	out       []byte
	last      int  // source end of what was printed last
	needBlank bool // a blank line must precede the next line
	started   bool // something was printed
	open      bool // just after a '{': no blank line
}

func (p *printer) indent(n int) {
	for range n {
		p.out = append(p.out, "  "...)
	}
}

// hasBlankLine reports whether src[a:b] holds an empty line.
func (p *printer) hasBlankLine(a, b int) bool {
	if a < 0 || b > len(p.src) || a >= b {
		return false
	}
	seen := false
	for _, c := range p.src[a:b] {
		switch c {
		case '\n':
			if seen {
				return true
			}
			seen = true
		case ' ', '\t', '\r':
		default:
			seen = false
		}
	}
	return false
}

// before prepares a new line for something that starts at source offset
// start: blank line if needed.
func (p *printer) before(start int) {
	if p.started && !p.open && (p.needBlank || p.hasBlankLine(p.last, start)) {
		p.out = append(p.out, '\n')
	}
	p.needBlank = false
	p.open = false
	p.started = true
}

// flushComments prints, each on its own line, the comments before upTo.
func (p *printer) flushComments(upTo, depth int) {
	for p.ci < len(p.comments) && p.comments[p.ci].Span.Start < upTo {
		c := p.comments[p.ci]
		p.before(c.Span.Start)
		p.indent(depth)
		p.out = append(p.out, strings.TrimRight(c.Text, " \t\r")...)
		p.out = append(p.out, '\n')
		p.last = c.Span.End
		p.ci++
	}
}

// endLine ends a printed line whose source ended at end, appending a
// comment that followed on the same source line.
func (p *printer) endLine(end int) { p.endLineBefore(end, len(p.src)) }

// endLineBefore is endLine taking only a comment that starts before limit.
func (p *printer) endLineBefore(end, limit int) {
	p.last = max(p.last, end)
	if p.ci < len(p.comments) {
		c := p.comments[p.ci]
		if c.Span.Start >= end && c.Span.Start < limit && bytes.IndexByte(p.src[end:c.Span.Start], '\n') < 0 {
			p.out = append(p.out, ' ')
			p.out = append(p.out, strings.TrimRight(c.Text, " \t\r")...)
			p.last = c.Span.End
			p.ci++
		}
	}
	p.out = append(p.out, '\n')
}

// skipComments passes over comments inside a span printed verbatim.
func (p *printer) skipComments(end int) {
	for p.ci < len(p.comments) && p.comments[p.ci].Span.Start < end {
		p.ci++
	}
}

func (p *printer) hasCommentBefore(end int) bool {
	return p.ci < len(p.comments) && p.comments[p.ci].Span.Start < end
}

func (p *printer) item(it Item) {
	switch it := it.(type) {
	case *Node:
		p.header(it.Span, it.Body, true, func() {
			p.out = append(p.out, "node "...)
			p.out = append(p.out, it.Name.Name...)
			p.title(it.Title)
		})
		var members []any
		for _, a := range it.Attrs {
			members = append(members, a)
		}
		for _, pr := range it.Prompts {
			members = append(members, pr)
		}
		slices.SortStableFunc(members, func(a, b any) int { return memberStart(a) - memberStart(b) })
		p.body(it.Body, members, true)
	case *Workflow:
		p.header(it.Span, it.Body, true, func() {
			p.out = append(p.out, "workflow"...)
			p.title(it.Title)
		})
		p.body(it.Body, attrMembers(it.Attrs), true)
	case *Use:
		body := Span{it.Alias.Span.End, it.Span.End}
		hasArgs := len(it.Args) > 0 || p.hasCommentInside(body)
		p.header(it.Span, body, hasArgs, func() {
			p.out = append(p.out, "use "...)
			p.out = append(p.out, quote(it.Path.Value, false)...)
			p.out = append(p.out, " as "...)
			p.out = append(p.out, it.Alias.Name...)
		})
		if hasArgs {
			p.body(body, attrMembers(it.Args), false)
		}
	case *Input:
		body := Span{it.Name.Span.End, it.Span.End}
		if it.Title != nil {
			body.Start = it.Title.Span.End
		}
		hasAttrs := len(it.Attrs) > 0 || p.hasCommentInside(body)
		p.header(it.Span, body, hasAttrs, func() {
			p.out = append(p.out, "input "...)
			p.out = append(p.out, it.Name.Name...)
			p.title(it.Title)
		})
		if hasAttrs {
			p.body(body, attrMembers(it.Attrs), false)
		}
	}
}

func (p *printer) hasCommentInside(s Span) bool {
	for i := p.ci; i < len(p.comments) && p.comments[i].Span.Start < s.End; i++ {
		if p.comments[i].Span.Start >= s.Start {
			return true
		}
	}
	return false
}

func attrMembers(attrs []*Attr) []any {
	out := make([]any, len(attrs))
	for i, a := range attrs {
		out[i] = a
	}
	return out
}

func memberStart(m any) int {
	switch m := m.(type) {
	case *Attr:
		return m.Span.Start
	case *Prompt:
		return m.Span.Start
	}
	return 0
}

func memberSpan(m any) Span {
	switch m := m.(type) {
	case *Attr:
		return m.Span
	case *Prompt:
		return m.Span
	}
	return Span{}
}

// header prints an item's first line. Comments before the body's '{'
// (or the item's end) go before it.
func (p *printer) header(item Span, body Span, hasBody bool, write func()) {
	upTo := body.Start
	if !hasBody {
		upTo = item.Start + 1
	}
	p.flushComments(upTo, 0)
	p.before(item.Start)
	write()
	if !hasBody {
		p.endLine(item.End)
	}
}

func (p *printer) title(t *StringLit) {
	if t != nil {
		p.out = append(p.out, ' ')
		p.out = append(p.out, quote(t.Value, false)...)
	}
}

// body prints ` {`, the members and `}`. braced says the body's first
// byte is the '{' (nodes, workflow); otherwise the '{' lies inside it.
func (p *printer) body(body Span, members []any, braced bool) {
	open := body.Start
	if !braced {
		if i := bytes.IndexByte(p.src[body.Start:body.End], '{'); i >= 0 {
			open += i
		}
	}
	if len(members) == 0 && !p.hasCommentBefore(body.End) {
		p.out = append(p.out, " {}"...)
		p.endLine(body.End)
		return
	}
	p.out = append(p.out, " {"...)
	limit := body.End
	if len(members) > 0 {
		limit = memberSpan(members[0]).Start
	}
	p.endLineBefore(open+1, limit)
	p.open = true
	closeAt := max(body.End-1, body.Start)
	for i, m := range members {
		s := memberSpan(m)
		limit := closeAt
		if i+1 < len(members) {
			limit = memberSpan(members[i+1]).Start
		}
		p.flushComments(s.Start, 1)
		p.before(s.Start)
		p.indent(1)
		if p.hasCommentBefore(s.End) {
			// A comment inside a member (a list over several lines):
			// keep the member's text as written.
			p.out = append(p.out, p.src[s.Start:s.End]...)
			p.skipComments(s.End)
		} else {
			switch m := m.(type) {
			case *Attr:
				p.attr(m, 1)
			case *Prompt:
				p.prompt(m, 1)
			}
		}
		p.endLineBefore(s.End, limit)
	}
	p.flushComments(closeAt, 1)
	p.open = false
	p.out = append(p.out, '}')
	p.endLine(body.End)
}

func (p *printer) attr(a *Attr, depth int) {
	p.out = append(p.out, a.Key.Name...)
	p.out = append(p.out, " = "...)
	p.value(a.Value, depth)
}

func (p *printer) value(v Value, depth int) {
	switch v := v.(type) {
	case *StringValue:
		p.out = append(p.out, quote(v.Value, false)...)
	case *NumberValue:
		p.out = append(p.out, v.Text...)
	case *BoolValue:
		if v.Value {
			p.out = append(p.out, "true"...)
		} else {
			p.out = append(p.out, "false"...)
		}
	case *WordValue:
		p.out = append(p.out, v.Name...)
	case *ListValue:
		p.out = append(p.out, '[')
		for i, e := range v.Elems {
			if i > 0 {
				p.out = append(p.out, ", "...)
			}
			p.value(e, depth)
		}
		p.out = append(p.out, ']')
	case *TextValue:
		if s, ok := tripleText(v.Blocks, depth); ok {
			p.out = append(p.out, s...)
		} else if v.Span.Len() > 6 && v.Span.End <= len(p.src) {
			// A "…" string value holds no references, so a text the block
			// layout cannot carry keeps its source, which decodes the same
			// wherever it stands.
			p.out = append(p.out, p.src[v.Span.Start:v.Span.End]...)
		} else {
			p.out = append(p.out, renderText(v.Blocks, depth, false)...)
		}
	}
}

func (p *printer) prompt(pr *Prompt, depth int) {
	p.out = append(p.out, pr.Role...)
	p.out = append(p.out, ' ')
	// A prompt keeps the form it was written in; a new one is a block.
	triple := pr.Body.Start < 1 || pr.Body.Start > len(p.src) || p.src[pr.Body.Start-1] != '"' ||
		pr.Body.Start >= 3 && string(p.src[pr.Body.Start-3:pr.Body.Start]) == `"""`
	p.out = append(p.out, renderText(pr.Blocks, depth, triple)...)
}

// renderText writes blocks as a """ block whose lines are indented one
// level below depth, or as a "…" string when triple is false or the block
// layout cannot carry the text exactly.
func renderText(blocks []Block, depth int, triple bool) string {
	if triple {
		if s, ok := tripleText(blocks, depth); ok {
			return s
		}
	}
	var b strings.Builder
	b.WriteByte('"')
	for i, bl := range blocks {
		switch bl := bl.(type) {
		case *TextBlock:
			t := bl.Text
			// A '{' just before a reference would open it: escape it.
			if _, ref := nextBlock(blocks, i).(*Ref); ref && strings.HasSuffix(t, "{") {
				b.WriteString(escapeString(t[:len(t)-1], true) + `\u{7b}`)
				continue
			}
			b.WriteString(escapeString(t, true))
		case *Ref:
			b.WriteString("{{" + bl.Target() + "}}")
		}
	}
	b.WriteByte('"')
	return b.String()
}

func nextBlock(blocks []Block, i int) Block {
	if i+1 < len(blocks) {
		return blocks[i+1]
	}
	return nil
}

func tripleText(blocks []Block, depth int) (string, bool) {
	var logical strings.Builder
	for _, bl := range blocks {
		switch bl := bl.(type) {
		case *TextBlock:
			t := strings.ReplaceAll(bl.Text, "{{", `\{{`)
			t = strings.ReplaceAll(t, `"""`, `\"""`)
			logical.WriteString(t)
		case *Ref:
			logical.WriteString("{{" + bl.Target() + "}}")
		}
	}
	var b strings.Builder
	b.WriteString(`"""` + "\n")
	if logical.Len() == 0 {
		b.WriteString(strings.Repeat("  ", depth) + `"""`)
		return b.String(), len(blocks) == 0
	}
	for _, line := range strings.Split(logical.String(), "\n") {
		if line != "" {
			b.WriteString(strings.Repeat("  ", depth+1))
			b.WriteString(line)
		}
		b.WriteByte('\n')
	}
	b.WriteString(strings.Repeat("  ", depth))
	b.WriteString(`"""`)
	s := b.String()
	back, ok := decodeSnippet(s)
	return s, ok && sameBlocks(blocks, back)
}

// decodeSnippet decodes a """ block on its own; ok is false when it has
// errors.
func decodeSnippet(s string) ([]Block, bool) {
	p := newParser([]byte(s), &File{})
	t := p.scan()
	if t.kind != tText || t.open || t.end != len(s) {
		return nil, false
	}
	blocks, _ := p.decodeText(t)
	return blocks, len(p.f.Diagnostics) == 0
}

func sameBlocks(a, b []Block) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		switch x := a[i].(type) {
		case *TextBlock:
			y, ok := b[i].(*TextBlock)
			if !ok || x.Text != y.Text {
				return false
			}
		case *Ref:
			y, ok := b[i].(*Ref)
			if !ok || x.Target() != y.Target() {
				return false
			}
		}
	}
	return true
}

// quote writes s as a "…" string. A literal "{{" is always written
// \{{, which every string reads back as "{{".
func quote(s string, _ bool) string {
	return `"` + escapeString(s, true) + `"`
}

// escapeString escapes s for the inside of a "…" string. With refs, a
// literal "{{" is escaped too (prompt strings hold references).
func escapeString(s string, refs bool) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\t':
			b.WriteString(`\t`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '{' && refs && i+1 < len(s) && s[i+1] == '{':
			b.WriteString(`\{{`)
			i += 2
			continue
		case c < 0x20 || c == 0x7f:
			fmt.Fprintf(&b, `\u{%x}`, c)
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b.WriteString(`\u{fffd}`)
			} else {
				b.WriteString(s[i : i+size])
			}
			i += size
			continue
		default:
			b.WriteByte(c)
		}
		i++
	}
	return b.String()
}
