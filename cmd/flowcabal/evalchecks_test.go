package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func runEvalChecksArgs(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	env := &cliEnv{stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	code := dispatch(context.Background(), env, append([]string{"eval", "checks"}, args...))
	return code, out.String(), errb.String()
}

func TestEvalChecksChinese(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "factcheck")
	code, out, errOut := runEvalChecksArgs(t, "--project", filepath.Join(dir, "hongloumeng"), "--cases", filepath.Join(dir, "hongloumeng-planted.jsonl"))
	if code != exitOK {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	last := lines[len(lines)-1]
	m := regexp.MustCompile(`^precision: (\d\.\d\d) recall: (\d\.\d\d) false-positives: (\d+)$`).FindStringSubmatch(last)
	if m == nil {
		t.Fatalf("closing line %q", last)
	}
	if m[1] < "0.90" || m[2] < "0.80" || m[3] != "0" {
		t.Errorf("figures %v", m[1:])
	}
	for _, want := range []string{"type confusion", "name ", "fact ", "state ", "world ", "per 10k chars",
		"fact keys checked deterministically (", "fact keys left to the model angles ("} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// TestEvalChecksContinuity: continuity cases need the previous chapter,
// which --chapters gives from a corpus folder.
func TestEvalChecksContinuity(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "factcheck")
	cases := filepath.Join(dir, "hongloumeng-continuity.jsonl")
	proj := filepath.Join(dir, "hongloumeng")
	code, out, errOut := runEvalChecksArgs(t, "--project", proj, "--cases", cases, "--chapters", filepath.Join("..", "..", "..", "shared", "corpus", "hongloumeng"))
	if code != exitOK {
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	m := regexp.MustCompile(`precision: 1\.00 recall: (\d\.\d\d) false-positives: 0\n$`).FindStringSubmatch(out)
	if m == nil || m[1] < "0.80" {
		t.Errorf("with --chapters:\n%s", out)
	}
	// Without the previous chapter nothing can be found.
	_, out, _ = runEvalChecksArgs(t, "--project", proj, "--cases", cases)
	if !strings.Contains(out, "recall: 0.00") {
		t.Errorf("without --chapters:\n%s", out)
	}
	code, _, errOut = runEvalChecksArgs(t, "--project", proj, "--cases", cases, "--chapters", filepath.Join(dir, "nope"))
	if code != exitFailure || !strings.Contains(errOut, "not a folder") {
		t.Errorf("bad --chapters: exit %d, %q", code, errOut)
	}
}

func TestEvalChecksErrors(t *testing.T) {
	tmp := t.TempDir()
	bad := filepath.Join(tmp, "bad.jsonl")
	if err := os.WriteFile(bad, []byte("{\"id\": 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(tmp, "empty")
	if err := os.Mkdir(empty, 0o755); err != nil {
		t.Fatal(err)
	}
	proj := filepath.Join("..", "..", "testdata", "factcheck", "english")
	tests := []struct {
		args []string
		code int
		msg  string
	}{
		{nil, exitUsage, "usage"},
		{[]string{"--project", proj}, exitUsage, "usage"},
		{[]string{"--project", filepath.Join(tmp, "nope"), "--cases", bad}, exitFailure, "not a folder"},
		{[]string{"--project", proj, "--cases", filepath.Join(tmp, "missing.jsonl")}, exitFailure, "missing.jsonl"},
		{[]string{"--project", proj, "--cases", bad}, exitFailure, "line 1"},
		{[]string{"--project", empty, "--cases", bad}, exitFailure, "line 1"},
	}
	for _, tt := range tests {
		code, _, errOut := runEvalChecksArgs(t, tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.msg) {
			t.Errorf("%v: exit %d stderr %q; want %d and %q", tt.args, code, errOut, tt.code, tt.msg)
		}
	}
}
