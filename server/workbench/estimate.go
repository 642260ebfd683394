package workbench

import (
	"fmt"
	"strings"

	"github.com/flowcabal/flowcabal/runner"
	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// RunEstimate (a server.Options.RunEstimate) says, for the "Run node" lens of node ("" for "Run
// workflow"), what the run would send and cost now: the node's prompt
// tokens (Role A's context and its own text, as the run builds them) and
// the most it may write, and the cost of everything the run would call
// the model for (the upstream nodes it needs, refinement passes,
// candidates). "" when there is no estimate (the workflow cannot run).
func (w *Workbench) RunEstimate(snap *cache.Snapshot, f *cache.File, node string, refresh func()) string {
	if f.Path == "" {
		return ""
	}
	ss, err := w.session(f.Path)
	if err != nil {
		return ""
	}
	wf := snap.Check(f)
	// A lens answers at once: the estimate is made in the background and
	// the lenses redrawn once it is; meanwhile they show the one before,
	// marked as being updated.
	est, fresh := ss.EstimateAsync(wf, refresh)
	if est == nil {
		return ""
	}
	s := runEstimateText(wf, est, node)
	if s != "" && !fresh {
		s += " (updating)"
	}
	return s
}

// runEstimateText renders est for the Run lens of node ("" for the
// workflow).
func runEstimateText(wf *workflowlang.Result, est *runner.Estimate, node string) string {
	if node == "" {
		reused := 0
		for _, n := range est.Nodes {
			if n.Err != nil {
				return ""
			}
			if n.Reuse != "" {
				reused++
			}
		}
		s := fmt.Sprintf("%s tok in + ≤%s out", groupDigits(est.Input), groupDigits(est.Output))
		if est.Priced {
			s += " · ≈" + runner.FormatCost(est.Cost)
		}
		if reused > 0 {
			s += fmt.Sprintf(" · %d from cache", reused)
		}
		return s
	}
	ne, ok := est.Node(node)
	if !ok || ne.Err != nil {
		return ""
	}
	plan, err := runner.NewPlan(wf, runner.Target{Node: node})
	if err != nil {
		return ""
	}
	// A "Run node" runs what the node needs too, unless the cache has it.
	var total float64
	priced, upstream := true, 0
	for _, name := range plan.Order {
		n, _ := est.Node(name)
		if n.Err != nil {
			return ""
		}
		if n.Reuse != "" && name != node {
			continue
		}
		if name != node {
			upstream++
		}
		total += n.Cost
		priced = priced && n.Priced
	}
	// And the nodes of the sub-workflows they read that it would run.
	aliases := map[string]bool{}
	for _, name := range plan.Order {
		for _, r := range wf.File.Node(name).Refs() {
			if r.Kind == workflowlang.RefUse {
				aliases[r.Alias] = true
			}
		}
	}
	for _, n := range est.Nodes {
		alias, _, ok := strings.Cut(n.Node, ".")
		if !ok || !aliases[alias] || n.Reuse != "" {
			continue
		}
		if n.Err != nil {
			return ""
		}
		upstream++
		total += n.Cost
		priced = priced && n.Priced
	}
	s := fmt.Sprintf("%s tok in + ≤%s out", groupDigits(ne.Input), groupDigits(ne.MaxOutput))
	if c := len(ne.Calls); c > 1 {
		s += fmt.Sprintf(" ×%d calls", c)
	}
	switch {
	case ne.Reuse != "" && upstream == 0:
		s += " · " + ne.Reuse
	case priced:
		s += " · ≈" + runner.FormatCost(total)
	}
	if upstream > 0 {
		s += fmt.Sprintf(" (with %d upstream)", upstream)
	}
	return s
}

// costSection is the hover's account of a node's cost: the estimate of
// running it now and, after a run, what its calls cost.
func (w *Workbench) costSection(snap *cache.Snapshot, f *cache.File, node string) string {
	ss, err := w.session(f.Path)
	if err != nil {
		return ""
	}
	wf := snap.Check(f)
	var b strings.Builder
	est, err := ss.Estimate(wf)
	switch {
	case err != nil:
		fmt.Fprintf(&b, "Cost estimate: not available (%s)\n\n", mdCell(err.Error()))
	default:
		ne, ok := est.Node(node)
		switch {
		case !ok:
		case ne.Err != nil:
			fmt.Fprintf(&b, "Cost estimate: not available (%s)\n\n", mdCell(ne.Err.Error()))
		default:
			fmt.Fprintf(&b, "Cost estimate: **%s** tokens in (Role A's context and the prompt) + up to %s out", groupDigits(ne.Input), groupDigits(ne.MaxOutput))
			if len(ne.Calls) > 1 {
				fmt.Fprintf(&b, "; %d calls, %s in + up to %s out in all", len(ne.Calls), groupDigits(ne.TotalInput), groupDigits(ne.TotalOutput))
			}
			if ne.Priced {
				fmt.Fprintf(&b, " · ≈%s", runner.FormatCost(ne.Cost))
			} else {
				b.WriteString(" · tokens only (no price in flowcabal.toml)")
			}
			if ne.Reuse != "" {
				fmt.Fprintf(&b, " · %s: a run now calls no model", ne.Reuse)
			}
			if est.MaxCost > 0 {
				fmt.Fprintf(&b, " · max_cost %s", runner.FormatCost(est.MaxCost))
			}
			b.WriteString("\n\n")
			for _, n := range ne.Notes {
				fmt.Fprintf(&b, "_%s_\n\n", mdCell(n))
			}
		}
	}
	if sp, ok := ss.NodeSpend(wf, node); ok {
		fmt.Fprintf(&b, "Spent on its last run: %d call(s), %s tokens in + %s out", sp.Calls, groupDigits(sp.Input), groupDigits(sp.Output))
		if sp.Priced {
			fmt.Fprintf(&b, " · %s", runner.FormatCost(sp.Cost))
		}
		b.WriteString("\n\n")
	}
	return b.String()
}

func groupDigits(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
