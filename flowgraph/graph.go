// Package flowgraph draws a workflow's DAG so that an author grasps it at a
// glance: one box per node with its title and run state, edges for the
// {{references}}, and per node a bar of how Role A split its token budget.
// It renders SVG (for the VS Code panel and the browser), Graphviz DOT and
// Mermaid.
//
// Layout is deterministic: the same graph gives the same bytes.
package flowgraph

import (
	"fmt"
	"slices"
	"strings"

	"github.com/flowcabal/flowcabal/workflowlang"
)

// State is a node's run state as the picture shows it.
type State string

// The states. The zero value means "not run yet".
const (
	StateIdle     State = ""
	StateDone     State = "done"
	StateRunning  State = "running"
	StateNeedsYou State = "needs-you"
	StateFrozen   State = "frozen"
	StateCached   State = "cached"
	StateFailed   State = "failed"
)

// Graph is what gets drawn.
type Graph struct {
	Title string
	Nodes []Node
	Edges []Edge
}

// Node is one box.
type Node struct {
	Name   string
	Title  string // shown above the name when set
	State  State
	Detail string  // a short line under the name: "1,240 tok · v3"
	Shares []Share // Role A's split of the budget, in category order
	Budget int     // the budget the shares are measured against; 0 = none
	// Stale says what changed among the files the node's output was
	// built from ("entities/characters/x.md changed"); "" when nothing.
	Stale string
}

// Share is the tokens Role A gave one category of context.
type Share struct {
	Category string
	Tokens   int
}

// Edge says From's output feeds To.
type Edge struct {
	From, To string
	External bool // From lives in a used workflow ("act2.plan")
}

// FromResult builds the graph of a checked workflow file: its nodes in
// source order, in-file edges, and one edge per reference to a used
// workflow's node (drawn from a small external box).
func FromResult(res *workflowlang.Result) *Graph {
	g := &Graph{}
	f := res.File
	if f.Workflow != nil && f.Workflow.Title != nil {
		g.Title = f.Workflow.Title.Value
	}
	seen := map[string]bool{}
	for _, in := range f.Inputs {
		if seen[in.Name.Name] {
			continue
		}
		seen[in.Name.Name] = true
		n := Node{Name: in.Name.Name, Detail: "input"}
		if in.Title != nil {
			n.Title = in.Title.Value
		}
		g.Nodes = append(g.Nodes, n)
	}
	for _, nd := range f.Nodes {
		if seen[nd.Name.Name] {
			continue
		}
		seen[nd.Name.Name] = true
		n := Node{Name: nd.Name.Name}
		if nd.Title != nil {
			n.Title = nd.Title.Value
		}
		g.Nodes = append(g.Nodes, n)
	}
	for _, e := range res.Edges {
		g.Edges = append(g.Edges, Edge{From: e.From, To: e.To})
	}
	for _, nd := range f.Nodes {
		for _, r := range nd.Refs() {
			if r.Kind != workflowlang.RefUse {
				continue
			}
			ext := r.Alias + "." + r.Name
			if !seen[ext] {
				seen[ext] = true
				g.Nodes = append(g.Nodes, Node{Name: ext, Detail: "sub-workflow"})
			}
			g.Edges = append(g.Edges, Edge{From: ext, To: nd.Name.Name, External: true})
		}
	}
	return g
}

// SetState records a node's state and detail line; unknown names are ignored.
func (g *Graph) SetState(name string, s State, detail string) {
	for i := range g.Nodes {
		if g.Nodes[i].Name == name {
			g.Nodes[i].State = s
			g.Nodes[i].Detail = detail
		}
	}
}

// layout assigns each node a column (its longest distance from a source)
// and a row within the column, ordered to reduce edge crossings.
type layout struct {
	cols [][]int // node indexes per column, top to bottom
	col  []int   // column of each node
	row  []int   // row of each node
}

func (g *Graph) layout() layout {
	n := len(g.Nodes)
	idx := make(map[string]int, n)
	for i, nd := range g.Nodes {
		idx[nd.Name] = i
	}
	preds := make([][]int, n)
	succs := make([][]int, n)
	indeg := make([]int, n)
	for _, e := range g.Edges {
		a, ok1 := idx[e.From]
		b, ok2 := idx[e.To]
		if !ok1 || !ok2 || a == b {
			continue
		}
		preds[b] = append(preds[b], a)
		succs[a] = append(succs[a], b)
		indeg[b]++
	}
	// Longest-path layering over a Kahn order; nodes left on a cycle go to
	// the column after their deepest placed predecessor.
	col := make([]int, n)
	queue := []int{}
	for i := range n {
		if indeg[i] == 0 {
			queue = append(queue, i)
		}
	}
	placed := make([]bool, n)
	for len(queue) > 0 {
		i := queue[0]
		queue = queue[1:]
		placed[i] = true
		for _, s := range succs[i] {
			col[s] = max(col[s], col[i]+1)
			indeg[s]--
			if indeg[s] == 0 {
				queue = append(queue, s)
			}
		}
	}
	for i := range n {
		if !placed[i] {
			for _, p := range preds[i] {
				if placed[p] {
					col[i] = max(col[i], col[p]+1)
				}
			}
		}
	}
	// Pull sources right, next to their first consumer: an input or a
	// sub-workflow node drawn in the first column would send its edge
	// across every box in between.
	for i := range n {
		if len(preds[i]) > 0 || len(succs[i]) == 0 {
			continue
		}
		first := -1
		for _, s := range succs[i] {
			if first < 0 || col[s] < first {
				first = col[s]
			}
		}
		col[i] = max(0, first-1)
	}
	ncols := 0
	for _, c := range col {
		ncols = max(ncols, c+1)
	}
	cols := make([][]int, ncols)
	for i := range n { // source order within a column to start with
		cols[col[i]] = append(cols[col[i]], i)
	}
	row := make([]int, n)
	setRows := func() {
		for _, c := range cols {
			for r, i := range c {
				row[i] = r
			}
		}
	}
	setRows()
	// A few barycentre sweeps: order each column by the mean row of its
	// neighbours in the previous column, keeping ties in source order.
	for sweep := 0; sweep < 4; sweep++ {
		for c := 1; c < ncols; c++ {
			bary := make(map[int]float64, len(cols[c]))
			for _, i := range cols[c] {
				sum, k := 0.0, 0
				for _, p := range preds[i] {
					sum += float64(row[p])
					k++
				}
				if k == 0 {
					bary[i] = float64(row[i])
				} else {
					bary[i] = sum / float64(k)
				}
			}
			slices.SortStableFunc(cols[c], func(a, b int) int {
				switch {
				case bary[a] < bary[b]:
					return -1
				case bary[a] > bary[b]:
					return 1
				}
				return 0
			})
			setRows()
		}
	}
	return layout{cols: cols, col: col, row: row}
}

