package runner

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// The child side of TestResumeAfterKill: it runs the workflow of the
// project named in the environment until the parent kills it. Or the
// scripted server of BenchmarkCriticalPathServerApart.
func TestMain(m *testing.M) {
	if root := os.Getenv("FLOWCABAL_RUNNER_CHILD_ROOT"); root != "" {
		os.Exit(runChild(root, os.Getenv("FLOWCABAL_RUNNER_CHILD_URL")))
	}
	if latency := os.Getenv("FLOWCABAL_RUNNER_SCRIPTED_LATENCY"); latency != "" {
		os.Exit(serveScripted(latency))
	}
	os.Exit(m.Run())
}

func runChild(root, url string) int {
	f := &fixture{root: root, flow: root + "/workflows/w.flow", srv: &llmtest.Server{URL: url}}
	st, err := store.Open(context.Background(), root, store.Options{})
	if err != nil {
		return 3
	}
	f.store = st
	f.run = f.newRunner(nil)
	// Every call is recorded in the agent log as it returns, as in a
	// project's runs (ForProject).
	f.run.cfg.Model.(*Clients).Options.Recorder = LogRecorder{Store: st}
	src, err := os.ReadFile(f.flow)
	if err != nil {
		return 3
	}
	wf := workflowlang.Check(workflowlang.Parse(f.flow, src), workflowlang.Env{})
	if _, err := f.run.Run(context.Background(), wf, Options{}); err != nil {
		return 4
	}
	return 0
}

// TestResumeAfterKill kills a run with SIGKILL while its third node waits
// on the model, after the second has ended, then resumes it: the finished
// nodes are not run again and the run completes.
func TestResumeAfterKill(t *testing.T) {
	f := newFixture(t, chain, llmtest.Script{Replies: []llmtest.Reply{
		reply("Write A.", "alpha"),
		reply("Expand: alpha", "beta"),
		{Match: &llmtest.Match{Contains: "Conclude: beta"}, Fault: llmtest.FaultHang, Times: 1},
		reply("Conclude: beta", "gamma"),
	}})
	f.store.Close() // the child holds the project while it runs

	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "FLOWCABAL_RUNNER_CHILD_ROOT="+f.root, "FLOWCABAL_RUNNER_CHILD_URL="+f.srv.URL)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	// Node c starts as soon as b's output is approved, while b is still
	// being recorded: kill once b's document says it ended.
	bDoc := OutputPath(f.root, "workflows/w.flow", "b")
	for !sawRequest(f.srv, "Conclude: beta") || !fileContains(bDoc, "approved v1") {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the child never reached node c")
		}
		time.Sleep(10 * time.Millisecond) // polling another process: no signal to wait on
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	st, err := store.Open(context.Background(), f.root, store.Options{})
	if err != nil {
		t.Fatalf("the store does not open after the kill: %v", err)
	}
	defer st.Close()
	f.store = st
	f.run = f.newRunner(nil)
	runs, err := st.Runs("workflows/w.flow", true)
	if err != nil || len(runs) != 1 {
		t.Fatalf("unfinished runs after the kill: %+v %v", runs, err)
	}
	// What the killed run spent is what the endpoint billed: every reply
	// delivered whole is in the agent log, counted to the run, and the
	// call cut by the kill is not.
	checkBilled(t, st, f.srv, runs[0].RunID)

	// b ended: its output is in the history, whether or not the
	// checkpoint that acknowledges it was saved before the kill.
	if outs, err := st.Outputs("workflows/w.flow", "b"); err != nil || len(outs) != 1 || outs[0].Text != "beta" || outs[0].RunID != runs[0].RunID {
		t.Fatalf("the history lost node b: %+v %v (checkpoint %+v)", outs, err, runs[0].Nodes)
	}
	for n, nr := range runs[0].Nodes {
		if nr.Status == "done" {
			if _, err := st.OutputVersion("workflows/w.flow", n, nr.Version); err != nil {
				t.Errorf("the checkpoint has %s done but its output is not in the history: %v", n, err)
			}
		}
	}
	res, err := f.run.Run(context.Background(), f.checked(), Options{Resume: runs[0].RunID})
	if err != nil {
		t.Fatal(err)
	}
	if res.Status != store.RunDone || res.Nodes["c"].Output != "gamma" {
		t.Fatalf("resumed run: %s %+v", res.Status, res.Nodes)
	}
	count := map[string]int{}
	for _, r := range f.requests() {
		count[strings.SplitN(r.LastUser(), ":", 2)[0]]++
	}
	if count["Write A."] != 1 || count["Expand"] != 1 {
		t.Errorf("finished nodes were run again: %v", count)
	}
	if count["Conclude"] != 2 {
		t.Errorf("node c was requested %d times, want 2 (killed, then resumed)", count["Conclude"])
	}
}

