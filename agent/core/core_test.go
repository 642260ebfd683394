package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/store"
)

// writeProject writes a small project: one character with a progression,
// one chapter, a style guide.
func writeProject(t testing.TB, dir string) {
	t.Helper()
	files := map[string]string{
		"flowcabal.toml": "",
		"entities/characters/elizabeth-bennet.md": `---
name: Elizabeth Bennet
aliases: [Lizzy, Eliza]
kind: character
facts: { eyes: dark, status: unmarried }
progressions:
  - { chapter: 50, facts: { status: engaged } }
---
The second Bennet daughter.
`,
		"entities/characters/林黛玉.md":       "---\nname: 林黛玉\naliases: [黛玉, 颦儿]\nkind: character\nfacts: { home: 潇湘馆 }\n---\n林如海之女。\n",
		"manuscript/chapter-01/content.md": "It is a truth universally acknowledged, that a single man in possession of a good fortune, must be in want of a wife. Lizzy laughed.\n",
		"meta/style-guide.md":              "# Style\n\nIronic, light, precise.\n",
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func openStore(t testing.TB, dir string) *store.Store {
	t.Helper()
	st, err := store.Open(context.Background(), dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	return st
}

func newClient(t testing.TB, url string) *llm.Client {
	t.Helper()
	c, err := llm.New(llm.Config{Name: "agent", BaseURL: url, Model: "agent-model"},
		llm.Options{Retry: llm.RetryPolicy{MaxRetries: -1}, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

type harness struct {
	srv *llmtest.Server
	st  *store.Store
	m   *Manager

	mu     sync.Mutex
	events []Event
	on     func(Event)
}

func (h *harness) Events() []Event {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]Event(nil), h.events...)
}

func newHarness(t *testing.T, script llmtest.Script, budget Budget) *harness {
	t.Helper()
	dir := t.TempDir()
	writeProject(t, dir)
	h := &harness{srv: llmtest.New(t, script), st: openStore(t, dir)}
	m, err := NewManager(Options{Client: newClient(t, h.srv.URL), Store: h.st, Budget: budget,
		Observer: func(e Event) {
			h.mu.Lock()
			h.events = append(h.events, e)
			on := h.on
			h.mu.Unlock()
			if on != nil {
				on(e)
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	h.m = m
	t.Cleanup(func() {
		m.Close()
		h.st.Close()
	})
	return h
}

func call(name, args string) llmtest.ToolCall { return llmtest.ToolCall{Name: name, Arguments: args} }

var findingSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"summary": map[string]any{"type": "string", "minLength": 1},
		"status":  map[string]any{"type": "string"},
	},
	"required":             []any{"summary"},
	"additionalProperties": false,
}

func lookupAgent(st *store.Store) *Agent {
	return &Agent{Name: "checker", Instructions: "You check facts about the story.", Tools: ProjectTools(st),
		Schema: findingSchema, SchemaName: "finding"}
}

func TestMultiStepLookup(t *testing.T) {
	h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{
		{ToolCalls: []llmtest.ToolCall{call("search", `{"query":"Lizzy","dir":"entities"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("entity_facts", `{"entity":"Lizzy","chapter":50}`), call("chapter", `{"number":1,"level":"L2"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("entity_facts", `{"entity":"颦儿"}`)}},
		{Content: `{"summary":"Elizabeth is engaged by chapter 50","status":"engaged"}`},
	}}, Budget{})
	res, err := h.m.Run(context.Background(), Task{Role: "C", Agent: lookupAgent(h.st), Input: "What is Lizzy's status in chapter 50?"})
	if err != nil {
		t.Fatal(err)
	}
	var ans struct{ Summary, Status string }
	if err := json.Unmarshal(res.Answer, &ans); err != nil || ans.Status != "engaged" {
		t.Fatalf("answer %s: %v", res.Answer, err)
	}
	if res.Steps != 4 {
		t.Errorf("steps = %d, want 4", res.Steps)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4", len(reqs))
	}
	toolText := func(r llmtest.Request) string {
		var b strings.Builder
		for _, m := range r.Messages {
			if m.Role == "tool" {
				b.WriteString(m.Content + "\n")
			}
		}
		return b.String()
	}
	if got := toolText(reqs[1]); !strings.Contains(got, "entities/characters/elizabeth-bennet") {
		t.Errorf("search result not sent back: %s", got)
	}
	got := toolText(reqs[2])
	for _, want := range []string{`"status":"engaged"`, `"eyes":"dark"`, "universally acknowledged"} {
		if !strings.Contains(got, want) {
			t.Errorf("tool results lack %q:\n%s", want, got)
		}
	}
	if got := toolText(reqs[3]); !strings.Contains(got, "潇湘馆") {
		t.Errorf("Chinese alias lookup failed: %s", got)
	}
	if len(reqs[0].Tools) != 5 {
		t.Errorf("tools offered: %v", reqs[0].Tools)
	}
	if !strings.Contains(reqs[0].Messages[0].Content, `"required":["summary"]`) {
		t.Errorf("system prompt lacks the schema: %s", reqs[0].Messages[0].Content)
	}

	log, err := h.st.Log(store.LogQuery{RunID: res.RunID})
	if err != nil {
		t.Fatal(err)
	}
	var models, tools []string
	for _, e := range log {
		if e.Role != "C" || e.Agent != "checker" {
			t.Errorf("entry role/agent %q/%q", e.Role, e.Agent)
		}
		switch {
		case e.Tool != "":
			tools = append(tools, e.Tool+":"+e.Status)
		case e.Model != "":
			models = append(models, e.Status)
			if e.TokensIn == 0 || e.Duration <= 0 {
				t.Errorf("model entry without tokens or duration: %+v", e)
			}
		}
	}
	if strings.Join(tools, ",") != "search:ok,entity_facts:ok,chapter:ok,entity_facts:ok" {
		t.Errorf("tool entries: %v", tools)
	}
	if len(models) != 4 {
		t.Errorf("model entries: %v", models)
	}
	if last := log[len(log)-1]; last.Status != "done" {
		t.Errorf("last entry %+v", last)
	}
	cp, err := h.st.Checkpoint(res.RunID)
	if err != nil || cp.Status != store.RunDone || cp.Workflow != "agent:C" {
		t.Errorf("checkpoint %+v, %v", cp, err)
	}
	var kinds []string
	for _, e := range h.Events() {
		if e.Kind == EventTool {
			kinds = append(kinds, e.Tool)
		}
	}
	if strings.Join(kinds, ",") != "search,entity_facts,chapter,entity_facts" {
		t.Errorf("tool events: %v", kinds)
	}
}

func TestBadToolCallsGoBackToTheModel(t *testing.T) {
	h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{
		{ToolCalls: []llmtest.ToolCall{call("search", `{"query": "Lizzy"`), call("delete_everything", `{}`)}},
		{ToolCalls: []llmtest.ToolCall{call("search", `{"k": 3}`), call("chapter", `{"number": "one"}`), call("resource", `{"path":"meta/style-guide","level":"L7"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("chapter", `{"number": 99}`)}},
		{Content: `{"summary":"done"}`},
	}}, Budget{})
	res, err := h.m.Run(context.Background(), Task{Role: "C", Agent: lookupAgent(h.st), Input: "check"})
	if err != nil {
		t.Fatal(err)
	}
	reqs := h.srv.Requests()
	results := func(i int) []string {
		var out []string
		for _, m := range reqs[i].Messages {
			if m.Role == "tool" {
				out = append(out, m.Content)
			}
		}
		return out
	}
	tests := []struct {
		req, idx int
		want     string
	}{
		{1, 0, "arguments of search are not JSON"},
		{1, 1, `unknown tool \"delete_everything\"; the tools are: chapter, entity_facts, relations, resource, search`},
		{2, 2, "arguments of search do not match its schema"},
		{2, 3, "arguments of chapter do not match its schema"},
		{2, 4, "arguments of resource do not match its schema"},
		{3, 5, "chapter 99"},
	}
	for _, tt := range tests {
		r := results(tt.req)
		if tt.idx >= len(r) || !strings.Contains(r[tt.idx], tt.want) || !strings.HasPrefix(r[tt.idx], `{"error":`) {
			t.Errorf("request %d tool result %d = %q, want an error containing %q", tt.req, tt.idx, r, tt.want)
		}
	}
	log, _ := h.st.Log(store.LogQuery{RunID: res.RunID, Status: "error"})
	if len(log) != 6 {
		t.Errorf("%d error entries, want 6: %+v", len(log), log)
	}
}

func TestSubAgentHandOff(t *testing.T) {
	h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{
		{Match: &llmtest.Match{System: "You coordinate"}, ToolCalls: []llmtest.ToolCall{call("ask_timeline", `{"task":"When does Lizzy get engaged?"}`)}},
		{Match: &llmtest.Match{System: "You order events"}, ToolCalls: []llmtest.ToolCall{call("entity_facts", `{"entity":"Elizabeth Bennet","chapter":50}`)}},
		{Match: &llmtest.Match{System: "You order events"}, Content: `{"summary":"engaged from chapter 50"}`},
		{Match: &llmtest.Match{System: "You coordinate", ToolResult: "engaged from chapter 50"}, Content: `{"summary":"timeline: engaged from chapter 50"}`},
	}}, Budget{})
	timeline := &Agent{Name: "timeline", Instructions: "You order events in time.", Tools: []Tool{EntityFactsTool(h.st)}, Schema: findingSchema}
	lead := &Agent{Name: "lead", Instructions: "You coordinate the checks.", SubAgents: []*Agent{timeline}, Schema: findingSchema}
	res, err := h.m.Run(context.Background(), Task{Role: "C", Agent: lead, Input: "check chapter 50"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.Answer), "timeline: engaged") {
		t.Fatalf("answer %s", res.Answer)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests", len(reqs))
	}
	if strings.Join(reqs[1].Tools, ",") != "entity_facts" || reqs[1].LastUser() != "When does Lizzy get engaged?" {
		t.Errorf("sub-agent request: tools %v, task %q", reqs[1].Tools, reqs[1].LastUser())
	}
	log, _ := h.st.Log(store.LogQuery{RunID: res.RunID, Agent: "lead/timeline"})
	var steps []string
	for _, e := range log {
		steps = append(steps, e.Tool+"/"+e.Status)
	}
	if strings.Join(steps, " ") != "/ok entity_facts/ok /ok" {
		t.Errorf("sub-agent log: %v", steps)
	}
	log, _ = h.st.Log(store.LogQuery{RunID: res.RunID, Agent: "lead"})
	found := false
	for _, e := range log {
		found = found || e.Tool == "ask_timeline" && strings.Contains(e.Output, "engaged from chapter 50")
	}
	if !found {
		t.Errorf("lead's log lacks the hand-off: %+v", log)
	}
	var sub bool
	for _, e := range h.Events() {
		sub = sub || e.Kind == EventSubAgent && e.Agent == "lead/timeline"
	}
	if !sub {
		t.Error("no sub-agent progress event")
	}
}

func TestParallelAgentsMerged(t *testing.T) {
	for _, conc := range []int{0, 3} {
		t.Run(fmt.Sprintf("concurrency-%d", conc), func(t *testing.T) {
			h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{
				{Match: &llmtest.Match{System: "angle: timeline"}, ToolCalls: []llmtest.ToolCall{call("entity_facts", `{"entity":"Lizzy","chapter":50}`)}},
				{Match: &llmtest.Match{System: "angle: timeline"}, Content: `{"summary":"t1"}`},
				{Match: &llmtest.Match{System: "angle: world"}, Content: `not json at all`},
				{Match: &llmtest.Match{System: "angle: world"}, Content: `{"summary":"w1"}`},
				{Match: &llmtest.Match{System: "angle: character"}, Times: 2, Content: `{"wrong":true}`},
			}}, Budget{})
			var angles []*Agent
			for _, n := range []string{"timeline", "world", "character"} {
				angles = append(angles, &Agent{Name: n, Instructions: "angle: " + n, Schema: findingSchema, Tools: []Tool{EntityFactsTool(h.st)}})
			}
			res, err := h.m.Run(context.Background(), Task{Role: "C", Parallel: angles, Input: "chapter text", Concurrency: conc,
				Merge: func(as []SubAnswer) (json.RawMessage, error) { return json.Marshal(as) }})
			if err != nil {
				t.Fatal(err)
			}
			var got []SubAnswer
			if err := json.Unmarshal(res.Answer, &got); err != nil {
				t.Fatal(err)
			}
			if len(got) != 3 || string(got[0].Answer) != `{"summary":"t1"}` || string(got[1].Answer) != `{"summary":"w1"}` ||
				got[2].Answer != nil || !strings.Contains(got[2].Err, "without a valid answer") {
				t.Errorf("merged %s", res.Answer)
			}
			if res.Steps != 6 {
				t.Errorf("steps %d, want 6", res.Steps)
			}
			// The log shows each angle's own steps.
			want := map[string]string{"timeline": "model:ok entity_facts:ok model:ok", "world": "model:ok model:ok",
				"character": "model:ok model:ok invalid-answer"}
			for n, w := range want {
				log, _ := h.st.Log(store.LogQuery{RunID: res.RunID, Agent: n})
				var steps []string
				for _, e := range log {
					switch {
					case e.Tool != "":
						steps = append(steps, e.Tool+":"+e.Status)
					case e.Model != "":
						steps = append(steps, "model:"+e.Status)
					default:
						steps = append(steps, e.Status)
					}
				}
				if strings.Join(steps, " ") != w {
					t.Errorf("angle %s log: %v, want %s", n, steps, w)
				}
			}
		})
	}
}

func TestToolPanicIsAToolError(t *testing.T) {
	h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{
		{ToolCalls: []llmtest.ToolCall{{ID: "same", Name: "boom", Arguments: `{}`}, {ID: "same", Name: "search", Arguments: `{"query":"Lizzy"}`}}},
		{Content: `{"summary":"survived"}`},
	}}, Budget{})
	boom := Tool{Name: "boom", Run: func(context.Context, json.RawMessage) (string, error) { panic("index out of range") }}
	a := &Agent{Name: "checker", Instructions: "x", Tools: []Tool{boom, SearchTool(h.st)}, Schema: findingSchema}
	if _, err := h.m.Run(context.Background(), Task{Role: "C", Agent: a, Input: "go"}); err != nil {
		t.Fatal(err)
	}
	var results []string
	for _, m := range h.srv.Requests()[1].Messages {
		if m.Role == "tool" {
			results = append(results, m.ToolCallID+"="+m.Content)
		}
	}
	if len(results) != 2 || !strings.Contains(results[0], "tool boom failed: index out of range") || !strings.Contains(results[1], "elizabeth") ||
		strings.Split(results[0], "=")[0] == strings.Split(results[1], "=")[0] {
		t.Errorf("tool results %v", results)
	}
}

func TestBudgetStopsALoopingModel(t *testing.T) {
	t.Run("steps", func(t *testing.T) {
		h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{
			{Times: -1, ToolCalls: []llmtest.ToolCall{call("search", `{"query":"Lizzy"}`)}},
		}}, Budget{Steps: 5})
		_, err := h.m.Run(context.Background(), Task{Role: "C", Agent: lookupAgent(h.st), Input: "go"})
		var be *BudgetError
		if !errors.As(err, &be) || !errors.Is(err, ErrBudget) || be.Limit != "steps" || be.Used != 5 {
			t.Fatalf("err = %v", err)
		}
		if n := h.srv.Count(); n != 5 {
			t.Errorf("%d model calls, want 5", n)
		}
		if !strings.Contains(err.Error(), "5 of 5 steps") {
			t.Errorf("unclear message %q", err)
		}
	})
	t.Run("tokens", func(t *testing.T) {
		h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{
			{Times: -1, Usage: &llmtest.Usage{PromptTokens: 400, CompletionTokens: 100}, ToolCalls: []llmtest.ToolCall{call("search", `{"query":"Lizzy"}`)}},
		}}, Budget{Tokens: 1200})
		_, err := h.m.Run(context.Background(), Task{Role: "C", Agent: lookupAgent(h.st), Input: "go"})
		var be *BudgetError
		if !errors.As(err, &be) || be.Limit != "tokens" || be.Used != 1500 {
			t.Fatalf("err = %v", err)
		}
		if n := h.srv.Count(); n != 3 {
			t.Errorf("%d model calls, want 3", n)
		}
	})
}

