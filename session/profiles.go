package session

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/flowcabal/flowcabal/agent/core"
	"github.com/flowcabal/flowcabal/agent/profile"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/store"
)

// modelPassAttempts bounds how often a curation's task is retried for the
// agent model's pass when the endpoint fails in a way that may pass (it
// is down, overloaded): then the pass is given up with a warning, the
// task ends, and the factual profiles stand. It stays below the store's
// own bound, so the task never ends up parked as failed.
const modelPassAttempts = 3

// curated is the store's handler of a curation's durable follow-up. The
// factual profiles of the entities the curated text names are rebuilt
// from the index and re-indexed first, with or without a model. Then,
// when an agent model is configured, it regenerates the multi-angle
// profiles the text affects (profile.Pass): its answer is kept in the
// store by the text's hash, so the task run again after a crash writes
// the same files without asking the model again. A model that fails is
// logged and never costs the factual profiles; only a transient failure
// makes the task fail, to be retried by the queue a bounded number of
// times. It is idempotent.
func (s *Session) curated(ctx context.Context, st *store.Store, t store.Task) error {
	var c store.CuratedTask
	if err := json.Unmarshal(t.Payload, &c); err != nil {
		return fmt.Errorf("curated task: %w", err)
	}
	data, err := os.ReadFile(filepath.Join(s.root, filepath.FromSlash(c.File)))
	if err != nil {
		return fmt.Errorf("curated task: %w", err)
	}
	kp, _ := knowledge.LoadProject(s.root)
	if kp == nil {
		return fmt.Errorf("curated task: the project's knowledge could not be read")
	}
	changed, err := profile.Regenerate(s.root, kp, string(data))
	if err != nil {
		return err
	}
	if err := s.profilesChanged(ctx, st, changed); err != nil {
		return err
	}

	agents, err := s.profileAgents(st)
	if err != nil || agents == nil {
		if err != nil {
			s.log.Warn("profiles: no agent model for the multi-angle pass", "file", c.File, "err", err)
		}
		return nil
	}
	pass := profile.Pass{Root: s.root, Project: kp, File: c.File, Text: string(data), Agents: agents, Cache: st, Log: s.log}
	out, err := pass.Run(ctx)
	if rerr := s.profilesChanged(ctx, st, out.Changed); rerr != nil {
		return rerr
	}
	if err == nil {
		s.log.Info("profiles: multi-angle pass", "file", c.File, "changed", len(out.Changed), "refused", len(out.Refused), "cached", out.Cached)
		return nil
	}
	if ctx.Err() != nil {
		return ctx.Err()
	}
	var me *profile.ModelError
	if errors.As(err, &me) && me.Transient && t.Attempts+1 < modelPassAttempts {
		s.log.Warn("profiles: the agent model failed; the task will be retried", "file", c.File, "attempt", t.Attempts+1, "err", err)
		return err
	}
	s.log.Warn("profiles: the multi-angle pass is given up; the factual profiles stand", "file", c.File, "attempt", t.Attempts+1, "err", err)
	return nil
}

// profileAgents returns the agent core's manager when an agent model is
// configured, else nil.
func (s *Session) profileAgents(st *store.Store) (*core.Manager, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.cfg == nil {
		return nil, nil
	}
	return s.agentsLocked(st, s.cfg)
}

// profilesChanged re-indexes changed profile files and drops what was
// derived from the knowledge.
func (s *Session) profilesChanged(ctx context.Context, st *store.Store, changed []string) error {
	if len(changed) == 0 {
		return nil
	}
	if _, err := st.Reindex(ctx, changed...); err != nil {
		return err
	}
	s.kmu.Lock()
	s.snap, s.facts, s.kp = nil, nil, nil
	s.kmu.Unlock()
	return nil
}
