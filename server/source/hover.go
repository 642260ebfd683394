package source

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/protocol"
)

// ContextSection renders Role A's "Context injected" section of a node's
// hover (what was, or would be, injected). It is the seam Role A fills; nil
// says the section is not available yet.
// links says whether the client renders Markdown links; without them the
// section names sources by their project path alone, so that a client
// that shows Markdown as text keeps each row on one line.
type ContextSection func(snap *cache.Snapshot, f *cache.File, node string, links bool) (markdown string, err error)

// Hover returns the hover at p, or nil when there is nothing to say.
func Hover(snap *cache.Snapshot, f *cache.File, p protocol.Position, o Options, ctxSection ContextSection) (*protocol.Hover, error) {
	pf, c, ok := cursorAt(snap, f, p, o.Encoding)
	if !ok {
		return nil, ErrOutOfRange
	}
	var h hoverText
	var sp workflowlang.Span
	switch {
	case c.Ref != nil:
		sp = c.Ref.Span
		t, ok := resolve(snap, f, pf, c)
		switch {
		case !ok:
			h.para(fmt.Sprintf("Unresolved reference `{{%s}}`.", c.Ref.Target()))
		case t.KnowPath != "":
			knowledgeHover(&h, t, c.Ref.Level)
		default:
			if n := t.PF.Node(t.Name); n != nil {
				// Role A's section belongs to the node being written: it is
				// shown on the node's own name, and a reference stays cheap.
				nodeHover(&h, snap, t.File, t.PF, n, false, nil, false)
			} else {
				h.para(fmt.Sprintf("Input `%s` of %s.", t.Name, containerName(t.File)))
			}
		}
	case c.OnName && c.Node != nil:
		sp = c.Node.Name.Span
		nodeHover(&h, snap, f, pf, c.Node, true, ctxSection, o.HoverLinks)
	case c.Attr != nil && c.Attr.Key.Span.Contains(c.Off):
		d, ok := attrDocs[c.Attr.Key.Name]
		if !ok {
			return nil, nil
		}
		sp = c.Attr.Key.Span
		h.para(fmt.Sprintf("`%s`: %s", c.Attr.Key.Name, d))
	default:
		return nil, nil
	}
	kind := protocol.PlainText
	if o.Markdown {
		kind = protocol.Markdown
	}
	r := Range(pf, sp, o.Encoding)
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: kind, Value: h.render(o.Markdown)}, Range: &r}, nil
}

func nodeHover(h *hoverText, snap *cache.Snapshot, f *cache.File, pf *workflowlang.File, n *workflowlang.Node, local bool, ctxSection ContextSection, links bool) {
	title := ""
	if n.Title != nil {
		title = " — " + n.Title.Value
	}
	h.heading(fmt.Sprintf("node `%s`%s", n.Name.Name, title))
	model := "writer"
	if a := n.Attr("model"); a != nil {
		if v, ok := a.Value.(*workflowlang.StringValue); ok {
			model = v.Value
		} else if v, ok := a.Value.(*workflowlang.WordValue); ok {
			model = v.Name
		}
	}
	h.para(fmt.Sprintf("model: `%s` · file: %s", model, containerName(f)))
	if pv := promptPreview(n, 300); pv != "" {
		h.code(pv)
	}
	var inputs []string
	for _, r := range n.Refs() {
		if in := "`{{" + r.Target() + "}}`"; !slices.Contains(inputs, in) {
			inputs = append(inputs, in)
		}
	}
	var dependents []string
	for _, d := range dependentsOf(f, pf)[n.Name.Name] {
		dependents = append(dependents, "`"+d+"`")
	}
	if local || len(inputs)+len(dependents) > 0 {
		h.para("inputs: " + listOrNone(inputs))
		h.para("dependents: " + listOrNone(dependents))
	}
	if !local {
		return
	}
	h.heading("Context injected")
	if ctxSection == nil {
		h.para("Not available yet: Role A's context assembly has not landed in this build.")
		return
	}
	md, err := ctxSection(snap, f, n.Name.Name, links)
	if err != nil {
		h.para("Could not assemble the context: " + err.Error())
		return
	}
	h.raw(md)
}

func knowledgeHover(h *hoverText, t target, level string) {
	if t.Knowledge == nil {
		h.para(fmt.Sprintf("No project resource `@%s`.", t.KnowPath))
		return
	}
	if level == "" {
		level = "L2"
	}
	h.heading(fmt.Sprintf("`@%s` (injected at %s)", t.KnowPath, level))
	if lead := t.Knowledge.Lead(); lead != "" {
		h.para("L0 (first lines; generated summaries arrive with the store): " + lead)
	}
	h.para(fmt.Sprintf("%d bytes", t.Knowledge.Size))
}

func listOrNone(xs []string) string {
	if len(xs) == 0 {
		return "none"
	}
	return strings.Join(xs, ", ")
}

// hoverText builds a hover as Markdown or as plain text.
type hoverText struct {
	parts []hoverPart
}

type hoverPart struct {
	kind byte // 'h' heading, 'p' paragraph, 'c' code, 'r' raw markdown
	text string
}

func (h *hoverText) heading(s string) { h.parts = append(h.parts, hoverPart{'h', s}) }
func (h *hoverText) para(s string)    { h.parts = append(h.parts, hoverPart{'p', s}) }
func (h *hoverText) code(s string)    { h.parts = append(h.parts, hoverPart{'c', s}) }
func (h *hoverText) raw(s string)     { h.parts = append(h.parts, hoverPart{'r', s}) }

func (h *hoverText) render(markdown bool) string {
	var out []string
	for _, p := range h.parts {
		switch {
		case markdown && p.kind == 'h':
			out = append(out, "### "+p.text)
		case markdown && p.kind == 'c':
			out = append(out, "```text\n"+p.text+"\n```")
		case markdown:
			out = append(out, p.text)
		case p.kind == 'h':
			out = append(out, strings.ReplaceAll(p.text, "`", "")+"\n"+strings.Repeat("-", 20))
		default:
			out = append(out, strings.ReplaceAll(p.text, "`", ""))
		}
	}
	return strings.Join(out, "\n\n")
}

// dependentsOf maps each name of pf to the nodes that reference it, in
// source order, once per file content.
func dependentsOf(f *cache.File, pf *workflowlang.File) map[string][]string {
	return f.Memo("dependents", func() any {
		m := map[string][]string{}
		for _, r := range allRefs(pf) {
			// A node that reads another twice is one dependent.
			if r.Ref.Kind == workflowlang.RefNode && r.Node != nil && !slices.Contains(m[r.Ref.Name], r.Node.Name.Name) {
				m[r.Ref.Name] = append(m[r.Ref.Name], r.Node.Name.Name)
			}
		}
		return m
	}).(map[string][]string)
}
