// Package cache holds the language server's view of the workspace: the
// mutable Workspace that text-synchronisation notifications update, and the
// immutable Snapshots that request handlers read. A Snapshot never changes
// once made, so a handler can work on one without locks while the editor
// keeps typing; parsing and checking happen lazily, once per file content
// and per set of dependencies.
package cache

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/protocol"
)

// A File is one .flow document as a snapshot sees it: the editor's text
// when it is open, the disk's otherwise.
type File struct {
	URI     protocol.DocumentURI // as the client spells it when open
	Key     Key
	Path    string // absolute path; empty for documents that are not files
	Version int32  // the client's version when open; 0 for disk content
	Open    bool
	Src     []byte

	parsed *parseCell
	check  *checkCell
}

type parseCell struct {
	once sync.Once
	f    *workflowlang.File
	memo sync.Map // key -> *memoEntry: results derived from the content alone
}

type memoEntry struct {
	once sync.Once
	v    any
}

// Memo returns fn's result for key, computed at most once per file
// content: for results that depend on the file's text and nothing else
// (its outline, its completion candidates). The key must name everything
// else the result depends on (the position encoding, client options).
func (f *File) Memo(key string, fn func() any) any {
	e, _ := f.parsed.memo.LoadOrStore(key, &memoEntry{})
	me := e.(*memoEntry)
	me.once.Do(func() { me.v = fn() })
	return me.v
}

type checkCell struct {
	once sync.Once
	done atomic.Bool
	res  *workflowlang.Result
	deps []string // every path Check asked to load, transitively
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

// Files returns every .flow document, sorted by key.
func (s *Snapshot) Files() []*File {
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

// Parse returns the syntax tree of f, parsing it at most once per content.
func (s *Snapshot) Parse(f *File) *workflowlang.File {
	f.parsed.once.Do(func() {
		pf := workflowlang.Parse(f.name(), f.Src)
		pf.Mapper() // built now, so that concurrent readers never race on it
		f.parsed.f = pf
	})
	return f.parsed.f
}

// Check returns the checked result of f: its diagnostics and DAG, with
// `use`d files resolved in this snapshot.
func (s *Snapshot) Check(f *File) *workflowlang.Result {
	c := f.check
	c.once.Do(func() {
		var deps []string
		env := s.env(&deps)
		c.res = workflowlang.Check(s.Parse(f), env)
		c.deps = deps
		c.done.Store(true)
	})
	return c.res
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
	return s.env(&deps)
}

func (s *Snapshot) env(deps *[]string) workflowlang.Env {
	return workflowlang.Env{
		Load: func(fromPath, usePath string) (*workflowlang.File, error) {
			p := filepath.Clean(filepath.Join(filepath.Dir(fromPath), filepath.FromSlash(usePath)))
			*deps = append(*deps, p)
			f, ok := s.byPath[p]
			if !ok {
				return nil, fmt.Errorf("use %q: %w", usePath, fs.ErrNotExist)
			}
			return s.Parse(f), nil
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
		// Estimated from the file's size (front matter included), never
		// under: a token is at least a CJK character (3 bytes in UTF-8) or
		// three bytes of other text, as `flowcabal check` estimates.
		Tokens: func(path, level string) (int, bool) {
			r, ok := s.resByPath[path]
			if !ok || level != "L2" {
				return 0, false
			}
			return int((r.Size + 2) / 3), true
		},
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
