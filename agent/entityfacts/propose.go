package entityfacts

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/textsearch"
)

// A Chatter asks a model: an *llm.Client of the project's agent
// configuration.
type Chatter interface {
	Chat(ctx context.Context, req llm.Request) (*llm.Response, error)
}

// An AnswerCache keeps a model's JSON answers by the hash of the
// question: the project's store (store.Store's CachedAnswer and
// PutCachedAnswer).
type AnswerCache interface {
	CachedAnswer(ctx context.Context, key string) (json.RawMessage, bool, error)
	PutCachedAnswer(ctx context.Context, key string, answer json.RawMessage) error
}

// The kinds of proposal.
const (
	KindFact        = "fact"
	KindProgression = "progression"
)

// The statuses of a checked proposal against the entity file.
const (
	StatusNew      = "new"      // the file does not say it: --write adds it
	StatusSame     = "same"     // the file says it already
	StatusConflict = "conflict" // the file (or an earlier proposal) says otherwise: never written
)

// Item is one proposal as the model gave it: a fact (true from the start)
// or a progression (true from Chapter on), with its evidence.
type Item struct {
	Key     string `json:"key"`
	Value   string `json:"value"`
	Chapter int    `json:"chapter"`
	Quote   string `json:"quote"`
}

// answer is the model's structured output.
type answer struct {
	Facts        []Item `json:"facts"`
	Progressions []Item `json:"progressions"`
}

// Proposal is one checked proposal.
type Proposal struct {
	Kind    string `json:"kind"`
	Key     string `json:"key"`
	Value   string `json:"value"`
	Chapter int    `json:"chapter"`
	// Quote is the evidence as the chapter has it (the model's quotation
	// found in the text); Line is its 1-based line in the chapter.
	Quote string `json:"quote"`
	Line  int    `json:"line"`
	// Status is StatusNew, StatusSame or StatusConflict; Existing is the
	// value the file (or an earlier proposal) has for a conflict.
	Status   string `json:"status"`
	Existing string `json:"existing,omitempty"`
}

// Rejection is a proposal dropped because its evidence did not hold.
type Rejection struct {
	Kind    string `json:"kind"`
	Key     string `json:"key"`
	Value   string `json:"value"`
	Chapter int    `json:"chapter"`
	Quote   string `json:"quote"`
	Reason  string `json:"reason"`
}

// Result is what was proposed for one entity.
type Result struct {
	Entity string `json:"entity"`
	Path   string `json:"path"`
	Model  string `json:"model"`
	// Cached says the answer came from the cache, without a call.
	Cached    bool        `json:"cached"`
	Passages  int         `json:"passages"`
	Chapters  int         `json:"chapters"`
	Mentions  int         `json:"mentions"`
	Proposals []Proposal  `json:"proposals"`
	Rejected  []Rejection `json:"rejected"`
}

// Proposer asks the agent model for facts and progressions. It is safe
// for concurrent use when its Chat and Cache are.
type Proposer struct {
	// Model names the agent model; it is part of the cache key.
	Model string
	Chat  Chatter
	// Cache keeps the answers; nil asks every time.
	Cache AnswerCache
	// Budget bounds the passages shown per entity (DefaultBudget when 0).
	Budget int
	// Folder folds traditional and simplified Chinese for the mention
	// search; nil makes one.
	Folder *textsearch.Folder
}

// promptVersion is part of the cache key: a change to the question must
// not serve answers to the old one.
const promptVersion = "flowcabal-entity-facts/1"

const system = `You help an author fill in the entity file of a character or place of their novel.
From the passages of the manuscript given, propose what the text states about the entity:
- facts: what holds from the entity's first appearance (age, home, family, occupation, rank,
  appearance, status such as unmarried);
- progressions: a fact that changes from a chapter on (a marriage, a move, a new title, a death),
  with the chapter where the change happens.
Each item has:
- key: a short lower-case English word or snake_case phrase (age, home, status, location, spouse,
  father, mother, occupation, title), the same key for a fact and its later changes;
- value: short, in the language of the book;
- chapter: the number of the chapter the evidence is in;
- quote: the evidence, copied exactly, character for character, from that chapter's passage:
  one sentence or phrase of at most 200 characters that states it. Do not shorten it with "..."
  and do not translate it.
Only what these passages state about this entity; nothing from your own knowledge of the book.
Lists may be empty.`

var schema = &llm.Schema{
	Name:        "entity_facts",
	Description: "Facts and progressions of a fiction entity, each with a verbatim quotation as evidence",
	Strict:      true,
	Schema: map[string]any{
		"type":                 "object",
		"additionalProperties": false,
		"required":             []any{"facts", "progressions"},
		"properties": map[string]any{
			"facts":        itemsSchema(),
			"progressions": itemsSchema(),
		},
	},
}

