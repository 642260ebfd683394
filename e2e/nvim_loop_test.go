package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/internal/projecttest"
)

// TestNeovimLoop drives the author's loop from headless Neovim through
// the plugin's setup{} (e2e/nvim/loop.lua): the warning of a plot thread
// overdue at the chapter a workflow writes, the stale lens after an edit
// of a source and its one-click re-run, and the comparison of the two
// versions in a diff (from the output document's lens and :FlowCompare).
func TestNeovimLoop(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Fatalf("nvim not found: install it with scripts/install-test-deps.sh (%v)", err)
	}
	srv := llmtest.New(t, llmtest.Script{Default: &llmtest.Reply{Content: "Where the story stands: Jane is ill at Netherfield."}})
	proj := projecttest.Copy(t, "pride-and-prejudice")
	projecttest.UseModels(t, proj, srv.URL, "FLOWCABAL_E2E_KEY")
	entail := filepath.Join(proj, "entities", "plot-threads", "the-entail.md")
	if err := os.WriteFile(entail, []byte("---\nname: The entail\naliases: [the entail]\nkind: plot-thread\nopened: 3\ndue: 9\n---\nLongbourn passes to Mr. Collins on Mr. Bennet's death.\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	bin := binary(t)
	plugin, _ := filepath.Abs("../editors/nvim")
	lua, _ := filepath.Abs("nvim/loop.lua")
	report := filepath.Join(t.TempDir(), "report.txt")
	cmd := exec.Command(nvim, "--headless", "-u", "NONE", "-i", "NONE", "-c", "luafile "+lua)
	cmd.Dir = proj
	cmd.Env = append(os.Environ(),
		"FLOWCABAL_BIN="+bin, "FLOWCABAL_PLUGIN="+plugin,
		"FLOWCABAL_FILE="+filepath.Join(proj, "workflows", "chapter-11.flow"),
		"FLOWCABAL_REPORT="+report, "FLOWCABAL_E2E_KEY=sk-e2e-not-a-key",
		"XDG_STATE_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir())
	out, runErr := cmd.CombinedOutput()
	rep, _ := os.ReadFile(report)
	steps := strings.Split(strings.TrimSpace(string(rep)), "\n")
	for _, w := range []string{"attach", "overdue thread diagnostic", "run premise", "stale lens and re-run", "compare lens opens a diff", ":FlowCompare"} {
		found := false
		for _, s := range steps {
			found = found || s == "ok "+w
		}
		if !found {
			t.Errorf("step %q did not pass", w)
		}
	}
	t.Logf("nvim report:\n%s", rep)
	if runErr != nil || t.Failed() {
		t.Errorf("nvim: %v\nreport:\n%s\noutput:\n%s", runErr, rep, out)
	}
}
