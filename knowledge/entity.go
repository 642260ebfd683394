package knowledge

import (
	"errors"
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The values of an entity's context setting.
const (
	ContextAlways = "always" // always injected by Role A
	ContextAuto   = "auto"   // injected when mentioned (the default)
	ContextNever  = "never"  // never injected
)

// Entity is a character, location, plot thread or other thing the author
// declares in front matter under entities/.
type Entity struct {
	// Resource is the resource path of the file ("entities/characters/lydia-bennet").
	Resource string
	// Path is the file path relative to the root.
	Path string
	// Name is the canonical name.
	Name string
	// Aliases are other names the text uses; some may be shared with
	// other entities ("Miss Lucas", "Catherine").
	Aliases []string
	// Kind is "character", "location", "plot-thread" … (from front matter,
	// else from the folder: entities/characters -> character).
	Kind string
	// Facts are the base facts, values as written (lists joined by ", ").
	Facts map[string]string
	// FactReveals holds the chapter from which a base fact may be shown,
	// for facts written as {value: …, reveal: N}.
	FactReveals map[string]int
	// FactLines holds the 1-based file line where each base fact is declared.
	FactLines map[string]int
	// Progressions change facts from a chapter on, sorted by chapter.
	Progressions []Progression
	// Relations are typed links to other resources.
	Relations []Relation
	// Context is ContextAlways, ContextAuto or ContextNever.
	Context string
	// Exclude lists phrases that contain a name but must not count as a
	// mention of this entity.
	Exclude []string
	// Reveal is the first chapter in which the entity may appear in any
	// context; 0 means always.
	Reveal int
	// Description is the Markdown body.
	Description string
	// KeyLines holds the 1-based file line of each top-level front matter
	// key ("name", "aliases", "facts"…), for diagnostics that point at it.
	KeyLines map[string]int
	// Opened, Due and Resolved are a plot thread's chapters: where it was
	// planted, by when it must pay off, and where it did (0: not said).
	Opened, Due, Resolved int
}

// Progression is a change of facts that holds from Chapter on.
type Progression struct {
	Chapter int
	Facts   map[string]string
	// Reveal is the first chapter in which the change may be shown; 0
	// means from Chapter on.
	Reveal int
	// Line is the 1-based file line of the progression.
	Line int
}

// Relation is a typed link from an entity to another resource.
type Relation struct {
	To   string
	Kind string
}

// EntityFromDocument reads the entity declared by d's front matter. It
// returns nil and an error when there is no front matter or no name; for
// fields that are malformed it returns the entity without them and an
// error (joined *FrontMatterError values) saying what was left out.
func EntityFromDocument(d *Document) (*Entity, error) {
	if d.node == nil {
		return nil, &FrontMatterError{Path: d.Path, Line: 1, Msg: "no front matter declaring the entity"}
	}
	e := &Entity{
		Resource:    d.Resource,
		Path:        d.Path,
		Context:     ContextAuto,
		Description: d.Body,
		KeyLines:    make(map[string]int, len(d.node.Content)/2),
	}
	var errs []error
	bad := func(n *yaml.Node, format string, args ...any) {
		errs = append(errs, &FrontMatterError{Path: d.Path, Line: d.frontLine + n.Line - 1, Col: n.Column, Msg: fmt.Sprintf(format, args...)})
	}
	m := d.node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		e.KeyLines[k.Value] = d.frontLine + k.Line - 1
		switch k.Value {
		case "name":
			e.Name = strings.TrimSpace(scalarText(v))
		case "aliases":
			e.Aliases = stringList(v)
		case "kind":
			e.Kind = strings.TrimSpace(scalarText(v))
		case "facts":
			if v.Kind != yaml.MappingNode {
				if !isNull(v) {
					bad(v, "facts must be a mapping of keys to values")
				}
				continue
			}
			e.Facts, e.FactReveals, e.FactLines = factMap(v, d.frontLine, bad)
		case "progressions":
			e.Progressions = progressions(v, d.frontLine, bad)
		case "relations":
			e.Relations = relations(v, bad)
		case "context":
			switch c := strings.ToLower(strings.TrimSpace(scalarText(v))); c {
			case ContextAlways, ContextAuto, ContextNever:
				e.Context = c
			default:
				bad(v, "context must be always, auto or never, not %q", scalarText(v))
			}
		case "exclude", "exclusions":
			e.Exclude = append(e.Exclude, stringList(v)...)
		case "reveal":
			n, err := strconv.Atoi(strings.TrimSpace(scalarText(v)))
			if err != nil || n < 0 {
				bad(v, "reveal must be a chapter number, not %q", scalarText(v))
				continue
			}
			e.Reveal = n
		case "opened", "due", "resolved":
			if isNull(v) {
				continue
			}
			n, err := strconv.Atoi(strings.TrimSpace(scalarText(v)))
			if err != nil || n < 1 {
				bad(v, "%s must be a chapter number, not %q", k.Value, scalarText(v))
				continue
			}
			switch k.Value {
			case "opened":
				e.Opened = n
			case "due":
				e.Due = n
			default:
				e.Resolved = n
			}
		}
	}
	if e.Name == "" {
		return nil, errors.Join(append([]error{&FrontMatterError{Path: d.Path, Line: d.frontLine, Msg: "entity has no name"}}, errs...)...)
	}
	if e.Kind == "" {
		e.Kind = kindFromPath(d.Path)
	}
	if e.Opened > 0 && e.Due > 0 && e.Due < e.Opened {
		errs = append(errs, &FrontMatterError{Path: d.Path, Line: e.KeyLines["due"], Msg: fmt.Sprintf("due (chapter %d) comes before opened (chapter %d)", e.Due, e.Opened)})
	}
	if e.Facts == nil {
		e.Facts = map[string]string{}
	}
	slices.SortStableFunc(e.Progressions, func(a, b Progression) int { return a.Chapter - b.Chapter })
	return e, errors.Join(errs...)
}

