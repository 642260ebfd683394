package session

import (
	"sync"

	"github.com/flowcabal/flowcabal/agent/assemble"
)

// levelIndex finds the resources of one Role A snapshot by path and
// keeps what each costs per level, so that the inlay hints of a file of
// many references cost a map lookup each.
type levelIndex struct {
	mu     sync.Mutex
	snap   *assemble.MemSnapshot
	byPath map[string]*assemble.Resource
	counts map[string]int // path|level -> tokens
}

// LevelTokens returns what the knowledge file at rel (relative to the
// root, with slashes: "entities/characters/lin.md") costs at level
// ("L0", "L1", "L2") as Role A would inject it, counted exactly on the
// levels of its snapshot. It never waits and never calls a model: while
// the snapshot is not built (or being built) ok is false.
func (s *Session) LevelTokens(rel, level string) (n int, ok bool) {
	var lv int
	switch level {
	case "L0":
		lv = 0
	case "L1":
		lv = 1
	case "L2":
		lv = 2
	default:
		return 0, false
	}
	if !s.kmu.TryLock() {
		return 0, false
	}
	snap := s.snap
	s.kmu.Unlock()
	if snap == nil {
		return 0, false
	}
	x := &s.levels
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.snap != snap {
		x.snap, x.byPath, x.counts = snap, indexResources(snap), map[string]int{}
	}
	key := rel + "|" + level
	if n, ok := x.counts[key]; ok {
		return n, true
	}
	r := x.byPath[rel]
	if r == nil {
		return 0, false
	}
	ckey := ""
	if lv == 2 { // L0 and L1 may come from a model: counted by their text
		ckey = assemble.CountKey(r.Hash, "L2", "")
	}
	n, ok = snap.CachedTokens(ckey)
	if !ok {
		n = snap.Tokens(ckey, assemble.InjectedText(r.Text(lv)))
	}
	x.counts[key] = n
	return n, true
}

// Indexed reports whether Role A's snapshot of the project is built (false
// while it is being built).
func (s *Session) Indexed() bool {
	if !s.kmu.TryLock() {
		return false
	}
	defer s.kmu.Unlock()
	return s.snap != nil
}

// Warm builds Role A's snapshot of the project if it is not built yet
// (waiting for a build under way), and reports whether it is built now.
func (s *Session) Warm() bool {
	_, _, _, err := s.knowledge()
	return err == nil
}

func indexResources(snap *assemble.MemSnapshot) map[string]*assemble.Resource {
	m := map[string]*assemble.Resource{}
	add := func(r *assemble.Resource) {
		if _, ok := m[r.Path]; !ok {
			m[r.Path] = r
		}
	}
	for _, r := range snap.Meta() {
		add(r)
	}
	for _, e := range snap.Entities() {
		add(&e.Resource)
	}
	for _, c := range snap.Chapters() {
		add(&c.Resource)
	}
	for _, r := range snap.Summaries() {
		add(r)
	}
	for _, a := range snap.Arcs() {
		if !a.Derived {
			add(&a.Resource)
		}
	}
	for _, p := range snap.Profiles() {
		add(&p.Resource)
	}
	return m
}
