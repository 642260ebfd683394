package server

import (
	"context"

	"github.com/flowcabal/flowcabal/server/source"
	"go.lsp.dev/protocol"
)

func (s *Server) codeLens(ctx context.Context, p *protocol.CodeLensParams) ([]protocol.CodeLens, error) {
	s.mu.Lock()
	_, prose := s.prose[p.TextDocument.URI]
	s.mu.Unlock()
	if prose {
		return s.opts.Prose.CodeLenses(p.TextDocument.URI), nil
	}
	snap, f, err := s.fileOf(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	lenses := source.CodeLenses(snap, f, s.sourceOptions())
	if s.opts.Lenses != nil {
		lenses = append(lenses, s.opts.Lenses(snap, f, s.encoding())...)
	}
	return lenses, nil
}
