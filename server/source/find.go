package source

import (
	"sort"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// A cursor says which syntax elements enclose an offset, innermost last.
type cursor struct {
	Off      int
	Workflow *workflowlang.Workflow
	Node     *workflowlang.Node
	Input    *workflowlang.Input
	Use      *workflowlang.Use
	Attr     *workflowlang.Attr
	Prompt   *workflowlang.Prompt
	Ref      *workflowlang.Ref
	// OnName is set when the offset touches a node's (or input's) name
	// in its declaration.
	OnName bool
}

// at finds what encloses off in f.
func at(f *workflowlang.File, off int) cursor {
	c := cursor{Off: off}
	// Items are in source order and do not overlap: only the last one
	// starting at or before off, and the one before it (when off sits on
	// the boundary between two), can contain it.
	i := sort.Search(len(f.Items), func(i int) bool { return f.Items[i].ItemSpan().Start > off })
	for _, it := range f.Items[max(0, i-2):i] {
		if !it.ItemSpan().Contains(off) {
			continue
		}
		switch it := it.(type) {
		case *workflowlang.Workflow:
			c.Workflow = it
			c.Attr = attrAt(it.Attrs, off)
		case *workflowlang.Node:
			if c.Node != nil && !it.Span.Contains(off) {
				continue
			}
			c.Node = it
			c.OnName = it.Name.Span.Len() > 0 && it.Name.Span.Contains(off)
			c.Attr = attrAt(it.Attrs, off)
			for _, p := range it.Prompts {
				if p.Span.Contains(off) {
					c.Prompt = p
					c.Ref = refAt(p.Blocks, off)
				}
			}
		case *workflowlang.Input:
			c.Input = it
			c.OnName = it.Name.Span.Len() > 0 && it.Name.Span.Contains(off)
			c.Attr = attrAt(it.Attrs, off)
			if c.Attr != nil {
				if tv, ok := c.Attr.Value.(*workflowlang.TextValue); ok {
					c.Ref = refAt(tv.Blocks, off)
				}
			}
		case *workflowlang.Use:
			c.Use = it
			c.Attr = attrAt(it.Args, off)
			if c.Attr != nil {
				if tv, ok := c.Attr.Value.(*workflowlang.TextValue); ok {
					c.Ref = refAt(tv.Blocks, off)
				}
			}
		}
	}
	return c
}

func attrAt(attrs []*workflowlang.Attr, off int) *workflowlang.Attr {
	for _, a := range attrs {
		if a.Span.Contains(off) {
			return a
		}
	}
	return nil
}

func refAt(blocks []workflowlang.Block, off int) *workflowlang.Ref {
	for _, b := range blocks {
		if r, ok := b.(*workflowlang.Ref); ok && r.Span.Contains(off) {
			return r
		}
	}
	return nil
}

// A refSite is a reference and the item that holds it.
type refSite struct {
	Ref  *workflowlang.Ref
	Node *workflowlang.Node // nil for references in use arguments and input defaults
}

// refsOf is allRefs of f's tree pf, made once per content of an open
// document. The slice is shared: callers must not modify it.
func refsOf(f *cache.File, pf *workflowlang.File) []refSite {
	return f.Memo("refs", func() any { return allRefs(pf) }).([]refSite)
}

// nodeOf is pf.Node(name) (the first node of that name) through an index
// made once per content of an open document: the call hierarchy looks
// nodes up by name in files of hundreds.
func nodeOf(f *cache.File, pf *workflowlang.File, name string) *workflowlang.Node {
	if !f.Open {
		return pf.Node(name)
	}
	m := f.Memo("nodes", func() any {
		m := make(map[string]*workflowlang.Node, len(pf.Nodes))
		for _, n := range pf.Nodes {
			if _, dup := m[n.Name.Name]; !dup {
				m[n.Name.Name] = n
			}
		}
		return m
	}).(map[string]*workflowlang.Node)
	return m[name]
}

// refKey is how refIndex files a reference: by what it names as written.
func refKey(r *workflowlang.Ref) string {
	switch r.Kind {
	case workflowlang.RefUse:
		return "u:" + r.Alias + "." + r.Name
	case workflowlang.RefKnowledge:
		return "k:" + r.Path
	default:
		return "n:" + r.Name
	}
}

// refIndex files f's references by refKey, and those through a `use` by
// "a:"+alias as well, each list in allRefs' order; made once per content
// of an open document, so that a highlight is a lookup, not a walk of
// every reference of a long workflow.
func refIndex(f *cache.File, pf *workflowlang.File) map[string][]refSite {
	return f.Memo("refIndex", func() any {
		m := map[string][]refSite{}
		for _, r := range refsOf(f, pf) {
			k := refKey(r.Ref)
			m[k] = append(m[k], r)
			if r.Ref.Kind == workflowlang.RefUse {
				m["a:"+r.Ref.Alias] = append(m["a:"+r.Ref.Alias], r)
			}
		}
		return m
	}).(map[string][]refSite)
}

// allRefs lists every reference of f: in node prompts, in `use`
// arguments and in input defaults, in source order of their items.
func allRefs(f *workflowlang.File) []refSite {
	var out []refSite
	eachRef(f, func(r refSite) { out = append(out, r) })
	return out
}

// eachRef calls fn with every reference of f, in allRefs' order, without
// collecting them: for files read once (closed files searched for uses).
func eachRef(f *workflowlang.File, fn func(refSite)) {
	textRefs := func(attrs []*workflowlang.Attr) {
		for _, a := range attrs {
			if tv, ok := a.Value.(*workflowlang.TextValue); ok {
				for _, b := range tv.Blocks {
					if r, ok := b.(*workflowlang.Ref); ok {
						fn(refSite{Ref: r})
					}
				}
			}
		}
	}
	for _, it := range f.Items {
		switch it := it.(type) {
		case *workflowlang.Node:
			for _, p := range it.Prompts {
				for _, b := range p.Blocks {
					if r, ok := b.(*workflowlang.Ref); ok {
						fn(refSite{Ref: r, Node: it})
					}
				}
			}
		case *workflowlang.Use:
			textRefs(it.Args)
		case *workflowlang.Input:
			textRefs(it.Attrs)
		}
	}
}

// declared reports whether name is a node or an input of f.
func declared(f *workflowlang.File, name string) bool {
	return declSpan(f, name) != nil
}

// declSpan returns the name span of the node or input called name.
func declSpan(f *workflowlang.File, name string) *workflowlang.Span {
	for _, n := range f.Nodes {
		if n.Name.Name == name {
			return &n.Name.Span
		}
	}
	for _, in := range f.Inputs {
		if in.Name.Name == name {
			return &in.Name.Span
		}
	}
	return nil
}
