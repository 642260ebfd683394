// Package builder is Role B: it turns an author's intent into edits of a
// .flow workflow. The agent model answers with JSON Patch operations over
// the workflow's JSON model (see patch.go for the format, local ids
// included); the builder applies them to a copy, names and places the new
// nodes, checks the result with the language's own rules and offers it as
// minimal text edits with a diff preview. Nothing is applied without the
// author: Accept hands the edits over, Reject records why not.
//
// Snippets and CodeActions need no model: whole-node completions that fit
// the neighbouring nodes, and ready-made intents for code actions.
package builder

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/flowcabal/flowcabal/agent/core"
	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// Role is the agent role the builder's runs and log entries belong to.
const Role = "B"

// Options configure a Builder.
type Options struct {
	// Manager runs the builder's agent loop (role B); nil when no agent
	// model is configured.
	Manager *core.Manager
	// Store, when set, gives the agent its read-only project tools and a
	// compact project view, and keeps suggestions, acceptances and
	// rejections in the agent log.
	Store *store.Store
	// Library is the template knowledge base; nil means the embedded one.
	Library *Library
	// Templates is how many relevant templates the prompt shows; 0 means 5.
	Templates int
	// Budget bounds one builder run; zero fields take the Manager's.
	Budget core.Budget
}

// Builder makes suggestions and remembers the ones not yet decided.
type Builder struct {
	opts Options
	lib  *Library
	seq  atomic.Uint64

	mu          sync.Mutex
	suggestions map[string]*Suggestion
	rejections  map[string][]rejection // by URI, when there is no store
}

type rejection struct{ intent, summary, reason string }

// New returns a builder. Without a Manager only the model-free parts
// work: Apply, snippets, code actions.
func New(opts Options) (*Builder, error) {
	lib := opts.Library
	if lib == nil {
		var err error
		if lib, err = DefaultLibrary(); err != nil {
			return nil, err
		}
	}
	if opts.Templates <= 0 {
		opts.Templates = 5
	}
	return &Builder{opts: opts, lib: lib, suggestions: map[string]*Suggestion{}, rejections: map[string][]rejection{}}, nil
}

// Library returns the builder's templates.
func (b *Builder) Library() *Library { return b.lib }

// Request asks for a suggestion: flowcabal.build's {uri, text, position}
// plus the intent.
type Request struct {
	// URI names the document (rejections are remembered per URI).
	URI string
	// Path is the file's path for parsing and checking, as the server
	// gives it to workflowlang.Check (relative to the project root).
	Path string
	// Text is the document's current text.
	Text string
	// Offset is the cursor's byte offset in Text, or -1: the node under
	// the cursor is the intent's focus.
	Offset int
	// Intent is what the author wants, in their words.
	Intent string
	// Env is the environment the server checks the file with.
	Env workflowlang.Env
}

// Suggestion is a checked proposal.
type Suggestion struct {
	ID     string `json:"id"`
	URI    string `json:"uri"`
	Intent string `json:"intent"`
	// Summary is the model's one-line account of the change.
	Summary string `json:"summary,omitempty"`
	// Operations is the patch as the model wrote it.
	Operations json.RawMessage `json:"operations"`
	// Names maps each localId to the name the builder gave the node.
	Names map[string]string `json:"names,omitempty"`
	// Added lists the new nodes' names in file order.
	Added []string `json:"added,omitempty"`
	// Edits turn Request.Text into NewText; spans are byte offsets of
	// Request.Text (the server converts them to LSP ranges).
	Edits   []workflowlang.TextEdit `json:"edits"`
	NewText string                  `json:"new_text"`
	// Preview is a unified diff of the change, for the author.
	Preview string `json:"preview"`
	RunID   string `json:"run_id,omitempty"`
	// Refines is the suggestion this one refines (Accept with a
	// modification).
	Refines string `json:"refines,omitempty"`

	req Request
	seq uint64
}

// answerSchema is what the agent must answer with.
var answerSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"summary": map[string]any{"type": "string", "description": "one line saying what the patch does"},
		"operations": map[string]any{
			"type":     "array",
			"minItems": 1,
			"items": map[string]any{
				"type": "object",
				"properties": map[string]any{
					"op":    map[string]any{"type": "string", "enum": []any{"add", "remove", "replace", "move", "copy", "test"}},
					"path":  map[string]any{"type": "string"},
					"from":  map[string]any{"type": "string"},
					"value": map[string]any{},
				},
				"required": []any{"op", "path"},
			},
		},
	},
	"required": []any{"operations"},
}