func TestSchemaRepair(t *testing.T) {
	t.Run("repaired", func(t *testing.T) {
		h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{
			{Content: `{"verdict": "fine"}`},
			{Match: &llmtest.Match{Contains: "Your answer was rejected"}, Content: "```json\n{\"summary\":\"fine\"}\n```"},
		}}, Budget{})
		res, err := h.m.Run(context.Background(), Task{Role: "C", Agent: lookupAgent(h.st), Input: "go"})
		if err != nil {
			t.Fatal(err)
		}
		if string(res.Answer) != `{"summary":"fine"}` {
			t.Errorf("answer %s", res.Answer)
		}
		if last := h.srv.Requests()[1].LastUser(); !strings.Contains(last, "summary") {
			t.Errorf("repair prompt does not say what is wrong: %q", last)
		}
	})
	t.Run("failed", func(t *testing.T) {
		h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{
			{Content: `{"verdict": "fine"}`},
			{Content: `I think it is fine.`},
		}}, Budget{})
		_, err := h.m.Run(context.Background(), Task{Role: "C", Agent: lookupAgent(h.st), Input: "go"})
		if !errors.Is(err, ErrAnswer) || !strings.Contains(err.Error(), "not JSON") {
			t.Fatalf("err = %v", err)
		}
		log, _ := h.st.Log(store.LogQuery{Status: "invalid-answer"})
		if len(log) != 1 || log[0].Output != "I think it is fine." {
			t.Errorf("invalid answer not logged: %+v", log)
		}
	})
}

