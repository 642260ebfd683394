// Package cost reports what a project's model calls cost: every call of
// the runner and of the agent roles (Role B's builds, Role C's checks,
// profiles, embeddings), read from the agent log, where each was recorded
// as it returned, and priced with flowcabal.toml's [prices]. The history
// supplies the chapter of calls logged without one.
package cost

import (
	"encoding/json"
	"fmt"
	"sort"
	"time"

	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/store"
)

// The groupings of a report.
var Groupings = []string{"node", "workflow", "chapter", "model", "run", "role"}

// Query selects and groups the calls of a report.
type Query struct {
	// Since keeps the calls made at or after it; zero keeps all.
	Since time.Time
	// By is one of Groupings; "" means "workflow".
	By string
}

// Row sums the calls of one group.
type Row struct {
	Key    string  `json:"key"`
	Calls  int     `json:"calls"`
	Input  int     `json:"input_tokens"`
	Output int     `json:"output_tokens"`
	Cost   float64 `json:"cost"`
	// Unpriced counts the calls no price applies to: their tokens are
	// counted, their cost is not.
	Unpriced int `json:"unpriced_calls,omitempty"`
}

func (r *Row) add(e store.LogEntry, price project.Price, priced bool) {
	r.Calls++
	r.Input += e.TokensIn
	r.Output += e.TokensOut
	if priced {
		r.Cost += price.Cost(e.TokensIn, e.TokensOut)
	} else {
		r.Unpriced++
	}
}

// Report is the calls grouped, most expensive first (then most tokens).
type Report struct {
	By    string `json:"by"`
	Rows  []Row  `json:"rows"`
	Total Row    `json:"total"`
	// Priced says flowcabal.toml sets any price; without, the report is
	// in tokens only.
	Priced bool `json:"priced"`
}

// Log is what a report reads of the store; *store.Store has it.
type Log interface {
	Log(q store.LogQuery) ([]store.LogEntry, error)
	Outputs(workflow, node string) ([]store.Output, error)
}

// Build reports the calls in the agent log that q selects, priced with
// cfg's prices.
func Build(st Log, cfg *project.Config, q Query) (*Report, error) {
	by := q.By
	if by == "" {
		by = "workflow"
	}
	if !validBy(by) {
		return nil, fmt.Errorf("unknown grouping %q: use node, workflow, chapter, model, run or role", by)
	}
	entries, err := st.Log(store.LogQuery{Since: q.Since})
	if err != nil {
		return nil, fmt.Errorf("read the agent log: %w", err)
	}
	rep := &Report{By: by, Total: Row{Key: "total"}, Priced: cfg != nil && len(cfg.Prices) > 0}
	rows := map[string]*Row{}
	chapters := chapterFinder{st: st, known: map[[3]string]int{}}
	for _, e := range entries {
		// A call logged without a chapter served the same node of the
		// same run as one logged with it.
		if e.Chapter > 0 && e.Workflow != "" && e.Node != "" && e.WorkflowRun != "" {
			chapters.known[[3]string{e.Workflow, e.Node, e.WorkflowRun}] = e.Chapter
		}
	}
	for _, e := range entries {
		if !isCall(e) {
			continue
		}
		price, priced := cfg.PriceOf(e.Agent, e.Model)
		key := keyOf(by, e, &chapters)
		r := rows[key]
		if r == nil {
			r = &Row{Key: key}
			rows[key] = r
		}
		r.add(e, price, priced)
		rep.Total.add(e, price, priced)
	}
	for _, r := range rows {
		rep.Rows = append(rep.Rows, *r)
	}
	sort.Slice(rep.Rows, func(i, j int) bool {
		a, b := rep.Rows[i], rep.Rows[j]
		if a.Cost != b.Cost {
			return a.Cost > b.Cost
		}
		if a.Input+a.Output != b.Input+b.Output {
			return a.Input+a.Output > b.Input+b.Output
		}
		return a.Key < b.Key
	})
	return rep, nil
}

func validBy(by string) bool {
	for _, g := range Groupings {
		if g == by {
			return true
		}
	}
	return false
}

// isCall says whether a log entry is a model call (not a tool step or a
// note of an agent).
func isCall(e store.LogEntry) bool {
	return e.Tool == "" && (e.TokensIn > 0 || e.TokensOut > 0)
}

// roleName names the agent role of a log entry for reports.
func roleName(e store.LogEntry) string {
	switch e.Role {
	case "writer":
		return "runner (workflow nodes)"
	case "A":
		if e.Agent != "" {
			return "profiles (" + e.Agent + ")"
		}
		return "Role A"
	case "B":
		return "Role B (builder)"
	case "C":
		return "Role C (checks)"
	case "embedding":
		return "embeddings"
	case "":
		return "(unlabelled)"
	}
	return e.Role
}

func keyOf(by string, e store.LogEntry, ch *chapterFinder) string {
	switch by {
	case "node":
		if e.Workflow != "" && e.Node != "" {
			return e.Workflow + " · " + e.Node
		}
		return "(no node: " + roleName(e) + ")"
	case "workflow":
		if e.Workflow != "" {
			return e.Workflow
		}
		return "(no workflow: " + roleName(e) + ")"
	case "chapter":
		if n := ch.of(e); n > 0 {
			return fmt.Sprintf("chapter %d", n)
		}
		return "(no chapter)"
	case "model":
		if e.Model != "" {
			return e.Model
		}
		return "(" + e.Agent + ")"
	case "run":
		if e.WorkflowRun != "" {
			return e.WorkflowRun
		}
		if e.RunID != "" {
			return e.RunID + " (" + roleName(e) + ")"
		}
		return "(no run: " + roleName(e) + ")"
	case "role":
		return roleName(e)
	}
	return ""
}

// chapterFinder finds the chapter of a call logged without one: from
// the other calls of the node's run, else from the history (the chapter
// Role A took the node's output of that run to write, its provenance).
type chapterFinder struct {
	st    Log
	known map[[3]string]int // workflow, node, run -> chapter
}

func (c *chapterFinder) of(e store.LogEntry) int {
	if e.Chapter > 0 {
		return e.Chapter
	}
	if e.Workflow == "" || e.Node == "" || e.WorkflowRun == "" {
		return 0
	}
	k := [3]string{e.Workflow, e.Node, e.WorkflowRun}
	if n, ok := c.known[k]; ok {
		return n
	}
	n := 0
	outs, err := c.st.Outputs(e.Workflow, e.Node)
	if err == nil {
		for _, o := range outs {
			if o.RunID != e.WorkflowRun || len(o.Provenance) == 0 {
				continue
			}
			var p struct {
				Chapter int `json:"chapter"`
			}
			if json.Unmarshal(o.Provenance, &p) == nil && p.Chapter > 0 {
				n = p.Chapter
				break
			}
		}
	}
	c.known[k] = n
	return n
}
