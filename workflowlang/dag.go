package workflowlang

import (
	"container/heap"
	"fmt"
	"strings"
)

// graph is the DAG of a file's nodes in compressed adjacency form: the
// vertices are node indices (first declarations only), edges run from the
// referenced node to the referencing one (the direction data flows).
type graph struct {
	start []int // out-edges of v are out[start[v]:start[v+1]]
	out   []int // edge indices into Result.Edges
	to    []int // target vertex of each edge
	from  []int // source vertex of each edge
}

func (c *checker) vertex(name string) int {
	i, ok := c.names[name]
	if !ok {
		return -1
	}
	return c.decls[i].index
}

func (c *checker) buildGraph() *graph {
	n := len(c.f.Nodes)
	g := &graph{start: make([]int, n+2), to: make([]int, len(c.res.Edges)), from: make([]int, len(c.res.Edges))}
	for i, e := range c.res.Edges {
		g.from[i], g.to[i] = c.vertex(e.From), c.vertex(e.To)
		if g.from[i] >= 0 {
			g.start[g.from[i]+2]++
		}
	}
	for v := 2; v < len(g.start); v++ {
		g.start[v] += g.start[v-1]
	}
	g.out = make([]int, g.start[n+1])
	for i := range c.res.Edges {
		if v := g.from[i]; v >= 0 {
			g.out[g.start[v+1]] = i
			g.start[v+1]++
		}
	}
	g.start = g.start[:n+1]
	return g
}

// intHeap is a min-heap of vertex indices: Kahn's algorithm picks the
// earliest node in source order among those ready.
type intHeap []int

func (h intHeap) Len() int           { return len(h) }
func (h intHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h intHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *intHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *intHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// dag computes the Kahn order and the levels and reports cycles.
func (c *checker) dag() {
	nodes := c.f.Nodes
	n := len(nodes)
	isVertex := make([]bool, n)
	for _, d := range c.decls {
		if d.node != nil {
			isVertex[d.index] = true
		}
	}
	g := c.buildGraph()
	indeg := make([]int, n)
	for i := range c.res.Edges {
		if g.from[i] >= 0 && g.to[i] >= 0 {
			indeg[g.to[i]]++
		}
	}
	h := make(intHeap, 0, n)
	for v := 0; v < n; v++ {
		if isVertex[v] && indeg[v] == 0 {
			h = append(h, v) // already in heap order
		}
	}
	level := make([]int, n)
	order := make([]int, 0, n)
	maxLevel := -1
	for h.Len() > 0 {
		v := heap.Pop(&h).(int)
		order = append(order, v)
		maxLevel = max(maxLevel, level[v])
		for _, e := range g.out[g.start[v]:g.start[v+1]] {
			w := g.to[e]
			if w < 0 {
				continue
			}
			level[w] = max(level[w], level[v]+1)
			if indeg[w]--; indeg[w] == 0 {
				heap.Push(&h, w)
			}
		}
	}
	c.res.Order = make([]string, len(order))
	for i, v := range order {
		c.res.Order[i] = nodes[v].Name.Name
	}
	if maxLevel >= 0 {
		c.res.Levels = make([][]string, maxLevel+1)
		done := make([]bool, n)
		for _, v := range order {
			done[v] = true
		}
		for v := 0; v < n; v++ {
			if done[v] {
				c.res.Levels[level[v]] = append(c.res.Levels[level[v]], nodes[v].Name.Name)
			}
		}
	}
	if len(order) < countTrue(isVertex) {
		c.cycles(g, indeg, isVertex)
	}
}

func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// Caps of a cycle diagnostic.
const (
	maxCycleNames   = 40
	maxCycleRelated = 100
)

// frame is a vertex on the depth-first search stack with the position
// of its next out-edge.
type frame struct{ v, next int }

// cycles finds the cycles among the vertices Kahn's algorithm left, with
// an iterative depth-first search, and reports each once with its whole
// path. A node is reported in at most one cycle.
func (c *checker) cycles(g *graph, indeg []int, isVertex []bool) {
	n := len(isVertex)
	const (
		white = iota
		gray
		black
	)
	color := make([]uint8, n)
	reported := make([]bool, n)
	var stack []frame
	var onPath []int // vertex -> position on the stack is implied by stack order
	pos := make([]int, n)
	for root := 0; root < n; root++ {
		if !isVertex[root] || indeg[root] == 0 || color[root] != white {
			continue
		}
		stack = append(stack[:0], frame{root, g.start[root]})
		onPath = append(onPath[:0], root)
		color[root] = gray
		pos[root] = 0
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next == g.start[top.v+1] {
				color[top.v] = black
				stack = stack[:len(stack)-1]
				onPath = onPath[:len(onPath)-1]
				continue
			}
			e := g.out[top.next]
			top.next++
			w := g.to[e]
			if w < 0 || indeg[w] == 0 {
				continue
			}
			switch color[w] {
			case white:
				color[w] = gray
				pos[w] = len(onPath)
				onPath = append(onPath, w)
				stack = append(stack, frame{w, g.start[w]})
			case gray:
				cyc := onPath[pos[w]:]
				skip := false
				for _, v := range cyc {
					skip = skip || reported[v]
				}
				if !skip {
					for _, v := range cyc {
						reported[v] = true
					}
					c.reportCycle(g, cyc, stack[pos[w]:], e)
				}
			}
		}
	}
}

