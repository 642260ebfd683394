package server

import (
	"context"

	"github.com/flowcabal/flowcabal/server/source"
	"go.lsp.dev/protocol"
)

func (s *Server) completion(ctx context.Context, p *positionParams) (*protocol.CompletionList, error) {
	snap, f, err := s.fileOf(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	l, err := source.Completion(snap, f, p.Position, s.sourceOptions())
	return l, featureError(err)
}
