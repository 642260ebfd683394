package source

import (
	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/protocol"
)

// DocumentHighlights returns, for the name or reference at p, every place
// of f that names the same thing: the declaration of a node or input
// (Write) and every {{reference}} to it (Read); the `as` alias of a use
// (Write) and every {{alias.node}} through it (Read); for a {{@path}},
// every reference to that resource at any level (Read). It works on the
// syntax alone, so an unresolved {{name}} still lights up its twins.
func DocumentHighlights(snap *cache.Snapshot, f *cache.File, p protocol.Position, o Options) ([]protocol.DocumentHighlight, error) {
	pf, c, ok := cursorAt(snap, f, p, o.Encoding)
	if !ok {
		return nil, ErrOutOfRange
	}
	var (
		match func(r *workflowlang.Ref) (workflowlang.Span, bool)
		decl  *workflowlang.Span
	)
	switch {
	case c.Ref != nil && c.Ref.Kind == workflowlang.RefKnowledge:
		path := c.Ref.Path
		match = func(r *workflowlang.Ref) (workflowlang.Span, bool) {
			return r.Span, r.Kind == workflowlang.RefKnowledge && r.Path == path
		}
	case c.Ref != nil && c.Ref.Kind == workflowlang.RefUse:
		alias, name := c.Ref.Alias, c.Ref.Name
		match = func(r *workflowlang.Ref) (workflowlang.Span, bool) {
			return r.Span, r.Kind == workflowlang.RefUse && r.Alias == alias && r.Name == name
		}
	case c.Ref != nil:
		decl = declSpan(pf, c.Ref.Name)
		match = nodeRefs(c.Ref.Name)
	case c.OnName && c.Node != nil:
		decl = &c.Node.Name.Span
		match = nodeRefs(c.Node.Name.Name)
	case c.OnName && c.Input != nil:
		decl = &c.Input.Name.Span
		match = nodeRefs(c.Input.Name.Name)
	case c.Use != nil && c.Use.Alias.Span.Len() > 0 && c.Use.Alias.Span.Contains(c.Off):
		alias := c.Use.Alias.Name
		decl = &c.Use.Alias.Span
		// The alias part alone: {{alias.a}} and {{alias.b}} share it and
		// nothing else.
		match = func(r *workflowlang.Ref) (workflowlang.Span, bool) {
			return r.AliasSpan, r.Kind == workflowlang.RefUse && r.Alias == alias
		}
	default:
		return nil, nil
	}
	out := []protocol.DocumentHighlight{}
	if decl != nil {
		out = append(out, protocol.DocumentHighlight{Range: Range(pf, *decl, o.Encoding), Kind: protocol.DocumentHighlightKindWrite})
	}
	for _, r := range allRefs(pf) {
		if sp, ok := match(r.Ref); ok {
			out = append(out, protocol.DocumentHighlight{Range: Range(pf, sp, o.Encoding), Kind: protocol.DocumentHighlightKindRead})
		}
	}
	return out, nil
}

// nodeRefs matches the {{name}} references of the file's own nodes and
// inputs.
func nodeRefs(name string) func(r *workflowlang.Ref) (workflowlang.Span, bool) {
	return func(r *workflowlang.Ref) (workflowlang.Span, bool) {
		return r.Span, r.Kind == workflowlang.RefNode && r.Name == name
	}
}
