package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/server/lsptest"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

func TestOutOfRangePositions(t *testing.T) {
	s := newSession(t, "vscode-1.100.json", flowFiles())
	uri := s.uri("workflows/a.flow")
	s.open("workflows/a.flow")
	for _, m := range []string{"textDocument/hover", "textDocument/definition", "textDocument/completion", "textDocument/references", "textDocument/prepareRename",
		"textDocument/documentHighlight", "textDocument/selectionRange", "textDocument/prepareCallHierarchy"} {
		params := docPos(uri, protocol.Position{Line: 9999, Character: 0})
		params["context"] = map[string]any{"includeDeclaration": true}
		params["positions"] = []protocol.Position{{Line: 0, Character: 0}, {Line: 9999, Character: 0}}
		err := s.client.Call(s.ctx, m, params, nil)
		if codeOf(err) != jsonrpc2.InvalidParams {
			t.Errorf("%s past the last line: %v", m, err)
		}
		// A column past the end of a line is clamped, as the spec asks.
		params = docPos(uri, protocol.Position{Line: 0, Character: 9999})
		params["context"] = map[string]any{"includeDeclaration": true}
		params["positions"] = []protocol.Position{{Line: 0, Character: 9999}}
		if err := s.client.Call(s.ctx, m, params, nil); err != nil && !strings.Contains(err.Error(), "renamed") {
			t.Errorf("%s past the end of a line: %v", m, err)
		}
	}
}

