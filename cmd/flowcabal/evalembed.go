package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/flowcabal/flowcabal/agent/assemble"
	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/project"
)

// evalSemantic gives the context evaluation's assemblies their vectors:
// each query's snapshot (chapters 1..W-1) is embedded through one cache
// in memory, so a passage is embedded once for the whole run. Once the
// endpoint fails, the rest of the run is lexical: a dead endpoint costs
// one round of retries, not one per query.
type evalSemantic struct {
	emb    *assemble.Embedding
	total  assemble.EmbedReport
	failed error
	used   int // queries assembled with embeddings
}

func newEvalSemantic(env *cliEnv, dir string) (*evalSemantic, func(), error) {
	root, err := projectRoot(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("--embeddings: find the project: %w", err)
	}
	cfg, err := project.LoadConfig(root)
	if err != nil {
		return nil, nil, fmt.Errorf("--embeddings: %w", err)
	}
	emb, done, err := projectEmbedding(cfg, env, &assemble.MemVectors{}, nil)
	if err != nil {
		return nil, nil, fmt.Errorf("--embeddings: %w", err)
	}
	if emb == nil {
		return nil, nil, errors.New("--embeddings: " + root + "/" + project.ConfigFile + " configures no [models.embedding] (base_url and model)")
	}
	return &evalSemantic{emb: emb}, done, nil
}

// semantic returns the similarity input of node over snap.
func (e *evalSemantic) semantic(ctx context.Context, snap assemble.Snapshot, node assemble.Node) *assemble.Semantic {
	if e.failed != nil {
		return &assemble.Semantic{Unavailable: e.failed.Error()}
	}
	vecs, rep := e.emb.EmbedChapters(ctx, snap)
	e.total.Embedded += rep.Embedded
	e.total.Calls += rep.Calls
	e.total.Texts = max(e.total.Texts, rep.Texts)
	if rep.Err != nil {
		e.failed = rep.Err
	}
	s := e.emb.Semantic(ctx, vecs, node)
	if s.Unavailable == "" {
		e.used++
	} else if e.failed == nil && s.Query == nil && vecs.Dims > 0 {
		e.failed = errors.New(s.Unavailable)
	}
	return s
}

func (e *evalSemantic) print(w io.Writer) {
	fmt.Fprintf(w, "embeddings: %s, %d passages embedded in %d calls, used for %d queries", e.emb.Model, e.total.Embedded, e.total.Calls, e.used)
	if e.failed != nil {
		fmt.Fprintf(w, "; unavailable after that: %s", oneLine(e.failed.Error()))
	}
	fmt.Fprintln(w)
}

// evalRefiner has the agent model read each query, its answers cached
// in memory for the run. Once the model fails, the rest of the run uses
// the deterministic analysis alone.
type evalRefiner struct {
	r      *assemble.Refiner
	read   int
	failed string
}

func newEvalRefiner(env *cliEnv, dir string) (*evalRefiner, func(), error) {
	root, err := projectRoot(dir)
	if err != nil {
		return nil, nil, fmt.Errorf("--refine: find the project: %w", err)
	}
	cfg, err := project.LoadConfig(root)
	if err != nil {
		return nil, nil, fmt.Errorf("--refine: %w", err)
	}
	m, ok := cfg.Models[llm.Agent]
	if !ok || !m.Configured() {
		return nil, nil, errors.New("--refine: " + root + "/" + project.ConfigFile + " configures no [models.agent] (base_url and model)")
	}
	c, err := llm.New(llm.FromProject(cfg, llm.Agent), llm.Options{Getenv: env.getenv, Retry: llm.RetryPolicy{MaxRetries: 2, BaseDelay: 500 * time.Millisecond}})
	if err != nil {
		return nil, nil, fmt.Errorf("--refine: %w", err)
	}
	return &evalRefiner{r: &assemble.Refiner{Model: m.Model, Chat: c, Cache: &assemble.MemAnswers{}}}, c.Close, nil
}

func (e *evalRefiner) refinement(ctx context.Context, snap assemble.Snapshot, node assemble.Node) *assemble.Refinement {
	if e.failed != "" {
		return &assemble.Refinement{Model: e.r.Model, Unavailable: e.failed}
	}
	ref := e.r.Refine(ctx, node, snap)
	if ref.Unavailable != "" {
		e.failed = ref.Unavailable
	} else {
		e.read++
	}
	return ref
}

func (e *evalRefiner) print(w io.Writer) {
	fmt.Fprintf(w, "refinement: %s read %d queries", e.r.Model, e.read)
	if e.failed != "" {
		fmt.Fprintf(w, "; unavailable after that: %s", oneLine(e.failed))
	}
	fmt.Fprintln(w)
}
