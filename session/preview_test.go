package session

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/agent/assemble"
	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
)

// A preview asked again of an unchanged node is the one made before; a
// change of the node's prompt, of the knowledge or a run ending makes a
// new one, which says what changed.
func TestPreviewKeptUntilAChange(t *testing.T) {
	root, _ := sample(t, llmtest.Script{})
	s := New(root, Options{})
	t.Cleanup(func() { s.Close() })
	wf, _ := checked(t, root, "act-1.flow")
	first, err := s.ContextPreview(wf, "plan")
	if err != nil {
		t.Fatal(err)
	}
	again, err := s.ContextPreview(wf, "plan")
	if err != nil {
		t.Fatal(err)
	}
	if again != first {
		t.Error("the same node previewed twice was assembled twice")
	}
	if other, err := s.ContextPreview(wf, "beats"); err != nil || other == first {
		t.Errorf("another node got the first node's preview (%v)", err)
	}

	// The prompt changed: a new context, for the new words.
	p := filepath.Join(root, "workflows", "act-1.flow")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(src), "{{beats}}", "{{beats}}\n    Lady Catherine calls at Longbourn.", 1)
	if edited == string(src) {
		t.Fatal("act-1.flow has no {{beats}} to edit after")
	}
	if err := os.WriteFile(p, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	wf2, _ := checked(t, root, "act-1.flow")
	changed, err := s.ContextPreview(wf2, "plan")
	if err != nil {
		t.Fatal(err)
	}
	if changed == first {
		t.Fatal("an edited prompt was given the old preview")
	}
	if !mentions(changed, "lady-catherine") || mentions(first, "lady-catherine") {
		t.Errorf("the new preview does not follow the new words: before %v, after %v", paths(first), paths(changed))
	}

	// The knowledge changed: the kept preview is an earlier state's.
	ent := filepath.Join(root, "entities", "characters", "lady-catherine-de-bourgh.md")
	data, err := os.ReadFile(ent)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(ent, append(data, []byte("\nShe has a new carriage.\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	s.KnowledgeChanged(context.Background(), ent)
	after, err := s.ContextPreview(wf2, "plan")
	if err != nil {
		t.Fatal(err)
	}
	if after == changed {
		t.Error("a preview made before the knowledge changed was given after it")
	}
}

// paths are the files a context injected.
func paths(c *assemble.Context) []string {
	var out []string
	for _, src := range c.Sources {
		out = append(out, src.Path)
	}
	return out
}

// mentions reports whether c injected a file whose path holds part.
func mentions(c *assemble.Context, part string) bool {
	for _, p := range paths(c) {
		if strings.Contains(p, part) {
			return true
		}
	}
	return false
}

// An estimate and the hover's preview share Role A's contexts: after a
// preview of one node, an estimate of the workflow assembles only the
// others, and a preview after it of a node it assembled is its context.
func TestEstimateSharesThePreviews(t *testing.T) {
	root, _ := sample(t, llmtest.Script{})
	s := New(root, Options{})
	t.Cleanup(func() { s.Close() })
	wf, _ := checked(t, root, "chapter-11.flow")
	kept := func() int {
		s.previews.mu.Lock()
		defer s.previews.mu.Unlock()
		return len(s.previews.m)
	}
	first, err := s.ContextPreview(wf, "draft")
	if err != nil {
		t.Fatal(err)
	}
	if kept() != 1 {
		t.Fatalf("%d contexts kept after one preview", kept())
	}
	est, err := s.Estimate(wf)
	if err != nil {
		t.Fatal(err)
	}
	nodes := 0
	for _, ne := range est.Nodes {
		if ne.Err != nil {
			t.Fatalf("%s: %v", ne.Node, ne.Err)
		}
		nodes++
	}
	if nodes < 2 || kept() != nodes {
		t.Fatalf("after the estimate of %d nodes, %d contexts kept (the previewed node assembled again, or none shared)", nodes, kept())
	}
	if again, err := s.ContextPreview(wf, "draft"); err != nil || again != first {
		t.Errorf("the preview changed after the estimate (%v)", err)
	}
	if _, err := s.ContextPreview(wf, "outline"); err != nil || kept() != nodes {
		t.Errorf("the preview of a node the estimate assembled was assembled again: %d kept (%v)", kept(), err)
	}
}
