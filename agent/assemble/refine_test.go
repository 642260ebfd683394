package assemble

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
)

// refineNode speaks of Charlotte Lucas's engagement without a name, an
// alias or a word of her entity file: only a reader knows who is meant.
var refineNode = Node{ID: "scene", Text: "Write the morning when the news of an engagement reaches the family at breakfast.", Chapter: 11, Budget: 6000}

func agentClient(t *testing.T, url string) *llm.Client {
	t.Helper()
	c, err := llm.New(llm.Config{Name: llm.Agent, BaseURL: url, Model: "stand-in-agent", Timeout: 5 * time.Second},
		llm.Options{Retry: llm.RetryPolicy{MaxRetries: -1}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func chatRequests(srv *llmtest.Server) []llmtest.Request {
	var out []llmtest.Request
	for _, r := range srv.Requests() {
		if r.Endpoint == "chat" {
			out = append(out, r)
		}
	}
	return out
}

func hasSource(c *Context, path, reason string) bool {
	for _, s := range c.Sources {
		if s.Path == path && strings.Contains(s.Reason, reason) {
			return true
		}
	}
	return false
}

// TestRefinement: the agent model's reading adds an entity the names did
// not find, asked once per input (then cached in the store), and the
// assembly stays byte-identical for the same inputs.
func TestRefinement(t *testing.T) {
	ctx := context.Background()
	snap := load(t, newBuilder(), sampleProject(t))
	const charlotte = "entities/characters/charlotte-lucas.md"
	plain := must(Assemble(refineNode, snap, Options{}))
	if hasSource(plain, charlotte, "") {
		t.Fatalf("the deterministic analysis already finds Charlotte: the test shows nothing")
	}
	answer := json.RawMessage(`{"entities": ["Charlotte Lucas", "Nobody Declared"], "threads": ["Mr. Collins's proposal"], "locations": ["Lucas Lodge"]}`)
	srv := llmtest.New(t, llmtest.Script{Replies: []llmtest.Reply{
		{Match: &llmtest.Match{Contains: "reaches the family at breakfast", Schema: boolPtr(true)}, JSON: answer},
	}})
	st := openTestStore(t)
	r := &Refiner{Model: "stand-in-agent", Chat: agentClient(t, srv.URL), Cache: st}
	if pre := r.Cached(ctx, refineNode, snap); !strings.Contains(pre.Unavailable, "has not read this prompt yet") || len(chatRequests(srv)) != 0 {
		t.Errorf("preview before a reading: %q, %d requests", pre.Unavailable, len(chatRequests(srv)))
	}
	ref := r.Refine(ctx, refineNode, snap)
	if ref.Unavailable != "" {
		t.Fatal(ref.Unavailable)
	}
	reqs := chatRequests(srv)
	if len(reqs) != 1 {
		t.Fatalf("%d chat requests", len(reqs))
	}
	// The model was shown the declared entities and the prompt.
	var body struct {
		Messages []struct{ Content string } `json:"messages"`
		Format   struct {
			Type string `json:"type"`
		} `json:"response_format"`
	}
	json.Unmarshal(reqs[0].Body, &body)
	if len(body.Messages) != 2 || !strings.Contains(body.Messages[1].Content, "- Charlotte Lucas (also Charlotte") ||
		!strings.Contains(body.Messages[1].Content, "reaches the family at breakfast") || body.Format.Type != "json_schema" {
		t.Errorf("request: %s", reqs[0].Body)
	}

	c := must(Assemble(refineNode, snap, Options{Refinement: ref}))
	if !hasSource(c, charlotte, `named by the model's reading of the prompt ("Charlotte Lucas")`) {
		t.Errorf("Charlotte not injected by the model's reading: %+v", c.Sources)
	}
	for _, s := range c.Sources {
		if strings.Contains(s.Path, "nobody") {
			t.Errorf("an undeclared entity entered: %+v", s)
		}
	}
	if len(c.Notes) != 1 || !strings.Contains(c.Notes[0], "intent refined by stand-in-agent: named Charlotte Lucas; searched for") ||
		!strings.Contains(c.Notes[0], `"Mr. Collins's proposal"`) || !strings.Contains(c.Notes[0], `"Lucas Lodge"`) {
		t.Errorf("notes = %q", c.Notes)
	}
	if c.Tokens > c.Budget {
		t.Errorf("over budget: %d of %d", c.Tokens, c.Budget)
	}

	// Asked again (a new refiner, a fresh snapshot of the same project):
	// the cache answers, and the bytes are the same.
	want := mustJSON(t, c)
	for i := 0; i < 5; i++ {
		r2 := &Refiner{Model: "stand-in-agent", Chat: agentClient(t, srv.URL), Cache: st}
		ref2 := r2.Refine(ctx, refineNode, snap)
		got := mustJSON(t, must(Assemble(refineNode, snap, Options{Refinement: ref2})))
		if !bytes.Equal(got, want) {
			t.Fatalf("run %d differs", i)
		}
	}
	if got := mustJSON(t, must(Assemble(refineNode, snap, Options{Refinement: r.Cached(ctx, refineNode, snap)}))); !bytes.Equal(got, want) {
		t.Error("the preview from the cache differs from the run")
	}
	if n := len(chatRequests(srv)); n != 1 {
		t.Errorf("%d chat requests for one input asked six times", n)
	}
	// Another prompt is another question.
	other := refineNode
	other.Text += " Keep it short."
	// The script has no reply for it: the stand-in's echo gives the
	// smallest value the schema accepts (empty lists).
	if ref3 := r.Refine(ctx, other, snap); ref3.Unavailable != "" || len(ref3.Entities) != 0 {
		t.Errorf("echo refinement: %+v", ref3)
	}
	if n := len(chatRequests(srv)); n != 2 {
		t.Errorf("%d chat requests after another prompt", n)
	}
}

func boolPtr(b bool) *bool { return &b }

// TestRefinementUnavailable: a dead endpoint, or an answer that does not
// fit, leaves the deterministic analysis alone and the provenance says
// so.
func TestRefinementUnavailable(t *testing.T) {
	ctx := context.Background()
	snap := load(t, newBuilder(), sampleProject(t))
	plain := must(Assemble(refineNode, snap, Options{}))
	bad := llmtest.New(t, llmtest.Script{Replies: []llmtest.Reply{{Match: &llmtest.Match{Schema: boolPtr(true)}, Content: "not json", Times: -1}}})
	cache := &MemAnswers{}
	for _, tc := range []struct {
		name string
		url  string
	}{
		{"dead endpoint", llmtest.DeadURL(t)},
		{"answer off the schema", bad.URL},
	} {
		r := &Refiner{Model: "stand-in-agent", Chat: agentClient(t, tc.url), Cache: cache}
		ref := r.Refine(ctx, refineNode, snap)
		if ref.Unavailable == "" {
			t.Errorf("%s: no error", tc.name)
			continue
		}
		c := must(Assemble(refineNode, snap, Options{Refinement: ref}))
		if c.Hash != plain.Hash || len(c.Notes) != 1 || !strings.HasPrefix(c.Notes[0], "intent refinement unavailable: ") {
			t.Errorf("%s: notes %q, same as without: %v", tc.name, c.Notes, c.Hash == plain.Hash)
		}
	}
	// Nothing was cached from the failures: a later answer is taken.
	good := llmtest.New(t, llmtest.Script{Replies: []llmtest.Reply{{Match: &llmtest.Match{Schema: boolPtr(true)},
		JSON: json.RawMessage(`{"entities": ["Charlotte"], "threads": [], "locations": []}`)}}})
	r := &Refiner{Model: "stand-in-agent", Chat: agentClient(t, good.URL), Cache: cache}
	if ref := r.Refine(ctx, refineNode, snap); ref.Unavailable != "" || len(ref.Entities) != 1 {
		t.Errorf("after failures: %+v", ref)
	}
}

// TestRefinementLimits: long or repeated lists are bounded, blank names
// ignored.
func TestRefinementLimits(t *testing.T) {
	snap := load(t, newBuilder(), sampleProject(t))
	var many []string
	for i := 0; i < 30; i++ {
		many = append(many, "thread "+strings.Repeat("x", i))
	}
	ref := &Refinement{Model: "m", Entities: []string{" ", "Jane", "Jane", "Miss Bennet"}, Threads: many}
	rf, note := refinedOf(ref, snap)
	if len(rf.entities) == 0 || rf.entities[0].Path != "entities/characters/jane-bennet.md" {
		t.Errorf("entities = %+v", rf.entities)
	}
	if strings.Count(note, `"thread`) != maxRefined {
		t.Errorf("note lists %d threads: %s", strings.Count(note, `"thread`), note)
	}
}

// TestRefinerCooldown: a model that failed is left alone for the
// cooldown, so the next nodes assemble at once without its reading.
func TestRefinerCooldown(t *testing.T) {
	ctx := context.Background()
	snap := load(t, newBuilder(), sampleProject(t))
	for _, cooldown := range []time.Duration{0, time.Minute} {
		srv := llmtest.New(t, llmtest.Script{Replies: []llmtest.Reply{{Match: &llmtest.Match{Schema: boolPtr(true)}, Fault: llmtest.Fault500, Times: -1}}})
		r := &Refiner{Model: "stand-in-agent", Chat: agentClient(t, srv.URL), Cooldown: cooldown}
		if ref := r.Refine(ctx, refineNode, snap); ref.Unavailable == "" {
			t.Fatal("a failing model gave a reading")
		}
		n := srv.Count()
		ref := r.Refine(ctx, Node{ID: "other", Text: "Charlotte Lucas marries Mr. Collins."}, snap)
		again := srv.Count() - n
		switch {
		case ref.Unavailable == "":
			t.Errorf("cooldown %v: the second reading succeeded", cooldown)
		case cooldown > 0 && (again != 0 || !strings.Contains(ref.Unavailable, "not asked again until")):
			t.Errorf("cooldown %v: %d requests, %q", cooldown, again, ref.Unavailable)
		case cooldown == 0 && again == 0:
			t.Errorf("no cooldown: the second reading did not ask")
		}
	}
}
