package server

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/source"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// cmdMove moves a knowledge file, a workflow or a folder of them, as
// `flowcabal mv` does, for editors that send no workspace/willRenameFiles
// (Neovim up to 0.9): the rewrites of the workflows that name it and the
// move itself go to the editor as one workspace edit, the rewrites first
// (they are against the workflows where they are now).
const cmdMove = "flowcabal.move"

// MoveResult is what flowcabal.move answers.
type MoveResult struct {
	Applied bool   `json:"applied"`
	Reason  string `json:"reason,omitempty"`
	// Old and New are the move, relative to the project.
	Old string `json:"old"`
	New string `json:"new"`
	// Rewritten are the workflows whose references were rewritten, as
	// URIs where they are after the move.
	Rewritten []protocol.DocumentURI `json:"rewritten"`
	Message   string                 `json:"message"`
}

func (s *Server) move(ctx context.Context, args CommandArgs) (*MoveResult, error) {
	oldPath, ok1 := cache.URIPath(args.URI)
	newPath, ok2 := cache.URIPath(args.NewURI)
	if !ok1 || !ok2 {
		return nil, jsonrpc2.NewError(jsonrpc2.InvalidParams, cmdMove+" takes {uri, newUri}, two file: URIs")
	}
	root, err := project.FindRoot(filepath.Dir(oldPath))
	if err != nil {
		return nil, jsonrpc2.NewError(codeRequestFailed, err.Error())
	}
	snap, err := s.snapshot()
	if err != nil {
		return nil, err
	}
	move, edits, err := source.PlanMove(snap, root, oldPath, newPath)
	if err != nil {
		var r *source.MoveRefusal
		if errors.As(err, &r) {
			return nil, jsonrpc2.NewError(codeRequestFailed, "move refused: "+err.Error())
		}
		return nil, jsonrpc2.NewError(codeRequestFailed, err.Error())
	}
	rel := func(p string) string {
		r, _ := filepath.Rel(root, p)
		return filepath.ToSlash(r)
	}
	res := &MoveResult{Old: rel(move.Old), New: rel(move.New), Rewritten: []protocol.DocumentURI{}}
	var changes []DocumentChange
	enc := s.encoding()
	for _, fe := range edits {
		var version *int32
		if fe.File.Open {
			v := fe.File.Version
			version = &v
		}
		changes = append(changes, NewTextDocumentEdit(fe.File.URI, version, fe.TextEdits(enc)))
		after := fe.File.Path
		if after == move.Old {
			after = move.New
		} else if r, err := filepath.Rel(move.Old, after); err == nil && filepath.IsLocal(r) {
			after = filepath.Join(move.New, r)
		}
		res.Rewritten = append(res.Rewritten, cache.FileURI(after))
	}
	changes = append(changes, NewRenameFile(cache.FileURI(move.Old), cache.FileURI(move.New)))
	ar, err := s.applyDocumentChanges(ctx, fmt.Sprintf("Move %s to %s", res.Old, res.New), changes)
	if err != nil {
		return nil, err
	}
	res.Applied, res.Reason = ar.Applied, ar.FailureReason
	if ar.Applied {
		res.Message = fmt.Sprintf("moved %s to %s; %d workflow(s) rewritten", res.Old, res.New, len(res.Rewritten))
	} else {
		res.Message = fmt.Sprintf("the editor did not move %s: %s", res.Old, ar.FailureReason)
	}
	return res, nil
}
