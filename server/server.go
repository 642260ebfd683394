// Package server is FlowCabal's language server. It is thin, after gopls:
// one file per LSP method, each handler taking an immutable snapshot of the
// workspace (package cache), finding the file, and calling the feature's
// logic (package source). The JSON-RPC wiring (conn.go, stream.go) works
// around the traps of go.lsp.dev/jsonrpc2 and go.lsp.dev/protocol listed in
// the team's LSP notes: panics become errors, numeric $/cancelRequest ids
// are honoured, requests run concurrently, errors carry proper codes,
// initialize is answered with 3.17 capabilities, and a malformed frame does
// not end the session.
package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"

	"github.com/flowcabal/flowcabal/internal/rpcconn"
	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/source"
	"github.com/flowcabal/flowcabal/workflowlang"
	fastjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// Options configure a server.
type Options struct {
	// Logger receives the server's logs (the command sends them to
	// stderr); the server also forwards warnings and errors to the client
	// with window/logMessage. Nil discards.
	Logger *slog.Logger
	// Version is reported in initialize's serverInfo.
	Version string
	// Commands executes the workspace commands whose real work belongs to
	// other parts of FlowCabal (the runner, the agents). Nil answers every
	// such command with a "not available yet" error.
	Commands CommandRunner
	// ContextSection renders Role A's "Context injected" hover section.
	// Nil says the section is not available yet.
	ContextSection source.ContextSection
	// Lenses adds code lenses to a workflow's (the run state of each node
	// and the decisions it waits for). Nil adds none.
	Lenses func(snap *cache.Snapshot, f *cache.File, enc workflowlang.Encoding) []protocol.CodeLens
	// RunEstimate says what running a node ("" for the workflow) would
	// send and cost, appended to its "Run node" / "Run workflow" lens;
	// "" adds nothing. An estimate made in the background calls refresh
	// once it is made, to have the editor redraw the lenses. Nil adds
	// nothing.
	RunEstimate func(snap *cache.Snapshot, f *cache.File, node string, refresh func()) string
	// Completions adds items to a workflow's completion list (Role B's
	// whole-node snippets); snippets says whether the client takes LSP
	// snippet syntax.
	Completions func(snap *cache.Snapshot, f *cache.File, pos protocol.Position, enc workflowlang.Encoding, snippets bool) []protocol.CompletionItem
	// CodeActions adds code actions on a workflow (Role B's actions on a
	// node); only is the client's requested kinds. lazy says the client
	// resolves code actions (codeAction/resolve with the "edit" property)
	// and ResolveCodeAction is set: an action whose edit is costly to make
	// may then come with Data and no Edit, to be completed by
	// ResolveCodeAction when the author picks it.
	CodeActions func(ctx context.Context, snap *cache.Snapshot, f *cache.File, rng protocol.Range, only []protocol.CodeActionKind, enc workflowlang.Encoding, lazy bool) []protocol.CodeAction
	// ResolveCodeAction fills in the edit of an action CodeActions listed
	// lazily (its Data set, its Edit not). Nil: no action is listed lazily.
	ResolveCodeAction func(ctx context.Context, snap *cache.Snapshot, a protocol.CodeAction, enc workflowlang.Encoding) (protocol.CodeAction, error)
	// FilesChanged is told of the files the client saw change on disk
	// (knowledge files re-indexed, Role A's view rebuilt).
	FilesChanged func(paths []string)
	// Opened is told of a workflow file the editor opened, once its first
	// diagnostics are published, so that what its hovers and hints will
	// read (Role A's view of the project, the workflow's estimate) is
	// made in the background before they ask; it must return at once.
	// Nil does nothing.
	Opened func(snap *cache.Snapshot, f *cache.File)
	// TextHover explains prompt text under the cursor when the language
	// itself has nothing to say there (Role A on an entity's name); it
	// returns Markdown, or "" for nothing.
	TextHover func(snap *cache.Snapshot, f *cache.File, pos protocol.Position, enc workflowlang.Encoding) string
	// LevelTokens gives what a knowledge resource costs at a level
	// ("L0", "L1", "L2") when something knows it exactly (Role A's counts
	// of the levels the store holds), for the inlay hints; it must answer
	// from what is at hand, never call a model or wait. Nil, or ok false,
	// leaves the snapshot's estimate (the full text's size) where there
	// is one. refresh asks the editor to ask for the hints again, for a
	// count that was not at hand and will be.
	LevelTokens func(snap *cache.Snapshot, path, level string, refresh func()) (n int, ok bool)
	// NodeContexts gives, for the hint at the end of each node's header
	// line, what Role A would inject into each node of f now (tokens of
	// its budget). It must answer from what is at hand, never call a
	// model or wait: counts not made yet are made in the background,
	// refresh called once they are. Nil adds no header hints.
	NodeContexts func(snap *cache.Snapshot, f *cache.File, refresh func()) source.NodeContexts
	// Diagnostics adds diagnostics to an open workflow's (plot threads
	// overdue at the chapter it writes); it must answer from what is at
	// hand. Nil adds none.
	Diagnostics func(snap *cache.Snapshot, f *cache.File, enc workflowlang.Encoding) []protocol.Diagnostic
	// Prose handles the Markdown documents opened beside the workflows
	// (manuscript chapters, node outputs); nil ignores them.
	Prose Prose
}

