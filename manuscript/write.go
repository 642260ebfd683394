package manuscript

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/flowcabal/flowcabal/knowledge"
)

// Op is what an import does to one file of the project.
type Op string

// The operations. An import never removes a file, and never overwrites one
// the author changed since the last import (Kept) unless forced.
const (
	OpCreate Op = "create"    // the file is new
	OpUpdate Op = "update"    // the source changed; the file was as imported
	OpSame   Op = "unchanged" // the file already holds this text
	OpKept   Op = "kept"      // the author changed the file: left as it is
	OpForce  Op = "overwrite" // the author's change overwritten (--force)
)

// Action is one file an import writes or leaves.
type Action struct {
	// Path is the file, relative to the project root, with slashes.
	Path    string
	Op      Op
	Content string
	// Chapter is the piece the file holds (nil for an arc file).
	Chapter *Chapter
	Arc     *Arc
}

// Plan is what importing a book into a project would do. Nothing is
// written until Apply.
type Plan struct {
	Root    string
	Actions []Action
	// manifest is the last import's record, updated by Apply.
	manifest manifest
}

// manifest records, for each file an import wrote, the hash of what it
// wrote: a file whose hash differs was changed by the author since.
type manifest struct {
	Files map[string]string `json:"files"`
}

// ManifestFile is where the record of imports is kept (derived data).
const ManifestFile = ".flowcabal/import.json"

// PlanImport works out what importing b into the project at root does.
// Chapters go to the file the project already has for their number (any
// naming knowledge.ChapterNumber reads), else to
// manuscript/chapter-NN/content.md; extras to
// manuscript/extras/after-chapter-NN/content.md; parts to
// summaries/arc-N.md (only when missing: arc summaries are the author's).
func PlanImport(root string, b *Book, force bool) (*Plan, error) {
	p := &Plan{Root: root}
	if err := p.loadManifest(); err != nil {
		return nil, err
	}
	existing, err := chapterFiles(root)
	if err != nil {
		return nil, err
	}
	maxN := 0
	for _, c := range b.Chapters {
		maxN = max(maxN, c.Number)
	}
	digits := max(2, len(strconv.Itoa(maxN)))
	for i := range b.Chapters {
		c := &b.Chapters[i]
		rel, ok := existing[c.Number]
		if !ok {
			rel = fmt.Sprintf("manuscript/chapter-%0*d/content.md", digits, c.Number)
		}
		a, err := p.action(rel, c.Text, force)
		if err != nil {
			return nil, err
		}
		a.Chapter = c
		p.Actions = append(p.Actions, a)
	}
	after := map[int]int{}
	for i := range b.Extras {
		c := &b.Extras[i]
		after[c.Number]++
		dir := fmt.Sprintf("after-chapter-%0*d", digits, c.Number)
		if k := after[c.Number]; k > 1 {
			dir += fmt.Sprintf("-%d", k)
		}
		a, err := p.action("manuscript/extras/"+dir+"/content.md", c.Text, force)
		if err != nil {
			return nil, err
		}
		a.Chapter = c
		p.Actions = append(p.Actions, a)
	}
	for i := range b.Arcs {
		arc := &b.Arcs[i]
		rel := fmt.Sprintf("summaries/arc-%d.md", i+1)
		content := fmt.Sprintf("---\nname: %s\nkind: arc\nchapters: [%d, %d]\n---\n", yamlString(arc.Heading), arc.First, arc.Last)
		a, err := p.action(rel, content, false)
		if err != nil {
			return nil, err
		}
		if a.Op == OpUpdate {
			a.Op = OpKept // an arc file is the author's once written
		}
		a.Arc = arc
		p.Actions = append(p.Actions, a)
	}
	return p, nil
}

// action decides what happens to one file.
func (p *Plan) action(rel, content string, force bool) (Action, error) {
	a := Action{Path: rel, Content: content}
	data, err := os.ReadFile(filepath.Join(p.Root, filepath.FromSlash(rel)))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		a.Op = OpCreate
		return a, nil
	case err != nil:
		return a, fmt.Errorf("read %s: %w", rel, err)
	}
	cur := string(data)
	switch {
	case cur == content:
		a.Op = OpSame
	case p.manifest.Files[rel] == hash(cur):
		a.Op = OpUpdate
	case force:
		a.Op = OpForce
	default:
		a.Op = OpKept
	}
	return a, nil
}

// Apply writes the plan's files, each atomically (a temporary file in the
// same folder, renamed over), and records them in the manifest.
func (p *Plan) Apply() error {
	for _, a := range p.Actions {
		switch a.Op {
		case OpCreate, OpUpdate, OpForce:
			if err := writeAtomic(filepath.Join(p.Root, filepath.FromSlash(a.Path)), []byte(a.Content)); err != nil {
				return err
			}
			p.manifest.Files[a.Path] = hash(a.Content)
		case OpSame:
			p.manifest.Files[a.Path] = hash(a.Content)
		}
	}
	data, err := json.MarshalIndent(p.manifest, "", "  ")
	if err != nil {
		return err
	}
	return writeAtomic(filepath.Join(p.Root, filepath.FromSlash(ManifestFile)), append(data, '\n'))
}

// Count returns how many actions have op.
func (p *Plan) Count(op Op) int {
	n := 0
	for _, a := range p.Actions {
		if a.Op == op {
			n++
		}
	}
	return n
}

func (p *Plan) loadManifest() error {
	p.manifest = manifest{Files: map[string]string{}}
	data, err := os.ReadFile(filepath.Join(p.Root, filepath.FromSlash(ManifestFile)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", ManifestFile, err)
	}
	if err := json.Unmarshal(data, &p.manifest); err != nil {
		return fmt.Errorf("read %s: %w (remove it to import afresh: every changed chapter is then kept)", ManifestFile, err)
	}
	if p.manifest.Files == nil {
		p.manifest.Files = map[string]string{}
	}
	return nil
}

// chapterFiles maps each chapter number the project's manuscript already
// has to its file.
func chapterFiles(root string) (map[int]string, error) {
	out := map[int]string{}
	dir := filepath.Join(root, "manuscript")
	ents, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return out, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read manuscript/: %w", err)
	}
	for _, e := range ents {
		rel := "manuscript/" + e.Name()
		if e.IsDir() {
			rel += "/content.md"
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
				continue
			}
		} else if path.Ext(e.Name()) != ".md" {
			continue
		}
		if n, ok := knowledge.ChapterNumber(rel); ok {
			if _, dup := out[n]; !dup {
				out[n] = rel
			}
		}
	}
	return out, nil
}

func writeAtomic(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp*")
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if serr := f.Sync(); werr == nil {
		werr = serr
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp, name)
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("write %s: %w", name, werr)
	}
	return nil
}

func hash(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// yamlString quotes s for a YAML flow scalar.
func yamlString(s string) string {
	b, _ := json.Marshal(strings.TrimSpace(s))
	return string(b)
}
