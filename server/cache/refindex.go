package cache

import (
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
)

// A Named is a place where a workflow names a resource or a workflow file:
// one of its {{@path}} references or one of its `use` paths.
type Named struct {
	File *File
	Site *Site
	// Ord orders the sites of one file: the index of the site among the
	// file's knowledge references, or among its uses.
	Ord int
}

// refIndex is the reverse index of what the workflows of a snapshot name
// by path: which files write {{@path}} for each resource path, which `use`
// each workflow file, and every workflow's path in order. A rename of a
// file or folder looks its references up here instead of reading every
// workflow (willRenameFiles is asked before every rename an editor makes).
// It is immutable once built; it holds summaries, which a file keeps for
// its content anyway.
type refIndex struct {
	sums      map[Key]*Summary       // the files with an absolute path
	knowledge map[string][]indexSite // resource path -> sites, by file key then source order
	uses      []indexSite            // by the used file's path, then by file key and source order
	paths     []pathKey              // every file's path, sorted
}

type indexSite struct {
	key  Key
	site *Site
	ord  int
}

type pathKey struct {
	path string
	key  Key
}

// A refsCell holds a snapshot's index, built on first use. An index is
// derived from the last one built before it: only the summaries of the
// files changed since are read. base is nil once built (or when there is
// nothing to derive from).
type refsCell struct {
	once    sync.Once
	done    atomic.Bool
	idx     *refIndex
	base    atomic.Pointer[refsCell]
	changed map[Key]bool // since base; immutable once the cell is published
}

// nextRefs is the cell of the snapshot after one whose cell is c, with
// the files at keys replaced, added or removed. It derives from c when c
// is built; else from what c would have derived from, with c's changes.
func (c *refsCell) nextRefs(keys []Key) *refsCell {
	n := &refsCell{changed: make(map[Key]bool, len(keys))}
	if c == nil {
		return n
	}
	if c.done.Load() {
		n.base.Store(c)
	} else if b := c.base.Load(); b != nil {
		n.base.Store(b)
		for k := range c.changed {
			n.changed[k] = true
		}
	} else {
		return n // c builds from scratch: so does n
	}
	for _, k := range keys {
		n.changed[k] = true
	}
	return n
}

// refs returns the snapshot's reverse index.
func (s *Snapshot) refs() *refIndex {
	c := s.refsCell
	if c == nil {
		return s.buildRefs()
	}
	c.once.Do(func() {
		if b := c.base.Load(); b != nil && b.done.Load() {
			c.idx = s.deriveRefs(b.idx, c.changed)
		} else {
			c.idx = s.buildRefs()
		}
		c.base.Store(nil) // the old index can go
		c.done.Store(true)
	})
	return c.idx
}

// indexed reports whether f's references belong in the index: those of a
// document that is not a file resolve nowhere.
func indexed(f *File) bool { return f.Path != "" && filepath.IsAbs(f.Path) }

func (s *Snapshot) buildRefs() *refIndex {
	x := &refIndex{sums: make(map[Key]*Summary, len(s.files)), knowledge: map[string][]indexSite{}}
	for _, f := range s.Files() {
		if !indexed(f) {
			continue
		}
		sum := s.Summary(f)
		x.sums[f.Key] = sum
		x.paths = append(x.paths, pathKey{f.Path, f.Key})
		for i := range sum.Knowledge {
			k := &sum.Knowledge[i]
			x.knowledge[k.Path] = append(x.knowledge[k.Path], indexSite{f.Key, k, i})
		}
		for i := range sum.Uses {
			x.uses = append(x.uses, indexSite{f.Key, &sum.Uses[i].At, i})
		}
	}
	slices.SortFunc(x.paths, func(a, b pathKey) int { return cmp.Compare(a.path, b.path) })
	x.sortUses()
	return x
}

