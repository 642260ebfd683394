package workflowlang

import (
	"cmp"
	"slices"
	"strconv"
)

// Limits of the language. Beyond them a file is refused with too-large
// diagnostics rather than risking the editor's responsiveness.
const (
	// MaxFileSize is the largest source Parse accepts in full (64 MiB).
	MaxFileSize = 64 << 20
	// MaxNodes is the most nodes a file may declare.
	MaxNodes = 200_000
	// maxDiagnostics caps the syntax diagnostics of one file.
	maxDiagnostics = 10_000
	// maxDepth caps the nesting of lists.
	maxDepth = 32
)

// parser is a recursive-descent parser over an on-demand lexer.
type parser struct {
	src     []byte
	s       string // src as a string: names and plain text are substrings of it
	pos     int    // lexer position
	f       *File
	tok     token  // current token
	ahead   *token // one token of lookahead, when peeked
	prevEnd int    // end of the last consumed token

	nodes   slab[Node]
	attrs   slab[Attr]
	prompts slab[Prompt]
	strings slab[StringValue]
	numbers slab[NumberValue]
	words   slab[WordValue]
	refs    slab[Ref]
	texts   slab[TextBlock]
	blocks  []Block // scratch for the blocks of one text

	// The cache of ref: the end of the current line (and the limit it
	// was searched within) and the next "}}" on it (-1: none, -2: unknown).
	lineEnd, lineLimit, closeAt int
}

// Parse parses src as a .flow file. It never fails: syntax errors are in
// File.Diagnostics and the AST holds everything that could be recovered.
// Parsing stops at MaxFileSize bytes (a too-large diagnostic says so).
func Parse(path string, src []byte) *File {
	f := &File{Path: path, Src: src}
	p := newParser(src, f)
	if len(src) > MaxFileSize {
		p.src = src[:MaxFileSize]
		p.s = p.s[:MaxFileSize]
		p.diag(Diagnostic{Span: Span{MaxFileSize, len(src)}, Severity: SeverityError, Code: CodeTooLarge,
			Message: "file larger than 64 MiB: the rest is not parsed"})
	}
	p.next()
	for p.tok.kind != tEOF {
		p.item()
	}
	sortDiagnostics(f.Diagnostics)
	return f
}

func newParser(src []byte, f *File) *parser {
	return &parser{src: src, s: string(src), f: f, lineEnd: -1, closeAt: -2}
}

// slab hands out pointers into chunks of T, so that the many small
// elements of an AST cost a few allocations instead of one each.
type slab[T any] struct{ buf []T }

func (s *slab[T]) new() *T {
	if len(s.buf) == cap(s.buf) {
		s.buf = make([]T, 0, 64)
	}
	s.buf = s.buf[:len(s.buf)+1]
	return &s.buf[len(s.buf)-1]
}

