package source

import (
	"fmt"
	"sort"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/protocol"
)

// CodeActions returns the quick-fixes for the diagnostics that touch rng,
// and source.fixAll when asked for (only: the kinds the client wants; empty
// means all).
func CodeActions(snap *cache.Snapshot, f *cache.File, rng protocol.Range, only []protocol.CodeActionKind, o Options) ([]protocol.CodeAction, error) {
	pf := snap.Parse(f)
	start, ok1 := Offset(pf, rng.Start, o.Encoding)
	end, ok2 := Offset(pf, rng.End, o.Encoding)
	if !ok1 || !ok2 {
		return nil, ErrOutOfRange
	}
	want := func(k protocol.CodeActionKind) bool {
		if len(only) == 0 {
			return true
		}
		for _, w := range only {
			if w == "" || w == k || len(k) > len(w) && k[:len(w)+1] == w+"." {
				return true
			}
		}
		return false
	}
	if !want(protocol.QuickFix) && !want(SourceFixAll) {
		return nil, nil // a client asking for refactorings only (as it moves the cursor)
	}
	res := snap.Check(f)
	var out []protocol.CodeAction
	if want(protocol.QuickFix) {
		for _, d := range res.Diagnostics {
			if d.Path != "" && d.Path != pf.Path {
				continue
			}
			if d.Span.End < start || d.Span.Start > end {
				continue
			}
			out = append(out, quickFixes(snap, f, pf, res, d, o)...)
		}
	}
	if want(SourceFixAll) && (len(only) > 0 || len(out) == 0) {
		if edits := FixAll(snap, f, o); len(edits) > 0 {
			out = append(out, protocol.CodeAction{Title: "Fix all: replace unknown references and paths with their closest names",
				Kind: SourceFixAll, Edit: &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{f.URI: edits}}})
		}
	}
	return out, nil
}

func quickFixes(snap *cache.Snapshot, f *cache.File, pf *workflowlang.File, res *workflowlang.Result, d workflowlang.Diagnostic, o Options) []protocol.CodeAction {
	diag := toProtocol(snap, pf, d, o)
	edit := func(edits ...protocol.TextEdit) *protocol.WorkspaceEdit {
		return &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{f.URI: edits}}
	}
	action := func(title string, preferred bool, e *protocol.WorkspaceEdit) protocol.CodeAction {
		return protocol.CodeAction{Title: title, Kind: protocol.QuickFix, Diagnostics: []protocol.Diagnostic{diag}, IsPreferred: preferred, Edit: e}
	}
	var out []protocol.CodeAction
	switch d.Code {
	case workflowlang.CodeUnknownRef:
		ref := refIn(pf, d.Span)
		if ref == nil {
			return nil
		}
		for i, s := range d.Suggestions {
			out = append(out, action(fmt.Sprintf("Replace with '%s'", s), i == 0,
				edit(protocol.TextEdit{Range: Range(pf, ref.NameSpan, o.Encoding), NewText: s})))
		}
		if ValidName(ref.Name) {
			pos := len(pf.Src)
			text := "\n" + newNodeText(ref.Name)
			if n := nodeHolding(pf, ref); n != nil {
				pos = lineStart(pf.Src, n.Span.Start)
				text = newNodeText(ref.Name) + "\n"
			}
			out = append(out, action(fmt.Sprintf("Create node '%s'", ref.Name), len(d.Suggestions) == 0,
				edit(protocol.TextEdit{Range: Range(pf, workflowlang.Span{Start: pos, End: pos}, o.Encoding), NewText: text})))
		}
	case workflowlang.CodeUnknownUseNode, workflowlang.CodeMissingKnowledge, workflowlang.CodeUnknownAlias:
		ref := refIn(pf, d.Span)
		if ref == nil {
			return nil
		}
		sp := ref.NameSpan
		switch d.Code {
		case workflowlang.CodeMissingKnowledge:
			sp = ref.PathSpan
		case workflowlang.CodeUnknownAlias:
			sp = ref.AliasSpan
		}
		for i, s := range d.Suggestions {
			out = append(out, action(fmt.Sprintf("Replace with '%s'", s), i == 0,
				edit(protocol.TextEdit{Range: Range(pf, sp, o.Encoding), NewText: s})))
		}
	case workflowlang.CodeUnusedNode:
		for _, n := range pf.Nodes {
			if n.Span.Start <= d.Span.Start && d.Span.End <= n.Span.End {
				out = append(out, action(fmt.Sprintf("Remove unused node '%s'", n.Name.Name), false,
					edit(protocol.TextEdit{Range: Range(pf, wholeLines(pf.Src, n.Span), o.Encoding), NewText: ""})))
				break
			}
		}
	case workflowlang.CodeSelfRef:
		if ref := refIn(pf, d.Span); ref != nil {
			out = append(out, action(fmt.Sprintf("Remove the self-reference {{%s}}", ref.Target()), true,
				edit(protocol.TextEdit{Range: Range(pf, ref.Span, o.Encoding), NewText: ""})))
		}
	case workflowlang.CodeCycle:
		for _, e := range cycleEdges(res, pf, d.Span) {
			out = append(out, action(fmt.Sprintf("Break the cycle: remove {{%s}} from '%s'", e.From, e.To), false,
				edit(protocol.TextEdit{Range: Range(pf, e.Ref.Span, o.Encoding), NewText: ""})))
		}
	case workflowlang.CodeDuplicateNode:
		for _, n := range pf.Nodes {
			if n.Name.Span.Start <= d.Span.Start && d.Span.Start <= n.Name.Span.End || n.Span.Start == d.Span.Start {
				fresh := freshName(pf, n.Name.Name)
				out = append(out, action(fmt.Sprintf("Rename this node to '%s'", fresh), true,
					edit(protocol.TextEdit{Range: Range(pf, n.Name.Span, o.Encoding), NewText: fresh})))
				break
			}
		}
	}
	return out
}