// Prose is what the server asks of the handler of Markdown documents: it
// is told their full text on open and change (the server applies the
// incremental changes) and answers their code actions. Positions are in
// the negotiated encoding.
type Prose interface {
	Open(ed Editor, uri protocol.DocumentURI, version int32, text string, enc workflowlang.Encoding)
	Change(ed Editor, uri protocol.DocumentURI, version int32, text string, enc workflowlang.Encoding)
	Close(ed Editor, uri protocol.DocumentURI)
	CodeActions(ctx context.Context, uri protocol.DocumentURI, rng protocol.Range, diags []protocol.Diagnostic, enc workflowlang.Encoding) ([]protocol.CodeAction, error)
	CodeLenses(uri protocol.DocumentURI) []protocol.CodeLens
	Hover(uri protocol.DocumentURI, pos protocol.Position, enc workflowlang.Encoding) string
}

// ErrNoShutdown is returned by Serve when the client ended the session
// (exit or end of input) without a shutdown request first.
var ErrNoShutdown = errors.New("client exited without shutdown")

// lifecycle states.
const (
	stateNew = iota
	stateInitialized
	stateShutdown
)

// Server is one language-server session on one connection.
type Server struct {
	opts   Options
	log    *slog.Logger
	conn   jsonrpc2.Conn
	stream *stream

	mu             sync.Mutex
	state          int
	exited         bool
	caps           clientCapabilities
	compactOutline bool // initializationOptions.outline = "nodes"
	hoverLinks     bool // the client renders Markdown links in hovers
	inlayHints     bool // initializationOptions.inlayHints is not false
	inlay          inlayRefresh
	enc            workflowlang.Encoding
	ws             *cache.Workspace
	inflight       map[string]context.CancelFunc
	extra          map[string]route // methods added by tests in this package

	handlers sync.WaitGroup // request goroutines and background work
	ending   bool           // the session is ending: no background work starts (guarded by mu)
	diag     *diagnoser
	prose    map[protocol.DocumentURI][]byte // open Markdown documents, for Options.Prose
	cancel   context.CancelFunc              // ends background work when the session ends
	bg       context.Context

	lastRename atomic.Pointer[renameAnswer] // willRenameFiles's last answer
}

// Serve runs a server on rwc until the client exits or the input ends. It
// returns nil after shutdown then exit, ErrNoShutdown when the client left
// without shutdown, and the context's error when ctx ends first. Every
// goroutine it started has ended when it returns.
func Serve(ctx context.Context, rwc io.ReadWriteCloser, opts Options) error {
	s := newServer(opts)
	return s.serve(ctx, rwc)
}

func newServer(opts Options) *Server {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Server{opts: opts, log: log, inflight: map[string]context.CancelFunc{}, prose: map[protocol.DocumentURI][]byte{}}
}

func (s *Server) serve(ctx context.Context, rwc io.ReadWriteCloser) error {
	bg, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.bg, s.cancel = bg, cancel
	st := newStream(rwc, s.log)
	s.stream = st
	s.conn = rpcconn.New(st)
	// From here on, warnings and errors also reach the client's log.
	s.log = slog.New(newLogHandler(s.log.Handler(), s.conn))
	st.log = s.log
	s.diag = newDiagnoser(s)
	s.conn.Go(bg, s.handle)

	var err error
	select {
	case <-s.conn.Done():
	case <-ctx.Done():
		err = ctx.Err()
		_ = s.conn.Close()
		<-s.conn.Done()
	}
	cancel()
	s.mu.Lock()
	s.ending = true // work that arrives from now on (a run's last event) is dropped
	for _, c := range s.inflight {
		c()
	}
	s.mu.Unlock()
	s.handlers.Wait()
	s.diag.stop()
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.state != stateShutdown {
		return ErrNoShutdown
	}
	return nil
}

// snapshot returns the current snapshot, or an error before initialize.
func (s *Server) snapshot() (*cache.Snapshot, error) {
	s.mu.Lock()
	ws := s.ws
	s.mu.Unlock()
	if ws == nil {
		return nil, jsonrpc2.NewError(codeServerNotInitialized, "server not initialized")
	}
	return ws.Snapshot(), nil
}

// encoding returns the negotiated position encoding.
func (s *Server) encoding() workflowlang.Encoding {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.enc
}

// clientCaps returns the client's capabilities.
func (s *Server) clientCaps() clientCapabilities {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.caps
}

// goBackground runs f on its own goroutine, counted so that Serve waits.
func (s *Server) goBackground(f func(ctx context.Context)) {
	s.mu.Lock()
	if s.ending {
		s.mu.Unlock()
		return
	}
	s.handlers.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.handlers.Done()
		defer func() {
			if r := recover(); r != nil {
				s.log.Error("background work panicked", "panic", fmt.Sprint(r))
			}
		}()
		f(s.bg)
	}()
}

// notify sends a notification to the client, written straight to the
// stream like responses (see respond).
func (s *Server) notify(ctx context.Context, method string, params any) {
	var buf bytes.Buffer
	buf.WriteString(`{"jsonrpc":"2.0","method":`)
	err := encodeTo(&buf, method)
	if err == nil {
		buf.WriteString(`,"params":`)
		err = encodeTo(&buf, params)
	}
	if err == nil {
		buf.WriteByte('}')
		err = s.stream.enqueue(buf.Bytes())
	}
	if err != nil {
		s.log.Debug("notify failed", "method", method, "err", err)
	}
}

// decode unmarshals params, reporting a failure as InvalidParams. It uses
// segmentio/encoding/json, the codec jsonrpc2 already reads every message
// with and a drop-in for encoding/json: the standard decoder's reflection
// was a third of what the server spends on a small request.
func decode(raw json.RawMessage, v any) error {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	if err := fastjson.Unmarshal(raw, v); err != nil {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("invalid params: %v", err))
	}
	return nil
}
