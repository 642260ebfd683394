package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Usage is the token usage of one model call.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// Output is one output of one node of a workflow.
type Output struct {
	// Workflow is the workflow's path relative to the project root.
	Workflow string `json:"workflow"`
	// Node is the node's id in the workflow.
	Node string `json:"node"`
	// Version numbers a node's outputs from 1, in the order recorded.
	Version int `json:"version"`
	// Text is the output.
	Text string `json:"text"`
	// PromptHash identifies the prompt that produced Text, so that the
	// runner can tell a cached output from a stale one.
	PromptHash string    `json:"prompt_hash"`
	Model      string    `json:"model,omitempty"`
	Usage      Usage     `json:"usage"`
	RunID      string    `json:"run_id,omitempty"`
	At         time.Time `json:"at"`
	// Provenance is what Role A injected for this output (its sources and
	// what it dropped), as the runner recorded it; empty when none.
	Provenance json.RawMessage `json:"provenance,omitempty"`
	// Sources maps each project file the output was built from (Role A's
	// sources and the node's own {{@path}} references, relative to the
	// root) to its content hash at the time: a later change to one makes
	// the output stale. Nil for outputs recorded before hashes were kept.
	Sources map[string]string `json:"sources,omitempty"`
	// Params are the model settings of the call (configuration, model,
	// temperature, maximum tokens), as the runner sent them.
	Params json.RawMessage `json:"params,omitempty"`
}

// NodeState is what the store knows of a node's outputs as a whole.
type NodeState struct {
	// Latest is the highest recorded version; 0 when none.
	Latest int `json:"latest"`
	// Current is the version the node's output is now: the latest unless
	// the author restored an older one.
	Current int `json:"current"`
	// Frozen is the version the runner must reuse without calling a model;
	// 0 when the node is not frozen.
	Frozen int `json:"frozen,omitempty"`
}

func nodeKey(workflow, node string) string { return joinKey(workflow, node) }

func outputKey(workflow, node string, version int) string {
	return joinKey(workflow, node, seqKey(uint64(version)))
}

func (s *Store) nodeState(tx *bolt.Tx, workflow, node string) (NodeState, error) {
	var st NodeState
	_, err := getJSON(tx.Bucket(bNodes), nodeKey(workflow, node), &st)
	return st, err
}

// RecordOutput appends o as the next version of its node's outputs and
// makes it current. Version and (when zero) At are filled in. Secrets are
// removed from the text before it is stored.
func (s *Store) RecordOutput(ctx context.Context, o Output) (Output, error) {
	if err := ctx.Err(); err != nil {
		return Output{}, err
	}
	if o.Workflow == "" || o.Node == "" {
		return Output{}, fmt.Errorf("record output: workflow and node are required")
	}
	if o.At.IsZero() {
		o.At = time.Now().UTC()
	}
	o.Text = s.clean(o.Text)
	err := s.batch(func(tx *bolt.Tx) error {
		st, err := s.nodeState(tx, o.Workflow, o.Node)
		if err != nil {
			return err
		}
		st.Latest++
		st.Current = st.Latest
		o.Version = st.Latest
		if err := putJSON(tx.Bucket(bOutputs), outputKey(o.Workflow, o.Node, o.Version), o); err != nil {
			return err
		}
		return putJSON(tx.Bucket(bNodes), nodeKey(o.Workflow, o.Node), st)
	})
	if err != nil {
		return Output{}, fmt.Errorf("record output of %s/%s: %w", o.Workflow, o.Node, err)
	}
	return o, nil
}

// Outputs returns every recorded output of a node, oldest first.
func (s *Store) Outputs(workflow, node string) ([]Output, error) {
	var out []Output
	prefix := []byte(nodeKey(workflow, node) + "\x00")
	err := s.view(func(tx *bolt.Tx) error {
		c := tx.Bucket(bOutputs).Cursor()
		for k, v := c.Seek(prefix); k != nil && strings.HasPrefix(string(k), string(prefix)); k, v = c.Next() {
			var o Output
			if err := unmarshal(v, &o); err != nil {
				return err
			}
			out = append(out, o)
		}
		return nil
	})
	return out, err
}

// OutputVersion returns one version of a node's output.
func (s *Store) OutputVersion(workflow, node string, version int) (Output, error) {
	var o Output
	err := s.view(func(tx *bolt.Tx) error {
		ok, err := getJSON(tx.Bucket(bOutputs), outputKey(workflow, node, version), &o)
		if err == nil && !ok {
			err = fmt.Errorf("output %d of %s/%s: %w", version, workflow, node, ErrNotFound)
		}
		return err
	})
	return o, err
}

// Node returns the state of a node's outputs.
func (s *Store) Node(workflow, node string) (NodeState, error) {
	var st NodeState
	err := s.view(func(tx *bolt.Tx) error {
		var err error
		st, err = s.nodeState(tx, workflow, node)
		return err
	})
	return st, err
}

// CurrentOutput returns the node's current output: the frozen version
// when frozen, else the current one. ok is false when it has none.
func (s *Store) CurrentOutput(workflow, node string) (o Output, ok bool, err error) {
	err = s.view(func(tx *bolt.Tx) error {
		st, err := s.nodeState(tx, workflow, node)
		if err != nil {
			return err
		}
		v := st.Current
		if st.Frozen > 0 {
			v = st.Frozen
		}
		if v == 0 {
			return nil
		}
		ok, err = getJSON(tx.Bucket(bOutputs), outputKey(workflow, node, v), &o)
		return err
	})
	return o, ok, err
}

// RestoreOutput makes an earlier version the node's current output. It
// does not unfreeze a frozen node.
func (s *Store) RestoreOutput(ctx context.Context, workflow, node string, version int) (Output, error) {
	return s.setVersion(ctx, workflow, node, version, func(st *NodeState) { st.Current = version })
}

// Freeze pins a node to a version: the runner reuses it and calls no model.
func (s *Store) Freeze(ctx context.Context, workflow, node string, version int) (Output, error) {
	return s.setVersion(ctx, workflow, node, version, func(st *NodeState) { st.Frozen = version })
}

// Unfreeze lets the node run again.
func (s *Store) Unfreeze(ctx context.Context, workflow, node string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.update(func(tx *bolt.Tx) error {
		st, err := s.nodeState(tx, workflow, node)
		if err != nil {
			return err
		}
		if st.Frozen == 0 {
			return nil
		}
		st.Frozen = 0
		return putJSON(tx.Bucket(bNodes), nodeKey(workflow, node), st)
	})
}

func (s *Store) setVersion(ctx context.Context, workflow, node string, version int, set func(*NodeState)) (Output, error) {
	if err := ctx.Err(); err != nil {
		return Output{}, err
	}
	var o Output
	err := s.update(func(tx *bolt.Tx) error {
		ok, err := getJSON(tx.Bucket(bOutputs), outputKey(workflow, node, version), &o)
		if err != nil {
			return err
		}
		if !ok {
			return fmt.Errorf("output %d of %s/%s: %w", version, workflow, node, ErrNotFound)
		}
		st, err := s.nodeState(tx, workflow, node)
		if err != nil {
			return err
		}
		set(&st)
		return putJSON(tx.Bucket(bNodes), nodeKey(workflow, node), st)
	})
	return o, err
}
