package assemble

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/store"
)

const embedModel = "stand-in-embed"

// paraphrase maps the words of semanticNode to those of chapter 3's
// parting scene: the stand-in embeds them alike, and no word of the
// prompt's own occurs in the manuscript.
var paraphrase = map[string]string{"grief": "sorrow", "weeping": "tears", "farewell": "parting", "beloved": "dear", "sister": "jane"}

var semanticNode = Node{ID: "n", Text: "Recall the grief and weeping of the farewell to her beloved sister.", Chapter: 13, Budget: 1500}

// fillerWords make chapters that say nothing of partings.
var fillerWords = strings.Fields(`carriage road town officers dined ball music candles supper card table
militia regiment horses stable garden gravel path morning breakfast letter post village church rector
sermon estate rent tenant field hedge orchard market bonnet ribbon lace muslin shop cousin uncle
Meryton Longbourn Netherfield colonel captain dance quadrille partner fiddle evening rain umbrella`)

// semanticInput is twelve chapters of filler, of which chapter 3 holds a
// scene of parting told in other words than the prompt's.
func semanticInput() Input {
	var in Input
	for n := 1; n <= 12; n++ {
		var b strings.Builder
		for p := 0; p < 6; p++ {
			for i := 0; i < 40; i++ {
				b.WriteString(fillerWords[(n*7+p*13+i*5)%len(fillerWords)])
				b.WriteString(" ")
			}
			b.WriteString(".\n\n")
			if n == 3 && p == 2 {
				b.WriteString("Her sorrow was very great, and there were tears at the parting from dear Jane; sorrow and tears all the way down the lane.\n\n")
			}
		}
		in.Chapters = append(in.Chapters, ChapterDoc{Number: n, Path: fmt.Sprintf("manuscript/chapter-%02d/content.md", n), Text: b.String()})
	}
	return in
}

