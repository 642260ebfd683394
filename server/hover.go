package server

import (
	"context"

	"github.com/flowcabal/flowcabal/server/source"
	"go.lsp.dev/protocol"
)

func (s *Server) hover(ctx context.Context, p *positionParams) (*protocol.Hover, error) {
	s.mu.Lock()
	_, prose := s.prose[p.TextDocument.URI]
	s.mu.Unlock()
	if prose {
		if md := s.opts.Prose.Hover(p.TextDocument.URI, p.Position, s.encoding()); md != "" {
			return &protocol.Hover{Contents: s.hoverContent(md)}, nil
		}
		return nil, nil
	}
	snap, f, err := s.fileOf(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	h, err := source.Hover(snap, f, p.Position, s.sourceOptions(), s.opts.ContextSection)
	if h == nil && err == nil && s.opts.TextHover != nil {
		// Prompt text: what Role A makes of the word under the cursor (an
		// entity's name: injected or not, and why).
		if md := s.opts.TextHover(snap, f, p.Position, s.encoding()); md != "" {
			h = &protocol.Hover{Contents: s.hoverContent(md)}
		}
	}
	return h, featureError(err)
}

// hoverContent is Markdown for clients that take it, else plain text.
func (s *Server) hoverContent(md string) protocol.MarkupContent {
	if s.clientCaps().markdownHover() {
		return protocol.MarkupContent{Kind: protocol.Markdown, Value: md}
	}
	return protocol.MarkupContent{Kind: protocol.PlainText, Value: md}
}
