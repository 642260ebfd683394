package profile

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/core"
	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/store"
)

// Angles returns the folders of profiles/ the agent model writes, one
// profile per file. The first three are those [Dir] gives entity kinds,
// so the model's reading of an entity lands in the same file as its
// factual profile; themes and style are profiles of the whole work.
func Angles() []string {
	return []string{"characters", "plot-threads", "world-state", "themes", "style"}
}

// Bounds on what goes to the model and what is taken back from it: the
// model's answer is untrusted input.
const (
	maxChapterRunes  = 24000 // the curated text shown to the model
	maxReadingRunes  = 2000  // each current reading shown to the model
	maxReadingsRunes = 24000 // all of them together
	maxEntityRunes   = 400   // each entity's description shown
	maxListed        = 40    // profiles listed as possibly affected
	maxProposals     = 16    // profiles one answer may rewrite
	maxBodyRunes     = 6000  // one profile's new reading
	maxTitleRunes    = 120
	maxNameRunes     = 80 // the file name of a new profile, without .md
)

// How the pass appears in the agent core and the store.
const (
	// passVersion enters the text's hash: a new prompt or schema asks
	// the model again.
	passVersion     = "flowcabal profiles v1"
	passRole        = "A" // the agent core's lane: one pass at a time
	passAgentName   = "profiles"
	passSchemaName  = "profile_updates"
	passAnswerSteps = 2 // one answer and one repair round
	// The model's run is "profiles-<hash>"; its answer is kept as the
	// checkpoint "profiles-<hash>-answer" of the workflow "profiles".
	passRunIDPrefix = "profiles-"
	cacheIDSuffix   = "-answer"
	cacheWorkflow   = "profiles"
)

// Agents runs agent tasks: the agent core's Manager.
type Agents interface {
	Run(ctx context.Context, task core.Task) (*core.Result, error)
	// Get returns the run called id while it is active, else nil.
	Get(id string) *core.Run
}

// Cache keeps the model's answer for a chapter text, so that a pass run
// again (a task retried after a crash) applies the answer it already has
// instead of asking the model again. The store's checkpoints serve.
type Cache interface {
	Checkpoint(runID string) (store.Checkpoint, error)
	SaveCheckpoint(ctx context.Context, cp store.Checkpoint) (store.Checkpoint, error)
}

// Pass is one multi-angle regeneration after a curation: the agent model
// reads the curated text with the profiles it may affect, and answers
// with the profiles to rewrite.
type Pass struct {
	// Root is the project root; Project its knowledge.
	Root    string
	Project *knowledge.Project
	// File is the curated file relative to Root ("manuscript/chapter-11/
	// content.md"), Text what it holds.
	File string
	Text string
	// Agents runs the model; Cache (optional) keeps its answers.
	Agents Agents
	Cache  Cache
	Log    *slog.Logger
}

// Outcome is what a pass did.
type Outcome struct {
	// Changed are the profile files written, relative to the root.
	Changed []string
	// Cached says the answer came from the cache: no model call.
	Cached bool
	// Refused are the proposals that were not applied, each with why.
	Refused []string
}

// ModelError is a pass that got no usable answer from the model. The
// factual profiles are unaffected.
type ModelError struct {
	Err error
	// Transient says trying again later may succeed (the endpoint was
	// down or overloaded); a malformed or refused answer is not.
	Transient bool
}

func (e *ModelError) Error() string {
	return "profiles: the agent model gave no answer: " + e.Err.Error()
}

// Unwrap returns the model's error.
func (e *ModelError) Unwrap() error { return e.Err }

// SourceHash identifies a curated text for the pass: the same file with
// the same text gives the same hash, and so the same cached answer.
func SourceHash(file, text string) string {
	h := sha256.New()
	h.Write([]byte(passVersion))
	h.Write([]byte{0})
	h.Write([]byte(file))
	h.Write([]byte{0})
	h.Write([]byte(text))
	return hex.EncodeToString(h.Sum(nil))
}

// answer is the model's answer, as the schema below describes it.
type answer struct {
	Profiles []proposal `json:"profiles"`
}

type proposal struct {
	Path  string `json:"path"`
	Title string `json:"title"`
	Body  string `json:"body"`
}

// answerSchema is the JSON schema of the model's answer.
func answerSchema() map[string]any {
	str := func(max int, desc string) map[string]any {
		return map[string]any{"type": "string", "maxLength": max, "description": desc}
	}
	return map[string]any{
		"type":                 "object",
		"additionalProperties": false,
		"required":             []any{"profiles"},
		"properties": map[string]any{
			"profiles": map[string]any{
				"type":     "array",
				"maxItems": maxProposals,
				"items": map[string]any{
					"type":                 "object",
					"additionalProperties": false,
					"required":             []any{"path", "title", "body"},
					"properties": map[string]any{
						"path":  str(200, "profiles/<angle>/<name>.md: a listed profile, or a new one"),
						"title": str(maxTitleRunes*4, "the profile's title"),
						"body":  str(maxBodyRunes*4, "the whole new reading, Markdown, no front matter"),
					},
				},
			},
		},
	}
}

