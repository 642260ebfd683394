package runner

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/store"
)

// heldHistory is the real store with one node's record held until a
// request containing text reaches the scripted server; fail makes that
// record fail then.
type heldHistory struct {
	*store.Store
	node string
	srv  *llmtest.Server
	text string
	fail bool
	// waited reports whether the request came while the record was held
	// (false: the run waited for the record first, or the wait gave up).
	waited chan bool
}

func (h *heldHistory) RecordOutput(ctx context.Context, o store.Output) (store.Output, error) {
	if o.Node == h.node {
		deadline := time.Now().Add(10 * time.Second)
		for !sawRequest(h.srv, h.text) && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond) // the request arrives over HTTP: nothing to wait on
		}
		h.waited <- sawRequest(h.srv, h.text)
		if h.fail {
			return store.Output{}, errors.New("disk full (injected)")
		}
	}
	return h.Store.RecordOutput(ctx, o)
}

// TestDependentStartsBeforeTheRecord holds node a's record until node b's
// request arrives: b must be asked while a is still being recorded (a's
// commit is not on the critical path), and the run ends as a plain one.
func TestDependentStartsBeforeTheRecord(t *testing.T) {
	f := newFixture(t, chain, llmtest.Script{Replies: []llmtest.Reply{
		reply("Write A.", "alpha"), reply("Expand: alpha", "beta"), reply("Conclude: beta", "gamma"),
	}})
	h := &heldHistory{Store: f.store, node: "a", srv: f.srv, text: "Expand: alpha", waited: make(chan bool, 1)}
	f.run.cfg.History = h
	res, err := f.run.Run(context.Background(), f.checked(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !<-h.waited {
		t.Error("b was not asked while a was being recorded")
	}
	if res.Status != store.RunDone {
		t.Fatalf("status %s: %+v", res.Status, res.Nodes)
	}
	for node, want := range map[string]string{"a": "alpha", "b": "beta", "c": "gamma"} {
		if got := res.Nodes[node]; got.Status != "done" || got.Output != want || got.Version != 1 {
			t.Errorf("node %s = %s v%d %q, want done v1 %q", node, got.Status, got.Version, got.Output, want)
		}
	}
	cp, err := f.store.Checkpoint(res.RunID)
	if err != nil || cp.Nodes["a"].Status != "done" || cp.Nodes["c"].Status != "done" {
		t.Errorf("checkpoint %+v %v", cp.Nodes, err)
	}
}

// TestFailedRecordSkipsDependentsStartedEarly: node a's output is
// approved, b starts on it, then a's record fails. b must not be
// recorded, approved or handed on: it ends skipped, c never runs, and
// the run fails.
func TestFailedRecordSkipsDependentsStartedEarly(t *testing.T) {
	f := newFixture(t, chain, llmtest.Script{Replies: []llmtest.Reply{
		reply("Write A.", "alpha"), reply("Expand: alpha", "beta"), reply("Conclude: beta", "gamma"),
	}})
	h := &heldHistory{Store: f.store, node: "a", srv: f.srv, text: "Expand: alpha", fail: true, waited: make(chan bool, 1)}
	f.run.cfg.History = h
	var finished []string
	res, err := f.run.Run(context.Background(), f.checked(), Options{Observer: Observer{
		NodeFinished: func(node string, r NodeResult) { finished = append(finished, node+" "+r.Status) },
	}})
	if err != nil {
		t.Fatal(err)
	}
	if !<-h.waited {
		t.Error("b was not asked while a was being recorded")
	}
	if res.Status != store.RunFailed {
		t.Errorf("status %s, want failed", res.Status)
	}
	if a := res.Nodes["a"]; a.Status != "failed" || a.Err == nil || !strings.Contains(a.Err.Error(), "disk full") {
		t.Errorf("a = %s %v, want failed with the record's error", a.Status, a.Err)
	}
	if b := res.Nodes["b"]; b.Status != "skipped" || b.Err == nil || !strings.Contains(b.Err.Error(), "waiting on a") {
		t.Errorf("b = %s %v, want skipped waiting on a", b.Status, b.Err)
	}
	if c := res.Nodes["c"]; c.Status != "skipped" {
		t.Errorf("c = %s, want skipped", c.Status)
	}
	if sawRequest(f.srv, "Conclude") {
		t.Error("c was asked of the model")
	}
	for _, n := range []string{"a", "b"} {
		if outs, err := f.store.Outputs("workflows/w.flow", n); err != nil || len(outs) != 0 {
			t.Errorf("history of %s: %+v %v, want nothing", n, outs, err)
		}
	}
	if strings.Join(finished, ",") != "a failed,b skipped" && strings.Join(finished, ",") != "b skipped,a failed" {
		t.Errorf("observer told %v", finished)
	}
}

// TestObserverHearsTheDAGInOrder: although dependents start before their
// inputs are recorded and checkpointed, the observer is told a node's
// start only after the ends of the nodes it reads, its text only after
// its start, and its end last.
func TestObserverHearsTheDAGInOrder(t *testing.T) {
	f := newFixture(t, layered(4, 3), llmtest.Script{Default: &llmtest.Reply{Content: "some words to stream"}, ChunkRunes: 4})
	f.run.cfg.Concurrency = 3
	wf := f.checked()
	plan, err := NewPlan(wf, Target{})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var log []string
	add := func(s string) { mu.Lock(); log = append(log, s); mu.Unlock() }
	res, err := f.run.Run(context.Background(), wf, Options{Observer: Observer{
		NodeStarted:  func(n string, _, _ int) { add("start " + n) },
		Delta:        func(n string, d Delta) { add("text " + n) },
		NodeFinished: func(n string, _ NodeResult) { add("end " + n) },
	}})
	if err != nil || res.Status != store.RunDone {
		t.Fatalf("%v %+v", err, res)
	}
	at := map[string]int{}
	for i, e := range log {
		if strings.HasPrefix(e, "text ") {
			n := strings.TrimPrefix(e, "text ")
			if _, ok := at["start "+n]; !ok {
				t.Errorf("%s streamed before it was told to start", n)
			}
			if _, ok := at["end "+n]; ok {
				t.Errorf("%s streamed after its end", n)
			}
			continue
		}
		if _, dup := at[e]; dup {
			t.Errorf("told twice: %s", e)
		}
		at[e] = i
	}
	for _, n := range plan.Order {
		s, ok1 := at["start "+n]
		e, ok2 := at["end "+n]
		if !ok1 || !ok2 || e < s {
			t.Errorf("%s: start at %d (%v), end at %d (%v)", n, s, ok1, e, ok2)
		}
		for _, d := range plan.Deps[n] {
			if at["end "+d] > s {
				t.Errorf("%s was told to start (%d) before its input %s ended (%d)", n, s, d, at["end "+d])
			}
		}
	}
}

// TestDefaultConcurrencyRunsAWideLayerAtOnce: with no bound configured,
// the twelve independent nodes of a layer are all waiting on the model at
// the same time (each call is held until all twelve have arrived).
func TestDefaultConcurrencyRunsAWideLayerAtOnce(t *testing.T) {
	const width = 12
	f := newFixture(t, layered(1, width), llmtest.Script{Default: &llmtest.Reply{Content: "ok"}})
	inner := f.newRunner(nil)
	var mu sync.Mutex
	arrived := 0
	all := make(chan struct{})
	cfg := inner.cfg
	cfg.Concurrency = 0
	cfg.Model = ModelFunc(func(ctx context.Context, p Params, msgs []Message, onDelta func(Delta)) (Reply, error) {
		mu.Lock()
		arrived++
		if arrived == width {
			close(all)
		}
		mu.Unlock()
		select {
		case <-all:
		case <-time.After(10 * time.Second):
			return Reply{}, errors.New("the other nodes of the layer never came")
		}
		return inner.cfg.Model.Stream(ctx, p, msgs, onDelta)
	})
	r := New(cfg)
	if r.cfg.Concurrency < width {
		t.Fatalf("default bound %d is narrower than a %d-node layer", r.cfg.Concurrency, width)
	}
	res, err := r.Run(context.Background(), f.checked(), Options{})
	if err != nil || res.Status != store.RunDone {
		t.Fatalf("%v %+v", err, res)
	}
}

// redactingHistory is the real store that also offers the redaction it
// applies to what it records (here: one made-up secret).
type redactingHistory struct{ *store.Store }

func (redactingHistory) Redact(text string) string {
	return strings.ReplaceAll(text, "sk-made-up-secret", "[redacted]")
}

func (h redactingHistory) RecordOutput(ctx context.Context, o store.Output) (store.Output, error) {
	o.Text = h.Redact(o.Text)
	return h.Store.RecordOutput(ctx, o)
}

// TestOutputHandedOnEarlyIsRedacted: an output handed to its dependents
// before it is recorded is the text the history will hold, secrets
// removed, when the history says how it removes them.
func TestOutputHandedOnEarlyIsRedacted(t *testing.T) {
	f := newFixture(t, chain, llmtest.Script{Replies: []llmtest.Reply{
		reply("Write A.", "alpha sk-made-up-secret"), reply("Expand: alpha", "beta"), reply("Conclude: beta", "gamma"),
	}})
	f.run.cfg.History = redactingHistory{f.store}
	res, err := f.run.Run(context.Background(), f.checked(), Options{})
	if err != nil || res.Status != store.RunDone {
		t.Fatalf("%v %+v", err, res)
	}
	for _, r := range f.requests() {
		if strings.Contains(r.LastUser(), "sk-made-up-secret") {
			t.Errorf("a prompt holds the secret: %q", r.LastUser())
		}
	}
	if !sawRequest(f.srv, "Expand: alpha [redacted]") {
		t.Error("b was not given a's recorded text")
	}
}
