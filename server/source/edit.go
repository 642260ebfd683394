package source

import (
	"fmt"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/protocol"
)

// Command names the server registers. Their argument is one JSON object
// (see package server's CommandArgs).
const (
	CmdRunNode     = "flowcabal.runNode"
	CmdRunWorkflow = "flowcabal.runWorkflow"
)

// CodeLenses returns "Run workflow" above the header (or the first node
// when there is none) and "Run node" above every node.
func CodeLenses(snap *cache.Snapshot, f *cache.File, o Options) []protocol.CodeLens {
	pf := snap.Parse(f)
	arg := func(node string) []any {
		m := map[string]any{"uri": string(f.URI), "version": f.Version}
		if node != "" {
			m["node"] = node
		}
		return []any{m}
	}
	var out []protocol.CodeLens
	switch {
	case pf.Workflow != nil:
		out = append(out, protocol.CodeLens{Range: Range(pf, headSpan(pf.Workflow.Span), o.Encoding),
			Command: &protocol.Command{Title: "▶ Run workflow", Command: CmdRunWorkflow, Arguments: arg("")}})
	case len(pf.Nodes) > 0:
		out = append(out, protocol.CodeLens{Range: Range(pf, workflowlang.Span{}, o.Encoding),
			Command: &protocol.Command{Title: "▶ Run workflow", Command: CmdRunWorkflow, Arguments: arg("")}})
	}
	for _, n := range pf.Nodes {
		if n.Name.Name == "" {
			continue
		}
		out = append(out, protocol.CodeLens{Range: Range(pf, headSpan(n.Span), o.Encoding),
			Command: &protocol.Command{Title: "▶ Run node", Command: CmdRunNode, Arguments: arg(n.Name.Name)}})
	}
	return out
}

// headSpan is the empty span at the start of an item.
func headSpan(sp workflowlang.Span) workflowlang.Span {
	return workflowlang.Span{Start: sp.Start, End: sp.Start}
}

// Format returns the edits that make f canonical: one edit covering the
// bytes that differ, so that the cursor and folds elsewhere stay put.
func Format(snap *cache.Snapshot, f *cache.File, o Options) ([]protocol.TextEdit, error) {
	pf := snap.Parse(f)
	out, err := workflowlang.Format(pf)
	if err != nil {
		return nil, fmt.Errorf("format %s: %w", containerName(f), err)
	}
	return diffEdit(pf, out, o), nil
}

// diffEdit returns the single edit turning pf's source into next, or none.
func diffEdit(pf *workflowlang.File, next []byte, o Options) []protocol.TextEdit {
	src := pf.Src
	if string(src) == string(next) {
		return []protocol.TextEdit{}
	}
	pre := 0
	for pre < len(src) && pre < len(next) && src[pre] == next[pre] {
		pre++
	}
	for pre > 0 && !utf8.RuneStart(src[min(pre, len(src)-1)]) {
		pre--
	}
	suf := 0
	for suf < len(src)-pre && suf < len(next)-pre && src[len(src)-1-suf] == next[len(next)-1-suf] {
		suf++
	}
	for suf > 0 && len(src)-suf < len(src) && !utf8.RuneStart(src[len(src)-suf]) {
		suf--
	}
	sp := workflowlang.Span{Start: pre, End: len(src) - suf}
	return []protocol.TextEdit{{Range: Range(pf, sp, o.Encoding), NewText: string(next[pre : len(next)-suf])}}
}

// FoldingRanges returns the foldable regions: the header, nodes, `use`
// blocks, and prompts that span lines.
func FoldingRanges(snap *cache.Snapshot, f *cache.File) []protocol.FoldingRange {
	pf := snap.Parse(f)
	m := pf.Mapper()
	var out []protocol.FoldingRange
	add := func(sp workflowlang.Span) {
		if sp.Len() == 0 {
			return
		}
		start := m.Position(sp.Start, workflowlang.UTF16).Line
		end := m.Position(sp.End, workflowlang.UTF16).Line - 1 // keep the closing line visible
		if end > start {
			out = append(out, protocol.FoldingRange{StartLine: uint32(start), EndLine: uint32(end), Kind: protocol.RegionFoldingRange})
		}
	}
	for _, it := range pf.Items {
		add(it.ItemSpan())
		if n, ok := it.(*workflowlang.Node); ok {
			for _, p := range n.Prompts {
				add(p.Span)
			}
		}
	}
	return out
}
