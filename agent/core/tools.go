package core

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/store"
)

// The read-only tools over a project's store. Each reads; none writes.

func obj(props map[string]any, required ...string) map[string]any {
	req := make([]any, len(required))
	for i, r := range required {
		req[i] = r
	}
	return map[string]any{"type": "object", "properties": props, "required": req, "additionalProperties": false}
}

func decode[T any](args json.RawMessage) (T, error) {
	var v T
	if err := json.Unmarshal(args, &v); err != nil {
		return v, fmt.Errorf("arguments: %w", err)
	}
	return v, nil
}

var levelEnum = map[string]any{"type": "string", "enum": []any{"L0", "L1", "L2"},
	"description": "L0 one sentence, L1 an overview, L2 the full text"}

// ProjectTools returns the read-only tools over st: search, resource,
// entity_facts, chapter and relations.
func ProjectTools(st *store.Store) []Tool {
	return []Tool{SearchTool(st), ResourceTool(st), EntityFactsTool(st), ChapterTool(st), RelationsTool(st)}
}

// SearchTool ranks the project's resources against a query (BM25 over
// CJK bigrams and stemmed words).
func SearchTool(st *store.Store) Tool {
	return Tool{
		Name:        "search",
		Description: "Search the project's knowledge (entities, chapters, meta, profiles, summaries) by words; returns resource paths, best first.",
		Parameters: obj(map[string]any{
			"query":       map[string]any{"type": "string", "minLength": 1},
			"k":           map[string]any{"type": "integer", "minimum": 1, "maximum": 20},
			"dir":         map[string]any{"type": "string", "enum": []any{"entities", "manuscript", "meta", "profiles", "summaries"}},
			"max_chapter": map[string]any{"type": "integer", "minimum": 1, "description": "leave out chapters after this one"},
		}, "query"),
		Run: func(ctx context.Context, args json.RawMessage) (string, error) {
			a, err := decode[struct {
				Query      string `json:"query"`
				K          int    `json:"k"`
				Dir        string `json:"dir"`
				MaxChapter int    `json:"max_chapter"`
			}](args)
			if err != nil {
				return "", err
			}
			if a.K == 0 {
				a.K = 8
			}
			hits, err := st.Search(ctx, store.SearchQuery{Text: a.Query, K: a.K, Dir: a.Dir, MaxChapter: a.MaxChapter})
			if err != nil {
				return "", err
			}
			type hit struct {
				Path  string  `json:"path"`
				Title string  `json:"title,omitempty"`
				Score float64 `json:"score"`
			}
			out := make([]hit, 0, len(hits))
			for _, h := range hits {
				x := hit{Path: h.Path, Score: float64(int(h.Score*1000)) / 1000}
				if r, err := st.Resource(h.Path); err == nil {
					x.Title = r.Title
				}
				out = append(out, x)
			}
			return JSONResult(map[string]any{"hits": out})
		},
	}
}

func levelNumber(l string) int {
	switch l {
	case "L0":
		return 0
	case "L1":
		return 1
	}
	return 2
}

// ResourceTool returns a resource at a level.
func ResourceTool(st *store.Store) Tool {
	return Tool{
		Name:        "resource",
		Description: "Read a project resource (e.g. meta/style-guide, entities/characters/lin) at a level.",
		Parameters:  obj(map[string]any{"path": map[string]any{"type": "string", "minLength": 1}, "level": levelEnum}, "path"),
		Run: func(ctx context.Context, args json.RawMessage) (string, error) {
			a, err := decode[struct{ Path, Level string }](args)
			if err != nil {
				return "", err
			}
			lt, err := st.Level(strings.TrimPrefix(a.Path, "@"), levelNumber(a.Level))
			if err != nil {
				return "", err
			}
			return levelResult(lt)
		},
	}
}

func levelResult(lt store.LevelText) (string, error) {
	lv := fmt.Sprintf("L%d", lt.Level)
	out := map[string]any{"path": lt.Path, "level": lv, "text": lt.Text}
	if lt.Extractive {
		out["extractive"] = true
	}
	if lt.Stale || lt.Pending {
		out["stale"] = lt.Stale
		out["pending"] = lt.Pending
	}
	return JSONResult(out)
}

