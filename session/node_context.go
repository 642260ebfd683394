package session

import (
	"crypto/sha256"
	"sync"

	"github.com/flowcabal/flowcabal/agent/assemble"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// NodeContext is what Role A would inject into one node now.
type NodeContext struct {
	// Tokens is the context's size, of Budget, the budget the assembly
	// respected (the node's, the workflow's or the project's).
	Tokens, Budget int
	// Off says the node sets context = off: Role A injects nothing.
	Off bool
}

// NodeContexts is what ContextCounts knows of a workflow's nodes.
type NodeContexts struct {
	// Nodes are the counts by node name; nil when none are known yet. A
	// node whose context cannot be assembled is left out.
	Nodes map[string]NodeContext
	// Fresh says Nodes are for the workflow's current text, knowledge and
	// outputs; else they are an earlier state's, being updated.
	Fresh bool
	// Indexing says Role A's view of the project is being built and
	// nothing is known yet.
	Indexing bool
}

// nodeCounts keeps, per workflow file, the latest counts of its nodes
// and the background work that makes them, and per node the context of
// each input Role A was given, so that an edit of one node assembles
// that node alone again.
type nodeCounts struct {
	mu    sync.Mutex
	files map[string]*fileCounts
	// memo is keyed by the hash of what Role A reads of a node, for
	// memoSnap (the snapshot the counts were made on) and memoEnded (the
	// runs ended then: a run's outputs can change the prompt's cached
	// embedding, which the key does not see).
	memo      map[[32]byte]NodeContext
	memoSnap  *assemble.MemSnapshot
	memoEnded int64
}

type fileCounts struct {
	key   countsKey
	nodes map[string]NodeContext
	// failed is the key of a state whose counts could not be made (the
	// project's knowledge or configuration unreadable): not tried again
	// until that state or the knowledge changes.
	failed  countsKey
	running bool
	next    *workflowlang.Result // the latest state asked for while running
	ready   func()
}

// countsKey is the state counts were made for: the workflow's text, Role
// A's snapshot and the runs ended in the session.
type countsKey struct {
	src   [32]byte
	snap  *assemble.MemSnapshot
	ended int64
}

// knowledgeChanged forgets the failures and has the editor ask again:
// counts it was given before Role A's view was dropped are an earlier
// state's now (the editor may have asked between the change on disk and
// the drop).
func (c *nodeCounts) knowledgeChanged() {
	c.mu.Lock()
	var ready []func()
	for _, f := range c.files {
		f.failed = countsKey{}
		if f.ready != nil {
			ready = append(ready, f.ready)
		}
	}
	c.mu.Unlock()
	for _, r := range ready {
		r()
	}
}

// ContextCounts says, for the header hints of wf, how many tokens Role A
// would inject into each of its nodes now and of which budget, as the
// hover's "Context injected" counts them. It never waits and never calls
// a model: when the counts of wf's current state are not made, it has
// them made in the background (building Role A's view of the project
// first if need be), calls ready once they are, and returns meanwhile
// those of an earlier state, or Indexing while Role A's view is being
// built.
func (s *Session) ContextCounts(wf *workflowlang.Result, ready func()) NodeContexts {
	key := countsKey{src: sha256.Sum256(wf.File.Src), ended: s.ended.Load()}
	// A build holds kmu for its whole length: not waited for.
	if s.kmu.TryLock() {
		key.snap = s.snap
		s.kmu.Unlock()
	}
	c := &s.counts
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.files == nil {
		c.files = map[string]*fileCounts{}
	}
	f := c.files[wf.File.Path]
	if f == nil {
		f = &fileCounts{}
		c.files[wf.File.Path] = f
	}
	if key.snap != nil && f.nodes != nil && f.key == key {
		return NodeContexts{Nodes: f.nodes, Fresh: true}
	}
	f.ready = ready
	switch {
	case f.running:
		f.next = wf
	case f.failed.src == key.src && f.failed.ended == key.ended:
		// Made and failed for this state: asking again would fail again
		// (and have the editor ask again, and again).
	default:
		f.running = true
		s.estimating.Add(1)
		go s.makeCounts(wf)
	}
	return NodeContexts{Nodes: f.nodes, Indexing: f.nodes == nil && key.snap == nil}
}

// makeCounts makes the counts of wf, then of the latest state asked for
// meanwhile, and calls the latest ready.
func (s *Session) makeCounts(wf *workflowlang.Result) {
	defer s.estimating.Done()
	c := &s.counts
	for {
		nodes, key, err := s.countNodes(wf)
		c.mu.Lock()
		f := c.files[wf.File.Path]
		if err != nil {
			s.log.Warn("Role A's counts for the inlay hints", "file", wf.File.Path, "err", err)
			f.failed = key
		} else {
			f.key, f.nodes = key, nodes
		}
		if f.next != nil {
			wf, f.next = f.next, nil
			c.mu.Unlock()
			continue
		}
		f.running = false
		ready := f.ready
		c.mu.Unlock()
		if err == nil && ready != nil {
			ready()
		}
		return
	}
}

// maxCountsMemo bounds the per-node counts kept (some 60 bytes each).
const maxCountsMemo = 20000

// countNodes assembles Role A's context of every node of wf (those whose
// input is unchanged since the last time are not assembled again).
func (s *Session) countNodes(wf *workflowlang.Result) (map[string]NodeContext, countsKey, error) {
	key := countsKey{src: sha256.Sum256(wf.File.Src), ended: s.ended.Load()}
	snap, _, _, err := s.knowledge()
	if err != nil {
		return nil, key, err
	}
	key.snap = snap
	cfg, err := project.LoadConfig(s.root)
	if err != nil {
		return nil, key, err
	}
	c := &s.counts
	c.mu.Lock()
	// An author's edits add an entry each: a long session starts over now
	// and then rather than keep every state of every prompt.
	if c.memoSnap != snap || c.memoEnded != key.ended || len(c.memo) > maxCountsMemo {
		c.memo, c.memoSnap, c.memoEnded = map[[32]byte]NodeContext{}, snap, key.ended
	}
	memo := c.memo
	c.mu.Unlock()
	out := map[string]NodeContext{}
	for _, n := range wf.File.Nodes {
		name := n.Name.Name
		if name == "" {
			continue
		}
		if a := n.Attr("context"); a != nil {
			if v, ok := a.Value.(*workflowlang.WordValue); ok && v.Name == "off" {
				out[name] = NodeContext{Off: true}
				continue
			}
		}
		an, opt := s.assembleInput(cfg, wf, n)
		k := assemble.InputKey(an, opt)
		c.mu.Lock()
		nc, ok := memo[k]
		c.mu.Unlock()
		if !ok {
			s.assembleSemantic(snap, an, &opt)
			ctx, err := assemble.Assemble(an, snap, opt)
			if err != nil {
				continue // the hover says why
			}
			nc = NodeContext{Tokens: ctx.Tokens, Budget: ctx.Budget}
			c.mu.Lock()
			memo[k] = nc
			c.mu.Unlock()
		}
		out[name] = nc
	}
	return out, key, nil
}
