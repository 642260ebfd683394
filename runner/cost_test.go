package runner

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/internal/projecttest"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// costToml points a sample project's models at the scripted server, with
// model ids of both tokeniser families (o200k_base, cl100k_base) and
// prices for both.
func costToml(url, extra string) string {
	return fmt.Sprintf(`budget = 24000
%s
[models.writer]
base_url = %q
model = "gpt-4o-mini"
max_tokens = 2000

[models.agent]
base_url = %q
model = "deepseek-chat"

[prices.writer]
input = 0.15
output = 0.60

[prices.agent]
input = 0.27
output = 1.10
`, extra, url, url)
}

// costProject is a sample project wired to a scripted server, with its
// store open and indexed.
type costProject struct {
	t    *testing.T
	root string
	srv  *llmtest.Server
	st   *store.Store
	cfg  *project.Config
}

func newCostProject(t *testing.T, name, extra string) *costProject {
	t.Helper()
	root := projecttest.Copy(t, name)
	srv := llmtest.New(t, llmtest.Script{})
	if err := os.WriteFile(filepath.Join(root, project.ConfigFile), []byte(costToml(srv.URL, extra)), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := project.LoadConfig(root)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), root, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return &costProject{t: t, root: root, srv: srv, st: st, cfg: cfg}
}

func (p *costProject) runner() *Runner {
	p.t.Helper()
	r, err := ForProject(context.Background(), p.root, p.cfg, p.st, ProjectOptions{
		Getenv: func(string) string { return "" }, Retry: llm.RetryPolicy{MaxRetries: 1}})
	if err != nil {
		p.t.Fatal(err)
	}
	return r
}

func (p *costProject) workflow(rel string) *workflowlang.Result {
	p.t.Helper()
	path := filepath.Join(p.root, filepath.FromSlash(rel))
	env := workflowlang.Env{Load: func(from, use string) (*workflowlang.File, error) {
		q := filepath.Join(filepath.Dir(from), use)
		src, err := os.ReadFile(q)
		if err != nil {
			return nil, err
		}
		return workflowlang.Parse(q, src), nil
	}}
	src, err := os.ReadFile(path)
	if err != nil {
		p.t.Fatal(err)
	}
	return workflowlang.Check(workflowlang.Parse(path, src), env)
}

// sent returns the prompt tokens the scripted server counted in the first
// call made for each node of workflow after log entry seq, as the agent
// log recorded the endpoint's usage.
func (p *costProject) sent(workflow string, after uint64) map[string]int {
	p.t.Helper()
	entries, err := p.st.Log(store.LogQuery{Role: "writer"})
	if err != nil {
		p.t.Fatal(err)
	}
	out := map[string]int{}
	for _, e := range entries {
		if e.Seq <= after || e.Workflow != workflow || e.Status != "ok" {
			continue
		}
		if _, ok := out[e.Node]; !ok {
			out[e.Node] = e.TokensIn
		}
	}
	return out
}

func (p *costProject) lastSeq() uint64 {
	entries, _ := p.st.Log(store.LogQuery{Limit: 1})
	if len(entries) == 0 {
		return 0
	}
	return entries[0].Seq
}

