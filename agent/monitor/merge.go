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
	// confs is each source's confidence: the highest it gave, as one
	// source saying a thing twice is not two witnesses.
	confs map[string]float64
}

func (it *item) witness(source string, c float64) {
	if it.confs == nil {
		it.confs = map[string]float64{}
	}
	it.confs[source] = max(it.confs[source], clamp01(c))
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
	return len(it.angles) > 0 || it.confirmedBy(angle)
}

// confirmedBy reports whether a deterministic checker of a type
// compatible with angle found the item.
func (it *item) confirmedBy(angle string) bool {
	for _, t := range it.det {
		if slices.Contains(compatible[angle], t) {
			return true
		}
	}
	return false
}

// bestOverlap returns the item mf overlaps most among those that accept
// it: with det, only items a compatible deterministic checker found.
func bestOverlap(items []*item, mf modelFinding, det bool) *item {
	if !mf.located {
		return nil
	}
	var best *item
	most := 0
	for _, it := range items {
		if !it.f.Located || (det && !it.confirmedBy(mf.angle)) || (!det && !it.accepts(mf.angle)) {
			continue
		}
		if o := overlap(it.f.Start, it.f.End, mf.start, mf.end); o > most {
			best, most = it, o
		}
	}
	return best
}

// add merges a model finding into the item.
func (it *item) add(mf modelFinding) {
	it.addSource(SourceModel(mf.angle))
	if !slices.Contains(it.angles, mf.angle) {
		it.angles = append(it.angles, mf.angle)
	}
	it.witness(SourceModel(mf.angle), mf.confidence)
	ev := Evidence{Source: SourceModel(mf.angle), Note: mf.note, How: mf.how,
		Suggestion: mf.suggestion, Start: mf.start, End: mf.end, Resource: mf.resource, Chapter: mf.chapter}
	if !slices.ContainsFunc(it.f.Evidence, func(e Evidence) bool {
		return e.Source == ev.Source && e.Start == ev.Start && e.End == ev.End && e.Note == ev.Note && e.Suggestion == ev.Suggestion
	}) {
		it.f.Evidence = append(it.f.Evidence, ev)
	}
	// A fix applies to the range it was written for.
	if it.f.Suggestion == "" && it.f.Start == mf.start && it.f.End == mf.end {
		it.f.Suggestion = mf.suggestion
	}
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
			Evidence: []Evidence{{Source: SourceCheck(d.Type), Fact: &ev, Start: s, End: e}}},
			det: []string{d.Type}}
		it.addSource(SourceCheck(d.Type))
		it.witness(SourceCheck(d.Type), d.Confidence)
		items = append(items, it)
	}
	// First the model findings a deterministic checker confirms, then the
	// rest, which may confirm each other: a finding of one angle must not
	// take the span a deterministic finding and another angle share.
	var rest []modelFinding
	for _, mf := range model {
		if it := bestOverlap(items, mf, true); it != nil {
			it.add(mf)
		} else {
			rest = append(rest, mf)
		}
	}
	for _, mf := range rest {
		it := bestOverlap(items, mf, false)
		if it == nil {
			f := Finding{Type: mf.angle, Start: -1, End: -1, Quote: mf.quote, Message: mf.note}
			if mf.located {
				f.Start, f.End, f.Located, f.Quote = mf.start, mf.end, true, text[mf.start:mf.end]
			}
			it = &item{f: f}
			items = append(items, it)
		}
		it.add(mf)
	}
	out := make([]Finding, 0, len(items))
	for _, it := range items {
		cs := make([]float64, 0, len(it.confs))
		for _, src := range it.f.Sources {
			cs = append(cs, it.confs[src])
		}
		it.f.Confidence = combine(cs)
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