const instructions = `You are Role B of FlowCabal, the workflow builder. An author writing a long novel describes a change to a .flow workflow (a DAG of prompt nodes); you propose it as RFC 6902 JSON Patch operations over the workflow's JSON model. You never write the file: the author sees your patch as a diff and accepts or rejects it.

The patch format:
- The model is {"workflow": {...}, "uses": [...], "inputs": [...], "nodes": [{"name", "title", "attrs": {...}, "prompts": [{"role": "user"|"system", "blocks": [{"text": "..."} | {"ref": "node"}]}]}]}.
- Address a node by index (/nodes/2) or by name (/nodes/draft/attrs/temperature).
- Add a node with {"op": "add", "path": "/nodes/-", "value": {"localId": "n1", "template": "self-critique", "input": "draft"}}. Fields of a new node: localId (required: your temporary id), template (a template id: gives attrs and prompts), title, attrs, prompts ([{"role": "user", "text": "… {{draft}} …"}]) or the shortcuts "user" / "system" (prompt text), input (a node name, "$n1", or a list: fills the template's {{in}}).
- A later operation of the same batch refers to a new node as $<localId>: in paths (/nodes/$n1/attrs/temperature), in prompt text ({{$n1}}) and in input.
- Do not choose names or positions for new nodes: the builder names them and places them after their inputs.
- {{name}} in a prompt is the output of node name and makes an edge; {{@path}} or {{@path:L1}} is a project resource. References must not form a cycle. Never patch /edges.
- Node attributes: model (writer, agent), temperature (0-2), max_tokens, context (auto, off), budget, checks (continuity, character, timeline, world, names, facts, state, setup-payoff), retries (0-10), persist ("path"), refine (1-10), candidates (1-20), generations (1-10), select (auto, human). No others.
- Keep the change to what the intent asks; leave other nodes alone.
Answer with {"summary": "…", "operations": [...]}.`

// Suggest asks the agent for a patch realising req.Intent and returns it
// checked, as edits of req.Text. An invalid patch is sent back to the
// model once with the reason; if the second is invalid too, the error is
// a *PatchError naming the bad operation (or says the answer was not a
// JSON Patch at all).
func (b *Builder) Suggest(ctx context.Context, req Request) (*Suggestion, error) {
	return b.suggest(ctx, req, nil, "")
}

