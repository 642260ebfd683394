package server

import (
	"context"

	"github.com/flowcabal/flowcabal/server/source"
	"go.lsp.dev/protocol"
)

func (s *Server) selectionRange(ctx context.Context, p *protocol.SelectionRangeParams) ([]protocol.SelectionRange, error) {
	if s.isProse(p.TextDocument.URI) {
		return nil, nil
	}
	snap, f, err := s.fileOf(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	sr, err := source.SelectionRanges(snap, f, p.Positions, s.sourceOptions())
	return sr, featureError(err)
}
