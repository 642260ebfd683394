package server

import (
	"context"

	"github.com/flowcabal/flowcabal/server/source"
	"go.lsp.dev/protocol"
)

func (s *Server) hover(ctx context.Context, p *positionParams) (*protocol.Hover, error) {
	snap, f, err := s.fileOf(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	h, err := source.Hover(snap, f, p.Position, s.sourceOptions(), s.opts.ContextSection)
	return h, featureError(err)
}
