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

// TestNeovimRun drives the runner and the three roles from headless
// Neovim through the plugin's setup{} (e2e/nvim/run.lua), on a copy of
// the English sample project whose models are a scripted server: the
// draft comes back with a misspelt name, which the gate flags and the
// author fixes in the output document and approves; then a build from an
// intent is accepted.
func TestNeovimRun(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Fatalf("nvim not found: install it with scripts/install-test-deps.sh (%v)", err)
	}
	script, err := llmtest.LoadScript("../testdata/builder/e2e-script.json")
	if err != nil {
		t.Fatal(err)
	}
	script.Replies = append(script.Replies,
		llmtest.Reply{Match: &llmtest.Match{Contains: "Write chapter 11"}, Times: -1, Content: "Elizabth came down to the drawing room after dinner."})
	script.Default = &llmtest.Reply{Content: "Five beats."}
	srv := llmtest.New(t, script)

	proj := projecttest.Copy(t, "pride-and-prejudice")
	projecttest.UseModels(t, proj, srv.URL, "FLOWCABAL_E2E_KEY")

	bin := binary(t)
	plugin, _ := filepath.Abs("../editors/nvim")
	lua, _ := filepath.Abs("nvim/run.lua")
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
	for _, w := range []string{"attach", "hover provenance", "run node", "output diagnostics and quick-fix", "approve the edit", "build"} {
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
