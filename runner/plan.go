// Package runner executes workflows: it plans which nodes to run from the
// DAG, assembles each node's prompt in three layers (the node's own text,
// Role A's ephemeral injection, then {{ref}} resolution from the run
// cache), calls the model, passes every output through the Role C gate,
// records it in the store's history and checkpoints the run after every
// node so that a killed run resumes where it stopped.
package runner

import (
	"errors"
	"fmt"
	"slices"

	"github.com/flowcabal/flowcabal/workflowlang"
)

// Target says what to run.
type Target struct {
	// Node is the node to run; empty runs the whole workflow.
	Node string
	// From runs Node and everything downstream of it (and, as always,
	// whatever upstream they need, from the cache when unchanged).
	From bool
}

// Plan is the set of nodes a run executes, in a deterministic order.
type Plan struct {
	// Order lists the nodes to run in Kahn order (ties by source order).
	Order []string
	// Deps maps each planned node to the in-file nodes it references.
	Deps map[string][]string
	// Requested are the nodes the author asked for (Target.Node and, with
	// From, its descendants); the others are run only as inputs.
	Requested map[string]bool
}

// ErrNotRunnable is returned when a static error (a cycle, an unknown
// reference, a syntax error) lies in a node the plan needs, or outside
// every node, where it may concern them all.
var ErrNotRunnable = errors.New("workflow has errors")

// NewPlan plans t over a checked workflow. A plan is refused when an error
// touches what it would run: running half a broken chain would spend the
// author's money on output that cannot be trusted. Errors in nodes the
// target does not need (a typo in a node downstream) do not block it.
func NewPlan(res *workflowlang.Result, t Target) (*Plan, error) {
	deps := map[string][]string{}
	down := map[string][]string{}
	for _, e := range res.Edges {
		if !slices.Contains(deps[e.To], e.From) {
			deps[e.To] = append(deps[e.To], e.From)
			down[e.From] = append(down[e.From], e.To)
		}
	}
	isNode := map[string]bool{}
	for _, n := range res.File.Nodes {
		isNode[n.Name.Name] = true
	}
	requested := map[string]bool{}
	switch {
	case t.Node == "":
		for _, n := range res.File.Nodes {
			requested[n.Name.Name] = true
		}
	case !isNode[t.Node]:
		return nil, fmt.Errorf("no node %q in %s", t.Node, res.File.Path)
	case t.From:
		var walk func(string)
		walk = func(n string) {
			if requested[n] {
				return
			}
			requested[n] = true
			for _, d := range down[n] {
				walk(d)
			}
		}
		walk(t.Node)
	default:
		requested[t.Node] = true
	}
	need := map[string]bool{}
	var up func(string)
	up = func(n string) {
		if need[n] {
			return
		}
		need[n] = true
		for _, d := range deps[n] {
			up(d)
		}
	}
	for n := range requested {
		up(n)
	}
	if err := blockingError(res, t, need); err != nil {
		return nil, err
	}
	p := &Plan{Deps: map[string][]string{}, Requested: requested}
	for _, n := range res.Order {
		if need[n] && isNode[n] {
			p.Order = append(p.Order, n)
			var nodeDeps []string
			for _, d := range deps[n] {
				if isNode[d] {
					nodeDeps = append(nodeDeps, d)
				}
			}
			p.Deps[n] = nodeDeps
		}
	}
	return p, nil
}

// blockingError returns ErrNotRunnable, naming the first error that lies
// in a needed node or outside every node (the header, a stray token, a
// use declaration), with its line. A needed node left out of the Kahn
// order is on a cycle, which blocks too even if its diagnostic was
// reported at another node of the cycle.
func blockingError(res *workflowlang.Result, t Target, need map[string]bool) error {
	what := "the workflow"
	if t.Node != "" {
		what = fmt.Sprintf("node %s", t.Node)
	}
	m := res.File.Mapper()
	inOrder := map[string]bool{}
	for _, n := range res.Order {
		inOrder[n] = true
	}
	for _, d := range res.Diagnostics {
		if d.Severity != workflowlang.SeverityError || d.Path != "" {
			continue
		}
		owner := ownerOf(res.File, d.Span)
		if owner != "" && !need[owner] && !relatedNeeded(res.File, d, need) {
			continue
		}
		where := "outside any node"
		if owner != "" {
			where = "in node " + owner
		}
		line := m.Position(d.Span.Start, workflowlang.UTF8).Line + 1
		return fmt.Errorf("%w: %s cannot run: %s:%d, %s: %s", ErrNotRunnable, what, res.File.Path, line, where, d.Message)
	}
	for _, n := range res.File.Nodes {
		if name := n.Name.Name; need[name] && !inOrder[name] {
			line := m.Position(n.Span.Start, workflowlang.UTF8).Line + 1
			return fmt.Errorf("%w: %s cannot run: %s:%d, node %s is on a cycle", ErrNotRunnable, what, res.File.Path, line, name)
		}
	}
	return nil
}

// ownerOf names the node whose span holds sp; empty outside every node.
func ownerOf(f *workflowlang.File, sp workflowlang.Span) string {
	for _, n := range f.Nodes {
		if n.Span.Start <= sp.Start && sp.End <= n.Span.End {
			return n.Name.Name
		}
	}
	return ""
}

// relatedNeeded reports whether a related location of d (another node of
// a cycle, the first of a duplicate) lies in a needed node.
func relatedNeeded(f *workflowlang.File, d workflowlang.Diagnostic, need map[string]bool) bool {
	for _, r := range d.Related {
		if r.Path == "" && need[ownerOf(f, r.Span)] {
			return true
		}
	}
	return false
}
