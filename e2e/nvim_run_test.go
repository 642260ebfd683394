package e2e

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
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

	proj := t.TempDir()
	src := "../testdata/projects/pride-and-prejudice"
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(proj, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(proj, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	toml := "[models.writer]\nbase_url = \"" + srv.URL + "\"\nmodel = \"w\"\napi_key_env = \"FLOWCABAL_E2E_KEY\"\n" +
		"[models.agent]\nbase_url = \"" + srv.URL + "\"\nmodel = \"a\"\napi_key_env = \"FLOWCABAL_E2E_KEY\"\n"
	if err := os.WriteFile(filepath.Join(proj, "flowcabal.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}

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
