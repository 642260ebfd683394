package runner

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/flowcabal/flowcabal/workflowlang"
)

// A SourceChange is a file an output was built from that is no longer
// what it was when the output was made.
type SourceChange struct {
	// Path is the file, relative to the project root, with slashes.
	Path string
	// Deleted says the file is gone; otherwise its content changed.
	Deleted bool
}

// String says what happened: "entities/characters/x.md changed".
func (c SourceChange) String() string {
	if c.Deleted {
		return c.Path + " deleted"
	}
	return c.Path + " changed"
}

// SourcePaths lists the project files a node's output is built from: the
// sources Role A injected (its provenance) and the resources the node
// names itself ({{@path}}), as files relative to root, sorted, without
// the node's own persist target (curating the output into it must not
// make the output stale).
func SourcePaths(root string, n *workflowlang.Node, provenance json.RawMessage) []string {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		if f := sourceFile(root, p); f != "" && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	if len(provenance) > 0 {
		var prov struct {
			Sources []struct {
				Path string `json:"path"`
			} `json:"sources"`
		}
		if json.Unmarshal(provenance, &prov) == nil {
			for _, s := range prov.Sources {
				add(s.Path)
			}
		}
	}
	if n != nil {
		for _, r := range n.Refs() {
			if r.Kind == workflowlang.RefKnowledge {
				add(r.Path)
			}
		}
		if a := n.Attr("persist"); a != nil {
			if own := sourceFile(root, valueText(a.Value)); own != "" && seen[own] {
				out = slices.DeleteFunc(out, func(p string) bool { return p == own })
			}
		}
	}
	slices.Sort(out)
	return out
}

// sourceFile finds the file a resource path names: the path itself, or
// with ".md", or a chapter folder's content.md. It returns "" for a path
// that names no file (a derived arc summary that was never written).
func sourceFile(root, p string) string {
	p = strings.TrimPrefix(path.Clean(filepath.ToSlash(p)), "/")
	if p == "." || p == "" || strings.HasPrefix(p, "../") {
		return ""
	}
	for _, c := range []string{p, p + ".md", p + "/content.md"} {
		if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(c))); err == nil && fi.Mode().IsRegular() {
			return c
		}
	}
	return ""
}

// HashSources returns the content hash of each file (paths relative to
// root): what an output's provenance keeps to tell later whether what it
// was built from has changed. A file that cannot be read is left out.
func HashSources(root string, paths []string) map[string]string {
	if len(paths) == 0 {
		return nil
	}
	out := make(map[string]string, len(paths))
	for _, p := range paths {
		if h, err := hashFile(filepath.Join(root, filepath.FromSlash(p))); err == nil {
			out[p] = h
		}
	}
	return out
}

func hashFile(p string) (string, error) {
	data, err := os.ReadFile(p)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// ChangedSources compares the hashes an output recorded with the files as
// they are now, and returns those that differ, sorted by path. An output
// recorded without hashes (made before they were kept) has none.
func ChangedSources(root string, hashes map[string]string) []SourceChange {
	return changed(root, hashes, hashFile)
}

func changed(root string, hashes map[string]string, hash func(string) (string, error)) []SourceChange {
	var out []SourceChange
	for p, want := range hashes {
		got, err := hash(filepath.Join(root, filepath.FromSlash(p)))
		switch {
		case errors.Is(err, fs.ErrNotExist):
			out = append(out, SourceChange{Path: p, Deleted: true})
		case err != nil || got != want:
			// A file unreadable now (permissions, a folder in its place)
			// is not what the output was built from either.
			out = append(out, SourceChange{Path: p})
		}
	}
	slices.SortFunc(out, func(a, b SourceChange) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// StaleSummary says in a few words what changed: the first change, and
// how many more ("entities/characters/x.md changed (+2 more)").
func StaleSummary(changes []SourceChange) string {
	if len(changes) == 0 {
		return ""
	}
	s := changes[0].String()
	if len(changes) > 1 {
		s += " (+" + strconv.Itoa(len(changes)-1) + " more)"
	}
	return s
}

// A FileHasher hashes files for ChangedSources, remembering each file's
// hash by its size and modification time: the lenses and the graph ask
// again at every redraw, and a workflow's sources are whole chapters.
// The cache never serves a run (ChangedSources hashes afresh); it is safe
// for concurrent use.
type FileHasher struct {
	mu   sync.Mutex
	seen map[string]hashedFile
}

type hashedFile struct {
	size int64
	mod  time.Time
	hash string
}

// Changed is ChangedSources through the cache.
func (h *FileHasher) Changed(root string, hashes map[string]string) []SourceChange {
	return changed(root, hashes, h.hash)
}

func (h *FileHasher) hash(p string) (string, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return "", err
	}
	h.mu.Lock()
	c, ok := h.seen[p]
	h.mu.Unlock()
	if ok && c.size == fi.Size() && c.mod.Equal(fi.ModTime()) {
		return c.hash, nil
	}
	sum, err := hashFile(p)
	if err != nil {
		return "", err
	}
	h.mu.Lock()
	if h.seen == nil {
		h.seen = map[string]hashedFile{}
	}
	h.seen[p] = hashedFile{size: fi.Size(), mod: fi.ModTime(), hash: sum}
	h.mu.Unlock()
	return sum, nil
}

// paramsJSON is what an output keeps of the settings of its call.
func paramsJSON(p Params) json.RawMessage {
	b, _ := json.Marshal(p) // plain strings and numbers: cannot fail
	return b
}