// FixAll returns the edits of every unambiguous fix of f: each unknown
// reference (node, node of a used file, knowledge path) replaced with its
// closest name.
func FixAll(snap *cache.Snapshot, f *cache.File, o Options) []protocol.TextEdit {
	pf := snap.Parse(f)
	res := snap.Check(f)
	var edits []protocol.TextEdit
	for _, d := range res.Diagnostics {
		if len(d.Suggestions) == 0 || (d.Path != "" && d.Path != pf.Path) {
			continue
		}
		ref := refIn(pf, d.Span)
		if ref == nil {
			continue
		}
		var sp workflowlang.Span
		switch d.Code {
		case workflowlang.CodeUnknownRef, workflowlang.CodeUnknownUseNode:
			sp = ref.NameSpan
		case workflowlang.CodeMissingKnowledge:
			sp = ref.PathSpan
		default:
			continue
		}
		edits = append(edits, protocol.TextEdit{Range: Range(pf, sp, o.Encoding), NewText: d.Suggestions[0]})
	}
	return edits
}

// refIn returns the reference that overlaps sp.
func refIn(pf *workflowlang.File, sp workflowlang.Span) *workflowlang.Ref {
	for _, r := range allRefs(pf) {
		if r.Ref.Span.Start <= sp.End && sp.Start <= r.Ref.Span.End {
			return r.Ref
		}
	}
	return nil
}

func nodeHolding(pf *workflowlang.File, ref *workflowlang.Ref) *workflowlang.Node {
	for _, r := range allRefs(pf) {
		if r.Ref == ref {
			return r.Node
		}
	}
	return nil
}

func newNodeText(name string) string {
	return "node " + name + " {\n  user \"\"\"\n    TODO: write the prompt of " + name + ".\n  \"\"\"\n}\n"
}

func lineStart(src []byte, off int) int {
	for off > 0 && src[off-1] != '\n' {
		off--
	}
	return off
}

// wholeLines widens sp to the full lines it covers, with its newline.
func wholeLines(src []byte, sp workflowlang.Span) workflowlang.Span {
	start := lineStart(src, sp.Start)
	end := sp.End
	for end < len(src) && src[end] != '\n' {
		end++
	}
	if end < len(src) {
		end++
	}
	return workflowlang.Span{Start: start, End: end}
}

func freshName(pf *workflowlang.File, base string) string {
	for i := 2; ; i++ {
		n := fmt.Sprintf("%s-%d", base, i)
		if !declared(pf, n) {
			return n
		}
	}
}

// cycleEdges returns the edges of the cycle that the diagnostic at sp
// reports: the edges inside the strongly connected component of the node
// holding sp, in source order.
func cycleEdges(res *workflowlang.Result, pf *workflowlang.File, sp workflowlang.Span) []workflowlang.Edge {
	var at string
	for _, n := range pf.Nodes {
		if n.Span.Start <= sp.Start && sp.Start <= n.Span.End {
			at = n.Name.Name
		}
	}
	comp := scc(res.Edges)
	c, ok := comp[at]
	if !ok {
		return nil
	}
	var out []workflowlang.Edge
	for _, e := range res.Edges {
		if e.Ref != nil && e.From != e.To && comp[e.From] == c && comp[e.To] == c {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Ref.Span.Start < out[j].Ref.Span.Start })
	return out
}

// scc labels each node on a cycle with its strongly connected component
// (Tarjan); nodes on no cycle are absent.
func scc(edges []workflowlang.Edge) map[string]int {
	adj := map[string][]string{}
	var nodes []string
	seen := map[string]bool{}
	for _, e := range edges {
		adj[e.From] = append(adj[e.From], e.To)
		for _, n := range []string{e.From, e.To} {
			if !seen[n] {
				seen[n] = true
				nodes = append(nodes, n)
			}
		}
	}
	index, low := map[string]int{}, map[string]int{}
	on := map[string]bool{}
	var stack []string
	out := map[string]int{}
	next, comp := 0, 0
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		on[v] = true
		for _, w := range adj[v] {
			if _, ok := index[w]; !ok {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var members []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				members = append(members, w)
				if w == v {
					break
				}
			}
			if len(members) > 1 {
				for _, m := range members {
					out[m] = comp
				}
				comp++
			}
		}
	}
	for _, n := range nodes {
		if _, ok := index[n]; !ok {
			visit(n)
		}
	}
	return out
}

// SourceFixAll is the code action kind of "fix everything that can be
// fixed unambiguously" (LSP 3.15; missing from go.lsp.dev/protocol).
const SourceFixAll protocol.CodeActionKind = "source.fixAll"
