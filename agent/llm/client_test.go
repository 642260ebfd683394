package llm_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/project"
	"go.uber.org/goleak"
)

// TestMain fails the package if a call leaves a goroutine behind (a
// stream not closed, a watchdog not stopped, a hung request not released).
func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

const testKey = "sk-flowcabal-TEST-d41d8cd98f00b204"

// harness is a client wired to a scripted server, with every wait
// recorded instead of slept and logs captured.
type harness struct {
	srv    *llmtest.Server
	client *llm.Client
	logs   *syncBuffer
	rec    *recorder

	mu     sync.Mutex
	delays []time.Duration
	events []llm.RetryEvent
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type recorder struct {
	mu    sync.Mutex
	usage []llm.Usage
}

func (r *recorder) RecordUsage(_ context.Context, u llm.Usage) {
	r.mu.Lock()
	r.usage = append(r.usage, u)
	r.mu.Unlock()
}

func (r *recorder) all() []llm.Usage {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.usage)
}

type setup struct {
	timeout time.Duration
	retry   llm.RetryPolicy
	sleep   func(context.Context, time.Duration) error
}

func newHarness(t *testing.T, script llmtest.Script, opt setup) *harness {
	t.Helper()
	h := &harness{srv: llmtest.New(t, script), logs: &syncBuffer{}, rec: &recorder{}}
	temp := 0.7
	cfg := llm.FromProject(&project.Config{Models: map[string]project.Model{
		"writer": {BaseURL: h.srv.URL, Model: "test-writer", APIKeyEnv: "FLOWCABAL_TEST_KEY", Temperature: &temp, MaxTokens: 500},
	}}, "writer")
	if opt.timeout == 0 {
		opt.timeout = 5 * time.Second
	}
	cfg.Timeout = opt.timeout
	retry := opt.retry
	if retry == (llm.RetryPolicy{}) {
		// No jitter, so that tests can assert the exact schedule.
		retry = llm.RetryPolicy{MaxRetries: 3, BaseDelay: 2 * time.Second, Jitter: -1, MaxRetryAfter: time.Minute}
	}
	sleep := opt.sleep
	if sleep == nil {
		sleep = func(ctx context.Context, d time.Duration) error {
			h.mu.Lock()
			h.delays = append(h.delays, d)
			h.mu.Unlock()
			return ctx.Err()
		}
	}
	c, err := llm.New(cfg, llm.Options{
		Getenv: func(name string) string {
			if name == "FLOWCABAL_TEST_KEY" {
				return testKey
			}
			return ""
		},
		Retry:    retry,
		Recorder: h.rec,
		Logger:   slog.New(slog.NewJSONHandler(h.logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Sleep:    sleep,
		OnRetry: func(ev llm.RetryEvent) {
			h.mu.Lock()
			h.events = append(h.events, ev)
			h.mu.Unlock()
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	h.client = c
	t.Cleanup(c.Close)
	t.Cleanup(func() {
		// Whatever the test did, the key must not be in the logs.
		if strings.Contains(h.logs.String(), testKey) {
			t.Errorf("the API key leaked into the logs:\n%s", h.logs.String())
		}
	})
	return h
}

func (h *harness) scheduled() []time.Duration {
	h.mu.Lock()
	defer h.mu.Unlock()
	return slices.Clone(h.delays)
}

func ctxT(t *testing.T) context.Context {
	// A generous bound: a test that hangs fails here rather than at the
	// package's 10-minute timeout.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func TestChat(t *testing.T) {
	h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{
		{Content: "第一章：賈雨村風塵懷閨秀。", Usage: &llmtest.Usage{PromptTokens: 11, CompletionTokens: 7}},
	}}, setup{})
	resp, err := h.client.Chat(ctxT(t), llm.Request{
		Messages: []llm.Message{llm.System("You write fiction."), llm.User("Write chapter one.")},
		Role:     "writer", Node: "chapter1",
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != "第一章：賈雨村風塵懷閨秀。" || resp.FinishReason != "stop" || resp.Attempts != 1 {
		t.Errorf("resp = %+v", resp)
	}
	if resp.Tokens != (llm.Tokens{In: 11, Out: 7}) {
		t.Errorf("tokens = %+v", resp.Tokens)
	}
	reqs := h.srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	r := reqs[0]
	if got := r.Header.Get("Authorization"); got != "Bearer "+testKey {
		t.Errorf("Authorization = %q", got)
	}
	if r.Model != "test-writer" || r.Stream || len(r.Messages) != 2 || r.Messages[0].Role != "system" || r.LastUser() != "Write chapter one." {
		t.Errorf("request = %+v", r)
	}
	var body map[string]any
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatal(err)
	}
	if body["temperature"] != 0.7 || body["max_tokens"] != 500.0 {
		t.Errorf("parameters not sent: temperature=%v max_tokens=%v", body["temperature"], body["max_tokens"])
	}
	// The key travels in the Authorization header and nowhere else.
	for name, vals := range r.Header {
		for _, v := range vals {
			if name != "Authorization" && strings.Contains(v, testKey) {
				t.Errorf("key in header %s", name)
			}
		}
	}
	if bytes.Contains(r.Body, []byte(testKey)) {
		t.Error("key in the request body")
	}
	u := h.rec.all()
	if len(u) != 1 || u[0].Status != "ok" || u[0].Role != "writer" || u[0].Node != "chapter1" ||
		u[0].TokensIn != 11 || u[0].TokensOut != 7 || u[0].Model != "test-writer" || u[0].Op != "chat" || u[0].Attempts != 1 {
		t.Errorf("usage = %+v", u)
	}
}

func TestStream(t *testing.T) {
	text := "It is a truth universally acknowledged 𠀀 that a single man 😀 in possession of a good fortune…"
	h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{{Content: text}}}, setup{})
	var got strings.Builder
	n := 0
	resp, err := h.client.Stream(ctxT(t), llm.Request{Messages: []llm.Message{llm.User("Begin.")}}, func(d llm.Delta) error {
		if d.Restart {
			t.Error("unexpected restart")
		}
		got.WriteString(d.Content)
		n++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != text || resp.Content != text {
		t.Errorf("streamed %q, response %q", got.String(), resp.Content)
	}
	if n < 5 {
		t.Errorf("only %d deltas: not streamed in pieces", n)
	}
	if resp.Tokens.In == 0 || resp.Tokens.Out == 0 {
		t.Errorf("no usage from the stream: %+v", resp.Tokens)
	}
	if r := h.srv.Requests()[0]; !r.Stream || !bytes.Contains(r.Body, []byte(`"include_usage":true`)) {
		t.Errorf("stream request = %s", r.Body)
	}
}

var verdictSchema = &llm.Schema{Name: "verdict", Strict: true, Schema: map[string]any{
	"type": "object",
	"properties": map[string]any{
		"decision": map[string]any{"type": "string", "enum": []any{"approve", "retry", "flag"}},
		"issues":   map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
	},
	"required":             []any{"decision", "issues"},
	"additionalProperties": false,
}}

func TestStructuredOutput(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{
				{JSON: json.RawMessage(`{"decision": "retry", "issues": ["Daiyu arrives before chapter 3"]}`)},
				{Fault: llmtest.FaultSchema},
				{JSON: json.RawMessage(`{"decision": "maybe", "issues": []}`)},
				{Refusal: "I cannot judge this chapter."},
			}}, setup{})
			call := func() (*llm.Response, error) {
				req := llm.Request{Messages: []llm.Message{llm.User("Check this chapter.")}, Schema: verdictSchema}
				if stream {
					return h.client.Stream(ctxT(t), req, func(llm.Delta) error { return nil })
				}
				return h.client.Chat(ctxT(t), req)
			}
			resp, err := call()
			if err != nil {
				t.Fatal(err)
			}
			var v struct {
				Decision string
				Issues   []string
			}
			if err := json.Unmarshal(resp.JSON, &v); err != nil || v.Decision != "retry" || len(v.Issues) != 1 {
				t.Errorf("JSON = %s (%v)", resp.JSON, err)
			}
			if !bytes.Contains(h.srv.Requests()[0].Schema, []byte(`"decision"`)) {
				t.Errorf("schema not sent: %s", h.srv.Requests()[0].Body)
			}
			for i, what := range []string{"wrong shape", "enum violated", "refused"} {
				resp, err = call()
				var e *llm.Error
				if !errors.As(err, &e) || e.Kind != llm.KindSchema || !errors.Is(err, llm.ErrSchema) {
					t.Fatalf("%s: err = %v, want a schema error", what, err)
				}
				if e.Retryable || e.Attempts != 1 || (e.Content == "" && what != "refused") {
					t.Errorf("%s: schema errors are the agent's to repair, not retried: %+v", what, e)
				}
				if h.srv.Count() != 2+i {
					t.Errorf("%s: the client retried a schema mismatch", what)
				}
				if what == "refused" && (resp == nil || resp.Refusal != "I cannot judge this chapter." || !strings.Contains(err.Error(), "the model refused: I cannot judge")) {
					t.Errorf("refusal lost: %v / %+v", err, resp)
				}
			}
		})
	}
}

