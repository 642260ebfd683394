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
	if s.opts.RunEstimate != nil {
		// "▶ Run node · 22,881 tok in + ≤4,096 out · ≈$0.03"
		for _, l := range lenses {
			if c := l.Command; c != nil && (c.Command == source.CmdRunNode || c.Command == source.CmdRunWorkflow) && len(c.Arguments) == 1 {
				m, _ := c.Arguments[0].(map[string]any)
				node, _ := m["node"].(string)
				if est := s.opts.RunEstimate(snap, f, node, s.refreshViews); est != "" {
					c.Title += " · " + est
				}
			}
		}
	}
	if s.opts.Lenses != nil {
		lenses = append(lenses, s.opts.Lenses(snap, f, s.encoding())...)
	}
	return lenses, nil
}