// sortDiagnostics sorts by start offset, then code, keeping the order of
// equal ones. It sorts indices: diagnostics are large to move around.
func sortDiagnostics(ds []Diagnostic) {
	less := func(a, b *Diagnostic) int {
		if c := cmp.Compare(a.Span.Start, b.Span.Start); c != 0 {
			return c
		}
		return cmp.Compare(a.Code, b.Code)
	}
	sorted := true
	for i := 1; i < len(ds) && sorted; i++ {
		sorted = less(&ds[i-1], &ds[i]) <= 0
	}
	if sorted {
		return
	}
	idx := make([]int32, len(ds))
	for i := range idx {
		idx[i] = int32(i)
	}
	slices.SortFunc(idx, func(a, b int32) int {
		if c := less(&ds[a], &ds[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	out := make([]Diagnostic, len(ds))
	for i, j := range idx {
		out[i] = ds[j]
	}
	copy(ds, out)
}

func (p *parser) next() {
	p.prevEnd = p.tok.end
	if p.ahead != nil {
		p.tok = *p.ahead
		p.ahead = nil
		return
	}
	p.tok = p.scan()
}

func (p *parser) peek() token {
	if p.ahead == nil {
		t := p.scan()
		p.ahead = &t
	}
	return *p.ahead
}

func (p *parser) text(t token) string { return p.s[t.start:t.end] }

func (p *parser) is(word string) bool {
	return p.tok.kind == tIdent && p.s[p.tok.start:p.tok.end] == word
}

// atItem reports whether the current token starts a top-level
// declaration: a keyword first on its line not used as an attribute key.
func (p *parser) atItem() bool {
	if p.tok.kind != tIdent || !p.tok.bol {
		return false
	}
	switch p.s[p.tok.start:p.tok.end] {
	case "node", "workflow", "use", "input":
		return p.peek().kind != tEquals
	}
	return false
}

func (p *parser) describe(t token) string {
	switch t.kind {
	case tIllegal:
		if p.src[t.start] == 0 {
			return "a NUL byte (not allowed in a .flow file)"
		}
		return "unexpected character " + strconv.Quote(p.text(t))
	case tIdent, tNumber:
		s := p.text(t)
		if len(s) > 40 {
			s = s[:40] + "…"
		}
		return strconv.Quote(s)
	}
	return t.kind.String()
}

// skipToItem skips tokens up to the next top-level declaration.
func (p *parser) skipToItem() {
	p.next()
	for p.tok.kind != tEOF && !p.atItem() {
		p.next()
	}
}

// skipLine skips the rest of a broken line inside a block: up to the next
// token that starts a line, a '}' or the end. Braces opened on the way
// are skipped with their contents.
func (p *parser) skipLine() {
	depth := 0
	for {
		switch p.tok.kind {
		case tEOF:
			return
		case tLBrace:
			depth++
		case tRBrace:
			if depth == 0 {
				return
			}
			depth--
		}
		p.next()
		if p.atItem() {
			return
		}
		if depth == 0 && p.tok.bol {
			return
		}
	}
}

func (p *parser) item() {
	if p.tok.kind == tIdent {
		switch p.text(p.tok) {
		case "node":
			p.node()
			return
		case "workflow":
			p.workflow()
			return
		case "use":
			p.use()
			return
		case "input":
			p.input()
			return
		}
	}
	p.errorf(Span{p.tok.start, p.tok.end}, CodeSyntax, "expected node, workflow, use or input, found %s", p.describe(p.tok))
	p.skipToItem()
}

// name parses the identifier after a keyword.
func (p *parser) name(what string) (Ident, bool) {
	if p.tok.kind == tIdent && !p.atItem() {
		id := Ident{Name: p.text(p.tok), Span: Span{p.tok.start, p.tok.end}}
		p.next()
		return id, true
	}
	p.errorf(Span{p.tok.start, p.tok.end}, CodeSyntax, "expected %s, found %s", what, p.describe(p.tok))
	return Ident{Span: Span{p.prevEnd, p.prevEnd}}, false
}

func (p *parser) optTitle() *StringLit {
	if p.tok.kind != tString {
		return nil
	}
	s := p.stringLit(p.tok)
	p.next()
	return s
}

func (p *parser) node() {
	n := p.nodes.new()
	n.Span.Start = p.tok.start
	p.next()
	n.Name, _ = p.name("node name")
	if p.tok.kind == tString {
		n.Title = p.optTitle()
	}
	if len(p.f.Nodes) == MaxNodes {
		p.diag(Diagnostic{Span: Span{n.Span.Start, p.prevEnd}, Severity: SeverityError, Code: CodeTooLarge,
			Message: "more than 200000 nodes in one file: split it with use"})
	}
	if p.tok.kind == tLBrace {
		p.nodeBody(n)
	} else if !p.atItem() {
		p.errorf(Span{p.tok.start, p.tok.end}, CodeSyntax, "expected '{' to open node %s, found %s", n.Name.Name, p.describe(p.tok))
		if p.tok.kind != tEOF && !p.tok.bol {
			p.skipToItem()
		}
	} else {
		p.errorf(Span{p.prevEnd, p.prevEnd}, CodeSyntax, "expected '{' to open node %s", n.Name.Name)
	}
	n.Span.End = p.prevEnd
	p.f.Items = append(p.f.Items, n)
	p.f.Nodes = append(p.f.Nodes, n)
}

// nodeBody parses `{ attrs and prompts }`; the '{' is current.
func (p *parser) nodeBody(n *Node) {
	open := p.tok.start
	p.next()
	for {
		switch {
		case p.tok.kind == tRBrace:
			n.Body = Span{open, p.tok.end}
			p.next()
			return
		case p.tok.kind == tEOF || p.atItem():
			p.errorf(Span{open, open + 1}, CodeSyntax, "unclosed '{' of node %s: missing '}'", n.Name.Name)
			n.Body = Span{open, p.prevEnd}
			return
		case p.tok.kind == tIdent && (p.is("system") || p.is("user")) && p.peek().kind != tEquals:
			if pr := p.prompt(); pr != nil {
				n.Prompts = append(n.Prompts, pr)
			}
		case p.tok.kind == tIdent:
			if a := p.attr(); a != nil {
				n.Attrs = append(n.Attrs, a)
			}
		default:
			p.errorf(Span{p.tok.start, p.tok.end}, CodeSyntax, "expected an attribute or a prompt (system, user), found %s", p.describe(p.tok))
			p.skipLine()
		}
	}
}

// attrBlock parses `{ key = value … }` (the '{' is current) for the
// workflow header, inputs and use arguments.
func (p *parser) attrBlock(what string) (attrs []*Attr, body Span) {
	open := p.tok.start
	p.next()
	for {
		switch {
		case p.tok.kind == tRBrace:
			body = Span{open, p.tok.end}
			p.next()
			return attrs, body
		case p.tok.kind == tEOF || p.atItem():
			p.errorf(Span{open, open + 1}, CodeSyntax, "unclosed '{' of %s: missing '}'", what)
			return attrs, Span{open, p.prevEnd}
		case p.tok.kind == tIdent && (p.is("system") || p.is("user")) && p.peek().kind != tEquals:
			p.errorf(Span{p.tok.start, p.tok.end}, CodeSyntax, "prompts belong in nodes, not in %s", what)
			p.next()
			if p.tok.kind == tText || p.tok.kind == tString {
				p.next()
			}
			p.endLine()
		case p.tok.kind == tIdent:
			if a := p.attr(); a != nil {
				attrs = append(attrs, a)
			}
		default:
			p.errorf(Span{p.tok.start, p.tok.end}, CodeSyntax, "expected an attribute, found %s", p.describe(p.tok))
			p.skipLine()
		}
	}
}

// endLine checks that a statement ends its line (an optional ',' may
// separate statements written on one line).
func (p *parser) endLine() {
	if p.tok.kind == tComma {
		p.next()
		return
	}
	if p.tok.bol || p.tok.kind == tRBrace || p.tok.kind == tEOF {
		return
	}
	p.errorf(Span{p.tok.start, p.tok.end}, CodeSyntax, "unexpected %s: expected a new line or '}'", p.describe(p.tok))
	p.skipLine()
}

func (p *parser) attr() *Attr {
	a := p.attrs.new()
	a.Key = Ident{Name: p.text(p.tok), Span: Span{p.tok.start, p.tok.end}}
	a.Span.Start = p.tok.start
	p.next()
	if p.tok.kind != tEquals {
		p.errorf(Span{p.tok.start, p.tok.end}, CodeSyntax, "expected '=' after %s, found %s", a.Key.Name, p.describe(p.tok))
		if !p.tok.bol {
			p.skipLine()
		}
		a.Span.End = a.Key.Span.End
		return a
	}
	eq := p.tok
	p.next()
	if p.tok.bol || p.tok.kind == tRBrace || p.tok.kind == tEOF {
		p.errorf(Span{eq.start, eq.end}, CodeSyntax, "missing value after %s =", a.Key.Name)
		a.Span.End = eq.end
		return a
	}
	a.Value = p.value(0)
	a.Span.End = p.prevEnd
	if a.Value == nil {
		if !p.tok.bol {
			p.skipLine()
		}
		return a
	}
	p.endLine()
	return a
}

func (p *parser) value(depth int) Value {
	t := p.tok
	switch t.kind {
	case tString:
		p.next()
		v := p.strings.new()
		v.StringLit = p.stringLitValue(t)
		return v
	case tText:
		p.next()
		blocks, _ := p.decodeText(t)
		return &TextValue{Blocks: blocks, Span: Span{t.start, t.end}}
	case tNumber:
		p.next()
		s := p.text(t)
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			p.errorf(Span{t.start, t.end}, CodeSyntax, "bad number %s", s)
		}
		isInt := true
		for i := 0; i < len(s); i++ {
			if s[i] == '.' {
				isInt = false
			}
		}
		n := p.numbers.new()
		*n = NumberValue{Text: s, Value: v, IsInt: isInt, Span: Span{t.start, t.end}}
		return n
	case tIdent:
		p.next()
		switch s := p.text(t); s {
		case "true", "false":
			return &BoolValue{Value: s == "true", Span: Span{t.start, t.end}}
		default:
			w := p.words.new()
			w.Ident = Ident{Name: s, Span: Span{t.start, t.end}}
			return w
		}
	case tLBrack:
		return p.list(depth)
	}
	p.errorf(Span{t.start, t.end}, CodeSyntax, "expected a value, found %s", p.describe(t))
	if t.kind != tEOF {
		p.next()
	}
	return nil
}

func (p *parser) list(depth int) Value {
	l := &ListValue{Span: Span{Start: p.tok.start}}
	open := p.tok
	p.next()
	if depth >= maxDepth {
		// Skip the whole nested list, brackets balanced.
		p.errorf(Span{open.start, open.end}, CodeTooLarge, "lists nested deeper than %d", maxDepth)
		for n := 1; n > 0 && p.tok.kind != tEOF && p.tok.kind != tRBrace && !p.atItem(); p.next() {
			switch p.tok.kind {
			case tLBrack:
				n++
			case tRBrack:
				n--
			}
		}
		l.Span.End = p.prevEnd
		return l
	}
	for {
		switch p.tok.kind {
		case tRBrack:
			p.next()
			l.Span.End = p.prevEnd
			return l
		case tEOF, tRBrace:
			p.errorf(Span{open.start, open.end}, CodeSyntax, "unclosed '[': missing ']'")
			l.Span.End = p.prevEnd
			return l
		}
		if p.atItem() {
			p.errorf(Span{open.start, open.end}, CodeSyntax, "unclosed '[': missing ']'")
			l.Span.End = p.prevEnd
			return l
		}
		v := p.value(depth + 1)
		if v == nil {
			// Skip to a separator so one bad element gives one error.
			for p.tok.kind != tComma && p.tok.kind != tRBrack && p.tok.kind != tRBrace && p.tok.kind != tEOF && !p.atItem() {
				p.next()
			}
		} else {
			l.Elems = append(l.Elems, v)
		}
		switch p.tok.kind {
		case tComma:
			p.next()
		case tRBrack:
		default:
			if p.tok.kind != tEOF && p.tok.kind != tRBrace && !p.atItem() {
				p.errorf(Span{p.tok.start, p.tok.end}, CodeSyntax, "expected ',' or ']' in list, found %s", p.describe(p.tok))
				if v == nil {
					p.next()
				}
			}
		}
	}
}

func (p *parser) prompt() *Prompt {
	pr := p.prompts.new()
	pr.Role, pr.RoleSpan = Role(p.text(p.tok)), Span{p.tok.start, p.tok.end}
	pr.Span.Start = p.tok.start
	p.next()
	t := p.tok
	switch t.kind {
	case tText:
		p.next()
		pr.Blocks, pr.Body = p.decodeText(t)
	case tString:
		p.next()
		pr.Blocks, pr.Body = p.decodeStringBlocks(t)
	default:
		p.errorf(Span{t.start, t.end}, CodeSyntax, `expected """text""" or "text" after %s, found %s`, pr.Role, p.describe(t))
		pr.Span.End = pr.RoleSpan.End
		pr.Body = Span{pr.RoleSpan.End, pr.RoleSpan.End}
		if !t.bol {
			p.skipLine()
		}
		return pr
	}
	pr.Span.End = p.prevEnd
	p.endLine()
	return pr
}

func (p *parser) workflow() {
	w := &Workflow{Span: Span{Start: p.tok.start}}
	p.next()
	if p.tok.kind == tString {
		w.Title = p.optTitle()
	}
	if p.tok.kind == tLBrace {
		w.Attrs, w.Body = p.attrBlock("the workflow header")
	} else {
		p.errorf(Span{p.tok.start, p.tok.end}, CodeSyntax, "expected '{' to open the workflow header, found %s", p.describe(p.tok))
		if !p.atItem() && p.tok.kind != tEOF && !p.tok.bol {
			p.skipToItem()
		}
	}
	w.Span.End = p.prevEnd
	p.f.Items = append(p.f.Items, w)
	if p.f.Workflow == nil {
		p.f.Workflow = w
	}
}

func (p *parser) use() {
	u := &Use{Span: Span{Start: p.tok.start}}
	p.next()
	if p.tok.kind != tString {
		p.errorf(Span{p.tok.start, p.tok.end}, CodeSyntax, `expected the used file's path ("act-2.flow"), found %s`, p.describe(p.tok))
		u.Path.Span = Span{p.prevEnd, p.prevEnd}
		u.Alias.Span = u.Path.Span
		if !p.atItem() && !p.tok.bol {
			p.skipToItem()
		}
		u.Span.End = p.prevEnd
		p.f.Items = append(p.f.Items, u)
		p.f.Uses = append(p.f.Uses, u)
		return
	}
	u.Path = *p.stringLit(p.tok)
	p.next()
	if p.is("as") {
		p.next()
		u.Alias, _ = p.name("an alias after as")
	} else {
		p.errorf(Span{p.tok.start, p.tok.end}, CodeSyntax, "expected as alias after the path, found %s", p.describe(p.tok))
		u.Alias.Span = Span{p.prevEnd, p.prevEnd}
	}
	if p.tok.kind == tLBrace {
		u.Args, _ = p.attrBlock("use arguments")
	} else if !p.atItem() && p.tok.kind != tEOF {
		p.errorf(Span{p.tok.start, p.tok.end}, CodeSyntax, "unexpected %s after use", p.describe(p.tok))
		p.skipToItem()
	}
	u.Span.End = p.prevEnd
	p.f.Items = append(p.f.Items, u)
	p.f.Uses = append(p.f.Uses, u)
}

func (p *parser) input() {
	in := &Input{Span: Span{Start: p.tok.start}}
	p.next()
	in.Name, _ = p.name("input name")
	if p.tok.kind == tString {
		in.Title = p.optTitle()
	}
	if p.tok.kind == tLBrace {
		in.Attrs, _ = p.attrBlock("input " + in.Name.Name)
	} else if !p.atItem() && p.tok.kind != tEOF {
		p.errorf(Span{p.tok.start, p.tok.end}, CodeSyntax, "unexpected %s after input", p.describe(p.tok))
		p.skipToItem()
	}
	in.Span.End = p.prevEnd
	p.f.Items = append(p.f.Items, in)
	p.f.Inputs = append(p.f.Inputs, in)
}
