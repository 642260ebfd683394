// Package profile builds the profiles Role A navigates a long work by,
// under profiles/ as Markdown the author can read and annotate.
//
// Factual profiles need no model: for an entity, the chapters it appears
// in, when it was last seen, who it appears with, its facts as of the
// latest chapter and its relations, all from the project's files
// ([Regenerate]). They go to profiles/characters, profiles/plot-threads
// and profiles/world-state (every other entity kind) by [Dir].
//
// Multi-angle profiles come from the agent model, when one is configured:
// after a curation, a [Pass] shows the model the curated text with the
// profiles it may affect and takes back, as structured output, the
// profiles to rewrite — under the same three folders plus profiles/themes
// and profiles/style ([Angles]). An entity's reading goes into the same
// file as its facts, so Role A finds both through the profile's about:.
// The answer is kept in the store under the text's hash (and the hash is
// written in each profile's front matter as source_hash), so the same
// text is never sent twice; the model's paths and text are untrusted and
// checked ([CleanPath]).
//
// A file's parts each have one writer: the factual part, the model's
// section between <!-- model --> and <!-- /model -->, and the author's
// sections between <!-- author --> and <!-- /author -->, which are kept
// word for word whenever the profile is regenerated.
package profile

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/flowcabal/flowcabal/knowledge"
)

// Dir is where an entity kind's profiles go.
func Dir(kind string) string {
	switch kind {
	case "character":
		return "profiles/characters"
	case "plot-thread":
		return "profiles/plot-threads"
	default:
		return "profiles/world-state"
	}
}

// Path is the profile file of entity e, relative to the project root.
func Path(e *knowledge.Entity) string {
	return Dir(e.Kind) + "/" + path.Base(strings.TrimSuffix(e.Path, ".md")) + ".md"
}

// appearances counts, per chapter, how often any of e's names occurs.
func appearances(p *knowledge.Project, e *knowledge.Entity) map[int]int {
	out := map[int]int{}
	for _, ch := range p.Chapters {
		if n := mentions(e, ch.Document.Body); n > 0 {
			out[ch.Number] = n
		}
	}
	return out
}

// Factual returns the generated part of e's profile.
func Factual(p *knowledge.Project, e *knowledge.Entity) string {
	seen := appearances(p, e)
	var chapters []int
	for ch := range seen {
		chapters = append(chapters, ch)
	}
	sort.Ints(chapters)
	var b strings.Builder
	fmt.Fprintf(&b, "# %s — profile\n\n", e.Name)
	latest := 0
	if len(p.Chapters) > 0 {
		latest = p.Chapters[len(p.Chapters)-1].Number
	}
	if len(chapters) == 0 {
		b.WriteString("Not named in the manuscript yet.\n")
	} else {
		fmt.Fprintf(&b, "Appears in %d chapter(s): %s. Last seen in chapter %d.\n", len(chapters), spans(chapters), chapters[len(chapters)-1])
		type co struct {
			name string
			n    int
		}
		var with []co
		for _, o := range p.Entities {
			if o == e || o.Kind != "character" {
				continue
			}
			shared := 0
			for ch := range appearances(p, o) {
				if seen[ch] > 0 {
					shared++
				}
			}
			if shared > 0 {
				with = append(with, co{o.Name, shared})
			}
		}
		sort.Slice(with, func(i, j int) bool {
			if with[i].n != with[j].n {
				return with[i].n > with[j].n
			}
			return with[i].name < with[j].name
		})
		if len(with) > 0 {
			b.WriteString("Appears most with: ")
			for i, w := range with {
				if i == 6 {
					break
				}
				if i > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "%s (%d)", w.name, w.n)
			}
			b.WriteString(".\n")
		}
	}
	if facts := e.FactsAsOf(latest); len(facts) > 0 {
		keys := make([]string, 0, len(facts))
		for k := range facts {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fmt.Fprintf(&b, "\nFacts as of chapter %d:\n", latest)
		for _, k := range keys {
			fmt.Fprintf(&b, "- %s: %s\n", k, facts[k])
		}
	}
	if len(e.Relations) > 0 {
		b.WriteString("\nRelations:\n")
		for _, r := range e.Relations {
			fmt.Fprintf(&b, "- %s: %s\n", r.Kind, r.To)
		}
	}
	return b.String()
}

// spans writes sorted chapter numbers as ranges: "1–3, 7, 9–10".
func spans(chs []int) string {
	var parts []string
	for i := 0; i < len(chs); {
		j := i
		for j+1 < len(chs) && chs[j+1] == chs[j]+1 {
			j++
		}
		if i == j {
			parts = append(parts, fmt.Sprint(chs[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d–%d", chs[i], chs[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ", ")
}

// Render is the whole profile file of entity e: front matter, the
// generated factual part, and what the existing file (old) holds that is
// not factual — the agent model's section and the author's own sections —
// kept as they are.
func Render(e *knowledge.Entity, generated string, old []byte) []byte {
	f := parseFile(Path(e), old)
	f.name = e.Name + " — profile"
	f.about = strings.TrimSuffix(e.Path, ".md")
	f.factual = generated
	return f.render()
}

// Regenerate rewrites the profiles of the entities named in text (a
// curated chapter; all entities when text is empty) and returns the files
// it changed, relative to root. Writing the same content again changes
// nothing, so a repeated regeneration is a no-op.
func Regenerate(root string, p *knowledge.Project, text string) ([]string, error) {
	var changed []string
	for _, e := range p.Entities {
		if text != "" && !namedIn(e, text) {
			continue
		}
		rel := Path(e)
		full := filepath.Join(root, filepath.FromSlash(rel))
		old, err := os.ReadFile(full)
		if err != nil && !os.IsNotExist(err) {
			return changed, fmt.Errorf("profile of %s: %w", e.Name, err)
		}
		wrote, err := writeIfChanged(full, old, Render(e, Factual(p, e), old))
		if err != nil {
			return changed, fmt.Errorf("profile of %s: %w", e.Name, err)
		}
		if wrote {
			changed = append(changed, rel)
		}
	}
	return changed, nil
}

// mentions counts the occurrences of e's names in text (a longer name is
// not counted again as a shorter one it contains).
func mentions(e *knowledge.Entity, text string) int {
	names := e.Names()
	sort.Slice(names, func(i, j int) bool { return len(names[i]) > len(names[j]) })
	n := 0
	for _, name := range names {
		if len([]rune(name)) < 2 {
			continue
		}
		n += strings.Count(text, name)
		text = strings.ReplaceAll(text, name, "")
	}
	return n
}

func namedIn(e *knowledge.Entity, text string) bool {
	for _, n := range e.Names() {
		if len([]rune(n)) >= 2 && strings.Contains(text, n) {
			return true
		}
	}
	return false
}
