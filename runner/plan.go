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

// ErrNotRunnable is returned for a workflow whose static errors (a cycle,
// an unknown reference, a syntax error) make a plan impossible.
var ErrNotRunnable = errors.New("workflow has errors")

// NewPlan plans t over a checked workflow. Files with errors are refused:
// running half a broken workflow would spend the author's money on output
// that cannot be trusted.
func NewPlan(res *workflowlang.Result, t Target) (*Plan, error) {
	var errs []string
	for _, d := range res.Diagnostics {
		if d.Severity == workflowlang.SeverityError && d.Path == "" {
			errs = append(errs, d.Message)
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%w: %s", ErrNotRunnable, errs[0])
	}
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
		for _, n := range res.Order {
			requested[n] = true
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
