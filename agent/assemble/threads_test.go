package assemble

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenThreadsDueSoonAreInjected: a thread planted early and due a few
// chapters ahead is in the context of the chapter being written though
// the prompt never names it; one due far ahead, or already resolved, is
// not; the window is the project's.
func TestOpenThreadsDueSoonAreInjected(t *testing.T) {
	root := sampleProject(t)
	threads := map[string]string{
		"the-entail.md": "---\nname: The entail\nkind: plot-thread\nopened: 3\ndue: 14\n---\nLongbourn passes to Mr. Collins.\n",
		"the-letter.md": "---\nname: Darcy's letter\nkind: plot-thread\nopened: 5\ndue: 40\n---\nThe letter that explains Wickham.\n",
		"the-ball.md":   "---\nname: The Netherfield ball\nkind: plot-thread\nopened: 6\ndue: 12\nresolved: 9\n---\nThe ball Bingley promised.\n",
		"the-debt.md":   "---\nname: 舊債 𝄞\nkind: plot-thread\nopened: 2\ndue: 8\n---\nA debt of honour.\n",
	}
	for name, text := range threads {
		if err := os.WriteFile(filepath.Join(root, "entities", "plot-threads", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	snap := load(t, newBuilder(), root)
	node := Node{ID: "draft", Text: "Write the next scene in the drawing room.", Chapter: 11}
	reasons := func(opt Options) map[string]string {
		c, err := Assemble(node, snap, opt)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, s := range c.Sources {
			if strings.HasPrefix(s.Path, "entities/plot-threads/") {
				out[filepath.Base(s.Path)] = s.Reason
			}
		}
		return out
	}
	got := reasons(Options{Budget: 24000})
	if got["the-entail.md"] != "thread due by chapter 14" {
		t.Errorf("the entail (due 14, writing 11, window 5): %q", got["the-entail.md"])
	}
	if got["the-debt.md"] != "thread due by chapter 8 (overdue)" {
		t.Errorf("the debt (due 8, writing 11): %q", got["the-debt.md"])
	}
	if r, ok := got["the-letter.md"]; ok {
		t.Errorf("a thread due in chapter 40 was injected into chapter 11: %q", r)
	}
	if r, ok := got["the-ball.md"]; ok {
		t.Errorf("a thread resolved in chapter 9 was injected into chapter 11: %q", r)
	}
	// A window of 2 chapters leaves the entail (due 14) out.
	if r, ok := reasons(Options{Budget: 24000, ThreadWindow: 2})["the-entail.md"]; ok {
		t.Errorf("with a window of 2, the entail was injected: %q", r)
	}
	// A node that writes no chapter is given no thread for being due.
	c, err := Assemble(Node{ID: "x", Text: "Write the next scene in the drawing room."}, snap, Options{Budget: 24000})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range c.Sources {
		if strings.HasPrefix(s.Reason, "thread due") && c.Chapter == 0 {
			t.Errorf("no chapter, yet %s was injected: %s", s.Path, s.Reason)
		}
	}
}
