package runner

import (
	"context"
	"fmt"
	"sync"

	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/store"
)

// Clients is a Model over the project's configured endpoints: each call
// goes to the client of its Params.ModelName, made on first use.
type Clients struct {
	// Config returns the endpoint configuration called name (flowcabal.toml
	// merged with the editor's settings).
	Config func(name string) (llm.Config, error)
	// Options are passed to every client (recorder, logger, retry policy).
	Options llm.Options

	mu      sync.Mutex
	clients map[string]*llm.Client
}

func (c *Clients) client(name string) (*llm.Client, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if cl, ok := c.clients[name]; ok {
		return cl, nil
	}
	cfg, err := c.Config(name)
	if err != nil {
		return nil, err
	}
	cl, err := llm.New(cfg, c.Options)
	if err != nil {
		return nil, err
	}
	if c.clients == nil {
		c.clients = map[string]*llm.Client{}
	}
	c.clients[name] = cl
	return cl, nil
}

// Stream implements Model.
func (c *Clients) Stream(ctx context.Context, p Params, msgs []Message, onDelta func(Delta)) (Reply, error) {
	cl, err := c.client(p.ModelName)
	if err != nil {
		return Reply{}, fmt.Errorf("model %s: %w", p.ModelName, err)
	}
	req := llm.Request{Temperature: p.Temperature, MaxTokens: p.MaxTokens, Role: "writer", Node: p.Node}
	for _, m := range msgs {
		req.Messages = append(req.Messages, llm.Message{Role: llm.Role(m.Role), Content: m.Content})
	}
	resp, err := cl.Stream(ctx, req, func(d llm.Delta) error {
		onDelta(Delta{Text: d.Content, Restart: d.Restart})
		return nil
	})
	if err != nil {
		return Reply{}, err
	}
	return Reply{Text: resp.Content, Model: resp.Model,
		Usage: store.Usage{PromptTokens: resp.Tokens.In, CompletionTokens: resp.Tokens.Out}}, nil
}

// LogRecorder writes every model call into the store's agent log.
type LogRecorder struct {
	Store *store.Store
	RunID string
}

// RecordUsage implements llm.Recorder.
func (r LogRecorder) RecordUsage(ctx context.Context, u llm.Usage) {
	role := u.Role
	if role == "" {
		role = "runner"
	}
	_, _ = r.Store.AppendLog(context.WithoutCancel(ctx), store.LogEntry{
		Role: role, Agent: u.Config, Node: u.Node, Model: u.Model, RunID: r.RunID,
		TokensIn: u.TokensIn, TokensOut: u.TokensOut, Duration: u.Duration,
		Status: u.Status, Error: u.Error,
	})
}
