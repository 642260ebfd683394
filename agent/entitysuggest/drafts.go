package entitysuggest

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/textsearch"
	"go.yaml.in/yaml/v3"
)

// Existing returns, for each suggestion, the entity file that already
// declares one of its names (name or alias, traditional and simplified
// folded, case ignored), or nil.
func Existing(sugg []Suggestion, ents []*knowledge.Entity, folder *textsearch.Folder) []*knowledge.Entity {
	if folder == nil {
		folder = textsearch.NewFolder()
	}
	fold := func(s string) string { return strings.Join(strings.Fields(folder.Fold(s)), " ") }
	byName := map[string]*knowledge.Entity{}
	for _, e := range ents {
		for _, n := range e.Names() {
			if k := fold(n); byName[k] == nil {
				byName[k] = e
			}
		}
	}
	out := make([]*knowledge.Entity, len(sugg))
	for i, s := range sugg {
		for _, n := range s.Names() {
			if e := byName[fold(n)]; e != nil {
				out[i] = e
				break
			}
		}
	}
	return out
}

// draftFront is the front matter of a draft entity file, in the order the
// project's files write it.
type draftFront struct {
	Name    string            `yaml:"name"`
	Aliases []string          `yaml:"aliases,flow"`
	Kind    string            `yaml:"kind"`
	Draft   bool              `yaml:"draft"`
	Facts   map[string]string `yaml:"facts,flow"`
}

// DraftFile renders the draft entity file of a suggestion: front matter
// with name, aliases, kind, draft: true and empty facts for the author to
// fill, and a body that says where the suggestion came from.
func DraftFile(s Suggestion) ([]byte, error) {
	front, err := yaml.Marshal(draftFront{Name: s.Name, Aliases: nonNil(s.Aliases), Kind: s.Kind, Draft: true, Facts: map[string]string{}})
	if err != nil {
		return nil, fmt.Errorf("draft %s: %w", s.Name, err)
	}
	var b strings.Builder
	b.WriteString("---\n")
	b.Write(front)
	b.WriteString("---\n\n")
	fmt.Fprintf(&b, "Suggested by `flowcabal entities suggest`: %d mentions, chapters %d to %d.", s.Mentions, s.FirstChapter, s.LastChapter)
	if len(s.Related) > 0 {
		fmt.Fprintf(&b, " Often beside: %s.", strings.Join(s.Related, ", "))
	}
	b.WriteString("\n")
	return []byte(b.String()), nil
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// WriteDrafts writes a draft entity file under root for each suggestion
// that no entity file declares yet (existing[i] nil; see Existing):
// entities/characters/<slug>.md or entities/locations/<slug>.md. It never
// overwrites a file: a slug already taken gets a number. It returns the
// paths written, relative to root.
func WriteDrafts(root string, sugg []Suggestion, existing []*knowledge.Entity) ([]string, error) {
	var written []string
	for i, s := range sugg {
		if i < len(existing) && existing[i] != nil {
			continue
		}
		data, err := DraftFile(s)
		if err != nil {
			return written, err
		}
		dir := "entities/characters"
		if s.Kind == KindLocation {
			dir = "entities/locations"
		}
		base := slug(s.Name)
		var rel string
		for n := 1; ; n++ {
			name := base
			if n > 1 {
				name = fmt.Sprintf("%s-%d", base, n)
			}
			rel = path.Join(dir, name+".md")
			full, err := project.Resolve(root, rel)
			if err != nil {
				return written, fmt.Errorf("write draft %s: %w", rel, err)
			}
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				return written, fmt.Errorf("write draft %s: %w", rel, err)
			}
			f, err := os.OpenFile(full, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			if errors.Is(err, fs.ErrExist) {
				continue // never overwrite: the author's file, or another draft
			}
			if err != nil {
				return written, fmt.Errorf("write draft %s: %w", rel, err)
			}
			_, werr := f.Write(data)
			cerr := f.Close()
			if err := errors.Join(werr, cerr); err != nil {
				return written, fmt.Errorf("write draft %s: %w", rel, err)
			}
			break
		}
		written = append(written, rel)
	}
	return written, nil
}

// slug makes a file name of a name: letters and digits of any script,
// lower case, words joined by hyphens ("Lady Catherine de Bourgh" ->
// "lady-catherine-de-bourgh", "賈寶玉" -> "賈寶玉").
func slug(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(name) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			dash = false
			b.WriteRune(r)
			continue
		}
		dash = true
	}
	if b.Len() == 0 {
		return "entity"
	}
	s := b.String()
	if len(s) > 80 {
		s = strings.ToValidUTF8(s[:80], "")
	}
	return s
}