// reportCycle reports the cycle cyc (vertices in data-flow order), whose
// edges are the current edges of the frames plus the closing edge.
func (c *checker) reportCycle(g *graph, cyc []int, frames []frame, closing int) {
	k := len(cyc)
	edges := make([]int, k)
	for i := 0; i < k-1; i++ {
		f := frames[i]
		edges[i] = g.out[f.next-1]
	}
	edges[k-1] = closing
	// Rotate so that the cycle starts at its earliest node.
	r := 0
	for i, v := range cyc {
		if v < cyc[r] {
			r = i
		}
	}
	names := make([]string, 0, k+1)
	related := make([]Related, 0, k)
	for i := 0; i < k; i++ {
		j := (r + i) % k
		names = append(names, c.f.Nodes[cyc[j]].Name.Name)
		e := c.res.Edges[edges[j]]
		related = append(related, Related{Span: e.Ref.Span, Message: fmt.Sprintf("%s uses %s here", e.To, e.From)})
	}
	names = append(names, names[0])
	// A huge cycle is named by its ends; every edge is still related up
	// to a cap, so that the message stays readable.
	if len(names) > maxCycleNames {
		n := len(names)
		names = append(append(names[:maxCycleNames/2:maxCycleNames/2], fmt.Sprintf("… %d more …", n-maxCycleNames)), names[n-maxCycleNames/2:]...)
	}
	if len(related) > maxCycleRelated {
		related = related[:maxCycleRelated]
	}
	// The primary location: the reference inside the earliest node that
	// closes the cycle.
	last := c.res.Edges[edges[(r+k-1)%k]]
	c.report(Diagnostic{Span: last.Ref.Span, Code: CodeCycle,
		Message: "cycle: " + strings.Join(names, " → ") + " (each node's output feeds the next)",
		Related: related})
}

// unused reports nodes nothing references. A node is used when another
// node, a use argument or an input default references it; the last node
// of the file and nodes that persist their output are the workflow's
// results and are never unused.
func (c *checker) unused() {
	if len(c.f.Nodes) == 0 {
		return
	}
	last := c.f.Nodes[len(c.f.Nodes)-1]
	for _, d := range c.decls {
		if d.node == nil || d.used || d.node == last || d.node.Attr("persist") != nil {
			continue
		}
		c.report(Diagnostic{Span: d.name.Span, Severity: SeverityHint, Code: CodeUnusedNode,
			Message: fmt.Sprintf("node %s is unused: no node references {{%s}}, it is not the last node and it does not persist", d.name.Name, d.name.Name)})
	}
}

func intAttr(attrs []*Attr, key string) int {
	a := findAttr(attrs, key)
	if a == nil {
		return 0
	}
	if n, ok := a.Value.(*NumberValue); ok && n.IsInt && n.Value > 0 && n.Value < 1<<31 {
		return int(n.Value)
	}
	return 0
}

// budgets warns about nodes whose explicit knowledge references alone
// exceed their budget (node, else workflow, else project default).
func (c *checker) budgets() {
	if c.env.Tokens == nil {
		return
	}
	wb := 0
	if c.f.Workflow != nil {
		wb = intAttr(c.f.Workflow.Attrs, "budget")
	}
	seen := map[[2]string]bool{}
	for _, n := range c.f.Nodes {
		budget := intAttr(n.Attrs, "budget")
		if budget == 0 {
			budget = wb
		}
		if budget == 0 {
			budget = c.env.DefaultBudget
		}
		if budget <= 0 {
			continue
		}
		clear(seen)
		total := 0
		for _, p := range n.Prompts {
			for _, b := range p.Blocks {
				r, ok := b.(*Ref)
				if !ok || r.Kind != RefKnowledge {
					continue
				}
				k := c.knowledgeOf(r.Path)
				key := [2]string{k.clean, r.Level}
				if k.err != nil || seen[key] {
					continue
				}
				seen[key] = true
				if t, ok := c.env.Tokens(k.clean, r.Level); ok {
					total += t
				}
			}
		}
		if total > budget {
			c.report(Diagnostic{Span: n.Name.Span, Severity: SeverityWarning, Code: CodeOverBudget,
				Message: fmt.Sprintf("node %s's explicit references need about %d tokens, over its budget of %d", n.Name.Name, total, budget)})
		}
	}
}
