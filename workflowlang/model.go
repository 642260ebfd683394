package workflowlang

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Model is the JSON model of a workflow, made to be patched with RFC 6902
// JSON Patch: nodes are an array whose elements carry a stable name,
// attributes are objects keyed by attribute name. Attribute values are
// JSON strings (both "…" strings and bare words), numbers, booleans,
// arrays, or {"blocks": [...]} for a """…""" text value.
type Model struct {
	Workflow *ModelWorkflow `json:"workflow,omitempty"`
	Uses     []ModelUse     `json:"uses"`
	Inputs   []ModelInput   `json:"inputs"`
	Nodes    []ModelNode    `json:"nodes"`
	// Edges are derived from the references; Edits ignores them.
	Edges []ModelEdge `json:"edges"`
}

// ModelWorkflow is the workflow header.
type ModelWorkflow struct {
	Title string         `json:"title,omitempty"`
	Attrs map[string]any `json:"attrs"`
}

// ModelUse is a `use "path" as alias { args }`.
type ModelUse struct {
	Path  string         `json:"path"`
	Alias string         `json:"alias"`
	Args  map[string]any `json:"args,omitempty"`
}

// ModelInput is an `input name "title" { attrs }`.
type ModelInput struct {
	Name  string         `json:"name"`
	Title string         `json:"title,omitempty"`
	Attrs map[string]any `json:"attrs,omitempty"`
}

// ModelNode is a node. Name identifies it across edits.
type ModelNode struct {
	Name    string         `json:"name"`
	Title   string         `json:"title,omitempty"`
	Attrs   map[string]any `json:"attrs"`
	Prompts []ModelPrompt  `json:"prompts"`
}

// ModelPrompt is a prompt: its role and its TextBlockList.
type ModelPrompt struct {
	Role   string       `json:"role"`
	Blocks []ModelBlock `json:"blocks"`
}

// ModelBlock is one block of a TextBlockList: {"text": "…"} for a
// TextBlock or {"ref": "premise"} for a VirtualTextBlock, the reference
// written as between the braces ("act2.final", "@meta/style:L1").
type ModelBlock struct {
	Text string `json:"text,omitempty"`
	Ref  string `json:"ref,omitempty"`
}

// ModelEdge is a dependency: From's output feeds To.
type ModelEdge struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// A TextEdit replaces the bytes of Span with NewText.
type TextEdit struct {
	Span    Span   `json:"span"`
	NewText string `json:"new_text"`
}

// ToModel returns the JSON model of a checked file.
func ToModel(res *Result) *Model {
	f := res.File
	m := &Model{Uses: []ModelUse{}, Inputs: []ModelInput{}, Nodes: []ModelNode{}, Edges: []ModelEdge{}}
	if w := f.Workflow; w != nil {
		m.Workflow = &ModelWorkflow{Title: titleOf(w.Title), Attrs: attrsModel(w.Attrs)}
	}
	for _, u := range f.Uses {
		mu := ModelUse{Path: u.Path.Value, Alias: u.Alias.Name}
		if len(u.Args) > 0 {
			mu.Args = attrsModel(u.Args)
		}
		m.Uses = append(m.Uses, mu)
	}
	for _, in := range f.Inputs {
		mi := ModelInput{Name: in.Name.Name, Title: titleOf(in.Title)}
		if len(in.Attrs) > 0 {
			mi.Attrs = attrsModel(in.Attrs)
		}
		m.Inputs = append(m.Inputs, mi)
	}
	for _, n := range f.Nodes {
		m.Nodes = append(m.Nodes, nodeModel(n))
	}
	for _, e := range res.Edges {
		m.Edges = append(m.Edges, ModelEdge{From: e.From, To: e.To})
	}
	return m
}

func titleOf(s *StringLit) string {
	if s == nil {
		return ""
	}
	return s.Value
}

