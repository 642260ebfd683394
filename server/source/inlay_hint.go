package source

import (
	"bytes"
	"sort"
	"strconv"

	"golang.org/x/text/language"
	"golang.org/x/text/message"

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

// NodeContext is what Role A would inject into a node now: Tokens of
// Budget, or nothing (Off: the node sets context = off).
type NodeContext struct {
	Tokens, Budget int
	Off            bool
}

// NodeContexts is what is known of Role A's context for each node of a
// workflow, for the hints at the end of each node's header line.
type NodeContexts struct {
	// Nodes by name; a node missing gets no header hint.
	Nodes map[string]NodeContext
	// Stale says Nodes are an earlier state's, being updated.
	Stale bool
	// Indexing says Role A's view of the project is still being built:
	// every header says so instead of a count.
	Indexing bool
}

// FileHints are the inlay hints of a whole file, in source order, made
// once per state of the file and cut to each request's range.
type FileHints struct {
	hints []InlayHint
	offs  []int // the byte offset of each hint
}

// In returns the hints of h in rng (a range to a line past the end runs
// to the end). The slice is h's own: the caller must not change it.
func (h *FileHints) In(pf *workflowlang.File, rng protocol.Range, enc workflowlang.Encoding) ([]InlayHint, error) {
	start, ok1 := Offset(pf, rng.Start, enc)
	end, ok2 := Offset(pf, rng.End, enc)
	if !ok1 {
		return nil, ErrOutOfRange
	}
	if !ok2 {
		end = len(pf.Src)
	}
	i := sort.SearchInts(h.offs, start)
	j := sort.SearchInts(h.offs, end+1)
	if j < i {
		j = i
	}
	return h.hints[i:j:j], nil
}

// InlayHints makes the inlay hints of f:
//
//   - after each {{@path}}, what the resource costs at the reference's
//     level: exactly when exact knows it (Role A's counts), else
//     estimated from the file's size for the full text (L2), marked "~".
//     A level nothing counts gets no hint rather than a guess, and a path
//     that names nothing has its diagnostic instead;
//   - at the end of each node's header line, the tokens Role A would
//     inject into the node and their share of its budget, from nodes.
//
// Nothing here reads a file or calls a model: counts are the snapshot's
// and the hooks'.
func InlayHints(snap *cache.Snapshot, f *cache.File, exact func(path, level string) (int, bool), nodes NodeContexts, o Options) *FileHints {
	pf := snap.Parse(f)
	type placed struct {
		off int
		h   InlayHint
	}
	var all []placed
	for _, r := range refsOf(f, pf) {
		ref := r.Ref
		if ref.Kind != workflowlang.RefKnowledge {
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
		all = append(all, placed{ref.Span.End, h})
	}
	if nodes.Nodes != nil || nodes.Indexing {
		p := message.NewPrinter(language.English)
		for _, n := range pf.Nodes {
			name := n.Name.Name
			if name == "" {
				continue
			}
			h := InlayHint{PaddingLeft: true}
			nc, ok := nodes.Nodes[name]
			switch {
			case nodes.Nodes == nil:
				h.Label = "indexing…"
				h.Tooltip = "Role A's view of the project is still being built (the node's hover says how far): the tokens it would inject into " + name + " show here once it is."
			case !ok:
				continue
			case nc.Off:
				h.Label = "context off"
				h.Tooltip = "context = off: Role A injects nothing into " + name + "."
			default:
				h.Label, h.Tooltip = headerLabel(p, name, nc)
				if nodes.Stale {
					h.Tooltip += " (counted before the last change; being counted again)"
				}
			}
			off := headerEnd(pf.Src, n.Span.Start)
			h.Position = Range(pf, workflowlang.Span{Start: off, End: off}, o.Encoding).Start
			all = append(all, placed{off, h})
		}
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].off < all[j].off })
	out := &FileHints{hints: make([]InlayHint, len(all)), offs: make([]int, len(all))}
	for i, p := range all {
		out.hints[i], out.offs[i] = p.h, p.off
	}
	return out
}

// headerLabel is "≈ 7,940 tok · 33% of 24k" and its tooltip.
func headerLabel(p *message.Printer, node string, nc NodeContext) (label, tooltip string) {
	tok := p.Sprintf("%d", nc.Tokens)
	if nc.Budget <= 0 {
		return "≈ " + tok + " tok", "Role A would inject about " + tok + " tokens of context into " + node + " now."
	}
	pct := (nc.Tokens*100 + nc.Budget/2) / nc.Budget
	label = "≈ " + tok + " tok · " + strconv.Itoa(pct) + "% of " + shortCount(nc.Budget)
	tooltip = "Role A would inject about " + tok + " tokens of context into " + node + " now, " + strconv.Itoa(pct) +
		"% of its budget of " + p.Sprintf("%d", nc.Budget) + " tokens. Hover the node's name for the sources."
	return label, tooltip
}

// shortCount writes a budget as an author reads it: 24000 as "24k",
// 1500 as "1.5k", 2000000 as "2M", under 1000 as is.
func shortCount(n int) string {
	unit, div := "", 1
	switch {
	case n >= 1_000_000:
		unit, div = "M", 1_000_000
	case n >= 1000:
		unit, div = "k", 1000
	default:
		return strconv.Itoa(n)
	}
	tenths := (n*10 + div/2) / div
	s := strconv.Itoa(tenths / 10)
	if tenths%10 != 0 {
		s += "." + strconv.Itoa(tenths%10)
	}
	return s + unit
}

// headerEnd is the end of the line where a node's header starts, after
// its last character that is not a space.
func headerEnd(src []byte, start int) int {
	end := len(src)
	if i := bytes.IndexByte(src[start:], '\n'); i >= 0 {
		end = start + i
	}
	for end > start && (src[end-1] == ' ' || src[end-1] == '\t' || src[end-1] == '\r') {
		end--
	}
	return end
}

func exactCount(exact func(path, level string) (int, bool), path, level string) (int, bool) {
	if exact == nil {
		return 0, false
	}
	return exact(path, level)
}
