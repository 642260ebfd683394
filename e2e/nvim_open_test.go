package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestNeovimOneServerPerRoot opens .flow files in headless Neovim the ways
// an author does, with the plugin set up from an init.lua as its README
// says (filetype detection on, ftdetect read): files on the command line,
// two at once in splits, :e then :split, and a file of a second project.
// Each root must get one server and each buffer one client
// (e2e/nvim/open.lua).
func TestNeovimOneServerPerRoot(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Fatalf("nvim not found: install it with scripts/install-test-deps.sh (%v)", err)
	}
	bin := binary(t)
	plugin, _ := filepath.Abs("../editors/nvim")
	script, _ := filepath.Abs("nvim/open.lua")
	proj := sampleProject(t)
	second := "node 甲 {\n  user \"\"\"\n    𝄞 第二个文件：{{@meta/style-guide}}\n  \"\"\"\n}\n"
	if err := os.WriteFile(filepath.Join(proj, "workflows", "ch13.flow"), []byte(second), 0o644); err != nil {
		t.Fatal(err)
	}
	other := writeProject(t, map[string]string{"flowcabal.toml": "", "workflows/x.flow": second})
	a := filepath.Join(proj, "workflows", "ch12.flow")
	b := filepath.Join(proj, "workflows", "ch13.flow")
	x := filepath.Join(other, "workflows", "x.flow")
	initLua := filepath.Join(t.TempDir(), "init.lua")
	conf := fmt.Sprintf("vim.opt.runtimepath:append(%q)\nrequire('flowcabal').setup({ cmd = { %q, 'serve' }, codelens_debounce = 10 })\n", plugin, bin)
	if err := os.WriteFile(initLua, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		args  []string // files on the command line
		open  string   // Ex commands run first
		roots int
	}{
		{"one file on the command line, then :split", []string{a}, "split " + b, 1},
		{"two files at once", []string{"-o", a, b}, "", 1},
		{"two files on the command line, one hidden", []string{a, b}, "", 1},
		{":e then :vsplit", nil, "edit " + a + "|vsplit " + b, 1},
		{":e in one buffer after another", nil, "edit " + a + "|edit " + b, 1},
		{"two projects", []string{a}, "split " + b + "|split " + x, 2},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			report := filepath.Join(t.TempDir(), "report.txt")
			args := append([]string{"--headless", "-u", initLua, "-i", "NONE"}, tc.args...)
			args = append(args, "-c", "luafile "+script)
			cmd := exec.Command(nvim, args...)
			cmd.Dir = proj
			cmd.Env = append(os.Environ(),
				"FLOWCABAL_BIN="+bin, "FLOWCABAL_REPORT="+report, "FLOWCABAL_OPEN="+tc.open,
				fmt.Sprintf("FLOWCABAL_ROOTS=%d", tc.roots),
				"XDG_CONFIG_HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir())
			out, runErr := cmd.CombinedOutput()
			rep, _ := os.ReadFile(report)
			for _, w := range []string{"attach", "one server per root", "one client per buffer", "each lens once"} {
				if !strings.Contains("\n"+string(rep), "\nok "+w+"\n") {
					t.Errorf("step %q did not pass", w)
				}
			}
			if runErr != nil || t.Failed() {
				t.Errorf("nvim: %v\nreport:\n%s\noutput:\n%s", runErr, rep, out)
			}
		})
	}
}
