package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCmd(t *testing.T, run func(context.Context, *cliEnv, []string) int, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &cliEnv{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	code := run(context.Background(), env, args)
	return code, out.String(), errb.String()
}

func TestCheckSampleProjects(t *testing.T) {
	code, out, errs := runCmd(t, runCheck, filepath.Join("..", "..", "testdata", "projects"))
	if code != exitOK || out != "" {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

func TestCheckFindsErrors(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "meta"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "flowcabal.toml"), []byte("budget = 100\n[models.fast]\nbase_url = \"http://127.0.0.1:1\"\nmodel = \"m\"\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "meta", "style-guide.md"), []byte(strings.Repeat("文", 300)), 0o644)
	src := "node 甲 {\n  model = fast\n  user \"{{@meta/style-guide}} {{@meta/style-guid}} {{乙}}\"\n}\n"
	os.WriteFile(filepath.Join(dir, "w.flow"), []byte(src), 0o644)
	code, out, _ := runCmd(t, runCheck, dir)
	if code != exitFindings {
		t.Errorf("exit %d, want %d", code, exitFindings)
	}
	name := filepath.Join(dir, "w.flow")
	for _, want := range []string{
		name + ":1:6: warning: node 甲's explicit references need about 300 tokens, over its budget of 100 [over-budget]",
		// Columns count UTF-8 bytes: `  user "` is 8 bytes, the first ref 21,
		// a space and `{{@` 4 more: the path starts at byte 33, column 34.
		name + ":3:34: error: no project resource meta/style-guid; did you mean meta/style-guide? [missing-knowledge]",
		name + ":3:54: error: unknown reference {{乙}}: no node or input 乙; did you mean 甲? [unknown-ref]",
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("output lacks\n%s\ngot:\n%s", want, out)
		}
	}
	code, out, _ = runCmd(t, runCheck, "--json", name)
	var ds []jsonDiagnostic
	if err := json.Unmarshal([]byte(out), &ds); err != nil || code != exitFindings || len(ds) != 3 {
		t.Fatalf("--json: exit %d, %v, %s", code, err, out)
	}
	if ds[1].Code != "missing-knowledge" || ds[1].Suggestions[0] != "meta/style-guide" || ds[1].Line != 3 || ds[1].Col != 34 {
		t.Errorf("json diagnostic %+v", ds[1])
	}
}

func TestCheckUsage(t *testing.T) {
	code, _, errs := runCmd(t, runCheck, "-h")
	if code != exitOK || !strings.Contains(errs, "usage: flowcabal check") {
		t.Errorf("-h: %d %s", code, errs)
	}
	if code, _, _ := runCmd(t, runCheck, "--bogus"); code != exitUsage {
		t.Errorf("bad flag: exit %d", code)
	}
	if code, _, _ := runCmd(t, runCheck, filepath.Join(t.TempDir(), "missing.flow")); code != exitFailure {
		t.Errorf("missing file: exit %d", code)
	}
}

func TestFmt(t *testing.T) {
	dir := t.TempDir()
	messy := "node a   {user \"x\"}   # c\n"
	clean := "node a {\n  user \"x\"\n} # c\n"
	os.WriteFile(filepath.Join(dir, "a.flow"), []byte(messy), 0o644)
	os.WriteFile(filepath.Join(dir, "b.flow"), []byte(clean), 0o644)
	os.WriteFile(filepath.Join(dir, "broken.flow"), []byte("node {"), 0o644)

	code, out, errs := runCmd(t, runFmt, "-l", dir)
	if code != exitFindings || out != filepath.Join(dir, "a.flow")+"\n" || !strings.Contains(errs, "broken.flow") {
		t.Errorf("-l: exit %d out %q err %q", code, out, errs)
	}
	code, out, _ = runCmd(t, runFmt, filepath.Join(dir, "a.flow"))
	if code != exitOK || out != clean {
		t.Errorf("stdout: %d %q", code, out)
	}
	if code, _, _ := runCmd(t, runFmt, "-w", filepath.Join(dir, "a.flow")); code != exitOK {
		t.Errorf("-w: exit %d", code)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "a.flow")); string(got) != clean {
		t.Errorf("-w wrote %q", got)
	}
}

// TestCheckManuscript lints chapters as the editor does: a misspelt name
// in a chapter, a forbidden term in a node output, each printed as
// file:line:col: severity: message [code], columns in UTF-8 bytes. Only a
// folder inside manuscript/ or the outputs (or a .md named) is fact
// checked: `check` on the project still checks its workflows alone.
func TestCheckManuscript(t *testing.T) {
	root := copySample(t)
	ch := filepath.Join(root, "manuscript", "chapter-05", "content.md")
	os.WriteFile(ch, []byte("# Chapter V\n\n“Ah, 𝄞 Elizabth,” said Jane.\n"), 0o644)
	outDir := filepath.Join(root, ".flowcabal", "outputs", "workflows", "chapter-11")
	os.MkdirAll(outDir, 0o755)
	os.WriteFile(filepath.Join(outDir, "draft.md"), []byte("<!-- flowcabal: workflow=workflows/chapter-11.flow node=draft state=\"approved\" -->\nJane sent a telegram to London.\n"), 0o644)

	code, out, errs := runCLI(t, "", "check", filepath.Join(root, "manuscript"))
	rel := filepath.Join(root, "manuscript", "chapter-05", "content.md")
	if code != exitFindings || !strings.Contains(out, rel+":3:13: error: ") || !strings.Contains(out, "[name]") {
		t.Errorf("check manuscript/: exit %d\n%s%s", code, out, errs)
	}
	code, out, _ = runCLI(t, "", "check", outDir)
	if code != exitFindings || !strings.Contains(out, "draft.md:2:") || !strings.Contains(out, "[world]") {
		t.Errorf("check the outputs: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "", "check", "--json", rel)
	if code != exitFindings || !strings.Contains(out, `"code": "name"`) || !strings.Contains(out, `"suggestions": [`) {
		t.Errorf("check --json a chapter: exit %d\n%s", code, out)
	}
	if code, out, _ := runCLI(t, "", "check", root); strings.Contains(out, "[name]") || code != exitOK {
		t.Errorf("check on the project fact-checked its chapters: exit %d\n%s", code, out)
	}
}