func embedClient(t *testing.T, url string) *llm.Client {
	t.Helper()
	c, err := llm.New(llm.Config{Name: llm.Embedding, BaseURL: url, Model: embedModel, Timeout: 5 * time.Second},
		llm.Options{Retry: llm.RetryPolicy{MaxRetries: 1, BaseDelay: time.Millisecond, Jitter: -1}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

func openTestStore(t *testing.T) *store.Store {
	t.Helper()
	s, err := store.Open(context.Background(), t.TempDir(), store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func embedRequests(srv *llmtest.Server) []llmtest.Request {
	var out []llmtest.Request
	for _, r := range srv.Requests() {
		if r.Endpoint == "embeddings" {
			out = append(out, r)
		}
	}
	return out
}

// TestEmbedChaptersCache embeds the passages once, in bounded batches,
// and never again while their text is unchanged, across snapshots and
// store reopenings.
func TestEmbedChaptersCache(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.New(t, llmtest.Script{Dimensions: 96})
	st := openTestStore(t)
	b := newBuilder()
	in := semanticInput()
	snap, err := b.Build(in)
	if err != nil {
		t.Fatal(err)
	}
	e := &Embedding{Model: embedModel, Embedder: embedClient(t, srv.URL), Cache: st, Batch: 5}
	vecs, rep := e.EmbedChapters(ctx, snap)
	if rep.Err != nil {
		t.Fatal(rep.Err)
	}
	if rep.Texts == 0 || rep.Embedded != rep.Texts || rep.Cached != 0 || rep.Calls != (rep.Texts+4)/5 {
		t.Fatalf("first embedding: %+v", rep)
	}
	if vecs.Dims != 96 || vecs.Missing != 0 || vecs.Passages != rep.Texts {
		t.Errorf("vectors: dims %d, %d passages, %d missing", vecs.Dims, vecs.Passages, vecs.Missing)
	}
	reqs := embedRequests(srv)
	if len(reqs) != rep.Calls {
		t.Fatalf("%d requests for %d calls", len(reqs), rep.Calls)
	}
	for _, r := range reqs {
		if len(r.Messages) > 5 || r.Model != embedModel {
			t.Errorf("a request of %d texts for model %q: batches are of at most 5", len(r.Messages), r.Model)
		}
	}
	// The stored vector of a passage is the endpoint's.
	c3 := snap.Chapters()[2]
	p := c3.Passages[0]
	got, err := st.TextVectors(ctx, embedModel, []string{TextHash(c3.L2[p.Start:p.End])})
	if err != nil || !slices.Equal(got[TextHash(c3.L2[p.Start:p.End])], llmtest.Embed(c3.L2[p.Start:p.End], 96)) {
		t.Errorf("stored vector differs from the endpoint's: %v", err)
	}

	// A new snapshot of the same text, a new Embedding: nothing to embed.
	snap2, _ := newBuilder().Build(in)
	e2 := &Embedding{Model: embedModel, Embedder: embedClient(t, srv.URL), Cache: st}
	vecs2, rep2 := e2.EmbedChapters(ctx, snap2)
	if rep2.Err != nil || rep2.Calls != 0 || rep2.Embedded != 0 || rep2.Cached != rep.Texts {
		t.Errorf("second embedding of unchanged text: %+v", rep2)
	}
	if n := len(embedRequests(srv)); n != len(reqs) {
		t.Errorf("second embedding made %d requests", n-len(reqs))
	}
	if vecs2.Dims != vecs.Dims || vecs2.Passages != vecs.Passages {
		t.Errorf("cached vectors differ: %+v", vecs2)
	}

	// One chapter changes: only its new passage is embedded.
	in.Chapters[5].Text += "A new paragraph about the assembly at Meryton.\n"
	snap3, _ := newBuilder().Build(in)
	_, rep3 := e2.EmbedChapters(ctx, snap3)
	if rep3.Err != nil || rep3.Embedded == 0 || rep3.Embedded > 2 || rep3.Calls != 1 {
		t.Errorf("after one chapter changed: %+v", rep3)
	}
	// A model of another name shares nothing with this one.
	e3 := &Embedding{Model: "other-model", Embedder: embedClient(t, srv.URL), Cache: st, Batch: 64}
	if _, rep4 := e3.EmbedChapters(ctx, snap3); rep4.Cached != 0 || rep4.Embedded != rep4.Texts {
		t.Errorf("another model reused vectors: %+v", rep4)
	}
}

// TestQueryVectorCache embeds a prompt once per model and text.
func TestQueryVectorCache(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.New(t, llmtest.Script{Dimensions: 64, Synonyms: paraphrase})
	st := openTestStore(t)
	e := &Embedding{Model: embedModel, Embedder: embedClient(t, srv.URL), Cache: st}
	text := QueryText(semanticNode)
	for i := 0; i < 3; i++ {
		q, err := e.EmbedQuery(ctx, text)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(q, llmtest.EmbedWith(text, 64, paraphrase)) {
			t.Fatalf("query vector is not the endpoint's")
		}
	}
	if n := len(embedRequests(srv)); n != 1 {
		t.Errorf("%d requests for three embeddings of one prompt", n)
	}
	if _, err := e.EmbedQuery(ctx, "another prompt"); err != nil {
		t.Fatal(err)
	}
	if n := len(embedRequests(srv)); n != 2 {
		t.Errorf("%d requests after a second prompt", n)
	}
	if _, err := e.EmbedQuery(ctx, " \n\t"); err == nil {
		t.Error("a blank prompt was embedded")
	}
}

func semanticSetup(t *testing.T, script llmtest.Script) (*MemSnapshot, *Embedding, *llmtest.Server) {
	t.Helper()
	srv := llmtest.New(t, script)
	snap, err := newBuilder().Build(semanticInput())
	if err != nil {
		t.Fatal(err)
	}
	return snap, &Embedding{Model: embedModel, Embedder: embedClient(t, srv.URL), Cache: &MemVectors{}}, srv
}

func chapterSources(c *Context, path string) []Source {
	var out []Source
	for _, s := range c.Sources {
		if s.Path == path {
			out = append(out, s)
		}
	}
	return out
}

// TestSemanticFindsParaphrase: a prompt none of whose words occur in the
// manuscript finds the chapter that says the same in other words, and
// says why.
func TestSemanticFindsParaphrase(t *testing.T) {
	ctx := context.Background()
	snap, e, _ := semanticSetup(t, llmtest.Script{Dimensions: 256, Synonyms: paraphrase})
	const ch3 = "manuscript/chapter-03/content.md"

	lexical, err := Assemble(semanticNode, snap, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := chapterSources(lexical, ch3); len(s) > 0 {
		t.Fatalf("the lexical search already finds chapter 3 (%+v): the test shows nothing", s)
	}
	if len(lexical.Notes) != 0 {
		t.Errorf("notes without embeddings: %v", lexical.Notes)
	}

	vecs, rep := e.EmbedChapters(ctx, snap)
	if rep.Err != nil {
		t.Fatal(rep.Err)
	}
	sem := e.Semantic(ctx, vecs, semanticNode)
	if sem.Unavailable != "" {
		t.Fatal(sem.Unavailable)
	}
	c, err := Assemble(semanticNode, snap, Options{Semantic: sem})
	if err != nil {
		t.Fatal(err)
	}
	src := chapterSources(c, ch3)
	if len(src) == 0 {
		t.Fatalf("chapter 3 not injected with embeddings; sources %+v", c.Sources)
	}
	found := false
	for _, s := range src {
		if strings.Contains(s.Reason, "similar in meaning to the prompt (cos 0.") {
			found = true
		}
	}
	if !found {
		t.Errorf("chapter 3's reason does not say it is similar in meaning: %+v", src)
	}
	if !strings.Contains(c.UserSuffix, "sorrow was very great") {
		t.Errorf("the parting passage is not in the context:\n%s", c.UserSuffix)
	}
	if len(c.Notes) != 1 || !strings.HasPrefix(c.Notes[0], "embeddings: "+embedModel) {
		t.Errorf("notes = %v", c.Notes)
	}
	if c.Tokens > c.Budget || exactTokens(t, c) > c.Budget {
		t.Errorf("over budget: %d (counted %d) of %d", c.Tokens, exactTokens(t, c), c.Budget)
	}
}

// TestSemanticDeterminism: with embeddings, the same inputs give the same
// bytes, whether the vectors come from the endpoint or the cache.
func TestSemanticDeterminism(t *testing.T) {
	ctx := context.Background()
	snap, e, _ := semanticSetup(t, llmtest.Script{Dimensions: 256, Synonyms: paraphrase})
	vecs, _ := e.EmbedChapters(ctx, snap)
	sem := e.Semantic(ctx, vecs, semanticNode)
	first := mustJSON(t, must(Assemble(semanticNode, snap, Options{Semantic: sem})))
	for i := 0; i < 20; i++ {
		// Vectors rebuilt from the cache, a fresh snapshot: same bytes.
		snap2, _ := newBuilder().Build(semanticInput())
		vecs2, rep := e.EmbedChapters(ctx, snap2)
		if rep.Calls != 0 {
			t.Fatalf("run %d embedded again: %+v", i, rep)
		}
		got := mustJSON(t, must(Assemble(semanticNode, snap2, Options{Semantic: e.Semantic(ctx, vecs2, semanticNode)})))
		if !bytes.Equal(got, first) {
			t.Fatalf("run %d differs:\n%s\n%s", i, got, first)
		}
	}
	lexical := mustJSON(t, must(Assemble(semanticNode, snap, Options{})))
	if bytes.Equal(lexical, first) {
		t.Error("embeddings changed nothing: the test shows nothing")
	}
}

func must(c *Context, err error) *Context {
	if err != nil {
		panic(err)
	}
	return c
}

// TestEmbeddingsUnavailable: a dead or failing endpoint never fails the
// assembly: it searches lexically, with the same result as without
// embeddings, and says so.
func TestEmbeddingsUnavailable(t *testing.T) {
	ctx := context.Background()
	snap, err := newBuilder().Build(semanticInput())
	if err != nil {
		t.Fatal(err)
	}
	lexical := must(Assemble(semanticNode, snap, Options{}))
	srv := llmtest.New(t, llmtest.Script{Dimensions: 32, Replies: []llmtest.Reply{
		{Match: &llmtest.Match{Endpoint: "embeddings"}, Times: 2, Content: "ok"},
		{Match: &llmtest.Match{Endpoint: "embeddings"}, Times: -1, Fault: llmtest.Fault500},
	}})
	for _, tc := range []struct {
		name    string
		url     string
		note    string
		partial bool
	}{
		{"dead endpoint", llmtest.DeadURL(t), "embeddings unavailable: the manuscript has no vectors", false},
		{"endpoint failing after two calls", srv.URL, "without a vector", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := &Embedding{Model: embedModel, Embedder: embedClient(t, tc.url), Cache: &MemVectors{}, Batch: 4}
			vecs, rep := e.EmbedChapters(ctx, snap)
			if rep.Err == nil {
				t.Fatalf("no error reported: %+v", rep)
			}
			if tc.partial != (vecs.Dims > 0) || (tc.partial && (vecs.Missing == 0 || vecs.Missing == vecs.Passages || rep.Embedded != 8)) {
				t.Errorf("vectors: dims %d, %d of %d missing; report %+v", vecs.Dims, vecs.Missing, vecs.Passages, rep)
			}
			sem := e.Semantic(ctx, vecs, semanticNode)
			if tc.partial {
				// The endpoint is down for the prompt too; its vector is
				// had another way, to see the partial vectors used.
				sem = &Semantic{Vectors: vecs, Query: llmtest.Embed(QueryText(semanticNode), 32)}
			}
			c, err := Assemble(semanticNode, snap, Options{Semantic: sem})
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Notes) != 1 || !strings.Contains(c.Notes[0], tc.note) {
				t.Errorf("notes = %q, want one saying %q", c.Notes, tc.note)
			}
			if !tc.partial {
				if !strings.Contains(c.Notes[0], "searched lexically only") {
					t.Errorf("note does not say the search was lexical: %q", c.Notes[0])
				}
				if c.Hash != lexical.Hash || c.UserSuffix != lexical.UserSuffix {
					t.Error("the fallback differs from the lexical assembly")
				}
			}
		})
	}
	// A prompt whose vector cannot be had: the snapshot's vectors are
	// there, the query is not.
	good := llmtest.New(t, llmtest.Script{Dimensions: 32})
	e := &Embedding{Model: embedModel, Embedder: embedClient(t, good.URL), Cache: &MemVectors{}}
	vecs, _ := e.EmbedChapters(ctx, snap)
	e.Embedder = embedClient(t, llmtest.DeadURL(t))
	sem := e.Semantic(ctx, vecs, semanticNode)
	c := must(Assemble(semanticNode, snap, Options{Semantic: sem}))
	if sem.Unavailable == "" || len(c.Notes) != 1 || !strings.Contains(c.Notes[0], "embeddings unavailable: embed with") || c.Hash != lexical.Hash {
		t.Errorf("dead endpoint for the prompt: unavailable %q, notes %q", sem.Unavailable, c.Notes)
	}
}

// TestSemanticInputChecks: vectors that do not fit are never used.
func TestSemanticInputChecks(t *testing.T) {
	snap, err := newBuilder().Build(semanticInput())
	if err != nil {
		t.Fatal(err)
	}
	vecs := map[string][]float32{}
	for _, c := range snap.Chapters() {
		for _, p := range c.Passages {
			vecs[TextHash(c.L2[p.Start:p.End])] = llmtest.Embed(c.L2[p.Start:p.End], 16)
		}
	}
	v := NewVectors(embedModel, snap, vecs)
	lexical := must(Assemble(semanticNode, snap, Options{}))
	for _, tc := range []struct {
		name string
		sem  *Semantic
		note string
	}{
		{"no vectors", &Semantic{Query: llmtest.Embed("x", 16)}, "the manuscript has no vectors yet"},
		{"zero query", &Semantic{Vectors: v, Query: make([]float32, 16)}, "the prompt has no vector"},
		{"other dimensions", &Semantic{Vectors: v, Query: llmtest.Embed("grief", 8)}, "8 dimensions, the manuscript's 16"},
		{"said unavailable", &Semantic{Vectors: v, Query: llmtest.Embed("x", 16), Unavailable: "endpoint down"}, "endpoint down"},
	} {
		c := must(Assemble(semanticNode, snap, Options{Semantic: tc.sem}))
		if len(c.Notes) != 1 || !strings.Contains(c.Notes[0], tc.note) || c.Hash != lexical.Hash {
			t.Errorf("%s: notes %q (want %q), hash equal to lexical: %v", tc.name, c.Notes, tc.note, c.Hash == lexical.Hash)
		}
	}
	// Vectors of an older version of a chapter are not used for it.
	in := semanticInput()
	in.Chapters[2].Text = strings.Replace(in.Chapters[2].Text, "sorrow was", "sorrow is", 1)
	snap2, _ := newBuilder().Build(in)
	sem := &Semantic{Vectors: v, Query: llmtest.EmbedWith(QueryText(semanticNode), 16, paraphrase)}
	c := must(Assemble(semanticNode, snap2, Options{Semantic: sem}))
	for _, s := range c.Sources {
		if s.Path == "manuscript/chapter-03/content.md" && strings.Contains(s.Reason, "similar in meaning") {
			t.Errorf("stale vectors used for chapter 3: %+v", s)
		}
	}
}

// TestFusion: what both searches find is reordered a little; what only
// the ranking by meaning finds comes right after the lexical core.
func TestFusion(t *testing.T) {
	ids := func(xs []scored) string {
		var s []string
		for _, x := range xs {
			s = append(s, x.id)
		}
		return strings.Join(s, " ")
	}
	lex := []scored{{"a", 9}, {"b", 8}, {"c", 7}, {"d", 6}, {"e", 5}, {"f", 4}}
	for _, tc := range []struct {
		name string
		sem  []scored
		w    float64
		core int
		want string
	}{
		{"nothing by meaning", nil, 0.2, 2, "a b c d e f"},
		{"a small boost moves up two ranks", []scored{{"c", 0.9}}, 0.2, 2, "c a b d e f"},
		{"a small boost moves up two ranks, not more", []scored{{"d", 0.9}}, 0.2, 2, "a d b c e f"},
		{"a large weight overturns", []scored{{"f", 0.9}}, 5, 2, "f a b c d e"},
		{"extras after the core", []scored{{"x", 0.9}, {"y", 0.8}, {"b", 0.7}}, 0.2, 2, "b a x y c d e f"},
		{"ties go by id", []scored{{"z", 0.5}}, 1, 1, "a z b c d e f"},
	} {
		lexSet := map[string]bool{}
		for _, x := range lex {
			lexSet[x.id] = true
		}
		got := withExtras(rrf(lex, tc.sem, tc.w), tc.sem, lexSet, tc.core, 2)
		if ids(got) != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, ids(got), tc.want)
		}
	}
}

// TestSemanticArcFirst: in a work long enough to be scanned arc-first,
// the arc holding the chapter closest in meaning is searched even when
// the lexical scan of the arcs does not pick it.
func TestSemanticArcFirst(t *testing.T) {
	ctx := context.Background()
	var in Input
	for n := 1; n <= arcFirstAbove+10; n++ {
		text := fmt.Sprintf("%s %s %s went to the %s.\n\n", fillerWords[n%len(fillerWords)], fillerWords[(n*3)%len(fillerWords)],
			fillerWords[(n*7)%len(fillerWords)], fillerWords[(n*11)%len(fillerWords)])
		if n == 5 {
			text += "Her sorrow was very great, and there were tears at the parting from dear Jane.\n\n"
		}
		in.Chapters = append(in.Chapters, ChapterDoc{Number: n, Path: fmt.Sprintf("manuscript/chapter-%03d/content.md", n), Text: text})
	}
	snap, err := newBuilder().Build(in)
	if err != nil {
		t.Fatal(err)
	}
	node := semanticNode
	node.Chapter = arcFirstAbove + 11
	const ch5 = "manuscript/chapter-005/content.md"
	if c := must(Assemble(node, snap, Options{})); len(chapterSources(c, ch5)) > 0 {
		t.Fatal("the lexical search finds chapter 5: the test shows nothing")
	}
	srv := llmtest.New(t, llmtest.Script{Dimensions: 256, Synonyms: paraphrase})
	e := &Embedding{Model: embedModel, Embedder: embedClient(t, srv.URL), Cache: &MemVectors{}, Batch: 256, BatchBytes: 1 << 20}
	vecs, rep := e.EmbedChapters(ctx, snap)
	if rep.Err != nil {
		t.Fatal(rep.Err)
	}
	c := must(Assemble(node, snap, Options{Semantic: e.Semantic(ctx, vecs, node)}))
	ok := false
	for _, s := range chapterSources(c, ch5) {
		ok = ok || strings.Contains(s.Reason, "similar in meaning to the prompt")
	}
	if !ok {
		t.Errorf("chapter 5 (arc 1) not found by meaning in an arc-first scan: %+v", c.Sources)
	}
}

// TestEmbeddingCooldown: after a failure, an Embedding with a cooldown
// leaves the endpoint alone, so the nodes of a run go lexical at once.
func TestEmbeddingCooldown(t *testing.T) {
	ctx := context.Background()
	for _, cooldown := range []time.Duration{0, time.Minute} {
		srv := llmtest.New(t, llmtest.Script{Replies: []llmtest.Reply{{Match: &llmtest.Match{Endpoint: "embeddings"}, Times: -1, Fault: llmtest.Fault500}}})
		e := &Embedding{Model: embedModel, Embedder: embedClient(t, srv.URL), Cooldown: cooldown}
		if _, err := e.EmbedQuery(ctx, "first prompt"); err == nil {
			t.Fatal("a failing endpoint gave a vector")
		}
		n := len(embedRequests(srv))
		_, err := e.EmbedQuery(ctx, "second prompt")
		again := len(embedRequests(srv)) - n
		switch {
		case err == nil:
			t.Errorf("cooldown %v: second call succeeded", cooldown)
		case cooldown > 0 && (again != 0 || !strings.Contains(err.Error(), "not asked again until")):
			t.Errorf("cooldown %v: %d requests, %v", cooldown, again, err)
		case cooldown == 0 && again == 0:
			t.Errorf("no cooldown: the second call did not ask")
		}
	}
}

// TestUnavailableNoteHasNoKey: what the provenance says of a failed
// endpoint never holds the API key.
func TestUnavailableNoteHasNoKey(t *testing.T) {
	const key = "sk-flowcabal-test-secret-42"
	ctx := context.Background()
	srv := llmtest.New(t, llmtest.Script{Replies: []llmtest.Reply{{Match: &llmtest.Match{Endpoint: "embeddings"}, Times: -1, Fault: llmtest.Fault401}}})
	c, err := llm.New(llm.Config{Name: llm.Embedding, BaseURL: srv.URL, Model: embedModel, APIKey: llm.NewSecret(key)}, llm.Options{Retry: llm.RetryPolicy{MaxRetries: -1}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	snap, _ := newBuilder().Build(semanticInput())
	e := &Embedding{Model: embedModel, Embedder: c}
	vecs, rep := e.EmbedChapters(ctx, snap)
	ctxt := must(Assemble(semanticNode, snap, Options{Semantic: e.Semantic(ctx, vecs, semanticNode)}))
	out := string(mustJSON(t, ctxt)) + fmt.Sprint(rep.Err)
	if rep.Err == nil || len(ctxt.Notes) != 1 || strings.Contains(out, key) {
		t.Errorf("err %v, notes %q", rep.Err, ctxt.Notes)
	}
	if r := srv.Requests(); len(r) == 0 || r[0].Header.Get("Authorization") != "Bearer "+key {
		t.Error("the key was not sent: the test shows nothing")
	}
}

// countingCache counts the hashes asked of a real cache.
type countingCache struct {
	VectorCache
	asked int
}

func (c *countingCache) TextVectors(ctx context.Context, model string, hashes []string) (map[string][]float32, error) {
	c.asked += len(hashes)
	return c.VectorCache.TextVectors(ctx, model, hashes)
}

// TestEmbedChaptersReuse: the next snapshot of a project reads from the
// cache only the passages that changed.
func TestEmbedChaptersReuse(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.New(t, llmtest.Script{Dimensions: 16})
	cc := &countingCache{VectorCache: openTestStore(t)}
	e := &Embedding{Model: embedModel, Embedder: embedClient(t, srv.URL), Cache: cc}
	in := semanticInput()
	snap, _ := newBuilder().Build(in)
	_, rep := e.EmbedChapters(ctx, snap)
	if cc.asked != rep.Texts {
		t.Fatalf("first: %d asked of %d", cc.asked, rep.Texts)
	}
	in.Chapters[7].Text += "One more paragraph.\n"
	snap2, _ := newBuilder().Build(in)
	cc.asked = 0
	v, rep2 := e.EmbedChapters(ctx, snap2)
	if cc.asked != 1 || rep2.Embedded != 1 || v.Missing != 0 {
		t.Errorf("after one new paragraph: %d asked of the cache, report %+v", cc.asked, rep2)
	}
	// Another model shares nothing.
	e.Model = "other"
	cc.asked = 0
	if _, rep3 := e.EmbedChapters(ctx, snap2); cc.asked != rep3.Texts || rep3.Embedded != rep3.Texts {
		t.Errorf("another model: %d asked, %+v", cc.asked, rep3)
	}
}

// TestCachedSemantic: the live preview's semantic input makes no call; it
// uses the prompt's vector once a run has embedded it.
func TestCachedSemantic(t *testing.T) {
	ctx := context.Background()
	snap, e, srv := semanticSetup(t, llmtest.Script{Dimensions: 64, Synonyms: paraphrase})
	vecs, _ := e.EmbedChapters(ctx, snap)
	n := len(embedRequests(srv))
	pre := e.CachedSemantic(ctx, vecs, semanticNode)
	if len(embedRequests(srv)) != n || !strings.Contains(pre.Unavailable, "not embedded yet") {
		t.Errorf("preview before a run: %d calls, unavailable %q", len(embedRequests(srv))-n, pre.Unavailable)
	}
	run := e.Semantic(ctx, vecs, semanticNode)
	post := e.CachedSemantic(ctx, vecs, semanticNode)
	if post.Unavailable != "" || !slices.Equal(post.Query, run.Query) || len(embedRequests(srv)) != n+1 {
		t.Errorf("preview after a run: %q, %d calls", post.Unavailable, len(embedRequests(srv))-n)
	}
	a := mustJSON(t, must(Assemble(semanticNode, snap, Options{Semantic: run})))
	b := mustJSON(t, must(Assemble(semanticNode, snap, Options{Semantic: post})))
	if !bytes.Equal(a, b) {
		t.Error("the preview differs from the run")
	}
}

// TestEmbedConcurrentAndBounded: calls in flight at once give the same
// vectors as one at a time; a bound on calls leaves the rest for later.
func TestEmbedConcurrentAndBounded(t *testing.T) {
	ctx := context.Background()
	srv := llmtest.New(t, llmtest.Script{Dimensions: 24, Latency: llmtest.Duration(5 * time.Millisecond)})
	snap, _ := newBuilder().Build(semanticInput())
	one := &Embedding{Model: embedModel, Embedder: embedClient(t, srv.URL), Batch: 3}
	many := &Embedding{Model: embedModel, Embedder: embedClient(t, srv.URL), Batch: 3, Concurrency: 4}
	v1, r1 := one.EmbedChapters(ctx, snap)
	v4, r4 := many.EmbedChapters(ctx, snap)
	if r1.Err != nil || r4.Err != nil || r1.Calls != r4.Calls || r4.Embedded != r4.Texts {
		t.Fatalf("one at a time %+v, four %+v", r1, r4)
	}
	sem1 := &Semantic{Vectors: v1, Query: llmtest.Embed(QueryText(semanticNode), 24)}
	sem4 := &Semantic{Vectors: v4, Query: llmtest.Embed(QueryText(semanticNode), 24)}
	if !bytes.Equal(mustJSON(t, must(Assemble(semanticNode, snap, Options{Semantic: sem1}))), mustJSON(t, must(Assemble(semanticNode, snap, Options{Semantic: sem4})))) {
		t.Error("vectors embedded concurrently assemble differently")
	}
	bounded := &Embedding{Model: embedModel, Embedder: embedClient(t, srv.URL), Batch: 3, Concurrency: 2, MaxCalls: 2, Cache: &MemVectors{}}
	v, r := bounded.EmbedChapters(ctx, snap)
	if r.Calls != 2 || r.Embedded != 6 || r.Err == nil || !strings.Contains(r.Err.Error(), "the bound") || v.Missing != v.Passages-6 {
		t.Errorf("bounded: %+v, %d of %d missing", r, v.Missing, v.Passages)
	}
	// The next call goes on where the bound stopped.
	if _, r := bounded.EmbedChapters(ctx, snap); r.Cached != 6 || r.Embedded != 6 {
		t.Errorf("after the bound: %+v", r)
	}
}

// TestArcFirstKeepsTheBestChapters: in a work scanned arc-first, the
// chapter the search of the whole book ranks first is searched although
// its arc is not among the best: the arcs after it say the prompt's words
// more often, each in other chapters, and outrank it as thirty-chapter
// texts.
func TestArcFirstKeepsTheBestChapters(t *testing.T) {
	var in Input
	for n := 1; n <= arcFirstAbove+10; n++ {
		w := func(k int) string { return fillerWords[(n*k)%len(fillerWords)] }
		text := fmt.Sprintf("%s %s %s went to the %s.\n\n", w(1), w(3), w(7), w(11))
		switch {
		case n == 5:
			text += "A lantern by the harbour.\n\n"
		case n > ArcSpan && n <= 7*ArcSpan && n%2 == 0:
			text += "A lantern, lantern, lantern.\n\n"
		case n > ArcSpan && n <= 7*ArcSpan:
			text += "A harbour, harbour, harbour.\n\n"
		}
		in.Chapters = append(in.Chapters, ChapterDoc{Number: n, Path: fmt.Sprintf("manuscript/chapter-%03d/content.md", n), Text: text})
	}
	snap, err := newBuilder().Build(in)
	if err != nil {
		t.Fatal(err)
	}
	const ch5 = "manuscript/chapter-005/content.md"
	hs := snap.SearchArcs(map[string]float64{"lantern": 1, "harbour": 1}, arcsScanned)
	for _, h := range hs {
		if strings.HasSuffix(h.ID, "arc-1.md") {
			t.Fatalf("the arcs ranked are %v: the test needs arc 1 left out", hs)
		}
	}
	if len(hs) == 0 {
		t.Fatal("no arc ranked")
	}
	node := Node{ID: "n", Text: "The lantern by the harbour.", Chapter: arcFirstAbove + 11, Budget: 1500}
	if len(chapterSources(must(Assemble(node, snap, Options{})), ch5)) == 0 {
		t.Error("chapter 5, which alone holds both words of the prompt, is not in the context")
	}
}