func nodeModel(n *Node) ModelNode {
	mn := ModelNode{Name: n.Name.Name, Title: titleOf(n.Title), Attrs: attrsModel(n.Attrs), Prompts: []ModelPrompt{}}
	for _, p := range n.Prompts {
		mn.Prompts = append(mn.Prompts, ModelPrompt{Role: string(p.Role), Blocks: blocksModel(p.Blocks)})
	}
	return mn
}

func attrsModel(attrs []*Attr) map[string]any {
	out := make(map[string]any, len(attrs))
	for _, a := range attrs {
		if _, dup := out[a.Key.Name]; dup || a.Value == nil {
			continue
		}
		out[a.Key.Name] = valueModel(a.Value)
	}
	return out
}

func valueModel(v Value) any {
	switch v := v.(type) {
	case *StringValue:
		return v.Value
	case *WordValue:
		return v.Name
	case *NumberValue:
		return v.Value
	case *BoolValue:
		return v.Value
	case *ListValue:
		out := make([]any, len(v.Elems))
		for i, e := range v.Elems {
			out[i] = valueModel(e)
		}
		return out
	case *TextValue:
		return map[string]any{"blocks": blocksModel(v.Blocks)}
	}
	return nil
}

func blocksModel(blocks []Block) []ModelBlock {
	out := make([]ModelBlock, 0, len(blocks))
	for _, b := range blocks {
		switch b := b.(type) {
		case *TextBlock:
			out = append(out, ModelBlock{Text: b.Text})
		case *Ref:
			out = append(out, ModelBlock{Ref: b.Target()})
		}
	}
	return out
}

// sameJSON reports whether a and b encode to the same JSON.
func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(x, y)
}

// Edits returns the minimal byte edits that turn f's source into m.
// Untouched items keep their exact bytes, comments and formatting; a
// changed item is re-rendered in canonical form in place, keeping the
// comments inside it; new nodes go after the node that precedes them in
// m.Nodes (at the end when none does); removed items are deleted with
// their leading comments. m.Edges is ignored. The order of existing
// nodes is kept even when m lists them in another order. f must have no
// syntax errors.
func Edits(f *File, m *Model) ([]TextEdit, error) {
	for _, d := range f.Diagnostics {
		if d.Severity == SeverityError {
			return nil, fmt.Errorf("edit %s: %w", f.Path, ErrSyntax)
		}
	}
	e := &editor{f: f}
	seen := map[string]bool{}
	for _, mn := range m.Nodes {
		if !IsIdent(mn.Name) {
			return nil, fmt.Errorf("model node name %q is not a valid name", mn.Name)
		}
		if seen[mn.Name] {
			return nil, fmt.Errorf("model has two nodes named %s", mn.Name)
		}
		seen[mn.Name] = true
	}
	if err := e.header(m.Workflow); err != nil {
		return nil, err
	}
	if err := e.uses(m.Uses); err != nil {
		return nil, err
	}
	if err := e.inputs(m.Inputs); err != nil {
		return nil, err
	}
	if err := e.nodes(m.Nodes); err != nil {
		return nil, err
	}
	slices.SortStableFunc(e.edits, func(a, b TextEdit) int { return a.Span.Start - b.Span.Start })
	return e.edits, nil
}

// ApplyEdits applies non-overlapping edits (as Edits returns them) to src.
func ApplyEdits(src []byte, edits []TextEdit) []byte {
	sorted := slices.Clone(edits)
	slices.SortStableFunc(sorted, func(a, b TextEdit) int { return a.Span.Start - b.Span.Start })
	var out []byte
	last := 0
	for _, e := range sorted {
		s := max(e.Span.Start, last)
		end := max(min(e.Span.End, len(src)), s)
		out = append(out, src[last:s]...)
		out = append(out, e.NewText...)
		last = end
	}
	return append(out, src[last:]...)
}

type editor struct {
	f     *File
	edits []TextEdit
}

func (e *editor) add(s Span, text string) {
	e.edits = append(e.edits, TextEdit{Span: s, NewText: text})
}

