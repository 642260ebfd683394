package runner

import (
	"context"
	"reflect"
	"testing"

	"github.com/flowcabal/flowcabal/agent/assemble"
	"github.com/flowcabal/flowcabal/agent/factcheck"
	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/textsearch"
)

// countingMemo is a ContextMemo that counts what it is asked.
type countingMemo struct {
	m          map[[32]byte]*assemble.Context
	found, got int
	kept       int
}

func (c *countingMemo) Context(k [32]byte) (*assemble.Context, bool) {
	c.got++
	x, ok := c.m[k]
	if ok {
		c.found++
	}
	return x, ok
}

func (c *countingMemo) Keep(k [32]byte, x *assemble.Context) {
	c.kept++
	c.m[k] = x
}

// TestEstimateSharesRoleAContexts: an estimate keeps every node's context
// in Known.Contexts and, made again for the same state, assembles none
// (and says the same); a node whose upstream output does not exist yet is
// assembled without the stand-in, as the hover's preview assembles it (the
// key of the node with no upstream is kept); a run never reads the memo.
func TestEstimateSharesRoleAContexts(t *testing.T) {
	p := newCostProject(t, "pride-and-prejudice", "")
	kp, errs := knowledge.LoadProject(p.root)
	if kp == nil {
		t.Fatal(errs)
	}
	folder := textsearch.NewFolder()
	snap, err := assemble.NewBuilder(textsearch.NewAnalyzer(folder), textsearch.NewCounter("")).Build(assemble.InputFromProject(kp))
	if err != nil {
		t.Fatal(err)
	}
	memo := &countingMemo{m: map[[32]byte]*assemble.Context{}}
	r, err := ForProject(context.Background(), p.root, p.cfg, p.st, ProjectOptions{
		Getenv: func(string) string { return "" }, Retry: llm.RetryPolicy{MaxRetries: 1},
		Known: &Known{Snapshot: snap, Project: kp, Facts: factcheck.FromProject(kp, folder), Contexts: memo}})
	if err != nil {
		t.Fatal(err)
	}
	wf := p.workflow("workflows/chapter-11.flow")
	ctx := context.Background()
	first, err := r.Estimate(ctx, wf, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if memo.kept == 0 || memo.found != 0 {
		t.Fatalf("first estimate: kept %d, found %d", memo.kept, memo.found)
	}
	// A node that reads another node's output, not produced yet: kept
	// under the key of the node without it.
	opt := assemble.Options{Budget: p.cfg.Budget, ThreadWindow: p.cfg.ThreadWindow,
		Shares: assemble.Shares{Meta: p.cfg.Shares["meta"], Entities: p.cfg.Shares["entities"],
			Manuscript: p.cfg.Shares["manuscript"], Summaries: p.cfg.Shares["summaries"]}}
	checked := 0
	for _, n := range wf.File.Nodes {
		if !hasNodeRef(n) {
			continue
		}
		if _, ok := memo.m[assemble.InputKey(AssembleNode(wf, n, nil), opt)]; !ok {
			t.Errorf("%s: no context kept for the node without its upstream stand-in", n.Name.Name)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("the workflow has no node that reads another's output")
	}
	kept := memo.kept
	again, err := r.Estimate(ctx, wf, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if memo.kept != kept || memo.found != kept {
		t.Errorf("second estimate: kept %d more, found %d of %d", memo.kept-kept, memo.found, kept)
	}
	if !reflect.DeepEqual(first, again) {
		t.Errorf("the estimate from kept contexts differs:\n%+v\n%+v", first, again)
	}
	asked := memo.got
	if _, err := r.Run(ctx, wf, Options{}); err != nil {
		t.Fatal(err)
	}
	if memo.got != asked || memo.kept != kept {
		t.Errorf("a run used the estimates' contexts: asked %d, kept %d", memo.got-asked, memo.kept-kept)
	}
}
