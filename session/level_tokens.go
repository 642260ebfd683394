package session

import "github.com/flowcabal/flowcabal/agent/assemble"

// LevelTokens returns what the knowledge file at rel (relative to the
// root, with slashes: "entities/characters/lin.md") costs at level
// ("L0", "L1", "L2") as Role A would inject it, counted exactly on the
// levels of its snapshot. It never waits and never calls a model: while
// the snapshot is not built (or being built) ok is false. Counts are
// memoised by content.
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
	r := resourceOf(snap, rel)
	if r == nil {
		return 0, false
	}
	key := ""
	if lv == 2 { // L0 and L1 may come from a model: counted by their text
		key = assemble.CountKey(r.Hash, "L2", "")
		if n, ok := snap.CachedTokens(key); ok {
			return n, true
		}
	}
	return snap.Tokens(key, assemble.InjectedText(r.Text(lv))), true
}

// Warm builds Role A's snapshot of the project if it is not built yet, and
// reports whether it built it (false: it was there, or it failed).
func (s *Session) Warm() bool {
	s.kmu.Lock()
	built := s.snap != nil
	s.kmu.Unlock()
	if built {
		return false
	}
	_, _, _, err := s.knowledge()
	return err == nil
}

func resourceOf(snap *assemble.MemSnapshot, rel string) *assemble.Resource {
	for _, r := range snap.Meta() {
		if r.Path == rel {
			return r
		}
	}
	for _, e := range snap.Entities() {
		if e.Path == rel {
			return &e.Resource
		}
	}
	for _, c := range snap.Chapters() {
		if c.Path == rel {
			return &c.Resource
		}
	}
	for _, r := range snap.Summaries() {
		if r.Path == rel {
			return r
		}
	}
	for _, a := range snap.Arcs() {
		if a.Path == rel && !a.Derived {
			return &a.Resource
		}
	}
	for _, p := range snap.Profiles() {
		if p.Path == rel {
			return &p.Resource
		}
	}
	return nil
}