// DOT renders the graph in Graphviz's language.
func (g *Graph) DOT() string {
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %s {\n  rankdir=LR;\n  node [shape=box, style=\"rounded,filled\", fontname=\"sans-serif\"];\n", dotQuote(orDefault(g.Title, "workflow")))
	for _, n := range g.Nodes {
		label := n.Name
		if n.Title != "" {
			label = n.Title + "\n" + n.Name
		}
		if n.Detail != "" {
			label += "\n" + n.Detail
		}
		stale := ""
		if n.Stale != "" {
			label += "\n⚠ stale: " + n.Stale
			stale = fmt.Sprintf(", color=%s, style=\"rounded,filled,dashed\"", dotQuote(staleStroke))
		}
		fmt.Fprintf(&b, "  %s [label=%s, fillcolor=%s%s];\n", dotQuote(n.Name), dotQuote(label), dotQuote(stateColor(n.State).fill), stale)
	}
	for _, e := range g.Edges {
		style := ""
		if e.External {
			style = " [style=dashed]"
		}
		fmt.Fprintf(&b, "  %s -> %s%s;\n", dotQuote(e.From), dotQuote(e.To), style)
	}
	b.WriteString("}\n")
	return b.String()
}

func dotQuote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`)
	return `"` + r.Replace(s) + `"`
}

// Mermaid renders the graph as a Mermaid flowchart.
func (g *Graph) Mermaid() string {
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	id := make(map[string]string, len(g.Nodes))
	for i, n := range g.Nodes {
		id[n.Name] = fmt.Sprintf("n%d", i)
		parts := []string{}
		if n.Title != "" {
			parts = append(parts, mermaidEscape(n.Title))
		}
		parts = append(parts, mermaidEscape(n.Name))
		if n.Detail != "" {
			parts = append(parts, mermaidEscape(n.Detail))
		}
		if n.Stale != "" {
			parts = append(parts, mermaidEscape("⚠ stale: "+n.Stale))
		}
		fmt.Fprintf(&b, "  n%d[\"%s\"]\n", i, strings.Join(parts, "<br/>"))
		if n.State != StateIdle {
			fmt.Fprintf(&b, "  class n%d %s\n", i, strings.ReplaceAll(string(n.State), "-", ""))
		}
	}
	for _, e := range g.Edges {
		arrow := "-->"
		if e.External {
			arrow = "-.->"
		}
		if a, ok := id[e.From]; ok {
			if c, ok := id[e.To]; ok {
				fmt.Fprintf(&b, "  %s %s %s\n", a, arrow, c)
			}
		}
	}
	for _, s := range []State{StateDone, StateRunning, StateNeedsYou, StateFrozen, StateCached, StateFailed} {
		c := stateColor(s)
		fmt.Fprintf(&b, "  classDef %s fill:%s,stroke:%s\n", strings.ReplaceAll(string(s), "-", ""), c.fill, c.stroke)
	}
	return b.String()
}

func mermaidEscape(s string) string {
	return strings.NewReplacer(`"`, "#quot;", "<", "#lt;", ">", "#gt;").Replace(s)
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

type colors struct{ fill, stroke, text string }

func stateColor(s State) colors {
	switch s {
	case StateDone:
		return colors{"#d9f2dd", "#2e7d32", "✓ done"}
	case StateRunning:
		return colors{"#dbe9ff", "#1565c0", "↻ running"}
	case StateNeedsYou:
		return colors{"#fff1cc", "#b26a00", "⚠ needs you"}
	case StateFrozen:
		return colors{"#e3f4fb", "#00838f", "❄ frozen"}
	case StateCached:
		return colors{"#eeeeee", "#616161", "≡ cached"}
	case StateFailed:
		return colors{"#fde0e0", "#c62828", "✗ failed"}
	default:
		return colors{"#ffffff", "#9e9e9e", ""}
	}
}