const instructions = `You keep the multi-angle profiles of a long work of fiction. A chapter has just been curated; decide which profiles it affects and rewrite each affected one in full.

Angles (folders under profiles/):
- characters: one file per character: who they are now, what this chapter changed, their relationships, how they speak.
- plot-threads: one file per thread: its state, the open questions, its latest development.
- world-state: places, institutions, objects and the state of the world as the story stands.
- themes: one file per theme: how the work develops it so far.
- style: the manuscript's voice: person, tense, diction, rhythm (usually one file, profiles/style/voice.md).

Rules:
- Answer only with JSON matching the schema: {"profiles": [{"path", "title", "body"}]}.
- path is a profile listed in the task, or a new file profiles/<angle>/<name>.md where name is lower-case words joined by hyphens (or the name in the manuscript's own script).
- Rewrite a listed profile's current reading into the new one, keeping what still holds; the body replaces it whole.
- Use only what the chapter and the current profiles say. Write in the language of the manuscript.
- No front matter, no HTML comments. At most 16 profiles; each body under 4000 characters.
- Leave out profiles the chapter does not affect. If none is affected, answer {"profiles": []}.`

// agent is the pass's agent: no tools, one structured answer.
func agent() *core.Agent {
	return &core.Agent{Name: passAgentName, Instructions: instructions, Schema: answerSchema(),
		SchemaName: passSchemaName, ResponseFormat: true}
}

// chapterOf returns the resource and chapter number of the curated file.
func chapterOf(file string) (string, int) {
	res := project.ResourcePath(file)
	n, _ := knowledge.ChapterNumber(res)
	return res, n
}

// Run does the pass: the cached answer for this text if there is one,
// else the model's; then it rewrites the proposed profiles that are safe
// to write. Each profile keeps its factual part and the author's
// sections; a profile written from a later chapter is left alone.
func (ps Pass) Run(ctx context.Context) (Outcome, error) {
	var out Outcome
	log := ps.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	hash := SourceHash(ps.File, ps.Text)
	cacheID := passRunIDPrefix + hash[:32] + cacheIDSuffix
	ans, ok := ps.cached(cacheID, hash)
	out.Cached = ok
	if !ok {
		if ps.Agents == nil {
			return out, errors.New("profiles: no agent model")
		}
		runID := passRunIDPrefix + hash[:32]
		res, err := ps.Agents.Run(ctx, core.Task{Role: passRole, Agent: agent(), Input: ps.input(),
			ID: runID, Node: ps.File, Budget: core.Budget{Steps: passAnswerSteps}})
		switch {
		case err == nil:
			if err := json.Unmarshal(res.Answer, &ans); err != nil {
				return out, &ModelError{Err: fmt.Errorf("decode the answer: %w", err)}
			}
		case ctx.Err() != nil:
			return out, ctx.Err()
		default:
			// The same pass may have run meanwhile (the same text
			// curated twice): its answer is as good.
			if a, ok := ps.cached(cacheID, hash); ok {
				ans, out.Cached = a, true
				break
			}
			var lerr *llm.Error
			transient := errors.As(err, &lerr) && lerr.Retryable
			if ps.Agents.Get(runID) != nil {
				transient = true // that pass is still running: its answer will come
			}
			return out, &ModelError{Err: err, Transient: transient}
		}
		if ps.Cache != nil && !out.Cached {
			data, _ := json.Marshal(cacheEntry{Hash: hash, File: ps.File, Answer: res.Answer})
			if _, err := ps.Cache.SaveCheckpoint(ctx, store.Checkpoint{RunID: cacheID, Workflow: cacheWorkflow,
				Status: store.RunDone, Data: data}); err != nil {
				// The answer is applied all the same; only a re-run would
				// ask again.
				log.Warn("profiles: keep the model's answer", "file", ps.File, "err", err)
			}
		}
	}
	changed, refused, err := ps.apply(hash, ans)
	out.Changed, out.Refused = changed, refused
	for _, r := range refused {
		log.Warn("profiles: a proposal of the agent model was refused", "file", ps.File, "why", r)
	}
	return out, err
}

type cacheEntry struct {
	Hash   string          `json:"source_hash"`
	File   string          `json:"file"`
	Answer json.RawMessage `json:"answer"`
}