// EntityFactsTool returns an entity's facts as of a chapter, progressions
// applied.
func EntityFactsTool(st *store.Store) Tool {
	return Tool{
		Name:        "entity_facts",
		Description: "An entity's facts as of a chapter (later progressions not applied): name, aliases, kind, facts, relations. The entity is its resource path or a name or alias.",
		Parameters: obj(map[string]any{
			"entity":  map[string]any{"type": "string", "minLength": 1},
			"chapter": map[string]any{"type": "integer", "minimum": 0, "description": "0: the base facts"},
		}, "entity"),
		Run: func(ctx context.Context, args json.RawMessage) (string, error) {
			a, err := decode[struct {
				Entity  string `json:"entity"`
				Chapter int    `json:"chapter"`
			}](args)
			if err != nil {
				return "", err
			}
			e, err := loadEntity(st, a.Entity)
			if err != nil {
				return "", err
			}
			facts := e.FactsAsOf(a.Chapter)
			if a.Chapter == 0 {
				facts = e.Facts
			}
			rels := make([]map[string]string, 0, len(e.Relations))
			for _, r := range e.Relations {
				rels = append(rels, map[string]string{"to": r.To, "kind": r.Kind})
			}
			return JSONResult(map[string]any{"entity": e.Resource, "name": e.Name, "aliases": e.Aliases,
				"kind": e.Kind, "chapter": a.Chapter, "facts": facts, "relations": rels})
		},
	}
}

// loadEntity finds an entity by resource path, or by name or alias.
func loadEntity(st *store.Store, ref string) (*knowledge.Entity, error) {
	ref = strings.TrimPrefix(strings.TrimSpace(ref), "@")
	r, err := st.Resource(ref)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			return nil, err
		}
		all, lerr := st.Resources(store.ResourceQuery{Dir: "entities"})
		if lerr != nil {
			return nil, lerr
		}
		found := false
		for _, c := range all {
			for _, n := range c.Names {
				if strings.EqualFold(n, ref) {
					r, found = c, true
				}
			}
			if found {
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("no entity %q: give a path under entities/ or a name", ref)
		}
	}
	if r.Dir != "entities" {
		return nil, fmt.Errorf("%s is not an entity", r.Path)
	}
	data, err := os.ReadFile(filepath.Join(st.Root(), filepath.FromSlash(r.File)))
	if err != nil {
		return nil, fmt.Errorf("read entity %s: %w", r.Path, err)
	}
	doc, err := knowledge.ParseDocument(r.File, data)
	if doc == nil {
		return nil, fmt.Errorf("entity %s: %w", r.Path, err)
	}
	e, err := knowledge.EntityFromDocument(doc)
	if e == nil {
		return nil, fmt.Errorf("entity %s: %w", r.Path, err)
	}
	return e, nil
}

// ChapterTool returns a manuscript chapter's text or summary.
func ChapterTool(st *store.Store) Tool {
	return Tool{
		Name:        "chapter",
		Description: "A manuscript chapter by number: its full text (L2), overview (L1) or one-sentence summary (L0).",
		Parameters: obj(map[string]any{
			"number": map[string]any{"type": "integer", "minimum": 1},
			"level":  levelEnum,
		}, "number"),
		Run: func(ctx context.Context, args json.RawMessage) (string, error) {
			a, err := decode[struct {
				Number int    `json:"number"`
				Level  string `json:"level"`
			}](args)
			if err != nil {
				return "", err
			}
			if a.Level == "" {
				a.Level = "L1"
			}
			r, err := st.Chapter(a.Number)
			if err != nil {
				return "", err
			}
			lt, err := st.Level(r.Path, levelNumber(a.Level))
			if err != nil {
				return "", err
			}
			return levelResult(lt)
		},
	}
}

// RelationsTool lists the typed links from and to a resource.
func RelationsTool(st *store.Store) Tool {
	return Tool{
		Name:        "relations",
		Description: "The typed relations from and to a resource (entity, chapter, thread).",
		Parameters:  obj(map[string]any{"path": map[string]any{"type": "string", "minLength": 1}}, "path"),
		Run: func(ctx context.Context, args json.RawMessage) (string, error) {
			a, err := decode[struct{ Path string }](args)
			if err != nil {
				return "", err
			}
			p := strings.TrimPrefix(a.Path, "@")
			from, err := st.Relations(p)
			if err != nil {
				return "", err
			}
			to, err := st.RelationsTo(p)
			if err != nil {
				return "", err
			}
			if from == nil {
				from = []store.Relation{}
			}
			if to == nil {
				to = []store.Relation{}
			}
			return JSONResult(map[string]any{"path": p, "from": from, "to": to})
		},
	}
}

// StaticTool returns a tool without arguments that answers with the text
// get returns: the workflow's JSON model, for one.
func StaticTool(name, description string, get func(ctx context.Context) (string, error)) Tool {
	return Tool{Name: name, Description: description,
		Parameters: map[string]any{"type": "object", "properties": map[string]any{}, "additionalProperties": false},
		Run:        func(ctx context.Context, _ json.RawMessage) (string, error) { return get(ctx) }}
}
