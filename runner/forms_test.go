package runner

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// scoringGate approves an output without the word "bad" and gives one
// reason per "bad" otherwise, so candidates can be ranked.
type scoringGate struct{}

func (scoringGate) Review(ctx context.Context, n *workflowlang.Node, out string, attempt int) (Verdict, error) {
	k := strings.Count(out, "bad")
	if k == 0 {
		return Verdict{Decision: Approve}, nil
	}
	reasons := make([]string, k)
	for i := range reasons {
		reasons[i] = "- «bad» is not allowed"
	}
	return Verdict{Decision: Retry, Reasons: reasons, Feedback: strings.Join(reasons, "\n")}, nil
}

func countContaining(f *fixture, text string) int {
	n := 0
	for _, r := range f.requests() {
		if strings.Contains(r.LastUser(), text) {
			n++
		}
	}
	return n
}

func TestRefineStopsEarlyWhenApproved(t *testing.T) {
	src := "node draft {\n  refine = 3\n  user \"\"\"Write the scene.\"\"\"\n}\n"
	f := newFixture(t, src, llmtest.Script{Replies: []llmtest.Reply{
		{Match: &llmtest.Match{Contains: "Critique:"}, Content: "a good draft", Times: -1},
		{Match: &llmtest.Match{Contains: "Draft:"}, Content: "It says bad once.", Times: -1},
		reply("Write the scene.", "a bad draft"),
	}})
	f.run = f.newRunner(scoringGate{})
	res, err := f.run.Run(context.Background(), f.checked(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := res.Nodes["draft"]
	if got.Status != "done" || got.Output != "a good draft" || got.Attempts != 2 {
		t.Fatalf("draft = %+v, want done after one pass", got)
	}
	if n := len(f.requests()); n != 3 {
		t.Errorf("%d model calls, want 3 (draft, critique, revise)", n)
	}
	crit := f.requests()[1]
	if crit.Model != "scripted-agent" || !strings.Contains(crit.LastUser(), "«bad» is not allowed") || !strings.Contains(crit.LastUser(), "Write the scene.") {
		t.Errorf("the critique did not go to the agent model with the instructions and findings: %s %q", crit.Model, crit.LastUser())
	}
	doc, _ := os.ReadFile(OutputPath(f.root, "workflows/w.flow", "draft"))
	if !strings.Contains(string(doc), "<details><summary>Pass 0") || !strings.Contains(string(doc), "a bad draft") {
		t.Errorf("the passes are not visible in the output document:\n%s", doc)
	}
	outs, _ := f.store.Outputs("workflows/w.flow", "draft")
	if len(outs) != 2 {
		t.Errorf("history keeps %d versions of the draft, want 2", len(outs))
	}
}

func TestRefineDepthCap(t *testing.T) {
	src := "node draft {\n  refine = 2\n  user \"\"\"Write the scene.\"\"\"\n}\n"
	f := newFixture(t, src, llmtest.Script{Default: &llmtest.Reply{Content: "still bad"}})
	f.run = f.newRunner(scoringGate{})
	res, err := f.run.Run(context.Background(), f.checked(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Nodes["draft"]; got.Status != "flagged" {
		t.Fatalf("draft = %+v, want flagged at the depth limit", got)
	}
	if n := countContaining(f, "Critique:"); n != 2 {
		t.Errorf("%d revisions, want exactly 2", n)
	}
}

func TestCandidatesSelectByScore(t *testing.T) {
	src := "node opening {\n  candidates = 3\n  generations = 2\n  user \"\"\"Open the chapter.\"\"\"\n}\n"
	f := newFixture(t, src, llmtest.Script{Replies: []llmtest.Reply{
		{Match: &llmtest.Match{Contains: "Improve on this version"}, Content: "refined opening", Times: -1},
		reply("Open the chapter.", "bad bad opening"),
		reply("Open the chapter.", "plain opening"),
		reply("Open the chapter.", "bad opening"),
	}})
	f.run = f.newRunner(scoringGate{})
	var mu sync.Mutex // candidates report their steps concurrently
	var steps []string
	obs := Observer{Step: func(node, msg string) { mu.Lock(); steps = append(steps, msg); mu.Unlock() }}
	res, err := f.run.Run(context.Background(), f.checked(), Options{Observer: obs})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Nodes["opening"]; got.Status != "done" || got.Output != "refined opening" {
		t.Fatalf("opening = %+v", got)
	}
	// The second generation was seeded with the best of the first.
	for _, r := range f.requests() {
		if strings.Contains(r.LastUser(), "Improve on this version") && !strings.Contains(r.LastUser(), "plain opening") {
			t.Errorf("generation 2 was not seeded with the winner: %q", r.LastUser())
		}
	}
	if n := len(f.requests()); n != 6 {
		t.Errorf("%d model calls, want 6 (3 candidates × 2 generations)", n)
	}
	outs, _ := f.store.Outputs("workflows/w.flow", "opening")
	if len(outs) != 6 {
		t.Errorf("history keeps %d candidates, want all 6", len(outs))
	}
	if !strings.Contains(strings.Join(steps, ";"), "generation 2 of 2, candidate 3 of 3") {
		t.Errorf("progress steps: %v", steps)
	}
}

func TestCandidatesHumanSelection(t *testing.T) {
	src := "node ending {\n  candidates = 2\n  select = \"human\"\n  user \"\"\"End it.\"\"\"\n}\nnode after { user \"\"\"after {{ending}}\"\"\" }\n"
	f := newFixture(t, src, llmtest.Script{Replies: []llmtest.Reply{
		reply("after", "epilogue"), reply("End it.", "ending one"), reply("End it.", "ending two"),
	}})
	ctx := context.Background()
	res, err := f.run.Run(ctx, f.checked(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := res.Nodes["ending"]
	if got.Status != "flagged" || len(got.Select) != 2 || res.Status != store.RunWaiting {
		t.Fatalf("ending = %+v, run %s: want a pause for the author's choice", got, res.Status)
	}
	cp, _ := f.store.Checkpoint(res.RunID)
	if len(cp.Pending) != 1 || cp.Pending[0].Kind != "select" {
		t.Errorf("pending %+v", cp.Pending)
	}
	// The author keeps "ending two", whichever version it got.
	outs, _ := f.store.Outputs("workflows/w.flow", "ending")
	pick := 0
	for _, o := range outs {
		if o.Text == "ending two" {
			pick = o.Version
		}
	}
	opts, err := f.run.Decide(ctx, res.RunID, "ending", DecideSelect, "v"+itoa(pick))
	if err != nil {
		t.Fatal(err)
	}
	res, err = f.run.Run(ctx, f.checked(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != store.RunDone || res.Nodes["ending"].Output != "ending two" || res.Nodes["after"].Output != "epilogue" {
		t.Fatalf("after the choice: %s %+v", res.Status, res.Nodes)
	}
	if n := len(f.requests()); n != 3 {
		t.Errorf("%d model calls, want 3 (the candidates came from history)", n)
	}
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func TestSubWorkflowRunsWithInputsAndReusesTheCache(t *testing.T) {
	main := `use "act.flow" as act1 {
  goal = """
    Bring Mr. Collins to Longbourn.
  """
}
node review { user """Review: {{act1.plan}}""" }
`
	act := `input goal "what the act must achieve"
node beats { user """Goal: {{goal}}""" }
node plan { user """Plan from {{beats}}""" }
node unused_here { user """not needed""" }
`
	f := newFixture(t, main, llmtest.Script{Replies: []llmtest.Reply{
		reply("Goal: Bring Mr. Collins", "eight beats"),
		reply("Plan from eight beats", "the plan"),
		reply("Review: the plan", "looks right"),
	}})
	if err := os.WriteFile(filepath.Join(f.root, "workflows", "act.flow"), []byte(act), 0o644); err != nil {
		t.Fatal(err)
	}
	env := workflowlang.Env{Load: func(from, use string) (*workflowlang.File, error) {
		p := filepath.Join(filepath.Dir(from), use)
		src, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		return workflowlang.Parse(p, src), nil
	}}
	f.run.cfg.Env = env
	src, _ := os.ReadFile(f.flow)
	wf := workflowlang.Check(workflowlang.Parse(f.flow, src), env)
	res, err := f.run.Run(context.Background(), wf, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != store.RunDone || res.Nodes["review"].Output != "looks right" {
		t.Fatalf("run %s %+v", res.Status, res.Nodes)
	}
	if n := len(f.requests()); n != 3 {
		t.Errorf("%d model calls, want 3 (unused_here must not run)", n)
	}
	if cur, ok, _ := f.store.CurrentOutput("workflows/act.flow", "plan"); !ok || cur.Text != "the plan" {
		t.Errorf("the sub-workflow's history: %+v %v", cur, ok)
	}
	if _, err := f.run.Run(context.Background(), wf, Options{}); err != nil {
		t.Fatal(err)
	}
	if n := len(f.requests()); n != 3 {
		t.Errorf("a second run called the model %d more times", n-3)
	}
}

func TestCancelStopsARefineLoop(t *testing.T) {
	src := "node draft {\n  refine = 5\n  user \"\"\"Write the scene.\"\"\"\n}\n"
	f := newFixture(t, src, llmtest.Script{Replies: []llmtest.Reply{
		{Match: &llmtest.Match{Contains: "Draft:"}, Fault: llmtest.FaultHang, Times: -1},
		reply("Write the scene.", "bad draft"),
	}})
	f.run = f.newRunner(scoringGate{})
	ctx, cancel := context.WithCancel(context.Background())
	obs := Observer{Step: func(node, msg string) {
		if strings.Contains(msg, "critique") {
			cancel()
		}
	}}
	done := make(chan *Result, 1)
	go func() {
		res, _ := f.run.Run(ctx, f.checked(), Options{Observer: obs})
		done <- res
	}()
	select {
	case res := <-done:
		if res.Status != store.RunCancelled || res.Nodes["draft"].Status != "cancelled" {
			t.Errorf("after cancel: %s %+v", res.Status, res.Nodes["draft"])
		}
	case <-time.After(20 * time.Second):
		t.Fatal("cancel did not stop the refine loop")
	}
}

// TestResumeAfterKillMidGeneration kills a run while one candidate of a
// generation hangs; the resumed run asks the model only for that one.
func TestResumeAfterKillMidGeneration(t *testing.T) {
	src := "node opening {\n  candidates = 3\n  user \"\"\"Open the chapter.\"\"\"\n}\n"
	f := newFixture(t, src, llmtest.Script{Replies: []llmtest.Reply{
		reply("Open the chapter.", "first"),
		reply("Open the chapter.", "second"),
		{Match: &llmtest.Match{Contains: "Open the chapter."}, Fault: llmtest.FaultHang, Times: 1},
		reply("Open the chapter.", "third"),
	}})
	f.store.Close()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "FLOWCABAL_RUNNER_CHILD_ROOT="+f.root, "FLOWCABAL_RUNNER_CHILD_URL="+f.srv.URL)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		st, err := store.Open(context.Background(), f.root, store.Options{ReadOnly: true, ReadOnlyIfLocked: true})
		if err == nil {
			outs, _ := st.Outputs("workflows/w.flow", "opening")
			st.Close()
			if len(outs) == 2 && countContaining(f, "Open the chapter.") == 3 {
				break
			}
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the child never recorded two candidates")
		}
		time.Sleep(20 * time.Millisecond) // polling another process
	}
	_ = cmd.Process.Signal(syscall.SIGKILL)
	_ = cmd.Wait()
	st, err := store.Open(context.Background(), f.root, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	f.store = st
	f.run = f.newRunner(nil)
	runs, _ := st.Runs("workflows/w.flow", true)
	if len(runs) != 1 {
		t.Fatalf("unfinished runs: %+v", runs)
	}
	res, err := f.run.Run(context.Background(), f.checked(), Options{Resume: runs[0].RunID})
	if err != nil || res.Status != store.RunDone {
		t.Fatalf("resume: %v %+v", err, res)
	}
	if n := countContaining(f, "Open the chapter."); n != 4 {
		t.Errorf("%d requests for candidates, want 4 (3 before the kill, 1 after)", n)
	}
	outs, _ := st.Outputs("workflows/w.flow", "opening")
	if len(outs) != 3 {
		t.Errorf("history has %d candidates, want 3", len(outs))
	}
}
