// Package monitor is Role C's checking on the agent core: model checkers
// that each look at a text from one angle (timeline, character state,
// world rules, setup and payoff), cross-checked with each other and with
// the deterministic checkers of agent/factcheck, and the runner's gate
// built on the result.
//
// The model checkers only check facts a reader could verify; the prompts
// forbid creative judgement. Their findings quote the text; the quotes
// are located in the checked text robustly (see [Locator]), and a quote
// that cannot be found is kept as a document-level finding rather than
// dropped. A finding confirmed by two angles, or by a deterministic
// checker, is an error; a single model finding is a warning, or a hint
// when its confidence is low. Without an agent model the deterministic
// checkers alone decide, and the report says so.
package monitor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/core"
	"github.com/flowcabal/flowcabal/agent/factcheck"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/textsearch"
)

// Role is the agent role the model checkers run under (one run at a time
// per project, the rest queued; see core.Manager).
const Role = "C"

// Widths returns the lane widths a core.Manager should give Role C: the
// reviews of a workflow's parallel branches then go at once rather than
// one after another (each still asks its angles in turn, unless
// Options.Concurrency says otherwise).
func Widths() map[string]int { return map[string]int{Role: 4} }

// Severity grades a merged finding.
type Severity string

// The severities.
const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
	SeverityHint    Severity = "hint"
)

// Finding is one merged finding.
type Finding struct {
	// Type is the finding's kind: a deterministic type (name, fact,
	// state, world, continuity) when a deterministic checker found it,
	// else the angle of the first model that did (timeline, character,
	// world, setup-payoff).
	Type     string
	Severity Severity
	// Start and End are byte offsets into the checked text, end
	// exclusive; both are -1 when the quote could not be located (a
	// document-level finding, see Located).
	Start, End int
	Located    bool
	// Quote is the located text, or the model's quote when not located.
	Quote   string
	Message string
	// Suggestion replaces [Start, End); a source's fix for another range
	// is in its Evidence.
	Suggestion string
	// Confidence combines the sources' confidences (1 - Π(1-c)).
	Confidence float64
	// Sources name who found it: "check:fact", "model:timeline", …, in
	// the order they were merged, each once.
	Sources  []string
	Evidence []Evidence
}

// Evidence is what one source said the finding rests on.
type Evidence struct {
	// Source is the checker or angle ("check:fact", "model:timeline").
	Source string
	// Fact is the deterministic checker's evidence (zero for a model's).
	Fact *factcheck.Evidence `json:",omitempty"`
	// Note is the model's explanation and evidence text.
	Note string `json:",omitempty"`
	// How says how the model's quote was located (HowExact, HowFuzzy…).
	How string `json:",omitempty"`
	// Resource and Chapter are what a model's evidence cites, when the
	// project has it ("entities/characters/lin", 3); "" and 0 otherwise.
	Resource string `json:",omitempty"`
	Chapter  int    `json:",omitempty"`
	// Suggestion is this source's fix for its own range (Start, End).
	Suggestion string `json:",omitempty"`
	// Start and End are where this source's own quote was located (-1
	// when it was not): merged sources may quote more or less.
	Start, End int
}

// AngleReport says how one model angle went.
type AngleReport struct {
	Angle string
	// Findings is how many findings the angle returned.
	Findings int
	// Unlocated is how many of them could not be located.
	Unlocated int
	// Err says why the angle gave no answer (malformed output twice, a
	// failed call); empty when it answered.
	Err string
}

// Report is the result of one check.
type Report struct {
	// Findings are merged and sorted: located ones by position, then the
	// document-level ones.
	Findings []Finding
	// Angles report the model angles that ran, in order.
	Angles []AngleReport
	// ModelUsed is false when only the deterministic checkers ran.
	ModelUsed bool
	// RunID is the agent run (its steps are in the store's agent log).
	RunID string
	// Notes say what went wrong or was left out: no agent model, an
	// angle that failed, a quote that matched nothing, an absurd offset.
	Notes []string
	// Resolves are the open plot threads the setup/payoff angle says the
	// text pays off, for the author to mark resolved.
	Resolves []Resolution `json:",omitempty"`
}

