package monitor

import (
	"strings"

	"github.com/flowcabal/flowcabal/agent/factcheck"
)

// ModelFindings returns what the model angles found, in the shape of the
// deterministic checkers' findings so that an editor shows both alike:
// the findings a model took part in (those a deterministic checker alone
// made are left out: factcheck.Check gives them), located ones with
// their range, unlocated ones at offset 0 with an empty range and the
// model's quote in the message. The severity the cross-check gave shows
// in the confidence: an error at least 0.8, a hint at most 0.4.
func (r *Report) ModelFindings() []factcheck.Finding {
	if r == nil {
		return nil
	}
	var out []factcheck.Finding
	for _, f := range r.Findings {
		model := false
		for _, src := range f.Sources {
			model = model || strings.HasPrefix(src, "model:")
		}
		if !model {
			continue
		}
		ff := factcheck.Finding{Type: f.Type, Start: f.Start, End: f.End, Message: f.Message, Suggestion: f.Suggestion, Confidence: f.Confidence}
		if !f.Located || f.Start < 0 || f.End < f.Start {
			ff.Start, ff.End, ff.Message = 0, 0, f.Message+" (quoted: «"+f.Quote+"»)"
			ff.Suggestion = "" // it has no range to replace
		}
		for _, ev := range f.Evidence {
			if ev.Fact != nil {
				ff.Evidence = *ev.Fact
			} else if ev.Resource != "" && ff.Evidence.Path == "" {
				ff.Evidence.Path = ev.Resource + ".md"
			}
		}
		switch f.Severity {
		case SeverityError:
			ff.Confidence = max(ff.Confidence, 0.8)
		case SeverityHint:
			ff.Confidence = min(ff.Confidence, 0.4)
		}
		out = append(out, ff)
	}
	return append(out, r.ResolutionFindings()...)
}