func (ps Pass) cached(id, hash string) (answer, bool) {
	var a answer
	if ps.Cache == nil {
		return a, false
	}
	cp, err := ps.Cache.Checkpoint(id)
	if err != nil || cp.Status != store.RunDone || cp.Workflow != cacheWorkflow {
		return a, false
	}
	var e cacheEntry
	if json.Unmarshal(cp.Data, &e) != nil || e.Hash != hash || json.Unmarshal(e.Answer, &a) != nil {
		return a, false
	}
	return a, true
}

// input is the task the model reads: the profiles the chapter may affect
// (the entities it names, the profiles of the whole work) and the text.
func (ps Pass) input() string {
	var b strings.Builder
	res, n := chapterOf(ps.File)
	if n > 0 {
		fmt.Fprintf(&b, "Curated: %s (chapter %d)\n\n", res, n)
	} else {
		fmt.Fprintf(&b, "Curated: %s\n\n", res)
	}
	b.WriteString("## Profiles this text may affect\n\n")
	listed := 0
	budget := maxReadingsRunes
	seen := map[string]bool{}
	if ps.Project != nil {
		// The entities the text names most come first.
		type named struct {
			e *knowledge.Entity
			n int
		}
		var ents []named
		for _, e := range ps.Project.Entities {
			if namedIn(e, ps.Text) {
				ents = append(ents, named{e, mentions(e, ps.Text)})
			}
		}
		sort.SliceStable(ents, func(i, j int) bool { return ents[i].n > ents[j].n })
		for _, en := range ents {
			if listed == maxListed {
				break
			}
			e := en.e
			rel := Path(e)
			seen[rel] = true
			listed++
			fmt.Fprintf(&b, "### %s — %s (%s", rel, oneLine(e.Name), e.Kind)
			if len(e.Aliases) > 0 {
				fmt.Fprintf(&b, "; also %s", oneLine(clip(strings.Join(e.Aliases, ", "), maxTitleRunes)))
			}
			b.WriteString(")\n")
			if d := ps.Project.Document(e.Resource); d != nil {
				if desc := clip(strings.TrimSpace(d.Body), maxEntityRunes); desc != "" {
					fmt.Fprintf(&b, "Entity: %s\n", oneLine(desc))
				}
			}
			b.WriteString(ps.currentReading(rel, &budget))
		}
		for _, d := range ps.Project.Documents {
			if listed == maxListed {
				break
			}
			if seen[d.Path] || !strings.HasPrefix(d.Path, "profiles/") {
				continue
			}
			if about, _ := d.Front["about"].(string); about != "" {
				continue // an entity's profile: listed when the text names it
			}
			listed++
			title, _ := d.Front["name"].(string)
			fmt.Fprintf(&b, "### %s — %s\n", d.Path, oneLine(clip(title, maxTitleRunes)))
			b.WriteString(ps.currentReading(d.Path, &budget))
		}
	}
	if listed == 0 {
		b.WriteString("(none yet: propose new ones)\n\n")
	}
	b.WriteString("## The text\n\n")
	b.WriteString(middleOut(ps.Text, maxChapterRunes))
	b.WriteString("\n")
	return b.String()
}

// currentReading shows the model's current reading of the profile rel,
// within what is left of the readings' budget.
func (ps Pass) currentReading(rel string, budget *int) string {
	data, err := os.ReadFile(filepath.Join(ps.Root, filepath.FromSlash(rel)))
	if err != nil {
		return "Current reading: (none yet)\n\n"
	}
	f := parseFile(rel, data)
	if f.reading == nil {
		return "Current reading: (none yet)\n\n"
	}
	if *budget <= 0 {
		return "Current reading: (not shown: too many profiles; rewrite it only if the text requires)\n\n"
	}
	body := clip(strings.TrimSpace(f.reading.Body), min(maxReadingRunes, *budget))
	*budget -= utf8.RuneCountInString(body)
	return "Current reading:\n" + body + "\n\n"
}

