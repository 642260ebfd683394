package store

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Run statuses of a checkpoint.
const (
	RunRunning   = "running"
	RunDone      = "done"
	RunFailed    = "failed"
	RunCancelled = "cancelled"
	RunWaiting   = "waiting" // stopped for an author decision
)

// Checkpoint is the state of a workflow run (or of an agent loop) after
// its latest step, enough to resume it after a crash.
type Checkpoint struct {
	RunID    string `json:"run_id"`
	Workflow string `json:"workflow"`
	// Status is one of the Run* constants.
	Status string `json:"status"`
	// Nodes holds the state of each node the run has touched.
	Nodes map[string]NodeRun `json:"nodes,omitempty"`
	// Pending lists decisions the run waits for.
	Pending []Decision `json:"pending,omitempty"`
	// Data is free state of the owner (an agent loop's memory, the plan).
	Data    json.RawMessage `json:"data,omitempty"`
	Started time.Time       `json:"started"`
	Updated time.Time       `json:"updated"`
	// Step counts the saves, so that a reader can tell two states apart.
	Step int `json:"step"`
}

// NodeRun is one node's state inside a run.
type NodeRun struct {
	// Status: "done", "failed", "running", "skipped", "frozen", "cached".
	Status string `json:"status"`
	// Version is the output version recorded for the node (see Output).
	Version int    `json:"version,omitempty"`
	Output  string `json:"output,omitempty"`
	Error   string `json:"error,omitempty"`
}

// Decision is something a run waits on from the author or Role C.
type Decision struct {
	Node   string `json:"node"`
	Kind   string `json:"kind"` // "approve", "retry", "flag", …
	Detail string `json:"detail,omitempty"`
}

// SaveCheckpoint writes the run's state, replacing the previous one, and
// returns it with Step and Updated advanced. It commits (and syncs) before
// returning, so a run killed right after resumes from here.
func (s *Store) SaveCheckpoint(ctx context.Context, cp Checkpoint) (Checkpoint, error) {
	if err := ctx.Err(); err != nil {
		return cp, err
	}
	if cp.RunID == "" {
		return cp, fmt.Errorf("save checkpoint: run id is required")
	}
	now := time.Now().UTC()
	if cp.Started.IsZero() {
		cp.Started = now
	}
	cp.Updated = now
	for k, n := range cp.Nodes {
		n.Output = s.clean(n.Output)
		n.Error = s.clean(n.Error)
		cp.Nodes[k] = n
	}
	for i := range cp.Pending {
		cp.Pending[i].Detail = s.clean(cp.Pending[i].Detail)
	}
	if len(cp.Data) > 0 {
		if !json.Valid(cp.Data) {
			return cp, fmt.Errorf("save checkpoint %s: data is not JSON", cp.RunID)
		}
		cp.Data = json.RawMessage(s.clean(string(cp.Data)))
	}
	err := s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bRuns)
		var prev Checkpoint
		if _, err := getJSON(b, cp.RunID, &prev); err != nil {
			return err
		}
		cp.Step = prev.Step + 1
		return putJSON(b, cp.RunID, cp)
	})
	if err != nil {
		return cp, fmt.Errorf("save checkpoint %s: %w", cp.RunID, err)
	}
	return cp, nil
}

// Checkpoint returns the last saved state of a run.
func (s *Store) Checkpoint(runID string) (Checkpoint, error) {
	var cp Checkpoint
	err := s.view(func(tx *bolt.Tx) error {
		ok, err := getJSON(tx.Bucket(bRuns), runID, &cp)
		if err == nil && !ok {
			err = fmt.Errorf("run %s: %w", runID, ErrNotFound)
		}
		return err
	})
	return cp, err
}

// Runs lists the checkpoints of a workflow ("" for all), the most recently
// updated first. With unfinished, only runs still running or waiting.
func (s *Store) Runs(workflow string, unfinished bool) ([]Checkpoint, error) {
	var out []Checkpoint
	err := s.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bRuns).ForEach(func(k, v []byte) error {
			var cp Checkpoint
			if err := unmarshal(v, &cp); err != nil {
				return err
			}
			if workflow != "" && cp.Workflow != workflow {
				return nil
			}
			if unfinished && cp.Status != RunRunning && cp.Status != RunWaiting {
				return nil
			}
			out = append(out, cp)
			return nil
		})
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Updated.After(out[j].Updated) })
	return out, err
}

// DeleteRun forgets a run's checkpoint.
func (s *Store) DeleteRun(ctx context.Context, runID string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.update(func(tx *bolt.Tx) error { return tx.Bucket(bRuns).Delete([]byte(runID)) })
}

func unmarshal(data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("decode stored record: %w", err)
	}
	return nil
}
