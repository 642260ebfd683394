package server

import (
	"context"

	"github.com/flowcabal/flowcabal/server/source"
	"go.lsp.dev/protocol"
)

func (s *Server) workspaceSymbol(ctx context.Context, p *protocol.WorkspaceSymbolParams) ([]protocol.SymbolInformation, error) {
	snap, err := s.snapshot()
	if err != nil {
		return nil, err
	}
	return source.WorkspaceSymbols(snap, p.Query, s.sourceOptions()), nil
}