func TestUnopenedWorkspaceFilesAreKnown(t *testing.T) {
	files := flowFiles()
	files["workflows/b.flow"] = "node only {\n  user \"hi\"\n}\n"
	s := newSession(t, "vscode-1.100.json", files)
	// Diagnostics of closed workspace files arrive without opening them.
	if _, err := s.client.Diagnostics(s.ctx, s.uri("workflows/b.flow"), -1); err != nil {
		t.Fatal(err)
	}
	var syms []map[string]any
	s.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": s.uri("workflows/b.flow")}}, &syms)
	if len(syms) != 1 || syms[0]["name"] != "only" {
		t.Errorf("symbols of a closed file: %v", syms)
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	for _, how := range []string{"exit", "hang up"} {
		t.Run(how, func(t *testing.T) {
			a, b := net.Pipe()
			srv := newServer(Options{Logger: slog.New(slog.DiscardHandler)})
			done := make(chan error, 1)
			go func() { done <- srv.serve(context.Background(), a) }()
			ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
			defer cancel()
			c := lsptest.Connect(ctx, b)
			if err := c.Call(ctx, "initialize", map[string]any{"capabilities": map[string]any{}}, nil); err != nil {
				t.Fatal(err)
			}
			if how == "exit" {
				_ = c.Notify(ctx, "exit", nil)
			} else {
				c.Close()
			}
			select {
			case err := <-done:
				if !errors.Is(err, ErrNoShutdown) {
					t.Errorf("Serve = %v, want ErrNoShutdown", err)
				}
			case <-ctx.Done():
				t.Fatal("Serve did not return")
			}
			c.Close()
			<-c.Conn.Done()
		})
	}
}

func TestRequestsAfterShutdownAreRefused(t *testing.T) {
	s := newSession(t, "vscode-1.100.json", flowFiles())
	s.call("shutdown", nil, nil)
	err := s.client.Call(s.ctx, "workspace/symbol", map[string]any{"query": ""}, nil)
	if codeOf(err) != jsonrpc2.InvalidRequest {
		t.Errorf("request after shutdown: %v", err)
	}
}

// TestDiagnosticsLatestVersionOnly sends a burst of changes without
// waiting: publications for the document never go back to an older
// version, and the last version is published with its own diagnostics.
func TestDiagnosticsLatestVersionOnly(t *testing.T) {
	s := newSession(t, "vscode-1.100.json", flowFiles())
	uri := s.uri("workflows/a.flow")
	s.open("workflows/a.flow")
	const n = 40
	for v := 2; v <= n; v++ {
		text := astralFlow
		if v%2 == 0 {
			text = strings.Replace(astralFlow, "{{premis}}", fmt.Sprintf("{{missing%d}}", v), 1)
		}
		_ = s.client.Notify(s.ctx, "textDocument/didChange", map[string]any{
			"textDocument": map[string]any{"uri": uri, "version": v}, "contentChanges": []map[string]any{{"text": text}}})
	}
	last, err := s.client.Diagnostics(s.ctx, uri, n)
	if err != nil {
		t.Fatal(err)
	}
	var prev int32
	for _, p := range s.client.PublishedFor(uri) {
		if p.Version == nil {
			continue
		}
		if *p.Version < prev {
			t.Errorf("version %d published after version %d", *p.Version, prev)
		}
		prev = *p.Version
	}
	if !strings.Contains(fmt.Sprint(last.Diagnostics), "missing40") {
		t.Errorf("diagnostics of the last version: %v", last.Diagnostics)
	}
}

// TestDiagnosticsFollowUsedFiles changes a used file: the file that uses
// it gets new diagnostics without being touched.
func TestDiagnosticsFollowUsedFiles(t *testing.T) {
	s := newSession(t, "vscode-1.100.json", map[string]string{
		"flowcabal.toml":      "",
		"workflows/act.flow":  "node plan {\n  user \"Plan the act.\"\n}\n",
		"workflows/book.flow": "use \"act.flow\" as act\n\nnode review {\n  user \"\"\"\n    Review {{act.plan}}\n  \"\"\"\n}\n",
	})
	book, act := s.uri("workflows/book.flow"), s.uri("workflows/act.flow")
	if p := s.open("workflows/book.flow"); hasCode(p, "unknown-use-node") {
		t.Fatalf("book starts broken: %v", p.Diagnostics)
	}
	s.open("workflows/act.flow")
	s.change(act, 2, "node draft {\n  user \"Plan the act.\"\n}\n")
	// The book is not touched: its diagnostics change because its used
	// file did. Wait for that publication (a timeout fails the test).
	err := s.client.WaitFor(s.ctx, "book's unknown-use-node", func(v *lsptest.View) bool {
		for i := len(v.Published) - 1; i >= 0; i-- {
			if v.Published[i].URI == book {
				return hasCode(v.Published[i], "unknown-use-node")
			}
		}
		return false
	})
	if err != nil {
		t.Fatal(err)
	}
	// Renaming the node back across files via rename on the use site.
	bookText := s.read("workflows/book.flow")
	var edit protocol.WorkspaceEdit
	s.change(act, 3, "node plan {\n  user \"Plan the act.\"\n}\n")
	s.call("textDocument/rename", map[string]any{"textDocument": map[string]any{"uri": book},
		"position": s.pos(bookText, "{{act.pl|an}}"), "newName": "计划"}, &edit)
	if len(edit.Changes[act]) != 1 || len(edit.Changes[book]) != 1 {
		t.Fatalf("cross-file rename edits: %v", edit.Changes)
	}
	newBook, _ := lsptest.Apply(bookText, edit.Changes[book], false)
	if !strings.Contains(newBook, "{{act.计划}}") {
		t.Errorf("book after rename:\n%s", newBook)
	}
}

func hasCode(p lsptest.Published, code string) bool {
	for _, d := range p.Diagnostics {
		if d.Code == code {
			return true
		}
	}
	return false
}

// TestShutdownAnswerSurvivesImmediateExit: a client that sends exit right
// behind shutdown, without waiting, still gets the shutdown answer.
func TestShutdownAnswerSurvivesImmediateExit(t *testing.T) {
	for i := 0; i < 20; i++ {
		r := startRaw(t)
		r.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{}}}`)
		r.next()
		shutdown := `{"jsonrpc":"2.0","id":2,"method":"shutdown"}`
		exit := `{"jsonrpc":"2.0","method":"exit"}`
		fmt.Fprintf(r.conn, "Content-Length: %d\r\n\r\n%sContent-Length: %d\r\n\r\n%s", len(shutdown), shutdown, len(exit), exit)
		if m := r.next(); m["id"] != float64(2) || m["error"] != nil {
			t.Fatalf("run %d: shutdown answered %v", i, m)
		}
		if err := <-r.done; err != nil {
			t.Fatalf("run %d: Serve = %v", i, err)
		}
		r.done <- nil // for the cleanup
	}
}

// TestNoBackgroundWorkAfterTheSession: work that arrives after the
// session ended (a run's last event asking the editor to refresh its
// lenses) is dropped, not started while Serve waits for its goroutines.
func TestNoBackgroundWorkAfterTheSession(t *testing.T) {
	s := newServer(Options{})
	a, b := net.Pipe()
	done := make(chan error, 1)
	go func() { done <- s.serve(context.Background(), a) }()
	b.Close() // the client vanishes
	<-done
	ran := 0
	s.goBackground(func(context.Context) { ran++ })
	s.handlers.Wait() // would wait for f had it started
	if ran != 0 {
		t.Error("background work started after the session ended")
	}
	s.refreshViews() // and the path the run's event takes does not panic
}
