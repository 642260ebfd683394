package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/BurntSushi/toml"
)

// Config is flowcabal.toml. Every field has a working default, so a project
// without the file is valid.
type Config struct {
	// Models maps a configuration name ("writer", "agent", "embedding",
	// or one the author adds) to its endpoint.
	Models map[string]Model `toml:"models"`

	// Budget is the project's default Role A token budget per node.
	Budget int `toml:"budget"`

	// Shares tunes how Role A splits the budget across categories; values
	// are fractions that need not sum to 1 (they are normalised).
	Shares map[string]float64 `toml:"shares"`

	// Arcs sets a fixed span of chapters per arc when summaries/arc-N.md
	// files do not say; 0 means the default.
	ArcSpan int `toml:"arc_span"`

	// Concurrency caps the nodes a run executes at once; 0 means the default.
	Concurrency int `toml:"concurrency"`

	// RefineIntent has the agent model read each node's prompt before
	// Role A assembles its context, for what names alone miss (one call
	// per new prompt, its answer cached so that the context stays
	// deterministic). Off by default: it costs a call per node.
	RefineIntent bool `toml:"refine_intent"`

	// ThreadWindow is how many chapters ahead of its due chapter an open
	// plot thread is injected into a chapter's context and listed as due
	// soon; 0 means the default (knowledge.DefaultThreadWindow, 5).
	ThreadWindow int `toml:"thread_window"`

	// Prices maps a model configuration name ("writer", "agent",
	// "embedding") or an endpoint's model id to what it costs; none set
	// means costs are reported in tokens only.
	Prices map[string]Price `toml:"prices"`

	// MaxCost stops a run before a model call whose estimated cost would
	// take the run past it (in the prices' currency); 0 means no limit. A
	// workflow's max_cost overrides it.
	MaxCost float64 `toml:"max_cost"`
}

// Price is what a model charges, per million tokens.
type Price struct {
	Input  float64 `toml:"input" json:"input"`
	Output float64 `toml:"output" json:"output"`
}

// Cost is the price of a call of in prompt and out completion tokens.
func (p Price) Cost(in, out int) float64 {
	return (float64(in)*p.Input + float64(out)*p.Output) / 1e6
}

// PriceOf returns the price of a call made through the model
// configuration called name to the endpoint's model id: the
// configuration's own [prices.<name>] first, then one for the model id,
// then that of any configuration that names the same model id. ok is
// false when no price applies: the call is counted in tokens only.
func (c *Config) PriceOf(name, model string) (p Price, ok bool) {
	if c == nil || len(c.Prices) == 0 {
		return Price{}, false
	}
	if p, ok := c.Prices[name]; ok && name != "" {
		return p, true
	}
	if p, ok := c.Prices[model]; ok && model != "" {
		return p, true
	}
	if model == "" {
		return Price{}, false
	}
	// Agent logs name the model id the endpoint reported, not the
	// configuration: find the configuration that asks for it.
	var names []string
	for n, m := range c.Models {
		if m.Model == model || strings.HasPrefix(model, m.Model+"-") {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		if p, ok := c.Prices[n]; ok {
			return p, true
		}
	}
	return Price{}, false
}

// Model is one OpenAI-compatible endpoint. The key itself is never here:
// APIKeyEnv names the environment variable that holds it.
type Model struct {
	BaseURL     string   `toml:"base_url" json:"base_url"`
	Model       string   `toml:"model" json:"model"`
	APIKeyEnv   string   `toml:"api_key_env" json:"api_key_env"`
	Temperature *float64 `toml:"temperature" json:"temperature,omitempty"`
	MaxTokens   int      `toml:"max_tokens" json:"max_tokens,omitempty"`
	// Tokenizer names the tokenizer family for budgets ("cl100k_base",
	// "o200k_base"); empty picks one from the model name.
	Tokenizer string `toml:"tokenizer" json:"tokenizer,omitempty"`
	// TimeoutSeconds bounds one request; 0 means the default.
	TimeoutSeconds int `toml:"timeout_seconds" json:"timeout_seconds,omitempty"`
}

// Configured reports whether the model names an endpoint.
func (m Model) Configured() bool { return m.BaseURL != "" && m.Model != "" }

// DefaultBudget is the Role A budget when nothing sets one.
const DefaultBudget = 24000

// EditorKeyEnv is the variable the editor extensions set, in the server's
// environment, to the key the author keeps in the editor's secret storage.
// A model whose own variable is unnamed or unset sends this key, so every
// record of the project must be kept clean of it as well.
const EditorKeyEnv = "FLOWCABAL_API_KEY"

// LoadConfig reads root/flowcabal.toml. A missing file gives the defaults;
// a malformed one is an error naming the file and the line.
func LoadConfig(root string) (*Config, error) {
	c := &Config{}
	p := filepath.Join(root, ConfigFile)
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		c.fill()
		return c, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", p, err)
	}
	if _, err := toml.Decode(string(data), c); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if err := c.checkPrices(); err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	c.fill()
	return c, nil
}

func (c *Config) fill() {
	if c.Models == nil {
		c.Models = map[string]Model{}
	}
	if c.Budget <= 0 {
		c.Budget = DefaultBudget
	}
}

// checkPrices refuses what would make every cost figure wrong.
func (c *Config) checkPrices() error {
	names := make([]string, 0, len(c.Prices))
	for n := range c.Prices {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if p := c.Prices[n]; p.Input < 0 || p.Output < 0 {
			return fmt.Errorf("prices.%s: a price cannot be negative", n)
		}
	}
	if c.MaxCost < 0 {
		return fmt.Errorf("max_cost cannot be negative (0 means no limit)")
	}
	return nil
}
