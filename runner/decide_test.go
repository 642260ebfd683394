package runner

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/store"
)

const flagged = `
node draft { user """write it""" }
node polish { user """polish {{draft}}""" }
`

// flaggedRun runs a workflow whose first node the gate flags.
func flaggedRun(t *testing.T, replies ...llmtest.Reply) (*fixture, *Result) {
	t.Helper()
	f := newFixture(t, flagged, llmtest.Script{Replies: append(replies,
		reply("write it", "please flag this draft"),
		reply("polish", "polished"),
	)})
	f.run = f.newRunner(&scriptedGate{})
	res, err := f.run.Run(context.Background(), f.checked(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != store.RunWaiting || res.Nodes["draft"].Status != "flagged" {
		t.Fatalf("setup: %s %+v", res.Status, res.Nodes)
	}
	return f, res
}

func TestDecideApproveContinuesTheBranch(t *testing.T) {
	f, first := flaggedRun(t)
	ctx := context.Background()
	// Resuming without a decision keeps the node waiting.
	again, err := f.run.Run(ctx, f.checked(), Options{Resume: first.RunID})
	if err != nil || again.Nodes["draft"].Status != "flagged" || again.Status != store.RunWaiting {
		t.Fatalf("resume without a decision: %v %s %+v", err, again.Status, again.Nodes)
	}
	calls := len(f.requests())
	opts, err := f.run.Decide(ctx, first.RunID, "draft", DecideApprove, "")
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.run.Run(ctx, f.checked(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != store.RunDone || res.Nodes["polish"].Output != "polished" {
		t.Fatalf("after approve: %s %+v", res.Status, res.Nodes)
	}
	if got := len(f.requests()) - calls; got != 1 {
		t.Errorf("approve then resume made %d model calls, want 1 (polish only)", got)
	}
}

func TestDecideRetrySendsTheAuthorsFeedback(t *testing.T) {
	f, first := flaggedRun(t, reply("make it shorter", "short draft"))
	ctx := context.Background()
	opts, err := f.run.Decide(ctx, first.RunID, "draft", DecideRetry, "make it shorter")
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.run.Run(ctx, f.checked(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Nodes["draft"].Output != "short draft" || res.Status != store.RunDone {
		t.Fatalf("after retry: %s %+v", res.Status, res.Nodes)
	}
}

func TestDecideEditUsesTheAuthorsText(t *testing.T) {
	f, first := flaggedRun(t, reply("polish my own words", "polished mine"))
	ctx := context.Background()
	opts, err := f.run.Decide(ctx, first.RunID, "draft", DecideEdit, "my own words")
	if err != nil {
		t.Fatal(err)
	}
	res, err := f.run.Run(ctx, f.checked(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Nodes["draft"].Output != "my own words" || res.Nodes["polish"].Output != "polished mine" {
		t.Fatalf("after edit: %+v", res.Nodes)
	}
	o, ok, _ := f.store.CurrentOutput("workflows/w.flow", "draft")
	if !ok || o.Text != "my own words" || o.Model != "author" {
		t.Errorf("history of the edited node: %+v", o)
	}
	if _, err := f.run.Decide(ctx, first.RunID, "draft", "maybe", ""); err == nil || !strings.Contains(err.Error(), "unknown decision") {
		t.Errorf("an unknown decision was accepted: %v", err)
	}
}

func TestCancelOneNodeAndSkipIt(t *testing.T) {
	src := `
node slow { user """slow one""" }
node fast { user """fast one""" }
node after_slow { user """after {{slow}}""" }
`
	f := newFixture(t, src, llmtest.Script{Replies: []llmtest.Reply{
		{Match: &llmtest.Match{Contains: "slow one"}, Fault: llmtest.FaultHang, Times: -1},
		reply("fast one", "quick"),
		reply("after", "went on"),
	}})
	ctx := context.Background()
	var ctl *Control
	ready := make(chan struct{})
	obs := Observer{NodeStarted: func(n string, _, _ int) {
		if n == "slow" {
			close(ready)
		}
	}}
	done := make(chan *Result, 1)
	go func() {
		res, _ := f.run.Run(ctx, f.checked(), Options{Observer: obs, Control: func(c *Control) { ctl = c }})
		done <- res
	}()
	<-ready
	for !sawRequest(f.srv, "slow one") {
		time.Sleep(5 * time.Millisecond) // the model call is on the scripted server's side
	}
	if !ctl.CancelNode("slow") {
		t.Fatal("the slow node was not running")
	}
	res := <-done
	if res.Nodes["slow"].Status != "cancelled" || res.Nodes["fast"].Status != "done" || res.Nodes["after_slow"].Status != "skipped" {
		t.Fatalf("after cancelling one node: %+v", res.Nodes)
	}
	if res.Status != store.RunCancelled {
		t.Errorf("run status %s, want cancelled (resumable)", res.Status)
	}
	// The author skips the cancelled node: its dependent runs without it.
	opts, err := f.run.Decide(ctx, res.RunID, "slow", DecideSkip, "")
	if err != nil {
		t.Fatal(err)
	}
	res, err = f.run.Run(ctx, f.checked(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != store.RunDone || res.Nodes["after_slow"].Output != "went on" {
		t.Fatalf("after skip: %s %+v", res.Status, res.Nodes)
	}
}
