package server

import (
	"context"
	"sync"
	"time"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/source"
	"go.lsp.dev/protocol"
)

// diagnoser publishes diagnostics from one goroutine. Text notifications
// only schedule files; the worker always takes the newest snapshot, so a
// burst of changes publishes the latest version once, never an older one
// after a newer. Checking is cheap, so nothing is debounced: the worker
// starts as soon as it is woken. Open documents go before the rest of the
// workspace; closed files (the dependents of an edited file, often many)
// are the slow part, so they wait until the editor has been quiet for
// backgroundQuiet, and a burst of typing re-checks them once.
type diagnoser struct {
	s    *Server
	wake chan struct{}
	done chan struct{}

	mu      sync.Mutex
	last    time.Time   // when the last change was scheduled
	timer   *time.Timer // wakes the worker for closed files
	snap    *cache.Snapshot
	pending map[cache.Key]bool
	uris    map[cache.Key]protocol.DocumentURI // what was published, to clear it later
}

func newDiagnoser(s *Server) *diagnoser {
	d := &diagnoser{s: s, wake: make(chan struct{}, 1), done: make(chan struct{}),
		pending: map[cache.Key]bool{}, uris: map[cache.Key]protocol.DocumentURI{}}
	go d.loop(s.bg)
	return d
}

// schedule marks keys for publication from snap (or a newer snapshot).
func (d *diagnoser) schedule(snap *cache.Snapshot, keys []cache.Key) {
	d.mu.Lock()
	if d.snap == nil || snap.Seq >= d.snap.Seq {
		d.snap = snap
	}
	for _, k := range keys {
		d.pending[k] = true
	}
	d.last = time.Now()
	d.mu.Unlock()
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

// backgroundQuiet is how long the editor must be quiet before closed files
// are re-checked.
const backgroundQuiet = 150 * time.Millisecond

func (d *diagnoser) stop() {
	<-d.done
	d.mu.Lock()
	if d.timer != nil {
		d.timer.Stop()
	}
	d.mu.Unlock()
}

func (d *diagnoser) poke() {
	select {
	case d.wake <- struct{}{}:
	default:
	}
}

func (d *diagnoser) loop(ctx context.Context) {
	defer close(d.done)
	for {
		select {
		case <-ctx.Done():
			return
		case <-d.wake:
		}
		for d.step(ctx) {
		}
	}
}

// step publishes one file, open ones first; it reports whether work remains.
func (d *diagnoser) step(ctx context.Context) bool {
	if ctx.Err() != nil {
		return false
	}
	d.mu.Lock()
	snap := d.snap
	var key cache.Key
	found := false
	for k := range d.pending {
		if f, ok := snap.File(protocol.DocumentURI(k)); ok && f.Open {
			key, found = k, true
			break
		}
	}
	if !found && len(d.pending) > 0 {
		if wait := backgroundQuiet - time.Since(d.last); wait > 0 {
			if d.timer == nil {
				d.timer = time.AfterFunc(wait, d.poke)
			} else {
				d.timer.Reset(wait)
			}
			d.mu.Unlock()
			return false
		}
		for k := range d.pending {
			key, found = k, true
			break
		}
	}
	if !found {
		d.mu.Unlock()
		return false
	}
	delete(d.pending, key)
	d.mu.Unlock()

	f, ok := snapFile(snap, key)
	if !ok {
		d.mu.Lock()
		uri, had := d.uris[key]
		delete(d.uris, key)
		d.mu.Unlock()
		if had {
			d.s.notify(ctx, protocol.MethodTextDocumentPublishDiagnostics,
				&protocol.PublishDiagnosticsParams{URI: uri, Diagnostics: []protocol.Diagnostic{}})
		}
		return true
	}
	diags := source.Diagnostics(snap, f, d.s.sourceOptions())
	if extra := d.s.opts.Diagnostics; extra != nil && f.Open {
		diags = append(diags, extra(snap, f, d.s.encoding())...)
	}
	d.mu.Lock()
	// A newer snapshot with another version of this file makes the result
	// stale: that version is pending and will be published instead.
	stale := d.snap != snap && d.pending[key]
	_, published := d.uris[key]
	if !stale {
		d.uris[key] = f.URI
	}
	d.mu.Unlock()
	if stale {
		return true
	}
	p := &protocol.PublishDiagnosticsParams{URI: f.URI, Diagnostics: diags}
	if f.Open {
		p.Version = uint32(f.Version)
	}
	d.s.notify(ctx, protocol.MethodTextDocumentPublishDiagnostics, p)
	if f.Open && !published && f.Path != "" && d.s.opts.Opened != nil {
		// Told once its first diagnostics are out, so that what it
		// starts does not hold them back.
		d.s.opts.Opened(snap, f)
	}
	return true
}

// snapFile finds a file by key (keys of file URIs are URIs themselves).
func snapFile(snap *cache.Snapshot, k cache.Key) (*cache.File, bool) {
	return snap.File(protocol.DocumentURI(k))
}

// sourceOptions turns the client's capabilities into feature options.
func (s *Server) sourceOptions() source.Options {
	c := s.clientCaps()
	s.mu.Lock()
	compact, links := s.compactOutline, s.hoverLinks
	s.mu.Unlock()
	return source.Options{
		CompactOutline:     compact,
		Encoding:           s.encoding(),
		RelatedInformation: c.TextDocument.PublishDiagnostics.RelatedInformation,
		Tags:               len(c.TextDocument.PublishDiagnostics.TagSupport) > 0 && string(c.TextDocument.PublishDiagnostics.TagSupport) != "null",
		Markdown:           c.markdownHover(),
		HoverLinks:         links && c.markdownHover(),
		Snippets:           c.TextDocument.Completion.CompletionItem.SnippetSupport,
		MarkdownDocs:       c.markdownCompletionDocs(),
		ResolveDocs:        hasString(c.TextDocument.Completion.CompletionItem.ResolveSupport.Properties, "documentation"),
		Hierarchical:       c.TextDocument.DocumentSymbol.HierarchicalDocumentSymbolSupport,
	}
}
