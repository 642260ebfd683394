package monitor

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/core"
	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/store"
)

const (
	childDirEnv = "FLOWCABAL_MONITOR_KILL_DIR"
	childURLEnv = "FLOWCABAL_MONITOR_KILL_URL"
)

// TestDiscardAfterKill runs a model check in a child process (this test
// binary re-executed), SIGKILLs it while an angle's model call hangs, and
// checks that the run left running in the store is found and discarded
// cleanly, with the discard in the agent log.
func TestDiscardAfterKill(t *testing.T) {
	if dir := os.Getenv(childDirEnv); dir != "" {
		st, err := store.Open(context.Background(), dir, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		c, err := llm.New(llm.Config{Name: "agent", BaseURL: os.Getenv(childURLEnv), Model: "agent-model"},
			llm.Options{Retry: llm.RetryPolicy{MaxRetries: -1}, Getenv: func(string) string { return "" }})
		if err != nil {
			t.Fatal(err)
		}
		m, err := core.NewManager(core.Options{Client: c, Store: st})
		if err != nil {
			t.Fatal(err)
		}
		mon, err := ForProject(dir, st, m, Options{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = mon.Check(context.Background(), Request{Text: outputEN, Chapter: 3})
		t.Fatalf("the child should have been killed; the check ended with %v", err)
	}
	dir := copyProject(t)
	srv := llmtest.New(t, llmtest.Script{Replies: []llmtest.Reply{
		reply("timeline", `{"findings":[]}`),
		{Match: angle("character state"), Fault: llmtest.FaultHang},
	}})
	cmd := exec.Command(os.Args[0], "-test.run=^TestDiscardAfterKill$")
	cmd.Env = append(os.Environ(), childDirEnv+"="+dir, childURLEnv+"="+srv.URL)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for srv.Count() < 2 {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("the child never reached the character angle:\n%s", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()

	st, err := store.Open(context.Background(), dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	c, err := llm.New(llm.Config{Name: "agent", BaseURL: srv.URL, Model: "agent-model"},
		llm.Options{Retry: llm.RetryPolicy{MaxRetries: -1}, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	m, err := core.NewManager(core.Options{Client: c, Store: st})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	pending, err := m.Unfinished()
	if err != nil || len(pending) != 1 || pending[0].Role != Role || !strings.Contains(pending[0].Input, "as chapter 3") {
		t.Fatalf("unfinished = %+v, %v", pending, err)
	}
	mon, err := ForProject(dir, st, m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	n, err := mon.DiscardUnfinished(context.Background())
	if err != nil || n != 1 {
		t.Fatalf("discarded %d, %v; want 1", n, err)
	}
	if again, _ := m.Unfinished(); len(again) != 0 {
		t.Errorf("still unfinished after the discard: %+v", again)
	}
	log, err := st.Log(store.LogQuery{RunID: pending[0].RunID})
	if err != nil {
		t.Fatal(err)
	}
	var steps []string
	for _, e := range log {
		steps = append(steps, e.Agent+":"+e.Status)
	}
	got := strings.Join(steps, " ")
	if !strings.Contains(got, "timeline:ok") || !strings.HasSuffix(got, "parallel:discarded") {
		t.Errorf("log of the killed run: %s", got)
	}
}
