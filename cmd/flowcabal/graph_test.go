package main

import (
	"os"
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
	if strings.Contains(out, "data-stale=") {
		t.Errorf("a node is marked stale right after the run")
	}
	// The author edits the chapter the premise read: the premise is
	// marked stale, naming the file.
	ch10 := filepath.Join(root, "manuscript", "chapter-10", "content.md")
	old, err := os.ReadFile(ch10)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ch10, append(old, "\nJane was better.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, _ = runWithKey("graph", flow, "-format", "svg")
	if !strings.Contains(out, `data-node="premise" data-state="done" data-stale="manuscript/chapter-10/content.md changed`) {
		t.Errorf("after editing chapter 10, premise is not marked stale:\n%.1200s", out)
	}
	code, out, _ = runWithKey("graph", "-format", "mermaid", filepath.Join(root, "workflows", "book.flow"))
	if code != exitOK || !strings.Contains(out, "-.->") || !strings.Contains(out, "act1.plan") {
		t.Errorf("mermaid of a workflow with a sub-workflow:\n%s", out)
	}
	if code, _, _ := runWithKey("graph", "-format", "png", flow); code != exitUsage {
		t.Errorf("an unknown format exits %d", code)
	}
}
