package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/project"
)

// TestTransientFaultsRetried: every transient fault, streaming and not,
// is retried after the policy's first delay and then succeeds.
func TestTransientFaultsRetried(t *testing.T) {
	tests := []struct {
		fault  llmtest.Fault
		stream []bool // which call styles the fault applies to
		kind   llm.Kind
	}{
		{llmtest.Fault500, []bool{false, true}, llm.KindServer},
		{llmtest.FaultCut, []bool{false, true}, llm.KindStreamCut},
		{llmtest.FaultTrunc, []bool{true}, llm.KindStreamCut},
		{llmtest.FaultBadJSON, []bool{false, true}, llm.KindMalformed},
		{llmtest.FaultHang, []bool{false, true}, llm.KindTimeout},
		{llmtest.FaultStall, []bool{false, true}, llm.KindTimeout},
		{llmtest.Fault429, []bool{false, true}, llm.KindRateLimited}, // no Retry-After: backoff
		{llmtest.Fault503, []bool{false, true}, llm.KindServer},
	}
	for _, tt := range tests {
		for _, stream := range tt.stream {
			t.Run(fmt.Sprintf("%s/stream=%v", tt.fault, stream), func(t *testing.T) {
				h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{
					{Fault: tt.fault, Content: "partial text that is lost"},
					{Content: "the whole reply"},
				}}, setup{timeout: time.Second})
				var deltas []llm.Delta
				req := llm.Request{Messages: []llm.Message{llm.User("go")}, Node: "n1"}
				var resp *llm.Response
				var err error
				if stream {
					resp, err = h.client.Stream(ctxT(t), req, func(d llm.Delta) error { deltas = append(deltas, d); return nil })
				} else {
					resp, err = h.client.Chat(ctxT(t), req)
				}
				if err != nil {
					t.Fatalf("err = %v", err)
				}
				if resp.Content != "the whole reply" || resp.Attempts != 2 {
					t.Errorf("content %q after %d attempts", resp.Content, resp.Attempts)
				}
				if got := h.scheduled(); !slices.Equal(got, []time.Duration{2 * time.Second}) {
					t.Errorf("scheduled delays = %v, want [2s]", got)
				}
				if len(h.events) != 1 || h.events[0].Kind != tt.kind || h.events[0].FromServer {
					t.Errorf("retry events = %+v, want one of kind %s", h.events, tt.kind)
				}
				if stream {
					// Whatever was delivered before the fault is void:
					// a Restart precedes the new attempt's text.
					var text strings.Builder
					for _, d := range deltas {
						if d.Restart {
							text.Reset()
						}
						text.WriteString(d.Content)
					}
					if text.String() != "the whole reply" {
						t.Errorf("reassembled %q from %+v", text.String(), deltas)
					}
				}
			})
		}
	}
}

func TestRetryAfterHonoured(t *testing.T) {
	for _, ra := range []struct {
		header string
		want   time.Duration
	}{{"7", 7 * time.Second}, {"0.5", 500 * time.Millisecond}} {
		t.Run(ra.header, func(t *testing.T) {
			h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{
				{Fault: llmtest.Fault429, RetryAfter: ra.header},
				{Fault: llmtest.Fault429, RetryAfter: ra.header},
				{Content: "ok"},
			}}, setup{})
			resp, err := h.client.Chat(ctxT(t), llm.Request{Messages: []llm.Message{llm.User("go")}})
			if err != nil {
				t.Fatal(err)
			}
			if resp.Attempts != 3 {
				t.Errorf("attempts = %d", resp.Attempts)
			}
			if got := h.scheduled(); !slices.Equal(got, []time.Duration{ra.want, ra.want}) {
				t.Errorf("scheduled = %v, want Retry-After %v twice", got, ra.want)
			}
			if !h.events[0].FromServer || h.events[0].Status != 429 {
				t.Errorf("event = %+v", h.events[0])
			}
		})
	}
}

