package cache

import (
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/flowcabal/flowcabal/workflowlang"
)

// A Summary is what the rest of the workspace reads of a file without its
// syntax tree: its nodes, its uses and the names it references in other
// files. It is made once per content and, for a closed file, kept instead
// of the tree: a few kilobytes for a 200-node file whose tree takes
// hundreds. Features that need more (the sites of a reference, prompts)
// use it to pick the few files worth parsing.
type Summary struct {
	Nodes []SummaryNode // in source order, duplicates included
	Uses  []SummaryUse  // in source order
	// Knowledge are the file's {{@path}} references, in source order
	// item by item (as a walk of nodes' prompts, use arguments and input
	// defaults meets them): where a rename of the resource edits the file.
	Knowledge []Site

	// targets are the sorted, distinct cross-file references of the
	// file: "alias.node" for {{alias.node}}, "@path" for {{@path}}.
	targets []string

	// skeleton is a tree with the file's path and uses and nothing else:
	// all that Check reads of a file used indirectly.
	skeleton *workflowlang.File
}

// A SummaryNode is a node's declaration.
type SummaryNode struct {
	Name     string
	Title    string // empty when there is none
	Span     workflowlang.Span
	NameSpan workflowlang.Span
}

// A SummaryUse is a `use` declaration.
type SummaryUse struct {
	Path  string // as written
	Alias string
	Args  []string // the inputs its arguments fill
	// Target is the absolute path of the file it names, cleaned; empty
	// when the using file has no absolute path (an untitled document).
	Target string
	// At is where the path is written, between its quotes.
	At Site
}

// A Site is where a file writes a path: a resource's after {{@, or a used
// file's. Its line is kept so that an edit of it can be given as an LSP
// range without the tree of a closed file (or a scan of its lines).
type Site struct {
	Path      string // as written: "meta/style-guide", "act-2.flow"
	Span      workflowlang.Span
	Line      int // of Span.Start, from 0
	LineStart int // the offset where that line starts
	// Col16 and End16 are the UTF-16 columns of the span's ends, on Line
	// (End16 is -1 when the span leaves its line): what every editor
	// but a UTF-8 one counts in, so that a rename's answer writes them
	// without reading the line.
	Col16, End16 int
}

// References reports whether the file writes {{alias.node}}.
func (s *Summary) References(alias, node string) bool {
	_, ok := slices.BinarySearch(s.targets, alias+"."+node)
	return ok
}

// ReferencesKnowledge reports whether the file writes {{@path}} (at any
// level).
func (s *Summary) ReferencesKnowledge(path string) bool {
	_, ok := slices.BinarySearch(s.targets, "@"+path)
	return ok
}

// Summary returns the summary of f, made once per content.
func (s *Snapshot) Summary(f *File) *Summary {
	c := f.parsed
	c.sumOnce.Do(func() { c.sum = summarize(s.Parse(f)) })
	return c.sum
}