// lineStart returns the offset of the start of off's line.
func (e *editor) lineStart(off int) int {
	return bytes.LastIndexByte(e.f.Src[:off], '\n') + 1
}

// lineEnd returns the offset after the newline ending off's line.
func (e *editor) lineEnd(off int) int {
	i := bytes.IndexByte(e.f.Src[off:], '\n')
	if i < 0 {
		return len(e.f.Src)
	}
	return off + i + 1
}

// removal is the span deleting an item with its leading comments, its
// trailing comment and one blank line when blank lines surround it.
func (e *editor) removal(s Span) Span {
	src := e.f.Src
	start := e.lineStart(s.Start)
	if !isBlank(src[start:s.Start]) {
		start = s.Start
	}
	// Leading comments: comment lines directly above.
	for start > 0 {
		prev := e.lineStart(start - 1)
		line := bytes.TrimLeft(src[prev:start-1], " \t")
		if len(line) == 0 || line[0] != '#' {
			break
		}
		start = prev
	}
	end := e.lineEnd(s.End)
	if rest := src[s.End:end]; !isBlank(bytes.TrimRight(rest, "\n")) {
		line := bytes.TrimLeft(rest, " \t")
		if len(line) == 0 || line[0] != '#' {
			end = s.End // something else shares the line
		}
	}
	// Swallow one following blank line so no double gap remains; at the
	// end of the file, the blank lines before.
	if end == len(src) {
		for start > 0 {
			prev := e.lineStart(start - 1)
			if !isBlank(src[prev : start-1]) {
				break
			}
			start = prev
		}
	} else {
		next := e.lineEnd(end)
		if isBlank(bytes.TrimRight(src[end:next], "\n")) && (start == 0 || start >= 2 && src[start-1] == '\n' && isBlank(bytes.TrimRight(src[e.lineStart(start-1):start-1], "\n"))) {
			end = next
		}
	}
	return Span{start, end}
}

// render prints a synthesized item: comments that lay inside old (the
// span of the item it replaces) are printed where they fall.
func (e *editor) render(it Item, old Span) string {
	p := &printer{src: e.f.Src}
	for _, c := range e.f.Comments {
		if c.Span.Start >= old.Start && c.Span.End <= old.End {
			p.comments = append(p.comments, c)
		}
	}
	p.item(it)
	p.flushComments(old.End, 1)
	return strings.TrimSuffix(string(p.out), "\n")
}

// insertionAt returns where a new item goes before the first existing
// item of the file (or at its end), and the text that must surround it.
func (e *editor) insertBefore(first Item, text string) {
	if first == nil {
		e.appendText(text)
		return
	}
	at := e.lineStart(first.ItemSpan().Start)
	// Keep the item's leading comments attached to it.
	for at > 0 {
		prev := e.lineStart(at - 1)
		line := bytes.TrimLeft(e.f.Src[prev:at-1], " \t")
		if len(line) == 0 || line[0] != '#' {
			break
		}
		at = prev
	}
	e.add(Span{at, at}, text+"\n\n")
}

// insertAfter puts text on its own lines after the line where it ends.
func (e *editor) insertAfter(it Item, text string) {
	e.insertAfterEnd(it.ItemSpan().End, text, "")
}

// insertAfterEnd inserts text after the item ending at end, separated by
// gap (an extra blank line or nothing): after the rest of its line when
// that holds only a comment, else right after the item.
func (e *editor) insertAfterEnd(end int, text, gap string) {
	src := e.f.Src
	at := e.lineEnd(end)
	rest := bytes.TrimLeft(bytes.TrimRight(src[end:at], "\r\n"), " \t")
	if len(rest) > 0 && rest[0] != '#' {
		e.add(Span{end, end}, "\n"+gap+text+"\n"+gap)
		return
	}
	if at == len(src) && (at == 0 || src[at-1] != '\n') {
		e.add(Span{at, at}, "\n"+gap+text+"\n")
		return
	}
	e.add(Span{at, at}, gap+text+"\n")
}

