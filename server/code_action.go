package server

import (
	"context"

	"github.com/flowcabal/flowcabal/server/source"
	"go.lsp.dev/protocol"
)

func (s *Server) codeAction(ctx context.Context, p *protocol.CodeActionParams) ([]protocol.CodeAction, error) {
	s.mu.Lock()
	_, prose := s.prose[p.TextDocument.URI]
	s.mu.Unlock()
	if prose {
		return s.opts.Prose.CodeActions(ctx, p.TextDocument.URI, p.Range, p.Context.Diagnostics, s.encoding())
	}
	snap, f, err := s.fileOf(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	acts, err := source.CodeActions(snap, f, p.Range, p.Context.Only, s.sourceOptions())
	if err == nil && s.opts.CodeActions != nil {
		acts = append(acts, s.opts.CodeActions(ctx, snap, f, p.Range, p.Context.Only, s.encoding())...)
	}
	return acts, featureError(err)
}
