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

// TestNeovim opens a sample .flow in headless Neovim through the plugin's
// setup{} and checks diagnostics, hover, the inlay hints its client
// receives (Neovim 0.7 draws none), document symbols, completion, a
// code lens clicked after an edit that runs its node against a scripted
// model while another node has an error, a rename and a quick-fix
// (e2e/nvim/scenario.lua).
func TestNeovim(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Fatalf("nvim not found: install it with scripts/install-test-deps.sh (%v)", err)
	}
	bin := binary(t)
	proj := sampleProject(t)
	srv := llmtest.New(t, llmtest.Script{Default: &llmtest.Reply{Content: "Beats from the scripted model."}})
	projecttest.UseModels(t, proj, srv.URL, "FLOWCABAL_E2E_KEY")
	// Prices, so that the Run lenses show costs as well as tokens.
	toml := filepath.Join(proj, "flowcabal.toml")
	data, err := os.ReadFile(toml)
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, "\n[prices.writer]\ninput = 0.15\noutput = 0.60\n"...)
	if err := os.WriteFile(toml, data, 0o644); err != nil {
		t.Fatal(err)
	}
	plugin, _ := filepath.Abs("../editors/nvim")
	script, _ := filepath.Abs("nvim/scenario.lua")
	report := filepath.Join(t.TempDir(), "report.txt")
	cmd := exec.Command(nvim, "--headless", "-u", "NONE", "-i", "NONE", "-c", "luafile "+script)
	cmd.Dir = proj
	cmd.Env = append(os.Environ(),
		"FLOWCABAL_BIN="+bin, "FLOWCABAL_PLUGIN="+plugin,
		"FLOWCABAL_FILE="+filepath.Join(proj, "workflows", "ch12.flow"),
		"FLOWCABAL_REPORT="+report, "FLOWCABAL_E2E_KEY=sk-e2e-not-a-key",
		"XDG_STATE_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir())
	out, runErr := cmd.CombinedOutput()
	rep, _ := os.ReadFile(report)
	steps := strings.Split(strings.TrimSpace(string(rep)), "\n")
	want := []string{"attach", "diagnostics", "hover", "inlay hints", "document symbols", "completion", "code lens", "rename", "quick-fix"}
	for _, w := range want {
		found := false
		for _, s := range steps {
			if s == "ok "+w {
				found = true
			}
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
