package session

import (
	"context"
	"fmt"

	"github.com/flowcabal/flowcabal/agent/builder"
	"github.com/flowcabal/flowcabal/agent/core"
	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/agent/monitor"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/store"
)

// Builder returns Role B for the project, made on first use: with the
// agent model when flowcabal.toml (or the editor) configures one, else
// only its model-free parts (snippets, ready-made code actions).
func (s *Session) Builder(ctx context.Context) (*builder.Builder, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.builder != nil {
		return s.builder, nil
	}
	st, cfg, err := s.storeLocked(ctx)
	if err != nil {
		return nil, err
	}
	m, err := s.agentsLocked(st, cfg)
	if err != nil {
		return nil, err
	}
	opts := builder.Options{Store: st, Manager: m}
	b, err := builder.New(opts)
	if err != nil {
		return nil, fmt.Errorf("Role B: %w", err)
	}
	s.builder = b
	return b, nil
}

// agentsLocked returns the agent core's manager for the project, made on
// first use from the agent model's configuration; nil when no agent model
// is configured. s.mu must be held.
func (s *Session) agentsLocked(st *store.Store, cfg *project.Config) (*core.Manager, error) {
	if s.agents != nil {
		return s.agents, nil
	}
	ac := llm.FromProject(cfg, "agent")
	if m, ok := s.opts.Overrides["agent"]; ok {
		ac = ac.Merge(m)
	}
	if s.opts.APIKey != "" {
		ac.APIKey = llm.NewSecret(s.opts.APIKey)
	}
	if ac.Validate() != nil {
		return nil, nil
	}
	client, err := llm.New(ac, llm.Options{Getenv: s.opts.Getenv, Logger: s.log})
	if err != nil {
		return nil, err
	}
	m, err := core.NewManager(core.Options{Client: client, Store: st, Logger: s.log, Observer: s.opts.Events.Agent, Width: monitor.Widths()})
	if err != nil {
		return nil, err
	}
	s.agents = m
	return m, nil
}
