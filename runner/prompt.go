package runner

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// Message is one chat message of an assembled prompt.
type Message struct {
	Role    string `json:"role"` // "system" or "user"
	Content string `json:"content"`
}

// Injection is Role A's contribution to one execution: it exists only for
// that execution and is never written into the .flow file.
type Injection struct {
	SystemPrefix string
	UserSuffix   string
	// Hash identifies the assembled context (Role A's context hash); it
	// takes part in the cache key so a changed context re-runs the node.
	Hash string
	// Note says why the injection is what it is ("context = off", "Role A
	// not configured"); it goes into the provenance.
	Note string
	// Provenance is Role A's account of the injection (sources, dropped
	// items, tokens), kept with the output it produced.
	Provenance json.RawMessage
}

// Resolver supplies the values of a node's references (layer 3).
type Resolver interface {
	// Output is the output of an upstream node or input of this run.
	Output(name string) (string, bool)
	// Knowledge is a project resource at a level ("L0", "L1", "L2").
	Knowledge(path, level string) (string, error)
	// Used is the output of a node of a used (sub-)workflow.
	Used(alias, node string) (string, error)
}

// Render assembles a node's messages in the three layers: the node's own
// text blocks, Role A's injection around them (system prefix, user
// suffix), and each {{ref}} replaced by its value. A system message is
// produced only when there is system text.
func Render(n *workflowlang.Node, inj Injection, r Resolver) ([]Message, error) {
	var system, user strings.Builder
	if inj.SystemPrefix != "" {
		system.WriteString(inj.SystemPrefix)
	}
	for _, p := range n.Prompts {
		dst := &user
		if p.Role == workflowlang.RoleSystem {
			dst = &system
		}
		if dst.Len() > 0 {
			dst.WriteString("\n\n")
		}
		if err := renderBlocks(dst, p.Blocks, r); err != nil {
			return nil, fmt.Errorf("node %s: %w", n.Name.Name, err)
		}
	}
	if inj.UserSuffix != "" {
		if user.Len() > 0 {
			user.WriteString("\n\n")
		}
		user.WriteString(inj.UserSuffix)
	}
	var msgs []Message
	if system.Len() > 0 {
		msgs = append(msgs, Message{Role: "system", Content: system.String()})
	}
	msgs = append(msgs, Message{Role: "user", Content: user.String()})
	return msgs, nil
}

// RenderBlocks renders a TextBlockList (a prompt, or a `use` argument)
// with its references resolved.
func RenderBlocks(blocks []workflowlang.Block, r Resolver) (string, error) {
	var b strings.Builder
	err := renderBlocks(&b, blocks, r)
	return b.String(), err
}

func renderBlocks(b *strings.Builder, blocks []workflowlang.Block, r Resolver) error {
	for _, blk := range blocks {
		switch x := blk.(type) {
		case *workflowlang.TextBlock:
			b.WriteString(x.Text)
		case *workflowlang.Ref:
			v, err := resolveRef(x, r)
			if err != nil {
				return err
			}
			b.WriteString(v)
		}
	}
	return nil
}

func resolveRef(x *workflowlang.Ref, r Resolver) (string, error) {
	switch x.Kind {
	case workflowlang.RefKnowledge:
		level := x.Level
		if level == "" {
			level = "L2"
		}
		v, err := r.Knowledge(x.Path, level)
		if err != nil {
			return "", fmt.Errorf("{{%s}}: %w", x.Target(), err)
		}
		return v, nil
	case workflowlang.RefUse:
		v, err := r.Used(x.Alias, x.Name)
		if err != nil {
			return "", fmt.Errorf("{{%s}}: %w", x.Target(), err)
		}
		return v, nil
	default:
		v, ok := r.Output(x.Name)
		if !ok {
			return "", fmt.Errorf("{{%s}}: no output yet", x.Name)
		}
		return v, nil
	}
}

// Params are the model parameters of one call, after node, workflow and
// project defaults were applied.
type Params struct {
	ModelName   string   `json:"model_name"` // the configuration: "writer", "agent", …
	Model       string   `json:"model"`      // the endpoint's model id
	BaseURL     string   `json:"base_url"`
	Temperature *float64 `json:"temperature,omitempty"`
	MaxTokens   int      `json:"max_tokens,omitempty"`
	// Variant tells apart calls that must not share a cache entry though
	// their prompts are equal (the candidates of a generation).
	Variant string `json:"variant,omitempty"`
	// Node labels the call in the agent log; it is not part of the key.
	Node string `json:"-"`
}

// CacheKey identifies a call by its final prompt and parameters: two calls
// with the same key would ask the model the same thing, so the second
// reuses the first's output (unless the author asks to run anyway).
func CacheKey(p Params, msgs []Message) string {
	data, _ := json.Marshal(struct {
		P Params    `json:"p"`
		M []Message `json:"m"`
	}{p, msgs}) // cannot fail: plain strings and numbers
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// ParamsFromConfig returns the Config.Params function for a project: the
// node's attributes win over the workflow header's, which win over the
// model configuration in flowcabal.toml.
func ParamsFromConfig(models map[string]project.Model) func(*workflowlang.Result, *workflowlang.Node) (Params, error) {
	return func(wf *workflowlang.Result, n *workflowlang.Node) (Params, error) {
		var header *workflowlang.Workflow
		if wf != nil {
			header = wf.File.Workflow
		}
		pick := func(key string) workflowlang.Value {
			if a := n.Attr(key); a != nil && a.Value != nil {
				return a.Value
			}
			if header != nil {
				if a := header.Attr(key); a != nil && a.Value != nil {
					return a.Value
				}
			}
			return nil
		}
		name := "writer"
		if v := pick("model"); v != nil {
			name = valueText(v)
		}
		p, err := modelParams(models, name)
		if err != nil {
			return p, err
		}
		if v, ok := pick("temperature").(*workflowlang.NumberValue); ok {
			t := v.Value
			p.Temperature = &t
		}
		if v, ok := pick("max_tokens").(*workflowlang.NumberValue); ok && v.IsInt {
			p.MaxTokens = int(v.Value)
		}
		return p, nil
	}
}

// modelParams are the parameters of the model configuration called name.
func modelParams(models map[string]project.Model, name string) (Params, error) {
	p := Params{ModelName: name}
	m, ok := models[name]
	if !ok || !m.Configured() {
		return p, fmt.Errorf("model %q is not configured: add [models.%s] with base_url, model and api_key_env to %s", name, name, project.ConfigFile)
	}
	p.Model, p.BaseURL, p.Temperature, p.MaxTokens = m.Model, m.BaseURL, m.Temperature, m.MaxTokens
	return p, nil
}