// Options configure a Monitor. Every field is optional.
type Options struct {
	// Agents runs the model checkers; nil checks deterministically only.
	Agents *core.Manager
	// Store gives the angles their read-only project tools; nil gives
	// them none (they then check against the text alone).
	Store *store.Store
	// Knowledge is the deterministic checkers' knowledge; nil runs none.
	Knowledge *factcheck.Knowledge
	// Folder folds text for quote location (traditional to simplified).
	Folder *textsearch.Folder
	// Previous returns the text of chapter ch ("" if none), for the
	// continuity checker and the angles' input.
	Previous func(ch int) string
	// Budget bounds one check's run over all its angles; zero fields
	// mean 8 steps and 60,000 tokens per angle.
	Budget core.Budget
	// Concurrency is how many angles run at once (default 1: one after
	// the other, the machine's model is usually one endpoint).
	Concurrency int
	// HintBelow is the confidence under which a single model finding is
	// a hint rather than a warning; 0 means 0.5.
	HintBelow float64
	// BlockFrom is the confidence from which a deterministic finding alone
	// is an error (the runner's FactGate uses the same); 0 means 0.6.
	BlockFrom float64
	// FlagFrom is the confidence from which an unconfirmed warning makes
	// the gate flag the output for the author; 0 means 0.8.
	FlagFrom float64
	// Threads are the project's plot threads: the setup/payoff angle is
	// told those open as of the chapter and may say which the text pays
	// off (Report.Resolves).
	Threads []*knowledge.Entity
}

// Monitor runs Role C's checks. It is safe for concurrent use; the agent
// manager queues concurrent model checks in order.
type Monitor struct {
	opts Options
}

// New returns a monitor.
func New(opts Options) *Monitor {
	if opts.Folder == nil {
		opts.Folder = textsearch.NewFolder()
	}
	if opts.HintBelow <= 0 {
		opts.HintBelow = 0.5
	}
	if opts.BlockFrom <= 0 {
		opts.BlockFrom = 0.6
	}
	if opts.FlagFrom <= 0 {
		opts.FlagFrom = 0.8
	}
	return &Monitor{opts: opts}
}

// Request is one text to check.
type Request struct {
	// Text is checked; finding offsets index it.
	Text string
	// Chapter is the manuscript chapter the text is (facts as of it);
	// 0 when unknown.
	Chapter int
	// Angles are the model angles to run; nil runs all of them, an
	// empty list none (deterministic checks only).
	Angles []string
	// Node labels the agent log entries.
	Node string
	// RunID names the agent run of the model angles (its checkpoint and
	// log entries); empty lets the agent core make one. A caller with
	// its own core.Manager on a store another manager also writes gives
	// one, so that two runs started in the same second cannot share a
	// name.
	RunID string
}

// maxAngleFindings bounds the findings taken from one angle: a model in a
// loop must not make the gate locate thousands of quotes.
const maxAngleFindings = 50

// maxModelText bounds the text sent to the angles, in bytes; the rest is
// checked deterministically only (and a note says so).
const maxModelText = 48 << 10