// blockingTool blocks until its context ends or release is closed.
func blockingTool(started chan<- string, release <-chan struct{}) Tool {
	return Tool{Name: "slow", Description: "takes a while",
		Run: func(ctx context.Context, _ json.RawMessage) (string, error) {
			started <- "slow"
			select {
			case <-ctx.Done():
				return "", ctx.Err()
			case <-release:
				return `{"ok":true}`, nil
			}
		}}
}

func TestCancelMidLoop(t *testing.T) {
	h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{
		{ToolCalls: []llmtest.ToolCall{call("slow", `{}`)}},
		{Content: `{"summary":"never reached"}`},
	}}, Budget{})
	started := make(chan string, 1)
	a := &Agent{Name: "checker", Instructions: "x", Tools: []Tool{blockingTool(started, nil)}, Schema: findingSchema}
	r, err := h.m.Submit(Task{Role: "C", Agent: a, Input: "go"})
	if err != nil {
		t.Fatal(err)
	}
	<-started
	r.Cancel()
	if _, err := r.Wait(context.Background()); !errors.Is(err, ErrCancelled) {
		t.Fatalf("err = %v", err)
	}
	if r.Status() != StatusCancelled || h.srv.Count() != 1 {
		t.Errorf("status %s, %d model calls", r.Status(), h.srv.Count())
	}
	cp, _ := h.st.Checkpoint(r.ID)
	if cp.Status != store.RunCancelled {
		t.Errorf("checkpoint status %q", cp.Status)
	}
	log, _ := h.st.Log(store.LogQuery{RunID: r.ID, Status: "cancelled"})
	if len(log) != 2 || log[0].Tool != "slow" {
		t.Errorf("cancelled entries %+v", log)
	}
	if p, _ := h.m.Unfinished(); len(p) != 0 {
		t.Errorf("a cancelled run is listed as unfinished: %+v", p)
	}
}