// kindFromPath turns entities/characters/x.md into "character".
func kindFromPath(p string) string {
	dir := path.Base(path.Dir(p))
	if dir == "entities" || dir == "." {
		return ""
	}
	if strings.HasSuffix(dir, "ies") {
		return strings.TrimSuffix(dir, "ies") + "y"
	}
	return strings.TrimSuffix(dir, "s")
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && (n.Tag == "!!null" || n.Value == "")
}

// scalarText renders a node as text: a scalar as written, a sequence as
// its items joined by ", ", a mapping as "k: v" pairs.
func scalarText(n *yaml.Node) string {
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Tag == "!!null" {
			return ""
		}
		return n.Value
	case yaml.SequenceNode:
		parts := make([]string, 0, len(n.Content))
		for _, c := range n.Content {
			parts = append(parts, scalarText(c))
		}
		return strings.Join(parts, ", ")
	case yaml.MappingNode:
		parts := make([]string, 0, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			parts = append(parts, n.Content[i].Value+": "+scalarText(n.Content[i+1]))
		}
		return strings.Join(parts, ", ")
	case yaml.AliasNode:
		if n.Alias != nil {
			return scalarText(n.Alias)
		}
	case yaml.DocumentNode:
		if len(n.Content) == 1 {
			return scalarText(n.Content[0])
		}
	}
	return ""
}

// stringList reads a sequence of names, or a single name.
func stringList(n *yaml.Node) []string {
	var out []string
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	if n.Kind == yaml.SequenceNode {
		for _, c := range n.Content {
			add(scalarText(c))
		}
	} else {
		add(scalarText(n))
	}
	return out
}

func factMap(n *yaml.Node, frontLine int, bad func(*yaml.Node, string, ...any)) (map[string]string, map[string]int, map[string]int) {
	facts := make(map[string]string, len(n.Content)/2)
	lines := make(map[string]int, len(n.Content)/2)
	var reveals map[string]int
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i].Value, n.Content[i+1]
		lines[k] = frontLine + n.Content[i].Line - 1
		if v.Kind == yaml.MappingNode {
			if val, rev, ok := revealedValue(v, bad); ok {
				facts[k] = val
				if rev > 0 {
					if reveals == nil {
						reveals = map[string]int{}
					}
					reveals[k] = rev
				}
				continue
			}
		}
		facts[k] = strings.TrimSpace(scalarText(v))
	}
	return facts, reveals, lines
}

// revealedValue reads a fact written as {value: …, reveal: N}.
func revealedValue(v *yaml.Node, bad func(*yaml.Node, string, ...any)) (string, int, bool) {
	var val *yaml.Node
	rev := 0
	for j := 0; j+1 < len(v.Content); j += 2 {
		switch v.Content[j].Value {
		case "value":
			val = v.Content[j+1]
		case "reveal":
			r, err := strconv.Atoi(strings.TrimSpace(v.Content[j+1].Value))
			if err != nil || r < 0 {
				bad(v.Content[j+1], "reveal must be a chapter number, not %q", v.Content[j+1].Value)
			} else {
				rev = r
			}
		default:
			return "", 0, false
		}
	}
	if val == nil {
		return "", 0, false
	}
	return strings.TrimSpace(scalarText(val)), rev, true
}

