// Package cache holds the language server's view of the workspace: the
// mutable Workspace that text-synchronisation notifications update, and the
// immutable Snapshots that request handlers read. A Snapshot never changes
// once made, so a handler can work on one without locks while the editor
// keeps typing; parsing and checking happen lazily, once per file content
// and per set of dependencies.
//
// What is kept is bounded by the open documents, not by the workspace:
// an open document's tree and check stay with its current version, while a
// closed file keeps its text and a small Summary (declarations, uses,
// cross-file references); its tree and check are made again on demand and
// shared while someone holds them (see parseCell and checkCell).
package cache

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"sync/atomic"
	"weak"

	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/protocol"
)

// A File is one .flow document as a snapshot sees it: the editor's text
// when it is open, the disk's otherwise.
type File struct {
	URI     protocol.DocumentURI // as the client spells it when open
	URIJSON string               // URI as a JSON string, quotes included ("" in a File the workspace did not make)
	Key     Key
	Path    string // absolute path; empty for documents that are not files
	Version int32  // the client's version when open; 0 for disk content
	Open    bool
	Src     []byte

	parsed *parseCell
	check  *checkCell
}

// A parseCell holds what is derived from one content of a file. An open
// document's syntax tree is kept for as long as the version is current:
// every request reads it. A closed file's tree is not kept: a 200-node
// tree is some seven times its text and pointer-dense, and the collector
// would mark every closed file's tree on every cycle. What the workspace
// needs of a closed file (its declarations and uses) is its Summary; its
// tree is parsed again when a feature asks for it, shared through a weak
// pointer with whoever still holds it (the check of a file that uses it),
// and the snapshot's small cache of recent trees keeps the last few alive.
type parseCell struct {
	once sync.Once
	f    *workflowlang.File // open documents only

	mu   sync.Mutex
	weak weak.Pointer[workflowlang.File] // closed files only

	sumOnce sync.Once
	sum     *Summary

	memo sync.Map // key -> *memoEntry: results derived from the content alone
}

type memoEntry struct {
	once sync.Once
	v    any
}

// Memo returns fn's result for key, computed at most once per content of
// an open document: for results that depend on the file's text and nothing
// else (its outline, its completion candidates). The key must name
// everything else the result depends on (the position encoding, client
// options). A closed file keeps nothing derived from its tree, so for it fn
// runs on every call.
func (f *File) Memo(key string, fn func() any) any {
	if !f.Open {
		return fn()
	}
	e, _ := f.parsed.memo.LoadOrStore(key, &memoEntry{})
	me := e.(*memoEntry)
	me.once.Do(func() { me.v = fn() })
	return me.v
}

// A checkCell holds the check of one content of a file in one set of
// dependencies. Its deps are kept for every file, so that an edit finds
// the files it affects; the result itself is kept for open documents only.
// A closed file's result is shared through a weak pointer and recomputed
// once nothing holds it.
type checkCell struct {
	once sync.Once
	done atomic.Bool
	res  *workflowlang.Result // open documents only
	deps []string             // every path Check asked to load, transitively; set before done
	// whole are the deps loaded whole (the files used directly); Check
	// read the others only as skeletons: their paths and uses.
	whole []string

	mu   sync.Mutex
	weak weak.Pointer[workflowlang.Result] // closed files only
}

// name is what the file is called in Parse and in diagnostics.
func (f *File) name() string {
	if f.Path != "" {
		return f.Path
	}
	return string(f.URI)
}

// Snapshot is the workspace at one moment: every .flow file under the
// workspace folders (open or not), the project's knowledge resources and its
// configuration. It is immutable.
type Snapshot struct {
	// Seq increases with every change to the workspace.
	Seq     uint64
	Root    string
	Folders []string
	Config  *project.Config

	files     map[Key]*File
	byPath    map[string]*File
	resources []*Resource // sorted by Path
	resByPath map[string]*Resource
	resByFile []*Resource // sorted by File

	refsCell *refsCell // what the workflows name by path, built on first use

	trees *treeCache // shared by every snapshot of a workspace
	order *fileOrder // Files, sorted once
	memo  *sync.Map  // key -> *memoEntry: results derived from the whole snapshot
}

// Memo returns fn's result for key, computed at most once per snapshot:
// for results that depend on more than one file's text (a workflow's
// links name resources and other workflows), asked again and again while
// the author reads and made anew after an edit. The key must name the
// file and everything else the result depends on (the position encoding).
func (s *Snapshot) Memo(key string, fn func() any) any {
	if s.memo == nil {
		return fn()
	}
	e, _ := s.memo.LoadOrStore(key, &memoEntry{})
	me := e.(*memoEntry)
	me.once.Do(func() { me.v = fn() })
	return me.v
}

// fileOrder is a snapshot's files sorted by key, made on first use:
// cross-file features walk them on every request.
type fileOrder struct {
	once  sync.Once
	files []*File
}

// File returns the document at uri.
func (s *Snapshot) File(uri protocol.DocumentURI) (*File, bool) {
	f, ok := s.files[KeyOf(uri)]
	return f, ok
}

// FileByPath returns the .flow file at an absolute path.
func (s *Snapshot) FileByPath(path string) (*File, bool) {
	f, ok := s.byPath[filepath.Clean(path)]
	return f, ok
}

// Files returns every .flow document, sorted by key. The slice is the
// snapshot's own: callers must not modify it.
func (s *Snapshot) Files() []*File {
	if s.order == nil {
		return s.sortFiles()
	}
	s.order.once.Do(func() { s.order.files = s.sortFiles() })
	return s.order.files
}

func (s *Snapshot) sortFiles() []*File {
	out := make([]*File, 0, len(s.files))
	for _, f := range s.files {
		out = append(out, f)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Key < out[j].Key })
	return out
}

