package assemble

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm"
)

// The agent model may refine the deterministic intent analysis: it reads
// the prompt and names the entities, plot threads and locations it is
// about that names and aliases did not find ("the heir's mother", "the
// quarrel over the garden"). Like the vectors, its answer is an input of
// Assemble ([Options.Refinement]), fetched ahead by [Refiner.Refine] and
// cached by the hash of everything the model was asked, so the same
// prompt over the same knowledge always gets the same answer and
// assembly stays pure. The model may only add: an entity it names that
// the project does not declare is ignored, and nothing it says removes
// what the deterministic analysis found.

// Refinement is the agent model's reading of a node's prompt.
type Refinement struct {
	// Model is the model that read the prompt.
	Model string `json:"model"`
	// Entities are names of declared entities the prompt is about.
	Entities []string `json:"entities"`
	// Threads are plot threads, a few words each.
	Threads []string `json:"threads"`
	// Locations are places; a declared place counts as an entity.
	Locations []string `json:"locations"`
	// Unavailable says why there is no reading (the endpoint failed);
	// the assembly then uses the deterministic analysis alone and says so.
	Unavailable string `json:"-"`
}

// maxRefined bounds each list of a refinement: a prompt is about a few
// things, and a model that lists fifty has not chosen.
const maxRefined = 8

// refineWeight is the weight of a thread's or a location's words in the
// manuscript search (the author's own words weigh 1).
const refineWeight = expansionWeight

// refined is what an assembly takes from a refinement: the entities it
// resolved and the search terms of the rest.
type refined struct {
	entities []EntityRef
	terms    []string
}

// refinedOf resolves r against snap: names and aliases through the
// matcher (case and script folded), the rest as search terms. It returns
// the provenance note.
func refinedOf(r *Refinement, snap Snapshot) (*refined, string) {
	if r == nil {
		return nil, ""
	}
	if r.Unavailable != "" {
		return nil, "intent refinement unavailable: " + r.Unavailable + "; the prompt was read by names and aliases only"
	}
	byPath := map[string]*Entity{}
	for _, e := range snap.Entities() {
		byPath[e.Path] = e
	}
	out := &refined{}
	seen := map[string]bool{}
	an := snap.Analyzer()
	resolve := func(name string) bool {
		found := false
		if m := snap.Matcher(); m != nil {
			for _, men := range m.Find(name) {
				e := byPath[men.Key]
				if e == nil {
					continue
				}
				found = true
				if !seen[men.Key] {
					seen[men.Key] = true
					out.entities = append(out.entities, EntityRef{Path: men.Key, Name: e.Decl.Name, Found: name})
				}
			}
		}
		return found
	}
	var named []string
	for _, name := range limit(r.Entities) {
		if resolve(name) {
			named = append(named, name)
		}
	}
	var rest []string
	for _, l := range limit(r.Locations) {
		if !resolve(l) {
			rest = append(rest, l)
		}
	}
	rest = append(rest, limit(r.Threads)...)
	for _, t := range rest {
		for _, term := range an.Terms(t) {
			if !slices.Contains(out.terms, term) {
				out.terms = append(out.terms, term)
			}
		}
	}
	var said []string
	if len(out.entities) > 0 {
		names := make([]string, len(out.entities))
		for i, e := range out.entities {
			names[i] = e.Name
		}
		said = append(said, "named "+strings.Join(names, ", "))
	}
	if len(rest) > 0 {
		said = append(said, "searched for "+quoteAll(rest))
	}
	if len(said) == 0 {
		said = append(said, "nothing to add")
	}
	return out, fmt.Sprintf("intent refined by %s: %s", r.Model, strings.Join(said, "; "))
}

func limit(xs []string) []string {
	var out []string
	for _, x := range xs {
		x = strings.TrimSpace(x)
		if x == "" || len(x) > 200 || slices.Contains(out, x) {
			continue
		}
		out = append(out, x)
		if len(out) == maxRefined {
			break
		}
	}
	return out
}

func quoteAll(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}

// A Chatter asks a model: an *llm.Client of the project's agent
// configuration.
type Chatter interface {
	Chat(ctx context.Context, req llm.Request) (*llm.Response, error)
}

