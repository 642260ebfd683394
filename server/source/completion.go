package source

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/protocol"
)

// Attribute documentation, shared by completion and hover.
var attrDocs = map[string]string{
	"model":       "Model configuration: `writer` (default), `agent`, or one defined in flowcabal.toml.",
	"temperature": "Sampling temperature of the model (0–2).",
	"max_tokens":  "Upper bound of tokens the model may generate.",
	"context":     "`auto` (default): Role A injects project context; `off`: none.",
	"budget":      "Role A token budget for the node's injected context.",
	"checks":      "Role C checkers to run on the output: continuity, character, timeline, world.",
	"retries":     "How many times Role C may send the node back (default 3).",
	"persist":     "Where curated output goes, e.g. \"manuscript/chapter-12\".",
	"refine":      "Recursive refinement: draft, critique, revise, up to N passes.",
	"candidates":  "Evolutionary iteration: candidates per generation.",
	"generations": "Evolutionary iteration: number of generations.",
	"select":      "Who picks among candidates: \"auto\" (Role C) or \"human\".",
	"max_cost":    "The most one run of this workflow may spend on model calls (flowcabal.toml's prices); a run stops before a call that would exceed it, resumable.",
}

var attrOrder = []string{"model", "temperature", "max_tokens", "context", "budget", "checks", "retries", "persist", "refine", "candidates", "generations", "select"}

var (
	attrNameLine  = regexp.MustCompile(`^[ \t]*([\p{L}_][\p{L}\p{N}_-]*)?$`)
	attrValueLine = regexp.MustCompile(`^[ \t]*([\p{L}_][\p{L}\p{N}_-]*)[ \t]*=[ \t]*(.*)$`)
)

// Completion returns the completion items at p.
func Completion(snap *cache.Snapshot, f *cache.File, p protocol.Position, o Options) (*protocol.CompletionList, error) {
	pf := snap.Parse(f)
	off, ok := Offset(pf, p, o.Encoding)
	if !ok {
		return nil, ErrOutOfRange
	}
	c := at(pf, off)
	src := pf.Src
	list := &protocol.CompletionList{Items: []protocol.CompletionItem{}}
	lineStart := bytes.LastIndexByte(src[:off], '\n') + 1
	line := string(src[lineStart:off])

	// Inside `{{`: references.
	if open, ok := openBraces(src, lineStart, off); ok {
		typed := strings.TrimLeft(string(src[open+2:off]), " \t")
		start, end := off-len(typed), off
		closing := !bytes.HasPrefix(bytes.TrimLeft(src[off:min(len(src), off+64)], " \t"), []byte("}}"))
		if r := c.Ref; r != nil && r.Kind != workflowlang.RefKnowledge && r.Inner.Start <= off && off <= r.Inner.End {
			// Inside a written reference: the choice replaces its name.
			start, end, closing = r.Inner.Start, r.Inner.End, false
		}
		editRange := Range(pf, workflowlang.Span{Start: start, End: end}, o.Encoding)
		edit := func(text string) *protocol.TextEdit {
			if closing {
				text += "}}"
			}
			return &protocol.TextEdit{Range: editRange, NewText: text}
		}
		switch {
		case strings.HasPrefix(typed, "@"):
			list.Items = knowledgeItems(snap, pf, start+1, off, closing, o)
		case strings.Contains(typed, "."):
			alias, _, _ := strings.Cut(typed, ".")
			list.Items = useItems(snap, pf, alias, edit, o)
		default:
			list.Items = refItems(snap, f, pf, c.Node, edit, o)
		}
		return list, nil
	}
	if c.Prompt != nil && off > c.Prompt.Body.Start && off <= c.Prompt.Body.End {
		return list, nil // prompt text: nothing to complete outside braces
	}

	// Attribute values and names inside a node or the workflow header.
	if c.Node != nil || c.Workflow != nil {
		if m := attrValueLine.FindStringSubmatch(line); m != nil {
			list.Items = valueItems(snap, m[1], m[2])
			return list, nil
		}
		if attrNameLine.MatchString(line) {
			list.Items = attrItems(c, o)
			return list, nil
		}
		return list, nil
	}
	if attrNameLine.MatchString(line) {
		list.Items = topLevelItems(o)
	}
	return list, nil
}

