package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/internal/projecttest"
	"github.com/flowcabal/flowcabal/runner"
	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/workflowlang"
)

const key = "sk-session-test-0b1c"

// sample copies the English sample project and points its models at a
// scripted server.
func sample(t *testing.T, script llmtest.Script) (string, *llmtest.Server) {
	t.Helper()
	root := projecttest.Copy(t, "pride-and-prejudice")
	srv := llmtest.New(t, script)
	projecttest.UseModels(t, root, srv.URL, "K")
	return root, srv
}

func checked(t *testing.T, root, name string) (*workflowlang.Result, workflowlang.Env) {
	t.Helper()
	p := filepath.Join(root, "workflows", name)
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	env := workflowlang.Env{Load: func(from, use string) (*workflowlang.File, error) {
		q := filepath.Join(filepath.Dir(from), use)
		b, err := os.ReadFile(q)
		if err != nil {
			return nil, err
		}
		return workflowlang.Parse(q, b), nil
	}}
	return workflowlang.Check(workflowlang.Parse(p, src), env), env
}

type recorder struct {
	mu       sync.Mutex
	events   []string
	finished chan *runner.Result
}

func newSession(t *testing.T, root string) (*Session, *recorder) {
	rec := &recorder{finished: make(chan *runner.Result, 4)}
	add := func(e string) { rec.mu.Lock(); rec.events = append(rec.events, e); rec.mu.Unlock() }
	s := New(root, Options{
		Getenv: func(k string) string {
			if k == "K" {
				return key
			}
			return ""
		},
		Events: Events{
			RunStarted:   func(r RunInfo) { add("start " + r.Workflow) },
			NodeStarted:  func(r RunInfo, n string, k, total int) { add("node " + n) },
			NodeFinished: func(r RunInfo, res runner.NodeResult) { add("done " + res.Node + " " + res.Status) },
			RunFinished:  func(r RunInfo, res *runner.Result, err error) { add("end"); rec.finished <- res },
		},
	})
	t.Cleanup(func() { s.Close() })
	return s, rec
}

func TestNothingIsWrittenUntilTheAuthorActs(t *testing.T) {
	root, srv := sample(t, llmtest.Script{})
	s, _ := newSession(t, root)
	wf, _ := checked(t, root, "chapter-11.flow")
	// What the editor does on open: states, context preview, checks.
	_ = s.States(wf.File.Path)
	if _, err := s.Context(wf, "draft"); err != nil {
		t.Fatal(err)
	}
	_ = s.Check("Elizabth walked to Netherfield.", 11)
	if _, err := os.Stat(filepath.Join(root, ".flowcabal")); !os.IsNotExist(err) {
		t.Errorf("opening a workflow created .flowcabal: %v", err)
	}
	if len(srv.Requests()) != 0 {
		t.Error("opening a workflow called the model")
	}
}

