package cache

import (
	"bufio"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/project"
)

// A Resource is a knowledge file of the project: a Markdown file under one
// of project.KnowledgeDirs, known to authors by its resource path.
type Resource struct {
	Path string // as written after '@': "meta/style-guide"
	File string // absolute file path
	Size int64

	leadOnce sync.Once
	lead     string
}

// leadLimit bounds the extract Lead returns, in runes.
const leadLimit = 160

// Lead returns the first paragraph of the resource's text after its front
// matter, cut to a sentence or two. It stands in for the resource's L0
// until the store provides generated summaries; it is read once.
func (r *Resource) Lead() string {
	r.leadOnce.Do(func() { r.lead = readLead(r.File) })
	return r.lead
}

func readLead(path string) string {
	fh, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	var para []string
	inFront, first := false, true
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if first {
			first = false
			if line == "---" {
				inFront = true
				continue
			}
		}
		if inFront {
			if line == "---" {
				inFront = false
			}
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			if len(para) > 0 {
				break
			}
			continue
		}
		para = append(para, line)
		if utf8.RuneCountInString(strings.Join(para, " ")) > leadLimit {
			break
		}
	}
	s := strings.Join(para, " ")
	if utf8.RuneCountInString(s) > leadLimit {
		s = string([]rune(s)[:leadLimit]) + "…"
	}
	return s
}

// scanKnowledge lists the Markdown files under root's knowledge folders.
func scanKnowledge(root string) []*Resource {
	var out []*Resource
	for _, dir := range project.KnowledgeDirs {
		base := filepath.Join(root, dir)
		_ = filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil // a folder that is missing or unreadable holds nothing
			}
			if d.IsDir() {
				if p != base && strings.HasPrefix(d.Name(), ".") {
					return filepath.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(d.Name(), ".md") {
				return nil
			}
			if r := newResource(root, p); r != nil {
				out = append(out, r)
			}
			return nil
		})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

func newResource(root, p string) *Resource {
	rel, err := filepath.Rel(root, p)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil
	}
	fi, err := os.Stat(p)
	if err != nil || fi.IsDir() {
		return nil
	}
	return &Resource{Path: project.ResourcePath(rel), File: p, Size: fi.Size()}
}

// KnowledgePath returns the resource path authors write after '@' for the
// file at the absolute path p, when p is (or would be) a Markdown file
// under one of the project's knowledge folders.
func (s *Snapshot) KnowledgePath(p string) (string, bool) {
	if s.Root == "" {
		return "", false
	}
	rel, ok := knowledgeRel(s.Root, p)
	if !ok {
		return "", false
	}
	return project.ResourcePath(rel), true
}

// isKnowledgeFile reports whether p (absolute) is a Markdown file under one
// of root's knowledge folders.
func isKnowledgeFile(root, p string) bool {
	_, ok := knowledgeRel(root, p)
	return ok
}

// knowledgeRel is p relative to root when p is a Markdown file under one
// of root's knowledge folders.
func knowledgeRel(root, p string) (string, bool) {
	if !strings.HasSuffix(p, ".md") {
		return "", false
	}
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return "", false
	}
	slash := filepath.ToSlash(rel)
	for _, d := range project.KnowledgeDirs {
		if strings.HasPrefix(slash, d+"/") {
			return rel, true
		}
	}
	return "", false
}