// openBraces finds an unclosed `{{` between lineStart and off (references
// do not span lines), returning the offset of its first brace.
func openBraces(src []byte, lineStart, off int) (int, bool) {
	seg := src[lineStart:off]
	i := bytes.LastIndex(seg, []byte("{{"))
	if i < 0 || bytes.Contains(seg[i:], []byte("}}")) {
		return 0, false
	}
	if i > 0 && seg[i-1] == '\\' {
		return 0, false // an escaped literal `\{{`
	}
	return lineStart + i, true
}

// refItems offers the nodes and inputs the current node may reference
// without creating a cycle: not itself and not any node that already
// depends on it.
func refItems(snap *cache.Snapshot, f *cache.File, pf *workflowlang.File, cur *workflowlang.Node, edit func(string) *protocol.TextEdit, o Options) []protocol.CompletionItem {
	banned := map[string]bool{}
	if cur != nil {
		res := snap.Check(f)
		dependents := map[string][]string{}
		for _, e := range res.Edges {
			dependents[e.From] = append(dependents[e.From], e.To)
		}
		stack := []string{cur.Name.Name}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if banned[n] {
				continue
			}
			banned[n] = true
			stack = append(stack, dependents[n]...)
		}
	}
	// The candidates depend on the file alone: built once per content.
	type cand struct {
		name, title string
		doc         any
		sort        string
	}
	cands := f.Memo(fmt.Sprintf("refcands/%v/%v", o.MarkdownDocs, o.ResolveDocs), func() any {
		var out []cand
		seen := map[string]bool{}
		for i, n := range pf.Nodes {
			name := n.Name.Name
			if name == "" || seen[name] {
				continue
			}
			seen[name] = true
			title := ""
			if n.Title != nil {
				title = n.Title.Value
			}
			var d any
			if !o.ResolveDocs {
				d = doc(promptPreview(n, 160), o)
			}
			out = append(out, cand{name, title, d, fmt.Sprintf("1%05d", i)})
		}
		return out
	}).([]cand)
	items := make([]protocol.CompletionItem, 0, len(cands)+len(pf.Inputs)+len(pf.Uses))
	for _, c := range cands {
		if banned[c.name] {
			continue
		}
		items = append(items, protocol.CompletionItem{
			Label: c.name, Kind: protocol.CompletionItemKindFunction, Detail: c.title,
			Documentation: c.doc, TextEdit: edit(c.name), SortText: c.sort,
			Data: ResolveData{URI: string(f.URI), Node: c.name},
		})
	}
	for i, in := range pf.Inputs {
		if banned[in.Name.Name] {
			continue
		}
		title := "input"
		if in.Title != nil {
			title = in.Title.Value
		}
		items = append(items, protocol.CompletionItem{Label: in.Name.Name, Kind: protocol.CompletionItemKindVariable,
			Detail: title, TextEdit: edit(in.Name.Name), SortText: fmt.Sprintf("0%05d", i)})
	}
	for i, u := range pf.Uses {
		if u.Alias.Name == "" {
			continue
		}
		items = append(items, protocol.CompletionItem{Label: u.Alias.Name, Kind: protocol.CompletionItemKindModule,
			Detail: "use " + u.Path.Value, SortText: fmt.Sprintf("2%05d", i),
			TextEdit: &protocol.TextEdit{Range: edit("").Range, NewText: u.Alias.Name + "."},
			Command:  &protocol.Command{Title: "suggest", Command: "editor.action.triggerSuggest"}})
	}
	return items
}

