package runner

import (
	"context"
	"errors"
	"fmt"

	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/project"

	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/summarize"
)

// StoreKnowledge serves {{@path:Ln}} from the project store: L2 is the
// file as it is now; L0 and L1 come from the store's derived levels, and
// while those are still being produced, from the extractive summariser
// run on the spot, so that a run never waits on the queue.
type StoreKnowledge struct {
	Store      *store.Store
	Summarizer *summarize.Summarizer // nil: pending levels are an error
}

// Level implements Knowledge.
func (k StoreKnowledge) Level(ctx context.Context, path, level string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	n := map[string]int{"L0": 0, "L1": 1, "L2": 2}
	lv, ok := n[level]
	if !ok {
		return "", fmt.Errorf("level %q: levels are L0, L1 and L2", level)
	}
	t, err := k.Store.Level(path, lv)
	if err != nil {
		return "", err
	}
	if lv == 2 || (!t.Pending && !t.Stale && t.Text != "") {
		return t.Text, nil
	}
	if k.Summarizer == nil {
		return "", fmt.Errorf("%s:%s is still being produced", path, level)
	}
	body, err := k.Store.Level(path, 2)
	if err != nil {
		return "", err
	}
	s, err := k.Summarizer.Summarize(body.Text)
	if err != nil {
		return "", fmt.Errorf("summarise %s: %w", path, err)
	}
	if lv == 0 {
		return s.L0, nil
	}
	return s.L1, nil
}

// FileKnowledge serves {{@path:Ln}} from the project's files as read,
// for an estimate on a project that has no store yet: L2 is the file's
// body, L0 and L1 the extractive summaries, which is what a run's
// StoreKnowledge gives while the store's own levels are pending.
type FileKnowledge struct {
	Project    *knowledge.Project
	Summarizer *summarize.Summarizer
}

// Level implements Knowledge.
func (k FileKnowledge) Level(ctx context.Context, path, level string) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	d := k.Project.Document(project.ResourcePath(path))
	if d == nil {
		return "", fmt.Errorf("%s: %w", path, store.ErrNotFound)
	}
	switch level {
	case "L2":
		return d.Body, nil
	case "L0", "L1":
	default:
		return "", fmt.Errorf("level %q: levels are L0, L1 and L2", level)
	}
	s, err := k.Summarizer.Summarize(d.Body)
	if err != nil {
		return "", fmt.Errorf("summarise %s: %w", path, err)
	}
	if level == "L0" {
		return s.L0, nil
	}
	return s.L1, nil
}

// NoHistory is the history of a project with no store yet: no outputs,
// no runs. It refuses to record (an estimate records nothing).
type NoHistory struct{}

var errNoStore = errors.New("the project has no store yet")

// Outputs implements History.
func (NoHistory) Outputs(workflow, node string) ([]store.Output, error) { return nil, nil }

// Node implements History.
func (NoHistory) Node(workflow, node string) (store.NodeState, error) { return store.NodeState{}, nil }

// OutputVersion implements History.
func (NoHistory) OutputVersion(workflow, node string, version int) (store.Output, error) {
	return store.Output{}, store.ErrNotFound
}

// RecordOutput implements History.
func (NoHistory) RecordOutput(ctx context.Context, o store.Output) (store.Output, error) {
	return o, errNoStore
}

// SaveCheckpoint implements History.
func (NoHistory) SaveCheckpoint(ctx context.Context, cp store.Checkpoint) (store.Checkpoint, error) {
	return cp, errNoStore
}

// Checkpoint implements History.
func (NoHistory) Checkpoint(runID string) (store.Checkpoint, error) {
	return store.Checkpoint{}, store.ErrNotFound
}
