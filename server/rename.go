package server

import (
	"context"

	"github.com/flowcabal/flowcabal/server/source"
	"go.lsp.dev/protocol"
)

type prepareRenameResult struct {
	Range       protocol.Range `json:"range"`
	Placeholder string         `json:"placeholder"`
}

func (s *Server) prepareRename(ctx context.Context, p *positionParams) (*prepareRenameResult, error) {
	snap, f, err := s.fileOf(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	r, name, err := source.PrepareRename(snap, f, p.Position, s.sourceOptions())
	if err != nil {
		return nil, featureError(err)
	}
	return &prepareRenameResult{Range: *r, Placeholder: name}, nil
}

func (s *Server) rename(ctx context.Context, p *protocol.RenameParams) (*protocol.WorkspaceEdit, error) {
	snap, f, err := s.fileOf(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	e, err := source.Rename(snap, f, p.Position, p.NewName, s.sourceOptions())
	return e, featureError(err)
}
