package cache

import (
	"errors"
	"fmt"
	fastjson "github.com/segmentio/encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/protocol"
)

// maxFileSize bounds the .flow files read from disk; larger ones are left
// out of the workspace model (the language reports too-large for open ones).
const maxFileSize = 8 << 20

// Workspace is the mutable state behind the snapshots: the editor's open
// documents and the files on disk. Its methods are called in the order the
// client's notifications arrive; each returns the new snapshot and the
// files whose diagnostics it changed.
type Workspace struct {
	mu   sync.Mutex
	snap *Snapshot
	enc  workflowlang.Encoding
}

// Change is one entry of didChange's contentChanges. Range is a pointer so
// that a whole-document replacement (no range) is told apart from an edit
// at 0:0, which go.lsp.dev/protocol's value type cannot do.
type Change struct {
	Range *protocol.Range `json:"range,omitempty"`
	Text  string          `json:"text"`
}

// NewWorkspace scans folders (absolute paths) for .flow files and the
// project around the first folder for knowledge. enc is the negotiated
// position encoding of incremental changes.
func NewWorkspace(folders []string, enc workflowlang.Encoding) (*Workspace, error) {
	s := &Snapshot{files: map[Key]*File{}, byPath: map[string]*File{}, resByPath: map[string]*Resource{}, trees: &treeCache{}, order: &fileOrder{}, memo: &sync.Map{}, refsCell: &refsCell{}}
	var errs []error
	if len(folders) > 0 {
		root, err := project.FindRoot(folders[0])
		if err != nil {
			errs = append(errs, err)
			root = folders[0]
		}
		s.Root = root
		cfg, err := project.LoadConfig(root)
		if err != nil {
			errs = append(errs, err)
			cfg = &project.Config{Budget: project.DefaultBudget}
		}
		s.Config = cfg
		s.Folders = folders
		for _, dir := range folders {
			for _, p := range scanFlows(dir) {
				if _, dup := s.byPath[p]; dup {
					continue
				}
				if f := diskFile(p); f != nil {
					s.add(f)
				}
			}
		}
		s.setResources(scanKnowledge(root))
	}
	return &Workspace{snap: s, enc: enc}, errors.Join(errs...)
}

// Snapshot returns the current snapshot.
func (w *Workspace) Snapshot() *Snapshot {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.snap
}

