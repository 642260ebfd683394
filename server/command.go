package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/source"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// The workspace commands. Their real work arrives with the runner and the
// agents (CommandRunner); fixAll is the server's own.
var commands = []string{
	source.CmdRunNode, source.CmdRunWorkflow, "flowcabal.runFrom", "flowcabal.cancel",
	"flowcabal.approve", "flowcabal.retry", "flowcabal.edit", "flowcabal.freeze",
	"flowcabal.unfreeze", "flowcabal.restoreVersion", "flowcabal.persist", "flowcabal.build",
	"flowcabal.buildAccept", "flowcabal.buildReject", "flowcabal.showContext",
	"flowcabal.select", "flowcabal.openOutput", "flowcabal.dismiss", "flowcabal.skip", "flowcabal.checkChapter", "flowcabal.compare", cmdFixAll,
	cmdMove, CmdImportManuscript, CmdSuggestEntities, CmdAcceptEntities, CmdAddEntity, CmdEntityFacts, CmdAcceptFacts,
}

// cmdFixAll applies source.fixAll to a document through workspace/applyEdit
// (for clients, like Neovim, that offer no "fix all on save").
const cmdFixAll = "flowcabal.fixAll"

func commandNames() []string { return append([]string(nil), commands...) }

// CommandArgs is the one argument every FlowCabal command takes: a JSON
// object naming the document and, as the command needs, a node, a
// position, a text (feedback, an intent) and the document version the
// command was issued against.
type CommandArgs struct {
	URI      protocol.DocumentURI `json:"uri"`
	Node     string               `json:"node,omitempty"`
	Position *protocol.Position   `json:"position,omitempty"`
	Text     string               `json:"text,omitempty"`
	Version  *int32               `json:"version,omitempty"`

	// The project commands' arguments (see project_command.go).
	NewURI   protocol.DocumentURI `json:"newUri,omitempty"`
	Files    []string             `json:"files,omitempty"`
	Names    []string             `json:"names,omitempty"`
	DryRun   bool                 `json:"dryRun,omitempty"`
	Force    bool                 `json:"force,omitempty"`
	Encoding string               `json:"encoding,omitempty"`
	Plan     string               `json:"plan,omitempty"`
	Kind     string               `json:"kind,omitempty"`
}

// ErrNotAvailable is what a CommandRunner returns for a command it does not
// implement (yet).
var ErrNotAvailable = errors.New("not available yet")

// CommandRunner executes the commands that belong to the runner and the
// agents. It must return quickly: long work continues in the background
// and reports with $/progress through the request's Editor.
type CommandRunner interface {
	Execute(ctx context.Context, req CommandRequest) (any, error)
}

// Reconfigurer is implemented by a CommandRunner that reads the editor's
// settings; it is told when they change.
type Reconfigurer interface {
	Reconfigure(ed Editor)
}

// ProgressCanceller is implemented by a CommandRunner whose work reports
// with $/progress tokens the author may cancel in the editor.
type ProgressCanceller interface {
	CancelProgress(token string)
}

// CommandRequest is one workspace/executeCommand, resolved: the document
// it names in the snapshot the command was issued against (File is nil
// for a command issued on an output document, which is not a workflow).
type CommandRequest struct {
	Command  string
	Args     CommandArgs
	Snapshot *cache.Snapshot
	File     *cache.File
	Editor   Editor
}

// Editor is what command implementations may ask of the client. Each
// method checks the client's capabilities and works around the protocol
// package's broken client stubs.
type Editor interface {
	// ShowDocument opens uri in the editor; false when the client cannot.
	ShowDocument(ctx context.Context, uri protocol.DocumentURI, takeFocus bool) (bool, error)
	// ApplyEdit asks the client to apply an edit.
	ApplyEdit(ctx context.Context, label string, e *protocol.WorkspaceEdit) (*protocol.ApplyWorkspaceEditResponse, error)
	// ApplyDocumentChanges asks the client to apply text edits and file
	// operations, in order, as one edit; it fails before asking when the
	// client cannot apply them all.
	ApplyDocumentChanges(ctx context.Context, label string, changes []DocumentChange) (*protocol.ApplyWorkspaceEditResponse, error)
	// Call sends a request (window/workDoneProgress/create, …).
	Call(ctx context.Context, method string, params, result any) error
	// Notify sends a notification ($/progress, …).
	Notify(ctx context.Context, method string, params any) error
	// RefreshViews asks the client to re-request code lenses and semantic
	// tokens (after a run changed node states).
	RefreshViews()
	// WorkDoneProgress reports whether the client shows server progress.
	WorkDoneProgress() bool
}

// editor is the session's Editor.
type editor struct{ s *Server }

func (e editor) ShowDocument(ctx context.Context, uri protocol.DocumentURI, takeFocus bool) (bool, error) {
	return e.s.showDocument(ctx, uri, takeFocus)
}

func (e editor) ApplyEdit(ctx context.Context, label string, ed *protocol.WorkspaceEdit) (*protocol.ApplyWorkspaceEditResponse, error) {
	return e.s.applyEdit(ctx, label, ed)
}

func (e editor) ApplyDocumentChanges(ctx context.Context, label string, changes []DocumentChange) (*protocol.ApplyWorkspaceEditResponse, error) {
	return e.s.applyDocumentChanges(ctx, label, changes)
}

func (e editor) Call(ctx context.Context, method string, params, result any) error {
	return protocol.Call(ctx, e.s.conn, method, params, result)
}