func summarize(pf *workflowlang.File) *Summary {
	sum := &Summary{Nodes: make([]SummaryNode, 0, len(pf.Nodes))}
	skel := &workflowlang.File{Path: pf.Path}
	m := pf.Mapper()
	site := func(path string, sp workflowlang.Span) Site {
		start, end := m.Position(sp.Start, workflowlang.UTF16), m.Position(sp.End, workflowlang.UTF16)
		end16 := end.Col
		if end.Line != start.Line {
			end16 = -1
		}
		return Site{Path: path, Span: sp, Line: start.Line, LineStart: m.LineStart(start.Line), Col16: start.Col, End16: end16}
	}
	ref := func(r *workflowlang.Ref) {
		switch r.Kind {
		case workflowlang.RefUse:
			sum.targets = append(sum.targets, r.Alias+"."+r.Name)
		case workflowlang.RefKnowledge:
			sum.targets = append(sum.targets, "@"+r.Path)
			sum.Knowledge = append(sum.Knowledge, site(r.Path, r.PathSpan))
		}
	}
	texts := func(attrs []*workflowlang.Attr) {
		for _, a := range attrs {
			if tv, ok := a.Value.(*workflowlang.TextValue); ok {
				for _, b := range tv.Blocks {
					if r, ok := b.(*workflowlang.Ref); ok {
						ref(r)
					}
				}
			}
		}
	}
	for _, it := range pf.Items {
		switch it := it.(type) {
		case *workflowlang.Node:
			n := SummaryNode{Name: it.Name.Name, Span: it.Span, NameSpan: it.Name.Span}
			if it.Title != nil {
				n.Title = it.Title.Value
			}
			sum.Nodes = append(sum.Nodes, n)
			for _, r := range it.Refs() {
				ref(r)
			}
		case *workflowlang.Use:
			u := SummaryUse{Path: it.Path.Value, Alias: it.Alias.Name, At: site(it.Path.Value, unquoted(pf.Src, it.Path.Span))}
			if filepath.IsAbs(pf.Path) {
				// Resolved once here, not by every feature that asks
				// which files use which.
				u.Target = usePath(pf.Path, it.Path.Value)
			}
			for _, a := range it.Args {
				u.Args = append(u.Args, a.Key.Name)
			}
			sum.Uses = append(sum.Uses, u)
			skel.Uses = append(skel.Uses, &workflowlang.Use{Span: it.Span, Path: it.Path, Alias: it.Alias})
			texts(it.Args)
		case *workflowlang.Input:
			texts(it.Attrs)
		}
	}
	slices.Sort(sum.targets)
	sum.targets = slices.Clip(slices.Compact(sum.targets))
	sum.skeleton = skel
	sum.pack()
	return sum
}

// pack copies the summary's strings into one. They are substrings of the
// parser's copy of the whole text, which they would otherwise keep alive.
func (s *Summary) pack() {
	var fields []*string
	for i := range s.Nodes {
		fields = append(fields, &s.Nodes[i].Name, &s.Nodes[i].Title)
	}
	for i := range s.Uses {
		u := &s.Uses[i]
		fields = append(fields, &u.Path, &u.Alias)
		for j := range u.Args {
			fields = append(fields, &u.Args[j])
		}
	}
	for i := range s.targets {
		fields = append(fields, &s.targets[i])
	}
	for i := range s.Knowledge {
		fields = append(fields, &s.Knowledge[i].Path)
	}
	for i := range s.Uses {
		fields = append(fields, &s.Uses[i].At.Path)
	}
	for _, u := range s.skeleton.Uses {
		fields = append(fields, &u.Path.Value, &u.Alias.Name)
	}
	n := 0
	for _, p := range fields {
		n += len(*p)
	}
	var b strings.Builder
	b.Grow(n)
	for _, p := range fields {
		b.WriteString(*p)
	}
	all, off := b.String(), 0
	for _, p := range fields {
		l := len(*p)
		*p = all[off : off+l]
		off += l
	}
}

// unquoted is the text of the string literal at sp without its quotes.
func unquoted(src []byte, sp workflowlang.Span) workflowlang.Span {
	if sp.Len() >= 2 && sp.End <= len(src) && src[sp.Start] == '"' && src[sp.End-1] == '"' {
		return workflowlang.Span{Start: sp.Start + 1, End: sp.End - 1}
	}
	return sp
}

// recentTrees is how many trees of closed files a workspace keeps alive
// beyond those someone holds: enough for the used file of the document
// being edited and a request's neighbours, few enough to be negligible.
const recentTrees = 4

// A treeCache keeps the trees of the closed files parsed last alive, so
// that a burst of requests (or the check after each keystroke) reading the
// same used file does not parse it every time.
type treeCache struct {
	mu    sync.Mutex
	trees []*workflowlang.File // least recent first
}

// touch records t as the most recently used tree.
func (c *treeCache) touch(t *workflowlang.File) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if i := slices.Index(c.trees, t); i >= 0 {
		copy(c.trees[i:], c.trees[i+1:])
		c.trees[len(c.trees)-1] = t
		return
	}
	if len(c.trees) < recentTrees {
		c.trees = append(c.trees, t)
		return
	}
	copy(c.trees, c.trees[1:])
	c.trees[len(c.trees)-1] = t
}