func TestQueuePauseResume(t *testing.T) {
	h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{
		{Match: &llmtest.Match{Contains: "first"}, ToolCalls: []llmtest.ToolCall{call("slow", `{}`)}},
		{Match: &llmtest.Match{Contains: "first"}, Content: `{"summary":"first done"}`},
		{Match: &llmtest.Match{Contains: "second"}, Content: `{"summary":"second done"}`},
		{Match: &llmtest.Match{Contains: "other role"}, Content: `{"summary":"B done"}`},
	}}, Budget{})
	started := make(chan string, 1)
	release := make(chan struct{})
	paused := make(chan struct{}, 1)
	h.mu.Lock()
	h.on = func(e Event) {
		if e.Kind == EventPaused {
			paused <- struct{}{}
		}
	}
	h.mu.Unlock()
	a := &Agent{Name: "checker", Instructions: "x", Tools: []Tool{blockingTool(started, release)}, Schema: findingSchema}
	r1, _ := h.m.Submit(Task{Role: "C", Agent: a, Input: "first"})
	<-started
	r2, _ := h.m.Submit(Task{Role: "C", Agent: a, Input: "second"})
	if q := h.m.Queue("C"); len(q) != 2 || q[0] != r1.ID || q[1] != r2.ID {
		t.Fatalf("queue %v", q)
	}
	if r2.Status() != StatusQueued {
		t.Errorf("second run is %s", r2.Status())
	}
	// Another role is not held up by C's queue.
	if res, err := h.m.Run(context.Background(), Task{Role: "B", Agent: a, Input: "other role"}); err != nil || !strings.Contains(string(res.Answer), "B done") {
		t.Fatalf("role B: %v", err)
	}
	r1.Pause()
	close(release)
	<-paused
	if r1.Status() != StatusPaused {
		t.Errorf("status %s", r1.Status())
	}
	// Paused after its tool: the model has not been asked again.
	if n := h.srv.Count(); n != 2 {
		t.Errorf("%d model calls while paused, want 2", n)
	}
	r1.Resume()
	res1, err := r1.Wait(context.Background())
	if err != nil || !strings.Contains(string(res1.Answer), "first done") {
		t.Fatalf("first: %v", err)
	}
	res2, err := r2.Wait(context.Background())
	if err != nil || !strings.Contains(string(res2.Answer), "second done") {
		t.Fatalf("second: %v", err)
	}
	reqs := h.srv.Requests()
	if reqs[len(reqs)-1].LastUser() != "second" {
		t.Error("the queued run did not run last")
	}
}