func (e *editor) appendText(text string) {
	src := e.f.Src
	switch {
	case len(src) == 0:
		e.add(Span{0, 0}, text+"\n")
	case src[len(src)-1] != '\n':
		e.add(Span{len(src), len(src)}, "\n\n"+text+"\n")
	case len(src) >= 2 && src[len(src)-2] == '\n':
		e.add(Span{len(src), len(src)}, text+"\n")
	default:
		e.add(Span{len(src), len(src)}, "\n"+text+"\n")
	}
}

func (e *editor) firstItem(pred func(Item) bool) Item {
	for _, it := range e.f.Items {
		if pred(it) {
			return it
		}
	}
	return nil
}

func (e *editor) header(mw *ModelWorkflow) error {
	w := e.f.Workflow
	switch {
	case mw == nil && w == nil:
		return nil
	case mw == nil:
		e.add(e.removal(w.Span), "")
		return nil
	}
	attrs, err := e.attrs(mw.Attrs, oldAttrs(w))
	if err != nil {
		return fmt.Errorf("workflow header: %w", err)
	}
	nw := &Workflow{Attrs: attrs}
	if mw.Title != "" {
		nw.Title = &StringLit{Value: mw.Title}
	}
	if w == nil {
		nw.Body = Span{}
		e.insertBefore(e.firstItem(func(it Item) bool { _, ok := it.(*Node); return ok }), e.render(nw, Span{}))
		return nil
	}
	if sameJSON(&ModelWorkflow{Title: titleOf(w.Title), Attrs: attrsModel(w.Attrs)}, mw) {
		return nil
	}
	nw.Span, nw.Body = w.Span, w.Body
	e.add(w.Span, e.render(nw, w.Span))
	return nil
}

func oldAttrs(it Item) []*Attr {
	switch it := it.(type) {
	case *Workflow:
		if it != nil {
			return it.Attrs
		}
	case *Node:
		if it != nil {
			return it.Attrs
		}
	case *Use:
		if it != nil {
			return it.Args
		}
	case *Input:
		if it != nil {
			return it.Attrs
		}
	}
	return nil
}

// attrs builds the attributes of a re-rendered item: old attributes in
// their order (unchanged ones as they were, changed ones at their old
// place), then new ones by name.
func (e *editor) attrs(m map[string]any, old []*Attr) ([]*Attr, error) {
	var out []*Attr
	done := map[string]bool{}
	after := 0
	for _, a := range old {
		if done[a.Key.Name] {
			continue
		}
		done[a.Key.Name] = true
		after = a.Span.End
		v, ok := m[a.Key.Name]
		if !ok || v == nil {
			continue
		}
		if a.Value != nil && sameJSON(valueModel(a.Value), v) {
			out = append(out, a)
			continue
		}
		nv, err := modelValue(v, a.Value)
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", a.Key.Name, err)
		}
		out = append(out, &Attr{Span: Span{a.Span.Start, a.Span.Start}, Key: Ident{Name: a.Key.Name}, Value: nv})
	}
	var keys []string
	for k := range m {
		if !done[k] {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		if !IsIdent(k) {
			return nil, fmt.Errorf("attribute name %q is not a valid name", k)
		}
		if m[k] == nil {
			continue
		}
		nv, err := modelValue(m[k], nil)
		if err != nil {
			return nil, fmt.Errorf("attribute %s: %w", k, err)
		}
		out = append(out, &Attr{Span: Span{after, after}, Key: Ident{Name: k}, Value: nv})
	}
	return out, nil
}

