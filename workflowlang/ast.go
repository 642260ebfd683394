// Package workflowlang implements the .flow workflow language: an
// error-tolerant lexer and parser producing an AST with exact byte ranges,
// reference resolution, DAG checks, a canonical formatter and a JSON model
// of a workflow that can be written back with minimal edits.
//
// The package imports nothing else of FlowCabal: the server, the runner and
// the agents build on it, never the other way round.
//
// Invariants every caller may rely on:
//   - every syntax element carries a Span of byte offsets into File.Src,
//     with 0 <= Start <= End <= len(Src);
//   - Parse never panics and always returns a File, whatever the input;
//   - diagnostics are sorted by start offset, then by code.
package workflowlang

// A Span is a half-open range [Start, End) of byte offsets into a source.
type Span struct {
	Start, End int
}

// Len reports the number of bytes the span covers.
func (s Span) Len() int { return s.End - s.Start }

// Contains reports whether the byte offset off lies inside the span. The
// end offset counts as inside so that a cursor just after a word still
// "touches" it, as editors expect.
func (s Span) Contains(off int) bool { return s.Start <= off && off <= s.End }

// An Ident is a name as written in the source: node names, attribute keys,
// `use` aliases. Names are Unicode identifiers: a letter or '_' followed by
// letters, digits, '_' or '-'.
type Ident struct {
	Name string
	Span Span
}

// A StringLit is a double-quoted string. Value holds the unescaped text.
type StringLit struct {
	Value string
	Span  Span
}

// A Comment is a `#` comment, from the '#' to the end of its line (newline
// excluded). Comments inside prompt text are not comments: they are text.
type Comment struct {
	Text string // including the leading '#'
	Span Span
}

// An Item is a top-level declaration: *Use, *Input, *Workflow or *Node.
type Item interface {
	ItemSpan() Span
}

// File is one parsed .flow source.
type File struct {
	Path string // as given to Parse; used in diagnostics
	Src  []byte

	Items    []Item // every top-level declaration, in source order
	Uses     []*Use
	Inputs   []*Input
	Workflow *Workflow // the first workflow header, nil when there is none
	Nodes    []*Node   // in source order, duplicates included
	Comments []*Comment

	// Diagnostics holds the syntax diagnostics found while parsing. The
	// static rules that need resolution are reported by Check.
	Diagnostics []Diagnostic

	lines *Mapper
}

// Mapper returns the position mapper of the file's source.
func (f *File) Mapper() *Mapper {
	if f.lines == nil {
		f.lines = NewMapper(f.Src)
	}
	return f.lines
}

// Node returns the first node called name, or nil.
func (f *File) Node(name string) *Node {
	for _, n := range f.Nodes {
		if n.Name.Name == name {
			return n
		}
	}
	return nil
}

// Use declares a sub-workflow: `use "act-2.flow" as act2`, optionally with
// arguments that fill the sub-workflow's inputs:
//
//	use "act-2.flow" as act2 { goal = """…{{outline}}…""" }
type Use struct {
	Span  Span
	Path  StringLit
	Alias Ident
	Args  []*Attr // values are *TextValue or *StringValue
}

// ItemSpan implements Item.
func (u *Use) ItemSpan() Span { return u.Span }

// Input declares a parameter a caller fills through `use … { name = … }`:
// `input goal "what the chapter must achieve"`. Inside the file, {{goal}}
// refers to it like a node output.
type Input struct {
	Span  Span
	Name  Ident
	Title *StringLit
	Attrs []*Attr // `input goal "…" { default = """…""" }`
}

// ItemSpan implements Item.
func (i *Input) ItemSpan() Span { return i.Span }

// Workflow is the header: `workflow "title" { attrs }`.
type Workflow struct {
	Span  Span
	Title *StringLit
	Attrs []*Attr
	Body  Span // from '{' to '}' inclusive; zero when missing
}

// ItemSpan implements Item.
func (w *Workflow) ItemSpan() Span { return w.Span }

// Attr returns the first attribute called key, or nil.
func (w *Workflow) Attr(key string) *Attr { return findAttr(w.Attrs, key) }

// Node is `node name ["title"] { attrs and prompts }`.
type Node struct {
	Span    Span
	Name    Ident
	Title   *StringLit
	Attrs   []*Attr
	Prompts []*Prompt
	Body    Span // from '{' to '}' inclusive; zero when missing
}

// ItemSpan implements Item.
func (n *Node) ItemSpan() Span { return n.Span }

// Attr returns the first attribute called key, or nil.
func (n *Node) Attr(key string) *Attr { return findAttr(n.Attrs, key) }