// Resources returns the project's knowledge resources sorted by path.
func (s *Snapshot) Resources() []*Resource { return s.resources }

// Resource returns the knowledge resource written as path after '@'.
func (s *Snapshot) Resource(path string) (*Resource, bool) {
	r, ok := s.resByPath[path]
	return r, ok
}

// Parse returns the syntax tree of f. An open document is parsed once per
// version; a closed file when no one holds its tree any more (see
// parseCell), so callers must not rely on getting the same pointer twice.
func (s *Snapshot) Parse(f *File) *workflowlang.File {
	c := f.parsed
	if f.Open {
		c.once.Do(func() { c.f = f.parse() })
		return c.f
	}
	c.mu.Lock()
	t := c.weak.Value()
	if t == nil {
		t = f.parse()
		c.weak = weak.Make(t)
	}
	c.mu.Unlock()
	s.trees.touch(t)
	return t
}

func (f *File) parse() *workflowlang.File {
	pf := workflowlang.Parse(f.name(), f.Src)
	pf.Mapper() // built now, so that concurrent readers never race on it
	return pf
}

// Check returns the checked result of f: its diagnostics and DAG, with
// `use`d files resolved in this snapshot. An open document is checked once
// per version and set of dependencies; a closed file again when no one
// holds its last result.
func (s *Snapshot) Check(f *File) *workflowlang.Result {
	c := f.check
	if f.Open {
		c.once.Do(func() {
			c.res, c.deps, c.whole = s.check(f)
			c.done.Store(true)
		})
		return c.res
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if r := c.weak.Value(); r != nil {
		return r
	}
	res, deps, whole := s.check(f)
	c.weak = weak.Make(res)
	if !c.done.Load() {
		// The same every time: the cell lives as long as its dependencies.
		c.deps, c.whole = deps, whole
		c.done.Store(true)
	}
	return res
}

// check checks f. The files f uses directly are loaded whole (the result
// hands them to hover, completion and the runner); the files they use in
// turn only as their summaries' skeletons, which hold all that Check reads
// of them (their paths and uses, for the use-cycle rule), so that checking
// the last file of a long chain of uses parses two files, not the chain.
func (s *Snapshot) check(f *File) (res *workflowlang.Result, deps, whole []string) {
	pf := s.Parse(f)
	direct := make(map[string]bool, len(pf.Uses))
	for _, u := range pf.Uses {
		direct[usePath(pf.Path, u.Path.Value)] = true
	}
	env := s.env(&deps, func(p string, uf *File) *workflowlang.File {
		if direct[p] {
			whole = append(whole, p)
			return s.Parse(uf)
		}
		return s.Summary(uf).skeleton
	})
	return workflowlang.Check(pf, env), deps, whole
}

// usePath is the file a `use` of usePath in the file at fromPath names.
func usePath(fromPath, usePath string) string {
	return filepath.Clean(filepath.Join(filepath.Dir(fromPath), filepath.FromSlash(usePath)))
}

// Tokens is what the resource written as path costs at level, as far as
// the snapshot knows: the full text (L2) estimated from the file's size
// (front matter included), never under: a token is at least a CJK
// character (3 bytes in UTF-8) or three bytes of other text, as `flowcabal
// check` estimates. L0 and L1 are written by the store, which the
// snapshot does not read: ok is false for them.
func (s *Snapshot) Tokens(path, level string) (int, bool) {
	r, ok := s.resByPath[path]
	if !ok || level != "L2" {
		return 0, false
	}
	return int((r.Size + 2) / 3), true
}

// Budget is the project's default Role A budget.
func (s *Snapshot) Budget() int {
	if s.Config == nil {
		return project.DefaultBudget
	}
	return s.Config.Budget
}

// Env is the environment files are checked with in this snapshot (the
// runner checks used sub-workflows with it).
func (s *Snapshot) Env() workflowlang.Env {
	var deps []string
	return s.env(&deps, func(_ string, f *File) *workflowlang.File { return s.Parse(f) })
}

// env is the environment of a check in this snapshot: load gives the tree
// of a used file, and every path asked for is appended to deps.
func (s *Snapshot) env(deps *[]string, load func(path string, f *File) *workflowlang.File) workflowlang.Env {
	return workflowlang.Env{
		Load: func(fromPath, use string) (*workflowlang.File, error) {
			p := usePath(fromPath, use)
			*deps = append(*deps, p)
			f, ok := s.byPath[p]
			if !ok {
				return nil, fmt.Errorf("use %q: %w", use, fs.ErrNotExist)
			}
			return load(p, f), nil
		},
		Resource: func(path string) bool {
			_, ok := s.resByPath[path]
			return ok
		},
		Resources: func() []string {
			out := make([]string, len(s.resources))
			for i, r := range s.resources {
				out[i] = r.Path
			}
			return out
		},
		Tokens:        s.Tokens,
		DefaultBudget: s.Budget(),
		Models:        s.models(),
		Root:          s.Root,
	}
}

// models are the model names flowcabal.toml defines, sorted; nil (names
// unchecked) when the project has no configuration file.
func (s *Snapshot) models() []string {
	if s.Config == nil || s.Root == "" {
		return nil
	}
	names := make([]string, 0, len(s.Config.Models))
	for name := range s.Config.Models {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// Dependents returns the files whose check read any of paths (through
// `use`, directly or not), in key order.
func (s *Snapshot) Dependents(paths map[string]bool) []*File {
	if len(paths) == 0 {
		return nil
	}
	var out []*File
	for _, f := range s.Files() {
		if !f.check.done.Load() {
			continue
		}
		for _, d := range f.check.deps {
			if paths[d] {
				out = append(out, f)
				break
			}
		}
	}
	return out
}
