package server

import (
	"context"
	"encoding/json"

	"github.com/flowcabal/flowcabal/server/source"
	"go.lsp.dev/protocol"
)

func (s *Server) documentSymbol(ctx context.Context, p *protocol.DocumentSymbolParams) (json.RawMessage, error) {
	snap, f, err := s.fileOf(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	return source.DocumentSymbols(snap, f, s.sourceOptions()), nil
}