func (e editor) Notify(ctx context.Context, method string, params any) error {
	return e.s.conn.Notify(ctx, method, params)
}

func (e editor) RefreshViews()          { e.s.refreshViews() }
func (e editor) WorkDoneProgress() bool { return e.s.clientCaps().Window.WorkDoneProgress }

func (s *Server) executeCommand(ctx context.Context, p *protocol.ExecuteCommandParams) (any, error) {
	known := false
	for _, c := range commands {
		known = known || c == p.Command
	}
	if !known {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("unknown command %q", p.Command))
	}
	if len(p.Arguments) != 1 {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s takes exactly one argument, an object {uri, node?, position?, text?, version?}; got %d", p.Command, len(p.Arguments)))
	}
	raw, err := json.Marshal(p.Arguments[0])
	if err != nil {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, err.Error())
	}
	var args CommandArgs
	if err := json.Unmarshal(raw, &args); err != nil || args.URI == "" {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s: the argument must be an object with a \"uri\"", p.Command))
	}
	if projectCommand(p.Command) {
		return s.executeProjectCommand(ctx, p.Command, args)
	}
	if strings.HasSuffix(string(args.URI), ".md") && s.opts.Commands != nil {
		// A decision taken on an output document (approve, retry, keep
		// a candidate): the runner reads the workflow and node from it.
		snap, err := s.snapshot()
		if err != nil {
			return nil, err
		}
		res, err := s.opts.Commands.Execute(ctx, CommandRequest{Command: p.Command, Args: args, Snapshot: snap, Editor: editor{s}})
		if !errors.Is(err, ErrNotAvailable) {
			return res, err
		}
		return nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s: not available on an output document", p.Command))
	}
	snap, f, err := s.fileOf(args.URI)
	if err != nil {
		return nil, err
	}
	// A command that names its node (every lens does) acts on the
	// document as it is now: an edit since the lens was drawn does not
	// make it wrong. Only a bare position can point at the wrong place
	// after an edit. For restoreVersion, "version" is the output version
	// to restore, not the document's.
	stale := p.Command != "flowcabal.restoreVersion" && args.Version != nil && f.Open && *args.Version != f.Version
	if stale && args.Node == "" && args.Position != nil {
		return nil, jsonrpc2.NewError(codeContentModified, fmt.Sprintf("%s: the document changed since this was offered (version %d, now %d); try again", p.Command, *args.Version, f.Version))
	}
	if args.Node != "" && snap.Parse(f).Node(args.Node) == nil {
		if stale {
			return nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("node %s is no longer in %s: it was renamed or deleted since the lens was drawn", args.Node, path.Base(string(args.URI))))
		}
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, fmt.Sprintf("%s: no node %q in %s", p.Command, args.Node, args.URI))
	}
	if p.Command == cmdFixAll {
		return s.fixAll(ctx, snap, f)
	}
	if s.opts.Commands != nil {
		res, err := s.opts.Commands.Execute(ctx, CommandRequest{Command: p.Command, Args: args, Snapshot: snap, File: f, Editor: editor{s}})
		if !errors.Is(err, ErrNotAvailable) {
			return res, err
		}
	}
	return nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("%s: not available yet (it arrives with the runner and the agents)", p.Command))
}

// fixAll sends the document's fix-all edits to the client.
func (s *Server) fixAll(ctx context.Context, snap *cache.Snapshot, f *cache.File) (any, error) {
	edits := source.FixAll(snap, f, s.sourceOptions())
	if len(edits) == 0 {
		return map[string]any{"applied": false, "reason": "nothing to fix"}, nil
	}
	res, err := s.applyEdit(ctx, "Fix all", &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{f.URI: edits}})
	if err != nil {
		return nil, err
	}
	return map[string]any{"applied": res.Applied, "reason": res.FailureReason}, nil
}

// applyEdit asks the client to apply an edit. protocol.Client.ApplyEdit
// decodes the answer into a bool and fails on every real client
// (pitfall 1); the answer is ApplyWorkspaceEditResponse.
func (s *Server) applyEdit(ctx context.Context, label string, e *protocol.WorkspaceEdit) (*protocol.ApplyWorkspaceEditResponse, error) {
	if !s.clientCaps().Workspace.ApplyEdit {
		return nil, jsonrpc2.NewError(codeRequestFailed, "the client cannot apply workspace edits")
	}
	var res protocol.ApplyWorkspaceEditResponse
	if err := protocol.Call(ctx, s.conn, protocol.MethodWorkspaceApplyEdit, &protocol.ApplyWorkspaceEditParams{Label: label, Edit: *e}, &res); err != nil {
		return nil, fmt.Errorf("workspace/applyEdit: %w", err)
	}
	return &res, nil
}

// showDocument asks the client to show a document, when it can; it
// reports whether the client did. protocol.Client has no ShowDocument
// (pitfall 4), so the request goes through protocol.Call.
func (s *Server) showDocument(ctx context.Context, uri protocol.DocumentURI, takeFocus bool) (bool, error) {
	if !s.clientCaps().Window.ShowDocument.Support {
		return false, nil
	}
	var res protocol.ShowDocumentResult
	if err := protocol.Call(ctx, s.conn, protocol.MethodShowDocument, &protocol.ShowDocumentParams{URI: protocol.URI(uri), TakeFocus: takeFocus}, &res); err != nil {
		return false, fmt.Errorf("window/showDocument: %w", err)
	}
	return res.Success, nil
}
