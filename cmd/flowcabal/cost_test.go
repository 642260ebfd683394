package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/cost"
	"github.com/flowcabal/flowcabal/runner"
)

const testPrices = `
[prices.writer]
input = 0.15
output = 0.60

[prices.agent]
input = 1.00
output = 2.00
`

func addToConfig(t *testing.T, root, text string) {
	t.Helper()
	p := filepath.Join(root, "flowcabal.toml")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, append([]byte(text), data...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCostCommand runs the sample chapter workflow (its draft checked by
// Role C's agent model too), then reports its cost every way: the totals
// are what the scripted endpoint billed, Role C's calls included, priced
// with flowcabal.toml's prices.
func TestCostCommand(t *testing.T) {
	root, srv := runProject(t, llmtest.Script{Default: &llmtest.Reply{Content: "Elizabeth stayed at Netherfield another night."}})
	addToConfig(t, root, testPrices)
	flow := filepath.Join(root, "workflows", "chapter-11.flow")

	// Before: the estimate, node by node, calling nothing.
	code, out, errs := runWithKey("cost", "-estimate", flow)
	if code != exitOK || srv.Count() != 0 {
		t.Fatalf("estimate: exit %d, %d calls\n%s%s", code, srv.Count(), out, errs)
	}
	for _, want := range []string{"premise", "outline", "draft", "run", "$"} {
		if !strings.Contains(out, want) {
			t.Errorf("estimate lacks %q:\n%s", want, out)
		}
	}
	t.Logf("flowcabal cost -estimate:\n%s", out)
	if code, out, errs := runWithKey("run", flow); code != exitOK {
		t.Fatalf("run: exit %d\n%s%s", code, out, errs)
	}

	var billedIn, billedOut int
	var want float64
	for _, r := range srv.Requests() {
		if r.Billed == nil {
			continue
		}
		billedIn += r.Billed.PromptTokens
		billedOut += r.Billed.CompletionTokens
		in, outp := 0.15, 0.60
		if r.Model == "a" {
			in, outp = 1.00, 2.00
		}
		want += (float64(r.Billed.PromptTokens)*in + float64(r.Billed.CompletionTokens)*outp) / 1e6
	}
	for _, by := range cost.Groupings {
		code, out, errs := runWithKey("cost", "-by", by, "-json", root)
		if code != exitOK {
			t.Fatalf("cost -by %s: exit %d\n%s", by, code, errs)
		}
		var rep cost.Report
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatalf("cost -by %s -json: %v\n%s", by, err, out)
		}
		if rep.Total.Input != billedIn || rep.Total.Output != billedOut || math.Abs(rep.Total.Cost-want) > 1e-12 || rep.Total.Unpriced != 0 {
			t.Errorf("-by %s: total %+v; the endpoint billed %d+%d tokens, %v", by, rep.Total, billedIn, billedOut, want)
		}
		keys := map[string]bool{}
		for _, r := range rep.Rows {
			keys[r.Key] = true
		}
		switch by {
		case "node":
			for _, n := range []string{"premise", "outline", "draft"} {
				if !keys["workflows/chapter-11.flow · "+n] {
					t.Errorf("-by node lacks %s: %v", n, keys)
				}
			}
			for k := range keys {
				if strings.HasPrefix(k, "(no node") {
					t.Errorf("calls not counted to their node (Role C's checks of the draft must be): %v", keys)
				}
			}
		case "chapter":
			if !keys["chapter 11"] {
				t.Errorf("-by chapter lacks chapter 11 (the draft persists to it): %v", keys)
			}
		case "model":
			if !keys["w"] || !keys["a"] {
				t.Errorf("-by model: %v", keys)
			}
		case "role":
			if !keys["runner (workflow nodes)"] || !keys["Role C (checks)"] {
				t.Errorf("-by role: Role C's checks are not counted: %v", keys)
			}
		}
	}
	code, out, _ = runWithKey("cost", "-by", "node", root)
	t.Logf("flowcabal cost -by node:\n%s", out)
	if code != exitOK || !strings.Contains(out, "chapter-11.flow · draft") || !strings.Contains(out, runner.FormatCost(want)) {
		t.Errorf("table:\n%s", out)
	}
	if code, _, errs := runWithKey("cost", "-since", "tomorrow", root); code != exitUsage || !strings.Contains(errs, "not a date") {
		t.Errorf("a bad date: exit %d, %s", code, errs)
	}
	if code, out, _ := runWithKey("cost", "-since", "2999-01-01", root); code != exitOK || !strings.Contains(out, "no model calls") {
		t.Errorf("since the future: exit %d, %s", code, out)
	}
}

// TestRunMaxCost stops a run at its max_cost from the command line and
// resumes it with a higher one.
func TestRunMaxCost(t *testing.T) {
	root, srv := runProject(t, llmtest.Script{Default: &llmtest.Reply{Content: "Elizabeth stayed at Netherfield another night."}})
	addToConfig(t, root, "max_cost = 0.0001\n"+testPrices)
	flow := filepath.Join(root, "workflows", "chapter-11.flow")
	code, out, errs := runWithKey("run", flow)
	t.Logf("flowcabal run (max_cost 0.0001):\n%s", out)
	if code != exitFindings || !strings.Contains(out, "stopped at max_cost") || !strings.Contains(out, "-resume") {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	if strings.Contains(out, "✓ premise") {
		t.Fatalf("premise ran past the limit:\n%s", out)
	}
	before, _ := nodeCalls(srv)
	code, out, errs = runWithKey("run", "-resume", "-max-cost", "5", flow)
	if code != exitOK || !strings.Contains(out, "✓ draft") {
		t.Fatalf("resume: exit %d\n%s%s", code, out, errs)
	}
	after, _ := nodeCalls(srv)
	if len(before) != 0 || len(after) != 3 {
		t.Errorf("node calls: %d before the resume, %d after; want 0 and 3", len(before), len(after))
	}
}
