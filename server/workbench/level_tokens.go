package workbench

import (
	"path/filepath"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/source"
	psession "github.com/flowcabal/flowcabal/session"
)

// LevelTokens gives the inlay hints what a knowledge resource costs at a
// level, counted on Role A's snapshot of its project (L0 and L1 included,
// which the editor's snapshot cannot know). It never waits: when the
// snapshot is not built yet it has it built in the background and calls
// refresh once it is, so that the editor asks again. It implements
// server.Options.LevelTokens.
func (w *Workbench) LevelTokens(snap *cache.Snapshot, path, level string, refresh func()) (int, bool) {
	r, ok := snap.Resource(path)
	if !ok {
		return 0, false
	}
	// The file's session and project path, remembered: finding a
	// project's root stats the folders above, which costs more than the
	// count itself.
	var t levelTarget
	if v, ok := w.levelSessions.Load(r.File); ok {
		t = v.(levelTarget)
	} else {
		ss, err := w.session(r.File)
		if err != nil {
			return 0, false
		}
		rel, err := filepath.Rel(ss.Root(), r.File)
		if err != nil {
			return 0, false
		}
		t = levelTarget{ss, filepath.ToSlash(rel)}
		w.levelSessions.Store(r.File, t)
	}
	if n, ok := t.ss.LevelTokens(t.rel, level); ok {
		return n, true
	}
	if !t.ss.Indexed() {
		// Not counted because not indexed yet (a path Role A does
		// not index is never counted: no refresh for it).
		w.warm(t.ss, refresh)
	}
	return 0, false
}

// levelTarget is a knowledge file's session and its path in the project.
type levelTarget struct {
	ss  *psession.Session
	rel string
}

// warm builds a session's Role A snapshot once, in the background.
func (w *Workbench) warm(ss *psession.Session, refresh func()) {
	w.mu.Lock()
	if w.warming == nil {
		w.warming = map[*psession.Session]bool{}
	}
	if w.warming[ss] {
		w.mu.Unlock()
		return
	}
	w.warming[ss] = true
	w.mu.Unlock()
	go func() {
		// The caller found no count: it is asked again whoever built
		// the snapshot (this, or a hover's build it waited for).
		ready := ss.Warm()
		w.mu.Lock()
		delete(w.warming, ss)
		w.mu.Unlock()
		if ready && refresh != nil {
			refresh()
		}
	}()
}

// NodeContexts gives the header inlay hints what Role A would inject into
// each node of f now, as the node's hover counts it. It never waits: the
// counts are made in the background (Role A's view built first when it is
// not), refresh called once they are. It implements
// server.Options.NodeContexts.
func (w *Workbench) NodeContexts(snap *cache.Snapshot, f *cache.File, refresh func()) source.NodeContexts {
	if f.Path == "" {
		return source.NodeContexts{}
	}
	ss, err := w.session(f.Path)
	if err != nil {
		return source.NodeContexts{}
	}
	c := ss.ContextCounts(snap.Check(f), refresh)
	out := source.NodeContexts{Stale: !c.Fresh && c.Nodes != nil, Indexing: c.Indexing}
	if c.Nodes != nil {
		out.Nodes = make(map[string]source.NodeContext, len(c.Nodes))
		for name, n := range c.Nodes {
			out.Nodes[name] = source.NodeContext{Tokens: n.Tokens, Budget: n.Budget, Off: n.Off}
		}
	}
	return out
}