func TestCancelQueued(t *testing.T) {
	h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{
		{ToolCalls: []llmtest.ToolCall{call("slow", `{}`)}},
		{Content: `{"summary":"first"}`},
	}}, Budget{})
	started := make(chan string, 1)
	release := make(chan struct{})
	a := &Agent{Name: "checker", Instructions: "x", Tools: []Tool{blockingTool(started, release)}, Schema: findingSchema}
	r1, _ := h.m.Submit(Task{Role: "C", Agent: a, Input: "first"})
	<-started
	r2, _ := h.m.Submit(Task{Role: "C", Agent: a, Input: "second"})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r2.Wait(ctx); !errors.Is(err, ErrCancelled) {
		t.Fatalf("queued run: %v", err)
	}
	if q := h.m.Queue("C"); len(q) != 1 {
		t.Errorf("queue after cancel %v", q)
	}
	close(release)
	if _, err := r1.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := h.srv.Count(); n != 2 {
		t.Errorf("%d model calls; the cancelled run must make none", n)
	}
}

func TestBadDefinitions(t *testing.T) {
	h := newHarness(t, llmtest.Script{}, Budget{})
	tests := []struct {
		name string
		task Task
		want string
	}{
		{"no role", Task{Agent: &Agent{Name: "a"}}, "no role"},
		{"no agent", Task{Role: "B"}, "no agent"},
		{"bad schema", Task{Role: "B", Agent: &Agent{Name: "a", Schema: map[string]any{"type": 12}}}, "answer schema"},
		{"dup tool", Task{Role: "B", Agent: &Agent{Name: "a", Tools: []Tool{SearchTool(h.st), SearchTool(h.st)}}}, "given twice"},
		{"parallel without merge", Task{Role: "B", Parallel: []*Agent{{Name: "a"}}}, "no Merge"},
	}
	for _, tt := range tests {
		if _, err := h.m.Submit(tt.task); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}
	if h.srv.Count() != 0 {
		t.Error("a bad definition reached the model")
	}
	_ = time.Second
}

const (
	childDirEnv = "FLOWCABAL_CORE_KILL_DIR"
	childURLEnv = "FLOWCABAL_CORE_KILL_URL"
	killRunID   = "agent-C-kill"
)

