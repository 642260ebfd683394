package store

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"sort"

	bolt "go.etcd.io/bbolt"
)

// DefaultArcSpan is the number of chapters of an arc when neither
// summaries/arc-N.md nor flowcabal.toml (arc_span) says.
const DefaultArcSpan = 10

// Arc is a group of consecutive chapters, summarised as a whole so that a
// long work can be scanned arc first.
type Arc struct {
	N    int `json:"n"`
	From int `json:"from"`
	To   int `json:"to"`
	// Chapters are the resource paths of the chapters the arc holds, in
	// order; chapter numbers inside the span that do not exist are absent.
	Chapters []string `json:"chapters"`
	// Source is the summaries/arc-N resource that declares the span, or
	// "" for a fixed span.
	Source string `json:"source,omitempty"`
	// Hash identifies the arc's content (its chapters' hashes): its L0/L1
	// are keyed by it.
	Hash      string `json:"hash"`
	LevelHash string `json:"level_hash,omitempty"`
}

// rebuildArcs recomputes the arcs from the chapters and the arc files and
// queues levels for arcs whose content changed.
func (s *Store) rebuildArcs(tx *bolt.Tx) error {
	type chap struct {
		n          int
		path, hash string
	}
	var chapters []chap
	var declared []Arc
	err := tx.Bucket(bResources).ForEach(func(k, v []byte) error {
		var r Resource
		if err := unmarshal(v, &r); err != nil {
			return err
		}
		switch {
		case r.Kind == KindChapter && r.Chapter > 0:
			chapters = append(chapters, chap{r.Chapter, r.Path, r.Hash})
		case r.Kind == KindArc && r.Span[0] > 0:
			n, _ := arcNumber(r.Path)
			declared = append(declared, Arc{N: n, From: r.Span[0], To: r.Span[1], Source: r.Path})
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.Slice(chapters, func(i, j int) bool {
		if chapters[i].n != chapters[j].n {
			return chapters[i].n < chapters[j].n
		}
		return chapters[i].path < chapters[j].path
	})
	sort.Slice(declared, func(i, j int) bool { return declared[i].From < declared[j].From })
	// Declared arcs win; overlapping declarations keep the first.
	var arcs []Arc
	taken := map[int]bool{}
	covered := func(n int) bool {
		for _, a := range arcs {
			if n >= a.From && n <= a.To {
				return true
			}
		}
		return false
	}
	for _, a := range declared {
		if covered(a.From) || covered(a.To) || taken[a.N] {
			continue
		}
		arcs = append(arcs, a)
		taken[a.N] = true
	}
	next := 0
	for _, a := range arcs {
		next = max(next, a.N)
	}
	fixed := map[int]*Arc{}
	var fixedOrder []int
	for _, c := range chapters {
		if covered(c.n) {
			continue
		}
		k := (c.n-1)/s.arcSpan + 1
		if fixed[k] == nil {
			n := k
			if taken[n] {
				next++
				n = next
			}
			taken[n] = true
			fixed[k] = &Arc{N: n, From: (k-1)*s.arcSpan + 1, To: k * s.arcSpan}
			fixedOrder = append(fixedOrder, k)
		}
	}
	for _, k := range fixedOrder {
		arcs = append(arcs, *fixed[k])
	}
	for i := range arcs {
		a := &arcs[i]
		h := sha256.New()
		for _, c := range chapters {
			if c.n >= a.From && c.n <= a.To && (a.Source != "" || !covered2(arcs, i, c.n)) {
				a.Chapters = append(a.Chapters, c.path)
				fmt.Fprintf(h, "%s %s\n", c.path, c.hash)
			}
		}
		a.Hash = "arc:" + hex.EncodeToString(h.Sum(nil))
		if a.Source == "" && len(a.Chapters) > 0 && covered2(arcs, i, a.From) {
			// A fixed span that starts inside a declared arc starts after it.
			for a.From < a.To && covered2(arcs, i, a.From) {
				a.From++
			}
		}
	}
	b := tx.Bucket(bArcs)
	old := map[string]Arc{}
	if err := b.ForEach(func(k, v []byte) error {
		var a Arc
		if err := unmarshal(v, &a); err != nil {
			return err
		}
		old[string(k)] = a
		return b.Delete(k)
	}); err != nil {
		return err
	}
	levels := tx.Bucket(bLevels)
	for _, a := range arcs {
		if len(a.Chapters) == 0 {
			continue
		}
		key := fmt.Sprintf("%06d", a.N)
		a.LevelHash = old[key].LevelHash
		if levels.Get([]byte(a.Hash)) != nil {
			a.LevelHash = a.Hash
		} else if err := enqueue(tx, Job{Hash: a.Hash, Kind: JobArc, Arc: a.N}); err != nil {
			return err
		}
		if err := putJSON(b, key, a); err != nil {
			return err
		}
	}
	return nil
}

// covered2 reports whether chapter n belongs to a declared arc other than
// arcs[i] (fixed spans never take a declared arc's chapters).
func covered2(arcs []Arc, i, n int) bool {
	for j, a := range arcs {
		if j != i && a.Source != "" && n >= a.From && n <= a.To {
			return true
		}
	}
	return false
}

// Arcs returns the arcs in chapter order.
func (s *Store) Arcs() ([]Arc, error) {
	var out []Arc
	err := s.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bArcs).ForEach(func(k, v []byte) error {
			var a Arc
			if err := unmarshal(v, &a); err != nil {
				return err
			}
			out = append(out, a)
			return nil
		})
	})
	sort.Slice(out, func(i, j int) bool { return out[i].From < out[j].From })
	return out, err
}

// ArcOf returns the arc that holds a chapter.
func (s *Store) ArcOf(chapter int) (Arc, error) {
	arcs, err := s.Arcs()
	if err != nil {
		return Arc{}, err
	}
	for _, a := range arcs {
		if chapter >= a.From && chapter <= a.To {
			return a, nil
		}
	}
	return Arc{}, fmt.Errorf("arc of chapter %d: %w", chapter, ErrNotFound)
}