// modelValue converts a JSON value to an attribute value. old, when
// given, is the value it replaces: a bare word stays a bare word.
func modelValue(v any, old Value) (Value, error) {
	switch v := v.(type) {
	case string:
		if _, ok := old.(*WordValue); ok && IsIdent(v) && v != "true" && v != "false" {
			return &WordValue{Ident{Name: v}}, nil
		}
		return &StringValue{StringLit{Value: v}}, nil
	case bool:
		return &BoolValue{Value: v}, nil
	case float64:
		return numberValue(v)
	case int:
		return numberValue(float64(v))
	case json.Number:
		f, err := v.Float64()
		if err != nil {
			return nil, err
		}
		return numberValue(f)
	case []any:
		l := &ListValue{}
		for _, x := range v {
			var oldElem Value
			if ol, ok := old.(*ListValue); ok && len(ol.Elems) > 0 {
				oldElem = ol.Elems[0]
			}
			ev, err := modelValue(x, oldElem)
			if err != nil {
				return nil, err
			}
			l.Elems = append(l.Elems, ev)
		}
		return l, nil
	case []string:
		l := &ListValue{}
		for _, x := range v {
			l.Elems = append(l.Elems, &StringValue{StringLit{Value: x}})
		}
		return l, nil
	case map[string]any:
		raw, ok := v["blocks"]
		if !ok || len(v) != 1 {
			return nil, errors.New(`an object value must be {"blocks": [...]}`)
		}
		data, err := json.Marshal(raw)
		if err != nil {
			return nil, err
		}
		var mb []ModelBlock
		if err := json.Unmarshal(data, &mb); err != nil {
			return nil, fmt.Errorf("blocks: %w", err)
		}
		blocks, err := modelBlocks(mb)
		if err != nil {
			return nil, err
		}
		return &TextValue{Blocks: blocks}, nil
	}
	return nil, fmt.Errorf("unsupported value %v (%T)", v, v)
}

func numberValue(f float64) (Value, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("number %v", f)
	}
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return &NumberValue{Text: strconv.FormatInt(int64(f), 10), Value: f, IsInt: true}, nil
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	return &NumberValue{Text: s, Value: f, IsInt: !strings.Contains(s, ".")}, nil
}

// modelBlocks converts model blocks to AST blocks, parsing references.
func modelBlocks(mb []ModelBlock) ([]Block, error) {
	var out []Block
	for _, b := range mb {
		switch {
		case b.Ref != "" && b.Text != "":
			return nil, errors.New(`a block has "text" or "ref", not both`)
		case b.Ref != "":
			r, err := parseRef(b.Ref)
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		case b.Text != "":
			if n := len(out); n > 0 {
				if t, ok := out[n-1].(*TextBlock); ok {
					t.Text += b.Text
					continue
				}
			}
			out = append(out, &TextBlock{Text: b.Text})
		}
	}
	return out, nil
}

// parseRef parses a reference written as between braces.
func parseRef(s string) (*Ref, error) {
	src := "{{" + s + "}}"
	p := newParser([]byte(src), &File{})
	tb := p.newTextBuilder()
	p.scanBody(&tb, 0, len(src), false, nil, false, true)
	blocks := tb.done()
	if len(p.f.Diagnostics) > 0 || len(blocks) != 1 || strings.ContainsAny(s, "\n\r") {
		return nil, fmt.Errorf("bad reference %q", s)
	}
	r, ok := blocks[0].(*Ref)
	if !ok {
		return nil, fmt.Errorf("bad reference %q", s)
	}
	// The spans point into the snippet, not into any file: zero them,
	// except that a written level keeps a non-empty LevelSpan, which is
	// how Target knows to print it.
	r.Span, r.Inner, r.NameSpan, r.AliasSpan, r.PathSpan = Span{}, Span{}, Span{}, Span{}, Span{}
	if r.LevelSpan.Len() > 0 {
		r.LevelSpan = Span{0, len(r.Level)}
	}
	return r, nil
}

