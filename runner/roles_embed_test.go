package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/assemble"
	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/textsearch"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// TestRoleAEmbeddings: the adapter embeds the node's prompt and passes the
// vectors to Role A; when the endpoint is down the node still gets its
// lexical context, and the provenance says why.
func TestRoleAEmbeddings(t *testing.T) {
	ctx := context.Background()
	words := strings.Fields("carriage road town officers dined ball music candles supper card table militia regiment horses stable garden")
	var in assemble.Input
	for n := 1; n <= 12; n++ {
		var b strings.Builder
		for p := 0; p < 5; p++ {
			for i := 0; i < 40; i++ {
				b.WriteString(words[(n*7+p*13+i*5)%len(words)] + " ")
			}
			b.WriteString(".\n\n")
			if n == 4 && p == 1 {
				b.WriteString("Her sorrow was very great, and there were tears at the parting from dear Jane.\n\n")
			}
		}
		in.Chapters = append(in.Chapters, assemble.ChapterDoc{Number: n, Path: fmt.Sprintf("manuscript/chapter-%02d/content.md", n), Text: b.String()})
	}
	snap, err := assemble.NewBuilder(textsearch.NewAnalyzer(textsearch.NewFolder()), textsearch.NewCounter("")).Build(in)
	if err != nil {
		t.Fatal(err)
	}
	src := "node write {\n  budget = 1500\n  user \"\"\"Recall the grief and weeping of the farewell to her beloved sister.\"\"\"\n}\n"
	wf := workflowlang.Check(workflowlang.Parse("w.flow", []byte(src)), workflowlang.Env{})
	node := wf.File.Node("write")
	if node == nil {
		t.Fatal("no node")
	}
	srv := llmtest.New(t, llmtest.Script{Dimensions: 128, Synonyms: map[string]string{
		"grief": "sorrow", "weeping": "tears", "farewell": "parting", "beloved": "dear", "sister": "jane"}})
	client := func(url string) *llm.Client {
		c, err := llm.New(llm.Config{Name: llm.Embedding, BaseURL: url, Model: "e"}, llm.Options{Retry: llm.RetryPolicy{MaxRetries: -1}})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(c.Close)
		return c
	}
	emb := &assemble.Embedding{Model: "e", Embedder: client(srv.URL), Cache: &assemble.MemVectors{}}
	vecs, rep := emb.EmbedChapters(ctx, snap)
	if rep.Err != nil {
		t.Fatal(rep.Err)
	}
	prov := func(a RoleA) assemble.Context {
		inj, err := a.Assemble(ctx, wf, node, nil)
		if err != nil {
			t.Fatal(err)
		}
		var c assemble.Context
		if err := json.Unmarshal(inj.Provenance, &c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	lexical := prov(RoleA{Snapshot: snap})
	c := prov(RoleA{Snapshot: snap, Embedding: emb, Vectors: vecs})
	found := false
	for _, s := range c.Sources {
		if s.Path == "manuscript/chapter-04/content.md" && strings.Contains(s.Reason, "similar in meaning to the prompt") {
			found = true
		}
	}
	if !found || len(c.Notes) != 1 || !strings.HasPrefix(c.Notes[0], "embeddings: e,") || c.Hash == lexical.Hash {
		t.Errorf("with embeddings: chapter 4 by meaning %v, notes %q; sources %+v", found, c.Notes, c.Sources)
	}

	l, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := "http://" + l.Addr().String() + "/v1"
	l.Close()
	down := &assemble.Embedding{Model: "e", Embedder: client(dead), Cache: &assemble.MemVectors{}}
	start := time.Now()
	c = prov(RoleA{Snapshot: snap, Embedding: down, Vectors: vecs})
	if c.Hash != lexical.Hash || len(c.Notes) != 1 || !strings.Contains(c.Notes[0], "embeddings unavailable") {
		t.Errorf("dead endpoint: notes %q, same as lexical %v", c.Notes, c.Hash == lexical.Hash)
	}
	t.Logf("dead endpoint cost %v", time.Since(start))
}

// TestRoleARefiner: the adapter asks the agent model to read the prompt
// and passes its reading to Role A.
func TestRoleARefiner(t *testing.T) {
	ctx := context.Background()
	var in assemble.Input
	in.Chapters = []assemble.ChapterDoc{{Number: 1, Path: "manuscript/chapter-01/content.md", Text: "The ball at Meryton.\n"}}
	for _, p := range []string{"charlotte", "jane"} {
		in.Entities = append(in.Entities, &knowledge.Entity{Path: "entities/characters/" + p + ".md", Resource: "entities/characters/" + p,
			Name: strings.ToUpper(p[:1]) + p[1:], Kind: "character", Description: "A character."})
	}
	snap, err := assemble.NewBuilder(textsearch.NewAnalyzer(textsearch.NewFolder()), textsearch.NewCounter("")).Build(in)
	if err != nil {
		t.Fatal(err)
	}
	src := "node write {\n  user \"\"\"Write the morning the news of an engagement comes.\"\"\"\n}\n"
	wf := workflowlang.Check(workflowlang.Parse("w.flow", []byte(src)), workflowlang.Env{})
	yes := true
	srv := llmtest.New(t, llmtest.Script{Replies: []llmtest.Reply{{Match: &llmtest.Match{Schema: &yes},
		JSON: json.RawMessage(`{"entities": ["Charlotte"], "threads": [], "locations": []}`), Times: -1}}})
	c, err := llm.New(llm.Config{Name: llm.Agent, BaseURL: srv.URL, Model: "a"}, llm.Options{Retry: llm.RetryPolicy{MaxRetries: -1}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	ra := RoleA{Snapshot: snap, Refiner: &assemble.Refiner{Model: "a", Chat: c, Cache: &assemble.MemAnswers{}}}
	var hashes []string
	for i := 0; i < 2; i++ {
		inj, err := ra.Assemble(ctx, wf, wf.File.Node("write"), nil)
		if err != nil {
			t.Fatal(err)
		}
		var got assemble.Context
		json.Unmarshal(inj.Provenance, &got)
		ok := false
		for _, s := range got.Sources {
			ok = ok || (s.Path == "entities/characters/charlotte.md" && strings.Contains(s.Reason, "named by the model's reading of the prompt"))
		}
		if !ok {
			t.Errorf("Charlotte not injected by the model's reading: %+v", got.Sources)
		}
		hashes = append(hashes, inj.Hash)
	}
	if hashes[0] != hashes[1] || len(srv.Requests()) != 1 {
		t.Errorf("second assembly: hash equal %v, %d requests (want 1: cached)", hashes[0] == hashes[1], len(srv.Requests()))
	}
}
