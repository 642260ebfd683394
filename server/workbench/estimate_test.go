package workbench

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/server/lsptest"
	"go.lsp.dev/protocol"
)

var lensTokens = regexp.MustCompile(`^▶ Run node · ([0-9,]+) tok in \+ ≤([0-9,]+) out · (≈\$[0-9.]+|cached)`)

// estimatedLenses returns the lenses of uri once their estimates are
// made: the first answer may come before (the estimate is made in the
// background, and the lenses refreshed).
func (e *editor) estimatedLenses(uri protocol.DocumentURI) []string {
	e.t.Helper()
	for {
		titles := e.lenses(uri)
		joined := strings.Join(titles, "\n")
		done := !strings.Contains(joined, "(updating)")
		for _, title := range titles {
			if strings.HasPrefix(title, "▶ Run") && !strings.Contains(title, " tok in ") {
				done = false
			}
		}
		if done {
			return titles
		}
		select {
		case <-e.ctx.Done():
			e.t.Fatalf("the lenses never showed a finished estimate:\n%s", joined)
		case <-time.After(20 * time.Millisecond): // the estimate is made on another goroutine
		}
	}
}

// runLensTokens returns the prompt tokens the "Run node" lenses of uri
// announce, in the order of the nodes.
func (e *editor) runLensTokens(uri protocol.DocumentURI) []int {
	e.t.Helper()
	var out []int
	for _, title := range e.estimatedLenses(uri) {
		if !strings.HasPrefix(title, "▶ Run node") {
			continue
		}
		m := lensTokens.FindStringSubmatch(title)
		if m == nil {
			e.t.Fatalf("the Run node lens shows no estimate: %q", title)
		}
		n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
		out = append(out, n)
	}
	return out
}

func (e *editor) hover(uri protocol.DocumentURI, line, char int) string {
	e.t.Helper()
	var h protocol.Hover
	if err := e.client.Call(e.ctx, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri},
		"position": map[string]any{"line": line, "character": char}}, &h); err != nil {
		e.t.Fatal(err)
	}
	return h.Contents.Value
}

// TestRunLensShowsWhatTheRunSends opens the sample chapter workflow with
// prices set: the "Run node" lenses and the node hover show the estimated
// prompt tokens, the most the node may write and the cost, before any
// store exists; clicking the lens runs the node, and the scripted
// endpoint counts, with the same tokeniser, what the lens said (within
// 2%). After the run the hover says what the node's calls cost, and the
// next node's lens, which reads that output, is right too.
func TestRunLensShowsWhatTheRunSends(t *testing.T) {
	e := start(t, llmtest.Script{Default: &llmtest.Reply{Content: "Jane came down to the drawing room; Elizabeth watched."}})
	cfg := filepath.Join(e.root, "flowcabal.toml")
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	data = append([]byte("[prices.writer]\ninput = 0.15\noutput = 0.60\n[prices.agent]\ninput = 0.15\noutput = 0.60\n\n"), data...)
	if err := os.WriteFile(cfg, data, 0o644); err != nil {
		t.Fatal(err)
	}
	uri := e.open("workflows/chapter-11.flow")
	// The first lenses come before the estimate is made; once it is, the
	// server asks the editor to redraw them.
	e.lenses(uri)
	if err := e.client.WaitFor(e.ctx, "codeLens/refresh", func(v *lsptest.View) bool {
		for _, r := range v.Requests {
			if r.Method == "workspace/codeLens/refresh" {
				return true
			}
		}
		return false
	}); err != nil {
		t.Fatal(err)
	}
	est := e.runLensTokens(uri)
	if titles := strings.Join(e.estimatedLenses(uri), "\n"); strings.Count(titles, "out · ≈$") != 4 {
		t.Errorf("before any run, every Run lens has a cost:\n%s", titles)
	}
	if len(est) != 3 {
		t.Fatalf("%d Run node lenses with an estimate, want 3", len(est))
	}
	if _, err := os.Stat(filepath.Join(e.root, ".flowcabal")); !os.IsNotExist(err) {
		t.Fatalf("the estimate created .flowcabal (%v)", err)
	}
	var wfLens string
	for _, title := range e.estimatedLenses(uri) {
		if strings.HasPrefix(title, "▶ Run workflow") {
			wfLens = title
		}
	}
	if !regexp.MustCompile(`^▶ Run workflow · [0-9,]+ tok in \+ ≤12,288 out · ≈\$`).MatchString(wfLens) {
		t.Errorf("Run workflow lens: %q", wfLens)
	}
	// The hover on the premise node (line 7) says the same.
	h := e.hover(uri, 6, 6)
	if !strings.Contains(h, "Cost estimate: **"+groupDigits(est[0])+"** tokens in") || !strings.Contains(h, "up to 4,096 out") {
		t.Errorf("hover lacks the estimate of %d tokens:\n%s", est[0], h)
	}

	sent := func(i int) int {
		reqs := e.srv.Requests()
		return reqs[i].PromptTokens
	}
	for i, node := range []string{"premise", "outline"} {
		before := e.srv.Count()
		if i > 0 {
			est = e.runLensTokens(uri) // now with premise's output
		}
		if res, err := e.command("flowcabal.runNode", map[string]any{"uri": uri, "node": node}); err != nil || res["run"] == nil {
			t.Fatalf("run %s: %v %v", node, res, err)
		}
		e.waitRuns(i + 1)
		got := sent(before)
		diff := float64(est[i]-got) / float64(got)
		t.Logf("%s: lens %d tokens, the endpoint counted %d (%+.2f%%)", node, est[i], got, 100*diff)
		if diff > 0.02 || diff < -0.02 {
			t.Errorf("%s: the lens said %d tokens, the endpoint counted %d", node, est[i], got)
		}
	}
	h = e.hover(uri, 6, 6)
	if !strings.Contains(h, "Spent on its last run: 1 call(s), "+groupDigits(sent(0))+" tokens in") {
		t.Errorf("hover lacks what premise's run cost:\n%s", h)
	}
}

