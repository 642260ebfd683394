package monitor

import (
	"context"
	"fmt"
	"strings"

	"github.com/flowcabal/flowcabal/agent/core"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/workflowlang"
)

var _ core.Gate = (*Monitor)(nil)

// Decision is the gate's verdict with the report it rests on.
type Decision struct {
	core.Verdict
	// Confidence is how sure the gate is of its decision: for a retry or
	// a flag, the highest confidence among the findings behind it; for an
	// approval, 1 minus the highest confidence of what it let through.
	Confidence float64
	Report     *Report
}

// Review implements core.Gate: it checks output as the chapter the node
// persists to, with the angles its `checks` attribute asks for, and
// approves, asks for a retry with the findings as feedback (when any is
// an error), or flags the output for the author (when a finding only one
// checker saw is confident, FlagFrom or more).
// A node without `checks` is approved unchecked, as by core.FactGate.
func (m *Monitor) Review(ctx context.Context, node *workflowlang.Node, output string, attempt int) (core.Verdict, error) {
	d, err := m.Decide(ctx, node, output, attempt)
	if err != nil {
		return core.Verdict{}, err
	}
	return d.Verdict, nil
}

// Decide is Review with the confidence and the report, for callers that
// show the findings (the server's diagnostics).
func (m *Monitor) Decide(ctx context.Context, node *workflowlang.Node, output string, attempt int) (*Decision, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	checks, asked := nodeChecks(node)
	if !asked {
		return &Decision{Verdict: core.Verdict{Decision: core.Approve, Reasons: []string{"no checks asked for"}}, Confidence: 1}, nil
	}
	req := Request{Text: output, Chapter: nodeChapter(node), Angles: anglesForChecks(checks)}
	if node != nil {
		req.Node = node.Name.Name
	}
	if req.Angles == nil {
		req.Angles = []string{}
	}
	rep, err := m.Check(ctx, req)
	if err != nil {
		return nil, err
	}
	return m.decide(output, rep, attempt), nil
}

// decide turns a report into a verdict.
func (m *Monitor) decide(text string, rep *Report, attempt int) *Decision {
	d := &Decision{Report: rep}
	var errs, flags, rest []Finding
	for _, f := range rep.Findings {
		switch {
		case f.Severity == SeverityError:
			errs = append(errs, f)
		case f.Severity == SeverityWarning && f.Confidence >= m.opts.FlagFrom:
			flags = append(flags, f)
		default:
			rest = append(rest, f)
		}
	}
	how := "deterministic and model checks"
	if !rep.ModelUsed {
		how = "deterministic checks only"
	}
	var reasons []string
	for _, n := range rep.Notes {
		reasons = append(reasons, "note: "+n)
	}
	switch {
	case len(errs) > 0:
		d.Decision = core.Retry
		d.Confidence = maxConfidence(errs)
		lines := make([]string, 0, len(errs)+len(flags))
		for _, f := range append(errs, flags...) {
			lines = append(lines, describe(f))
		}
		d.Reasons = append([]string{fmt.Sprintf("retry (attempt %d): %d error(s) found by %s", attempt, len(errs), how)}, lines...)
		d.Feedback = "The fact checks found these contradictions with the story so far; fix them and change nothing else:\n" +
			strings.Join(lines, "\n")
	case len(flags) > 0:
		d.Decision = core.Flag
		d.Confidence = maxConfidence(flags)
		lines := make([]string, 0, len(flags))
		for _, f := range flags {
			lines = append(lines, describe(f))
		}
		d.Reasons = append([]string{fmt.Sprintf("flagged: %d confident finding(s) only one checker saw (%s); the author decides", len(flags), how)}, lines...)
		d.Feedback = "One checker found these possible contradictions that no other confirmed; please review:\n" + strings.Join(lines, "\n")
	default:
		d.Decision = core.Approve
		d.Confidence = 1 - maxConfidence(rest)
		if len(rest) == 0 {
			d.Reasons = []string{"approved: " + how + " found nothing"}
		} else {
			d.Reasons = []string{fmt.Sprintf("approved: %s found only %d unconfirmed warning(s) or hint(s)", how, len(rest))}
			for _, f := range rest {
				d.Reasons = append(d.Reasons, describe(f))
			}
		}
	}
	d.Reasons = append(d.Reasons, reasons...)
	return d
}

func maxConfidence(fs []Finding) float64 {
	c := 0.0
	for _, f := range fs {
		c = max(c, f.Confidence)
	}
	return c
}

// describe is one line of feedback: the quote, what is wrong, the fix,
// and who found it how surely.
func describe(f Finding) string {
	var b strings.Builder
	fmt.Fprintf(&b, "- %s %s", f.Severity, f.Type)
	if f.Located {
		fmt.Fprintf(&b, ": «%s»", shorten(f.Quote, 80))
	} else {
		fmt.Fprintf(&b, " (somewhere in the text; quoted as «%s»)", shorten(f.Quote, 80))
	}
	fmt.Fprintf(&b, " — %s", f.Message)
	if f.Suggestion != "" {
		fmt.Fprintf(&b, " Suggested: «%s».", shorten(f.Suggestion, 80))
	}
	fmt.Fprintf(&b, " [%s, confidence %.2f]", strings.Join(f.Sources, "+"), f.Confidence)
	return b.String()
}

// nodeChecks returns the node's `checks` list and whether it has one.
func nodeChecks(n *workflowlang.Node) ([]string, bool) {
	if n == nil {
		return nil, false
	}
	a := n.Attr("checks")
	if a == nil {
		return nil, false
	}
	l, ok := a.Value.(*workflowlang.ListValue)
	if !ok || len(l.Elems) == 0 {
		return nil, false
	}
	var out []string
	for _, e := range l.Elems {
		out = append(out, valueText(e))
	}
	return out, true
}

// nodeChapter is the chapter the node persists to, 0 when none.
func nodeChapter(n *workflowlang.Node) int {
	if n == nil {
		return 0
	}
	a := n.Attr("persist")
	if a == nil {
		return 0
	}
	ch, _ := knowledge.ChapterNumber(valueText(a.Value))
	return ch
}

func valueText(v workflowlang.Value) string {
	switch x := v.(type) {
	case *workflowlang.StringValue:
		return x.Value
	case *workflowlang.WordValue:
		return x.Name
	case *workflowlang.NumberValue:
		return x.Text
	}
	return ""
}