func TestRunInTheBackgroundWithStatesAndCancel(t *testing.T) {
	root, _ := sample(t, llmtest.Script{Default: &llmtest.Reply{Content: "Jane came down after dinner."}, Latency: llmtest.Duration(50 * time.Millisecond)})
	s, rec := newSession(t, root)
	wf, env := checked(t, root, "chapter-11.flow")
	info, err := s.Run(context.Background(), wf, env, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(context.Background(), wf, env, runner.Options{}); err == nil || !strings.Contains(err.Error(), "already running") {
		t.Errorf("a second run of the same workflow started: %v", err)
	}
	// A node that cannot run says so, not that the workflow is busy.
	if _, err := s.Run(context.Background(), wf, env, runner.Options{Target: runner.Target{Node: "no-such-node"}}); err == nil || strings.Contains(err.Error(), "already running") {
		t.Errorf("a node that cannot run, while another run is on: %v", err)
	}
	res := <-rec.finished
	if res.Status != store.RunDone {
		t.Fatalf("run %s ended %s: %+v", info.ID, res.Status, res.Nodes)
	}
	st := s.States(wf.File.Path)
	if got := st["draft"].Label(); !strings.HasPrefix(got, "✓ approved") || !strings.HasSuffix(got, "v1") {
		t.Errorf("draft's lens: %q", got)
	}
	rec.mu.Lock()
	ev := strings.Join(rec.events, ";")
	rec.mu.Unlock()
	if !strings.HasPrefix(ev, "start workflows/chapter-11.flow;node premise;done premise done") || !strings.HasSuffix(ev, "end") {
		t.Errorf("events: %s", ev)
	}
	// Freeze, then a forced run keeps the frozen output.
	v, err := s.Freeze(context.Background(), wf.File.Path, "premise", 0)
	if err != nil || v != 1 {
		t.Fatalf("freeze: %d %v", v, err)
	}
	if got := s.States(wf.File.Path)["premise"].Label(); got != "❄ frozen v1" {
		t.Errorf("frozen lens: %q", got)
	}
	doc, _ := os.ReadFile(s.OutputPath(wf.File.Path, "premise"))
	if !strings.Contains(string(doc), "frozen v1") {
		t.Errorf("the output document does not say frozen: %s", doc)
	}
}

func TestCancelAndCloseSaveTheCheckpoint(t *testing.T) {
	root, srv := sample(t, llmtest.Script{Default: &llmtest.Reply{Fault: llmtest.FaultHang}})
	s, rec := newSession(t, root)
	wf, env := checked(t, root, "chapter-11.flow")
	if _, err := s.Run(context.Background(), wf, env, runner.Options{}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for len(srv.Requests()) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the run never called the model")
		}
		time.Sleep(5 * time.Millisecond) // the model call happens on the server's side
	}
	if !s.Cancel(wf.File.Path) {
		t.Fatal("nothing was cancelled")
	}
	res := <-rec.finished
	if res.Status != store.RunCancelled {
		t.Errorf("status %s", res.Status)
	}
	stor, _ := s.Store(context.Background())
	cp, err := stor.Checkpoint(res.RunID)
	if err != nil || cp.Status != store.RunCancelled {
		t.Errorf("checkpoint %+v %v", cp, err)
	}
}

func TestDecidePersistAndContext(t *testing.T) {
	root, _ := sample(t, llmtest.Script{
		Replies: []llmtest.Reply{{Match: &llmtest.Match{Contains: "Write chapter 11"}, Times: -1,
			Content: "Elizabth sent a telegram to Longbourn."}},
		Default: &llmtest.Reply{Content: "Five beats."},
	})
	s, rec := newSession(t, root)
	wf, env := checked(t, root, "chapter-11.flow")
	ctx := context.Background()
	if _, err := s.Run(ctx, wf, env, runner.Options{}); err != nil {
		t.Fatal(err)
	}
	if res := <-rec.finished; res.Nodes["draft"].Status != "flagged" {
		t.Fatalf("draft %+v, want flagged", res.Nodes["draft"])
	}
	if got := s.States(wf.File.Path)["draft"].Label(); got != "⚠ needs you" {
		t.Errorf("lens %q", got)
	}
	if _, err := s.Decide(ctx, wf, env, "draft", runner.DecideApprove, ""); err != nil {
		t.Fatal(err)
	}
	if res := <-rec.finished; res.Status != store.RunDone {
		t.Fatalf("after approve: %s", res.Status)
	}
	cur, err := s.Persist(ctx, wf, "draft", "")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, "manuscript", "chapter-11", "content.md"))
	if err != nil || !strings.Contains(string(data), "telegram") {
		t.Fatalf("curated chapter: %q %v", data, err)
	}
	types := map[string]bool{}
	for _, f := range cur.Findings {
		types[f.Type] = true
	}
	if !types["name"] || !types["world"] {
		t.Errorf("curation checks found %v, want a name and a world finding", types)
	}
	again, err := s.Persist(ctx, wf, "draft", "")
	if err != nil || !again.Unchanged {
		t.Errorf("persisting the same output twice: %+v %v", again, err)
	}
	c, err := s.Context(wf, "draft")
	if err != nil || len(c.Sources) == 0 || c.Tokens > c.Budget {
		t.Fatalf("context: %+v %v", c, err)
	}
	p, err := s.ShowContext(ctx, wf, "draft")
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := os.ReadFile(p)
	if !strings.Contains(string(doc), "## user") || !strings.Contains(string(doc), "Write chapter 11 from this outline") || !strings.Contains(string(doc), "Five beats.") {
		t.Errorf("show context:\n%s", doc)
	}
	assertNoKey(t, root)
}

