package server

import (
	"context"
	"strconv"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/source"
	"go.lsp.dev/protocol"
)

// inlayHintParams is InlayHintParams (LSP 3.17, which go.lsp.dev/protocol
// v0.12.0 lacks).
type inlayHintParams struct {
	TextDocument protocol.TextDocumentIdentifier `json:"textDocument"`
	Range        protocol.Range                  `json:"range"`
}

// inlayHint answers from the hints of the whole file, made once per
// snapshot and refresh generation (an editor asks again on every scroll
// and after every edit) and cut to the visible range.
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
	gen := s.inlay.gen.Load()
	o := s.sourceOptions()
	hs := snap.Memo("inlay\x00"+string(f.Key)+"\x00"+strconv.FormatUint(gen, 10), func() any {
		return s.fileInlayHints(snap, f, o)
	}).(*source.FileHints)
	out, err := hs.In(snap.Parse(f), p.Range, o.Encoding)
	return out, featureError(err)
}

func (s *Server) fileInlayHints(snap *cache.Snapshot, f *cache.File, o source.Options) *source.FileHints {
	var exact func(path, level string) (int, bool)
	if lt := s.opts.LevelTokens; lt != nil {
		exact = func(path, level string) (int, bool) { return lt(snap, path, level, s.refreshInlayHints) }
	}
	var nodes source.NodeContexts
	if nc := s.opts.NodeContexts; nc != nil {
		nodes = nc(snap, f, s.refreshInlayHints)
	}
	return source.InlayHints(snap, f, exact, nodes, o)
}
