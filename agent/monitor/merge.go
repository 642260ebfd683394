package monitor

import (
	"cmp"
	"slices"

	"github.com/flowcabal/flowcabal/agent/factcheck"
)

// compatible lists, for each angle, the deterministic finding types that
// speak of the same thing and so may confirm its findings.
var compatible = map[string][]string{
	AngleTimeline:  {factcheck.TypeFact, factcheck.TypeContinuity},
	AngleCharacter: {factcheck.TypeState, factcheck.TypeFact, factcheck.TypeName},
	AngleWorld:     {factcheck.TypeWorld},
	AngleSetup:     {factcheck.TypeContinuity, factcheck.TypeFact},
}

// SourceCheck and SourceModel name a finding's sources.
func SourceCheck(typ string) string   { return "check:" + typ }
func SourceModel(angle string) string { return "model:" + angle }

type item struct {
	f      Finding
	det    []string // deterministic types merged in
	angles []string // model angles merged in
	confs  []float64
}

func (it *item) addSource(s string) {
	if !slices.Contains(it.f.Sources, s) {
		it.f.Sources = append(it.f.Sources, s)
	}
}

// accepts reports whether a located finding of angle may be merged into
// it: any other model angle agrees on the span, or a deterministic
// checker of a compatible type does.
func (it *item) accepts(angle string) bool {
	if len(it.angles) > 0 {
		return true
	}
	for _, t := range it.det {
		if slices.Contains(compatible[angle], t) {
			return true
		}
	}
	return false
}

func overlap(s1, e1, s2, e2 int) int {
	if e1 == s1 { // an empty range overlaps what contains it
		e1++
	}
	if e2 == s2 {
		e2++
	}
	return min(e1, e2) - max(s1, s2)
}

// merge cross-checks the deterministic and model findings into one list
// and grades each.
func (m *Monitor) merge(text string, det []factcheck.Finding, model []modelFinding) []Finding {
	var items []*item
	for _, d := range det {
		s, e := clampRange(text, d.Start, d.End)
		ev := d.Evidence
		it := &item{f: Finding{Type: d.Type, Start: s, End: e, Located: true, Quote: text[s:e],
			Message: d.Message, Suggestion: d.Suggestion,
			Evidence: []Evidence{{Source: SourceCheck(d.Type), Fact: &ev}}},
			det: []string{d.Type}, confs: []float64{clamp01(d.Confidence)}}
		it.addSource(SourceCheck(d.Type))
		items = append(items, it)
	}
	for _, mf := range model {
		ev := Evidence{Source: SourceModel(mf.angle), Note: mf.note, How: mf.how}
		var best *item
		if mf.located {
			bestOverlap := 0
			for _, it := range items {
				if !it.f.Located || !it.accepts(mf.angle) {
					continue
				}
				if o := overlap(it.f.Start, it.f.End, mf.start, mf.end); o > bestOverlap {
					best, bestOverlap = it, o
				}
			}
		}
		if best == nil {
			f := Finding{Type: mf.angle, Start: -1, End: -1, Quote: mf.quote, Message: mf.note,
				Suggestion: mf.suggestion}
			if mf.located {
				f.Start, f.End, f.Located, f.Quote = mf.start, mf.end, true, text[mf.start:mf.end]
			}
			best = &item{f: f}
			items = append(items, best)
		}
		best.addSource(SourceModel(mf.angle))
		if !slices.Contains(best.angles, mf.angle) {
			best.angles = append(best.angles, mf.angle)
		}
		best.confs = append(best.confs, mf.confidence)
		best.f.Evidence = append(best.f.Evidence, ev)
		if best.f.Suggestion == "" {
			best.f.Suggestion = mf.suggestion
		}
	}
	out := make([]Finding, 0, len(items))
	for _, it := range items {
		it.f.Confidence = combine(it.confs)
		it.f.Severity = m.grade(it)
		out = append(out, it.f)
	}
	slices.SortStableFunc(out, func(a, b Finding) int {
		if a.Located != b.Located {
			if a.Located {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(a.Start, b.Start); c != 0 {
			return c
		}
		return cmp.Compare(a.End, b.End)
	})
	return out
}

// grade applies the cross-check rules: two sources make an error; a
// deterministic finding alone is an error when confident; a model alone
// is at most a warning, a hint when unsure.
func (m *Monitor) grade(it *item) Severity {
	if len(it.f.Sources) >= 2 {
		return SeverityError
	}
	c := it.f.Confidence
	if len(it.det) > 0 {
		if c >= m.opts.BlockFrom {
			return SeverityError
		}
		return SeverityWarning
	}
	if c < m.opts.HintBelow {
		return SeverityHint
	}
	return SeverityWarning
}

// combine is the chance that at least one source is right, taking them
// as independent.
func combine(cs []float64) float64 {
	miss := 1.0
	for _, c := range cs {
		miss *= 1 - clamp01(c)
	}
	return 1 - miss
}

func clampRange(text string, s, e int) (int, int) {
	s = min(max(s, 0), len(text))
	e = min(max(e, s), len(text))
	return s, e
}
