// Package core is the agent loop Roles B and C reason through: observe (a
// task and read-only tools over the project) → reason (the agent model) →
// act (tool calls, then an answer in the role's JSON schema).
//
// A [Manager] runs one loop per project and role at a time and queues the
// rest in order. Each loop may call tools (their arguments checked against
// the tool's JSON schema; an unknown tool or bad arguments go back to the
// model as a tool error), hand tasks to sub-agents with their own
// instructions and tools, and stops when the model answers without a tool
// call, or when the run's budget of steps or tokens is spent. The final
// answer is checked against the agent's schema, with one repair round.
//
// Every model and tool call goes to the store's agent log; the loop's state
// is checkpointed in the store after every step, so a run killed midway is
// resumed from its last step or discarded, never half-applied. Nothing the
// loop can call writes: agents propose, the author accepts.
package core

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// A Tool is a read-only function the model may call.
type Tool struct {
	// Name is what the model calls it: a-z, 0-9 and '_'.
	Name        string
	Description string
	// Parameters is the JSON schema of the arguments object.
	Parameters map[string]any
	// Run does the work. args have been checked against Parameters. The
	// returned text goes back to the model; an error goes back as a tool
	// error, the loop goes on.
	Run func(ctx context.Context, args json.RawMessage) (string, error)
}

// An Agent is one reasoning loop's definition: its instructions, the
// tools it may use, the sub-agents it may hand tasks to, and the schema
// its answer must match.
type Agent struct {
	// Name labels the agent in the log and in progress ("builder",
	// "timeline").
	Name string
	// Instructions are the system prompt.
	Instructions string
	Tools        []Tool
	// SubAgents are offered to the model as tools named "ask_<name>"
	// taking {"task": "…"}; the sub-agent's answer is the tool's result.
	SubAgents []*Agent
	// Schema is the JSON schema of the answer; nil accepts any text.
	Schema map[string]any
	// SchemaName names the schema for the model ("suggestion").
	SchemaName string
	// ResponseFormat also sends Schema as the request's response_format
	// (structured output), for endpoints that enforce it. The schema is in
	// the system prompt and checked here either way.
	ResponseFormat bool
	// Validate, when set, checks an answer that matches Schema further
	// (a patch that must apply, say). Its error goes back to the model in
	// the same single repair round as a schema error.
	Validate func(answer json.RawMessage) error

	prepared *prepared
}

// prepared is an agent with its schemas compiled and tools indexed.
type prepared struct {
	agent  *Agent
	answer *jsonschema.Schema
	tools  map[string]*boundTool
	order  []*boundTool
}

type boundTool struct {
	Tool
	params *jsonschema.Schema
	sub    *prepared // set for a sub-agent hand-off
}

var toolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)

// SubAgentTool is the name under which a sub-agent is offered.
func SubAgentTool(name string) string { return "ask_" + name }

// prepare compiles the agent's schemas, recursively. A definition error
// (a bad schema, a duplicate tool) is the caller's bug and fails the run
// before any model call.
func prepare(a *Agent, depth int) (*prepared, error) {
	if a == nil {
		return nil, errors.New("no agent given")
	}
	if depth > 4 {
		return nil, fmt.Errorf("agent %q: sub-agents nested too deep", a.Name)
	}
	if a.Name == "" {
		return nil, errors.New("agent has no name")
	}
	p := &prepared{agent: a, tools: map[string]*boundTool{}}
	if a.Schema != nil {
		s, err := compile(a.Schema)
		if err != nil {
			return nil, fmt.Errorf("agent %q: answer schema: %w", a.Name, err)
		}
		p.answer = s
	}
	add := func(bt *boundTool) error {
		if !toolName.MatchString(bt.Name) {
			return fmt.Errorf("agent %q: tool name %q: want letters, digits, '_' or '-'", a.Name, bt.Name)
		}
		if _, dup := p.tools[bt.Name]; dup {
			return fmt.Errorf("agent %q: tool %q given twice", a.Name, bt.Name)
		}
		p.tools[bt.Name] = bt
		p.order = append(p.order, bt)
		return nil
	}
	for _, t := range a.Tools {
		if t.Run == nil {
			return nil, fmt.Errorf("agent %q: tool %q has no Run", a.Name, t.Name)
		}
		params := t.Parameters
		if params == nil {
			params = map[string]any{"type": "object", "properties": map[string]any{}}
		}
		s, err := compile(params)
		if err != nil {
			return nil, fmt.Errorf("agent %q: tool %q parameters: %w", a.Name, t.Name, err)
		}
		t.Parameters = params
		if err := add(&boundTool{Tool: t, params: s}); err != nil {
			return nil, err
		}
	}
	for _, sa := range a.SubAgents {
		sp, err := prepare(sa, depth+1)
		if err != nil {
			return nil, err
		}
		params := map[string]any{
			"type": "object",
			"properties": map[string]any{
				"task": map[string]any{"type": "string", "minLength": 1, "description": "what the sub-agent should find out or produce"},
			},
			"required":             []any{"task"},
			"additionalProperties": false,
		}
		s, err := compile(params)
		if err != nil {
			return nil, err
		}
		desc := "Hand a task to the " + sa.Name + " sub-agent and get its answer."
		if first, _, _ := strings.Cut(sa.Instructions, "\n"); first != "" {
			desc += " It: " + first
		}
		if err := add(&boundTool{Tool: Tool{Name: SubAgentTool(sa.Name), Description: desc, Parameters: params}, params: s, sub: sp}); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// compile compiles a JSON schema given as Go values.
func compile(schema map[string]any) (*jsonschema.Schema, error) {
	data, err := json.Marshal(schema)
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	const loc = "mem:///schema.json"
	if err := c.AddResource(loc, doc); err != nil {
		return nil, err
	}
	return c.Compile(loc)
}

// validate parses text as JSON and checks it against s. Models often wrap
// JSON in a Markdown fence; that is tolerated.
func validate(s *jsonschema.Schema, text string) (json.RawMessage, error) {
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "```") {
		t = strings.TrimPrefix(t, "```json")
		t = strings.TrimPrefix(t, "```")
		t = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(t), "```"))
	}
	if t == "" {
		return nil, errors.New("the answer is empty")
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(t))
	if err != nil {
		return nil, fmt.Errorf("the answer is not JSON: %v", err)
	}
	if s != nil {
		if err := s.Validate(v); err != nil {
			return nil, fmt.Errorf("the answer does not match the schema: %v", oneLine(err.Error()))
		}
	}
	return json.RawMessage(t), nil
}

// oneLine squeezes a multi-line validation message into one line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// JSONResult marshals v as a tool result.
func JSONResult(v any) (string, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return "", err
	}
	return string(data), nil
}