// useItems offers the nodes of the file used as alias.
func useItems(snap *cache.Snapshot, pf *workflowlang.File, alias string, edit func(string) *protocol.TextEdit, o Options) []protocol.CompletionItem {
	uf, ok := usedFile(snap, pf, useByAlias(pf, alias))
	if !ok {
		return nil
	}
	upf := snap.Parse(uf)
	var items []protocol.CompletionItem
	for i, n := range upf.Nodes {
		title := ""
		if n.Title != nil {
			title = n.Title.Value
		}
		label := alias + "." + n.Name.Name
		items = append(items, protocol.CompletionItem{Label: label, Kind: protocol.CompletionItemKindFunction,
			Detail: title, Documentation: doc(promptPreview(n, 400), o), TextEdit: edit(label),
			Data:       ResolveData{URI: string(uf.URI), Node: n.Name.Name},
			FilterText: label, SortText: fmt.Sprintf("%05d", i)})
	}
	return items
}

// knowledgeItems offers the project's resource paths after `{{@`.
func knowledgeItems(snap *cache.Snapshot, pf *workflowlang.File, start, off int, closing bool, o Options) []protocol.CompletionItem {
	rng := Range(pf, workflowlang.Span{Start: start, End: off}, o.Encoding)
	res := snap.Resources()
	items := make([]protocol.CompletionItem, 0, len(res))
	for i, r := range res {
		text := r.Path
		if closing {
			text += "}}"
		}
		items = append(items, protocol.CompletionItem{Label: r.Path, Kind: protocol.CompletionItemKindFile,
			Detail: fmt.Sprintf("knowledge · %d bytes", r.Size), FilterText: r.Path,
			TextEdit: &protocol.TextEdit{Range: rng, NewText: text}, SortText: fmt.Sprintf("%06d", i),
			Data: ResolveData{Resource: r.Path}})
	}
	if o.ResolveDocs {
		return items // documentation comes with completionItem/resolve
	}
	// Documentation (the L0 stand-in) is read from disk: only for the
	// first few, so that a project of thousands of files stays fast.
	for i := range items[:min(len(items), 50)] {
		if lead := res[i].Lead(); lead != "" {
			items[i].Documentation = doc("L0 (first lines): "+lead, o)
		}
	}
	return items
}

func attrItems(c cursor, o Options) []protocol.CompletionItem {
	set := map[string]bool{}
	var attrs []*workflowlang.Attr
	if c.Node != nil {
		attrs = c.Node.Attrs
	} else if c.Workflow != nil {
		attrs = c.Workflow.Attrs
	}
	for _, a := range attrs {
		if a != c.Attr {
			set[a.Key.Name] = true
		}
	}
	var items []protocol.CompletionItem
	for i, k := range attrOrder {
		if set[k] {
			continue
		}
		items = append(items, protocol.CompletionItem{Label: k, Kind: protocol.CompletionItemKindProperty,
			Documentation: doc(attrDocs[k], o), InsertText: k + " = ", SortText: fmt.Sprintf("1%03d", i)})
	}
	if c.Node != nil {
		for i, role := range []string{"system", "user"} {
			it := protocol.CompletionItem{Label: role, Kind: protocol.CompletionItemKindKeyword,
				Detail: role + " prompt", SortText: fmt.Sprintf("0%03d", i), InsertText: role + ` """`}
			if o.Snippets {
				it.InsertText = role + " \"\"\"\n  $0\n\"\"\""
				it.InsertTextFormat = protocol.InsertTextFormatSnippet
			}
			items = append(items, it)
		}
	}
	return items
}

