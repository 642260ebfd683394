package server

import (
	"context"
	"strings"

	"github.com/flowcabal/flowcabal/server/cache"
	"go.lsp.dev/protocol"
)

type contentChange = cache.Change

func (s *Server) workspace() *cache.Workspace {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ws
}

func (s *Server) didOpen(ctx context.Context, p *protocol.DidOpenTextDocumentParams) error {
	snap, dirty, ok := s.workspace().Open(p.TextDocument.URI, string(p.TextDocument.LanguageID), p.TextDocument.Version, p.TextDocument.Text)
	if ok {
		s.diag.schedule(snap, dirty)
		return nil
	}
	if s.opts.Prose != nil && isProse(p.TextDocument.URI, string(p.TextDocument.LanguageID)) {
		s.mu.Lock()
		s.prose[p.TextDocument.URI] = []byte(p.TextDocument.Text)
		s.mu.Unlock()
		s.opts.Prose.Open(editor{s}, p.TextDocument.URI, p.TextDocument.Version, p.TextDocument.Text, s.encoding())
	}
	return nil
}

// isProse reports whether a document is Markdown that the Prose handler
// checks (manuscript chapters, node outputs).
func isProse(uri protocol.DocumentURI, languageID string) bool {
	return languageID == "markdown" || strings.HasSuffix(string(uri), ".md")
}

func (s *Server) didChange(ctx context.Context, p *didChangeParams) error {
	s.mu.Lock()
	old, prose := s.prose[p.TextDocument.URI]
	var text []byte
	if prose {
		text = cache.ApplyChanges(old, p.ContentChanges, s.enc)
		s.prose[p.TextDocument.URI] = text
	}
	s.mu.Unlock()
	if prose {
		s.opts.Prose.Change(editor{s}, p.TextDocument.URI, p.TextDocument.Version, string(text), s.encoding())
		return nil
	}
	snap, dirty, err := s.workspace().Change(p.TextDocument.URI, p.TextDocument.Version, p.ContentChanges)
	if err != nil {
		return err
	}
	s.diag.schedule(snap, dirty)
	return nil
}

func (s *Server) didClose(ctx context.Context, p *protocol.DidCloseTextDocumentParams) error {
	s.mu.Lock()
	_, prose := s.prose[p.TextDocument.URI]
	delete(s.prose, p.TextDocument.URI)
	s.mu.Unlock()
	if prose {
		s.opts.Prose.Close(editor{s}, p.TextDocument.URI)
		return nil
	}
	snap, dirty := s.workspace().Close(p.TextDocument.URI)
	s.diag.schedule(snap, dirty)
	return nil
}

func (s *Server) didSave(ctx context.Context, p *protocol.DidSaveTextDocumentParams) error {
	return nil // the editor's text is already current
}

func (s *Server) didChangeWatchedFiles(ctx context.Context, p *protocol.DidChangeWatchedFilesParams) error {
	if s.opts.FilesChanged != nil {
		var paths []string
		for _, c := range p.Changes {
			if c == nil {
				continue
			}
			if path, ok := cache.URIPath(c.URI); ok {
				paths = append(paths, path)
			}
		}
		if len(paths) > 0 {
			go s.opts.FilesChanged(paths)
		}
	}
	snap, dirty := s.workspace().FilesChanged(p.Changes)
	s.knowledgeChanged(p.Changes)
	if len(dirty) == 0 {
		return nil
	}
	s.diag.schedule(snap, dirty)
	s.refreshViews()
	return nil
}

// refreshViews asks the client to re-request code lenses and semantic
// tokens, when it says it can: these requests sit on the wrong interface
// in go.lsp.dev/protocol (pitfall 4), so they go through protocol.Call.
func (s *Server) refreshViews() {
	// A run's outputs are what Role A reads for the nodes downstream.
	s.refreshInlayHints()
	c := s.clientCaps()
	if c.Workspace.CodeLens.RefreshSupport {
		s.goBackground(func(ctx context.Context) {
			if err := protocol.Call(ctx, s.conn, protocol.MethodCodeLensRefresh, nil, nil); err != nil {
				s.log.Debug("codeLens refresh failed", "err", err)
			}
		})
	}
	if c.Workspace.SemanticTokens.RefreshSupport {
		s.goBackground(func(ctx context.Context) {
			if err := protocol.Call(ctx, s.conn, protocol.MethodSemanticTokensRefresh, nil, nil); err != nil {
				s.log.Debug("semanticTokens refresh failed", "err", err)
			}
		})
	}
}
