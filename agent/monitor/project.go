package monitor

import (
	"context"
	"errors"
	"fmt"

	"github.com/flowcabal/flowcabal/agent/core"
	"github.com/flowcabal/flowcabal/agent/factcheck"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/textsearch"
)

// ForProject builds a Monitor for the project at root: the deterministic
// checkers over its entities and world rules, the previous chapter from
// its manuscript, the angles' tools over st, and the model checkers
// through agents (nil: deterministic checks only). opts gives the rest;
// its Knowledge, Previous, Store and Agents are replaced. The knowledge is
// read now: build again after it changes. Files that could not be read
// are reported in the error, which is not fatal when the Monitor is
// returned.
func ForProject(root string, st *store.Store, agents *core.Manager, opts Options) (*Monitor, error) {
	p, errs := knowledge.LoadProject(root)
	if p == nil {
		return nil, fmt.Errorf("monitor: read the project's knowledge: %w", errors.Join(errs...))
	}
	if opts.Folder == nil {
		opts.Folder = textsearch.NewFolder()
	}
	opts.Knowledge = factcheck.FromProject(p, opts.Folder)
	opts.Previous = func(ch int) string {
		if d := p.Chapter(ch); d != nil {
			return d.Body
		}
		return ""
	}
	opts.Store, opts.Agents = st, agents
	opts.Threads = p.Threads()
	var err error
	if len(errs) > 0 {
		err = fmt.Errorf("monitor: some knowledge files were left out: %w", errors.Join(errs...))
	}
	return New(opts), err
}

// DiscardUnfinished marks the model checks a killed process left running
// as discarded and returns how many there were. A gate's check is not
// resumed: the runner reviews the output again when it resumes its own
// run, and the checks only read, so nothing is half-applied.
func (m *Monitor) DiscardUnfinished(ctx context.Context) (int, error) {
	if m.opts.Agents == nil {
		return 0, nil
	}
	return m.opts.Agents.DiscardUnfinished(ctx, Role)
}
