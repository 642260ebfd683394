package source

import (
	"bytes"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/protocol"
)

// SelectionRanges returns, for each position, the syntax around it from
// the inside out, each range the parent of the one before: a reference,
// the line of the prompt holding it, the prompt, the node (or other
// top-level item), the whole file. Levels that do not hold the position
// are left out, and so are levels equal to the one below them (a
// one-line prompt is its own line).
func SelectionRanges(snap *cache.Snapshot, f *cache.File, ps []protocol.Position, o Options) ([]protocol.SelectionRange, error) {
	pf := snap.Parse(f)
	out := make([]protocol.SelectionRange, 0, len(ps))
	for _, p := range ps {
		off, ok := Offset(pf, p, o.Encoding)
		if !ok {
			return nil, ErrOutOfRange
		}
		spans := enclosing(pf, at(pf, off), off)
		var sr *protocol.SelectionRange
		// Outermost first, so that each inner range takes the one before
		// as its parent.
		for i := len(spans) - 1; i >= 0; i-- {
			sr = &protocol.SelectionRange{Range: Range(pf, spans[i], o.Encoding), Parent: sr}
		}
		out = append(out, *sr)
	}
	return out, nil
}

// enclosing lists the spans around off, innermost first, each inside the
// next and none equal to the next; the last is the whole file.
func enclosing(pf *workflowlang.File, c cursor, off int) []workflowlang.Span {
	var spans []workflowlang.Span
	add := func(sp workflowlang.Span) {
		if sp.Len() == 0 || !sp.Contains(off) {
			return
		}
		// Each range must hold the one before (LSP); at the boundary of
		// two items the cursor may know parts of both, and the one that
		// does not nest is dropped.
		if n := len(spans); n > 0 && (spans[n-1] == sp || sp.Start > spans[n-1].Start || sp.End < spans[n-1].End) {
			return
		}
		spans = append(spans, sp)
	}
	if c.Ref != nil {
		add(c.Ref.Span)
	}
	if c.Prompt != nil {
		add(promptLine(pf.Src, c.Prompt.Body, off))
		add(c.Prompt.Span)
	}
	if c.Attr != nil {
		if tv, ok := c.Attr.Value.(*workflowlang.TextValue); ok {
			add(promptLine(pf.Src, textBody(pf.Src, tv.Span), off))
		}
		add(c.Attr.Span)
	}
	switch {
	case c.OnName && c.Node != nil:
		add(c.Node.Name.Span)
	case c.OnName && c.Input != nil:
		add(c.Input.Name.Span)
	}
	switch {
	case c.Node != nil:
		add(c.Node.Span)
	case c.Input != nil:
		add(c.Input.Span)
	case c.Use != nil:
		add(c.Use.Span)
	case c.Workflow != nil:
		add(c.Workflow.Span)
	}
	whole := workflowlang.Span{Start: 0, End: len(pf.Src)}
	if len(spans) > 0 && spans[len(spans)-1] == whole {
		return spans
	}
	return append(spans, whole)
}

// promptLine is the line of body holding off, without its indentation and
// trailing blanks; an empty span when off is not within that text.
func promptLine(src []byte, body workflowlang.Span, off int) workflowlang.Span {
	if body.Start < 0 || body.End > len(src) || !body.Contains(off) {
		return workflowlang.Span{}
	}
	start := body.Start
	if i := bytes.LastIndexByte(src[body.Start:off], '\n'); i >= 0 {
		start = body.Start + i + 1
	}
	end := body.End
	if i := bytes.IndexByte(src[off:body.End], '\n'); i >= 0 {
		end = off + i
	}
	for start < end && (src[start] == ' ' || src[start] == '\t') {
		start++
	}
	for end > start && (src[end-1] == ' ' || src[end-1] == '\t' || src[end-1] == '\r') {
		end--
	}
	if start >= end || !(workflowlang.Span{Start: start, End: end}).Contains(off) {
		return workflowlang.Span{}
	}
	return workflowlang.Span{Start: start, End: end}
}

// textBody is the text between the quotes of a text value.
func textBody(src []byte, sp workflowlang.Span) workflowlang.Span {
	if sp.Start < 0 || sp.End > len(src) {
		return sp
	}
	for _, q := range []string{`"""`, `"`} {
		v := src[sp.Start:sp.End]
		if len(v) >= 2*len(q) && bytes.HasPrefix(v, []byte(q)) && bytes.HasSuffix(v, []byte(q)) {
			return workflowlang.Span{Start: sp.Start + len(q), End: sp.End - len(q)}
		}
	}
	return sp
}