// TestEstimateMatchesWhatTheRunSends estimates every sample workflow,
// runs it, and compares each node's estimated prompt tokens with what the
// scripted server counted in the node's first call, with the same
// tokeniser: within 2%. The first time, the nodes that read no other
// node's output are compared (the others read outputs that do not exist
// yet, which the estimate stands in for); after a first run, every node,
// the sub-workflow's too.
func TestEstimateMatchesWhatTheRunSends(t *testing.T) {
	for _, tc := range []struct {
		project, flow string
		sub           string // a used workflow, estimated with its use's inputs
	}{
		{"pride-and-prejudice", "workflows/chapter-11.flow", ""},
		{"pride-and-prejudice", "workflows/explore.flow", ""},
		{"pride-and-prejudice", "workflows/book.flow", "workflows/act-1.flow"},
		{"hongloumeng", "workflows/第六回.flow", ""},
	} {
		t.Run(filepath.Base(tc.flow), func(t *testing.T) {
			p := newCostProject(t, tc.project, "")
			r := p.runner()
			wf := p.workflow(tc.flow)
			ctx := context.Background()

			first, err := r.Estimate(ctx, wf, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if tc.sub != "" {
				// The sub-workflow's nodes are in the caller's estimate
				// until its cache holds them.
				for _, n := range []string{"act1.beats", "act1.plan"} {
					if ne, ok := first.Node(n); !ok || ne.Err != nil || ne.Reuse != "" || ne.Cost <= 0 {
						t.Errorf("%s in the first estimate: %+v", n, ne)
					}
				}
			}
			if p.srv.Count() != 0 {
				t.Fatalf("the estimate called the endpoint %d times", p.srv.Count())
			}
			seq := p.lastSeq()
			if _, err := r.Run(ctx, wf, Options{}); err != nil {
				t.Fatal(err)
			}
			sent := p.sent(tc.flow, seq)
			for _, ne := range first.Nodes {
				if ne.Err != nil {
					t.Fatalf("%s: %v", ne.Node, ne.Err)
				}
				if n := wf.File.Node(ne.Node); n == nil || hasNodeRef(n) {
					// A sub-workflow's node (compared below), or one that
					// reads an output not produced yet.
					continue
				}
				checkClose(t, "first run", ne.Node, ne.Input, sent[ne.Node])
			}

			// Now every node's inputs exist: estimate, then run it all again.
			again, err := r.Estimate(ctx, wf, Options{Force: true})
			if err != nil {
				t.Fatal(err)
			}
			var sub *Estimate
			if tc.sub != "" {
				sub, err = r.Estimate(ctx, p.workflow(tc.sub), Options{Inputs: useInputs(t, wf, r)})
				if err != nil {
					t.Fatal(err)
				}
			}
			seq = p.lastSeq()
			if _, err := r.Run(ctx, wf, Options{Force: true}); err != nil {
				t.Fatal(err)
			}
			sent = p.sent(tc.flow, seq)
			for _, ne := range again.Nodes {
				if strings.Contains(ne.Node, ".") && ne.Reuse != "cached" {
					t.Errorf("%s: a forced run of the caller reuses the sub-workflow's cache, yet it is estimated %+v", ne.Node, ne)
				}
			}
			calls, in := p.total(tc.flow, seq)
			t.Logf("whole run: estimated %d calls, %d prompt tokens (every pass and candidate counted); sent %d calls, %d tokens",
				countCalls(again), again.Input, calls, in)
			if calls > countCalls(again) {
				t.Errorf("the run made %d calls, more than the %d estimated", calls, countCalls(again))
			}
			for _, ne := range again.Nodes {
				if strings.Contains(ne.Node, ".") {
					continue // the sub-workflow's, checked below
				}
				if ne.Reuse != "" {
					t.Errorf("%s: forced, yet estimated as %s", ne.Node, ne.Reuse)
				}
				checkClose(t, "forced run", ne.Node, ne.Input, sent[ne.Node])
				if len(ne.Calls) == 0 || ne.Cost <= 0 || !ne.Priced {
					t.Errorf("%s: calls %d, cost %v, priced %v", ne.Node, len(ne.Calls), ne.Cost, ne.Priced)
				}
			}
			if sub != nil {
				// The sub-workflow's nodes come from its cache in the
				// forced run (only the requested nodes are forced): compare
				// with the first run's calls, made from the same inputs.
				subSent := p.sent(tc.sub, 0)
				beats, _ := first.Node("act1.beats")
				checkClose(t, "first run, in the caller's estimate", "act1.beats", beats.Input, subSent["beats"])
				for _, ne := range sub.Nodes {
					checkClose(t, "sub-workflow", ne.Node, ne.Input, subSent[ne.Node])
				}
			}
		})
	}
}

// total counts the calls made for workflow after log entry seq, and
// their prompt tokens.
func (p *costProject) total(workflow string, after uint64) (calls, in int) {
	entries, _ := p.st.Log(store.LogQuery{Role: "writer"})
	for _, e := range entries {
		if e.Seq > after && e.Workflow == workflow && e.Status == "ok" {
			calls++
			in += e.TokensIn
		}
	}
	return calls, in
}

func countCalls(e *Estimate) int {
	n := 0
	for _, ne := range e.Nodes {
		n += len(ne.Calls)
	}
	return n
}

// TestEstimateCountsEveryPassAndCandidate checks the calls an estimate
// counts for the advanced forms of the explore sample.
func TestEstimateCountsEveryPassAndCandidate(t *testing.T) {
	p := newCostProject(t, "pride-and-prejudice", "")
	est, err := p.runner().Estimate(context.Background(), p.workflow("workflows/explore.flow"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	for node, want := range map[string]int{
		"opening":  4 * 2,   // candidates × generations
		"polished": 1 + 3*2, // the draft, then a critique and a revision a pass
		"pick":     3,       // candidates
	} {
		ne, _ := est.Node(node)
		if len(ne.Calls) != want {
			t.Errorf("%s: %d calls, want %d", node, len(ne.Calls), want)
		}
		var sum float64
		for _, c := range ne.Calls {
			sum += c.Cost
		}
		maxOut := want * 2000 // the writer's max_tokens
		if node == "polished" {
			maxOut = 4*2000 + 3*AssumedOutput // the agent's critiques set none
		}
		if math.Abs(sum-ne.Cost) > 1e-12 || ne.TotalOutput != maxOut {
			t.Errorf("%s: cost %v (calls sum to %v), max output %d", node, ne.Cost, sum, ne.TotalOutput)
		}
	}
	polished, _ := est.Node("polished")
	if polished.Calls[1].ModelName != "agent" || polished.Calls[2].Input <= polished.Calls[0].Input {
		t.Errorf("refinement calls: %+v", polished.Calls[:3])
	}
	if est.Cost <= 0 || est.Input != sumInputs(est) {
		t.Errorf("workflow: cost %v, input %d", est.Cost, est.Input)
	}
}

func sumInputs(e *Estimate) int {
	n := 0
	for _, ne := range e.Nodes {
		n += ne.TotalInput
	}
	return n
}

func hasNodeRef(n *workflowlang.Node) bool {
	for _, r := range n.Refs() {
		if r.Kind != workflowlang.RefKnowledge {
			return true
		}
	}
	return false
}

// useInputs are the inputs the use declarations of wf give their
// sub-workflows (the sample's one use).
func useInputs(t *testing.T, wf *workflowlang.Result, r *Runner) map[string]string {
	t.Helper()
	in := map[string]string{}
	for _, u := range wf.File.Uses {
		for _, a := range u.Args {
			ex := &execution{r: r, wf: wf, outputs: map[string]string{}}
			v, err := ex.valueOf(context.Background(), a.Value)
			if err != nil {
				t.Fatal(err)
			}
			in[a.Key.Name] = v
		}
	}
	return in
}

func checkClose(t *testing.T, when, node string, estimated, sent int) {
	t.Helper()
	if sent == 0 {
		t.Errorf("%s: %s: the endpoint got no call for it", when, node)
		return
	}
	diff := float64(estimated-sent) / float64(sent)
	t.Logf("%s: %-10s estimated %6d, sent %6d (%+.2f%%)", when, node, estimated, sent, 100*diff)
	if diff > 0.02 || diff < -0.02 {
		t.Errorf("%s: %s: estimated %d prompt tokens, the endpoint counted %d (%+.1f%%)", when, node, estimated, sent, 100*diff)
	}
}

// TestMaxCostStopsAndResumes gives a chain a max_cost that covers its
// first node only: the run stops before the second node's call, with a
// message that says why, and waits; resumed with a higher limit, it runs
// the rest and not the first node again.
func TestMaxCostStopsAndResumes(t *testing.T) {
	// A token costs 0.01 and each call may write ten: the limit admits
	// a's call and not b's once a's is paid for.
	f := newFixture(t, chain, llmtest.Script{Replies: []llmtest.Reply{
		reply("Write A.", "alpha"), reply("Expand: alpha", "beta"), reply("Conclude: beta", "gamma"),
	}})
	r := f.run
	r.cfg.Price = func(name, model string) (project.Price, bool) {
		return project.Price{Input: 10_000, Output: 10_000}, name == "writer"
	}
	base := r.cfg.Params
	r.cfg.Params = func(wf *workflowlang.Result, n *workflowlang.Node) (Params, error) {
		p, err := base(wf, n)
		p.MaxTokens = 10
		return p, err
	}
	est, err := r.Estimate(context.Background(), f.checked(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, _ := est.Node("a")
	r.cfg.MaxCost = a.Cost + 0.001
	ctx := context.Background()
	res, err := r.Run(ctx, f.checked(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != store.RunWaiting {
		t.Fatalf("status %s, want waiting: %+v", res.Status, res.Nodes)
	}
	if res.Nodes["a"].Status != "done" || res.Nodes["b"].Status != "stopped" || res.Nodes["c"].Status != "skipped" {
		t.Fatalf("nodes: a %s, b %s, c %s", res.Nodes["a"].Status, res.Nodes["b"].Status, res.Nodes["c"].Status)
	}
	var mce *MaxCostError
	if !errors.As(res.Nodes["b"].Err, &mce) || mce.Node != "b" || mce.MaxCost != r.cfg.MaxCost || mce.Spent <= 0 || mce.Spent+mce.Estimated <= mce.MaxCost {
		t.Fatalf("b's error: %v", res.Nodes["b"].Err)
	}
	msg := res.Nodes["b"].Err.Error()
	for _, want := range []string{"max_cost " + FormatCost(r.cfg.MaxCost) + " reached", "next call of b", "Raise max_cost", "resume"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	if n := len(f.requests()); n != 1 {
		t.Fatalf("%d calls were made, want 1 (b's was refused before it was sent)", n)
	}
	runs, err := f.store.Runs("workflows/w.flow", true)
	if err != nil || len(runs) != 1 || runs[0].RunID != res.RunID || len(runs[0].Pending) != 1 || runs[0].Pending[0].Kind != "max_cost" {
		t.Fatalf("the stopped run is not waiting to be resumed: %+v %v", runs, err)
	}

	// Resumed under the same limit, it stops again at once.
	res2, err := r.Run(ctx, f.checked(), Options{Resume: res.RunID})
	if err != nil || res2.Nodes["b"].Status != "stopped" || len(f.requests()) != 1 {
		t.Fatalf("resumed under the same limit: %v %+v, %d calls", err, res2.Nodes, len(f.requests()))
	}
	// With a higher one, it finishes.
	res3, err := r.Run(ctx, f.checked(), Options{Resume: res.RunID, MaxCost: 10})
	if err != nil {
		t.Fatal(err)
	}
	if res3.Status != store.RunDone || res3.Nodes["c"].Output != "gamma" || res3.Nodes["a"].Output != "alpha" {
		t.Fatalf("resumed: %s %+v", res3.Status, res3.Nodes)
	}
	count := map[string]int{}
	for _, q := range f.requests() {
		count[strings.SplitN(q.LastUser(), ":", 2)[0]]++
	}
	if count["Write A."] != 1 || count["Expand"] != 1 || count["Conclude"] != 1 {
		t.Errorf("calls after the resume: %v (a must not run again)", count)
	}
}

// TestMaxCostFromTheWorkflow reads the limit from the workflow header.
func TestMaxCostFromTheWorkflow(t *testing.T) {
	f := newFixture(t, strings.Replace(chain, `workflow "chain" {}`, `workflow "chain" { max_cost = 0.000001 }`, 1),
		llmtest.Script{Default: &llmtest.Reply{Content: "ok"}})
	f.run.cfg.Price = func(name, model string) (project.Price, bool) { return project.Price{Input: 1, Output: 1}, true }
	res, err := f.run.Run(context.Background(), f.checked(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Nodes["a"].Status != "stopped" || len(f.requests()) != 0 {
		t.Fatalf("a: %s, %d calls", res.Nodes["a"].Status, len(f.requests()))
	}
}

// TestEstimateAWorkflowWithABrokenNode estimates the nodes that can run
// when another has an error, and says why that one cannot.
func TestEstimateAWorkflowWithABrokenNode(t *testing.T) {
	f := newFixture(t, chain+"node d { user \"\"\"Review {{nowhere}}.\"\"\" }\n", llmtest.Script{})
	src, _ := os.ReadFile(f.flow)
	wf := workflowlang.Check(workflowlang.Parse(f.flow, src), workflowlang.Env{})
	est, err := f.run.Estimate(context.Background(), wf, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []string{"a", "b", "c"} {
		if ne, ok := est.Node(n); !ok || ne.Err != nil || ne.Input == 0 {
			t.Errorf("%s: %+v", n, ne)
		}
	}
	if d, ok := est.Node("d"); !ok || !errors.Is(d.Err, ErrNotRunnable) {
		t.Errorf("d: %+v", d)
	}
	if _, err := f.run.Estimate(context.Background(), wf, Options{Target: Target{Node: "d"}}); !errors.Is(err, ErrNotRunnable) {
		t.Errorf("estimating d alone: %v", err)
	}
}
