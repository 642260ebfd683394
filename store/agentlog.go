package store

import (
	"context"
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"

	bolt "go.etcd.io/bbolt"
)

// MaxLogText bounds the input and output kept in one log entry, in bytes.
const MaxLogText = 4096

// LogEntry is one LLM call or tool step of an agent.
type LogEntry struct {
	// Seq numbers entries from 1 in the order appended.
	Seq   uint64    `json:"seq"`
	At    time.Time `json:"at"`
	Role  string    `json:"role"`            // "A", "B", "C", "runner", "summarizer"
	Agent string    `json:"agent,omitempty"` // sub-agent or angle
	Tool  string    `json:"tool,omitempty"`  // tool name for tool steps
	RunID string    `json:"run_id,omitempty"`
	// Workflow, WorkflowRun and Chapter say which workflow run the call
	// served (a Role C check of a node's output included), for cost
	// reports; AppendLog fills them from the context (WithAttribution).
	Workflow    string        `json:"workflow,omitempty"`
	WorkflowRun string        `json:"workflow_run,omitempty"`
	Chapter     int           `json:"chapter,omitempty"`
	Node        string        `json:"node,omitempty"`
	Model       string        `json:"model,omitempty"`
	TokensIn    int           `json:"tokens_in"`
	TokensOut   int           `json:"tokens_out"`
	Duration    time.Duration `json:"duration"`
	Status      string        `json:"status"` // "ok", "error", "cancelled", …
	Error       string        `json:"error,omitempty"`
	Input       string        `json:"input,omitempty"`
	Output      string        `json:"output,omitempty"`
	// Truncated is set when Input or Output was cut to MaxLogText.
	Truncated bool `json:"truncated,omitempty"`
}

// Attribution is the workflow run a model call serves.
type Attribution struct {
	Workflow string // the workflow's id (its path in the project)
	Run      string // the run's id
	Chapter  int    // the chapter the node writes; 0 when none
	Node     string
}

type attributionKey struct{}

// WithAttribution returns ctx carrying a: the log entries appended under
// it are counted to that run, whoever makes the call (the runner, Role C's
// checks of an output).
func WithAttribution(ctx context.Context, a Attribution) context.Context {
	return context.WithValue(ctx, attributionKey{}, a)
}

// AttributionOf returns the attribution ctx carries.
func AttributionOf(ctx context.Context) (Attribution, bool) {
	a, ok := ctx.Value(attributionKey{}).(Attribution)
	return a, ok
}

// LogQuery selects log entries; zero fields match everything.
type LogQuery struct {
	Role, Agent, Node, RunID, Status string
	Since                            time.Time
	// Limit keeps the last Limit matches; 0 means all.
	Limit int
}

// AppendLog records an entry, truncating its texts and removing secrets,
// and returns it with Seq and At set.
func (s *Store) AppendLog(ctx context.Context, e LogEntry) (LogEntry, error) {
	if err := ctx.Err(); err != nil {
		return e, err
	}
	if e.At.IsZero() {
		e.At = time.Now().UTC()
	}
	if a, ok := ctx.Value(attributionKey{}).(Attribution); ok {
		if e.Workflow == "" {
			e.Workflow = a.Workflow
		}
		if e.WorkflowRun == "" {
			e.WorkflowRun = a.Run
		}
		if e.Chapter == 0 {
			e.Chapter = a.Chapter
		}
		if e.Node == "" {
			e.Node = a.Node
		}
	}
	var t1, t2 bool
	e.Input, t1 = truncate(s.clean(e.Input), MaxLogText)
	e.Output, t2 = truncate(s.clean(e.Output), MaxLogText)
	e.Error = s.clean(e.Error)
	e.Truncated = e.Truncated || t1 || t2
	err := s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bAgentLog)
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		e.Seq = seq
		return putJSON(b, fmt.Sprintf("%016d", seq), e)
	})
	if err != nil {
		return e, fmt.Errorf("append agent log: %w", err)
	}
	return e, nil
}

// Log returns the entries matching q, oldest first.
func (s *Store) Log(q LogQuery) ([]LogEntry, error) {
	var out []LogEntry
	err := s.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bAgentLog).ForEach(func(k, v []byte) error {
			var e LogEntry
			if err := unmarshal(v, &e); err != nil {
				return err
			}
			if (q.Role != "" && e.Role != q.Role) || (q.Agent != "" && e.Agent != q.Agent) ||
				(q.Node != "" && e.Node != q.Node) || (q.RunID != "" && e.RunID != q.RunID) ||
				(q.Status != "" && e.Status != q.Status) || (!q.Since.IsZero() && e.At.Before(q.Since)) {
				return nil
			}
			out = append(out, e)
			return nil
		})
	})
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[len(out)-q.Limit:]
	}
	return out, err
}

// truncate cuts s to at most n bytes on a rune boundary, marking the cut.
func truncate(s string, n int) (string, bool) {
	if len(s) <= n {
		return s, false
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…[truncated " + strconv.Itoa(len(s)-cut) + " bytes]", true
}