func TestRetryAfterTooLong(t *testing.T) {
	h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{{Fault: llmtest.Fault429, RetryAfter: "3600"}}}, setup{})
	_, err := h.client.Chat(ctxT(t), llm.Request{Messages: []llm.Message{llm.User("go")}})
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindRateLimited || e.RetryAfter != time.Hour || !e.Retryable {
		t.Fatalf("err = %#v", err)
	}
	if len(h.scheduled()) != 0 || h.srv.Count() != 1 {
		t.Errorf("waited %v / sent %d requests: an hour's Retry-After must end the call at once", h.scheduled(), h.srv.Count())
	}
	if !strings.Contains(err.Error(), "asks to wait 1h0m0s") {
		t.Errorf("error does not say why: %v", err)
	}
}

// TestGiveUp: a fault that persists is retried 3 times after 2 s, 4 s,
// 8 s, then fails with an error naming the endpoint and the last error.
func TestGiveUp(t *testing.T) {
	for _, f := range []llmtest.Fault{llmtest.Fault500, llmtest.FaultCut, llmtest.FaultHang} {
		t.Run(string(f), func(t *testing.T) {
			h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{{Fault: f, Times: -1}}}, setup{timeout: 100 * time.Millisecond})
			start := time.Now()
			_, err := h.client.Stream(ctxT(t), llm.Request{Messages: []llm.Message{llm.User("go")}, Node: "ch1"}, func(llm.Delta) error { return nil })
			var e *llm.Error
			if !errors.As(err, &e) {
				t.Fatalf("err = %v", err)
			}
			if e.Attempts != 4 || h.srv.Count() != 4 || !e.Retryable {
				t.Errorf("attempts %d, requests %d, retryable %v", e.Attempts, h.srv.Count(), e.Retryable)
			}
			if got := h.scheduled(); !slices.Equal(got, []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second}) {
				t.Errorf("scheduled = %v, want [2s 4s 8s]", got)
			}
			msg := err.Error()
			for _, want := range []string{h.srv.URL, "test-writer", "gave up after 4 attempts"} {
				if !strings.Contains(msg, want) {
					t.Errorf("error %q lacks %q", msg, want)
				}
			}
			if u := h.rec.all(); len(u) != 1 || u[0].Status == "ok" || u[0].Node != "ch1" || u[0].Attempts != 4 {
				t.Errorf("usage = %+v", u)
			}
			if time.Since(start) > 10*time.Second {
				t.Errorf("took %v", time.Since(start))
			}
		})
	}
}

func TestNotRetried(t *testing.T) {
	for _, tt := range []struct {
		fault  llmtest.Fault
		status int
		msg    string
	}{
		{llmtest.Fault401, 401, "the key was rejected"},
		{llmtest.Fault400, 400, "maximum context length"},
	} {
		t.Run(string(tt.fault), func(t *testing.T) {
			h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{{Fault: tt.fault, Times: -1}}}, setup{})
			_, err := h.client.Chat(ctxT(t), llm.Request{Messages: []llm.Message{llm.User("go")}})
			var e *llm.Error
			if !errors.As(err, &e) || e.Kind != llm.KindClient || e.Status != tt.status || e.Retryable || e.Attempts != 1 {
				t.Fatalf("err = %#v", err)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("the endpoint's message is lost: %v", err)
			}
			if h.srv.Count() != 1 {
				t.Errorf("%d requests", h.srv.Count())
			}
		})
	}
}

func TestRetryAfter503(t *testing.T) {
	h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{{Fault: llmtest.Fault503, RetryAfter: "5"}, {Content: "ok"}}}, setup{})
	if _, err := h.client.Chat(ctxT(t), llm.Request{Messages: []llm.Message{llm.User("go")}}); err != nil {
		t.Fatal(err)
	}
	if got := h.scheduled(); !slices.Equal(got, []time.Duration{5 * time.Second}) {
		t.Errorf("scheduled = %v, want [5s]", got)
	}
}

func TestCallbackErrorStops(t *testing.T) {
	h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{{Content: "one two three four five six seven"}}}, setup{})
	boom := errors.New("disk full")
	_, err := h.client.Stream(ctxT(t), llm.Request{Messages: []llm.Message{llm.User("go")}}, func(llm.Delta) error { return boom })
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindCallback || !errors.Is(err, boom) || h.srv.Count() != 1 {
		t.Fatalf("err = %v (requests %d)", err, h.srv.Count())
	}
}

