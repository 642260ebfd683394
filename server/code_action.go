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
		more := s.opts.CodeActions(ctx, snap, f, p.Range, p.Context.Only, s.encoding(), s.lazyCodeActions())
		if len(acts) == 0 {
			acts = more // as the cursor moves, only these: not copied
		} else {
			acts = append(acts, more...)
		}
	}
	return acts, featureError(err)
}

// lazyCodeActions reports whether costly edits may wait for
// codeAction/resolve: the client keeps an action's data and resolves its
// edit, and something on the server can resolve it.
func (s *Server) lazyCodeActions() bool {
	ca := s.clientCaps().TextDocument.CodeAction
	return s.opts.ResolveCodeAction != nil && ca.DataSupport && hasString(ca.ResolveSupport.Properties, "edit")
}

// resolveCodeAction completes an action listed without its edit. An
// action with nothing to resolve comes back as it is, as the
// specification has it.
func (s *Server) resolveCodeAction(ctx context.Context, a *protocol.CodeAction) (*protocol.CodeAction, error) {
	if a.Data == nil || a.Edit != nil || s.opts.ResolveCodeAction == nil {
		return a, nil
	}
	snap, err := s.snapshot()
	if err != nil {
		return nil, err
	}
	res, err := s.opts.ResolveCodeAction(ctx, snap, *a, s.encoding())
	if err != nil {
		return nil, err
	}
	return &res, nil
}