func TestToolCalls(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(fmt.Sprintf("stream=%v", stream), func(t *testing.T) {
			yes := true
			h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{
				{Match: &llmtest.Match{Tools: &yes, Contains: "Who is"}, ToolCalls: []llmtest.ToolCall{
					{ID: "call_a", Name: "entity_facts", Arguments: `{"entity": "林黛玉", "chapter": 3}`},
					{ID: "call_b", Name: "search", Arguments: `{"query": "榮國府"}`},
				}},
				{Match: &llmtest.Match{ToolResult: "孤女"}, Content: "黛玉是林如海之女。"},
			}}, setup{})
			tools := []llm.Tool{
				{Name: "entity_facts", Description: "facts as of a chapter", Parameters: map[string]any{
					"type": "object", "properties": map[string]any{"entity": map[string]any{"type": "string"}, "chapter": map[string]any{"type": "integer"}},
					"required": []any{"entity", "chapter"}}},
				{Name: "search", Parameters: map[string]any{"type": "object", "properties": map[string]any{"query": map[string]any{"type": "string"}}}},
			}
			msgs := []llm.Message{llm.System("Answer with the tools."), llm.User("Who is 林黛玉?")}
			send := func() *llm.Response {
				req := llm.Request{Messages: msgs, Tools: tools, Role: "role-c"}
				var resp *llm.Response
				var err error
				if stream {
					resp, err = h.client.Stream(ctxT(t), req, func(llm.Delta) error { return nil })
				} else {
					resp, err = h.client.Chat(ctxT(t), req)
				}
				if err != nil {
					t.Fatal(err)
				}
				return resp
			}
			resp := send()
			want := []llm.ToolCall{
				{ID: "call_a", Name: "entity_facts", Arguments: `{"entity": "林黛玉", "chapter": 3}`},
				{ID: "call_b", Name: "search", Arguments: `{"query": "榮國府"}`},
			}
			if !slices.Equal(resp.ToolCalls, want) || resp.FinishReason != "tool_calls" {
				t.Fatalf("tool calls = %+v (finish %q)", resp.ToolCalls, resp.FinishReason)
			}
			msgs = append(msgs, resp.Message(), llm.ToolResult("call_a", "林黛玉：孤女，寄居賈府"), llm.ToolResult("call_b", "[]"))
			final := send()
			if final.Content != "黛玉是林如海之女。" || len(final.ToolCalls) != 0 {
				t.Errorf("final = %+v", final)
			}
			second := h.srv.Requests()[1]
			if got := second.Tools; !slices.Equal(got, []string{"entity_facts", "search"}) {
				t.Errorf("tools offered = %v", got)
			}
			// The assistant's tool calls and both results went back.
			if !bytes.Contains(second.Body, []byte(`"tool_call_id":"call_a"`)) || !bytes.Contains(second.Body, []byte(`"id":"call_b"`)) {
				t.Errorf("tool round trip body: %s", second.Body)
			}
		})
	}
}

func TestEmbed(t *testing.T) {
	h := newHarness(t, llmtest.Script{}, setup{})
	texts := []string{"Mr. Darcy of Pemberley", "林黛玉進賈府", ""}
	e, err := h.client.Embed(ctxT(t), texts)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Vectors) != 3 {
		t.Fatalf("%d vectors", len(e.Vectors))
	}
	for i, txt := range texts {
		want := llmtest.Embed(txt, 64)
		if !slices.Equal(e.Vectors[i], want) {
			t.Errorf("vector %d differs from the server's hashed bag of words", i)
		}
	}
	if e.Tokens == 0 {
		t.Error("no token usage")
	}
	if u := h.rec.all(); len(u) != 1 || u[0].Op != "embed" || u[0].Status != "ok" {
		t.Errorf("usage = %+v", u)
	}
}

func TestModels(t *testing.T) {
	h := newHarness(t, llmtest.Script{}, setup{})
	ids, err := h.client.Models(ctxT(t))
	if err != nil || !slices.Contains(ids, llmtest.StandInModel) {
		t.Errorf("models = %v, %v", ids, err)
	}
}