func (e *editor) uses(mus []ModelUse) error {
	byAlias := map[string]*Use{}
	for _, u := range e.f.Uses {
		if _, dup := byAlias[u.Alias.Name]; !dup {
			byAlias[u.Alias.Name] = u
		}
	}
	keep := map[*Use]bool{}
	var added []string
	for _, mu := range mus {
		if !IsIdent(mu.Alias) {
			return fmt.Errorf("use alias %q is not a valid name", mu.Alias)
		}
		old := byAlias[mu.Alias]
		args, err := e.attrs(mu.Args, oldAttrs(old))
		if err != nil {
			return fmt.Errorf("use %s: %w", mu.Alias, err)
		}
		nu := &Use{Path: StringLit{Value: mu.Path}, Alias: Ident{Name: mu.Alias}, Args: args}
		if old == nil {
			added = append(added, e.render(nu, Span{}))
			continue
		}
		keep[old] = true
		cur := ModelUse{Path: old.Path.Value, Alias: old.Alias.Name}
		if len(old.Args) > 0 {
			cur.Args = attrsModel(old.Args)
		}
		want := mu
		if len(want.Args) == 0 {
			want.Args = nil
		}
		if sameJSON(cur, want) {
			continue
		}
		nu.Span, nu.Path.Span, nu.Alias.Span = old.Span, old.Path.Span, old.Alias.Span
		e.add(old.Span, e.render(nu, old.Span))
	}
	for _, u := range e.f.Uses {
		if !keep[u] {
			e.add(e.removal(u.Span), "")
		}
	}
	if len(added) > 0 {
		if n := len(e.f.Uses); n > 0 {
			e.insertAfter(e.f.Uses[n-1], strings.Join(added, "\n"))
		} else {
			e.insertBefore(e.firstItem(func(it Item) bool { return true }), strings.Join(added, "\n"))
		}
	}
	return nil
}

func (e *editor) inputs(mis []ModelInput) error {
	byName := map[string]*Input{}
	for _, in := range e.f.Inputs {
		if _, dup := byName[in.Name.Name]; !dup {
			byName[in.Name.Name] = in
		}
	}
	keep := map[*Input]bool{}
	var added []string
	for _, mi := range mis {
		if !IsIdent(mi.Name) {
			return fmt.Errorf("input name %q is not a valid name", mi.Name)
		}
		old := byName[mi.Name]
		attrs, err := e.attrs(mi.Attrs, oldAttrs(old))
		if err != nil {
			return fmt.Errorf("input %s: %w", mi.Name, err)
		}
		ni := &Input{Name: Ident{Name: mi.Name}, Attrs: attrs}
		if mi.Title != "" {
			ni.Title = &StringLit{Value: mi.Title}
		}
		if old == nil {
			added = append(added, e.render(ni, Span{}))
			continue
		}
		keep[old] = true
		cur := ModelInput{Name: old.Name.Name, Title: titleOf(old.Title)}
		if len(old.Attrs) > 0 {
			cur.Attrs = attrsModel(old.Attrs)
		}
		want := mi
		if len(want.Attrs) == 0 {
			want.Attrs = nil
		}
		if sameJSON(cur, want) {
			continue
		}
		ni.Span, ni.Name.Span = old.Span, old.Name.Span
		if ni.Title != nil && old.Title != nil {
			ni.Title.Span = old.Title.Span
		}
		e.add(old.Span, e.render(ni, old.Span))
	}
	for _, in := range e.f.Inputs {
		if !keep[in] {
			e.add(e.removal(in.Span), "")
		}
	}
	if len(added) > 0 {
		if n := len(e.f.Inputs); n > 0 {
			e.insertAfter(e.f.Inputs[n-1], strings.Join(added, "\n"))
		} else {
			e.insertBefore(e.firstItem(func(it Item) bool {
				switch it.(type) {
				case *Use, *Input:
					return false
				}
				return true
			}), strings.Join(added, "\n"))
		}
	}
	return nil
}

