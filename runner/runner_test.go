package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// fixture is a project with one workflow, a real store and the real LLM
// client talking to a scripted server.
type fixture struct {
	t     testing.TB
	root  string
	flow  string
	srv   *llmtest.Server
	store *store.Store
	run   *Runner
	gate  Gate
}

func newFixture(t testing.TB, src string, script llmtest.Script) *fixture {
	t.Helper()
	root := t.TempDir()
	flow := filepath.Join(root, "workflows", "w.flow")
	if err := os.MkdirAll(filepath.Dir(flow), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(flow, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.New(t, script)
	st, err := store.Open(context.Background(), root, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := &fixture{t: t, root: root, flow: flow, srv: srv, store: st}
	f.run = f.newRunner(nil)
	return f
}

func (f *fixture) newRunner(g Gate) *Runner {
	clients := &Clients{
		Config: func(name string) (llm.Config, error) {
			return llm.Config{Name: name, BaseURL: f.srv.URL, Model: "scripted-" + name}, nil
		},
		Options: llm.Options{Retry: llm.RetryPolicy{MaxRetries: 1, BaseDelay: time.Millisecond}},
	}
	return New(Config{
		Root: f.root, Model: clients, History: f.store, Gate: g, Concurrency: 4,
		Params: func(wf *workflowlang.Result, n *workflowlang.Node) (Params, error) {
			p := Params{ModelName: "writer", Model: "scripted-writer", BaseURL: f.srv.URL}
			if a := n.Attr("model"); a != nil {
				p.ModelName = valueText(a.Value)
			}
			return p, nil
		},
		ModelParams: func(name string) (Params, error) {
			return Params{ModelName: name, Model: "scripted-" + name, BaseURL: f.srv.URL}, nil
		},
	})
}

func (f *fixture) checked() *workflowlang.Result {
	f.t.Helper()
	src, err := os.ReadFile(f.flow)
	if err != nil {
		f.t.Fatal(err)
	}
	res := workflowlang.Check(workflowlang.Parse(f.flow, src), workflowlang.Env{})
	for _, d := range res.Diagnostics {
		if d.Severity == workflowlang.SeverityError {
			f.t.Fatalf("workflow has an error: %s", d.Message)
		}
	}
	return res
}

func (f *fixture) requests() []llmtest.Request {
	var out []llmtest.Request
	for _, r := range f.srv.Requests() {
		if r.Endpoint == "chat" {
			out = append(out, r)
		}
	}
	return out
}

const chain = `
workflow "chain" {}
node a { user """Write A.""" }
node b { user """Expand: {{a}}""" }
node c { user """Conclude: {{b}}""" }
`

func reply(contains, content string) llmtest.Reply {
	return llmtest.Reply{Match: &llmtest.Match{Contains: contains}, Content: content}
}

func TestRunChainPassesOutputsDownstream(t *testing.T) {
	f := newFixture(t, chain, llmtest.Script{Replies: []llmtest.Reply{
		reply("Write A.", "alpha"), reply("Expand: alpha", "beta"), reply("Conclude: beta", "gamma"),
	}})
	res, err := f.run.Run(context.Background(), f.checked(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != store.RunDone {
		t.Fatalf("status %s, want done: %+v", res.Status, res.Nodes)
	}
	for node, want := range map[string]string{"a": "alpha", "b": "beta", "c": "gamma"} {
		if got := res.Nodes[node]; got.Status != "done" || got.Output != want {
			t.Errorf("node %s = %s %q, want done %q", node, got.Status, got.Output, want)
		}
		cur, ok, err := f.store.CurrentOutput("workflows/w.flow", node)
		if err != nil || !ok || cur.Text != want {
			t.Errorf("history of %s: %q %v %v", node, cur.Text, ok, err)
		}
		doc, err := os.ReadFile(OutputPath(f.root, "workflows/w.flow", node))
		if err != nil || !strings.HasSuffix(string(doc), want) || !strings.Contains(string(doc), "approved v1") {
			t.Errorf("output document of %s: %q %v", node, doc, err)
		}
	}
	cp, err := f.store.Checkpoint(res.RunID)
	if err != nil || cp.Status != store.RunDone || len(cp.Nodes) != 3 {
		t.Errorf("checkpoint %+v %v", cp, err)
	}
}

func TestCacheHitAndRunAnyway(t *testing.T) {
	f := newFixture(t, chain, llmtest.Script{Default: &llmtest.Reply{Echo: true}})
	ctx := context.Background()
	if _, err := f.run.Run(ctx, f.checked(), Options{}); err != nil {
		t.Fatal(err)
	}
	first := len(f.requests())
	res, err := f.run.Run(ctx, f.checked(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.requests()); n != first {
		t.Errorf("an unchanged workflow called the model %d more times", n-first)
	}
	for _, n := range []string{"a", "b", "c"} {
		if res.Nodes[n].Status != "cached" {
			t.Errorf("node %s: %s, want cached", n, res.Nodes[n].Status)
		}
	}
	// "Run anyway" on b re-runs b only: a comes from the cache, and c is
	// not requested.
	res, err = f.run.Run(ctx, f.checked(), Options{Target: Target{Node: "b"}, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.requests()); n != first+1 {
		t.Errorf("run anyway made %d calls, want 1", n-first)
	}
	if res.Nodes["b"].Status != "done" || res.Nodes["a"].Status != "cached" {
		t.Errorf("statuses %+v", res.Nodes)
	}
	if _, ok := res.Nodes["c"]; ok {
		t.Error("c ran although only b was asked for")
	}
}

func TestFrozenNodeReusesItsVersion(t *testing.T) {
	f := newFixture(t, chain, llmtest.Script{Default: &llmtest.Reply{Echo: true}})
	ctx := context.Background()
	if _, err := f.run.Run(ctx, f.checked(), Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.store.Freeze(ctx, "workflows/w.flow", "a", 1); err != nil {
		t.Fatal(err)
	}
	before := len(f.requests())
	res, err := f.run.Run(ctx, f.checked(), Options{Target: Target{Node: "a"}, Force: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Nodes["a"].Status != "frozen" || res.Nodes["a"].Version != 1 {
		t.Errorf("a = %+v, want frozen v1", res.Nodes["a"])
	}
	if len(f.requests()) != before {
		t.Error("a frozen node called the model")
	}
}

func TestIndependentBranchesRunConcurrently(t *testing.T) {
	src := `
node x { user """left""" }
node y { user """right""" }
node z { user """join {{x}} {{y}}""" }
`
	lat := llmtest.Duration(300 * time.Millisecond)
	f := newFixture(t, src, llmtest.Script{Latency: lat, Replies: []llmtest.Reply{
		reply("join", "joined"), reply("left", "LEFT"), reply("right", "RIGHT"),
	}})
	var cur, peak atomic.Int32
	obs := Observer{
		NodeStarted: func(string, int, int) {
			n := cur.Add(1)
			for {
				p := peak.Load()
				if n <= p || peak.CompareAndSwap(p, n) {
					break
				}
			}
		},
		NodeFinished: func(string, NodeResult) { cur.Add(-1) },
	}
	res, err := f.run.Run(context.Background(), f.checked(), Options{Observer: obs})
	if err != nil || res.Status != store.RunDone {
		t.Fatalf("%v %+v", err, res)
	}
	if peak.Load() < 2 {
		t.Errorf("x and y never ran at the same time (peak %d)", peak.Load())
	}
	var zPrompt string
	for _, r := range f.requests() {
		if strings.HasPrefix(r.LastUser(), "join") {
			zPrompt = r.LastUser()
		}
	}
	if zPrompt != "join LEFT RIGHT" {
		t.Errorf("z's prompt = %q, want both branches resolved", zPrompt)
	}
}

// scriptedGate asks for a retry while the output contains "bad", and flags
// outputs that contain "flag".
type scriptedGate struct {
	mu       sync.Mutex
	attempts map[string][]int
}

func (g *scriptedGate) Review(ctx context.Context, n *workflowlang.Node, out string, attempt int) (Verdict, error) {
	g.mu.Lock()
	if g.attempts == nil {
		g.attempts = map[string][]int{}
	}
	g.attempts[n.Name.Name] = append(g.attempts[n.Name.Name], attempt)
	g.mu.Unlock()
	switch {
	case strings.Contains(out, "flag"):
		return Verdict{Decision: Flag, Feedback: "a human should look"}, nil
	case strings.Contains(out, "bad"):
		return Verdict{Decision: Retry, Feedback: "remove the bad part"}, nil
	}
	return Verdict{Decision: Approve}, nil
}

func TestGateRetriesWithFeedbackAndFlagsPauseOneBranch(t *testing.T) {
	src := `
node good { user """first draft""" }
node after_good { user """continue {{good}}""" }
node risky { user """risky one""" }
node after_risky { user """continue {{risky}}""" }
`
	f := newFixture(t, src, llmtest.Script{Replies: []llmtest.Reply{
		{Match: &llmtest.Match{Contains: "remove the bad part"}, Content: "clean draft"},
		reply("first draft", "bad draft"),
		reply("continue clean draft", "next"),
		reply("risky one", "please flag me"),
	}})
	g := &scriptedGate{}
	f.run = f.newRunner(g)
	res, err := f.run.Run(context.Background(), f.checked(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Nodes["good"]; got.Status != "done" || got.Output != "clean draft" || got.Attempts != 2 {
		t.Errorf("good = %+v, want done after one retry", got)
	}
	if res.Nodes["after_good"].Status != "done" {
		t.Errorf("the unflagged branch stopped: %+v", res.Nodes["after_good"])
	}
	if res.Nodes["risky"].Status != "flagged" {
		t.Errorf("risky = %+v, want flagged", res.Nodes["risky"])
	}
	if res.Nodes["after_risky"].Status != "skipped" {
		t.Errorf("after_risky = %+v, want skipped behind the flag", res.Nodes["after_risky"])
	}
	if res.Status != store.RunWaiting {
		t.Errorf("run status %s, want waiting", res.Status)
	}
	cp, _ := f.store.Checkpoint(res.RunID)
	if len(cp.Pending) != 1 || cp.Pending[0].Node != "risky" {
		t.Errorf("pending decisions %+v", cp.Pending)
	}
	// Both attempts of "good" are in the history.
	outs, _ := f.store.Outputs("workflows/w.flow", "good")
	if len(outs) != 2 {
		t.Errorf("history of good has %d versions, want 2", len(outs))
	}
}

func TestRetriesAreCapped(t *testing.T) {
	src := "node n {\n  retries = 2\n  user \"\"\"go\"\"\"\n}\n"
	f := newFixture(t, src, llmtest.Script{Default: &llmtest.Reply{Content: "always bad"}})
	f.run = f.newRunner(&scriptedGate{})
	res, err := f.run.Run(context.Background(), f.checked(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Nodes["n"]; got.Status != "flagged" || got.Attempts != 3 {
		t.Errorf("n = %s after %d attempts, want flagged after 3 (1 + 2 retries)", got.Status, got.Attempts)
	}
}

func TestCancelStopsTheRun(t *testing.T) {
	f := newFixture(t, chain, llmtest.Script{Default: &llmtest.Reply{Fault: llmtest.FaultHang}})
	ctx, cancel := context.WithCancel(context.Background())
	started := make(chan struct{}, 1)
	obs := Observer{NodeStarted: func(string, int, int) { started <- struct{}{} }}
	done := make(chan *Result, 1)
	go func() {
		res, _ := f.run.Run(ctx, f.checked(), Options{Observer: obs})
		done <- res
	}()
	<-started
	cancel()
	res := <-done
	if res.Status != store.RunCancelled {
		t.Fatalf("status %s, want cancelled", res.Status)
	}
	cp, err := f.store.Checkpoint(res.RunID)
	if err != nil || cp.Status != store.RunCancelled {
		t.Errorf("checkpoint after cancel: %+v %v", cp, err)
	}
}

func TestModelFailureIsReportedAndStopsTheBranch(t *testing.T) {
	f := newFixture(t, chain, llmtest.Script{Default: &llmtest.Reply{Fault: "500"}})
	res, err := f.run.Run(context.Background(), f.checked(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := res.Nodes["a"]
	var le *llm.Error
	if a.Status != "failed" || !errors.As(a.Err, &le) {
		t.Fatalf("a = %+v, want failed with an llm.Error", a)
	}
	if !strings.Contains(a.Err.Error(), f.srv.URL) {
		t.Errorf("the error does not name the endpoint: %v", a.Err)
	}
	if res.Nodes["b"].Status != "skipped" || res.Status != store.RunFailed {
		t.Errorf("b = %s, run = %s", res.Nodes["b"].Status, res.Status)
	}
}

func TestPlanTargets(t *testing.T) {
	src := `
node a { user """a""" }
node b { user """{{a}}""" }
node c { user """{{b}}""" }
node d { user """{{a}}""" }
`
	res := workflowlang.Check(workflowlang.Parse("p.flow", []byte(src)), workflowlang.Env{})
	for _, tc := range []struct {
		t    Target
		want string
	}{
		{Target{}, "a b c d"},
		{Target{Node: "c"}, "a b c"},
		{Target{Node: "b", From: true}, "a b c"},
		{Target{Node: "a", From: true}, "a b c d"},
		{Target{Node: "d"}, "a d"},
	} {
		p, err := NewPlan(res, tc.t)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(p.Order, " "); got != tc.want {
			t.Errorf("plan %+v = %s, want %s", tc.t, got, tc.want)
		}
	}
	if _, err := NewPlan(res, Target{Node: "nope"}); err == nil {
		t.Error("an unknown node was planned")
	}
	bad := workflowlang.Check(workflowlang.Parse("p.flow", []byte("node a { user \"\"\"{{b}}\"\"\" }\nnode b { user \"\"\"{{a}}\"\"\" }\n")), workflowlang.Env{})
	if _, err := NewPlan(bad, Target{}); !errors.Is(err, ErrNotRunnable) {
		t.Errorf("a cyclic workflow was planned: %v", err)
	}
}

// A node runs when it and what it reads are valid, whatever the rest of the
// file holds; an error in its chain blocks it and is named with its line.
func TestPlanIgnoresErrorsOutsideTheChain(t *testing.T) {
	src := "node 大纲 { user \"\"\"beats\"\"\" }\n" +
		"node 草稿 { user \"\"\"{{大纲}}\"\"\" }\n" +
		"node 修订 { user \"\"\"{{草稿}} {{未知}}\"\"\" }\n" +
		"node x { user \"\"\"{{y}}\"\"\" }\n" +
		"node y { user \"\"\"{{x}}\"\"\" }\n"
	res := workflowlang.Check(workflowlang.Parse("p.flow", []byte(src)), workflowlang.Env{})
	for _, tc := range []struct {
		t       Target
		want    string // the plan, or the error's text
		blocked bool
	}{
		{Target{Node: "草稿"}, "大纲 草稿", false},
		{Target{Node: "大纲"}, "大纲", false},
		{Target{Node: "修订"}, "node 修订 cannot run: p.flow:3, in node 修订", true},
		{Target{Node: "大纲", From: true}, "node 大纲 cannot run: p.flow:3, in node 修订", true},
		{Target{Node: "x"}, "p.flow:4, in node x: cycle", true},
		{Target{}, "the workflow cannot run", true},
	} {
		p, err := NewPlan(res, tc.t)
		switch {
		case tc.blocked && (!errors.Is(err, ErrNotRunnable) || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("plan %+v: err = %v, want ErrNotRunnable with %q", tc.t, err, tc.want)
		case !tc.blocked && err != nil:
			t.Errorf("plan %+v: %v", tc.t, err)
		case !tc.blocked && strings.Join(p.Order, " ") != tc.want:
			t.Errorf("plan %+v = %v, want %s", tc.t, p.Order, tc.want)
		}
	}
}
