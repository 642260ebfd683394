package server

import (
	"context"
	"fmt"
	"slices"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// A DocumentChange is one entry of a WorkspaceEdit's documentChanges:
// a TextDocumentEdit, a CreateFile or a RenameFile. go.lsp.dev/protocol
// v0.12.0 types documentChanges as text edits only, so the edits that
// create or move files are written with these.
type DocumentChange interface{ documentChange() }

// TextDocumentEdit changes one document. Version is the open document's
// version the edits were made against, or nil for the file on disk.
type TextDocumentEdit struct {
	TextDocument struct {
		URI     protocol.DocumentURI `json:"uri"`
		Version *int32               `json:"version"`
	} `json:"textDocument"`
	Edits []protocol.TextEdit `json:"edits"`
}

// CreateFile makes a new, empty file; it fails where one exists (never
// overwrites, never ignores).
type CreateFile struct {
	Kind string               `json:"kind"` // "create"
	URI  protocol.DocumentURI `json:"uri"`
}

// RenameFile moves a file or a folder; it fails where the target exists.
type RenameFile struct {
	Kind   string               `json:"kind"` // "rename"
	OldURI protocol.DocumentURI `json:"oldUri"`
	NewURI protocol.DocumentURI `json:"newUri"`
}

func (TextDocumentEdit) documentChange() {}
func (CreateFile) documentChange()       {}
func (RenameFile) documentChange()       {}

// NewTextDocumentEdit returns the edits of one document.
func NewTextDocumentEdit(uri protocol.DocumentURI, version *int32, edits []protocol.TextEdit) TextDocumentEdit {
	var e TextDocumentEdit
	e.TextDocument.URI, e.TextDocument.Version, e.Edits = uri, version, edits
	return e
}

// NewCreateFile returns the creation of a file at uri.
func NewCreateFile(uri protocol.DocumentURI) CreateFile { return CreateFile{Kind: "create", URI: uri} }

// NewRenameFile returns the move of a file or a folder.
func NewRenameFile(oldURI, newURI protocol.DocumentURI) RenameFile {
	return RenameFile{Kind: "rename", OldURI: oldURI, NewURI: newURI}
}

// applyDocumentChanges asks the client to apply changes, in order, as one
// edit. It refuses, before asking, a client that cannot apply them all
// (no documentChanges, or not the resource operations they use), so that
// nothing is half done.
func (s *Server) applyDocumentChanges(ctx context.Context, label string, changes []DocumentChange) (*protocol.ApplyWorkspaceEditResponse, error) {
	c := s.clientCaps()
	if !c.Workspace.ApplyEdit || !c.Workspace.WorkspaceEdit.DocumentChanges {
		return nil, jsonrpc2.NewError(codeRequestFailed, "the editor cannot apply this edit: it does not take workspace edits with documentChanges")
	}
	for _, ch := range changes {
		op := ""
		switch ch.(type) {
		case CreateFile:
			op = "create"
		case RenameFile:
			op = "rename"
		}
		if op != "" && !slices.Contains(c.Workspace.WorkspaceEdit.ResourceOperations, op) {
			return nil, jsonrpc2.NewError(codeRequestFailed, fmt.Sprintf("the editor cannot apply this edit: it does not %s files in workspace edits", op))
		}
	}
	params := struct {
		Label string `json:"label,omitempty"`
		Edit  struct {
			DocumentChanges []DocumentChange `json:"documentChanges"`
		} `json:"edit"`
	}{Label: label}
	params.Edit.DocumentChanges = changes
	var res protocol.ApplyWorkspaceEditResponse
	if err := protocol.Call(ctx, s.conn, protocol.MethodWorkspaceApplyEdit, &params, &res); err != nil {
		return nil, fmt.Errorf("workspace/applyEdit: %w", err)
	}
	return &res, nil
}