// An AnswerCache keeps a model's JSON answers by the hash of its input:
// the store (store.Store's CachedAnswer and PutCachedAnswer), or
// [MemAnswers].
type AnswerCache interface {
	CachedAnswer(ctx context.Context, key string) (json.RawMessage, bool, error)
	PutCachedAnswer(ctx context.Context, key string, answer json.RawMessage) error
}

// Refiner asks the agent model for a [Refinement].
type Refiner struct {
	// Model names the agent model; it is part of the cache key.
	Model string
	Chat  Chatter
	// Cache keeps the answers; nil asks every time (and the assembly is
	// then only as deterministic as the model).
	Cache AnswerCache
	// MaxEntities bounds the declared entities listed to the model
	// (default 300), in path order.
	MaxEntities int
	// Cooldown, when set, is how long a model that failed is left
	// alone: the nodes of a run then assemble without the reading at
	// once rather than each waiting out the client's retries.
	Cooldown time.Duration

	mu        sync.Mutex
	downErr   error
	downUntil time.Time
}

// refineVersion is part of the cache key: a change to the question
// below must not serve answers to the old one.
const refineVersion = "flowcabal-refine/1"

const refineSystem = `You help assemble the context for one step of writing a long work of fiction.
Read the author's prompt and say what of the story it is about that a search by names could miss:
- entities: the declared characters, places or things the prompt refers to, even by role,
  description or relation ("her closest friend", "the steward's son"), written exactly as
  their name appears in the list of declared entities; only names from that list;
- threads: plot threads or past events the prompt recalls, a few words each;
- locations: places the scene happens in or recalls.
Leave out what the prompt names outright; they are found already. Lists may be empty.`

var refineSchema = &llm.Schema{
	Name:        "intent_refinement",
	Description: "What a fiction prompt refers to beyond the names it uses",
	Strict:      true,
	Schema: map[string]any{
		"type":                 "object",
		"additionalProperties": false,
		"required":             []any{"entities", "threads", "locations"},
		"properties": map[string]any{
			"entities":  map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
			"threads":   map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
			"locations": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
		},
	},
}

// Refine returns the model's reading of node n's prompt over snap: from
// the cache when the same question was asked before, else from the
// model (then cached). It never fails: what went wrong is in the
// refinement's Unavailable, which the assembly's provenance states.
func (r *Refiner) Refine(ctx context.Context, n Node, snap Snapshot) *Refinement {
	return r.answer(ctx, n, snap, true)
}

// Cached is Refine without asking the model: the cached reading, or one
// whose Unavailable says the model has not read this prompt yet. A live
// preview (the editor's hover) uses it, to stay fast and make no calls.
func (r *Refiner) Cached(ctx context.Context, n Node, snap Snapshot) *Refinement {
	return r.answer(ctx, n, snap, false)
}

func (r *Refiner) answer(ctx context.Context, n Node, snap Snapshot, call bool) *Refinement {
	ref, err := r.refine(ctx, n, snap, call)
	if err != nil {
		return &Refinement{Model: r.Model, Unavailable: err.Error()}
	}
	return ref
}