func progressions(n *yaml.Node, frontLine int, bad func(*yaml.Node, string, ...any)) []Progression {
	if n.Kind != yaml.SequenceNode {
		if !isNull(n) {
			bad(n, "progressions must be a list of {chapter: N, facts: {…}}")
		}
		return nil
	}
	var out []Progression
	for _, item := range n.Content {
		if item.Kind != yaml.MappingNode {
			bad(item, "a progression must be a mapping {chapter: N, facts: {…}}")
			continue
		}
		p := Progression{Chapter: -1, Line: frontLine + item.Line - 1}
		ok := true
		var flat map[string]string // facts written beside the chapter
		for j := 0; j+1 < len(item.Content); j += 2 {
			k, v := item.Content[j].Value, item.Content[j+1]
			switch k {
			case "chapter":
				c, err := strconv.Atoi(strings.TrimSpace(v.Value))
				if err != nil || c < 0 {
					bad(v, "progression chapter must be a chapter number, not %q", scalarText(v))
					ok = false
					continue
				}
				p.Chapter = c
			case "facts":
				if v.Kind != yaml.MappingNode {
					bad(v, "progression facts must be a mapping of keys to values")
					ok = false
					continue
				}
				p.Facts, _, _ = factMap(v, frontLine, bad)
			case "reveal":
				r, err := strconv.Atoi(strings.TrimSpace(v.Value))
				if err != nil || r < 0 {
					bad(v, "reveal must be a chapter number, not %q", scalarText(v))
					continue
				}
				p.Reveal = r
			default:
				// A fact written beside the chapter ({chapter: 22, status:
				// away, location: London}) rather than under facts: is the
				// same fact; a file written either way is read alike.
				if k == "" || v.Kind == yaml.SequenceNode {
					continue
				}
				one := &yaml.Node{Kind: yaml.MappingNode, Content: []*yaml.Node{item.Content[j], v}}
				f, _, _ := factMap(one, frontLine, bad)
				if flat == nil {
					flat = map[string]string{}
				}
				maps.Copy(flat, f)
			}
		}
		for fk, fv := range flat {
			if p.Facts == nil {
				p.Facts = map[string]string{}
			}
			if _, nested := p.Facts[fk]; !nested {
				p.Facts[fk] = fv
			}
		}
		if p.Chapter < 0 && ok {
			bad(item, "progression has no chapter")
			ok = false
		}
		if ok {
			if p.Facts == nil {
				p.Facts = map[string]string{}
			}
			out = append(out, p)
		}
	}
	return out
}

func relations(n *yaml.Node, bad func(*yaml.Node, string, ...any)) []Relation {
	if n.Kind != yaml.SequenceNode {
		if !isNull(n) {
			bad(n, "relations must be a list of {to: path, kind: …}")
		}
		return nil
	}
	var out []Relation
	for _, item := range n.Content {
		switch item.Kind {
		case yaml.ScalarNode:
			if s := strings.TrimSpace(item.Value); s != "" {
				out = append(out, Relation{To: strings.TrimPrefix(s, "@")})
			}
		case yaml.MappingNode:
			var r Relation
			for j := 0; j+1 < len(item.Content); j += 2 {
				switch item.Content[j].Value {
				case "to":
					r.To = strings.TrimPrefix(strings.TrimSpace(scalarText(item.Content[j+1])), "@")
				case "kind":
					r.Kind = strings.TrimSpace(scalarText(item.Content[j+1]))
				}
			}
			if r.To == "" {
				bad(item, "relation has no 'to'")
				continue
			}
			out = append(out, r)
		default:
			bad(item, "a relation must be {to: path, kind: …}")
		}
	}
	return out
}

// FactsAsOf returns the entity's facts as of chapter: the base facts
// updated by every progression whose Chapter is chapter or lower, in
// chapter order, a later one overriding the keys it names. Facts and
// progressions whose reveal chapter is above chapter are left out, so the
// result never spoils what the reader of that chapter does not know yet.
// The returned map is new; the caller may change it.
func (e *Entity) FactsAsOf(chapter int) map[string]string {
	out := make(map[string]string, len(e.Facts)+2)
	for k, v := range e.Facts {
		if r := e.FactReveals[k]; r > chapter {
			continue
		}
		out[k] = v
	}
	for _, p := range e.Progressions {
		if p.Chapter > chapter {
			break
		}
		if p.Reveal > chapter {
			continue
		}
		for k, v := range p.Facts {
			out[k] = v
		}
	}
	return out
}

// FactSource says where the value of key as of chapter was declared: the
// 1-based file line and the progression chapter (0 for a base fact). It
// returns line 0 when the key is not declared as of chapter.
func (e *Entity) FactSource(key string, chapter int) (line, fromChapter int) {
	if _, ok := e.Facts[key]; ok && e.FactReveals[key] <= chapter {
		line = e.FactLines[key]
	}
	for _, p := range e.Progressions {
		if p.Chapter > chapter {
			break
		}
		if _, ok := p.Facts[key]; ok && p.Reveal <= chapter {
			line, fromChapter = p.Line, p.Chapter
		}
	}
	return line, fromChapter
}

// Visible reports whether the entity may appear in a context for chapter
// (its Reveal is 0 or not above chapter).
func (e *Entity) Visible(chapter int) bool { return e.Reveal <= chapter }

// Names returns the name followed by the aliases, without duplicates.
func (e *Entity) Names() []string {
	out := make([]string, 0, 1+len(e.Aliases))
	out = append(out, e.Name)
	for _, a := range e.Aliases {
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}