// Check runs the deterministic checkers and, with an agent model, the
// model angles, and merges their findings. Model failures are reported
// in the Report, not as errors: the error is only for a cancelled ctx.
func (m *Monitor) Check(ctx context.Context, req Request) (*Report, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	text := req.Text
	if !utf8.ValidString(text) {
		// Replace byte for byte so offsets stay valid for the caller's text.
		text = validBytes(text)
	}
	rep := &Report{}
	prev := ""
	if m.opts.Previous != nil && req.Chapter >= 1 {
		prev = m.opts.Previous(req.Chapter - 1)
	}
	var det []factcheck.Finding
	if m.opts.Knowledge != nil {
		det = factcheck.Check(text, req.Chapter, m.opts.Knowledge, prev)
	} else {
		rep.Notes = append(rep.Notes, "no project knowledge: the deterministic checkers did not run")
	}

	var model []modelFinding
	angles := req.Angles
	if angles == nil {
		angles = Angles
	}
	var valid []string
	for _, a := range angles {
		if knownAngle(a) {
			valid = append(valid, a)
		} else {
			rep.Notes = append(rep.Notes, fmt.Sprintf("unknown angle %q left out", a))
		}
	}
	switch {
	case m.opts.Agents == nil:
		rep.Notes = append(rep.Notes, "no agent model configured: deterministic checks only")
	case len(valid) == 0:
		rep.Notes = append(rep.Notes, "no model angle asked for: deterministic checks only")
	default:
		if len(text) > maxModelText {
			rep.Notes = append(rep.Notes, fmt.Sprintf("the text is longer than %d KiB: the model angles saw only its beginning", maxModelText>>10))
		}
		var err error
		model, err = m.runAngles(ctx, req, text, valid, rep)
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			rep.Notes = append(rep.Notes, "the model checks failed, deterministic checks only: "+err.Error())
		} else {
			rep.ModelUsed = true
		}
	}
	rep.Findings = m.merge(text, det, model)
	return rep, nil
}

// validBytes replaces each invalid byte with '?' so offsets stay those of
// the original.
func validBytes(s string) string {
	b := []byte(s)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			b[i] = '?'
			i++
			continue
		}
		i += n
	}
	return string(b)
}

// modelFinding is one angle's finding, located.
type modelFinding struct {
	angle      string
	quote      string
	note       string
	suggestion string
	confidence float64
	start, end int
	located    bool
	how        string
	resource   string
	chapter    int
}

// rawFinding is a finding as the schema has it.
type rawFinding struct {
	Quote       string   `json:"quote"`
	Explanation string   `json:"explanation"`
	Evidence    string   `json:"evidence"`
	Suggestion  string   `json:"suggestion"`
	Confidence  float64  `json:"confidence"`
	Offset      *float64 `json:"offset"`
}

