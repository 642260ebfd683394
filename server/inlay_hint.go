package server

import (
	"context"

	"github.com/flowcabal/flowcabal/server/source"
	"go.lsp.dev/protocol"
)

// inlayHintParams is InlayHintParams (LSP 3.17, which go.lsp.dev/protocol
// v0.12.0 lacks).
type inlayHintParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Range        protocol.Range                  `json:"range"`
}

func (s *Server) inlayHint(ctx context.Context, p *inlayHintParams) ([]source.InlayHint, error) {
	s.mu.Lock()
	on := s.inlayHints
	s.mu.Unlock()
	if !on || s.isProse(p.TextDocument.URI) {
		return nil, nil
	}
	snap, f, err := s.fileOf(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	var exact func(path, level string) (int, bool)
	if lt := s.opts.LevelTokens; lt != nil {
		exact = func(path, level string) (int, bool) { return lt(snap, path, level, s.refreshInlayHints) }
	}
	hs, err := source.InlayHints(snap, f, p.Range, exact, s.sourceOptions())
	return hs, featureError(err)
}
