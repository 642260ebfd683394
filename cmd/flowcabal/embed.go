package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/flowcabal/flowcabal/agent/assemble"
	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/runner"
	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/textsearch"
)

// embedConcurrency is how many embedding calls the CLI has in flight: a
// first index of a long work sends a few hundred batches.
const embedConcurrency = 4

// projectEmbedding is the project's [models.embedding] as Role A's
// Embedding over cache, or nil when the project configures none. The
// returned close releases the client.
func projectEmbedding(cfg *project.Config, env *cliEnv, cache assemble.VectorCache, rec llm.Recorder) (*assemble.Embedding, func(), error) {
	if cfg == nil {
		return nil, func() {}, nil
	}
	m, ok := cfg.Models[llm.Embedding]
	if !ok || !m.Configured() {
		return nil, func() {}, nil
	}
	// Embeddings are an aid: a dead endpoint should cost a second or two
	// of retries before the work goes on lexically, not the default's 14.
	retry := llm.RetryPolicy{MaxRetries: 2, BaseDelay: 500 * time.Millisecond}
	c, err := llm.New(llm.FromProject(cfg, llm.Embedding), llm.Options{Getenv: env.getenv, Recorder: rec, Retry: retry})
	if err != nil {
		return nil, func() {}, err
	}
	return &assemble.Embedding{Model: m.Model, Embedder: c, Cache: cache, Concurrency: embedConcurrency}, c.Close, nil
}

// embedSummary is what index reports of the embeddings.
type embedSummary struct {
	Model    string `json:"model"`
	Texts    int    `json:"passages"`
	Cached   int    `json:"cached"`
	Embedded int    `json:"embedded"`
	Calls    int    `json:"calls"`
	Error    string `json:"error,omitempty"`
}

func summarizeEmbedding(model string, r assemble.EmbedReport) *embedSummary {
	s := &embedSummary{Model: model, Texts: r.Texts, Cached: r.Cached, Embedded: r.Embedded, Calls: r.Calls}
	if r.Err != nil {
		s.Error = r.Err.Error()
	}
	return s
}

func (s *embedSummary) print(w io.Writer) {
	calls := "calls"
	if s.Calls == 1 {
		calls = "call"
	}
	fmt.Fprintf(w, "  embeddings: %d passages (%s): %d cached, %d embedded in %d %s\n", s.Texts, s.Model, s.Cached, s.Embedded, s.Calls, calls)
	if s.Error != "" {
		fmt.Fprintf(w, "  embeddings: incomplete (%d without a vector; Role A searches them lexically): %s\n",
			s.Texts-s.Cached-s.Embedded, oneLine(s.Error))
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// indexEmbeddings embeds the passages of the project at root into its
// store, when the project configures an embedding model (nil otherwise).
func indexEmbeddings(ctx context.Context, env *cliEnv, root string, s *store.Store) (*embedSummary, error) {
	cfg, err := project.LoadConfig(root)
	if err != nil {
		return nil, err
	}
	emb, done, err := projectEmbedding(cfg, env, s, runner.LogRecorder{Store: s})
	if err != nil || emb == nil {
		return nil, err
	}
	defer done()
	snap, errs := newSnapshotBuilder(cfg).LoadProject(root)
	if snap == nil {
		return nil, fmt.Errorf("read the project's knowledge: %v", errs)
	}
	_, rep := emb.EmbedChapters(ctx, snap)
	return summarizeEmbedding(emb.Model, rep), nil
}

// newSnapshotBuilder is Role A's snapshot builder as the other commands
// make it: tokens counted for the writer model.
func newSnapshotBuilder(cfg *project.Config) *assemble.Builder {
	return assemble.NewBuilder(textsearch.NewAnalyzer(textsearch.NewFolder()), textsearch.NewCounter(cfg.Models["writer"].Model))
}
