package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestThreadsLedger(t *testing.T) {
	root := copySample(t)
	for name, text := range map[string]string{
		"the-entail.md": "---\nname: The entail\nkind: plot-thread\nopened: 3\ndue: 9\n---\nLongbourn passes to Mr. Collins.\n",
		"the-debt.md":   "---\nname: 舊債 𝄞\nkind: plot-thread\nopened: 5\ndue: 14\n---\nA debt.\n",
		"the-ball.md":   "---\nname: The ball\nkind: plot-thread\nopened: 6\ndue: 9\nresolved: 8\n---\nThe ball.\n",
		"the-letter.md": "---\nname: The letter\nkind: plot-thread\nopened: 7\ndue: 40\n---\nThe letter.\n",
	} {
		if err := os.WriteFile(filepath.Join(root, "entities", "plot-threads", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The sample has ten chapters: the ledger is taken at chapter 11.
	code, out, errs := runWithKey("threads", root)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	sections := map[string]string{}
	var cur string
	for _, line := range strings.Split(out, "\n") {
		if line != "" && !strings.HasPrefix(line, " ") && strings.Contains(line, "(") && !strings.HasPrefix(line, "Plot threads") {
			cur = line[:strings.Index(line, " (")]
			continue
		}
		sections[cur] += line + "\n"
	}
	if !strings.HasPrefix(out, "Plot threads as of chapter 11 (due soon: within 5 chapters)") {
		t.Errorf("header: %q", strings.SplitN(out, "\n", 2)[0])
	}
	for section, want := range map[string]string{"overdue": "The entail", "due soon": "舊債 𝄞", "resolved": "The ball", "open": "The letter"} {
		if !strings.Contains(sections[section], want) {
			t.Errorf("%s lacks %s:\n%s", section, want, out)
		}
	}
	if !strings.Contains(sections["overdue"], "entities/plot-threads/the-entail.md") || strings.Count(out, "The entail") != 1 {
		t.Errorf("the entail is not listed once, with its file:\n%s", out)
	}
	// The window comes from flowcabal.toml; the chapter from the flag.
	cfg := filepath.Join(root, "flowcabal.toml")
	old, _ := os.ReadFile(cfg)
	if err := os.WriteFile(cfg, append([]byte("thread_window = 2\n"), old...), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, _ = runWithKey("threads", "-chapter", "8", root)
	if !strings.Contains(out, "as of chapter 8 (due soon: within 2 chapters)") || !strings.Contains(out, "due soon (1)\n") || !strings.Contains(out, "resolved (1)") {
		t.Errorf("at chapter 8, window 2:\n%s", out)
	}
	if code, _, _ := runWithKey("threads", "-chapter", "-1", root); code != exitUsage {
		t.Errorf("a negative chapter exits %d", code)
	}
}
