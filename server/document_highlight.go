package server

import (
	"context"

	"github.com/flowcabal/flowcabal/server/source"
	"go.lsp.dev/protocol"
)

func (s *Server) documentHighlight(ctx context.Context, p *positionParams) ([]protocol.DocumentHighlight, error) {
	if s.isProse(p.TextDocument.URI) {
		return nil, nil // chapters and outputs have no names to light up
	}
	snap, f, err := s.fileOf(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	hs, err := source.DocumentHighlights(snap, f, p.Position, s.sourceOptions())
	return hs, featureError(err)
}
