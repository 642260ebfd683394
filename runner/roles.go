package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/flowcabal/flowcabal/agent/assemble"
	"github.com/flowcabal/flowcabal/agent/factcheck"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// RoleA adapts Role A's assembler to the runner: it describes a workflow
// node the way assemble.Assemble reads it.
type RoleA struct {
	Snapshot assemble.Snapshot
	Options  assemble.Options
	// Embedding, when set, embeds each node's prompt (cached by model and
	// text) so that similarity of meaning joins the search over Vectors,
	// the vectors of Snapshot's passages ([assemble.Embedding.EmbedChapters]).
	// A failing endpoint leaves the assembly lexical, and its provenance
	// says so; it never fails the node.
	Embedding *assemble.Embedding
	Vectors   *assemble.Vectors
	// Refiner, when set, has the agent model read each node's prompt for
	// what names did not find (its answers cached by input hash, so the
	// assembly stays deterministic). A failing model leaves the
	// deterministic analysis alone, and the provenance says so.
	Refiner *assemble.Refiner
	// Contexts, when set, gives an estimate the contexts assembled before
	// for the same input (assemble.InputKey) on Snapshot with Vectors, and
	// keeps those it assembles: after an edit of one node, an estimate of
	// the workflow assembles that node alone, and the node's hover preview
	// has often assembled it already. Not used with a Refiner, whose
	// reading the key does not see, nor by a run.
	Contexts ContextMemo
}

// A ContextMemo keeps Role A's contexts by assemble.InputKey, for one
// snapshot and its vectors. The contexts it holds are shared: read only.
type ContextMemo interface {
	Context(key [32]byte) (*assemble.Context, bool)
	Keep(key [32]byte, c *assemble.Context)
}

// Assemble implements Assembler.
func (a RoleA) Assemble(ctx context.Context, wf *workflowlang.Result, n *workflowlang.Node, upstream map[string]string) (Injection, error) {
	if err := ctx.Err(); err != nil {
		return Injection{}, err
	}
	node := AssembleNode(wf, n, upstream)
	opt := a.Options
	memo := a.Contexts
	if a.Refiner != nil || !Estimating(ctx) {
		memo = nil
	}
	var key [32]byte
	if memo != nil {
		key = assemble.InputKey(node, opt)
		if c, ok := memo.Context(key); ok {
			return injectionOf(c, false), nil
		}
	}
	// An estimate calls no model: it takes what a run left in the caches
	// (the same answers a run now would get from them).
	switch {
	case a.Embedding != nil && Estimating(ctx):
		opt.Semantic = a.Embedding.CachedSemantic(ctx, a.Vectors, node)
	case a.Embedding != nil:
		opt.Semantic = a.Embedding.Semantic(ctx, a.Vectors, node)
	}
	switch {
	case a.Refiner != nil && Estimating(ctx):
		opt.Refinement = a.Refiner.Cached(ctx, node, a.Snapshot)
	case a.Refiner != nil:
		opt.Refinement = a.Refiner.Refine(ctx, node, a.Snapshot)
	}
	c, err := assemble.Assemble(node, a.Snapshot, opt)
	if err != nil {
		return Injection{}, err
	}
	if memo != nil {
		memo.Keep(key, c)
	}
	return injectionOf(c, !Estimating(ctx)), nil
}

// injectionOf is what the runner injects of Role A's context c, with its
// provenance when a run is to keep it (an estimate keeps nothing, and
// the provenance of a 24k-token context is some 100 kB of JSON).
func injectionOf(c *assemble.Context, provenance bool) Injection {
	var prov json.RawMessage
	if provenance {
		prov, _ = json.Marshal(c) // plain data: cannot fail
	}
	return Injection{SystemPrefix: c.SystemPrefix, UserSuffix: c.UserSuffix, Hash: c.Hash, Provenance: prov,
		Note: fmt.Sprintf("Role A: %d sources, %d of %d tokens", len(c.Sources), c.Tokens, c.Budget)}
}

