package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestScriptedLLMCommand(t *testing.T) {
	var stdout, stderr lockedBuffer
	env := &cliEnv{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	code := make(chan int, 1)
	go func() { code <- runScriptedLLM(ctx, env, []string{"--addr", "127.0.0.1:0", "--latency", "5ms"}) }()

	re := regexp.MustCompile(`base_url = "(http://127\.0\.0\.1:\d+/v1)"`)
	var base string
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if m := re.FindStringSubmatch(stdout.String()); m != nil {
			base = m[1]
			break
		}
	}
	if base == "" {
		t.Fatalf("no base_url printed: %q %q", stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "SCRIPTED STAND-IN, NOT A MODEL") {
		t.Errorf("the banner does not say it is a stand-in: %q", stdout.String())
	}
	resp, err := http.Post(base+"/chat/completions", "application/json",
		strings.NewReader(`{"model":"any","messages":[{"role":"user","content":"Write chapter one"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "[scripted stand-in]") || !strings.Contains(string(body), "Write chapter one") {
		t.Errorf("reply: %s", body)
	}
	cancel()
	select {
	case c := <-code:
		if c != exitOK {
			t.Errorf("exit %d", c)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("did not stop on cancel")
	}
	if !strings.Contains(stderr.String(), "POST /v1/chat/completions") {
		t.Errorf("request not logged: %q", stderr.String())
	}
}

func TestScriptedLLMCommandErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"replies": [{"fault": "explode"}]}`), 0o644)
	for _, tt := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--addr", "0.0.0.0:0"}, exitFailure, "loopback only"},
		{[]string{"--script", bad}, exitUsage, "unknown fault"},
		{[]string{"--script", filepath.Join(dir, "missing.json")}, exitUsage, "missing.json"},
		{[]string{"--bogus"}, exitUsage, "flag provided but not defined"},
		{[]string{"extra"}, exitUsage, "usage"},
	} {
		var stdout, stderr lockedBuffer
		env := &cliEnv{stdout: &stdout, stderr: &stderr, getenv: func(string) string { return "" }}
		if c := runScriptedLLM(context.Background(), env, tt.args); c != tt.code || !strings.Contains(stderr.String(), tt.msg) {
			t.Errorf("%v: exit %d, stderr %q", tt.args, c, stderr.String())
		}
	}
}
