package workflowlang

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
)

// maxUseDepth caps the chain of files using each other.
const maxUseDepth = 64

// checker holds the state of one Check.
type checker struct {
	f     *File
	env   Env
	res   *Result
	names map[string]int // node or input name -> index into decls
	decls []decl

	declNameList []string
	// suggestBudget bounds the edit-distance work of "did you mean" so
	// that a file full of unknown names stays linear.
	suggestBudget int

	resources      []string
	resourcesReady bool
	knowledge      map[string]knowledgeResult

	loaded   map[string]*loadedFile     // by resolved path
	useNodes map[string]map[string]bool // alias -> node names of the used file
}

type decl struct {
	name  Ident
	node  *Node  // nil for an input
	input *Input // nil for a node
	index int    // source index among nodes, -1 for inputs
	used  bool
}

type knowledgeResult struct {
	clean string
	err   error
	found bool
	sugg  []string
}

type loadedFile struct {
	file  *File
	err   error
	nodes map[string]bool
	// state of the use-cycle search: 0 new, 1 on the stack, 2 done.
	state int
	cycle []string // a use cycle reachable from this file, if any
}

// Check resolves f's references against env and applies every static
// rule. The returned diagnostics include f's syntax diagnostics.
func Check(f *File, env Env) *Result {
	c := &checker{
		f:             f,
		env:           env,
		res:           &Result{File: f, Uses: map[string]*File{}},
		names:         make(map[string]int, len(f.Nodes)+len(f.Inputs)),
		decls:         make([]decl, 0, len(f.Nodes)+len(f.Inputs)),
		suggestBudget: 4_000_000,
		knowledge:     map[string]knowledgeResult{},
		loaded:        map[string]*loadedFile{},
		useNodes:      map[string]map[string]bool{},
	}
	c.res.Diagnostics = append(make([]Diagnostic, 0, len(f.Diagnostics)+8), f.Diagnostics...)
	c.declare()
	c.checkUses()
	c.checkAttrs()
	c.resolveRefs()
	c.dag()
	c.unused()
	c.budgets()
	sortDiagnostics(c.res.Diagnostics)
	return c.res
}

func (c *checker) report(d Diagnostic) {
	if d.Severity == 0 {
		d.Severity = SeverityError
	}
	c.res.Diagnostics = append(c.res.Diagnostics, d)
}

// declare collects the names of nodes and inputs and reports duplicates.
func (c *checker) declare() {
	add := func(d decl, what string) {
		if d.name.Name == "" {
			return
		}
		if i, dup := c.names[d.name.Name]; dup {
			first := c.decls[i]
			kind := "a node"
			if first.input != nil {
				kind = "an input"
			}
			c.report(Diagnostic{Span: d.name.Span, Code: CodeDuplicateNode,
				Message: fmt.Sprintf("duplicate %s %s: %s of that name is already declared", what, d.name.Name, kind),
				Related: []Related{{Span: first.name.Span, Message: "first declared here"}}})
			return
		}
		c.names[d.name.Name] = len(c.decls)
		c.decls = append(c.decls, d)
	}
	// Inputs and nodes share one namespace; declarations are taken in
	// source order so that "first declared" is the earlier one.
	ni, ii := 0, 0
	for ni < len(c.f.Nodes) || ii < len(c.f.Inputs) {
		if ii < len(c.f.Inputs) && (ni >= len(c.f.Nodes) || c.f.Inputs[ii].Span.Start < c.f.Nodes[ni].Span.Start) {
			in := c.f.Inputs[ii]
			add(decl{name: in.Name, input: in, index: -1}, "input")
			ii++
			continue
		}
		n := c.f.Nodes[ni]
		add(decl{name: n.Name, node: n, index: ni}, "node")
		ni++
	}
	var first *Workflow
	for _, it := range c.f.Items {
		w, ok := it.(*Workflow)
		if !ok {
			continue
		}
		if first == nil {
			first = w
			continue
		}
		c.report(Diagnostic{Span: Span{w.Span.Start, w.Span.Start + len("workflow")}, Code: CodeDuplicateHeader,
			Message: "a file has at most one workflow header",
			Related: []Related{{Span: Span{first.Span.Start, first.Span.Start + len("workflow")}, Message: "first header here"}}})
	}
}