// apply writes the proposals of ans that are safe, and returns the files
// it changed and the proposals it refused (with why).
func (ps Pass) apply(hash string, ans answer) (changed, refused []string, err error) {
	res, chapter := chapterOf(ps.File)
	byPath := map[string]*knowledge.Entity{}
	if ps.Project != nil {
		for _, e := range ps.Project.Entities {
			byPath[Path(e)] = e
		}
	}
	done := map[string]bool{}
	for i, p := range ans.Profiles {
		if i == maxProposals {
			refused = append(refused, fmt.Sprintf("%d proposals past the first %d", len(ans.Profiles)-i, maxProposals))
			break
		}
		rel, perr := CleanPath(p.Path)
		if perr != nil {
			refused = append(refused, perr.Error())
			continue
		}
		if done[rel] {
			refused = append(refused, fmt.Sprintf("%s: proposed twice", rel))
			continue
		}
		done[rel] = true
		body := cleanBody(p.Body)
		if body == "" {
			refused = append(refused, fmt.Sprintf("%s: empty body", rel))
			continue
		}
		full, rerr := project.Resolve(ps.Root, rel)
		if rerr != nil {
			refused = append(refused, fmt.Sprintf("%s: %v", rel, rerr))
			continue
		}
		if fi, serr := os.Lstat(full); serr == nil && !fi.Mode().IsRegular() {
			refused = append(refused, fmt.Sprintf("%s: not a regular file", rel))
			continue
		}
		old, rerr := os.ReadFile(full)
		if rerr != nil && !os.IsNotExist(rerr) {
			return changed, refused, fmt.Errorf("profile %s: %w", rel, rerr)
		}
		f := parseFile(rel, old)
		if f.authorsOwn {
			refused = append(refused, fmt.Sprintf("%s: the author's own file (no generated: in its front matter)", rel))
			continue
		}
		if r := f.reading; r != nil && chapter > 0 && r.Chapter > chapter {
			refused = append(refused, fmt.Sprintf("%s: already written from chapter %d, later than %d", rel, r.Chapter, chapter))
			continue
		}
		if e := byPath[rel]; e != nil {
			f.name = e.Name + " — profile"
			f.about = strings.TrimSuffix(e.Path, ".md")
			f.factual = Factual(ps.Project, e)
		} else {
			f.factual = ""
			if t := cleanTitle(p.Title); t != "" {
				f.name = t
			} else if f.name == "" {
				f.name = strings.TrimSuffix(filepath.Base(rel), ".md")
			}
		}
		f.reading = &Reading{Body: body, Source: res, Chapter: chapter, Hash: hash}
		wrote, werr := writeIfChanged(full, old, f.render())
		if werr != nil {
			return changed, refused, fmt.Errorf("profile %s: %w", rel, werr)
		}
		if wrote {
			changed = append(changed, rel)
		}
	}
	sort.Strings(changed)
	return changed, refused, nil
}

// CleanPath checks a profile path the model proposed: it must be
// profiles/<angle>/<name>.md with angle one of [Angles] and a plain name
// (letters, digits, '-' and '_', not hidden). ".md" is added when
// missing. Anything else is refused with an error saying why.
func CleanPath(p string) (string, error) {
	p = strings.TrimSpace(p)
	if !utf8.ValidString(p) {
		return "", fmt.Errorf("proposed path %q: not UTF-8", p)
	}
	if !strings.HasSuffix(p, ".md") {
		p += ".md"
	}
	rel, err := project.CleanRel(p)
	if err != nil {
		return "", fmt.Errorf("proposed path %q: %w", p, err)
	}
	parts := strings.Split(rel, "/")
	if len(parts) != 3 || parts[0] != "profiles" || !isAngle(parts[1]) {
		return "", fmt.Errorf("proposed path %q: not profiles/<angle>/<name>.md with angle one of %s", p, strings.Join(Angles(), ", "))
	}
	name := strings.TrimSuffix(parts[2], ".md")
	if name == "" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "-") || utf8.RuneCountInString(name) > maxNameRunes {
		return "", fmt.Errorf("proposed path %q: the name must be 1 to %d letters, digits, '-' or '_'", p, maxNameRunes)
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '_' {
			return "", fmt.Errorf("proposed path %q: the name must be letters, digits, '-' or '_'", p)
		}
	}
	return rel, nil
}

func isAngle(s string) bool { return slices.Contains(Angles(), s) }

// cleanBody makes the model's text safe to place between the markers: no
// HTML comment delimiters (it could otherwise close its section or forge
// an author's), valid UTF-8, no control characters but newlines and
// tabs, bounded length.
func cleanBody(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || !unicode.IsControl(r) {
			return r
		}
		return -1
	}, s)
	for {
		t := strings.ReplaceAll(strings.ReplaceAll(s, "<!--", ""), "-->", "")
		if t == s {
			break
		}
		s = t
	}
	return strings.TrimSpace(clip(s, maxBodyRunes))
}

func cleanTitle(s string) string {
	s = strings.ToValidUTF8(s, "")
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
	return oneLine(clip(oneLine(s), maxTitleRunes))
}

// clip cuts s to at most n runes.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + " …"
}

// middleOut keeps the start and the end of a text longer than n runes,
// where a chapter's setting and its outcome are.
func middleOut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	half := n / 2
	return string(r[:half]) + fmt.Sprintf("\n\n[… %d characters left out …]\n\n", len(r)-2*half) + string(r[len(r)-half:])
}
