package server

import (
	"context"
	"errors"
	"fmt"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/source"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// routes maps every method the server answers to its handler. It is
// never modified.
var routes = map[string]route{
	protocol.MethodInitialize:  req((*Server).initialize),
	protocol.MethodInitialized: note((*Server).initialized),
	protocol.MethodShutdown:    req((*Server).shutdown),
	protocol.MethodExit:        note((*Server).exit),
	protocol.MethodSetTrace:    note((*Server).setTrace),

	protocol.MethodTextDocumentDidOpen:             note((*Server).didOpen),
	protocol.MethodTextDocumentDidChange:           note((*Server).didChange),
	protocol.MethodTextDocumentDidClose:            note((*Server).didClose),
	protocol.MethodTextDocumentDidSave:             note((*Server).didSave),
	protocol.MethodWorkspaceDidChangeWatchedFiles:  note((*Server).didChangeWatchedFiles),
	protocol.MethodWorkspaceDidChangeConfiguration: note((*Server).didChangeConfiguration),
	protocol.MethodWorkDoneProgressCancel:          note((*Server).workDoneProgressCancel),

	protocol.MethodTextDocumentDocumentSymbol: req((*Server).documentSymbol),
	protocol.MethodWorkspaceSymbol:            req((*Server).workspaceSymbol),
	protocol.MethodTextDocumentDefinition:     req((*Server).definition),
	protocol.MethodTextDocumentReferences:     req((*Server).references),
	protocol.MethodTextDocumentPrepareRename:  req((*Server).prepareRename),
	protocol.MethodTextDocumentRename:         req((*Server).rename),
	protocol.MethodTextDocumentCompletion:     req((*Server).completion),
	protocol.MethodCompletionItemResolve:      req((*Server).resolveCompletion),
	protocol.MethodTextDocumentHover:          req((*Server).hover),
	protocol.MethodTextDocumentCodeLens:       req((*Server).codeLens),
	protocol.MethodTextDocumentCodeAction:     req((*Server).codeAction),
	protocol.MethodWorkspaceExecuteCommand:    req((*Server).executeCommand),
	protocol.MethodTextDocumentFormatting:     req((*Server).formatting),
	protocol.MethodTextDocumentFoldingRange:   req((*Server).foldingRange),
	protocol.MethodSemanticTokensFull:         req((*Server).semanticTokensFull),

	protocol.MethodTextDocumentDocumentHighlight:    req((*Server).documentHighlight),
	protocol.MethodTextDocumentDocumentLink:         req((*Server).documentLink),
	"textDocument/selectionRange":                   req((*Server).selectionRange),
	protocol.MethodTextDocumentPrepareCallHierarchy: req((*Server).prepareCallHierarchy),
	protocol.MethodCallHierarchyIncomingCalls:       req((*Server).incomingCalls),
	protocol.MethodCallHierarchyOutgoingCalls:       req((*Server).outgoingCalls),
	"codeAction/resolve":                            req((*Server).resolveCodeAction),
	"textDocument/inlayHint":                        req((*Server).inlayHint),
	protocol.MethodWillRenameFiles:                  req((*Server).willRenameFiles),

	// A no-op request: the floor of a round trip, for benchmarks and
	// health checks.
	"flowcabal/ping": req((*Server).ping),
}

func init() {
	for _, m := range unimplemented {
		routes[m] = route{call: notImplemented(m)}
	}
}

// fileOf returns the current snapshot and the document at uri in it.
func (s *Server) fileOf(uri protocol.DocumentURI) (*cache.Snapshot, *cache.File, error) {
	snap, err := s.snapshot()
	if err != nil {
		return nil, nil, err
	}
	f, ok := snap.File(uri)
	if !ok {
		return nil, nil, errNotOpen(uri)
	}
	return snap, f, nil
}

// isProse reports whether uri is a Markdown document the server follows
// for Options.Prose. The features of .flow files answer nothing there
// rather than an error: a client may ask them of every document it shares
// with the server.
func (s *Server) isProse(uri protocol.DocumentURI) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.prose[uri]
	return ok
}

// featureError gives feature errors their codes: a position outside the
// document is the client's mistake (InvalidParams).
func featureError(err error) error {
	if errors.Is(err, source.ErrOutOfRange) {
		return jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	return err
}

// didChangeConfiguration tells the command runner to re-read the editor's
// settings (they are pulled with workspace/configuration, whatever the
// notification carries).
func (s *Server) didChangeConfiguration(ctx context.Context, _ *struct{}) error {
	if c, ok := s.opts.Commands.(Reconfigurer); ok {
		go c.Reconfigure(editor{s})
	}
	return nil
}

// workDoneProgressCancel passes the author's cancel of a progress to the
// command runner whose work it reports.
func (s *Server) workDoneProgressCancel(ctx context.Context, p *protocol.WorkDoneProgressCancelParams) error {
	if c, ok := s.opts.Commands.(ProgressCanceller); ok {
		c.CancelProgress(fmt.Sprint(p.Token))
	}
	return nil
}

func (s *Server) ping(ctx context.Context, _ *struct{}) (string, error) { return "pong", nil }