func (m *Monitor) runAngles(ctx context.Context, req Request, text string, angles []string, rep *Report) ([]modelFinding, error) {
	var tools []core.Tool
	if m.opts.Store != nil {
		tools = core.ProjectTools(m.opts.Store)
	}
	open := openThreads(m.opts.Threads, req.Chapter)
	agents := make([]*core.Agent, len(angles))
	for i, a := range angles {
		agents[i] = angleAgent(a, tools)
		if a == AngleSetup && len(open) > 0 {
			agents[i].Instructions += "\n" + strings.TrimSpace(resolvesRule)
			agents[i].Schema = setupSchema()
		}
	}
	input := angleInput(req, text)
	if slices.Contains(angles, AngleSetup) {
		input = threadsInput(open) + input
	}
	budget := m.opts.Budget
	if budget.Steps <= 0 {
		budget.Steps = 8 * len(angles)
	}
	if budget.Tokens <= 0 {
		// Every step sends the text again; a chapter is ~15k tokens.
		budget.Tokens = 60_000 * len(angles)
	}
	res, err := m.opts.Agents.Run(ctx, core.Task{
		Role:        Role,
		Parallel:    agents,
		Merge:       func(a []core.SubAnswer) (json.RawMessage, error) { return json.Marshal(a) },
		Concurrency: m.opts.Concurrency,
		Input:       input,
		Budget:      budget,
		Node:        req.Node,
		ID:          req.RunID,
	})
	if err != nil {
		return nil, err
	}
	rep.RunID = res.RunID
	var answers []core.SubAnswer
	if err := json.Unmarshal(res.Answer, &answers); err != nil {
		return nil, fmt.Errorf("the angles' answers: %w", err)
	}
	loc := NewLocator(text, m.opts.Folder)
	var out []modelFinding
	answered := 0
	for _, sa := range answers {
		ar := AngleReport{Angle: sa.Agent, Err: sa.Err}
		if sa.Err != "" {
			rep.Notes = append(rep.Notes, fmt.Sprintf("the %s angle gave no answer: %s", sa.Agent, sa.Err))
			rep.Angles = append(rep.Angles, ar)
			continue
		}
		var ans struct {
			Findings []rawFinding `json:"findings"`
		}
		if err := json.Unmarshal(sa.Answer, &ans); err != nil {
			ar.Err = "answer not readable: " + err.Error()
			rep.Notes = append(rep.Notes, fmt.Sprintf("the %s angle's answer is not readable: %v", sa.Agent, err))
			rep.Angles = append(rep.Angles, ar)
			continue
		}
		answered++
		if sa.Agent == AngleSetup && len(open) > 0 {
			m.resolutions(sa.Answer, text, req.Chapter, open, rep)
		}
		ar.Findings = len(ans.Findings)
		if n := len(ans.Findings); n > maxAngleFindings {
			rep.Notes = append(rep.Notes, fmt.Sprintf("the %s angle returned %d findings; only the first %d are kept", sa.Agent, n, maxAngleFindings))
			ans.Findings = ans.Findings[:maxAngleFindings]
		}
		for _, f := range ans.Findings {
			mf := modelFinding{angle: sa.Agent, quote: f.Quote, suggestion: f.Suggestion,
				confidence: clamp01(f.Confidence), start: -1, end: -1}
			mf.note = strings.TrimSpace(f.Explanation)
			if ev := strings.TrimSpace(f.Evidence); ev != "" {
				mf.note += " (evidence: " + ev + ")"
				var c Evidence
				if n := cite(m.opts.Store, &c, ev); n != "" {
					rep.Notes = append(rep.Notes, "the "+sa.Agent+" angle "+n)
				}
				mf.resource, mf.chapter = c.Resource, c.Chapter
			}
			near := -1
			if f.Offset != nil {
				o := *f.Offset
				if o < 0 || o > float64(utf8.RuneCountInString(text)) || o != float64(int(o)) {
					rep.Notes = append(rep.Notes, fmt.Sprintf("the %s angle gave offset %v outside the text (%d characters); ignored",
						sa.Agent, o, utf8.RuneCountInString(text)))
				} else {
					near = factcheck.ByteOffset(text, int(o))
				}
			}
			s, e, how, ok := loc.Locate(f.Quote, near)
			mf.how = how
			if ok {
				mf.start, mf.end, mf.located = s, e, true
			} else {
				ar.Unlocated++
				rep.Notes = append(rep.Notes, fmt.Sprintf("the %s angle quoted %q, which matches nothing in the text; kept as a document-level finding",
					sa.Agent, shorten(f.Quote, 60)))
			}
			out = append(out, mf)
		}
		rep.Angles = append(rep.Angles, ar)
	}
	if answered == 0 {
		return nil, errors.New("no angle answered")
	}
	return out, nil
}

func clamp01(x float64) float64 {
	if x != x || x < 0 { // NaN or negative
		return 0
	}
	return min(x, 1)
}

func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// angleInput is the observation every angle starts from.
func angleInput(req Request, text string) string {
	var b strings.Builder
	if req.Chapter > 0 {
		fmt.Fprintf(&b, "Check this text as chapter %d of the manuscript (facts as of chapter %d).\n", req.Chapter, req.Chapter)
	} else {
		b.WriteString("Check this text against the story so far.\n")
	}
	if len(text) > maxModelText {
		cut := maxModelText
		for cut > 0 && !utf8.RuneStart(text[cut]) {
			cut--
		}
		text = text[:cut]
		b.WriteString("Only the first part of the text is given.\n")
	}
	b.WriteString("The text is between the lines <<<TEXT and TEXT>>>.\n<<<TEXT\n")
	b.WriteString(text)
	b.WriteString("\nTEXT>>>\n")
	return b.String()
}
