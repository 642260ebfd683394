package monitor

import (
	"slices"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/agent/factcheck"
)

// TestCrossCheckSeverity applies the cross-check rules to hand-made
// findings over one text.
func TestCrossCheckSeverity(t *testing.T) {
	const text = "Mr. Hale telephoned the doctor. Frederick laughed at the gold locket."
	span := func(s string) (int, int) {
		i := strings.Index(text, s)
		if i < 0 {
			t.Fatalf("%q not in the text", s)
		}
		return i, i + len(s)
	}
	det := func(typ, s string, conf float64) factcheck.Finding {
		a, b := span(s)
		return factcheck.Finding{Type: typ, Start: a, End: b, Message: typ + " finding", Confidence: conf}
	}
	mod := func(angle, s string, conf float64) modelFinding {
		a, b := span(s)
		return modelFinding{angle: angle, quote: s, note: angle + " note", confidence: conf, start: a, end: b, located: true, how: HowExact}
	}
	lost := func(angle, quote string, conf float64) modelFinding {
		return modelFinding{angle: angle, quote: quote, note: angle + " note", confidence: conf, start: -1, end: -1, how: HowMissing}
	}
	type want struct {
		quote    string // "" for a document-level finding
		severity Severity
		sources  string
	}
	tests := []struct {
		name  string
		det   []factcheck.Finding
		model []modelFinding
		want  []want
	}{
		{"deterministic alone, confident", []factcheck.Finding{det("world", "telephoned", 0.95)}, nil,
			[]want{{"telephoned", SeverityError, "check:world"}}},
		{"deterministic alone, unsure", []factcheck.Finding{det("fact", "gold", 0.5)}, nil,
			[]want{{"gold", SeverityWarning, "check:fact"}}},
		{"confirmed by a compatible deterministic checker", []factcheck.Finding{det("world", "telephoned", 0.5)},
			[]modelFinding{mod(AngleWorld, "Hale telephoned the doctor", 0.3)},
			[]want{{"telephoned", SeverityError, "check:world+model:world"}}},
		{"incompatible types stay apart", []factcheck.Finding{det("world", "telephoned", 0.95)},
			[]modelFinding{mod(AngleCharacter, "Hale telephoned", 0.9)},
			[]want{{"Hale telephoned", SeverityWarning, "model:character"}, {"telephoned", SeverityError, "check:world"}}},
		{"two angles agree", nil,
			[]modelFinding{mod(AngleSetup, "the gold locket", 0.4), mod(AngleCharacter, "gold locket", 0.3)},
			[]want{{"the gold locket", SeverityError, "model:setup-payoff+model:character"}}},
		{"one angle twice is not a confirmation", nil,
			[]modelFinding{mod(AngleSetup, "the gold locket", 0.4), mod(AngleSetup, "gold", 0.3)},
			[]want{{"the gold locket", SeverityHint, "model:setup-payoff"}}},
		{"single model, confident", nil, []modelFinding{mod(AngleTimeline, "Frederick laughed", 0.9)},
			[]want{{"Frederick laughed", SeverityWarning, "model:timeline"}}},
		{"single model, unsure", nil, []modelFinding{mod(AngleTimeline, "Frederick laughed", 0.2)},
			[]want{{"Frederick laughed", SeverityHint, "model:timeline"}}},
		{"not overlapping", nil, []modelFinding{mod(AngleSetup, "gold locket", 0.7), mod(AngleCharacter, "Frederick", 0.7)},
			[]want{{"Frederick", SeverityWarning, "model:character"}, {"gold locket", SeverityWarning, "model:setup-payoff"}}},
		{"unlocated quotes stay, at the end", []factcheck.Finding{det("state", "Frederick", 0.9)},
			[]modelFinding{lost(AngleWorld, "an airship", 0.9), lost(AngleTimeline, "an airship", 0.9), lost(AngleSetup, "x", 0.1)},
			[]want{{"Frederick", SeverityError, "check:state"}, {"", SeverityWarning, "model:world"}, {"", SeverityWarning, "model:timeline"}, {"", SeverityHint, "model:setup-payoff"}}},
		{"a model confirms the best overlapping checker", []factcheck.Finding{det("state", "Frederick", 0.9), det("fact", "gold", 0.9)},
			[]modelFinding{mod(AngleCharacter, "Frederick laughed at the gold", 0.8)},
			[]want{{"Frederick", SeverityError, "check:state+model:character"}, {"gold", SeverityError, "check:fact"}}},
	}
	m := New(Options{})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := m.merge(text, tt.det, tt.model)
			if len(got) != len(tt.want) {
				t.Fatalf("%d findings, want %d: %+v", len(got), len(tt.want), got)
			}
			for i, w := range tt.want {
				f := got[i]
				q := ""
				if f.Located {
					q = text[f.Start:f.End]
				} else if f.Start != -1 || f.End != -1 {
					t.Errorf("document-level finding with range %d..%d", f.Start, f.End)
				}
				if q != w.quote || f.Severity != w.severity || strings.Join(f.Sources, "+") != w.sources {
					t.Errorf("finding %d: %q %s %s, want %q %s %s", i, q, f.Severity, strings.Join(f.Sources, "+"), w.quote, w.severity, w.sources)
				}
				if f.Confidence < 0 || f.Confidence > 1 {
					t.Errorf("confidence %v", f.Confidence)
				}
				if len(f.Evidence) != len(f.Sources) && !slices.Contains(f.Sources, "model:setup-payoff") {
					t.Errorf("evidence %d for %d sources", len(f.Evidence), len(f.Sources))
				}
			}
		})
	}
}

func TestCombine(t *testing.T) {
	tests := []struct {
		in   []float64
		want float64
	}{
		{nil, 0}, {[]float64{0.5}, 0.5}, {[]float64{0.5, 0.5}, 0.75}, {[]float64{2, -1}, 1}, {[]float64{0.9, 0}, 0.9},
	}
	for _, tt := range tests {
		if got := combine(tt.in); got < tt.want-1e-9 || got > tt.want+1e-9 {
			t.Errorf("combine(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestAnglesForChecks(t *testing.T) {
	tests := []struct {
		in   []string
		want []string
	}{
		{[]string{"continuity", "character", "timeline", "world"}, Angles},
		{[]string{"world"}, []string{AngleWorld}},
		{[]string{"Continuity"}, []string{AngleTimeline, AngleSetup}},
		{[]string{"style", "prose"}, nil},
		{[]string{"payoff", "state"}, []string{AngleCharacter, AngleSetup}},
	}
	for _, tt := range tests {
		if got := anglesForChecks(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("anglesForChecks(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
