package server

import (
	"context"

	"github.com/flowcabal/flowcabal/server/source"
	"go.lsp.dev/protocol"
)

func (s *Server) documentLink(ctx context.Context, p *protocol.DocumentLinkParams) ([]protocol.DocumentLink, error) {
	if s.isProse(p.TextDocument.URI) {
		return nil, nil // Markdown links in prose are the client's own business
	}
	snap, f, err := s.fileOf(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return source.DocumentLinks(snap, f, s.sourceOptions()), nil
}