func assertNoKey(t *testing.T, root string) {
	t.Helper()
	_ = filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), key) {
				t.Errorf("the API key is in %s", p)
			}
		}
		return nil
	})
}

// TestRunsAreCheckedByRoleCOnTheAgentCore: with an agent model configured,
// the gate is Role C's monitor; its angles' steps are in the agent log.
func TestRunsAreCheckedByRoleCOnTheAgentCore(t *testing.T) {
	root, _ := sample(t, llmtest.Script{
		Replies: []llmtest.Reply{{Match: &llmtest.Match{Tools: ptr(true)}, Times: -1, Content: `{"findings": []}`}},
		Default: &llmtest.Reply{Content: "Jane came down after dinner."},
	})
	s, rec := newSession(t, root)
	wf, env := checked(t, root, "chapter-11.flow")
	if _, err := s.Run(context.Background(), wf, env, runner.Options{Target: runner.Target{Node: "draft"}}); err != nil {
		t.Fatal(err)
	}
	if res := <-rec.finished; res.Status != store.RunDone {
		t.Fatalf("run %s: %+v", res.Status, res.Nodes["draft"])
	}
	st, _ := s.Store(context.Background())
	log, err := st.Log(store.LogQuery{Role: "C"})
	if err != nil || len(log) == 0 {
		t.Fatalf("no Role C steps in the agent log: %v", err)
	}
	agents := map[string]bool{}
	for _, e := range log {
		agents[e.Agent] = true
	}
	if len(agents) < 2 {
		t.Errorf("Role C's log shows one agent only: %v", agents)
	}
}

func ptr[T any](v T) *T { return &v }

// TestCurationRegeneratesProfiles: persisting a chapter queues durable
// work that rebuilds the factual profiles of the entities it names.
func TestCurationRegeneratesProfiles(t *testing.T) {
	root, _ := sample(t, llmtest.Script{Default: &llmtest.Reply{Content: "Jane and Mr. Bingley walked in the shrubbery at Netherfield."}})
	s, rec := newSession(t, root)
	wf, env := checked(t, root, "chapter-11.flow")
	ctx := context.Background()
	if _, err := s.Run(ctx, wf, env, runner.Options{Target: runner.Target{Node: "draft"}}); err != nil {
		t.Fatal(err)
	}
	if res := <-rec.finished; res.Status != store.RunDone {
		t.Fatalf("run: %s", res.Status)
	}
	if _, err := s.Persist(ctx, wf, "draft", ""); err != nil {
		t.Fatal(err)
	}
	prof := filepath.Join(root, "profiles", "characters", "charles-bingley.md")
	st, _ := s.Store(ctx)
	deadline := time.Now().Add(20 * time.Second)
	for {
		// The file is written, then indexed: wait for both.
		data, err := os.ReadFile(prof)
		r, rerr := st.Resource("profiles/characters/charles-bingley")
		if err == nil && strings.Contains(string(data), "Last seen in chapter 11") && rerr == nil && r.Path != "" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Bingley's profile was not regenerated and indexed: %q %v; %+v %v", data, err, r, rerr)
		}
		time.Sleep(20 * time.Millisecond) // the store's queue works in the background
	}
}