// deriveRefs is old with the files at changed keys as s has them.
func (s *Snapshot) deriveRefs(old *refIndex, changed map[Key]bool) *refIndex {
	x := &refIndex{sums: make(map[Key]*Summary, len(old.sums)+len(changed)), knowledge: make(map[string][]indexSite, len(old.knowledge))}
	for k, sum := range old.sums {
		if !changed[k] {
			x.sums[k] = sum
		}
	}
	for k, v := range old.knowledge {
		x.knowledge[k] = v
	}
	// The resource paths whose sites change, and each one's sites of
	// unchanged files, kept.
	touched := map[string]bool{}
	for k := range changed {
		if sum := old.sums[k]; sum != nil {
			for _, site := range sum.Knowledge {
				touched[site.Path] = true
			}
		}
	}
	x.paths = make([]pathKey, 0, len(old.paths)+len(changed))
	for _, p := range old.paths {
		if !changed[p.key] {
			x.paths = append(x.paths, p)
		}
	}
	x.uses = make([]indexSite, 0, len(old.uses))
	for _, u := range old.uses {
		if !changed[u.key] {
			x.uses = append(x.uses, u)
		}
	}
	added := map[string][]indexSite{}
	for k := range changed {
		f, ok := s.files[k]
		if !ok || !indexed(f) {
			continue
		}
		sum := s.Summary(f)
		x.sums[k] = sum
		x.paths = append(x.paths, pathKey{f.Path, k})
		for i := range sum.Knowledge {
			site := &sum.Knowledge[i]
			touched[site.Path] = true
			added[site.Path] = append(added[site.Path], indexSite{k, site, i})
		}
		for i := range sum.Uses {
			x.uses = append(x.uses, indexSite{k, &sum.Uses[i].At, i})
		}
	}
	for p := range touched {
		var sites []indexSite
		for _, is := range old.knowledge[p] {
			if !changed[is.key] {
				sites = append(sites, is)
			}
		}
		sites = append(sites, added[p]...)
		slices.SortStableFunc(sites, func(a, b indexSite) int { return cmp.Compare(a.key, b.key) })
		if len(sites) == 0 {
			delete(x.knowledge, p)
		} else {
			x.knowledge[p] = sites
		}
	}
	slices.SortFunc(x.paths, func(a, b pathKey) int { return cmp.Compare(a.path, b.path) })
	x.sortUses()
	return x
}

func (x *refIndex) sortUses() {
	target := func(is indexSite) string { return x.sums[is.key].Uses[is.ord].Target }
	slices.SortFunc(x.uses, func(a, b indexSite) int {
		return cmp.Or(cmp.Compare(target(a), target(b)), cmp.Compare(a.key, b.key), cmp.Compare(a.ord, b.ord))
	})
}

// eachUnder calls fn with the index of each of the n sorted strings
// at(0..n-1) that is p or lies under the folder p, in order.
func eachUnder(n int, at func(int) string, p string, fn func(i int)) {
	sep := string(os.PathSeparator)
	if p != sep {
		p = strings.TrimSuffix(p, sep)
	}
	for i := sort.Search(n, func(i int) bool { return at(i) >= p }); i < n && at(i) == p; i++ {
		fn(i)
	}
	// What lies under p sorts from p+"/" to p+"0" ('0' follows '/'),
	// after names such as p+"-2" that merely begin with p.
	sub := p
	if !strings.HasSuffix(sub, sep) {
		sub += sep
	}
	for i := sort.Search(n, func(i int) bool { return at(i) >= sub }); i < n && strings.HasPrefix(at(i), sub); i++ {
		fn(i)
	}
}

// KnowledgeRefs returns where the workflows write {{@path}}, at any
// level: by file key, then in source order.
func (s *Snapshot) KnowledgeRefs(path string) []Named {
	sites := s.refs().knowledge[path]
	out := make([]Named, 0, len(sites))
	for _, is := range sites {
		if f := s.files[is.key]; f != nil {
			out = append(out, Named{File: f, Site: is.site, Ord: is.ord})
		}
	}
	return out
}

// UsesUnder returns the `use` declarations that name the workflow at p or
// one under the folder p (absolute), by the used file's path, then by
// file key and source order. A use of a file that does not exist is
// listed too: its target is where the path points.
func (s *Snapshot) UsesUnder(p string) []Named {
	x := s.refs()
	var out []Named
	eachUnder(len(x.uses), func(i int) string { return x.sums[x.uses[i].key].Uses[x.uses[i].ord].Target }, p, func(i int) {
		is := x.uses[i]
		if f := s.files[is.key]; f != nil {
			out = append(out, Named{File: f, Site: is.site, Ord: is.ord})
		}
	})
	return out
}

// FilesUnder returns the workflow at p and those under the folder p
// (absolute), by path.
func (s *Snapshot) FilesUnder(p string) []*File {
	x := s.refs()
	var out []*File
	eachUnder(len(x.paths), func(i int) string { return x.paths[i].path }, p, func(i int) {
		if f := s.files[x.paths[i].key]; f != nil {
			out = append(out, f)
		}
	})
	return out
}

// ResourcesUnder returns the knowledge resources whose file is p or lies
// under the folder p (absolute), by file path.
func (s *Snapshot) ResourcesUnder(p string) []*Resource {
	var out []*Resource
	eachUnder(len(s.resByFile), func(i int) string { return s.resByFile[i].File }, p, func(i int) {
		out = append(out, s.resByFile[i])
	})
	return out
}