func itemsSchema() map[string]any {
	return map[string]any{
		"type": "array",
		"items": map[string]any{
			"type":                 "object",
			"additionalProperties": false,
			"required":             []any{"key", "value", "chapter", "quote"},
			"properties": map[string]any{
				"key":     map[string]any{"type": "string"},
				"value":   map[string]any{"type": "string"},
				"chapter": map[string]any{"type": "integer"},
				"quote":   map[string]any{"type": "string"},
			},
		},
	}
}

// ErrNoMentions is returned by Propose for an entity the manuscript never
// mentions: there is nothing to ask about.
var ErrNoMentions = errors.New("the manuscript does not mention it")

// Propose gathers the passages of book that mention e, asks the model (or
// the cache) what they state about it, and checks the answer against the
// chapters and the entity file.
func (p *Proposer) Propose(ctx context.Context, e *knowledge.Entity, book *Book) (*Result, error) {
	if p.Model == "" || p.Chat == nil {
		return nil, errors.New("no agent model is configured")
	}
	folder := p.Folder
	if folder == nil {
		folder = textsearch.NewFolder()
	}
	ev := Gather(e, book, folder, p.Budget)
	res := &Result{Entity: e.Name, Path: e.Path, Model: p.Model, Passages: len(ev.Passages), Chapters: ev.Chapters, Mentions: ev.Mentions,
		Proposals: []Proposal{}, Rejected: []Rejection{}}
	if len(ev.Passages) == 0 {
		return res, ErrNoMentions
	}
	user := question(e, ev)
	key := cacheKey(p.Model, user)
	var raw json.RawMessage
	if p.Cache != nil {
		r, ok, err := p.Cache.CachedAnswer(ctx, key)
		if err != nil {
			return nil, fmt.Errorf("read the cached answer for %s: %w", e.Name, err)
		}
		if ok {
			raw, res.Cached = r, true
		}
	}
	if raw == nil {
		resp, err := p.Chat.Chat(ctx, llm.Request{
			Messages: []llm.Message{llm.System(system), llm.User(user)},
			Schema:   schema,
			Role:     "entity-facts",
			Node:     e.Path,
		})
		if err != nil {
			return nil, fmt.Errorf("ask %s about %s: %w", p.Model, e.Name, err)
		}
		if resp.Refusal != "" {
			return nil, fmt.Errorf("%s declined to answer about %s: %s", p.Model, e.Name, resp.Refusal)
		}
		raw = resp.JSON
	}
	var a answer
	if err := json.Unmarshal(raw, &a); err != nil {
		return nil, fmt.Errorf("read %s's answer about %s: %w", p.Model, e.Name, err)
	}
	if p.Cache != nil && !res.Cached {
		// Cached as the model gave it, before the checks: they are
		// made again on every read, against the text as it is then.
		if err := p.Cache.PutCachedAnswer(ctx, key, raw); err != nil {
			return nil, fmt.Errorf("cache the answer for %s: %w", e.Name, err)
		}
	}
	check(res, e, a, book.chapters)
	return res, nil
}

// cacheKey hashes everything the answer depends on: the prompt's
// version, the model, the instructions and the question (which holds the
// passages' text).
func cacheKey(model, user string) string {
	h := sha256.Sum256([]byte(promptVersion + "\x00" + model + "\x00" + system + "\x00" + user))
	return "entity-facts:" + hex.EncodeToString(h[:])
}

// question is the user message: the entity and its passages. The
// entity's current facts are left out on purpose, so that accepting
// proposals (which changes them) does not invalidate the cached answer.
func question(e *knowledge.Entity, ev Evidence) string {
	var b strings.Builder
	kind := e.Kind
	if kind == "" {
		kind = "entity"
	}
	fmt.Fprintf(&b, "Entity: %s (%s)\n", e.Name, kind)
	if len(e.Aliases) > 0 {
		fmt.Fprintf(&b, "Also called: %s\n", strings.Join(e.Aliases, ", "))
	}
	b.WriteString("\nPassages of the manuscript that mention it, by chapter:\n")
	ev.render(&b)
	return b.String()
}