// cleanRel is the project's path rule (project.CleanRel) restated here so
// that workflowlang depends on nothing of FlowCabal: a slash-separated
// relative path that stays inside the project.
func cleanRel(rel string) (string, error) {
	switch {
	case rel == "":
		return "", errors.New("empty path")
	case strings.ContainsRune(rel, 0) || strings.Contains(rel, `\`):
		return "", fmt.Errorf("%q has a NUL byte or a backslash", rel)
	case strings.HasPrefix(rel, "/") || (len(rel) > 1 && rel[1] == ':') || filepath.VolumeName(rel) != "":
		return "", fmt.Errorf("%q is absolute", rel)
	}
	cl := path.Clean(rel)
	if cl == ".." || strings.HasPrefix(cl, "../") {
		return "", fmt.Errorf("%q leaves the project", rel)
	}
	return cl, nil
}

// useTarget resolves a use path against the using file, slash-separated.
// It refuses paths that leave the project: absolute ones always, and ones
// that climb above the project root (env.Root when the file's path is
// absolute, else the file's path is taken relative to the root).
func (c *checker) useTarget(from, use string) (string, error) {
	if use == "" {
		return "", errors.New("empty path")
	}
	if strings.ContainsRune(use, 0) || strings.Contains(use, `\`) || strings.HasPrefix(use, "/") ||
		(len(use) > 1 && use[1] == ':') {
		return "", fmt.Errorf("%q is absolute or not a plain relative path", use)
	}
	from = filepath.ToSlash(from)
	joined := path.Join(path.Dir(from), use)
	if root := filepath.ToSlash(c.env.Root); root != "" && path.IsAbs(joined) {
		rel, err := filepath.Rel(c.env.Root, filepath.FromSlash(joined))
		if err != nil || rel == ".." || strings.HasPrefix(filepath.ToSlash(rel), "../") {
			return "", fmt.Errorf("%q leaves the project", use)
		}
		return joined, nil
	}
	if !path.IsAbs(joined) && (joined == ".." || strings.HasPrefix(joined, "../")) {
		return "", fmt.Errorf("%q leaves the project", use)
	}
	return joined, nil
}

// load parses the file a use names, once per resolved path.
func (c *checker) load(from, use, target string) *loadedFile {
	if lf, ok := c.loaded[target]; ok {
		return lf
	}
	lf := &loadedFile{}
	c.loaded[target] = lf
	if c.env.Load == nil {
		return lf
	}
	f, err := c.env.Load(from, use)
	if err != nil {
		lf.err = err
		return lf
	}
	if f == nil {
		lf.err = fs.ErrNotExist
		return lf
	}
	lf.file = f
	lf.nodes = make(map[string]bool, len(f.Nodes))
	for _, n := range f.Nodes {
		lf.nodes[n.Name.Name] = true
	}
	return lf
}

// findCycle explores the uses of lf depth-first and returns a cycle of
// paths (first == last) when one is reachable.
func (c *checker) findCycle(path string, lf *loadedFile, stack []string) []string {
	if lf.file == nil || lf.state == 2 {
		return lf.cycle
	}
	if lf.state == 1 {
		for i, p := range stack {
			if p == path {
				return append(append([]string(nil), stack[i:]...), path)
			}
		}
		return nil
	}
	if len(stack) >= maxUseDepth {
		return nil
	}
	lf.state = 1
	stack = append(stack, path)
	for _, u := range lf.file.Uses {
		target, err := c.useTarget(lf.file.Path, u.Path.Value)
		if err != nil {
			continue
		}
		sub := c.load(lf.file.Path, u.Path.Value, target)
		if cyc := c.findCycle(target, sub, stack); cyc != nil {
			lf.cycle = cyc
			break
		}
	}
	lf.state = 2
	return lf.cycle
}

func (c *checker) checkUses() {
	aliases := map[string]*Use{}
	self := filepath.ToSlash(c.f.Path)
	for _, u := range c.f.Uses {
		if u.Alias.Name != "" {
			if first, dup := aliases[u.Alias.Name]; dup {
				c.report(Diagnostic{Span: u.Alias.Span, Code: CodeDuplicateAlias,
					Message: fmt.Sprintf("duplicate alias %s", u.Alias.Name),
					Related: []Related{{Span: first.Alias.Span, Message: "first used here"}}})
			} else {
				aliases[u.Alias.Name] = u
				c.res.Uses[u.Alias.Name] = nil
			}
		}
		if u.Path.Span.Len() == 0 {
			continue // a syntax error was reported
		}
		target, err := c.useTarget(c.f.Path, u.Path.Value)
		if err != nil {
			c.report(Diagnostic{Span: u.Path.Span, Code: CodeBadPath, Message: fmt.Sprintf("use path outside the project: %v", err)})
			continue
		}
		if c.env.Load == nil {
			continue
		}
		if target == path.Clean(self) {
			c.report(Diagnostic{Span: u.Path.Span, Code: CodeUseCycle, Message: fmt.Sprintf("use cycle: %s uses itself", u.Path.Value)})
			continue
		}
		lf := c.load(c.f.Path, u.Path.Value, target)
		if lf.err != nil {
			if errors.Is(lf.err, fs.ErrNotExist) {
				c.report(Diagnostic{Span: u.Path.Span, Code: CodeMissingUse, Message: fmt.Sprintf("no such workflow file %s", u.Path.Value)})
			} else {
				c.report(Diagnostic{Span: u.Path.Span, Code: CodeMissingUse, Message: fmt.Sprintf("cannot load %s: %v", u.Path.Value, lf.err)})
			}
			continue
		}
		if lf.file == nil {
			continue
		}
		if aliases[u.Alias.Name] == u {
			c.res.Uses[u.Alias.Name] = lf.file
			c.useNodes[u.Alias.Name] = lf.nodes
		}
		// A cycle through this file, or among the files it uses.
		c.loaded[path.Clean(self)] = &loadedFile{file: c.f, state: 1}
		if cyc := c.findCycle(target, lf, []string{path.Clean(self)}); cyc != nil {
			c.report(Diagnostic{Span: u.Path.Span, Code: CodeUseCycle, Message: "use cycle: " + strings.Join(baseNames(cyc), " → ")})
		}
		delete(c.loaded, path.Clean(self))
		c.checkArgs(u, lf.file)
	}
}

func baseNames(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = path.Base(p)
	}
	return out
}

// checkArgs matches a use's arguments with the used file's inputs.
func (c *checker) checkArgs(u *Use, f *File) {
	inputs := map[string]*Input{}
	var names []string
	for _, in := range f.Inputs {
		inputs[in.Name.Name] = in
		names = append(names, in.Name.Name)
	}
	given := map[string]bool{}
	for _, a := range u.Args {
		if given[a.Key.Name] {
			continue // duplicate-attr reports it
		}
		given[a.Key.Name] = true
		if inputs[a.Key.Name] == nil {
			d := Diagnostic{Span: a.Key.Span, Code: CodeUnknownInput,
				Message: fmt.Sprintf("%s declares no input %s", u.Path.Value, a.Key.Name)}
			c.suggest(&d, a.Key.Name, names)
			c.report(d)
		}
		switch a.Value.(type) {
		case *TextValue, *StringValue, nil:
		default:
			c.report(Diagnostic{Span: a.Value.ValueSpan(), Code: CodeAttrType,
				Message: fmt.Sprintf("input %s takes text: a \"string\" or a \"\"\"block\"\"\"", a.Key.Name)})
		}
	}
	for _, in := range f.Inputs {
		if !given[in.Name.Name] && in.Name.Name != "" && findAttr(in.Attrs, "default") == nil {
			c.report(Diagnostic{Span: u.Alias.Span, Code: CodeMissingInput,
				Message: fmt.Sprintf("%s needs input %s (it has no default)", u.Path.Value, in.Name.Name)})
		}
	}
}

// resolveRefs resolves every reference and records the DAG's edges.
func (c *checker) resolveRefs() {
	n := 0
	for _, nd := range c.f.Nodes {
		for _, p := range nd.Prompts {
			n += len(p.Blocks) / 2
		}
	}
	c.res.Edges = make([]Edge, 0, n)
	for i, n := range c.f.Nodes {
		// Only the first declaration of a name is a vertex of the DAG.
		first := n.Name.Name != "" && c.decls[c.names[n.Name.Name]].index == i
		for _, p := range n.Prompts {
			for _, b := range p.Blocks {
				r, ok := b.(*Ref)
				if !ok {
					continue
				}
				if r.Kind == RefNode && r.Name == n.Name.Name && n.Name.Name != "" {
					c.report(Diagnostic{Span: r.Span, Code: CodeSelfRef,
						Message: fmt.Sprintf("node %s references its own output", r.Name)})
					continue
				}
				if c.resolve(r) && first && r.Kind == RefNode {
					c.res.Edges = append(c.res.Edges, Edge{From: r.Name, To: n.Name.Name, Ref: r})
				}
			}
		}
	}
	texts := func(attrs []*Attr) {
		for _, a := range attrs {
			if tv, ok := a.Value.(*TextValue); ok {
				for _, b := range tv.Blocks {
					if r, ok := b.(*Ref); ok {
						c.resolve(r)
					}
				}
			}
		}
	}
	for _, u := range c.f.Uses {
		texts(u.Args)
	}
	for _, in := range c.f.Inputs {
		texts(in.Attrs)
	}
}

// resolve checks one reference and reports whether it names something.
func (c *checker) resolve(r *Ref) bool {
	switch r.Kind {
	case RefNode:
		if i, ok := c.names[r.Name]; ok {
			c.decls[i].used = true
			return true
		}
		d := Diagnostic{Span: r.NameSpan, Code: CodeUnknownRef,
			Message: fmt.Sprintf("unknown reference {{%s}}: no node or input %s", r.Name, r.Name)}
		c.suggest(&d, r.Name, c.declNames())
		c.report(d)
	case RefUse:
		u, ok := c.res.Uses[r.Alias]
		if !ok {
			d := Diagnostic{Span: r.AliasSpan, Code: CodeUnknownAlias,
				Message: fmt.Sprintf("unknown alias %s in {{%s}}: no use … as %s", r.Alias, r.Target(), r.Alias)}
			var aliases []string
			for a := range c.res.Uses {
				aliases = append(aliases, a)
			}
			c.suggest(&d, r.Alias, aliases)
			c.report(d)
			return false
		}
		if u == nil {
			return false // the use itself is broken and reported
		}
		if c.useNodes[r.Alias][r.Name] {
			return true
		}
		d := Diagnostic{Span: r.NameSpan, Code: CodeUnknownUseNode,
			Message: fmt.Sprintf("%s has no node %s", r.Alias, r.Name)}
		var names []string
		for _, n := range u.Nodes {
			names = append(names, n.Name.Name)
		}
		c.suggest(&d, r.Name, names)
		c.report(d)
	case RefKnowledge:
		k := c.knowledgeOf(r.Path)
		if k.err != nil {
			c.report(Diagnostic{Span: r.PathSpan, Code: CodeBadPath,
				Message: fmt.Sprintf("knowledge reference outside the project: %v", k.err)})
			return false
		}
		if k.found {
			return true
		}
		d := Diagnostic{Span: r.PathSpan, Code: CodeMissingKnowledge,
			Message: fmt.Sprintf("no project resource %s", k.clean), Suggestions: k.sugg}
		if len(k.sugg) > 0 {
			d.Message += "; did you mean " + strings.Join(k.sugg, ", ") + "?"
		}
		c.report(d)
	}
	return false
}

func (c *checker) knowledgeOf(p string) knowledgeResult {
	if k, ok := c.knowledge[p]; ok {
		return k
	}
	var k knowledgeResult
	k.clean, k.err = cleanRel(p)
	if k.err == nil {
		k.found = c.env.Resource == nil || c.env.Resource(k.clean)
		if !k.found && c.env.Resources != nil {
			if !c.resourcesReady {
				c.resources = c.env.Resources()
				c.resourcesReady = true
			}
			k.sugg = c.closest(k.clean, c.resources, true)
		}
	}
	c.knowledge[p] = k
	return k
}

func (c *checker) declNames() []string {
	if c.declNameList == nil {
		c.declNameList = make([]string, len(c.decls))
		for i, d := range c.decls {
			c.declNameList[i] = d.name.Name
		}
	}
	return c.declNameList
}

// suggest adds "did you mean" candidates to d.
func (c *checker) suggest(d *Diagnostic, name string, cands []string) {
	d.Suggestions = c.closest(name, cands, false)
	if len(d.Suggestions) > 0 {
		d.Message += "; did you mean " + strings.Join(d.Suggestions, ", ") + "?"
	}
}