// TestKillMidLoopAndResume runs a loop in a child process (this test
// binary re-executed), SIGKILLs it while its third model call hangs, then
// resumes the run from the store's checkpoint: the tools already answered
// are not called again and the model sees the conversation so far.
func TestKillMidLoopAndResume(t *testing.T) {
	if dir := os.Getenv(childDirEnv); dir != "" {
		killChild(t, dir, os.Getenv(childURLEnv))
		return
	}
	dir := t.TempDir()
	writeProject(t, dir)
	st := openStore(t, dir)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.New(t, llmtest.Script{Replies: []llmtest.Reply{
		{ToolCalls: []llmtest.ToolCall{call("search", `{"query":"Lizzy"}`)}},
		{ToolCalls: []llmtest.ToolCall{call("chapter", `{"number":1,"level":"L2"}`)}},
		{Fault: llmtest.FaultHang},
	}})
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillMidLoopAndResume$")
	cmd.Env = append(os.Environ(), childDirEnv+"="+dir, childURLEnv+"="+srv.URL)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for srv.Count() < 3 {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("the child never reached its third model call:\n%s", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if err := srv.SetScript(llmtest.Script{Replies: []llmtest.Reply{{Content: `{"summary":"resumed and answered"}`}}}); err != nil {
		t.Fatal(err)
	}

	st = openStore(t, dir)
	defer st.Close()
	m, err := NewManager(Options{Client: newClient(t, srv.URL), Store: st})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	pending, err := m.Unfinished()
	if err != nil || len(pending) != 1 || pending[0].RunID != killRunID || pending[0].Steps != 2 || pending[0].Input != "What is Lizzy doing?" {
		t.Fatalf("unfinished = %+v, %v", pending, err)
	}
	if _, err := m.ResumeRun(killRunID, Task{Agent: &Agent{Name: "other"}}); err == nil {
		t.Error("resumed with the wrong agent")
	}
	r, err := m.ResumeRun(killRunID, Task{Agent: lookupAgent(st)})
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Wait(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !res.Resumed || res.Steps != 3 || !strings.Contains(string(res.Answer), "resumed and answered") {
		t.Errorf("result %+v", res)
	}
	reqs := srv.Requests()
	last := reqs[len(reqs)-1]
	var roles []string
	for _, msg := range last.Messages {
		roles = append(roles, msg.Role)
	}
	if strings.Join(roles, ",") != "system,user,assistant,tool,assistant,tool" {
		t.Errorf("resumed conversation: %v", roles)
	}
	if !strings.Contains(last.Messages[5].Content, "universally acknowledged") {
		t.Errorf("the chapter result was lost: %q", last.Messages[5].Content)
	}
	log, _ := st.Log(store.LogQuery{RunID: killRunID})
	var tools []string
	for _, e := range log {
		if e.Tool != "" {
			tools = append(tools, e.Tool)
		}
	}
	if strings.Join(tools, ",") != "search,chapter" {
		t.Errorf("tools run %v: each once, none again after the resume", tools)
	}
	if p, _ := m.Unfinished(); len(p) != 0 {
		t.Errorf("still unfinished: %+v", p)
	}
	if _, err := m.ResumeRun(killRunID, Task{Agent: lookupAgent(st)}); err == nil || !strings.Contains(err.Error(), "done, not running") {
		t.Errorf("resuming a finished run: %v", err)
	}
}

func killChild(t *testing.T, dir, url string) {
	st, err := store.Open(context.Background(), dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := NewManager(Options{Client: newClient(t, url), Store: st})
	if err != nil {
		t.Fatal(err)
	}
	_, err = m.Run(context.Background(), Task{ID: killRunID, Role: "C", Agent: lookupAgent(st), Input: "What is Lizzy doing?"})
	t.Fatalf("the child should have been killed; the run ended with %v", err)
}

func TestDiscardUnfinished(t *testing.T) {
	h := newHarness(t, llmtest.Script{}, Budget{})
	data, _ := json.Marshal(state{Role: "B", Agent: "builder", Input: "x", Steps: 1})
	if _, err := h.st.SaveCheckpoint(context.Background(), store.Checkpoint{RunID: "agent-B-dead", Workflow: Workflow("B"), Status: store.RunRunning, Data: data}); err != nil {
		t.Fatal(err)
	}
	dataC, _ := json.Marshal(state{Role: "C", Agent: "checker", Input: "y", Steps: 2})
	if _, err := h.st.SaveCheckpoint(context.Background(), store.Checkpoint{RunID: "agent-C-dead", Workflow: Workflow("C"), Status: store.RunRunning, Data: dataC}); err != nil {
		t.Fatal(err)
	}
	if n, err := h.m.DiscardUnfinished(context.Background(), "B"); err != nil || n != 1 {
		t.Fatalf("discarded %d, %v", n, err)
	}
	if p, _ := h.m.Unfinished(); len(p) != 1 || p[0].RunID != "agent-C-dead" {
		t.Fatalf("after discarding B: %+v", p)
	}
	if err := h.m.Discard(context.Background(), "agent-C-dead"); err != nil {
		t.Fatal(err)
	}
	if p, _ := h.m.Unfinished(); len(p) != 0 {
		t.Errorf("discarded run still listed: %+v", p)
	}
	log, _ := h.st.Log(store.LogQuery{RunID: "agent-B-dead"})
	if len(log) != 1 || log[0].Status != "discarded" {
		t.Errorf("log %+v", log)
	}
}

func TestFailedSubAgentIsAToolError(t *testing.T) {
	h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{
		{Match: &llmtest.Match{System: "You coordinate"}, ToolCalls: []llmtest.ToolCall{call("ask_timeline", `{"task":"order the events"}`)}},
		{Match: &llmtest.Match{System: "You order events"}, Times: 2, Content: `no idea`},
		{Match: &llmtest.Match{System: "You coordinate", ToolResult: "sub-agent timeline failed"}, Content: `{"summary":"timeline unavailable"}`},
	}}, Budget{})
	timeline := &Agent{Name: "timeline", Instructions: "You order events in time.", Schema: findingSchema}
	lead := &Agent{Name: "lead", Instructions: "You coordinate the checks.", SubAgents: []*Agent{timeline}, Schema: findingSchema}
	r, err := h.m.Submit(Task{Role: "C", Agent: lead, Input: "check"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Wait(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.Answer), "timeline unavailable") || h.srv.Count() != 4 {
		t.Errorf("answer %s after %d calls", res.Answer, h.srv.Count())
	}
	cp, _ := h.st.Checkpoint(r.ID)
	var st state
	if err := json.Unmarshal(cp.Data, &st); err != nil || len(st.Frames) != 0 {
		t.Errorf("frames left in the final checkpoint: %+v %v", st.Frames, err)
	}
}

func TestResponseFormat(t *testing.T) {
	yes := true
	h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{
		{Match: &llmtest.Match{Schema: &yes}, Content: `{"nope": 1}`},
		{Match: &llmtest.Match{Schema: &yes, Contains: "rejected"}, Content: `{"summary": "structured"}`},
	}}, Budget{})
	a := lookupAgent(h.st)
	a.ResponseFormat = true
	res, err := h.m.Run(context.Background(), Task{Role: "C", Agent: a, Input: "go"})
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Answer) != `{"summary": "structured"}` || h.srv.Count() != 2 {
		t.Errorf("answer %s after %d calls", res.Answer, h.srv.Count())
	}
	if len(h.srv.Requests()[0].Schema) == 0 {
		t.Error("no response_format sent")
	}
}

