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