func (r *Refiner) refine(ctx context.Context, n Node, snap Snapshot, call bool) (*Refinement, error) {
	text := QueryText(n)
	if text == "" {
		return nil, errors.New("the prompt has no text of its own")
	}
	if r.Model == "" || (call && r.Chat == nil) {
		return nil, errors.New("no agent model is configured")
	}
	user := r.question(text, snap)
	key := TextHash(refineVersion + "\x00" + r.Model + "\x00" + refineSystem + "\x00" + user)
	if r.Cache != nil {
		raw, ok, err := r.Cache.CachedAnswer(ctx, key)
		if err != nil {
			return nil, fmt.Errorf("read the cached reading: %w", err)
		}
		if ok {
			return decodeRefinement(r.Model, raw)
		}
	}
	if !call {
		return nil, errors.New("the model has not read this prompt yet")
	}
	r.mu.Lock()
	down, until := r.downErr, r.downUntil
	r.mu.Unlock()
	if down != nil && time.Now().Before(until) {
		return nil, fmt.Errorf("%w (not asked again until %s)", down, until.Format(time.TimeOnly))
	}
	resp, err := r.Chat.Chat(ctx, llm.Request{
		Messages: []llm.Message{llm.System(refineSystem), llm.User(user)},
		Schema:   refineSchema,
		Role:     "role-a",
		Node:     n.ID,
	})
	if err != nil {
		err = fmt.Errorf("ask %s: %w", r.Model, err)
		if r.Cooldown > 0 && ctx.Err() == nil {
			r.mu.Lock()
			r.downErr, r.downUntil = err, time.Now().Add(r.Cooldown)
			r.mu.Unlock()
		}
		return nil, err
	}
	ref, err := decodeRefinement(r.Model, resp.JSON)
	if err != nil {
		return nil, err
	}
	if r.Cache != nil {
		// Cached as the model gave it, so that a later reader decodes
		// exactly what this one did.
		if err := r.Cache.PutCachedAnswer(ctx, key, resp.JSON); err != nil {
			return nil, fmt.Errorf("cache the reading: %w", err)
		}
	}
	return ref, nil
}

// question is the user message: the declared entities, what names and
// aliases found, and the prompt.
func (r *Refiner) question(text string, snap Snapshot) string {
	most := r.MaxEntities
	if most <= 0 {
		most = 300
	}
	var b strings.Builder
	b.WriteString("Declared entities (name, also-known-as, kind):\n")
	for i, e := range snap.Entities() {
		if i == most {
			break
		}
		b.WriteString("- " + e.Decl.Name)
		if len(e.Decl.Aliases) > 0 {
			b.WriteString(" (also " + strings.Join(e.Decl.Aliases, ", ") + ")")
		}
		if e.Decl.Kind != "" {
			b.WriteString(" — " + e.Decl.Kind)
		}
		b.WriteString("\n")
	}
	var found []string
	if m := snap.Matcher(); m != nil {
		for _, men := range m.Find(text) {
			if !slices.Contains(found, men.Name) {
				found = append(found, men.Name)
			}
		}
	}
	if len(found) > 0 {
		b.WriteString("\nNamed in the prompt already: " + strings.Join(found, ", ") + "\n")
	}
	b.WriteString("\nThe prompt:\n" + text + "\n")
	return b.String()
}

func decodeRefinement(model string, raw json.RawMessage) (*Refinement, error) {
	var ref Refinement
	if err := json.Unmarshal(raw, &ref); err != nil {
		return nil, fmt.Errorf("read %s's answer: %w", model, err)
	}
	ref.Model = model
	return &ref, nil
}

// MemAnswers is an [AnswerCache] in memory. Safe for concurrent use.
type MemAnswers struct {
	mu sync.Mutex
	a  map[string]json.RawMessage
}

// CachedAnswer implements [AnswerCache].
func (c *MemAnswers) CachedAnswer(ctx context.Context, key string) (json.RawMessage, bool, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.a[key]
	return a, ok, nil
}

// PutCachedAnswer implements [AnswerCache].
func (c *MemAnswers) PutCachedAnswer(ctx context.Context, key string, answer json.RawMessage) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.a == nil {
		c.a = map[string]json.RawMessage{}
	}
	c.a[key] = slices.Clone(answer)
	return nil
}

// refinedEntities are the entities the model's reading named, for
// collectEntities.
func (a *assembly) refinedEntities() []EntityRef {
	if a.refined == nil {
		return nil
	}
	return a.refined.entities
}

// addRefinedTerms weighs the names of the entities the model named and
// the words of its threads and unresolved locations into the manuscript
// search, and returns q with them.
func (a *assembly) addRefinedTerms(weights map[string]float64, q []string) []string {
	if a.refined == nil {
		return q
	}
	an := a.snap.Analyzer()
	var terms []string
	for _, r := range a.refined.entities {
		for _, e := range a.snap.Entities() {
			if e.Path == r.Path {
				terms = append(terms, nameTerms(an, e.Decl)...)
			}
		}
	}
	terms = append(terms, a.refined.terms...)
	for _, t := range terms {
		if weights[t] < refineWeight {
			weights[t] = refineWeight
		}
		q = append(q, t)
	}
	return q
}
