package runner

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// The child side of TestResumeAfterKill: it runs the workflow of the
// project named in the environment until the parent kills it.
func TestMain(m *testing.M) {
	if root := os.Getenv("FLOWCABAL_RUNNER_CHILD_ROOT"); root != "" {
		os.Exit(runChild(root, os.Getenv("FLOWCABAL_RUNNER_CHILD_URL")))
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
// on the model, then resumes it: the finished nodes are not run again and
// the run completes.
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
	for !sawRequest(f.srv, "Conclude: beta") {
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
	if runs[0].Nodes["b"].Status != "done" {
		t.Fatalf("the checkpoint lost node b: %+v", runs[0].Nodes)
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

func sawRequest(s *llmtest.Server, text string) bool {
	for _, r := range s.Requests() {
		if strings.Contains(r.LastUser(), text) {
			return true
		}
	}
	return false
}
