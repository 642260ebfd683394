package knowledge

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/flowcabal/flowcabal/project"
	"go.yaml.in/yaml/v3"
)

// WorldRulesPath is the file whose front matter holds the world rules.
const WorldRulesPath = "meta/world-rules.md"

// WorldRules is the front matter of meta/world-rules.md.
type WorldRules struct {
	// Path is the file the rules come from.
	Path string
	// Era describes when and where the story happens.
	Era string
	// Forbidden lists terms that must not occur (matched as whole words
	// or phrases, case-insensitively, in their ordinary word forms).
	Forbidden []string
	// ForbiddenPatterns lists regular expressions (Go syntax) that must
	// not match, from the key forbidden_patterns.
	ForbiddenPatterns []string
	// Lines holds the 1-based file line of each forbidden term, by term.
	Lines map[string]int
}

// WorldRulesFromDocument reads the world rules from d's front matter. A
// document without front matter gives empty rules.
func WorldRulesFromDocument(d *Document) (*WorldRules, error) {
	w := &WorldRules{Path: d.Path, Lines: map[string]int{}}
	if d.node == nil {
		return w, nil
	}
	m := d.node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		switch k.Value {
		case "era":
			w.Era = strings.TrimSpace(scalarText(v))
		case "forbidden":
			if v.Kind == yaml.SequenceNode {
				for _, c := range v.Content {
					if s := strings.TrimSpace(scalarText(c)); s != "" {
						w.Forbidden = append(w.Forbidden, s)
						w.Lines[s] = d.frontLine + c.Line - 1
					}
				}
			} else {
				for _, s := range stringList(v) {
					w.Forbidden = append(w.Forbidden, s)
					w.Lines[s] = d.frontLine + v.Line - 1
				}
			}
		case "forbidden_patterns":
			w.ForbiddenPatterns = stringList(v)
		}
	}
	return w, nil
}