func TestCancel(t *testing.T) {
	t.Run("during a hung request", func(t *testing.T) {
		h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{{Fault: llmtest.FaultHang}}}, setup{timeout: time.Minute})
		ctx, cancel := context.WithCancel(ctxT(t))
		h.srv.OnRequest(func(llmtest.Request) {})
		go func() {
			for h.srv.Count() == 0 {
				time.Sleep(time.Millisecond)
			}
			cancel()
		}()
		_, err := h.client.Stream(ctx, llm.Request{Messages: []llm.Message{llm.User("go")}}, func(llm.Delta) error { return nil })
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != llm.KindCanceled || !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v", err)
		}
		if h.srv.Count() != 1 || len(h.scheduled()) != 0 {
			t.Errorf("a canceled call was retried")
		}
	})
	t.Run("during the backoff", func(t *testing.T) {
		var h *harness
		ctx, cancel := context.WithCancel(ctxT(t))
		h = newHarness(t, llmtest.Script{Replies: []llmtest.Reply{{Fault: llmtest.Fault500, Times: -1}}}, setup{
			sleep: func(ctx context.Context, d time.Duration) error {
				cancel()
				<-ctx.Done()
				return ctx.Err()
			}})
		_, err := h.client.Chat(ctx, llm.Request{Messages: []llm.Message{llm.User("go")}})
		if !errors.Is(err, context.Canceled) || h.srv.Count() != 1 {
			t.Fatalf("err = %v, requests %d", err, h.srv.Count())
		}
	})
	t.Run("real backoff wait", func(t *testing.T) {
		// The default sleep honours the context: a 2 s wait ends at once.
		srv := llmtest.New(t, llmtest.Script{Replies: []llmtest.Reply{{Fault: llmtest.Fault500, Times: -1}}})
		c, err := llm.New(llm.Config{Name: "writer", BaseURL: srv.URL, Model: "m"}, llm.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(50*time.Millisecond, cancel)
		start := time.Now()
		_, err = c.Chat(ctx, llm.Request{Messages: []llm.Message{llm.User("go")}})
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v", err)
		}
		if el := time.Since(start); el > 1900*time.Millisecond {
			t.Errorf("cancel during the 2 s backoff took %v", el)
		}
	})
}

// TestFaultRate is issue 11's fault injection at the client level: 30%
// faults over 200 calls; each ends with the reply or a clear error, and
// retries stay bounded.
func TestFaultRate(t *testing.T) {
	h := newHarness(t, llmtest.Script{FaultRate: 0.3, Seed: 11, Default: &llmtest.Reply{Content: "done"}},
		setup{timeout: 2 * time.Second})
	ok, failed := 0, 0
	for i := range 200 {
		req := llm.Request{Messages: []llm.Message{llm.User(fmt.Sprintf("node %d", i))}}
		var resp *llm.Response
		var err error
		if i%2 == 0 {
			resp, err = h.client.Stream(ctxT(t), req, func(llm.Delta) error { return nil })
		} else {
			resp, err = h.client.Chat(ctxT(t), req)
		}
		if err != nil {
			var e *llm.Error
			if !errors.As(err, &e) || !e.Retryable || e.Attempts != 4 {
				t.Errorf("run %d: unclear failure %v", i, err)
			}
			failed++
			continue
		}
		if resp.Content != "done" || resp.Attempts > 4 {
			t.Errorf("run %d: %q after %d attempts", i, resp.Content, resp.Attempts)
		}
		ok++
	}
	faults := 0
	for _, r := range h.srv.Requests() {
		if r.Fault != "" {
			faults++
		}
	}
	t.Logf("200 runs: %d completed, %d failed clearly; %d requests, %d faults injected", ok, failed, h.srv.Count(), faults)
	if ok+failed != 200 || faults < 40 || h.srv.Count() > 800 {
		t.Errorf("ok %d failed %d faults %d requests %d", ok, failed, faults, h.srv.Count())
	}
	// 0.3⁴ ≈ 0.8%: nearly every run completes.
	if ok < 190 {
		t.Errorf("only %d of 200 completed", ok)
	}
}

