package monitor

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/agent/core"
	"github.com/flowcabal/flowcabal/agent/factcheck"
	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/workflowlang"
)

const projectDir = "../../testdata/monitor/project"

// outputEN is a draft of chapter 3 with planted problems: a telephone
// (a world rule), Frederick speaking after his death (state), a gold
// locket that chapter 1 made silver (setup/payoff, only a model sees it).
const outputEN = "Margaret Hale waited at the window of the parlour in December. Mr. Hale telephoned the doctor at once. " +
	"“I shall be home by Christmas,” said Frederick, stepping off the London coach. She touched the gold locket at her throat."

// copyProject copies the test project into a temporary directory, so the
// store's files are written there.
func copyProject(t testing.TB) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(projectDir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(projectDir, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

type harness struct {
	dir string
	srv *llmtest.Server
	st  *store.Store
	k   *factcheck.Knowledge
	p   *knowledge.Project
	m   *core.Manager
	mon *Monitor
}

// newHarness opens a real store over a copy of the test project, starts
// the scripted server (nil script: no agent model at all) and builds a
// Monitor on them.
func newHarness(t *testing.T, script *llmtest.Script, opts Options) *harness {
	t.Helper()
	h := &harness{dir: copyProject(t)}
	st, err := store.Open(context.Background(), h.dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	h.st = st
	p, errs := knowledge.LoadProject(h.dir)
	if len(errs) > 0 {
		t.Fatalf("load project: %v", errs)
	}
	h.p = p
	h.k = factcheck.FromProject(p, folder)
	opts.Knowledge, opts.Folder, opts.Store = h.k, folder, st
	opts.Previous = func(ch int) string {
		if d := p.Chapter(ch); d != nil {
			return d.Body
		}
		return ""
	}
	if script != nil {
		if script.Default == nil {
			script.Default = &llmtest.Reply{Content: `{"findings":[]}`}
		}
		h.srv = llmtest.New(t, *script)
		c, err := llm.New(llm.Config{Name: "agent", BaseURL: h.srv.URL, Model: "agent-model"},
			llm.Options{Retry: llm.RetryPolicy{MaxRetries: -1}, Getenv: func(string) string { return "" }})
		if err != nil {
			t.Fatal(err)
		}
		m, err := core.NewManager(core.Options{Client: c, Store: st})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(m.Close)
		h.m = m
		opts.Agents = m
	}
	h.mon = New(opts)
	return h
}

// angle matches the requests of one angle by its system prompt.
func angle(name string) *llmtest.Match { return &llmtest.Match{System: "the " + name + " checker"} }

func reply(name, content string) llmtest.Reply {
	return llmtest.Reply{Match: angle(name), Content: content}
}

// scriptEN answers the planted problems of outputEN from every angle; the
// timeline angle looks Frederick up first.
func scriptEN() *llmtest.Script {
	return &llmtest.Script{Replies: []llmtest.Reply{
		{Match: angle("timeline"), ToolCalls: []llmtest.ToolCall{{Name: "entity_facts", Arguments: `{"entity":"Frederick","chapter":3}`}}},
		reply("timeline", `{"findings":[
			{"quote":"\"I shall be home by Christmas,\" said Frederick","explanation":"Frederick drowned in chapter 2, in October.","evidence":"entities/characters/frederick-hale","suggestion":"","confidence":0.7},
			{"quote":"waited at the window of the parlour in december","explanation":"Perhaps too late in the year.","confidence":0.3}]}`),
		reply("character state", "```json\n"+`{"findings":[{"quote":"said Frederick","explanation":"Frederick is dead as of chapter 3.","evidence":"entities/characters/frederick-hale","suggestion":"said Mr. Hale","confidence":0.9}]}`+"\n```"),
		reply("world rules", `{"findings":[{"quote":"Mr Hale telephoned the doctor","explanation":"No telephone in the 1820s.","evidence":"meta/world-rules.md","suggestion":"Mr. Hale sent for the doctor","confidence":0.95}]}`),
		reply("setup and payoff", `{"findings":[{"quote":"She touched the gold locket","explanation":"Chapter 1 made the locket silver.","evidence":"chapter 1: Her brother Frederick gave her a silver locket","suggestion":"She touched the silver locket","confidence":0.6}]}`),
	}}
}

func findingAt(fs []Finding, text, quote string) *Finding {
	for i := range fs {
		if fs[i].Located && strings.Contains(text[fs[i].Start:fs[i].End], quote) {
			return &fs[i]
		}
	}
	return nil
}

func TestAnglesEnglish(t *testing.T) {
	h := newHarness(t, scriptEN(), Options{})
	rep, err := h.mon.Check(context.Background(), Request{Text: outputEN, Chapter: 3, Node: "draft"})
	if err != nil {
		t.Fatal(err)
	}
	if !rep.ModelUsed || rep.RunID == "" {
		t.Fatalf("model not used: %+v", rep)
	}
	var got []string
	for _, a := range rep.Angles {
		got = append(got, a.Angle)
		if a.Err != "" {
			t.Errorf("angle %s failed: %s", a.Angle, a.Err)
		}
	}
	if !slices.Equal(got, Angles) {
		t.Errorf("angles %v, want %v", got, Angles)
	}

	tests := []struct {
		quote    string // occurs in the finding's range
		severity Severity
		sources  []string
		typ      string
	}{
		{"telephoned", SeverityError, []string{"check:world", "model:world"}, "world"},
		{"Frederick", SeverityError, []string{"check:state", "model:character", "model:timeline"}, "state"},
		{"gold locket", SeverityWarning, []string{"model:setup-payoff"}, "setup-payoff"},
		{"in December", SeverityHint, []string{"model:timeline"}, "timeline"},
	}
	for _, tt := range tests {
		f := findingAt(rep.Findings, outputEN, tt.quote)
		if f == nil {
			t.Errorf("no finding at %q in %+v", tt.quote, rep.Findings)
			continue
		}
		if f.Severity != tt.severity || !slices.Equal(f.Sources, tt.sources) || f.Type != tt.typ {
			t.Errorf("%q: %s %s %v, want %s %s %v", tt.quote, f.Severity, f.Type, f.Sources, tt.severity, tt.typ, tt.sources)
		}
	}
	if f := findingAt(rep.Findings, outputEN, "gold locket"); f != nil {
		if f.Suggestion != "She touched the silver locket" || !strings.Contains(f.Message, "silver") || f.Evidence[0].How != HowExact {
			t.Errorf("setup finding lacks its fix, explanation or how: %+v", f)
		}
	}
	// A model's fix for its own wider quote is not offered for the
	// deterministic checker's narrower range; it stays in its evidence.
	if f := findingAt(rep.Findings, outputEN, "Frederick"); f != nil {
		if f.Suggestion != "" || outputEN[f.Start:f.End] != "Frederick" || f.Evidence[1].Suggestion != "said Mr. Hale" ||
			outputEN[f.Evidence[1].Start:f.Evidence[1].End] != "said Frederick" {
			t.Errorf("Frederick finding: suggestion %q, evidence %+v", f.Suggestion, f.Evidence)
		}
	}
	if f := findingAt(rep.Findings, outputEN, "telephoned"); f != nil {
		if f.Evidence[0].Fact == nil || f.Evidence[0].Fact.Path != "meta/world-rules.md" || f.Evidence[1].How != HowFolded {
			t.Errorf("world finding evidence: %+v", f.Evidence)
		}
		if f.Confidence < 0.99 {
			t.Errorf("combined confidence %.3f, want ≥ 0.99 (0.95 and 0.95)", f.Confidence)
		}
	}
	// Every located range is inside the text and the findings are sorted.
	for i, f := range rep.Findings {
		if f.Located && (f.Start < 0 || f.End > len(outputEN) || f.Start >= f.End) {
			t.Errorf("bad range %d..%d", f.Start, f.End)
		}
		if i > 0 && f.Located && rep.Findings[i-1].Start > f.Start {
			t.Errorf("findings out of order at %d", i)
		}
	}

	// The requests: one run per angle with its own instructions, the
	// no-creative-judgement rule, the schema, the tools; the tool result
	// went back to the timeline angle.
	reqs := h.srv.Requests()
	seen := map[string]bool{}
	for _, r := range reqs {
		sys := r.Messages[0].Content
		for _, a := range []string{"timeline", "character state", "world rules", "setup and payoff"} {
			if strings.Contains(sys, "the "+a+" checker") {
				seen[a] = true
			}
		}
		if !strings.Contains(sys, "You never judge style, quality") || !strings.Contains(sys, `"required":["findings"]`) {
			t.Errorf("system prompt lacks the rules or the schema: %.200s", sys)
		}
		if !strings.Contains(r.LastUser(), "as chapter 3") && r.Messages[len(r.Messages)-1].Role == "user" {
			t.Errorf("input lacks the chapter: %.200s", r.LastUser())
		}
		if len(r.Tools) != 5 {
			t.Errorf("%d tools offered, want the 5 project tools", len(r.Tools))
		}
	}
	if len(seen) != 4 {
		t.Errorf("angles asked: %v", seen)
	}
	if len(reqs) != 5 {
		t.Errorf("%d requests, want 5 (timeline twice)", len(reqs))
	}
	toolBack := false
	for _, r := range reqs {
		for _, m := range r.Messages {
			if m.Role == "tool" && strings.Contains(m.Content, `"status":"dead"`) {
				toolBack = true
			}
		}
	}
	if !toolBack {
		t.Errorf("the entity_facts result (Frederick dead as of chapter 3) did not go back to the model")
	}
}

// TestAgentLogShowsEachAngle: issue 12 asks that the agent log after a
// Role C check shows each angle's steps.
func TestAgentLogShowsEachAngle(t *testing.T) {
	h := newHarness(t, scriptEN(), Options{})
	rep, err := h.mon.Check(context.Background(), Request{Text: outputEN, Chapter: 3, Node: "draft"})
	if err != nil {
		t.Fatal(err)
	}
	log, err := h.st.Log(store.LogQuery{RunID: rep.RunID})
	if err != nil {
		t.Fatal(err)
	}
	models := map[string]int{}
	tools := map[string][]string{}
	for _, e := range log {
		if e.Role != Role || e.Node != "draft" {
			t.Errorf("entry role %q node %q", e.Role, e.Node)
		}
		switch {
		case e.Tool != "":
			tools[e.Agent] = append(tools[e.Agent], e.Tool+":"+e.Status)
		case e.Model != "":
			models[e.Agent]++
		}
	}
	want := map[string]int{AngleTimeline: 2, AngleCharacter: 1, AngleWorld: 1, AngleSetup: 1}
	for a, n := range want {
		if models[a] != n {
			t.Errorf("angle %s: %d model steps in the log, want %d (all: %v)", a, models[a], n, models)
		}
	}
	if !slices.Equal(tools[AngleTimeline], []string{"entity_facts:ok"}) || len(tools) != 1 {
		t.Errorf("tool steps %v, want the timeline angle's entity_facts", tools)
	}
}

// zhOutput is traditional, as the corpus is; the model quotes it in
// simplified, with other punctuation.
const zhOutput = "林黛玉拋父進京都。次日，面謀之如海．如海道：“天緣湊巧，因賤荊去世，都中家岳母念及小女無人依傍教育。”黛玉住進了怡紅院。"

func TestLooseQuotesChinese(t *testing.T) {
	h := newHarness(t, &llmtest.Script{Replies: []llmtest.Reply{
		reply("character state", `{"findings":[{"quote":"黛玉住进了怡红院","explanation":"黛玉的住处是潇湘馆。","evidence":"entities/characters/lin-daiyu","suggestion":"黛玉住進了瀟湘館","confidence":0.8}]}`),
		reply("timeline", `{"findings":[{"quote":"因贱荆去世, 都中家岳母念及小女无人依傍教育","explanation":"test","confidence":0.4}]}`),
		reply("setup and payoff", `{"findings":[{"quote":"天缘凑巧因贱荆去逝","explanation":"test, one character changed","confidence":0.4}]}`),
	}}, Options{})
	rep, err := h.mon.Check(context.Background(), Request{Text: zhOutput, Chapter: 3})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ angle, want, how string }{
		{"model:character", "黛玉住進了怡紅院", HowFolded},
		{"model:timeline", "因賤荊去世，都中家岳母念及小女無人依傍教育", HowFolded},
		{"model:setup-payoff", "天緣湊巧，因賤荊去世", HowFuzzy},
	}
	for _, tt := range tests {
		var ev *Evidence
		for _, f := range rep.Findings {
			for i := range f.Evidence {
				if f.Evidence[i].Source == tt.angle {
					ev = &f.Evidence[i]
				}
			}
		}
		if ev == nil || ev.Start < 0 {
			t.Errorf("%s: not located: %+v", tt.angle, rep.Findings)
			continue
		}
		if got := zhOutput[ev.Start:ev.End]; got != tt.want || ev.How != tt.how {
			t.Errorf("%s: located %q (%s), want %q (%s)", tt.angle, got, ev.How, tt.want, tt.how)
		}
	}
	if f := findingAt(rep.Findings, zhOutput, "怡紅院"); f == nil || f.Suggestion != "黛玉住進了瀟湘館" || f.Severity != SeverityWarning {
		t.Errorf("character finding: %+v", f)
	}
	// The timeline and setup angles overlap on 因賤荊去世: two angles agree.
	both := 0
	for _, f := range rep.Findings {
		if slices.Contains(f.Sources, "model:timeline") && slices.Contains(f.Sources, "model:setup-payoff") {
			both++
			if f.Severity != SeverityError {
				t.Errorf("two angles on one span: %s, want error", f.Severity)
			}
		}
	}
	if both != 1 {
		t.Errorf("%d merged timeline+setup findings, want 1: %+v", both, rep.Findings)
	}
}

func TestMalformedModelOutput(t *testing.T) {
	h := newHarness(t, &llmtest.Script{Replies: []llmtest.Reply{
		// Not JSON, twice: the angle fails after its repair round.
		{Match: angle("timeline"), Content: "I think the chapter is fine.", Times: 2},
		// Wrong schema, then repaired.
		reply("character state", `{"findings":[{"quote":"said Frederick"}]}`),
		reply("character state", `{"findings":[{"quote":"said Frederick","explanation":"dead","confidence":0.9}]}`),
		// A quote that matches nothing, an absurd offset, a fractional one.
		reply("world rules", `{"findings":[
			{"quote":"the airship landed on the lawn","explanation":"no airships","confidence":0.9,"offset":-5},
			{"quote":"telephoned","explanation":"no telephones","confidence":0.9,"offset":99999999,"evidence":"entities/characters/nobody.md"},
			{"quote":"Margaret Hale waited","explanation":"invented","confidence":0.2,"evidence":"chapter 99: she left","offset":0}]}`),
		// Valid JSON of the wrong shape, twice.
		{Match: angle("setup and payoff"), Content: `["nothing"]`, Times: 2},
	}}, Options{})
	rep, err := h.mon.Check(context.Background(), Request{Text: outputEN, Chapter: 3})
	if err != nil {
		t.Fatal(err)
	}
	errs := map[string]string{}
	for _, a := range rep.Angles {
		errs[a.Angle] = a.Err
	}
	if !strings.Contains(errs[AngleTimeline], "not JSON") || !strings.Contains(errs[AngleSetup], "schema") {
		t.Errorf("angle errors: %v", errs)
	}
	if errs[AngleCharacter] != "" || errs[AngleWorld] != "" {
		t.Errorf("repaired or valid angles failed: %v", errs)
	}
	notes := strings.Join(rep.Notes, "\n")
	for _, want := range []string{"the timeline angle gave no answer", "the setup-payoff angle gave no answer",
		"matches nothing in the text; kept as a document-level finding", "offset 9.9999999e+07 outside the text",
		"the world angle cites entities/characters/nobody, which the project does not have",
		"the world angle cites chapter 99, which the project does not have"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	var doc *Finding
	for i, f := range rep.Findings {
		if !f.Located {
			doc = &rep.Findings[i]
		}
	}
	if doc == nil || doc.Start != -1 || doc.End != -1 || doc.Quote != "the airship landed on the lawn" || doc.Severity != SeverityWarning {
		t.Errorf("document-level finding: %+v", doc)
	}
	if f := findingAt(rep.Findings, outputEN, "telephoned"); f == nil || f.Severity != SeverityError || len(f.Sources) != 2 {
		t.Errorf("the finding with an absurd offset was not located and confirmed: %+v", f)
	}
	if f := findingAt(rep.Findings, outputEN, "Frederick"); f == nil || !slices.Contains(f.Sources, "model:character") {
		t.Errorf("the repaired character answer was lost: %+v", f)
	}
}

func TestModelUnavailable(t *testing.T) {
	tests := []struct {
		name   string
		script llmtest.Script
		budget core.Budget
		note   string
	}{
		{"endpoint down", llmtest.Script{Default: &llmtest.Reply{Fault: llmtest.Fault500, Times: -1}}, core.Budget{}, "gave no answer"},
		{"budget spent", llmtest.Script{Default: &llmtest.Reply{ToolCalls: []llmtest.ToolCall{{Name: "search", Arguments: `{"query":"Frederick"}`}}, Times: -1}},
			core.Budget{Steps: 3}, "the model checks failed, deterministic checks only: agent budget spent"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, &tt.script, Options{Budget: tt.budget})
			rep, err := h.mon.Check(context.Background(), Request{Text: outputEN, Chapter: 3})
			if err != nil {
				t.Fatal(err)
			}
			if rep.ModelUsed {
				t.Errorf("ModelUsed with every angle failed")
			}
			if notes := strings.Join(rep.Notes, "\n"); !strings.Contains(notes, tt.note) {
				t.Errorf("notes lack %q:\n%s", tt.note, notes)
			}
			// The deterministic findings are still there, as errors.
			if f := findingAt(rep.Findings, outputEN, "telephoned"); f == nil || f.Severity != SeverityError {
				t.Errorf("deterministic finding lost: %+v", rep.Findings)
			}
		})
	}
}

// parseNode parses a one-node workflow with the real parser.
func parseNode(t *testing.T, attrs string) *workflowlang.Node {
	t.Helper()
	src := "node draft {\n" + attrs + "\n  user \"\"\"\n    Write chapter 3.\n  \"\"\"\n}\n"
	f := workflowlang.Parse("t.flow", []byte(src))
	if len(f.Nodes) != 1 {
		t.Fatalf("parse: %d nodes; %v", len(f.Nodes), f.Diagnostics)
	}
	return f.Nodes[0]
}

const cleanEN = "Margaret Hale waited at the window of the parlour. Mr. Hale sent for the doctor at once."

func TestGate(t *testing.T) {
	all := `  checks = ["continuity", "character", "timeline", "world"]
  persist = "manuscript/chapter-03"`
	tests := []struct {
		name     string
		script   *llmtest.Script // nil: no agent model
		attrs    string
		output   string
		decision string
		reasons  []string // each occurs in the joined reasons
		feedback []string
		requests int
	}{
		{"no checks asked", scriptEN(), `  persist = "manuscript/chapter-03"`, outputEN, "approve", []string{"no checks asked for"}, nil, 0},
		{"confirmed errors", scriptEN(), all, outputEN, "retry",
			[]string{"error(s) found by deterministic and model checks", "check:world+model:world"},
			[]string{"telephoned", "Frederick Hale is dead"}, 5},
		{"no model: deterministic only", nil, all, outputEN, "retry",
			[]string{"found by deterministic checks only", "note: no agent model configured: deterministic checks only"},
			[]string{"telephoned", "Frederick"}, 0},
		{"no model, clean text", nil, all, cleanEN, "approve",
			[]string{"approved: deterministic checks only found nothing", "no agent model configured"}, nil, 0},
		{"one confident angle", &llmtest.Script{Replies: []llmtest.Reply{
			reply("character state", `{"findings":[{"quote":"Margaret Hale waited","explanation":"Margaret is in London as of chapter 3.","confidence":0.85}]}`)}},
			all, cleanEN, "flag", []string{"only one checker saw", "model:character"}, []string{"Margaret Hale waited"}, 4},
		{"one unsure angle", &llmtest.Script{Replies: []llmtest.Reply{
			reply("timeline", `{"findings":[{"quote":"at once","explanation":"maybe too quick","confidence":0.2}]}`)}},
			all, cleanEN, "approve", []string{"only 1 unconfirmed warning(s) or hint(s)", "hint timeline"}, nil, 4},
		{"world only", &llmtest.Script{}, `  checks = ["world"]`, cleanEN, "approve",
			[]string{"approved: deterministic and model checks found nothing"}, nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t, tt.script, Options{})
			node := parseNode(t, tt.attrs)
			v, err := h.mon.Review(context.Background(), node, tt.output, 1)
			if err != nil {
				t.Fatal(err)
			}
			if string(v.Decision) != tt.decision {
				t.Errorf("decision %s, want %s; reasons:\n%s", v.Decision, tt.decision, strings.Join(v.Reasons, "\n"))
			}
			reasons := strings.Join(v.Reasons, "\n")
			for _, want := range tt.reasons {
				if !strings.Contains(reasons, want) {
					t.Errorf("reasons lack %q:\n%s", want, reasons)
				}
			}
			for _, want := range tt.feedback {
				if !strings.Contains(v.Feedback, want) {
					t.Errorf("feedback lacks %q:\n%s", want, v.Feedback)
				}
			}
			if h.srv != nil {
				if n := len(h.srv.Requests()); n != tt.requests {
					t.Errorf("%d model requests, want %d", n, tt.requests)
				}
			}
		})
	}
}

// TestTooManyFindings: a flood of findings from one angle is cut, and the
// report says so.
func TestTooManyFindings(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"findings":[`)
	for i := range 80 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"quote":"the parlour","explanation":"again","confidence":0.4}`)
	}
	b.WriteString(`]}`)
	h := newHarness(t, &llmtest.Script{Replies: []llmtest.Reply{reply("timeline", b.String())}}, Options{})
	rep, err := h.mon.Check(context.Background(), Request{Text: outputEN, Chapter: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(rep.Notes, "\n"), "the timeline angle returned 80 findings; only the first 50 are kept") {
		t.Errorf("notes: %v", rep.Notes)
	}
	f := findingAt(rep.Findings, outputEN, "the parlour")
	if f == nil || len(f.Evidence) != 1 || f.Severity != SeverityHint {
		t.Errorf("the repeated finding: %+v", f)
	}
}