func leadAgent(st *store.Store) *Agent {
	timeline := &Agent{Name: "timeline", Instructions: "You order events in time.", Tools: []Tool{EntityFactsTool(st)}, Schema: findingSchema}
	return &Agent{Name: "lead", Instructions: "You coordinate the checks.", Tools: []Tool{SearchTool(st)}, SubAgents: []*Agent{timeline}, Schema: findingSchema}
}

// TestKillInSubAgentAndResume kills the child while a sub-agent's model
// call hangs: the resumed run continues the sub-agent's own conversation,
// then the lead's.
func TestKillInSubAgentAndResume(t *testing.T) {
	const runID = "agent-C-kill-sub"
	if dir := os.Getenv(childDirEnv); dir != "" {
		st, err := store.Open(context.Background(), dir, store.Options{})
		if err != nil {
			t.Fatal(err)
		}
		m, err := NewManager(Options{Client: newClient(t, os.Getenv(childURLEnv)), Store: st})
		if err != nil {
			t.Fatal(err)
		}
		_, err = m.Run(context.Background(), Task{ID: runID, Role: "C", Agent: leadAgent(st), Input: "check chapter 50"})
		t.Fatalf("the child should have been killed; the run ended with %v", err)
	}
	dir := t.TempDir()
	writeProject(t, dir)
	st := openStore(t, dir)
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.New(t, llmtest.Script{Replies: []llmtest.Reply{
		{Match: &llmtest.Match{System: "You coordinate"}, ToolCalls: []llmtest.ToolCall{call("search", `{"query":"Lizzy"}`), call("ask_timeline", `{"task":"When is Lizzy engaged?"}`)}},
		{Match: &llmtest.Match{System: "You order events"}, ToolCalls: []llmtest.ToolCall{call("entity_facts", `{"entity":"Lizzy","chapter":50}`)}},
		{Match: &llmtest.Match{System: "You order events"}, Fault: llmtest.FaultHang},
	}})
	cmd := exec.Command(os.Args[0], "-test.run=^TestKillInSubAgentAndResume$")
	cmd.Env = append(os.Environ(), childDirEnv+"="+dir, childURLEnv+"="+srv.URL)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(60 * time.Second)
	for srv.Count() < 3 {
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("the child never reached the sub-agent's second call:\n%s", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if err := srv.SetScript(llmtest.Script{Replies: []llmtest.Reply{
		{Match: &llmtest.Match{System: "You order events"}, Content: `{"summary":"engaged from chapter 50"}`},
		{Match: &llmtest.Match{System: "You coordinate", ToolResult: "engaged from chapter 50"}, Content: `{"summary":"lead: engaged from 50"}`},
	}}); err != nil {
		t.Fatal(err)
	}
	before := srv.Count()

	st = openStore(t, dir)
	defer st.Close()
	m, err := NewManager(Options{Client: newClient(t, srv.URL), Store: st})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	r, err := m.ResumeRun(runID, Task{Agent: leadAgent(st)})
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Wait(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.Answer), "lead: engaged from 50") || res.Steps != 4 {
		t.Errorf("result %s after %d steps", res.Answer, res.Steps)
	}
	reqs := srv.Requests()[before:]
	if len(reqs) != 2 {
		t.Fatalf("%d calls after the resume, want 2", len(reqs))
	}
	var roles []string
	for _, msg := range reqs[0].Messages {
		roles = append(roles, msg.Role)
	}
	if strings.Join(roles, ",") != "system,user,assistant,tool" || !strings.Contains(reqs[0].Messages[3].Content, "engaged") {
		t.Errorf("the sub-agent did not continue its own conversation: %v", roles)
	}
	roles = roles[:0]
	for _, msg := range reqs[1].Messages {
		roles = append(roles, msg.Role)
	}
	if strings.Join(roles, ",") != "system,user,assistant,tool,tool" {
		t.Errorf("lead's conversation after the resume: %v", roles)
	}
	log, _ := st.Log(store.LogQuery{RunID: runID})
	var tools []string
	for _, e := range log {
		if e.Tool != "" {
			tools = append(tools, e.Agent+":"+e.Tool)
		}
	}
	if strings.Join(tools, ",") != "lead:search,lead/timeline:entity_facts,lead:ask_timeline" {
		t.Errorf("tools %v: each once, none again after the resume", tools)
	}
}

// TestResumeParallelSkipsFinishedAngles resumes a parallel run from a
// checkpoint in which one angle had answered: only the other runs again.
func TestResumeParallelSkipsFinishedAngles(t *testing.T) {
	h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{
		{Match: &llmtest.Match{System: "angle: world"}, Content: `{"summary":"w"}`},
		{Match: &llmtest.Match{System: "angle: timeline"}, Content: `{"summary":"t again"}`},
	}}, Budget{})
	data, _ := json.Marshal(state{Role: "C", Agent: "parallel", Input: "text", Steps: 3, Budget: DefaultBudget,
		Done: map[string]SubAnswer{"parallel/timeline": {Agent: "timeline", Answer: json.RawMessage(`{"summary":"t"}`)}}})
	if _, err := h.st.SaveCheckpoint(context.Background(), store.Checkpoint{RunID: "agent-C-par", Workflow: Workflow("C"), Status: store.RunRunning, Data: data}); err != nil {
		t.Fatal(err)
	}
	var angles []*Agent
	for _, n := range []string{"timeline", "world"} {
		angles = append(angles, &Agent{Name: n, Instructions: "angle: " + n, Schema: findingSchema})
	}
	r, err := h.m.ResumeRun("agent-C-par", Task{Parallel: angles, Merge: func(as []SubAnswer) (json.RawMessage, error) { return json.Marshal(as) }})
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Wait(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(res.Answer), `{"summary":"t"}`) || !strings.Contains(string(res.Answer), `{"summary":"w"}`) || h.srv.Count() != 1 || res.Steps != 4 {
		t.Errorf("answer %s after %d calls, %d steps", res.Answer, h.srv.Count(), res.Steps)
	}
}

