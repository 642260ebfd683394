package monitor

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/flowcabal/flowcabal/agent/factcheck"
	"github.com/flowcabal/flowcabal/knowledge"
)

// TypeThreadResolved is the kind of the finding that proposes marking a
// plot thread resolved at the checked chapter, for the author to accept.
const TypeThreadResolved = "thread-resolved"

// A Resolution is the setup/payoff angle's word that the checked chapter
// pays a plot thread off.
type Resolution struct {
	// Thread is the thread's file ("entities/plot-threads/the-entail.md")
	// and Name its name.
	Thread, Name string
	Opened, Due  int
	// Chapter is the checked chapter: the thread's resolved chapter, if
	// the author accepts.
	Chapter int
	// Quote is the passage that pays it off; Start and End locate it in
	// the checked text (-1 when it could not be).
	Quote      string
	Start, End int
	Located    bool
	Confidence float64
}

// openThreads are the plot threads open as of chapter ch: opened by it
// and not resolved before it.
func openThreads(threads []*knowledge.Entity, ch int) []*knowledge.Entity {
	if ch <= 0 {
		return nil
	}
	var out []*knowledge.Entity
	for _, t := range threads {
		switch t.ThreadStateAt(ch, 0) {
		case knowledge.ThreadOpen, knowledge.ThreadDueSoon, knowledge.ThreadOverdue:
			out = append(out, t)
		}
	}
	return out
}

// threadsInput tells the setup/payoff angle which threads are open.
func threadsInput(open []*knowledge.Entity) string {
	if len(open) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("Plot threads open before this chapter (path: name, opened, due):\n")
	for _, t := range open {
		fmt.Fprintf(&b, "- %s: %s, opened in chapter %d", t.Path, t.Name, t.Opened)
		if t.Due > 0 {
			fmt.Fprintf(&b, ", due by chapter %d", t.Due)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// resolvesRule is added to the setup/payoff angle's instructions when
// threads are open: it may say which of them the text pays off.
const resolvesRule = `
The input lists the plot threads still open. When the text pays one of them off (the promise kept, the secret revealed, the question answered: not a mere mention), add it to "resolves": {"thread": its path as listed, "quote": the exact words that pay it off, "confidence": 0 to 1}. Leave "resolves" empty otherwise.`

// setupSchema is findingsSchema with the threads the text resolves.
func setupSchema() map[string]any {
	props := map[string]any{}
	for k, v := range findingsSchema["properties"].(map[string]any) {
		props[k] = v
	}
	props["resolves"] = map[string]any{
		"type": "array",
		"items": map[string]any{
			"type": "object",
			"properties": map[string]any{
				"thread":     map[string]any{"type": "string", "minLength": 1},
				"quote":      map[string]any{"type": "string"},
				"confidence": map[string]any{"type": "number", "minimum": 0, "maximum": 1},
			},
			"required": []any{"thread", "confidence"},
		},
	}
	return map[string]any{"type": "object", "properties": props, "required": []any{"findings"}}
}

// resolutions reads the threads an angle's answer says the text pays
// off. Only open threads are taken (a model's path is never trusted as
// it is); what is left out is noted.
func (m *Monitor) resolutions(answer json.RawMessage, text string, ch int, open []*knowledge.Entity, rep *Report) {
	var ans struct {
		Resolves []struct {
			Thread     string  `json:"thread"`
			Quote      string  `json:"quote"`
			Confidence float64 `json:"confidence"`
		} `json:"resolves"`
	}
	if json.Unmarshal(answer, &ans) != nil || len(ans.Resolves) == 0 {
		return
	}
	byPath := map[string]*knowledge.Entity{}
	for _, t := range open {
		byPath[t.Path] = t
		byPath[strings.TrimSuffix(t.Path, ".md")] = t
	}
	loc := NewLocator(text, m.opts.Folder)
	seen := map[string]bool{}
	for _, r := range ans.Resolves {
		t := byPath[path.Clean(strings.TrimSpace(r.Thread))]
		if t == nil {
			rep.Notes = append(rep.Notes, fmt.Sprintf("the setup-payoff angle says the text resolves %q, which is no open plot thread; ignored", shorten(r.Thread, 80)))
			continue
		}
		if seen[t.Path] {
			continue
		}
		seen[t.Path] = true
		res := Resolution{Thread: t.Path, Name: t.Name, Opened: t.Opened, Due: t.Due, Chapter: ch, Quote: r.Quote,
			Start: -1, End: -1, Confidence: clamp01(r.Confidence)}
		if r.Quote != "" {
			if s, e, _, ok := loc.Locate(r.Quote, -1); ok {
				res.Start, res.End, res.Located = s, e, true
			}
		}
		rep.Resolves = append(rep.Resolves, res)
	}
}

// ResolutionFindings returns the threads the model says the text pays
// off as findings an editor shows as information, each naming the thread
// file and the chapter to mark it resolved at (Evidence Key "resolved",
// Value the chapter), never blocking anything.
func (r *Report) ResolutionFindings() []factcheck.Finding {
	if r == nil {
		return nil
	}
	var out []factcheck.Finding
	for _, res := range r.Resolves {
		f := factcheck.Finding{Type: TypeThreadResolved, Confidence: min(res.Confidence, 0.4),
			Message:  fmt.Sprintf("this seems to pay off plot thread %q (opened in chapter %d): mark it resolved in chapter %d?", res.Name, res.Opened, res.Chapter),
			Evidence: factcheck.Evidence{Path: res.Thread, Key: "resolved", Value: fmt.Sprint(res.Chapter)}}
		if res.Located {
			f.Start, f.End = res.Start, res.End
		}
		out = append(out, f)
	}
	return out
}