// TestMaxCostFromTheEditor runs a workflow whose max_cost is too low: its
// first node stops before its call, its lens says so and offers to resume;
// with max_cost raised in flowcabal.toml, Resume runs it.
func TestMaxCostFromTheEditor(t *testing.T) {
	e := start(t, llmtest.Script{Default: &llmtest.Reply{Content: "Jane came down to the drawing room."}})
	cfg := filepath.Join(e.root, "flowcabal.toml")
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	prices := "[prices.writer]\ninput = 0.15\noutput = 0.60\n[prices.agent]\ninput = 0.15\noutput = 0.60\n\n"
	if err := os.WriteFile(cfg, []byte("max_cost = 0.0001\n"+prices+string(data)), 0o644); err != nil {
		t.Fatal(err)
	}
	uri := e.open("workflows/chapter-11.flow")
	if res, err := e.command("flowcabal.runNode", map[string]any{"uri": uri, "node": "premise"}); err != nil || res["run"] == nil {
		t.Fatalf("run premise: %v %v", res, err)
	}
	e.waitRuns(1)
	if n := e.srv.Count(); n != 0 {
		t.Fatalf("%d calls past max_cost", n)
	}
	titles := strings.Join(e.lenses(uri), " | ")
	if !strings.Contains(titles, "$ stopped at max_cost") || !strings.Contains(titles, "↻ Resume") {
		t.Fatalf("lenses after the stop: %s", titles)
	}
	if err := os.WriteFile(cfg, []byte("max_cost = 5\n"+prices+string(data)), 0o644); err != nil {
		t.Fatal(err)
	}
	if res, err := e.command("flowcabal.retry", map[string]any{"uri": uri, "node": "premise"}); err != nil || res["run"] == nil {
		t.Fatalf("resume premise: %v %v", res, err)
	}
	e.waitRuns(2)
	if n := e.srv.Count(); n != 1 {
		t.Errorf("%d calls after the resume, want 1", n)
	}
	if titles := strings.Join(e.lenses(uri), " | "); !strings.Contains(titles, "✓ approved") {
		t.Errorf("lenses after the resume: %s", titles)
	}
}

// TestRunLensCountsTheSubWorkflow: the review node of book.flow reads the
// act planner's plan; before it ever ran, its Run node lens counts the
// planner's two nodes as upstream, in its cost too.
func TestRunLensCountsTheSubWorkflow(t *testing.T) {
	e := start(t, llmtest.Script{})
	cfg := filepath.Join(e.root, "flowcabal.toml")
	data, err := os.ReadFile(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, append([]byte("[prices.writer]\ninput = 0.15\noutput = 0.60\n[prices.agent]\ninput = 0.15\noutput = 0.60\n\n"), data...), 0o644); err != nil {
		t.Fatal(err)
	}
	uri := e.open("workflows/book.flow")
	var review string
	for _, title := range e.estimatedLenses(uri) {
		if strings.HasPrefix(title, "▶ Run node") {
			review = title
		}
	}
	if !lensTokens.MatchString(review) || !strings.HasSuffix(review, "(with 2 upstream)") {
		t.Errorf("review's lens: %q", review)
	}
	if e.srv.Count() != 0 {
		t.Errorf("the estimate called the model %d times", e.srv.Count())
	}
}
