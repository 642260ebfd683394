// Package source holds the editing features of .flow files in LSP terms:
// the logic behind each handler of package server, working on one
// snapshot. It never touches the transport.
package source

import (
	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/protocol"
)

// Range converts a byte span of f to an LSP range in enc.
func Range(f *workflowlang.File, sp workflowlang.Span, enc workflowlang.Encoding) protocol.Range {
	return mapRange(f.Mapper(), sp, enc)
}

func mapRange(m *workflowlang.Mapper, sp workflowlang.Span, enc workflowlang.Encoding) protocol.Range {
	return protocol.Range{Start: pos(m.Position(sp.Start, enc)), End: pos(m.Position(sp.End, enc))}
}

func pos(p workflowlang.Position) protocol.Position {
	return protocol.Position{Line: uint32(p.Line), Character: uint32(p.Col)}
}

// Offset converts an LSP position to a byte offset of f, clamping columns
// past the end of a line as the specification asks. ok is false for a
// line past the end of the document.
func Offset(f *workflowlang.File, p protocol.Position, enc workflowlang.Encoding) (int, bool) {
	m := f.Mapper()
	if int(p.Line) >= m.Lines() {
		return len(f.Src), false
	}
	return m.ClampOffset(workflowlang.Position{Line: int(p.Line), Col: int(p.Character)}, enc), true
}
