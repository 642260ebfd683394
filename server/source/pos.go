// Package source holds the editing features of .flow files in LSP terms:
// the logic behind each handler of package server, working on one
// snapshot. It never touches the transport.
package source

import (
	"bytes"

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

// A lineWalker converts byte offsets of src, mostly increasing, to LSP
// positions by counting lines as it goes: a few positions in a closed
// file, whose tree (and its line index) is not kept, cost a scan of the
// text up to them and no index of all its lines.
type lineWalker struct {
	src   []byte
	off   int // src[:off] is counted
	line  int // the line holding off
	start int // where that line starts
}

func (w *lineWalker) position(off int, enc workflowlang.Encoding) protocol.Position {
	off = max(0, min(off, len(w.src)))
	if off < w.off {
		w.off, w.line, w.start = 0, 0, 0
	}
	if n := bytes.Count(w.src[w.off:off], []byte{'\n'}); n > 0 {
		w.line += n
		w.start = w.off + bytes.LastIndexByte(w.src[w.off:off], '\n') + 1
	}
	w.off = off
	end := len(w.src)
	if i := bytes.IndexByte(w.src[off:], '\n'); i >= 0 {
		end = off + i
	}
	// A mapper of the one line counts its columns as every other
	// position of the server is counted.
	col := workflowlang.Column(w.src[w.start:end], off-w.start, enc)
	return protocol.Position{Line: uint32(w.line), Character: uint32(col)}
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