func (b *Builder) suggest(ctx context.Context, req Request, prev *Suggestion, modification string) (*Suggestion, error) {
	if strings.TrimSpace(req.Intent) == "" {
		return nil, errors.New("build: the intent is empty")
	}
	if b.opts.Manager == nil {
		return nil, errors.New("build: no agent model is configured (set [models.agent] in flowcabal.toml)")
	}
	res, err := parseRequest(&req)
	if err != nil {
		return nil, err
	}
	f := res.File
	model := workflowlang.ToModel(res)
	edges := model.Edges
	model.Edges = nil
	modelJSON, err := json.MarshalIndent(model, "", "  ")
	if err != nil {
		return nil, err
	}
	focus := ""
	if req.Offset >= 0 {
		for _, n := range f.Nodes {
			if n.Span.Contains(req.Offset) {
				focus = n.Name.Name
			}
		}
	}
	templates := b.lib.Search(req.Intent+" "+focus+" "+modification, b.opts.Templates)

	var in strings.Builder
	fmt.Fprintf(&in, "Intent: %s\n", req.Intent)
	if focus != "" {
		fmt.Fprintf(&in, "The cursor is in node %s.\n", focus)
	}
	if prev != nil {
		fmt.Fprintf(&in, "\nThe author looked at your previous suggestion and asks for this change to it: %s\nThe previous operations were:\n%s\nAnswer with a complete new patch over the original model below (not over the previous result).\n", modification, prev.Operations)
	}
	if rej := b.rejected(req.URI); len(rej) > 0 {
		in.WriteString("\nThe author rejected these earlier suggestions for this file; do not repeat them:\n")
		for _, r := range rej {
			fmt.Fprintf(&in, "- for %q (%s): %s\n", r.intent, r.summary, r.reason)
		}
	}
	fmt.Fprintf(&in, "\nThe workflow %s as its JSON model:\n%s\n", req.Path, modelJSON)
	if len(edges) > 0 {
		in.WriteString("Edges (from -> to): ")
		for i, e := range edges {
			if i > 0 {
				in.WriteString(", ")
			}
			in.WriteString(e.From + " -> " + e.To)
		}
		in.WriteString("\n")
	}
	in.WriteString("\nNode templates that may fit (use \"template\": id in a new node; the node_templates tool finds others):\n")
	for _, t := range templates {
		in.WriteString(templateLine(t))
	}
	if view := b.projectView(); view != "" {
		in.WriteString("\nThe project:\n" + view)
	}

	var last *applied
	var lastOps []Op
	var lastSummary string
	agent := &core.Agent{
		Name:         "builder",
		Instructions: instructions,
		Schema:       answerSchema,
		SchemaName:   "patch",
		Tools:        b.tools(string(modelJSON)),
		Validate: func(ans json.RawMessage) error {
			var a struct {
				Summary    string `json:"summary"`
				Operations []Op   `json:"operations"`
			}
			if err := json.Unmarshal(ans, &a); err != nil {
				return fmt.Errorf("not a JSON Patch answer: %v", err)
			}
			ap, err := applyPatch(b.lib, res, req.Env, a.Operations)
			if err != nil {
				return err
			}
			last, lastOps, lastSummary = ap, a.Operations, a.Summary
			return nil
		},
	}
	out, err := b.opts.Manager.Run(ctx, core.Task{Role: Role, Agent: agent, Input: in.String(), Budget: b.opts.Budget, Node: req.URI})
	if err != nil {
		var pe *PatchError
		var ae *core.AnswerError
		switch {
		case errors.As(err, &pe):
			err = fmt.Errorf("build: the model's patch was rejected twice; the last time: %w", pe)
		case errors.As(err, &ae):
			err = fmt.Errorf("build: the model did not answer with a JSON Patch: %w", ae.Err)
		default:
			err = fmt.Errorf("build: %w", err)
		}
		b.log(ctx, store.LogEntry{Status: "invalid-patch", Node: req.URI, Input: req.Intent, Error: err.Error()})
		return nil, err
	}
	if last == nil {
		return nil, errors.New("build: the agent answered without a checked patch")
	}
	s := b.finish(ctx, req, last, lastOps, lastSummary, out.RunID)
	if prev != nil {
		s.Refines = prev.ID
		s.Intent = prev.Intent + " — " + modification
	}
	b.record(ctx, s)
	return s, nil
}

// parseRequest parses and checks the request's text; a file with syntax
// errors cannot be edited reliably and is refused.
func parseRequest(req *Request) (*workflowlang.Result, error) {
	if req.Path == "" {
		req.Path = req.URI
	}
	f := workflowlang.Parse(req.Path, []byte(req.Text))
	for _, d := range f.Diagnostics {
		if d.Severity == workflowlang.SeverityError {
			return nil, fmt.Errorf("build: fix the syntax errors of %s first (%s)", req.Path, d.Message)
		}
	}
	return workflowlang.Check(f, req.Env), nil
}

// finish makes the suggestion of a checked patch.
func (b *Builder) finish(ctx context.Context, req Request, a *applied, ops []Op, summary, runID string) *Suggestion {
	data, _ := json.Marshal(ops)
	seq := b.seq.Add(1)
	return &Suggestion{
		seq:        seq,
		ID:         fmt.Sprintf("build-%d-%d", time.Now().UnixNano(), seq),
		URI:        req.URI,
		Intent:     req.Intent,
		Summary:    summary,
		Operations: data,
		Names:      a.names,
		Added:      a.added,
		Edits:      a.edits,
		NewText:    string(a.newText),
		Preview:    preview(req.Path, []byte(req.Text), a.edits),
		RunID:      runID,
		req:        req,
	}
}

// record keeps a suggestion pending and logs it.
func (b *Builder) record(ctx context.Context, s *Suggestion) {
	b.mu.Lock()
	b.suggestions[s.ID] = s
	b.mu.Unlock()
	b.log(ctx, store.LogEntry{Status: "suggested", RunID: s.RunID, Node: s.URI, Input: s.Intent,
		Output: s.ID + "\n" + s.Summary + "\n" + s.Preview})
}

// Apply makes a suggestion from a patch given by the caller rather than the
// model (a code action's ready-made patch): checked the same way, pending
// the same way, no model involved.
func (b *Builder) Apply(ctx context.Context, req Request, summary string, ops []Op) (*Suggestion, error) {
	res, err := parseRequest(&req)
	if err != nil {
		return nil, err
	}
	a, err := applyPatch(b.lib, res, req.Env, ops)
	if err != nil {
		b.log(ctx, store.LogEntry{Status: "invalid-patch", Node: req.URI, Input: req.Intent, Error: err.Error()})
		return nil, fmt.Errorf("build: %w", err)
	}
	s := b.finish(ctx, req, a, ops, summary, "")
	b.record(ctx, s)
	return s, nil
}