// TestKeyNeverLeaks: an endpoint that echoes the Authorization header in
// its error messages, and every failure path; the key must appear in no
// error text, no log line, no formatted configuration.
func TestKeyNeverLeaks(t *testing.T) {
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
			"message": "overloaded; you sent " + r.Header.Get("Authorization"), "type": "server_error"}})
	}))
	defer echo.Close()
	logs := &syncBuffer{}
	cfg := llm.Config{Name: "writer", BaseURL: echo.URL + "/v1", Model: "m", APIKey: llm.NewSecret(testKey)}
	c, err := llm.New(cfg, llm.Options{
		Retry:  llm.RetryPolicy{MaxRetries: 1, BaseDelay: time.Millisecond},
		Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	})
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	_, err = c.Chat(ctxT(t), llm.Request{Messages: []llm.Message{llm.User("go")}})
	if err == nil {
		t.Fatal("no error")
	}
	if !strings.Contains(err.Error(), "[redacted]") {
		t.Errorf("the echoed key was not scrubbed but removed some other way? %v", err)
	}
	texts = append(texts, err.Error(), fmt.Sprintf("%v %+v %#v %s %q", err, err, err, err, err))
	for u := errors.Unwrap(err); u != nil; u = errors.Unwrap(u) {
		texts = append(texts, u.Error())
	}
	_, err = c.Embed(ctxT(t), []string{"x"})
	texts = append(texts, err.Error())

	// Failure paths of the scripted server too.
	h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{
		{Fault: llmtest.Fault401}, {Fault: llmtest.FaultSchema}}}, setup{})
	for range 2 {
		_, err := h.client.Chat(ctxT(t), llm.Request{Messages: []llm.Message{llm.User("go")}, Schema: verdictSchema})
		texts = append(texts, err.Error())
	}
	// Formatting and encoding the configuration.
	cfg.APIKeyEnv = "SOME_VAR"
	data, _ := json.Marshal(cfg)
	texts = append(texts, fmt.Sprintf("%v|%+v|%#v|%s", cfg, cfg, cfg, cfg), string(data),
		fmt.Sprint(cfg.APIKey), fmt.Sprintf("%x %q %d", cfg.APIKey, cfg.APIKey, cfg.APIKey))
	slog.New(slog.NewJSONHandler(logs, nil)).Info("config", "cfg", cfg, "key", cfg.APIKey)
	texts = append(texts, logs.String(), h.logs.String())
	for i, s := range texts {
		if strings.Contains(s, testKey) || strings.Contains(s, testKey[8:]) {
			t.Errorf("text %d leaks the key: %s", i, s)
		}
	}
	if !strings.Contains(logs.String(), "llm retry") {
		t.Error("the retry was not logged: the log check proves nothing")
	}
}

