package runner

import (
	"fmt"
	"log/slog"

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
}

// ForProject wires a Runner for a project: the configured models through
// the LLM client (usage in the agent log), Role A over a snapshot of the
// project's files, the fact-check gate, and knowledge levels from the
// store. The snapshot is taken now: call again after the knowledge
// changes.
func ForProject(root string, cfg *project.Config, st *store.Store, o ProjectOptions) (*Runner, error) {
	folder := textsearch.NewFolder()
	an := textsearch.NewAnalyzer(folder)
	tc := textsearch.NewCounter(cfg.Models["writer"].Model)
	snap, errs := assemble.NewBuilder(an, tc).LoadProject(root)
	if snap == nil {
		return nil, fmt.Errorf("read the project's knowledge: %v", errs)
	}
	kp, _ := knowledge.LoadProject(root)
	var fk *factcheck.Knowledge
	if kp != nil {
		fk = factcheck.FromProject(kp, folder)
	}
	models := map[string]project.Model{}
	for name, m := range cfg.Models {
		models[name] = m
	}
	for name, m := range o.Overrides {
		models[name] = mergeModel(models[name], m)
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
		Options: llm.Options{Getenv: o.Getenv, Retry: o.Retry, Recorder: LogRecorder{Store: st}, Logger: o.Log},
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
	var gate Gate = FactGate{Knowledge: fk, Previous: previous}
	if o.Gate != nil {
		gate = o.Gate
	}
	return New(Config{
		Root:        root,
		Model:       clients,
		History:     st,
		Assembler:   RoleA{Snapshot: snap, Options: assemble.Options{Budget: cfg.Budget, Shares: shares}},
		Knowledge:   StoreKnowledge{Store: st, Summarizer: summarize.New(an, tc)},
		Gate:        gate,
		Params:      ParamsFromConfig(models),
		ModelParams: func(name string) (Params, error) { return modelParams(models, name) },
		Env:         o.Env,
		Concurrency: conc,
		Log:         o.Log,
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
