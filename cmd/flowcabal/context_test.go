package main

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestContextCommand(t *testing.T) {
	root := copySample(t)
	flow := filepath.Join(root, "workflows", "chapter-11.flow")
	run := func(args ...string) (int, string, string) {
		var out, errb bytes.Buffer
		env := &cliEnv{stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
		return runContext(context.Background(), env, args), out.String(), errb.String()
	}
	code, out, errs := run(flow, "draft", "--json", "--budget", "4000")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var c struct {
		Hash         string `json:"hash"`
		Budget       int    `json:"budget"`
		Tokens       int    `json:"tokens"`
		SystemPrefix string `json:"system_prefix"`
		UserSuffix   string `json:"user_suffix"`
		Sources      []struct {
			Path, Level, Reason string
			Tokens              int
		} `json:"sources"`
		Dropped []struct{ Path, Level, Why string } `json:"dropped"`
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if len(c.Hash) != 64 || c.Budget != 4000 || c.Tokens <= 0 || c.Tokens > 4000 || len(c.Sources) == 0 {
		t.Fatalf("bad context: hash %q budget %d tokens %d sources %d", c.Hash, c.Budget, c.Tokens, len(c.Sources))
	}
	for _, s := range c.Sources {
		if strings.HasPrefix(s.Path, "/") || s.Reason == "" || s.Tokens <= 0 {
			t.Errorf("bad source %+v", s)
		}
	}
	if !strings.Contains(c.UserSuffix, "manuscript/chapter-10/content.md") {
		t.Errorf("previous chapter missing from the user suffix")
	}
	// Same inputs, same bytes.
	_, again, _ := run(flow, "draft", "--json", "--budget", "4000")
	if again != out {
		t.Error("two runs differ")
	}
	code, out, _ = run(flow, "draft")
	if code != exitOK || !strings.Contains(out, "PATH") || !strings.Contains(out, "previous chapter") {
		t.Errorf("table output: exit %d\n%s", code, out)
	}
	if code, _, errs := run(flow, "nope"); code != exitFailure || !strings.Contains(errs, `no node "nope"`) {
		t.Errorf("unknown node: exit %d %s", code, errs)
	}
	if code, _, _ := run(flow); code != exitUsage {
		t.Errorf("missing node: exit %d", code)
	}
}