func TestConfig(t *testing.T) {
	temp := 0.2
	pc := &project.Config{Models: map[string]project.Model{
		"agent": {BaseURL: "http://127.0.0.1:1/v1", Model: "small", APIKeyEnv: "AGENT_KEY", Temperature: &temp, TimeoutSeconds: 30},
	}}
	c := llm.FromProject(pc, "agent")
	if c.Name != "agent" || c.Model != "small" || *c.Temperature != 0.2 || c.Timeout != 30*time.Second {
		t.Errorf("from project: %+v", c)
	}
	hot := 1.1
	m := c.Merge(project.Model{Model: "big", Temperature: &hot})
	if m.Model != "big" || *m.Temperature != 1.1 || m.BaseURL != c.BaseURL || m.APIKeyEnv != "AGENT_KEY" || *c.Temperature != 0.2 {
		t.Errorf("merge: %+v (original %+v)", m, c)
	}
	_, err := llm.New(c, llm.Options{Getenv: func(string) string { return "" }})
	if err == nil || !strings.Contains(err.Error(), "AGENT_KEY") {
		t.Errorf("missing key variable: %v", err)
	}
	_, err = llm.New(llm.FromProject(pc, "writer"), llm.Options{})
	if err == nil || !strings.Contains(err.Error(), "base_url and model") {
		t.Errorf("unconfigured writer: %v", err)
	}
	// No api_key_env: no key and no Authorization header (local servers).
	srv := llmtest.New(t, llmtest.Script{})
	t.Setenv("OPENAI_API_KEY", "sk-ambient-must-not-be-used")
	t.Setenv(llm.EditorKeyEnv, "")
	cl, err := llm.New(llm.Config{Name: "writer", BaseURL: srv.URL, Model: "m"}, llm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := cl.Chat(ctxT(t), llm.Request{Messages: []llm.Message{llm.User("hello")}})
	if err != nil || !strings.HasPrefix(resp.Content, llmtest.StandInPrefix) {
		t.Fatalf("%v %v", resp, err)
	}
	if a := srv.Requests()[0].Header.Get("Authorization"); a != "" {
		t.Errorf("Authorization = %q, want none", a)
	}
}

func TestBadRequest(t *testing.T) {
	h := newHarness(t, llmtest.Script{}, setup{})
	for _, req := range []llm.Request{
		{},
		{Messages: []llm.Message{{Role: "wizard", Content: "x"}}},
		{Messages: []llm.Message{{Role: llm.RoleTool, Content: "x"}}},
		{Messages: []llm.Message{llm.User("x")}, Schema: &llm.Schema{Name: "s", Schema: map[string]any{"type": 12}}},
	} {
		_, err := h.client.Chat(ctxT(t), req)
		var e *llm.Error
		if !errors.As(err, &e) || e.Kind != llm.KindConfig {
			t.Errorf("%+v: err = %v", req, err)
		}
	}
	if h.srv.Count() != 0 {
		t.Errorf("bad requests reached the endpoint")
	}
}

func TestEmbedFaults(t *testing.T) {
	embeddings := &llmtest.Match{Endpoint: "embeddings"}
	for _, f := range []llmtest.Fault{llmtest.Fault500, llmtest.Fault429, llmtest.FaultBadJSON, llmtest.FaultCut, llmtest.FaultHang} {
		t.Run(string(f), func(t *testing.T) {
			h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{{Match: embeddings, Fault: f}}}, setup{timeout: time.Second})
			e, err := h.client.Embed(ctxT(t), []string{"a", "b"})
			if err != nil || len(e.Vectors) != 2 || e.Attempts != 2 {
				t.Fatalf("embed after %s: %+v %v", f, e, err)
			}
		})
	}
	h := newHarness(t, llmtest.Script{Replies: []llmtest.Reply{{Match: embeddings, Fault: llmtest.Fault401}}}, setup{})
	_, err := h.client.Embed(ctxT(t), []string{"a"})
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindClient || e.Op != "embed" {
		t.Fatalf("err = %v", err)
	}
	if u := h.rec.all(); len(u) != 1 || u[0].Status != "request-rejected" || !strings.Contains(u[0].Error, "rejected") {
		t.Errorf("usage = %+v", u)
	}
}

func TestKeyResolution(t *testing.T) {
	srv := llmtest.New(t, llmtest.Script{Default: &llmtest.Reply{Content: "ok", Times: -1}})
	for _, tt := range []struct {
		name   string
		cfg    llm.Config
		env    map[string]string
		header string
		err    string
	}{
		{"named variable", llm.Config{APIKeyEnv: "MY_KEY"}, map[string]string{"MY_KEY": "k1", llm.EditorKeyEnv: "k2"}, "Bearer k1", ""},
		{"editor key when the variable is unset", llm.Config{APIKeyEnv: "MY_KEY"}, map[string]string{llm.EditorKeyEnv: "k2"}, "Bearer k2", ""},
		{"editor key when none is named", llm.Config{}, map[string]string{llm.EditorKeyEnv: "k2"}, "Bearer k2", ""},
		{"explicit key first", llm.Config{APIKeyEnv: "MY_KEY", APIKey: llm.NewSecret("k0")}, map[string]string{"MY_KEY": "k1"}, "Bearer k0", ""},
		{"no key needed", llm.Config{}, nil, "", ""},
		{"named but missing", llm.Config{APIKeyEnv: "MY_KEY"}, nil, "", "MY_KEY"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := tt.cfg
			cfg.Name, cfg.BaseURL, cfg.Model = "writer", srv.URL, "m"
			c, err := llm.New(cfg, llm.Options{Getenv: func(k string) string { return tt.env[k] }})
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want one naming %s", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.Chat(ctxT(t), llm.Request{Messages: []llm.Message{llm.User("x")}}); err != nil {
				t.Fatal(err)
			}
			reqs := srv.Requests()
			if got := reqs[len(reqs)-1].Header.Get("Authorization"); got != tt.header {
				t.Errorf("Authorization = %q, want %q", got, tt.header)
			}
		})
	}
}

