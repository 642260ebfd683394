package server

import (
	"context"

	"github.com/flowcabal/flowcabal/server/source"
	"go.lsp.dev/protocol"
)

func (s *Server) definition(ctx context.Context, p *positionParams) ([]protocol.Location, error) {
	snap, f, err := s.fileOf(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	locs, err := source.Definition(snap, f, p.Position, s.sourceOptions())
	return locs, featureError(err)
}