func (e *editor) nodes(mns []ModelNode) error {
	byName := map[string]*Node{}
	for _, n := range e.f.Nodes {
		if _, dup := byName[n.Name.Name]; !dup {
			byName[n.Name.Name] = n
		}
	}
	keep := map[*Node]bool{}
	// New nodes are grouped by the existing node they follow.
	pending := map[*Node][]string{}
	var order []*Node
	var head []string // new nodes before any existing one
	var prev *Node
	for i := range mns {
		mn := &mns[i]
		old := byName[mn.Name]
		nn, err := e.node(mn, old)
		if err != nil {
			return err
		}
		if old == nil {
			text := e.render(nn, Span{})
			if prev == nil {
				head = append(head, text)
			} else {
				if pending[prev] == nil {
					order = append(order, prev)
				}
				pending[prev] = append(pending[prev], text)
			}
			continue
		}
		keep[old] = true
		prev = old
		if sameJSON(nodeModel(old), normalNode(*mn)) {
			continue
		}
		e.add(old.Span, e.render(nn, old.Span))
	}
	for _, n := range e.f.Nodes {
		if !keep[n] {
			e.add(e.removal(n.Span), "")
		}
	}
	for _, n := range order {
		e.insertAfterEnd(n.Span.End, strings.Join(pending[n], "\n\n"), "\n")
	}
	if len(head) > 0 {
		text := strings.Join(head, "\n\n")
		if first := e.firstItem(func(it Item) bool { _, ok := it.(*Node); return ok }); first != nil {
			e.insertBefore(first, text)
		} else {
			e.appendText(text)
		}
	}
	return nil
}

// normalNode gives a model node the shape nodeModel produces, so that an
// unchanged node compares equal.
func normalNode(mn ModelNode) ModelNode {
	if mn.Attrs == nil {
		mn.Attrs = map[string]any{}
	}
	for k, v := range mn.Attrs {
		if v == nil {
			delete(mn.Attrs, k)
		}
	}
	if mn.Prompts == nil {
		mn.Prompts = []ModelPrompt{}
	}
	for i := range mn.Prompts {
		if mn.Prompts[i].Blocks == nil {
			mn.Prompts[i].Blocks = []ModelBlock{}
		}
	}
	return mn
}

// node builds the AST of a model node, reusing old's unchanged parts.
func (e *editor) node(mn *ModelNode, old *Node) (*Node, error) {
	n := &Node{Name: Ident{Name: mn.Name}}
	if mn.Title != "" {
		n.Title = &StringLit{Value: mn.Title}
	}
	attrs, err := e.attrs(mn.Attrs, oldAttrs(old))
	if err != nil {
		return nil, fmt.Errorf("node %s: %w", mn.Name, err)
	}
	n.Attrs = attrs
	end := 0
	if old != nil {
		n.Span, n.Body = old.Span, old.Body
		end = max(old.Body.End-1, old.Body.Start)
		if len(old.Attrs) == 0 {
			// New attributes of a node without any go first.
			for _, a := range n.Attrs {
				a.Span = Span{old.Body.Start + 1, old.Body.Start + 1}
			}
		}
	}
	for i, mp := range mn.Prompts {
		if mp.Role != string(RoleSystem) && mp.Role != string(RoleUser) {
			return nil, fmt.Errorf("node %s: prompt role %q: want system or user", mn.Name, mp.Role)
		}
		blocks, err := modelBlocks(mp.Blocks)
		if err != nil {
			return nil, fmt.Errorf("node %s: %w", mn.Name, err)
		}
		pr := &Prompt{Role: Role(mp.Role), Blocks: blocks, Span: Span{end, end}}
		if old != nil && i < len(old.Prompts) {
			op := old.Prompts[i]
			if string(op.Role) == mp.Role && sameBlocks(op.Blocks, blocks) {
				pr = op
			} else {
				pr.Span = Span{op.Span.Start, op.Span.Start}
				pr.Body = Span{op.Body.Start, op.Body.Start}
			}
		}
		n.Prompts = append(n.Prompts, pr)
	}
	return n, nil
}
