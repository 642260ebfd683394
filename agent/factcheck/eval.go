package factcheck

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// Case is one planted contradiction of an evaluation file (one JSON object
// per line; the form is in shared/eval/README.md, part B).
type Case struct {
	ID       string `json:"id"`
	Book     string `json:"book"`
	Chapter  int    `json:"chapter"`
	Type     string `json:"type"`
	Original string `json:"original_excerpt"`
	Modified string `json:"modified_excerpt"`
	// Span is the planted text's [start, end) in Modified, in code points.
	Span     [2]int `json:"span"`
	Planted  string `json:"planted"`
	Expected string `json:"expected"`
}

// ReadCases reads a JSON-lines case file. Blank lines are skipped; a bad
// line is an error naming its line number.
func ReadCases(r io.Reader) ([]Case, error) {
	var out []Case
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	line := 0
	for sc.Scan() {
		line++
		b := strings.TrimSpace(sc.Text())
		if b == "" {
			continue
		}
		var c Case
		if err := json.Unmarshal([]byte(b), &c); err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		if c.Span[1] < c.Span[0] || c.Span[1] > utf8.RuneCountInString(c.Modified) {
			return nil, fmt.Errorf("line %d (%s): span %v outside the modified excerpt", line, c.ID, c.Span)
		}
		out = append(out, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("line %d: %w", line+1, err)
	}
	return out, nil
}

// CaseResult is what the checkers said about one case.
type CaseResult struct {
	Case Case
	// Modified and Original are the findings on each excerpt.
	Modified, Original []Finding
	// Hit is set when a finding of the case's type overlaps the span.
	Hit bool
	// Fixed is set for a name case whose quick-fix proposes the expected name.
	Fixed bool
}

// Report is the evaluation of a case file.
type Report struct {
	Results []CaseResult
	// OriginalChars is the number of code points of all originals.
	OriginalChars int
}

// Types are the case types in report order; other types found in a case
// file are appended.
func (r *Report) Types() []string {
	ts := []string{TypeName, TypeFact, TypeState, TypeWorld}
	for _, c := range r.Results {
		if !slices.Contains(ts, c.Case.Type) {
			ts = append(ts, c.Case.Type)
		}
	}
	return ts
}

// Evaluate runs Check on every case's modified and original excerpt as
// text of its chapter. prev returns the previous chapter's text for a
// chapter ("" when unknown).
func Evaluate(cases []Case, k *Knowledge, prev func(chapter int) string) *Report {
	r := &Report{}
	for _, c := range cases {
		p := ""
		if prev != nil {
			p = prev(c.Chapter)
		}
		res := CaseResult{Case: c}
		res.Modified = Check(c.Modified, c.Chapter, k, p)
		res.Original = Check(c.Original, c.Chapter, k, p)
		r.OriginalChars += utf8.RuneCountInString(c.Original)
		want := expectedName(c.Expected)
		for _, f := range res.Modified {
			if f.Type == c.Type && overlaps(c.Modified, f, c.Span) {
				res.Hit = true
				if want != "" && strings.EqualFold(f.Suggestion, want) {
					res.Fixed = true
				}
			}
		}
		r.Results = append(r.Results, res)
	}
	return r
}

func overlaps(text string, f Finding, span [2]int) bool {
	s, e := RuneOffsets(text, f.Start, f.End)
	return s < span[1] && e > span[0]
}

var shouldBe = regexp.MustCompile(`should be ([^\s(]+(?: [^\s(]+)*?) \(`)

// expectedName pulls the right name out of a name case's expectation
// ("misspelled name; should be Kitty (entities/…)").
func expectedName(expected string) string {
	if m := shouldBe.FindStringSubmatch(expected); m != nil {
		return m[1]
	}
	return ""
}

// TypeFigures are the figures of one type.
type TypeFigures struct {
	Cases, Hits         int
	Findings, TruePos   int // findings of this type on modified excerpts, and the true ones
	OnOriginals         int // findings of this type on originals
	Recall, Precision   float64
	NameFixes, NameCase int
}

// Figures computes the per-type figures.
func (r *Report) Figures() map[string]*TypeFigures {
	out := map[string]*TypeFigures{}
	get := func(t string) *TypeFigures {
		if out[t] == nil {
			out[t] = &TypeFigures{}
		}
		return out[t]
	}
	for _, res := range r.Results {
		c := res.Case
		tf := get(c.Type)
		tf.Cases++
		if res.Hit {
			tf.Hits++
		}
		if c.Type == TypeName && expectedName(c.Expected) != "" {
			tf.NameCase++
			if res.Fixed {
				tf.NameFixes++
			}
		}
		for _, f := range res.Modified {
			ff := get(f.Type)
			ff.Findings++
			if f.Type == c.Type && overlaps(c.Modified, f, c.Span) {
				ff.TruePos++
			}
		}
		for _, f := range res.Original {
			get(f.Type).OnOriginals++
		}
	}
	for _, tf := range out {
		if tf.Cases > 0 {
			tf.Recall = float64(tf.Hits) / float64(tf.Cases)
		}
		if tf.Findings > 0 {
			tf.Precision = float64(tf.TruePos) / float64(tf.Findings)
		} else {
			tf.Precision = 1
		}
	}
	return out
}

// Totals returns the overall figures: precision counting findings on the
// originals as false, recall over all cases, and the number of findings
// on the originals.
func (r *Report) Totals() (precision, recall float64, falseOnOriginals int) {
	tp, all, hits := 0, 0, 0
	for _, res := range r.Results {
		if res.Hit {
			hits++
		}
		for _, f := range res.Modified {
			all++
			if f.Type == res.Case.Type && overlaps(res.Case.Modified, f, res.Case.Span) {
				tp++
			}
		}
		all += len(res.Original)
		falseOnOriginals += len(res.Original)
	}
	precision = 1
	if all > 0 {
		precision = float64(tp) / float64(all)
	}
	if len(r.Results) > 0 {
		recall = float64(hits) / float64(len(r.Results))
	}
	return precision, recall, falseOnOriginals
}

// Write prints the report: misses and false findings case by case, the
// per-type table, the type confusion table, the false positives on the
// originals, and the closing line "precision: P recall: R
// false-positives: F".
func (r *Report) Write(w io.Writer) {
	for _, res := range r.Results {
		c := res.Case
		if !res.Hit {
			fmt.Fprintf(w, "MISS  %s (%s, ch.%d): planted %q\n", c.ID, c.Type, c.Chapter, c.Planted)
		}
		for _, f := range res.Modified {
			if f.Type == c.Type && overlaps(c.Modified, f, c.Span) {
				continue
			}
			s, e := RuneOffsets(c.Modified, f.Start, f.End)
			fmt.Fprintf(w, "FALSE %s modified [%d,%d) %s %q: %s\n", c.ID, s, e, f.Type, c.Modified[f.Start:f.End], f.Message)
		}
		for _, f := range res.Original {
			s, e := RuneOffsets(c.Original, f.Start, f.End)
			fmt.Fprintf(w, "FALSE %s original [%d,%d) %s %q: %s\n", c.ID, s, e, f.Type, c.Original[f.Start:f.End], f.Message)
		}
	}
	figs := r.Figures()
	types := r.Types()
	for t := range figs {
		if !slices.Contains(types, t) {
			types = append(types, t)
		}
	}
	fmt.Fprintf(w, "\n%-11s %6s %6s %7s %9s %10s %9s\n", "type", "cases", "hits", "recall", "findings", "precision", "originals")
	for _, t := range types {
		f := figs[t]
		if f == nil {
			f = &TypeFigures{Precision: 1}
		}
		fmt.Fprintf(w, "%-11s %6d %6d %7.2f %9d %10.2f %9d\n", t, f.Cases, f.Hits, f.Recall, f.Findings, f.Precision, f.OnOriginals)
	}
	if f := figs[TypeName]; f != nil && f.NameCase > 0 {
		fmt.Fprintf(w, "name quick-fixes proposing the expected name: %d/%d\n", f.NameFixes, f.NameCase)
	}
	// Confusion: rows are case types, columns finding types over the span.
	fmt.Fprintf(w, "\ntype confusion (cases whose span a finding of the column's type overlaps)\n%-11s", "case\\found")
	for _, t := range types {
		fmt.Fprintf(w, " %10s", t)
	}
	fmt.Fprintln(w)
	for _, row := range types {
		fmt.Fprintf(w, "%-11s", row)
		for _, col := range types {
			n := 0
			for _, res := range r.Results {
				if res.Case.Type != row {
					continue
				}
				for _, f := range res.Modified {
					if f.Type == col && overlaps(res.Case.Modified, f, res.Case.Span) {
						n++
						break
					}
				}
			}
			fmt.Fprintf(w, " %10d", n)
		}
		fmt.Fprintln(w)
	}
	p, rc, fp := r.Totals()
	per10k := 0.0
	if r.OriginalChars > 0 {
		per10k = float64(fp) * 10000 / float64(r.OriginalChars)
	}
	fmt.Fprintf(w, "\nfalse positives on %d originals (%d chars): %d", len(r.Results), r.OriginalChars, fp)
	for _, t := range types {
		if f := figs[t]; f != nil && f.OnOriginals > 0 {
			fmt.Fprintf(w, ", %s %d", t, f.OnOriginals)
		}
	}
	per20 := 0.0
	if len(r.Results) > 0 {
		per20 = float64(fp) * 20 / float64(len(r.Results))
	}
	fmt.Fprintf(w, "; %.2f per 10k chars; %.2f per 20 originals\n", per10k, per20)
	fmt.Fprintf(w, "precision: %.2f recall: %.2f false-positives: %d\n", p, rc, fp)
}
