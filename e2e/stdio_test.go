package e2e

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"net"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/lsptest"
	"go.lsp.dev/protocol"
)

// pipeRWC joins a child's stdout (read) and stdin (write).
type pipeRWC struct {
	io.Reader
	io.WriteCloser
}

// session drives one editor session on rwc and checks the answers.
func session(t *testing.T, ctx context.Context, rwc io.ReadWriteCloser, proj string) {
	t.Helper()
	c := lsptest.Connect(ctx, rwc)
	defer c.Close()
	root := cache.FileURI(proj)
	var init map[string]any
	if err := c.Call(ctx, "initialize", map[string]any{"processId": nil, "rootUri": root,
		"capabilities": map[string]any{"textDocument": map[string]any{"hover": map[string]any{"contentFormat": []string{"markdown"}}}}}, &init); err != nil {
		t.Fatal(err)
	}
	_ = c.Notify(ctx, "initialized", map[string]any{})
	uri := cache.FileURI(filepath.Join(proj, "workflows", "ch12.flow"))
	_ = c.Notify(ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "flow", "version": 1, "text": sampleFlow}})
	p, err := c.Diagnostics(ctx, uri, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Diagnostics) != 1 || p.Diagnostics[0].Code != "unknown-ref" {
		t.Errorf("diagnostics: %+v", p.Diagnostics)
	}
	var h protocol.Hover
	off := strings.Index(sampleFlow, "{{premise}}") + 3
	if err := c.Call(ctx, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": lsptest.Position(sampleFlow, off, false)}, &h); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h.Contents.Value, "Where the story stands") {
		t.Errorf("hover: %q", h.Contents.Value)
	}
	if err := c.Call(ctx, "shutdown", nil, nil); err != nil {
		t.Fatal(err)
	}
	_ = c.Notify(ctx, "exit", nil)
}

// TestServeStdio runs the real binary on stdio: everything on stdout is
// protocol (the client would fail on anything else), logs go to stderr,
// and exit after shutdown ends the process with status 0.
func TestServeStdio(t *testing.T) {
	proj := sampleProject(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary(t), "serve")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	session(t, ctx, pipeRWC{bufio.NewReader(stdout), stdin}, proj)
	if err := cmd.Wait(); err != nil {
		t.Errorf("flowcabal serve exited with %v; stderr:\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "initialized") {
		t.Errorf("stderr lacks the log:\n%s", stderr.String())
	}
}

// TestServeExitWithoutShutdown: the process exits with status 1.
func TestServeExitWithoutShutdown(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary(t), "serve")
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := lsptest.Connect(ctx, pipeRWC{stdout, stdin})
	if err := c.Call(ctx, "initialize", map[string]any{"capabilities": map[string]any{}}, nil); err != nil {
		t.Fatal(err)
	}
	_ = c.Notify(ctx, "exit", nil)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Errorf("exit without shutdown: %v, want status 1", err)
	}
	c.Close()
}

// TestServeListen serves on loopback TCP, and refuses other addresses.
func TestServeListen(t *testing.T) {
	out, err := exec.Command(binary(t), "serve", "--listen", "0.0.0.0:0").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "loopback") {
		t.Errorf("non-loopback --listen: %v\n%s", err, out)
	}

	proj := sampleProject(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary(t), "serve", "--listen", "127.0.0.1:0")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}()
	// The address is logged once listening; wait for that line.
	sc := bufio.NewScanner(stderr)
	addr := ""
	for sc.Scan() {
		if i := strings.Index(sc.Text(), "addr="); i >= 0 && strings.Contains(sc.Text(), "listening") {
			addr = strings.Fields(sc.Text()[i+len("addr="):])[0]
			break
		}
	}
	go io.Copy(io.Discard, stderr)
	if addr == "" {
		t.Fatal("no listening address logged")
	}
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	session(t, ctx, conn, proj)
}