// Refs returns every VirtualTextBlock of the node's prompts, in source order.
func (n *Node) Refs() []*Ref {
	var out []*Ref
	for _, p := range n.Prompts {
		for _, b := range p.Blocks {
			if r, ok := b.(*Ref); ok {
				out = append(out, r)
			}
		}
	}
	return out
}

func findAttr(attrs []*Attr, key string) *Attr {
	for _, a := range attrs {
		if a.Key.Name == key {
			return a
		}
	}
	return nil
}

// Attr is `key = value`.
type Attr struct {
	Span  Span
	Key   Ident
	Value Value // nil when the value is missing (a syntax error was reported)
}

// A Value is the right-hand side of an attribute: *StringValue,
// *NumberValue, *BoolValue, *WordValue, *ListValue or *TextValue.
type Value interface {
	ValueSpan() Span
}

// StringValue is a double-quoted string.
type StringValue struct{ StringLit }

// NumberValue is an integer or decimal number.
type NumberValue struct {
	Text  string // as written
	Value float64
	IsInt bool
	Span  Span
}

// BoolValue is `true` or `false`.
type BoolValue struct {
	Value bool
	Span  Span
}

// WordValue is a bare identifier used as a value: `context = auto`.
type WordValue struct {
	Ident
}

// ListValue is `[v, v, …]`.
type ListValue struct {
	Elems []Value
	Span  Span
}

// TextValue is a triple-quoted block used as a value (in `use` arguments).
type TextValue struct {
	Blocks []Block
	Span   Span
}

// ValueSpan implements Value.
func (v *StringValue) ValueSpan() Span { return v.Span }

// ValueSpan implements Value.
func (v *NumberValue) ValueSpan() Span { return v.Span }

// ValueSpan implements Value.
func (v *BoolValue) ValueSpan() Span { return v.Span }

// ValueSpan implements Value.
func (v *WordValue) ValueSpan() Span { return v.Span }

// ValueSpan implements Value.
func (v *ListValue) ValueSpan() Span { return v.Span }

// ValueSpan implements Value.
func (v *TextValue) ValueSpan() Span { return v.Span }

// Role says which chat message a prompt becomes.
type Role string

// The prompt roles.
const (
	RoleSystem Role = "system"
	RoleUser   Role = "user"
)

// Prompt is `system """…"""` or `user """…"""` (a TextBlockList). A
// single-line `user "…"` is accepted too.
type Prompt struct {
	Span     Span
	Role     Role
	RoleSpan Span
	Body     Span // the content between the quotes
	Blocks   []Block
}

// A Block is one element of a prompt's TextBlockList: *TextBlock or *Ref.
type Block interface {
	BlockSpan() Span
}

// TextBlock is a literal run of prompt text. Text is the run after common
// indentation was stripped and escapes were resolved; Span covers the
// source bytes the run came from.
type TextBlock struct {
	Text string
	Span Span
}

// BlockSpan implements Block.
func (b *TextBlock) BlockSpan() Span { return b.Span }

// RefKind says what a VirtualTextBlock refers to.
type RefKind int

// The kinds of reference.
const (
	RefNode      RefKind = iota // {{name}}: a node or an input of this file
	RefUse                      // {{alias.node}}: a node of a used file
	RefKnowledge                // {{@path}} or {{@path:L1}}: a project resource
)

// Ref is a VirtualTextBlock: `{{name}}`, `{{alias.node}}`, `{{@path}}` or
// `{{@path:L1}}`. Whitespace inside the braces is allowed.
type Ref struct {
	Kind  RefKind
	Span  Span // the whole `{{…}}`
	Inner Span // the trimmed text between the braces

	Name      string // RefNode: the node; RefUse: the node in the used file
	NameSpan  Span
	Alias     string // RefUse only
	AliasSpan Span
	Path      string // RefKnowledge only, without '@' and level
	PathSpan  Span
	Level     string // RefKnowledge: "L0", "L1" or "L2" (the default)
	LevelSpan Span   // zero when the level was not written
}

// BlockSpan implements Block.
func (r *Ref) BlockSpan() Span { return r.Span }

// Target returns the text the reference is written as, without braces:
// "outline", "act2.final" or "@meta/style-guide:L1".
func (r *Ref) Target() string {
	switch r.Kind {
	case RefUse:
		return r.Alias + "." + r.Name
	case RefKnowledge:
		if r.LevelSpan.Len() > 0 {
			return "@" + r.Path + ":" + r.Level
		}
		return "@" + r.Path
	default:
		return r.Name
	}
}
