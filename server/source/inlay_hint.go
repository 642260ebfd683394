package source

import (
	"strconv"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/protocol"
)

// InlayHint is an LSP 3.17 inlay hint (go.lsp.dev/protocol v0.12.0 has
// none), with a plain-text label.
type InlayHint struct {
	Position    protocol.Position `json:"position"`
	Label       string            `json:"label"`
	Kind        int               `json:"kind,omitempty"` // 1: a type
	Tooltip     string            `json:"tooltip,omitempty"`
	PaddingLeft bool              `json:"paddingLeft,omitempty"`
}

// InlayHints puts after each {{@path}} of f in rng what the resource costs
// at the reference's level: exactly when exact knows it (Role A's counts),
// else estimated from the file's size for the full text (L2), marked "~".
// A level nothing counts gets no hint rather than a guess, and a path
// that names nothing has its diagnostic instead. Nothing here reads a
// file or calls a model: counts are the snapshot's and the hook's.
func InlayHints(snap *cache.Snapshot, f *cache.File, rng protocol.Range, exact func(path, level string) (int, bool), o Options) ([]InlayHint, error) {
	pf := snap.Parse(f)
	start, ok1 := Offset(pf, rng.Start, o.Encoding)
	end, ok2 := Offset(pf, rng.End, o.Encoding)
	if !ok1 {
		return nil, ErrOutOfRange
	}
	if !ok2 {
		end = len(pf.Src) // a range to a line past the end: to the end
	}
	out := []InlayHint{}
	for _, r := range refsOf(f, pf) {
		ref := r.Ref
		if ref.Kind != workflowlang.RefKnowledge || ref.Span.End < start || ref.Span.End > end {
			continue
		}
		res, ok := snap.Resource(ref.Path)
		if !ok {
			continue
		}
		level := ref.Level
		if level == "" {
			level = "L2"
		}
		h := InlayHint{Position: Range(pf, workflowlang.Span{Start: ref.Span.End, End: ref.Span.End}, o.Encoding).Start, Kind: 1, PaddingLeft: true}
		if n, ok := exactCount(exact, res.Path, level); ok {
			h.Label = strconv.Itoa(n) + " tok"
			h.Tooltip = "@" + res.Path + " at " + level + ": " + strconv.Itoa(n) + " tokens"
		} else if n, ok := snap.Tokens(res.Path, level); ok {
			h.Label = "~" + strconv.Itoa(n) + " tok"
			h.Tooltip = "@" + res.Path + " at " + level + ": about " + strconv.Itoa(n) + " tokens, estimated from the file's size"
		} else {
			continue
		}
		out = append(out, h)
	}
	return out, nil
}

func exactCount(exact func(path, level string) (int, bool), path, level string) (int, bool) {
	if exact == nil {
		return 0, false
	}
	return exact(path, level)
}
