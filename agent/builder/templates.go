package builder

import (
	_ "embed"
	"fmt"
	"sort"
	"strings"

	"github.com/flowcabal/flowcabal/textsearch"
	"go.yaml.in/yaml/v3"
)

//go:embed templates.yaml
var templatesYAML []byte

// A Template is a kind of node a novel workflow uses: the knowledge base
// the builder retrieves from and the completion provider offers.
type Template struct {
	ID          string         `yaml:"id" json:"id"`
	Title       string         `yaml:"title" json:"title"`
	Description string         `yaml:"description" json:"description"`
	Keywords    []string       `yaml:"keywords" json:"keywords,omitempty"`
	Attrs       map[string]any `yaml:"attrs" json:"attrs,omitempty"`
	System      string         `yaml:"system" json:"system,omitempty"`
	User        string         `yaml:"user" json:"user,omitempty"`
	// Follows lists the templates this one typically comes after; the
	// snippet completions offer it after a node of those kinds.
	Follows []string `yaml:"follows" json:"follows,omitempty"`
	// Name is the node name the builder derives from the template
	// ("critique" for self-critique); empty means the id.
	Name string `yaml:"name" json:"name,omitempty"`
}

// NodeName is the base name of a node made from t.
func (t *Template) NodeName() string {
	if t.Name != "" {
		return t.Name
	}
	return t.ID
}

// Library is the template knowledge base with a BM25 index over each
// template's title, description and keywords (CJK-aware).
type Library struct {
	Templates []*Template
	byID      map[string]*Template
	an        *textsearch.Analyzer
	idx       *textsearch.Index
}

// DefaultLibrary loads the templates embedded in the binary.
func DefaultLibrary() (*Library, error) { return ParseLibrary(templatesYAML) }

// ParseLibrary reads templates from YAML (a list of templates).
func ParseLibrary(data []byte) (*Library, error) {
	var ts []*Template
	if err := yaml.Unmarshal(data, &ts); err != nil {
		return nil, fmt.Errorf("node templates: %w", err)
	}
	l := &Library{byID: map[string]*Template{}, an: textsearch.NewAnalyzer(nil), idx: textsearch.NewIndex(0, 0)}
	for i, t := range ts {
		if t == nil || t.ID == "" || t.Title == "" || t.Description == "" {
			return nil, fmt.Errorf("node templates: entry %d needs an id, a title and a description", i+1)
		}
		if _, dup := l.byID[t.ID]; dup {
			return nil, fmt.Errorf("node templates: id %q given twice", t.ID)
		}
		if t.User == "" && t.System == "" {
			return nil, fmt.Errorf("node templates: %s has no prompt", t.ID)
		}
		l.byID[t.ID] = t
		l.Templates = append(l.Templates, t)
		// The title and keywords weigh more than the description: they
		// are the words authors use.
		text := strings.Join([]string{t.ID, t.Title, t.Title, strings.Join(t.Keywords, " "), strings.Join(t.Keywords, " "), t.Description}, " ")
		l.idx.Add(t.ID, l.an.Terms(strings.ReplaceAll(text, "-", " ")))
	}
	for _, t := range ts {
		for _, f := range t.Follows {
			if l.byID[f] == nil {
				return nil, fmt.Errorf("node templates: %s follows unknown template %q", t.ID, f)
			}
		}
	}
	return l, nil
}

// Get returns the template with the given id, or nil.
func (l *Library) Get(id string) *Template { return l.byID[id] }

// Search returns up to k templates relevant to the intent, best first.
func (l *Library) Search(intent string, k int) []*Template {
	hits := l.idx.Search(l.an.Terms(intent), k, nil)
	out := make([]*Template, 0, len(hits))
	for _, h := range hits {
		out = append(out, l.byID[h.ID])
	}
	return out
}

// classify guesses which template a node is an instance of, from its name
// and title: exact ids and names first, then keywords.
func (l *Library) classify(name, title string) *Template {
	n := strings.ToLower(name)
	for _, t := range l.Templates {
		if n == t.ID || n == t.NodeName() {
			return t
		}
	}
	words := strings.ToLower(name + " " + title)
	best, bestLen := (*Template)(nil), 0
	for _, t := range l.Templates {
		for _, kw := range append([]string{t.ID, t.NodeName()}, t.Keywords...) {
			kw = strings.ToLower(kw)
			if len(kw) > bestLen && strings.Contains(words, kw) {
				best, bestLen = t, len(kw)
			}
		}
	}
	return best
}

// sortedIDs lists template ids alphabetically (for messages).
func (l *Library) sortedIDs() []string {
	ids := make([]string, 0, len(l.byID))
	for id := range l.byID {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}
