package session

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/project"
)

// threadCache keeps the plot threads read from entities/ while no file
// there changes: the diagnostics ask at every keystroke in a workflow,
// and must not wait for the whole project's knowledge to be read.
type threadCache struct {
	mu      sync.Mutex
	printed [32]byte
	read    bool
	threads []*knowledge.Entity
	window  int
}

// Threads returns the project's plot threads (by due chapter) and the
// window of chapters in which an open thread counts as due soon
// (flowcabal.toml thread_window, else the default). Only the entity
// files and flowcabal.toml are read, and again only when one of them
// changed.
func (s *Session) Threads() (threads []*knowledge.Entity, window int) {
	dir := filepath.Join(s.root, "entities")
	var files []string
	h := sha256.New()
	if fi, err := os.Stat(filepath.Join(s.root, project.ConfigFile)); err == nil {
		fmt.Fprintf(h, "%s\x00%d\x00%d\n", project.ConfigFile, fi.Size(), fi.ModTime().UnixNano())
	}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return nil
		}
		if fi, err := d.Info(); err == nil {
			fmt.Fprintf(h, "%s\x00%d\x00%d\n", p, fi.Size(), fi.ModTime().UnixNano())
			files = append(files, p)
		}
		return nil
	})
	var printed [32]byte
	h.Sum(printed[:0])
	c := &s.threads
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.read && c.printed == printed {
		return c.threads, c.window
	}
	c.window = knowledge.DefaultThreadWindow
	if cfg, err := project.LoadConfig(s.root); err == nil && cfg.ThreadWindow > 0 {
		c.window = cfg.ThreadWindow
	}
	c.threads = c.threads[:0:0]
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		rel, _ := filepath.Rel(s.root, p)
		d, err := knowledge.ParseDocument(filepath.ToSlash(rel), data)
		if err != nil {
			continue
		}
		// A thread whose other fields are malformed is still a thread:
		// the entity diagnostics say what is wrong with it.
		if e, _ := knowledge.EntityFromDocument(d); e != nil && e.IsThread() {
			c.threads = append(c.threads, e)
		}
	}
	kp := &knowledge.Project{Entities: c.threads}
	c.threads = kp.Threads()
	c.printed, c.read = printed, true
	return c.threads, c.window
}
