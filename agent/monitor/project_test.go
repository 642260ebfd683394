package monitor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/store"
)

// TestForProject builds a deterministic-only Monitor from a project on
// disk; the previous chapter feeds the continuity checker.
func TestForProject(t *testing.T) {
	dir := copyProject(t)
	st, err := store.Open(context.Background(), dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	mon, err := ForProject(dir, st, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := mon.Check(context.Background(), Request{Text: outputEN, Chapter: 3})
	if err != nil {
		t.Fatal(err)
	}
	if f := findingAt(rep.Findings, outputEN, "Frederick"); f == nil || f.Type != "state" || f.Severity != SeverityError {
		t.Errorf("state finding: %+v", rep.Findings)
	}
	if rep.ModelUsed || !strings.Contains(strings.Join(rep.Notes, "\n"), "no agent model configured") {
		t.Errorf("report: %+v", rep)
	}
	if n, err := mon.DiscardUnfinished(context.Background()); n != 0 || err != nil {
		t.Errorf("DiscardUnfinished without agents: %d, %v", n, err)
	}

	// A broken entity file is reported, the rest still checks.
	bad := filepath.Join(dir, "entities", "characters", "broken.md")
	if err := os.WriteFile(bad, []byte("---\nname: [unclosed\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mon, err = ForProject(dir, st, nil, Options{})
	if mon == nil {
		t.Fatalf("no monitor: %v", err)
	}
	if err == nil || !strings.Contains(err.Error(), "broken.md") {
		t.Errorf("error %v, want one naming broken.md", err)
	}
	if rep, _ := mon.Check(context.Background(), Request{Text: outputEN, Chapter: 3}); findingAt(rep.Findings, outputEN, "telephoned") == nil {
		t.Errorf("checks stopped after a broken file: %+v", rep.Findings)
	}
}