// check turns the model's items into proposals and rejections.
func check(res *Result, e *knowledge.Entity, a answer, chapters []Chapter) {
	byNum := make(map[int]string, len(chapters))
	for _, c := range chapters {
		byNum[c.Number] = c.Text
	}
	seen := map[string]bool{}
	proposed := map[string]string{} // kind/chapter/key -> value proposed before
	do := func(kind string, it Item) {
		key := normKey(it.Key)
		value := strings.TrimSpace(it.Value)
		rej := func(reason string) {
			res.Rejected = append(res.Rejected, Rejection{Kind: kind, Key: it.Key, Value: it.Value, Chapter: it.Chapter, Quote: it.Quote, Reason: reason})
		}
		text, ok := byNum[it.Chapter]
		switch {
		case key == "":
			rej("the key is not a name")
			return
		case value == "":
			rej("no value")
			return
		case !ok:
			rej(fmt.Sprintf("chapter %d is not in the manuscript", it.Chapter))
			return
		case substantive(it.Quote) < 4:
			rej("the quotation is too short to be evidence")
			return
		}
		start, end, found := findQuote(text, it.Quote)
		if !found {
			rej(fmt.Sprintf("the quotation is not in chapter %d", it.Chapter))
			return
		}
		id := fmt.Sprintf("%s\x00%d\x00%s\x00%s", kind, it.Chapter, key, fold(value))
		if seen[id] {
			return
		}
		seen[id] = true
		pr := Proposal{Kind: kind, Key: key, Value: value, Chapter: it.Chapter, Quote: text[start:end],
			Line: 1 + strings.Count(text[:start], "\n"), Status: StatusNew}
		slot := kind + "\x00" + key
		if kind == KindProgression {
			slot = fmt.Sprintf("%s\x00%d\x00%s", kind, it.Chapter, key)
		}
		if prev, ok := proposed[slot]; ok {
			pr.Status, pr.Existing = StatusConflict, "proposed above: "+prev
		} else {
			pr.Status, pr.Existing = compare(e, pr)
			if pr.Status == StatusNew {
				proposed[slot] = value
			}
		}
		res.Proposals = append(res.Proposals, pr)
	}
	for _, it := range a.Facts {
		do(KindFact, it)
	}
	for _, it := range a.Progressions {
		do(KindProgression, it)
	}
}

// compare says how a proposal stands against the entity file.
func compare(e *knowledge.Entity, p Proposal) (status, existing string) {
	if p.Kind == KindFact {
		v, ok := e.Facts[p.Key]
		switch {
		case !ok:
			return StatusNew, ""
		case fold(v) == fold(p.Value):
			return StatusSame, ""
		default:
			return StatusConflict, v
		}
	}
	for _, pr := range e.Progressions {
		if pr.Chapter != p.Chapter {
			continue
		}
		if v, ok := pr.Facts[p.Key]; ok {
			if fold(v) == fold(p.Value) {
				return StatusSame, ""
			}
			return StatusConflict, v
		}
	}
	if v, ok := e.FactsAsOf(p.Chapter)[p.Key]; ok && fold(v) == fold(p.Value) {
		return StatusSame, ""
	}
	return StatusNew, ""
}

// fold makes values comparable: case and runs of spaces ignored.
func fold(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

// normKey makes a front matter key of the model's: lower case, words
// joined by underscores; "" when it has no letters or digits.
func normKey(k string) string {
	var b strings.Builder
	under := false
	for _, r := range strings.ToLower(strings.TrimSpace(k)) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			if under && b.Len() > 0 {
				b.WriteByte('_')
			}
			under = false
			b.WriteRune(r)
			continue
		}
		under = true
	}
	return b.String()
}

// substantive counts the letters and digits of s.
func substantive(s string) int {
	n := 0
	for _, r := range s {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			n++
		}
	}
	return n
}

// findQuote finds q in text, runs of white space (line breaks of
// hard-wrapped text, full-width spaces) matching any run of white space,
// and returns its byte span in text. Quotation marks the model put around
// the whole quotation are tried without when the quotation is not found
// with them. Nothing else is forgiven: not an ellipsis, not a changed
// character.
func findQuote(text, q string) (start, end int, ok bool) {
	norm, off := squash(text)
	for _, cand := range []string{q, trimMarks(q)} {
		nq, _ := squash(cand)
		nq = strings.TrimSpace(nq)
		if nq == "" {
			continue
		}
		i := strings.Index(norm, nq)
		if i < 0 {
			continue
		}
		return off[i], off[i+len(nq)-1] + 1, true
	}
	return 0, 0, false
}

// squash collapses each run of white space of s to one space; off maps
// each byte of the result to the byte of s it came from.
func squash(s string) (string, []int) {
	var b strings.Builder
	off := make([]int, 0, len(s))
	space := false
	for i, r := range s {
		if unicode.IsSpace(r) {
			if !space {
				b.WriteByte(' ')
				off = append(off, i)
			}
			space = true
			continue
		}
		space = false
		n := b.Len()
		b.WriteRune(r)
		for j := n; j < b.Len(); j++ {
			off = append(off, i+(j-n))
		}
	}
	return b.String(), off
}

// trimMarks takes off quotation marks around the whole of q.
func trimMarks(q string) string {
	q = strings.TrimSpace(q)
	for _, pair := range [][2]string{{`"`, `"`}, {"“", "”"}, {"'", "'"}, {"‘", "’"}, {"「", "」"}, {"『", "』"}} {
		if strings.HasPrefix(q, pair[0]) && strings.HasSuffix(q, pair[1]) && len(q) > len(pair[0])+len(pair[1]) {
			return strings.TrimSpace(q[len(pair[0]) : len(q)-len(pair[1])])
		}
	}
	return q
}