func templateLine(t *Template) string {
	var b strings.Builder
	fmt.Fprintf(&b, "- %s (%s): %s", t.ID, t.Title, t.Description)
	if len(t.Attrs) > 0 {
		data, _ := json.Marshal(t.Attrs)
		fmt.Fprintf(&b, " attrs %s.", data)
	}
	b.WriteString("\n")
	return b.String()
}

// tools are the builder agent's read-only tools.
func (b *Builder) tools(model string) []core.Tool {
	ts := []core.Tool{
		core.StaticTool("workflow_model", "The current workflow's JSON model (what the patch applies to).",
			func(context.Context) (string, error) { return model, nil }),
		{
			Name:        "node_templates",
			Description: "Find node templates relevant to a few words (any language): ids, descriptions, attrs and prompts.",
			Parameters: map[string]any{"type": "object", "properties": map[string]any{
				"query": map[string]any{"type": "string", "minLength": 1},
				"k":     map[string]any{"type": "integer", "minimum": 1, "maximum": 12},
			}, "required": []any{"query"}, "additionalProperties": false},
			Run: func(_ context.Context, args json.RawMessage) (string, error) {
				var a struct {
					Query string `json:"query"`
					K     int    `json:"k"`
				}
				if err := json.Unmarshal(args, &a); err != nil {
					return "", err
				}
				if a.K == 0 {
					a.K = 4
				}
				return core.JSONResult(map[string]any{"templates": b.lib.Search(a.Query, a.K)})
			},
		},
	}
	if b.opts.Store != nil {
		ts = append(ts, core.ProjectTools(b.opts.Store)...)
	}
	return ts
}

// projectView is a compact view of the project for the prompt: the
// entities by name, the chapters written, the meta files.
func (b *Builder) projectView() string {
	st := b.opts.Store
	if st == nil {
		return ""
	}
	var out strings.Builder
	if ents, err := st.Resources(store.ResourceQuery{Dir: "entities"}); err == nil && len(ents) > 0 {
		out.WriteString("entities: ")
		for i, r := range ents {
			if i == 40 {
				fmt.Fprintf(&out, "… (%d in all)", len(ents))
				break
			}
			if i > 0 {
				out.WriteString(", ")
			}
			out.WriteString(r.Title + " (@" + r.Path + ")")
		}
		out.WriteString("\n")
	}
	if chs, err := st.Resources(store.ResourceQuery{Dir: "manuscript", FromChapter: 1}); err == nil && len(chs) > 0 {
		fmt.Fprintf(&out, "chapters written: %d (%d to %d), e.g. @%s\n", len(chs), chs[0].Chapter, chs[len(chs)-1].Chapter, chs[len(chs)-1].Path)
	}
	if meta, err := st.Resources(store.ResourceQuery{Dir: "meta"}); err == nil && len(meta) > 0 {
		out.WriteString("meta: ")
		for i, r := range meta {
			if i > 0 {
				out.WriteString(", ")
			}
			out.WriteString("@" + r.Path)
		}
		out.WriteString("\n")
	}
	return out.String()
}

// AcceptRequest is flowcabal.buildAccept's argument.
type AcceptRequest struct {
	// ID names the suggestion; empty means the latest pending one of URI.
	ID  string
	URI string
	// Text is the document's current text; when given it must still be
	// the text the suggestion was made for.
	Text string
	// Modification, when set, refines the suggestion instead: a second
	// builder call whose new suggestion is returned for the author to
	// accept in turn.
	Modification string
}

// Accept takes a suggestion. Without a modification it returns the
// suggestion, whose Edits the server applies, and forgets it; with one it
// returns a new, refined suggestion.
func (b *Builder) Accept(ctx context.Context, ar AcceptRequest) (*Suggestion, error) {
	s := b.find(ar.ID, ar.URI)
	if s == nil {
		return nil, fmt.Errorf("build accept: no pending suggestion %s", describe(ar.ID, ar.URI))
	}
	if ar.Text != "" && ar.Text != s.req.Text {
		return nil, fmt.Errorf("build accept: %s changed since suggestion %s was made; ask for a new one", s.URI, s.ID)
	}
	if strings.TrimSpace(ar.Modification) != "" {
		b.log(ctx, store.LogEntry{Status: "refine", RunID: s.RunID, Node: s.URI, Input: ar.Modification, Output: s.ID})
		ns, err := b.suggest(ctx, s.req, s, strings.TrimSpace(ar.Modification))
		if err != nil {
			return nil, err
		}
		b.forget(s.ID)
		return ns, nil
	}
	b.forget(s.ID)
	b.log(ctx, store.LogEntry{Status: "accepted", RunID: s.RunID, Node: s.URI, Input: s.Intent, Output: s.ID + "\n" + s.Preview})
	return s, nil
}

