package source

import (
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/protocol"
)

// DocumentSymbols returns the outline of f: workflow -> nodes -> prompts ->
// TextBlocks and VirtualTextBlocks, hierarchical, or flattened into
// SymbolInformation for clients without hierarchical support. The result
// is a slice of interface values, the shape the protocol package expects.
func DocumentSymbols(snap *cache.Snapshot, f *cache.File, o Options) json.RawMessage {
	key := fmt.Sprintf("symbols/%d/%v/%v", o.Encoding, o.Hierarchical, o.CompactOutline)
	return f.Memo(key, func() any {
		b, err := json.Marshal(documentSymbols(snap, f, o))
		if err != nil {
			return json.RawMessage("[]")
		}
		return json.RawMessage(b)
	}).(json.RawMessage)
}

func documentSymbols(snap *cache.Snapshot, f *cache.File, o Options) []any {
	pf := snap.Parse(f)
	r := func(sp workflowlang.Span) protocol.Range { return Range(pf, sp, o.Encoding) }
	var items []protocol.DocumentSymbol
	for _, it := range pf.Items {
		switch it := it.(type) {
		case *workflowlang.Use:
			sel := it.Alias.Span
			if sel.Len() == 0 {
				sel = it.Span
			}
			items = append(items, protocol.DocumentSymbol{Name: it.Alias.Name, Detail: "use " + it.Path.Value,
				Kind: protocol.SymbolKindModule, Range: r(it.Span), SelectionRange: r(sel)})
		case *workflowlang.Input:
			items = append(items, protocol.DocumentSymbol{Name: it.Name.Name, Detail: "input",
				Kind: protocol.SymbolKindVariable, Range: r(it.Span), SelectionRange: r(it.Name.Span)})
		case *workflowlang.Node:
			items = append(items, nodeSymbol(pf, it, r, o.CompactOutline))
		}
	}
	var top []protocol.DocumentSymbol
	if w := pf.Workflow; w != nil {
		name := "workflow"
		sel := workflowlang.Span{Start: w.Span.Start, End: min(w.Span.Start+len("workflow"), w.Span.End)}
		if w.Title != nil {
			name = w.Title.Value
			sel = w.Title.Span
		}
		// The header's children are the file's declarations, so its range
		// is the whole document.
		top = []protocol.DocumentSymbol{{Name: name, Detail: "workflow", Kind: protocol.SymbolKindNamespace,
			Range: r(workflowlang.Span{Start: 0, End: len(pf.Src)}), SelectionRange: r(sel), Children: items}}
	} else {
		top = items
	}
	out := make([]any, 0, len(top))
	if o.Hierarchical {
		for _, s := range top {
			out = append(out, s)
		}
		return out
	}
	var flat func(s protocol.DocumentSymbol, container string)
	flat = func(s protocol.DocumentSymbol, container string) {
		out = append(out, protocol.SymbolInformation{Name: s.Name, Kind: s.Kind, ContainerName: container,
			Location: protocol.Location{URI: f.URI, Range: s.Range}})
		for _, c := range s.Children {
			flat(c, s.Name)
		}
	}
	for _, s := range top {
		flat(s, "")
	}
	return out
}

// nodeSymbol is the outline of node n: unless compact, its prompts with
// their text blocks and references.
func nodeSymbol(pf *workflowlang.File, n *workflowlang.Node, r func(workflowlang.Span) protocol.Range, compact bool) protocol.DocumentSymbol {
	detail := "node"
	if n.Title != nil {
		detail = n.Title.Value
	}
	sym := protocol.DocumentSymbol{Name: n.Name.Name, Detail: detail, Kind: protocol.SymbolKindFunction,
		Range: r(n.Span), SelectionRange: r(nameOr(n.Name.Span, n.Span))}
	for _, p := range n.Prompts {
		if compact {
			break
		}
		ps := protocol.DocumentSymbol{Name: string(p.Role), Kind: protocol.SymbolKindProperty,
			Range: r(p.Span), SelectionRange: r(nameOr(p.RoleSpan, p.Span))}
		for _, b := range p.Blocks {
			switch b := b.(type) {
			case *workflowlang.TextBlock:
				if strings.TrimSpace(b.Text) == "" {
					continue // blank runs between references say nothing in an outline
				}
				ps.Children = append(ps.Children, protocol.DocumentSymbol{Name: excerpt(b.Text, 40),
					Kind: protocol.SymbolKindString, Range: r(b.Span), SelectionRange: r(b.Span)})
			case *workflowlang.Ref:
				ps.Children = append(ps.Children, protocol.DocumentSymbol{Name: b.Target(),
					Kind: protocol.SymbolKindKey, Range: r(b.Span), SelectionRange: r(b.Span)})
			}
		}
		sym.Children = append(sym.Children, ps)
	}
	return sym
}

func nameOr(sp, fallback workflowlang.Span) workflowlang.Span {
	if sp.Len() == 0 {
		return fallback
	}
	return sp
}

// excerpt returns s on one line, cut to at most n runes.
func excerpt(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return "(blank)"
	}
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n]) + "…"
}

// maxWorkspaceSymbols bounds a workspace/symbol answer.
const maxWorkspaceSymbols = 500

// WorkspaceSymbols returns the nodes of every flow and the knowledge
// resources whose names contain query (case-insensitive).
func WorkspaceSymbols(snap *cache.Snapshot, query string, o Options) []protocol.SymbolInformation {
	q := strings.ToLower(query)
	match := func(s string) bool { return q == "" || strings.Contains(strings.ToLower(s), q) }
	var out []protocol.SymbolInformation
	for _, f := range snap.Files() {
		// The summary, not the tree: most files are closed, and their
		// trees are not kept.
		w := lineWalker{src: f.Src}
		for _, n := range snap.Summary(f).Nodes {
			if !match(n.Name) && !match(n.Title) {
				continue
			}
			sp := nameOr(n.NameSpan, n.Span)
			r := protocol.Range{Start: w.position(sp.Start, o.Encoding), End: w.position(sp.End, o.Encoding)}
			out = append(out, protocol.SymbolInformation{Name: n.Name, Kind: protocol.SymbolKindFunction,
				ContainerName: containerName(f), Location: protocol.Location{URI: f.URI, Range: r}})
			if len(out) >= maxWorkspaceSymbols {
				return out
			}
		}
	}
	for _, r := range snap.Resources() {
		if !match(r.Path) {
			continue
		}
		out = append(out, protocol.SymbolInformation{Name: "@" + r.Path, Kind: protocol.SymbolKindFile,
			ContainerName: "knowledge", Location: protocol.Location{URI: cache.FileURI(r.File)}})
		if len(out) >= maxWorkspaceSymbols {
			break
		}
	}
	return out
}

func containerName(f *cache.File) string {
	if f.Path == "" {
		return string(f.URI)
	}
	i := strings.LastIndexAny(f.Path, `/\`)
	return f.Path[i+1:]
}
