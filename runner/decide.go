package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/flowcabal/flowcabal/store"
)

// The author's decisions on a node that the gate flagged (or on any node
// of a run): approve its output as it is, approve an edited text, or run
// it again with feedback.
const (
	DecideApprove = "approve"
	DecideEdit    = "edit"
	DecideRetry   = "retry"
	// DecideSelect keeps one candidate of a select = "human" node; text
	// is its output version ("12" or "v12").
	DecideSelect = "select"
	// DecideSkip lets a failed or flagged node's dependents go on without
	// its output (they read it as empty).
	DecideSkip = "skip"
)

// Decide records the author's decision on node in run runID and returns
// the options with which Run continues the run (Resume set; Feedback set
// for a retry). The decision is checkpointed before Decide returns, so it
// survives a crash between the decision and the resumed run.
func (r *Runner) Decide(ctx context.Context, runID, node, decision, text string) (Options, error) {
	h := r.cfg.History
	cp, err := h.Checkpoint(runID)
	if err != nil {
		return Options{}, fmt.Errorf("run %s: %w", runID, err)
	}
	if cp.Nodes == nil {
		cp.Nodes = map[string]store.NodeRun{}
	}
	nr := cp.Nodes[node]
	opts := Options{Resume: runID}
	switch decision {
	case DecideApprove:
		if nr.Version == 0 {
			return Options{}, fmt.Errorf("node %s has no output in run %s to approve", node, runID)
		}
		nr.Status, nr.Error = "done", ""
		cp.Nodes[node] = nr
	case DecideEdit:
		if text == "" {
			return Options{}, fmt.Errorf("edit of %s: the edited text is empty", node)
		}
		// The author's edit is built on what the model was shown: it
		// keeps the edited version's provenance and source hashes.
		var prev store.Output
		if nr.Version > 0 {
			if o, err := h.OutputVersion(cp.Workflow, node, nr.Version); err == nil {
				prev = o
			}
		}
		o, err := h.RecordOutput(ctx, store.Output{Workflow: cp.Workflow, Node: node, Text: text,
			PromptHash: prev.PromptHash, Model: "author", RunID: runID, At: time.Now().UTC(),
			Provenance: prev.Provenance, Sources: prev.Sources})
		if err != nil {
			return Options{}, fmt.Errorf("record the edited text of %s: %w", node, err)
		}
		cp.Nodes[node] = store.NodeRun{Status: "done", Version: o.Version}
		if r.cfg.Root != "" {
			// The output document shows what now counts: the author's text.
			doc := fmt.Sprintf("<!-- flowcabal: workflow=%s node=%s state=%q -->\n%s", cp.Workflow, node, fmt.Sprintf("approved v%d (your edit)", o.Version), text)
			if err := writeAtomic(OutputPath(r.cfg.Root, cp.Workflow, node), []byte(doc)); err != nil {
				r.cfg.Log.Warn("output document", "node", node, "err", err)
			}
		}
	case DecideRetry:
		delete(cp.Nodes, node)
		opts.Rerun = []string{node}
		if text != "" {
			opts.Feedback = map[string]string{node: text}
		}
	case DecideSkip:
		o, err := h.RecordOutput(ctx, store.Output{Workflow: cp.Workflow, Node: node, Text: "",
			Model: "skipped by the author", RunID: runID, At: time.Now().UTC()})
		if err != nil {
			return Options{}, fmt.Errorf("skip %s: %w", node, err)
		}
		cp.Nodes[node] = store.NodeRun{Status: "done", Version: o.Version}
	case DecideSelect:
		v, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(text), "v"))
		if err != nil || v <= 0 {
			return Options{}, fmt.Errorf("select on %s: %q is not an output version", node, text)
		}
		if _, err := h.OutputVersion(cp.Workflow, node, v); err != nil {
			return Options{}, fmt.Errorf("select on %s: %w", node, err)
		}
		var d runData
		_ = json.Unmarshal(cp.Data, &d)
		if d.Evolve == nil {
			d.Evolve = map[string][]int{}
		}
		d.Evolve[node] = append(d.Evolve[node], v)
		cp.Data, _ = json.Marshal(d)
		delete(cp.Nodes, node)
	default:
		return Options{}, fmt.Errorf("unknown decision %q (approve, edit, retry, select or skip)", decision)
	}
	// Nodes skipped behind this one are planned again by the resumed run.
	for n, s := range cp.Nodes {
		if s.Status == "skipped" {
			delete(cp.Nodes, n)
		}
	}
	cp.Pending = slices.DeleteFunc(cp.Pending, func(d store.Decision) bool { return d.Node == node })
	if _, err := h.SaveCheckpoint(ctx, cp); err != nil {
		return Options{}, fmt.Errorf("checkpoint the decision: %w", err)
	}
	return opts, nil
}
