package runner

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/flowcabal/flowcabal/agent/assemble"
	"github.com/flowcabal/flowcabal/agent/factcheck"
	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/summarize"
	"github.com/flowcabal/flowcabal/textsearch"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// ProjectOptions tune ForProject.
type ProjectOptions struct {
	// Getenv reads API keys' variables; nil means the process environment.
	Getenv func(string) string
	// Overrides are the editor's model settings, merged field by field
	// over flowcabal.toml.
	Overrides map[string]project.Model
	// APIKey, when set, is used for every model instead of the variables
	// flowcabal.toml names (the editor's secret storage).
	APIKey string
	// Retry overrides the client's retry policy (tests shorten it).
	Retry llm.RetryPolicy
	// Concurrency bounds the nodes running at once; 0 takes
	// flowcabal.toml's, else DefaultConcurrency.
	Concurrency int
	Log         *slog.Logger
	// Env checks used sub-workflows (the environment the caller checked
	// the workflow with).
	Env workflowlang.Env
	// Gate replaces the deterministic fact-check gate (Role C's monitor,
	// which adds the agent model's angles, plugs in here).
	Gate Gate
	// Offline wires the runner without calling any model (an estimate):
	// the passages are not embedded now, so Role A searches lexically
	// unless Known brings vectors.
	Offline bool
	// History, when set, replaces the store as the runner's history, and
	// Knowledge as its knowledge levels (an estimate on a project with no
	// store yet: NoHistory, FileKnowledge).
	History   History
	Knowledge Knowledge
	// Known, when set, is what the caller already derived from the
	// project's files (a session keeps it between runs); else ForProject
	// reads the files. Its embeddings are then the caller's too.
	Known *Known
}

// Known is what Role A and Role C derive from a project's files.
type Known struct {
	Snapshot assemble.Snapshot
	Facts    *factcheck.Knowledge // nil: the gate checks nothing
	Project  *knowledge.Project   // nil: no previous chapter for continuity
	// Embedding and Vectors are Role A's embeddings (see [RoleA]); nil
	// leaves the search lexical.
	Embedding *assemble.Embedding
	Vectors   *assemble.Vectors
	// Contexts, when set, keeps Role A's contexts for estimates (see
	// [RoleA]); it must be bound to Snapshot and Vectors.
	Contexts ContextMemo
}

// runEmbedCalls bounds the embedding calls made when a run starts on a
// project whose manuscript is not embedded yet: the rest is embedded by
// the next runs (or at once by flowcabal index), and until then those
// passages rank lexically.
const runEmbedCalls = 8

// Embedding returns Role A's embedding for the project's configured
// embedding model (editor overrides and key included), or nil when none
// is configured or its client cannot be made (logged): embeddings are an
// aid, never a reason for a run to fail. Vectors are cached in st.
func Embedding(cfg *project.Config, st *store.Store, o ProjectOptions) *assemble.Embedding {
	m, ok := cfg.Models[llm.Embedding]
	if om, over := o.Overrides[llm.Embedding]; over {
		m, ok = mergeModel(m, om), true
	}
	if !ok || !m.Configured() {
		return nil
	}
	c := llm.Config{Name: llm.Embedding}.Merge(m)
	if o.APIKey != "" {
		c.APIKey = llm.NewSecret(o.APIKey)
	}
	// A dead endpoint should cost a second or two of retries before the
	// work goes on lexically, not the default's fourteen.
	retry := llm.RetryPolicy{MaxRetries: 2, BaseDelay: 500 * time.Millisecond}
	lo := llm.Options{Getenv: o.Getenv, Retry: retry, Logger: o.Log}
	if st != nil {
		lo.Recorder = LogRecorder{Store: st}
	}
	client, err := llm.New(c, lo)
	if err != nil {
		if o.Log != nil {
			o.Log.Warn("Role A: embeddings off", "err", err)
		}
		return nil
	}
	e := &assemble.Embedding{Model: m.Model, Embedder: client, Cooldown: time.Minute, Concurrency: 4}
	if st != nil {
		e.Cache = st
	}
	return e
}