func valueItems(snap *cache.Snapshot, key, typed string) []protocol.CompletionItem {
	var vals []string
	switch key {
	case "model":
		names := map[string]bool{"writer": true, "agent": true}
		if snap.Config != nil {
			for n := range snap.Config.Models {
				if n != "embedding" {
					names[n] = true
				}
			}
		}
		for n := range names {
			vals = append(vals, `"`+n+`"`)
		}
		sort.Strings(vals)
	case "context":
		vals = []string{"auto", "off"}
	case "select":
		vals = []string{`"auto"`, `"human"`}
	case "checks":
		vals = []string{`["continuity", "character", "timeline", "world"]`}
	case "persist":
		for _, r := range snap.Resources() {
			if strings.HasPrefix(r.Path, "manuscript/") {
				vals = append(vals, `"`+r.Path+`"`)
			}
		}
	}
	items := make([]protocol.CompletionItem, 0, len(vals))
	for i, v := range vals {
		items = append(items, protocol.CompletionItem{Label: v, Kind: protocol.CompletionItemKindValue,
			SortText: fmt.Sprintf("%04d", i)})
	}
	return items
}

func topLevelItems(o Options) []protocol.CompletionItem {
	type kw struct{ label, plain, snippet, detail string }
	kws := []kw{
		{"node", "node ", "node ${1:name} \"${2:title}\" {\n  user \"\"\"\n    $0\n  \"\"\"\n}", "a new node"},
		{"workflow", "workflow ", "workflow \"${1:title}\" {\n  budget = ${2:24000}\n}", "the workflow header"},
		{"use", "use ", "use \"${1:file.flow}\" as ${2:alias}", "a sub-workflow"},
		{"input", "input ", "input ${1:name} \"${2:what it is}\"", "an input of this workflow"},
	}
	items := make([]protocol.CompletionItem, 0, len(kws))
	for _, k := range kws {
		it := protocol.CompletionItem{Label: k.label, Kind: protocol.CompletionItemKindKeyword, Detail: k.detail, InsertText: k.plain}
		if o.Snippets {
			it.Kind = protocol.CompletionItemKindSnippet
			it.InsertText = k.snippet
			it.InsertTextFormat = protocol.InsertTextFormatSnippet
		}
		items = append(items, it)
	}
	return items
}

// promptPreview returns the beginning of a node's prompts.
func promptPreview(n *workflowlang.Node, limit int) string {
	var b strings.Builder
	for _, p := range n.Prompts {
		fmt.Fprintf(&b, "%s: ", p.Role)
		for _, blk := range p.Blocks {
			switch blk := blk.(type) {
			case *workflowlang.TextBlock:
				b.WriteString(blk.Text)
			case *workflowlang.Ref:
				b.WriteString("{{" + blk.Target() + "}}")
			}
		}
		b.WriteString("\n")
		if b.Len() > limit*4 {
			break
		}
	}
	s := strings.TrimSpace(b.String())
	if r := []rune(s); len(r) > limit {
		s = string(r[:limit]) + "…"
	}
	return s
}

// doc makes completion documentation: Markdown when the client reads it.
func doc(s string, o Options) any {
	if s == "" {
		return nil
	}
	if o.MarkdownDocs {
		return protocol.MarkupContent{Kind: protocol.Markdown, Value: s}
	}
	return s
}

// ResolveData travels in a completion item's data field, so that
// completionItem/resolve can add the documentation the list left out.
type ResolveData struct {
	URI      string `json:"uri,omitempty"`
	Node     string `json:"node,omitempty"`
	Resource string `json:"resource,omitempty"`
}

// ResolveCompletion fills in an item's documentation from its data.
func ResolveCompletion(snap *cache.Snapshot, item *protocol.CompletionItem, d ResolveData, o Options) {
	switch {
	case d.Resource != "":
		if r, ok := snap.Resource(d.Resource); ok {
			if lead := r.Lead(); lead != "" {
				item.Documentation = doc("L0 (first lines): "+lead, o)
			}
		}
	case d.URI != "" && d.Node != "":
		f, ok := snap.File(protocol.DocumentURI(d.URI))
		if !ok {
			return
		}
		if n := snap.Parse(f).Node(d.Node); n != nil {
			item.Documentation = doc(promptPreview(n, 400), o)
		}
	}
}