// checkBilled compares the tokens the agent log counts to run with those
// of the replies the scripted server delivered whole.
func checkBilled(t *testing.T, st *store.Store, srv *llmtest.Server, run string) {
	t.Helper()
	var billedIn, billedOut, billed int
	for _, r := range srv.Requests() {
		if r.Billed != nil {
			billed++
			billedIn += r.Billed.PromptTokens
			billedOut += r.Billed.CompletionTokens
		}
	}
	entries, err := st.Log(store.LogQuery{Role: "writer"})
	if err != nil {
		t.Fatal(err)
	}
	var in, out, calls int
	for _, e := range entries {
		if e.WorkflowRun != run {
			continue
		}
		if e.Workflow != "workflows/w.flow" || e.Node == "" {
			t.Errorf("a log entry is not attributed to its workflow and node: %+v", e)
		}
		calls++
		in += e.TokensIn
		out += e.TokensOut
	}
	if billed == 0 || calls != billed || in != billedIn || out != billedOut {
		t.Errorf("the log counts %d calls, %d+%d tokens to run %s; the endpoint billed %d calls, %d+%d tokens",
			calls, in, out, run, billed, billedIn, billedOut)
	}
	t.Logf("after the kill: %d calls, %d prompt + %d completion tokens, logged and billed alike", calls, in, out)
}

func fileContains(path, text string) bool {
	data, err := os.ReadFile(path)
	return err == nil && strings.Contains(string(data), text)
}

func sawRequest(s *llmtest.Server, text string) bool {
	for _, r := range s.Requests() {
		if strings.Contains(r.LastUser(), text) {
			return true
		}
	}
	return false
}

// TestKillAtRandomPoints kills a run of a ten-node DAG at random moments
// (FLOWCABAL_KILL_POINTS times, 3 by default; 20 or more for a longer
// campaign), resuming after each kill: the database always opens, no
// finished node is asked of the model again, and the run completes.
func TestKillAtRandomPoints(t *testing.T) {
	points := 3
	if v := os.Getenv("FLOWCABAL_KILL_POINTS"); v != "" {
		fmt.Sscan(v, &points)
	}
	src := layered(5, 2) // 10 nodes, 5 layers
	lat := llmtest.Duration(30 * time.Millisecond)
	f := newFixture(t, src, llmtest.Script{Default: &llmtest.Reply{Content: "ok"}, Latency: lat})
	f.store.Close()
	rng := rand.New(rand.NewPCG(7, uint64(points)))
	survived := 0
	for k := 0; k < points; k++ {
		root := t.TempDir()
		if err := os.MkdirAll(filepath.Join(root, "workflows"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, "workflows", "w.flow"), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		before := len(f.requests())
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "FLOWCABAL_RUNNER_CHILD_ROOT="+root, "FLOWCABAL_RUNNER_CHILD_URL="+f.srv.URL)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Kill after a random number of model calls (0 to 9 of 10).
		after := rng.IntN(10)
		deadline := time.Now().Add(30 * time.Second)
		for len(f.requests())-before < after && time.Now().Before(deadline) {
			time.Sleep(2 * time.Millisecond) // the child's calls arrive at the scripted server
		}
		time.Sleep(time.Duration(rng.IntN(30)) * time.Millisecond) // anywhere inside a call or a commit
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()

		st, err := store.Open(context.Background(), root, store.Options{})
		if err != nil {
			t.Fatalf("kill %d: the database does not open: %v", k, err)
		}
		g := &fixture{t: t, root: root, flow: filepath.Join(root, "workflows", "w.flow"), srv: f.srv, store: st}
		g.run = g.newRunner(nil)
		wf := g.checked()
		finished := map[string]bool{}
		opts := Options{}
		if runs, _ := st.Runs("workflows/w.flow", true); len(runs) == 1 {
			opts.Resume = runs[0].RunID
			for n, nr := range runs[0].Nodes {
				if nr.Status == "done" {
					finished[n] = true
				}
			}
		}
		mid := len(f.requests())
		res, err := g.run.Run(context.Background(), wf, opts)
		if err != nil || res.Status != store.RunDone {
			st.Close()
			t.Fatalf("kill %d: resume: %v %+v", k, err, res)
		}
		for _, r := range f.requests()[mid:] {
			for n := range finished {
				if strings.HasPrefix(r.LastUser(), "step "+strings.ReplaceAll(strings.TrimPrefix(n, "n"), "_", ".")) {
					t.Errorf("kill %d: finished node %s was asked again", k, n)
				}
			}
		}
		st.Close()
		survived++
	}
	t.Logf("killed a run at %d random points; the database opened and the run finished every time (%d)", points, survived)
}