// ChapterNumber returns the chapter number of a manuscript resource:
// "manuscript/chapter-12", "manuscript/chapter-012", "manuscript/012",
// "manuscript/ch12" and "manuscript/chapter-12/content" all give 12. A
// bare "chapter-12" or "012" is accepted too.
func ChapterNumber(resource string) (int, bool) {
	r := strings.TrimSuffix(strings.TrimSuffix(filepathToSlash(resource), ".md"), "/content")
	dir, base := path.Split(r)
	if dir != "" && !strings.HasPrefix(dir, "manuscript/") {
		return 0, false
	}
	lower := strings.ToLower(base)
	for _, p := range []string{"chapter-", "chapter_", "chapter", "ch-", "ch"} {
		if strings.HasPrefix(lower, p) {
			lower = lower[len(p):]
			break
		}
	}
	if lower == "" || len(lower) > 9 {
		return 0, false
	}
	for _, c := range lower {
		if c < '0' || c > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(lower)
	if err != nil {
		return 0, false
	}
	return n, true
}

func filepathToSlash(s string) string { return strings.ReplaceAll(s, "\\", "/") }

// Chapter is one manuscript chapter.
type Chapter struct {
	Number   int
	Document *Document
}

// Project is everything LoadProject read.
type Project struct {
	// Root is the project root as given to LoadProject.
	Root string
	// Documents are all parsed Markdown files, sorted by Path.
	Documents []*Document
	// Entities are the entities declared under entities/, sorted by Resource.
	Entities []*Entity
	// WorldRules are from meta/world-rules.md; empty rules when it is absent.
	WorldRules *WorldRules
	// Chapters are the manuscript chapters, sorted by number.
	Chapters []Chapter

	docs     map[string]*Document
	entities map[string]*Entity
}

// Document returns the document with the given resource path, or nil.
func (p *Project) Document(resource string) *Document { return p.docs[resource] }

// Entity returns the entity with the given resource path, or nil.
func (p *Project) Entity(resource string) *Entity { return p.entities[resource] }

// Chapter returns chapter n, or nil.
func (p *Project) Chapter(n int) *Document {
	i, ok := slices.BinarySearchFunc(p.Chapters, n, func(c Chapter, n int) int { return c.Number - n })
	if !ok {
		return nil
	}
	return p.Chapters[i].Document
}

// LoadProject reads every .md file under the knowledge folders of root
// (project.KnowledgeDirs). Files that cannot be read or parsed are
// reported in the returned errors (one per problem, each naming its file)
// and the rest of the project is still loaded; a document with broken
// front matter is kept with its body. Files are parsed in parallel.
func LoadProject(root string) (*Project, []error) {
	return LoadProjectDirs(root, knowledgeDirs()...)
}

// LoadProjectDirs is LoadProject reading only the knowledge folders
// dirs (a subset of project.KnowledgeDirs): the knowledge around a
// manuscript whose chapters the caller knows otherwise.
func LoadProjectDirs(root string, dirs ...string) (*Project, []error) {
	var rels []string
	var errs []error
	for _, dir := range dirs {
		base := filepath.Join(root, dir)
		err := filepath.WalkDir(base, func(p string, de fs.DirEntry, err error) error {
			if err != nil {
				if errors.Is(err, fs.ErrNotExist) && p == base {
					return fs.SkipDir
				}
				errs = append(errs, fmt.Errorf("walk %s: %w", p, err))
				return nil
			}
			if de.IsDir() {
				if p != base && strings.HasPrefix(de.Name(), ".") {
					return fs.SkipDir
				}
				return nil
			}
			if !de.Type().IsRegular() || !strings.HasSuffix(de.Name(), ".md") {
				return nil
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				errs = append(errs, fmt.Errorf("walk %s: %w", p, err))
				return nil
			}
			rels = append(rels, filepath.ToSlash(rel))
			return nil
		})
		if err != nil && !errors.Is(err, fs.SkipDir) {
			errs = append(errs, err)
		}
	}

	results := make([]loaded, len(rels))
	var wg sync.WaitGroup
	next := make(chan int)
	workers := min(runtime.GOMAXPROCS(0), max(1, len(rels)))
	for range workers {
		wg.Go(func() {
			for i := range next {
				results[i] = loadOne(root, rels[i])
			}
		})
	}
	for i := range rels {
		next <- i
	}
	close(next)
	wg.Wait()

	p := &Project{
		Root:     root,
		docs:     make(map[string]*Document, len(rels)),
		entities: map[string]*Entity{},
	}
	for i, r := range results {
		errs = append(errs, r.errs...)
		if r.doc == nil {
			continue
		}
		p.Documents = append(p.Documents, r.doc)
		p.docs[r.doc.Resource] = r.doc
		if r.entity != nil {
			p.Entities = append(p.Entities, r.entity)
			p.entities[r.entity.Resource] = r.entity
		}
		if rels[i] == WorldRulesPath {
			w, err := WorldRulesFromDocument(r.doc)
			if err != nil {
				errs = append(errs, err)
			}
			p.WorldRules = w
		}
		if strings.HasPrefix(rels[i], "manuscript/") {
			if n, ok := ChapterNumber(r.doc.Resource); ok {
				p.Chapters = append(p.Chapters, Chapter{Number: n, Document: r.doc})
			}
		}
	}
	if p.WorldRules == nil {
		p.WorldRules = &WorldRules{Lines: map[string]int{}}
	}
	slices.SortFunc(p.Documents, func(a, b *Document) int { return strings.Compare(a.Path, b.Path) })
	slices.SortFunc(p.Entities, func(a, b *Entity) int { return strings.Compare(a.Resource, b.Resource) })
	slices.SortStableFunc(p.Chapters, func(a, b Chapter) int { return a.Number - b.Number })
	return p, errs
}

// knowledgeDirs copies project.KnowledgeDirs, a variable, so that the walk
// does not depend on it changing underneath.
func knowledgeDirs() []string { return slices.Clone(project.KnowledgeDirs) }

// loaded is what loadOne read of one file.
type loaded struct {
	doc    *Document
	entity *Entity
	errs   []error
}

func loadOne(root, rel string) (r loaded) {
	full := filepath.Join(root, filepath.FromSlash(rel))
	fi, err := os.Stat(full)
	if err != nil {
		r.errs = append(r.errs, fmt.Errorf("%s: %w", rel, err))
		return r
	}
	if fi.Size() > MaxFileSize {
		r.errs = append(r.errs, fmt.Errorf("%s: file is %d bytes, more than the %d a knowledge file may have", rel, fi.Size(), MaxFileSize))
		return r
	}
	data, err := os.ReadFile(full)
	if err != nil {
		r.errs = append(r.errs, fmt.Errorf("%s: %w", rel, err))
		return r
	}
	d, err := ParseDocument(rel, data)
	if err != nil {
		r.errs = append(r.errs, err)
	}
	r.doc = d
	if d != nil && d.node != nil && strings.HasPrefix(rel, "entities/") {
		e, err := EntityFromDocument(d)
		if err != nil {
			r.errs = append(r.errs, err)
		}
		r.entity = e
	}
	return r
}