// ForProject wires a Runner for a project: the configured models through
// the LLM client (usage in the agent log), Role A over a snapshot of the
// project's files, the fact-check gate, and knowledge levels from the
// store. The snapshot is taken now: call again after the knowledge
// changes.
func ForProject(ctx context.Context, root string, cfg *project.Config, st *store.Store, o ProjectOptions) (*Runner, error) {
	folder := textsearch.NewFolder()
	an := textsearch.NewAnalyzer(folder)
	tc := textsearch.NewCounter(cfg.Models["writer"].Model)
	known := o.Known
	if known == nil {
		kp, errs := knowledge.LoadProject(root)
		if kp == nil {
			return nil, fmt.Errorf("read the project's knowledge: %v", errs)
		}
		snap, err := assemble.NewBuilder(an, tc).Build(assemble.InputFromProject(kp))
		if err != nil {
			return nil, fmt.Errorf("read the project's knowledge: %w", err)
		}
		known = &Known{Snapshot: snap, Project: kp, Facts: factcheck.FromProject(kp, folder)}
		if e := Embedding(cfg, st, o); e != nil && !o.Offline {
			e.MaxCalls = runEmbedCalls
			vecs, rep := e.EmbedChapters(ctx, snap)
			if rep.Err != nil && o.Log != nil {
				o.Log.Warn("Role A: some passages have no vectors yet", "err", rep.Err)
			}
			known.Embedding, known.Vectors = e, vecs
		}
	}
	kp, fk := known.Project, known.Facts
	models := map[string]project.Model{}
	for name, m := range cfg.Models {
		models[name] = m
	}
	for name, m := range o.Overrides {
		models[name] = mergeModel(models[name], m)
	}
	var recorder llm.Recorder
	if st != nil {
		recorder = LogRecorder{Store: st}
	}
	clients := &Clients{
		Config: func(name string) (llm.Config, error) {
			m, ok := models[name]
			if !ok || !m.Configured() {
				return llm.Config{}, fmt.Errorf("model %q is not configured: add [models.%s] with base_url, model and api_key_env to %s", name, name, project.ConfigFile)
			}
			c := llm.Config{Name: name}.Merge(m)
			if o.APIKey != "" {
				c.APIKey = llm.NewSecret(o.APIKey)
			}
			return c, nil
		},
		Options: llm.Options{Getenv: o.Getenv, Retry: o.Retry, Recorder: recorder, Logger: o.Log},
	}
	conc := o.Concurrency
	if conc <= 0 {
		conc = cfg.Concurrency
	}
	shares := assemble.Shares{Meta: cfg.Shares["meta"], Entities: cfg.Shares["entities"],
		Manuscript: cfg.Shares["manuscript"], Summaries: cfg.Shares["summaries"]}
	previous := func(ch int) string {
		if kp == nil {
			return ""
		}
		if d := kp.Chapter(ch); d != nil {
			return d.Body
		}
		return ""
	}
	roleA := RoleA{Snapshot: known.Snapshot, Options: assemble.Options{Budget: cfg.Budget, Shares: shares, ThreadWindow: cfg.ThreadWindow},
		Embedding: known.Embedding, Vectors: known.Vectors, Contexts: known.Contexts}
	if cfg.RefineIntent {
		if ac, err := clients.Config(llm.Agent); err == nil {
			if chat, err := clients.client(llm.Agent); err == nil {
				roleA.Refiner = &assemble.Refiner{Model: ac.Model, Chat: chat, Cooldown: time.Minute}
				if st != nil {
					roleA.Refiner.Cache = st
				}
			} else if o.Log != nil {
				o.Log.Warn("Role A: no intent refinement", "err", err)
			}
		}
	}
	var gate Gate = FactGate{Knowledge: fk, Previous: previous}
	if o.Gate != nil {
		gate = o.Gate
	}
	var history History = st
	if o.History != nil {
		history = o.History
	}
	var kn Knowledge = StoreKnowledge{Store: st, Summarizer: summarize.New(an, tc)}
	if o.Knowledge != nil {
		kn = o.Knowledge
	}
	return New(Config{
		Root:        root,
		Model:       clients,
		History:     history,
		Assembler:   roleA,
		Knowledge:   kn,
		Gate:        gate,
		Params:      ParamsFromConfig(models),
		ModelParams: func(name string) (Params, error) { return modelParams(models, name) },
		Env:         o.Env,
		Concurrency: conc,
		Log:         o.Log,
		Price:       cfg.PriceOf,
		MaxCost:     cfg.MaxCost,
	}), nil
}

// mergeModel lays the fields o sets over m.
func mergeModel(m, o project.Model) project.Model {
	if o.BaseURL != "" {
		m.BaseURL = o.BaseURL
	}
	if o.Model != "" {
		m.Model = o.Model
	}
	if o.APIKeyEnv != "" {
		m.APIKeyEnv = o.APIKeyEnv
	}
	if o.Temperature != nil {
		m.Temperature = o.Temperature
	}
	if o.MaxTokens != 0 {
		m.MaxTokens = o.MaxTokens
	}
	if o.TimeoutSeconds != 0 {
		m.TimeoutSeconds = o.TimeoutSeconds
	}
	return m
}
