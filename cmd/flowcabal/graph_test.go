package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
)

func TestGraphCommandShowsRunStateAndBudget(t *testing.T) {
	root, _ := runProject(t, llmtest.Script{Default: &llmtest.Reply{Content: "Five beats."}})
	flow := filepath.Join(root, "workflows", "chapter-11.flow")

	code, out, errs := runWithKey("graph", flow)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, `data-node="draft" data-state=""`) || !strings.Contains(out, "manuscript: ") {
		t.Errorf("before a run: no idle node or no budget bar:\n%.600s", out)
	}
	if code, _, errs := runWithKey("run", flow); code != exitOK {
		t.Fatalf("run: %s", errs)
	}
	code, out, errs = runWithKey("graph", flow, "-format", "svg")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, n := range []string{"premise", "outline", "draft"} {
		if !strings.Contains(out, `data-node="`+n+`" data-state="done"`) {
			t.Errorf("after the run, %s is not shown done", n)
		}
	}
	code, out, _ = runWithKey("graph", "-format", "mermaid", filepath.Join(root, "workflows", "book.flow"))
	if code != exitOK || !strings.Contains(out, "-.->") || !strings.Contains(out, "act1.plan") {
		t.Errorf("mermaid of a workflow with a sub-workflow:\n%s", out)
	}
	if code, _, _ := runWithKey("graph", "-format", "png", flow); code != exitUsage {
		t.Errorf("an unknown format exits %d", code)
	}
}
