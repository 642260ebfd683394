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
		key   string // refIndex's key of the references to light up
		decl  *workflowlang.Span
		alias bool // light up the alias of each reference, not all of it
	)
	switch {
	case c.Ref != nil:
		key = refKey(c.Ref)
		if c.Ref.Kind == workflowlang.RefNode {
			decl = declSpan(pf, c.Ref.Name)
		}
	case c.OnName && c.Node != nil:
		decl = &c.Node.Name.Span
		key = "n:" + c.Node.Name.Name
	case c.OnName && c.Input != nil:
		decl = &c.Input.Name.Span
		key = "n:" + c.Input.Name.Name
	case c.Use != nil && c.Use.Alias.Span.Len() > 0 && c.Use.Alias.Span.Contains(c.Off):
		// The alias part alone: {{alias.a}} and {{alias.b}} share it and
		// nothing else.
		decl = &c.Use.Alias.Span
		key, alias = "a:"+c.Use.Alias.Name, true
	default:
		return nil, nil
	}
	out := []protocol.DocumentHighlight{}
	if decl != nil {
		out = append(out, protocol.DocumentHighlight{Range: Range(pf, *decl, o.Encoding), Kind: protocol.DocumentHighlightKindWrite})
	}
	for _, r := range refIndex(f, pf)[key] {
		sp := r.Ref.Span
		if alias {
			sp = r.Ref.AliasSpan
		}
		out = append(out, protocol.DocumentHighlight{Range: Range(pf, sp, o.Encoding), Kind: protocol.DocumentHighlightKindRead})
	}
	return out, nil
}
