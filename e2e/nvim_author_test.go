package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
)

// authorChapter is a chapter whose people are named often enough to be
// suggested, with astral characters before the names.
func authorChapter(n string) string {
	return "第" + n + "回　開卷\n\n" + strings.Repeat("𝄞賈寶玉進來了。寶玉笑道：“好。”黛玉道：“去罷。”林黛玉聽了，便往大觀園來。寶玉說：“妹妹。”黛玉笑道：“是。”\n\n", 6)
}

// TestNeovimAuthorCommands: in headless Neovim, through the plugin's
// commands as an author types them, :FlowImport (a preview, then the
// import), :FlowEntities (only the picked name drafted), the chapter's
// "Add 大觀園 as a location" code action, and :FlowMove of an entity file
// rewriting the open workflow (Neovim 0.7 sends no willRenameFiles),
// :FlowFacts in the moved entity file (the picked proposal added to the
// unsaved buffer, the rejected and conflicting ones not offered), with
// inlay hints turned off in setup{} (e2e/nvim/author.lua).
func TestNeovimAuthorCommands(t *testing.T) {
	nvim, err := exec.LookPath("nvim")
	if err != nil {
		t.Fatalf("nvim not found: install it with scripts/install-test-deps.sh (%v)", err)
	}
	bin := binary(t)
	flow := "node 甲 {\n  user \"\"\"\n    𝄞 寫她：{{@entities/characters/林黛玉}} 與 {{@entities/characters/林黛玉:L0}}\n  \"\"\"\n}\n"
	proj := writeProject(t, map[string]string{
		"flowcabal.toml":             "budget = 24000\n",
		"entities/characters/林黛玉.md": "---\nname: 林黛玉\naliases: [黛玉]\nkind: character\n---\n\n林如海之女。\n",
		"workflows/第一卷.flow":         flow,
		"原稿/書.txt":                   "楔子\n\n開場一句話 𝄞 𠀀。\n\n" + authorChapter("一") + authorChapter("二"),
	})
	// The agent model :FlowFacts asks (the scenario names it in
	// flowcabal.toml only for that step).
	answer, _ := json.Marshal(map[string]any{
		"facts": []any{
			map[string]any{"key": "manner", "value": "笑", "chapter": 1, "quote": "黛玉笑道：“是。”"},
			map[string]any{"key": "home", "value": "揚州", "chapter": 1, "quote": "林黛玉聽了，便往揚州去"},
			map[string]any{"key": "father", "value": "賈政", "chapter": 5, "quote": "林黛玉聽了，便往大觀園來"},
		},
		"progressions": []any{
			map[string]any{"key": "location", "value": "大觀園", "chapter": 2, "quote": "林黛玉聽了，便往大觀園來"},
		},
	})
	llm := llmtest.New(t, llmtest.Script{Replies: []llmtest.Reply{{Match: &llmtest.Match{Contains: "Entity: 林黛玉"}, JSON: answer}}})
	plugin, _ := filepath.Abs("../editors/nvim")
	script, _ := filepath.Abs("nvim/author.lua")
	report := filepath.Join(t.TempDir(), "report.txt")
	cmd := exec.Command(nvim, "--headless", "-u", "NONE", "-i", "NONE", "-c", "luafile "+script)
	cmd.Dir = proj
	cmd.Env = append(os.Environ(),
		"FLOWCABAL_BIN="+bin, "FLOWCABAL_PLUGIN="+plugin,
		"FLOWCABAL_FILE="+filepath.Join(proj, "workflows", "第一卷.flow"), "FLOWCABAL_REPORT="+report, "FLOWCABAL_AGENT_URL="+llm.URL,
		"XDG_STATE_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir())
	out, runErr := cmd.CombinedOutput()
	rep, _ := os.ReadFile(report)
	for _, w := range []string{"attach", "inlay hints off", "FlowImport", "FlowEntities", "add entity code action", "FlowMove", "FlowFacts"} {
		if !strings.Contains("\n"+string(rep), "\nok "+w+"\n") {
			t.Errorf("step %q did not pass", w)
		}
	}
	if n := llm.Count(); n != 1 {
		t.Errorf("%d model requests, want 1 (the accept reads the cached answer)", n)
	}
	t.Logf("nvim report:\n%s", rep)
	if runErr != nil || t.Failed() {
		t.Errorf("nvim: %v\nreport:\n%s\noutput:\n%s", runErr, rep, out)
	}
}