// Open records an opened document. Documents that are not .flow (by
// languageID or extension) are ignored: ok is false.
func (w *Workspace) Open(uri protocol.DocumentURI, languageID string, version int32, text string) (s *Snapshot, dirty []Key, ok bool) {
	if languageID != "flow" && !strings.HasSuffix(string(uri), ".flow") {
		return w.Snapshot(), nil, false
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	f := newFile(uri, version, true, []byte(text))
	s, dirty = w.replace(map[Key]*File{f.Key: f}, nil, false)
	return s, dirty, true
}

// Change applies contentChanges to an open document, in order.
func (w *Workspace) Change(uri protocol.DocumentURI, version int32, changes []Change) (*Snapshot, []Key, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	old, ok := w.snap.files[KeyOf(uri)]
	if !ok || !old.Open {
		return w.snap, nil, fmt.Errorf("didChange for %s, which is not open", uri)
	}
	src := ApplyChanges(old.Src, changes, w.enc)
	f := newFile(old.URI, version, true, src)
	s, dirty := w.replace(map[Key]*File{f.Key: f}, nil, false)
	return s, dirty, nil
}

// Close forgets the editor's text of a document: a file under the
// workspace folders reverts to its disk content, anything else leaves.
func (w *Workspace) Close(uri protocol.DocumentURI) (*Snapshot, []Key) {
	w.mu.Lock()
	defer w.mu.Unlock()
	k := KeyOf(uri)
	old, ok := w.snap.files[k]
	if !ok {
		return w.snap, nil
	}
	var next *File
	if old.Path != "" && w.inFolders(old.Path) {
		next = diskFile(old.Path)
	}
	return w.replace(map[Key]*File{k: next}, nil, false)
}

// FilesChanged applies workspace/didChangeWatchedFiles events: .flow files
// that are not open are re-read, knowledge files re-listed, and a changed
// flowcabal.toml reloaded.
func (w *Workspace) FilesChanged(events []*protocol.FileEvent) (*Snapshot, []Key) {
	w.mu.Lock()
	defer w.mu.Unlock()
	repl := map[Key]*File{}
	knowledge := false
	var cfg *project.Config
	for _, ev := range events {
		if ev == nil {
			continue
		}
		p, ok := URIPath(ev.URI)
		if !ok {
			continue
		}
		switch {
		case strings.HasSuffix(p, ".flow"):
			k := keyOfPath(p)
			if old, ok := w.snap.files[k]; ok && old.Open {
				continue // the editor's text wins over the disk's
			}
			if !w.inFolders(p) {
				continue
			}
			repl[k] = diskFile(p) // nil when deleted or unreadable
		case w.snap.Root != "" && isKnowledgeFile(w.snap.Root, p):
			knowledge = true
		case w.snap.Root != "" && p == filepath.Join(w.snap.Root, project.ConfigFile):
			if c, err := project.LoadConfig(w.snap.Root); err == nil {
				cfg = c
			}
		}
	}
	if len(repl) == 0 && !knowledge && cfg == nil {
		return w.snap, nil
	}
	var res []*Resource
	if knowledge {
		res = scanKnowledge(w.snap.Root)
	}
	s, dirty := w.replace(repl, res, cfg != nil)
	if cfg != nil {
		s.Config = cfg
	}
	return s, dirty
}

func (w *Workspace) inFolders(p string) bool {
	for _, d := range w.snap.Folders {
		rel, err := filepath.Rel(d, p)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// replace makes the next snapshot: repl maps keys to new files (nil
// removes), res (when non-nil) is the new knowledge list, and all says every
// check is stale (configuration changed). Checks that read a replaced path
// are redone; files whose diagnostics may have changed are returned.
func (w *Workspace) replace(repl map[Key]*File, res []*Resource, all bool) (*Snapshot, []Key) {
	old := w.snap
	s := &Snapshot{
		Seq: old.Seq + 1, Root: old.Root, Folders: old.Folders, Config: old.Config,
		files: make(map[Key]*File, len(old.files)+len(repl)), byPath: make(map[string]*File, len(old.byPath)),
		resources: old.resources, resByPath: old.resByPath, resByFile: old.resByFile, trees: old.trees, order: &fileOrder{}, memo: &sync.Map{},
	}
	changedKeys := make([]Key, 0, len(repl))
	for k := range repl {
		changedKeys = append(changedKeys, k)
	}
	s.refsCell = old.refsCell.nextRefs(changedKeys)
	if res != nil {
		s.setResources(res)
		all = true
	}
	changed := map[string]bool{}
	dirty := map[Key]bool{}
	for k, f := range repl {
		if o, ok := old.files[k]; ok && o.Path != "" {
			changed[o.Path] = true
		}
		if f != nil {
			if f.Path != "" {
				changed[f.Path] = true
			}
			dirty[k] = true
		} else if _, ok := old.files[k]; ok {
			dirty[k] = true // removed: its diagnostics must be cleared
		}
	}
	newByPath := make(map[string]*File, len(repl))
	for _, f := range repl {
		if f != nil && f.Path != "" {
			newByPath[f.Path] = f
		}
	}
	sameUses := map[string]bool{}
	// sameSkeleton reports whether the changed file at p has the uses it
	// had, which is all that the checks reading p as a skeleton saw of it.
	// It parses the new content, once, only when such checks exist.
	sameSkeleton := func(p string) bool {
		same, ok := sameUses[p]
		if !ok {
			a, b := old.byPath[p], newByPath[p]
			same = a != nil && b != nil && slices.EqualFunc(s.Summary(a).Uses, s.Summary(b).Uses,
				func(x, y SummaryUse) bool { return x.Path == y.Path && x.Alias == y.Alias })
			sameUses[p] = same
		}
		return same
	}
	for k, o := range old.files {
		if _, ok := repl[k]; ok {
			continue
		}
		f := o
		if done := o.check.done.Load(); !done || all || affected(o, changed, sameSkeleton) {
			cp := *o
			cp.check = &checkCell{}
			f = &cp
			// A check not done yet has unknown dependencies (it may be
			// running on the old snapshot right now): republish it too.
			dirty[k] = true
		}
		s.add(f)
	}
	for _, f := range repl {
		if f != nil {
			s.add(f)
		}
	}
	w.snap = s
	keys := make([]Key, 0, len(dirty))
	for k := range dirty {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return s, keys
}

// affected reports whether the check of f, which is done, may change with
// the files at the changed paths: it read one of them whole, or one of
// them as a skeleton whose uses have changed.
func affected(f *File, changed map[string]bool, sameSkeleton func(path string) bool) bool {
	if len(changed) == 0 {
		return false
	}
	for _, d := range f.check.deps {
		if changed[d] && (slices.Contains(f.check.whole, d) || !sameSkeleton(d)) {
			return true
		}
	}
	return false
}

func (s *Snapshot) add(f *File) {
	s.files[f.Key] = f
	if f.Path != "" {
		s.byPath[f.Path] = f
	}
}

func (s *Snapshot) setResources(res []*Resource) {
	s.resources = res
	s.resByPath = make(map[string]*Resource, len(res))
	for _, r := range res {
		s.resByPath[r.Path] = r
	}
	s.resByFile = slices.Clone(res)
	slices.SortFunc(s.resByFile, func(a, b *Resource) int { return strings.Compare(a.File, b.File) })
}

func newFile(uri protocol.DocumentURI, version int32, open bool, src []byte) *File {
	p, _ := URIPath(uri)
	return &File{URI: uri, URIJSON: string(fastjson.AppendEscape(nil, string(uri), 0)), Key: KeyOf(uri), Path: p, Version: version, Open: open, Src: src,
		parsed: &parseCell{}, check: &checkCell{}}
}

// diskFile reads a .flow file, or returns nil when it is missing,
// unreadable or too large.
func diskFile(p string) *File {
	fi, err := os.Stat(p)
	if err != nil || fi.IsDir() || fi.Size() > maxFileSize {
		return nil
	}
	b, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	return newFile(FileURI(p), 0, false, b)
}

// scanFlows lists the .flow files under dir, skipping hidden folders and
// node_modules.
func scanFlows(dir string) []string {
	var out []string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != dir && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(d.Name(), ".flow") {
			out = append(out, filepath.Clean(p))
		}
		return nil
	})
	return out
}

// ApplyChanges applies didChange content changes to src, in order: a
// change without a range replaces the whole text; ranges count columns in
// enc and are clamped into the text.
func ApplyChanges(src []byte, changes []Change, enc workflowlang.Encoding) []byte {
	for _, c := range changes {
		if c.Range == nil {
			src = []byte(c.Text)
			continue
		}
		m := workflowlang.NewMapper(src)
		start := m.ClampOffset(workflowlang.Position{Line: int(c.Range.Start.Line), Col: int(c.Range.Start.Character)}, enc)
		end := m.ClampOffset(workflowlang.Position{Line: int(c.Range.End.Line), Col: int(c.Range.End.Character)}, enc)
		if end < start {
			start, end = end, start
		}
		next := make([]byte, 0, len(src)-(end-start)+len(c.Text))
		next = append(next, src[:start]...)
		next = append(next, c.Text...)
		next = append(next, src[end:]...)
		src = next
	}
	return src
}
