package monitor

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestModelFindings: the findings a model took part in, in the
// deterministic checkers' shape, with the cross-check's severity in the
// confidence; the run carries the caller's name.
func TestModelFindings(t *testing.T) {
	h := newHarness(t, scriptEN(), Options{})
	rep, err := h.mon.Check(context.Background(), Request{Text: outputEN, Chapter: 3, Node: "chapter", RunID: "agent-C-chapter-test-1"})
	if err != nil {
		t.Fatal(err)
	}
	if rep.RunID != "agent-C-chapter-test-1" {
		t.Errorf("run id %q", rep.RunID)
	}
	fs := rep.ModelFindings()
	var types []string
	for _, f := range fs {
		types = append(types, f.Type)
		if f.End > f.Start && f.Start >= 0 {
			continue
		}
		t.Errorf("unlocated finding in a report whose quotes all match: %+v", f)
	}
	// A deterministic finding alone (none here without a model source)
	// is left out; every model angle's finding is in.
	for _, want := range []string{"world", "state", "setup-payoff", "timeline"} {
		if !slices.Contains(types, want) {
			t.Errorf("no %s finding in %v", want, types)
		}
	}
	for _, f := range fs {
		q := outputEN[f.Start:f.End]
		switch {
		case strings.Contains(q, "telephoned") && f.Confidence < 0.8:
			t.Errorf("confirmed world finding has confidence %.2f, want an error's", f.Confidence)
		case strings.Contains(q, "December") && f.Confidence > 0.4:
			t.Errorf("hint has confidence %.2f", f.Confidence)
		case strings.Contains(q, "telephoned") && f.Evidence.Path != "meta/world-rules.md":
			t.Errorf("world finding evidence %+v", f.Evidence)
		}
	}
	var nilRep *Report
	if nilRep.ModelFindings() != nil {
		t.Error("a nil report has findings")
	}
	// An unlocated quote stays, at the document's start, without a fix.
	rep = &Report{Findings: []Finding{{Type: "timeline", Start: -1, End: -1, Quote: "the Tuesday", Message: "no such day", Suggestion: "Monday",
		Confidence: 0.6, Severity: SeverityWarning, Sources: []string{"model:timeline"}}}}
	fs = rep.ModelFindings()
	if len(fs) != 1 || fs[0].Start != 0 || fs[0].End != 0 || fs[0].Suggestion != "" || !strings.Contains(fs[0].Message, "the Tuesday") {
		t.Errorf("unlocated: %+v", fs)
	}
}
