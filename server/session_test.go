package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/lsptest"
	"go.lsp.dev/protocol"
	"go.uber.org/goleak"
)

func TestMain(m *testing.M) {
	goleak.VerifyTestMain(m)
}

// testTimeout bounds every wait of a test: a hang fails instead of
// blocking the suite. It is not a timing assertion.
const testTimeout = 20 * time.Second

// session is one server over an in-memory pipe, driven by a test client.
type session struct {
	t      *testing.T
	ctx    context.Context
	dir    string
	srv    *Server
	client *lsptest.Client
	done   chan error
	logs   *syncBuffer
	init   initializeResult
	utf8   bool
	ended  bool
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// writeFiles writes files (slash paths -> content) under dir.
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// initParams loads a captured initialize payload and points it at dir.
func initParams(t *testing.T, payload, dir string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "lsp", "initialize", payload))
	if err != nil {
		t.Fatal(err)
	}
	var p map[string]any
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	uri := string(cache.FileURI(dir))
	p["rootUri"] = uri
	p["rootPath"] = dir
	if _, ok := p["workspaceFolders"]; ok && p["workspaceFolders"] != nil {
		p["workspaceFolders"] = []map[string]string{{"uri": uri, "name": filepath.Base(dir)}}
	}
	return p
}

// start begins a session with the server not yet initialized.
func start(t *testing.T, files map[string]string, setup func(*Server)) *session {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, files)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	t.Cleanup(cancel)
	logs := &syncBuffer{}
	srv := newServer(Options{Logger: slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})), Version: "test"})
	if setup != nil {
		setup(srv)
	}
	a, b := net.Pipe()
	s := &session{t: t, ctx: ctx, dir: dir, srv: srv, logs: logs, done: make(chan error, 1)}
	go func() { s.done <- srv.serve(context.Background(), a) }()
	s.client = lsptest.Connect(ctx, b)
	t.Cleanup(s.end)
	return s
}

// newSession starts and initializes a session with one of the captured
// initialize payloads.
func newSession(t *testing.T, payload string, files map[string]string) *session {
	t.Helper()
	s := start(t, files, nil)
	s.initialize(payload)
	return s
}

func (s *session) initialize(payload string) {
	s.t.Helper()
	if err := s.client.Call(s.ctx, "initialize", initParams(s.t, payload, s.dir), &s.init); err != nil {
		s.t.Fatalf("initialize: %v", err)
	}
	s.utf8 = s.init.Capabilities.PositionEncoding == "utf-8"
	if err := s.client.Notify(s.ctx, "initialized", map[string]any{}); err != nil {
		s.t.Fatal(err)
	}
}

// end shuts the session down properly (once) and checks that Serve
// returned cleanly.
func (s *session) end() {
	if s.ended {
		return
	}
	s.ended = true
	_ = s.client.Call(s.ctx, "shutdown", nil, nil)
	_ = s.client.Notify(s.ctx, "exit", nil)
	select {
	case err := <-s.done:
		if err != nil {
			s.t.Errorf("Serve: %v", err)
		}
	case <-s.ctx.Done():
		s.t.Errorf("Serve did not return after exit")
	}
	s.client.Close()
	<-s.client.Conn.Done()
}

// uri returns the URI of a workspace file.
func (s *session) uri(name string) protocol.DocumentURI {
	return cache.FileURI(filepath.Join(s.dir, filepath.FromSlash(name)))
}

// read returns a workspace file's content on disk.
func (s *session) read(name string) string {
	b, err := os.ReadFile(filepath.Join(s.dir, filepath.FromSlash(name)))
	if err != nil {
		s.t.Fatal(err)
	}
	return string(b)
}

// open opens a workspace file with its disk content and waits for its
// first diagnostics.
func (s *session) open(name string) lsptest.Published {
	s.t.Helper()
	return s.openText(s.uri(name), s.read(name), 1)
}

func (s *session) openText(uri protocol.DocumentURI, text string, version int32) lsptest.Published {
	s.t.Helper()
	err := s.client.Notify(s.ctx, "textDocument/didOpen", &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: uri, LanguageID: "flow", Version: version, Text: text}})
	if err != nil {
		s.t.Fatal(err)
	}
	p, err := s.client.Diagnostics(s.ctx, uri, version)
	if err != nil {
		s.t.Fatal(err)
	}
	return p
}

// change replaces a document's whole text and waits for the diagnostics
// of the new version.
func (s *session) change(uri protocol.DocumentURI, version int32, text string) lsptest.Published {
	s.t.Helper()
	err := s.client.Notify(s.ctx, "textDocument/didChange", map[string]any{
		"textDocument":   map[string]any{"uri": uri, "version": version},
		"contentChanges": []map[string]any{{"text": text}}})
	if err != nil {
		s.t.Fatal(err)
	}
	p, err := s.client.Diagnostics(s.ctx, uri, version)
	if err != nil {
		s.t.Fatal(err)
	}
	return p
}

// pos returns the position of the '|' in marker, which must occur in text
// once with the '|' removed.
func (s *session) pos(text, marker string) protocol.Position {
	s.t.Helper()
	off, err := markerOffset(text, marker)
	if err != nil {
		s.t.Fatal(err)
	}
	return lsptest.Position(text, off, s.utf8)
}

func markerOffset(text, marker string) (int, error) {
	i := strings.Index(marker, "|")
	if i < 0 {
		return 0, errors.New("marker " + marker + " has no '|'")
	}
	needle := marker[:i] + marker[i+1:]
	at := strings.Index(text, needle)
	if at < 0 {
		return 0, errors.New("marker " + marker + " not found")
	}
	if strings.Count(text, needle) > 1 {
		return 0, errors.New("marker " + marker + " is ambiguous")
	}
	return at + i, nil
}

// call sends a request and fails the test on error.
func (s *session) call(method string, params, result any) {
	s.t.Helper()
	if err := s.client.Call(s.ctx, method, params, result); err != nil {
		s.t.Fatalf("%s: %v", method, err)
	}
}

func docPos(uri protocol.DocumentURI, p protocol.Position) map[string]any {
	return map[string]any{"textDocument": map[string]any{"uri": uri}, "position": p}
}
