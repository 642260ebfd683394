package server

import (
	"context"
	"strings"
	"sync"
	"sync/atomic"

	"go.lsp.dev/protocol"
)

// inlayRefresh coalesces workspace/inlayHint/refresh requests: one in
// flight, and one more after it when asked meanwhile.
type inlayRefresh struct {
	mu              sync.Mutex
	running, queued bool
	// gen counts what the hints read changed outside the snapshot (the
	// hooks' counts): each file's hints are kept per snapshot and gen.
	gen atomic.Uint64
}

// refreshInlayHints asks the client to ask for inlay hints again (the
// token counts they show changed: a knowledge file changed, a run ended,
// or Role A's counts became known), when it says it can. The hints kept
// for the current snapshot are dropped whether or not it can.
func (s *Server) refreshInlayHints() {
	s.inlay.gen.Add(1)
	s.mu.Lock()
	on := s.inlayHints
	s.mu.Unlock()
	if !on || !s.clientCaps().Workspace.InlayHint.RefreshSupport {
		return
	}
	r := &s.inlay
	r.mu.Lock()
	if r.running {
		r.queued = true
		r.mu.Unlock()
		return
	}
	r.running = true
	r.mu.Unlock()
	s.goBackground(func(ctx context.Context) {
		for {
			if err := protocol.Call(ctx, s.conn, "workspace/inlayHint/refresh", nil, nil); err != nil {
				s.log.Debug("inlayHint refresh failed", "err", err)
			}
			r.mu.Lock()
			if !r.queued || ctx.Err() != nil {
				r.running, r.queued = false, false
				r.mu.Unlock()
				return
			}
			r.queued = false
			r.mu.Unlock()
		}
	})
}

// knowledgeChanged refreshes the inlay hints when a knowledge file (a
// Markdown file of the project, not a node's output) changed on disk: what a {{@path}} costs
// may have changed with it.
func (s *Server) knowledgeChanged(changes []*protocol.FileEvent) {
	for _, c := range changes {
		if c != nil && strings.HasSuffix(string(c.URI), ".md") && !strings.Contains(string(c.URI), "/.flowcabal/") {
			s.refreshInlayHints()
			return
		}
	}
}