// TestStreamTimeoutIsIdle: the timeout bounds the silence between chunks,
// not the whole stream: a reply that keeps flowing outlives it, one that
// stalls does not.
func TestStreamTimeoutIsIdle(t *testing.T) {
	text := strings.Repeat("abcdefgh", 12) // 12 chunks of 8 runes
	h := newHarness(t, llmtest.Script{ChunkDelay: llmtest.Duration(100 * time.Millisecond), Replies: []llmtest.Reply{{Content: text}}},
		setup{timeout: time.Second})
	start := time.Now()
	resp, err := h.client.Stream(ctxT(t), llm.Request{Messages: []llm.Message{llm.User("go")}}, func(llm.Delta) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if resp.Content != text || resp.Attempts != 1 {
		t.Errorf("content %q after %d attempts", resp.Content, resp.Attempts)
	}
	// The stream took longer than the timeout (at least 12 gaps of 100
	// ms) and still was not cut: that is the property, not a speed.
	if el := time.Since(start); el < time.Second {
		t.Fatalf("the stream took %v: the test proves nothing", el)
	}
}

func TestConcurrentCalls(t *testing.T) {
	h := newHarness(t, llmtest.Script{FaultRate: 0.3, Seed: 3, Default: &llmtest.Reply{Content: "parallel", Times: -1}},
		setup{timeout: 2 * time.Second})
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Go(func() {
			req := llm.Request{Messages: []llm.Message{llm.User(fmt.Sprint(i))}, Node: fmt.Sprint(i)}
			var resp *llm.Response
			var err error
			if i%2 == 0 {
				resp, err = h.client.Stream(ctxT(t), req, func(llm.Delta) error { return nil })
			} else {
				resp, err = h.client.Chat(ctxT(t), req)
			}
			if err == nil && resp.Content != "parallel" {
				err = fmt.Errorf("content %q", resp.Content)
			}
			errs <- err
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		var e *llm.Error
		if err != nil && (!errors.As(err, &e) || !e.Retryable) {
			t.Errorf("unclear failure: %v", err)
		}
	}
	if n := len(h.rec.all()); n != 40 {
		t.Errorf("%d usage records for 40 calls", n)
	}
}

func TestEndpointDown(t *testing.T) {
	// A port nothing listens on: take a free one and close it.
	srv := llmtest.New(t, llmtest.Script{})
	base := srv.URL
	srv.Close()
	var delays []time.Duration
	c, err := llm.New(llm.Config{Name: "writer", BaseURL: base, Model: "m"}, llm.Options{
		Sleep: func(ctx context.Context, d time.Duration) error { delays = append(delays, d); return nil },
		Retry: llm.RetryPolicy{MaxRetries: 3, BaseDelay: 2 * time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Chat(ctxT(t), llm.Request{Messages: []llm.Message{llm.User("go")}})
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.KindNetwork || e.Attempts != 4 || !e.Retryable {
		t.Fatalf("err = %v", err)
	}
	if len(delays) != 3 {
		t.Fatalf("delays %v", delays)
	}
	for i, base := range []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second} {
		if delays[i] < base || delays[i] >= base+base/4 {
			t.Errorf("delay %d = %v: want %v plus up to 25%% jitter", i, delays[i], base)
		}
	}
	if !strings.Contains(err.Error(), base) || !strings.Contains(err.Error(), "refused") {
		t.Errorf("error does not name the endpoint and the cause: %v", err)
	}
}