// TestLaneWidth: a role given a width of two runs two tasks at once; a
// third waits for one of them.
func TestLaneWidth(t *testing.T) {
	h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{
		{Match: &llmtest.Match{Contains: "first"}, ToolCalls: []llmtest.ToolCall{call("slow", `{}`)}},
		{Match: &llmtest.Match{Contains: "second"}, ToolCalls: []llmtest.ToolCall{call("slow", `{}`)}},
		{Match: &llmtest.Match{Contains: "first"}, Content: `{"summary":"first done"}`},
		{Match: &llmtest.Match{Contains: "second"}, Content: `{"summary":"second done"}`},
		{Match: &llmtest.Match{Contains: "third"}, Content: `{"summary":"third done"}`},
	}}, Budget{})
	h.m.opts.Width = map[string]int{"C": 2}
	started := make(chan string, 2)
	release := make(chan struct{})
	a := &Agent{Name: "checker", Instructions: "x", Tools: []Tool{blockingTool(started, release)}, Schema: findingSchema}
	r1, _ := h.m.Submit(Task{Role: "C", Agent: a, Input: "first"})
	r2, _ := h.m.Submit(Task{Role: "C", Agent: a, Input: "second"})
	// Both are inside their tool at once: neither waited for the other.
	for range 2 {
		select {
		case <-started:
		case <-time.After(20 * time.Second):
			t.Fatal("the second run of a width-2 role did not start while the first ran")
		}
	}
	r3, _ := h.m.Submit(Task{Role: "C", Agent: a, Input: "third"})
	if q := h.m.Queue("C"); len(q) != 3 || q[2] != r3.ID || r3.Status() != StatusQueued {
		t.Fatalf("queue %v, third %s", q, r3.Status())
	}
	close(release)
	for _, r := range []*Run{r1, r2, r3} {
		if _, err := r.Wait(context.Background()); err != nil {
			t.Fatalf("%s: %v", r.ID, err)
		}
	}
}
