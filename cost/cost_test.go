package cost

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/store"
)

// fakeLog is an agent log and history in memory.
type fakeLog struct {
	entries []store.LogEntry
	outputs map[[2]string][]store.Output
}

func (f fakeLog) Log(q store.LogQuery) ([]store.LogEntry, error) {
	var out []store.LogEntry
	for _, e := range f.entries {
		if q.Since.IsZero() || !e.At.Before(q.Since) {
			out = append(out, e)
		}
	}
	return out, nil
}

func (f fakeLog) Outputs(workflow, node string) ([]store.Output, error) {
	return f.outputs[[2]string{workflow, node}], nil
}

func TestBuild(t *testing.T) {
	day := time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)
	prov, _ := json.Marshal(map[string]int{"chapter": 12})
	log := fakeLog{
		entries: []store.LogEntry{
			{At: day, Role: "writer", Agent: "writer", Model: "gpt-4o-mini", Workflow: "w/ch12.flow", WorkflowRun: "r1", Node: "draft", Chapter: 12, TokensIn: 1_000_000, TokensOut: 100_000, Status: "ok"},
			{At: day, Role: "C", Agent: "continuity", Model: "gpt-4o-mini-2024-07-18", Workflow: "w/ch12.flow", WorkflowRun: "r1", Node: "draft", TokensIn: 200_000, TokensOut: 10_000, Status: "ok"},
			// The chapter of an older entry comes from the history.
			{At: day, Role: "writer", Agent: "writer", Model: "gpt-4o-mini", Workflow: "w/ch12.flow", WorkflowRun: "r0", Node: "beats", TokensIn: 10, TokensOut: 10, Status: "ok"},
			{At: day, Role: "C", Agent: "continuity", Tool: "search", Status: "ok"}, // a tool step: no call
			{At: day.Add(48 * time.Hour), Role: "embedding", Agent: "embedding", Model: "text-embedding-3-small", TokensIn: 5000, Status: "ok"},
			{At: day.Add(48 * time.Hour), Role: "B", Agent: "builder", Model: "deepseek-chat", TokensIn: 300, TokensOut: 30, Status: "ok"},
		},
		outputs: map[[2]string][]store.Output{{"w/ch12.flow", "beats"}: {{RunID: "r0", Provenance: prov}}},
	}
	cfg := &project.Config{
		Models: map[string]project.Model{"writer": {Model: "gpt-4o-mini"}, "agent": {Model: "deepseek-chat"}},
		Prices: map[string]project.Price{"writer": {Input: 0.15, Output: 0.60}, "agent": {Input: 0.27, Output: 1.10}},
	}
	rep, err := Build(log, cfg, Query{By: "chapter"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Rows) != 2 || rep.Rows[0].Key != "chapter 12" || rep.Rows[0].Calls != 3 || rep.Rows[1].Key != "(no chapter)" {
		t.Fatalf("by chapter: %+v", rep.Rows)
	}
	// draft: 0.15 + 0.06; its check, priced as the writer's model id: 0.03 + 0.006.
	want := 0.15 + 0.06 + 0.03 + 0.006 + (10*0.15+10*0.60)/1e6 + (300*0.27+30*1.10)/1e6
	if math.Abs(rep.Total.Cost-want) > 1e-9 || rep.Total.Calls != 5 || rep.Total.Unpriced != 1 {
		t.Errorf("total %+v, want cost %v, 5 calls, the embedding unpriced", rep.Total, want)
	}
	rep, _ = Build(log, cfg, Query{By: "role", Since: day.Add(time.Hour)})
	keys := map[string]int{}
	for _, r := range rep.Rows {
		keys[r.Key] = r.Calls
	}
	if len(keys) != 2 || keys["embeddings"] != 1 || keys["Role B (builder)"] != 1 {
		t.Errorf("by role since a later day: %v", keys)
	}
	rep, _ = Build(log, nil, Query{By: "node"})
	if rep.Priced || rep.Total.Cost != 0 || rep.Total.Input != 1_205_310 {
		t.Errorf("without prices: %+v", rep.Total)
	}
	if _, err := Build(log, cfg, Query{By: "colour"}); err == nil {
		t.Error("an unknown grouping was accepted")
	}
}