// RejectRequest is flowcabal.buildReject's argument.
type RejectRequest struct {
	// ID names the suggestion; empty means the latest pending one of URI.
	ID     string
	URI    string
	Reason string
}

// Reject drops a suggestion and records why; the reason goes into the
// next suggestion's prompt for the same document.
func (b *Builder) Reject(ctx context.Context, rr RejectRequest) error {
	s := b.find(rr.ID, rr.URI)
	if s == nil {
		return fmt.Errorf("build reject: no pending suggestion %s", describe(rr.ID, rr.URI))
	}
	b.forget(s.ID)
	reason := strings.TrimSpace(rr.Reason)
	if reason == "" {
		reason = "(no reason given)"
	}
	b.mu.Lock()
	b.rejections[s.URI] = append(b.rejections[s.URI], rejection{intent: s.Intent, summary: s.Summary, reason: reason})
	b.mu.Unlock()
	b.log(ctx, store.LogEntry{Status: "rejected", RunID: s.RunID, Node: s.URI, Input: s.Intent + "\n" + s.Summary, Output: reason})
	return nil
}

// Pending returns the undecided suggestion id, or nil.
func (b *Builder) Pending(id string) *Suggestion {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.suggestions[id]
}

// Latest returns the most recent undecided suggestion for a document, or
// nil.
func (b *Builder) Latest(uri string) *Suggestion {
	b.mu.Lock()
	defer b.mu.Unlock()
	var best *Suggestion
	for _, s := range b.suggestions {
		if s.URI == uri && (best == nil || s.seq > best.seq) {
			best = s
		}
	}
	return best
}

func (b *Builder) find(id, uri string) *Suggestion {
	if id != "" {
		return b.Pending(id)
	}
	if uri != "" {
		return b.Latest(uri)
	}
	return nil
}

func describe(id, uri string) string {
	if id != "" {
		return fmt.Sprintf("%q", id)
	}
	return "for " + uri
}

func (b *Builder) forget(id string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.suggestions, id)
}

// rejected returns the last rejections for a document: from the agent log
// when there is a store (they survive a restart), else from memory.
func (b *Builder) rejected(uri string) []rejection {
	if st := b.opts.Store; st != nil {
		entries, err := st.Log(store.LogQuery{Role: Role, Status: "rejected", Node: uri, Limit: 3})
		if err == nil {
			var out []rejection
			for _, e := range entries {
				intent, summary, _ := strings.Cut(e.Input, "\n")
				out = append(out, rejection{intent: intent, summary: summary, reason: e.Output})
			}
			return out
		}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	r := b.rejections[uri]
	if len(r) > 3 {
		r = r[len(r)-3:]
	}
	return append([]rejection(nil), r...)
}

func (b *Builder) log(ctx context.Context, e store.LogEntry) {
	if b.opts.Store == nil {
		return
	}
	e.Role, e.Agent = Role, "builder"
	_, _ = b.opts.Store.AppendLog(context.WithoutCancel(ctx), e)
}

// RangeEdit is a TextEdit at line/column positions.
type RangeEdit struct {
	Start, End workflowlang.Position
	NewText    string
}

// Ranges returns the suggestion's edits at positions of the text it was
// made for, columns counted in enc (LSP's default is UTF-16), for a
// WorkspaceEdit.
func (s *Suggestion) Ranges(enc workflowlang.Encoding) []RangeEdit {
	m := workflowlang.NewMapper([]byte(s.req.Text))
	out := make([]RangeEdit, len(s.Edits))
	for i, e := range s.Edits {
		out[i] = RangeEdit{Start: m.Position(e.Span.Start, enc), End: m.Position(e.Span.End, enc), NewText: e.NewText}
	}
	return out
}

// Offset converts an editor position in text (columns in enc) to the byte
// offset Request.Offset wants, clamped into the text.
func Offset(text string, pos workflowlang.Position, enc workflowlang.Encoding) int {
	return workflowlang.NewMapper([]byte(text)).ClampOffset(pos, enc)
}