// AssembleNode describes node n of a workflow for Role A: its own text
// (references written as their targets), the outputs of the nodes it
// references, its persist target and its budget (node, then workflow).
func AssembleNode(wf *workflowlang.Result, n *workflowlang.Node, upstream map[string]string) assemble.Node {
	var text strings.Builder
	for _, p := range n.Prompts {
		for _, b := range p.Blocks {
			switch x := b.(type) {
			case *workflowlang.TextBlock:
				text.WriteString(x.Text)
			case *workflowlang.Ref:
				if x.Kind == workflowlang.RefKnowledge {
					continue // an explicit resource is injected by layer 3
				}
				text.WriteString(" ")
			}
		}
		text.WriteString("\n")
	}
	an := assemble.Node{ID: n.Name.Name, Text: text.String(), Budget: nodeBudget(wf, n)}
	var names []string
	for _, r := range n.Refs() {
		if r.Kind == workflowlang.RefNode {
			if _, ok := upstream[r.Name]; ok {
				names = append(names, r.Name)
			}
		}
	}
	sort.Strings(names)
	for i, name := range names {
		if i > 0 && names[i-1] == name {
			continue
		}
		an.Upstream = append(an.Upstream, upstream[name])
	}
	if a := n.Attr("persist"); a != nil {
		an.PersistTarget = valueText(a.Value)
		if ch, ok := knowledge.ChapterNumber(an.PersistTarget); ok {
			an.Chapter = ch
		}
	}
	return an
}

func nodeBudget(wf *workflowlang.Result, n *workflowlang.Node) int {
	if b := attrInt(n, "budget", 0); b > 0 {
		return b
	}
	if wf != nil {
		return attrIntWF(wf, "budget", 0)
	}
	return 0
}

// FactGate is Role C's deterministic gate: it runs the fact checkers on
// each output, as text of the chapter the node writes, and asks for a
// retry with the findings as feedback while any is confident; the
// runner flags the node for the author once the retries are spent.
type FactGate struct {
	Knowledge *factcheck.Knowledge
	// Previous returns the text of the chapter before ch ("" if none), for
	// the continuity checker.
	Previous func(ch int) string
	// MinConfidence is the confidence from which a finding blocks
	// approval; 0 means 0.6.
	MinConfidence float64
}

// Review implements Gate.
func (g FactGate) Review(ctx context.Context, n *workflowlang.Node, output string, attempt int) (Verdict, error) {
	if err := ctx.Err(); err != nil {
		return Verdict{}, err
	}
	if !wantsChecks(n) {
		return Verdict{Decision: Approve, Reasons: []string{"no checks asked for"}}, nil
	}
	ch := 0
	if a := n.Attr("persist"); a != nil {
		ch, _ = knowledge.ChapterNumber(valueText(a.Value))
	}
	prev := ""
	if g.Previous != nil && ch >= 1 {
		prev = g.Previous(ch - 1)
	}
	min := g.MinConfidence
	if min == 0 {
		min = 0.6
	}
	var blocking []string
	for _, f := range factcheck.Check(output, ch, g.Knowledge, prev) {
		if f.Confidence < min {
			continue
		}
		blocking = append(blocking, fmt.Sprintf("- %s: «%s» — %s", f.Type, excerpt(output, f.Start, f.End), f.Message))
	}
	if len(blocking) == 0 {
		return Verdict{Decision: Approve, Reasons: []string{"the fact checks found nothing"}}, nil
	}
	return Verdict{Decision: Retry, Reasons: blocking,
		Feedback: "The fact checks found these contradictions with the story so far; fix them and change nothing else:\n" + strings.Join(blocking, "\n")}, nil
}

func wantsChecks(n *workflowlang.Node) bool {
	a := n.Attr("checks")
	if a == nil {
		return false
	}
	l, ok := a.Value.(*workflowlang.ListValue)
	return ok && len(l.Elems) > 0
}

func excerpt(s string, start, end int) string {
	start, end = max(0, min(start, len(s))), max(0, min(end, len(s)))
	if start > end {
		start, end = end, start
	}
	return s[start:end]
}
