package server

import (
	"context"
	"encoding/json"

	"github.com/flowcabal/flowcabal/server/source"
	"go.lsp.dev/protocol"
)

func (s *Server) completion(ctx context.Context, p *positionParams) (*protocol.CompletionList, error) {
	snap, f, err := s.fileOf(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	l, err := source.Completion(snap, f, p.Position, s.sourceOptions())
	return l, featureError(err)
}

func (s *Server) resolveCompletion(ctx context.Context, item *protocol.CompletionItem) (*protocol.CompletionItem, error) {
	snap, err := s.snapshot()
	if err != nil {
		return nil, err
	}
	raw, _ := json.Marshal(item.Data)
	var d source.ResolveData
	if err := json.Unmarshal(raw, &d); err == nil {
		source.ResolveCompletion(snap, item, d, s.sourceOptions())
	}
	return item, nil
}
