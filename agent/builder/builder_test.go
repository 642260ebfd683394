package builder

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/agent/core"
	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/workflowlang"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/builder")

const fixture = "../../testdata/builder/chapter.flow"

func readFixture(t testing.TB) string {
	t.Helper()
	data, err := os.ReadFile(fixture)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

type env struct {
	srv *llmtest.Server
	st  *store.Store
	b   *Builder
}

func newEnv(t *testing.T, script llmtest.Script) *env {
	t.Helper()
	dir := t.TempDir()
	for name, body := range map[string]string{
		"flowcabal.toml":                   "",
		"meta/style-guide.md":              "# Style\n\nSpare, ironic.\n",
		"entities/characters/lin.md":       "---\nname: 林黛玉\naliases: [黛玉]\nkind: character\nfacts: { home: 潇湘馆 }\n---\n",
		"manuscript/chapter-11/content.md": "第十一回 正文。\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := store.Open(context.Background(), dir, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.New(t, script)
	client, err := llm.New(llm.Config{Name: "agent", BaseURL: srv.URL, Model: "agent-model"},
		llm.Options{Retry: llm.RetryPolicy{MaxRetries: -1}, Getenv: func(string) string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	m, err := core.NewManager(core.Options{Client: client, Store: st})
	if err != nil {
		t.Fatal(err)
	}
	b, err := New(Options{Manager: m, Store: st})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		m.Close()
		st.Close()
	})
	return &env{srv: srv, st: st, b: b}
}

func patchReply(summary, ops string) llmtest.Reply {
	return llmtest.Reply{Content: `{"summary": ` + mustJSON(summary) + `, "operations": ` + ops + `}`}
}

func mustJSON(s string) string {
	data, _ := json.Marshal(s)
	return string(data)
}

func request(text, intent string) Request {
	return Request{URI: "file:///p/workflows/chapter.flow", Path: "workflows/chapter.flow", Text: text, Offset: -1, Intent: intent}
}

func golden(t *testing.T, name string, got string) {
	t.Helper()
	path := filepath.Join("..", "..", "testdata", "builder", name+".golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if string(want) != got {
		t.Errorf("%s differs from the golden file:\n--- want\n%s\n--- got\n%s", name, want, got)
	}
}

// checkMinimal asserts what an accepted suggestion must keep: every
// comment, every node it did not touch byte for byte, a file that checks
// without errors, and edits that are a fixed point (applying the result's
// own model again changes nothing).
func checkMinimal(t *testing.T, src string, s *Suggestion, dropped []string, touched ...string) {
	t.Helper()
	if got := string(workflowlang.ApplyEdits([]byte(src), s.Edits)); got != s.NewText {
		t.Fatalf("edits do not produce NewText")
	}
	f := workflowlang.Parse("chapter.flow", []byte(src))
	for _, c := range f.Comments {
		if !strings.Contains(s.NewText, c.Text) && !containsStr(dropped, c.Text) {
			t.Errorf("comment lost: %q", c.Text)
		}
	}
	for _, n := range f.Nodes {
		if containsStr(touched, n.Name.Name) {
			continue
		}
		for _, e := range s.Edits {
			if e.Span.Start < n.Span.End && n.Span.Start < e.Span.End {
				t.Errorf("node %s was not to be touched, edit %+v overlaps it", n.Name.Name, e)
			}
		}
		if !strings.Contains(s.NewText, src[n.Span.Start:n.Span.End]) {
			t.Errorf("node %s not kept byte for byte", n.Name.Name)
		}
	}
	for _, n := range f.Nodes {
		for _, r := range n.Refs() {
			if r.LevelSpan.Len() > 0 && !strings.Contains(s.NewText, "{{"+r.Target()+"}}") {
				t.Errorf("node %s: the level of {{%s}} was lost", n.Name.Name, r.Target())
			}
		}
	}
	nf := workflowlang.Parse("chapter.flow", []byte(s.NewText))
	res := workflowlang.Check(nf, workflowlang.Env{})
	for _, d := range res.Diagnostics {
		if d.Severity == workflowlang.SeverityError {
			t.Errorf("the result has an error: %s %s", d.Code, d.Message)
		}
	}
	again, err := workflowlang.Edits(nf, workflowlang.ToModel(res))
	if err != nil || len(again) != 0 {
		t.Errorf("not a fixed point: %v %+v", err, again)
	}
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestSuggestValidBatches(t *testing.T) {
	src := readFixture(t)
	tests := []struct {
		name    string
		intent  string
		ops     string
		touched []string
		names   map[string]string
		dropped []string // comments that go with a removed node
	}{
		{
			name:   "critique-revise",
			intent: "add a self-critique pass after the draft and a revision that uses it",
			ops: `[
				{"op": "add", "path": "/nodes/-", "value": {"localId": "c1", "template": "self-critique", "input": "draft"}},
				{"op": "add", "path": "/nodes/-", "value": {"localId": "r1", "template": "revise", "input": ["draft", "$c1"]}},
				{"op": "replace", "path": "/nodes/$c1/attrs/temperature", "value": 0.1},
				{"op": "add", "path": "/nodes/$r1/attrs/checks", "value": ["continuity"]}
			]`,
			names: map[string]string{"c1": "critique", "r1": "revise"},
		},
		{
			name:   "scenes-and-edit",
			intent: "分两场写，草稿引用两场",
			ops: `[
				{"op": "add", "path": "/nodes/0", "value": {"localId": "s1", "title": "场景 一", "user": "写第一场：{{outline}}"}},
				{"op": "add", "path": "/nodes/-", "value": {"localId": "s2", "title": "场景 二", "user": "写第二场，接着 {{ $s1 }}，语气见 {{@meta/style-guide:L1}}"}},
				{"op": "replace", "path": "/nodes/draft/prompts/1", "value": {"role": "user", "text": "Join the scenes:\n{{$s1}}\n{{$s2}}\n"}},
				{"op": "replace", "path": "/nodes/3/attrs/temperature", "value": 0.8}
			]`,
			touched: []string{"draft"},
			names:   map[string]string{"s1": "场景-一", "s2": "场景-二"},
		},
		{
			name:    "remove-premise",
			intent:  "drop the premise; the outline reads the previous chapter instead",
			ops:     `[{"op": "remove", "path": "/nodes/premise"}, {"op": "replace", "path": "/nodes/outline/prompts/0/blocks/1", "value": {"ref": "@manuscript/chapter-11:L1"}}]`,
			touched: []string{"premise", "outline"},
			dropped: []string{"# Where we are before the chapter."},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, llmtest.Script{Replies: []llmtest.Reply{patchReply(tt.intent, tt.ops)}})
			s, err := e.b.Suggest(context.Background(), request(src, tt.intent))
			if err != nil {
				t.Fatal(err)
			}
			for id, want := range tt.names {
				if s.Names[id] != want {
					t.Errorf("localId %s named %q, want %q", id, s.Names[id], want)
				}
			}
			golden(t, tt.name, s.NewText)
			golden(t, tt.name+".preview", s.Preview)
			checkMinimal(t, src, s, tt.dropped, tt.touched...)
			if e.b.Pending(s.ID) == nil {
				t.Error("suggestion not pending")
			}
			log, _ := e.st.Log(store.LogQuery{Role: Role, Status: "suggested"})
			if len(log) != 1 || !strings.Contains(log[0].Output, s.ID) || log[0].Input != tt.intent {
				t.Errorf("suggestion not logged: %+v", log)
			}
		})
	}
}

func TestSuggestRejectsInvalidPatches(t *testing.T) {
	src := readFixture(t)
	tests := []struct {
		name  string
		reply llmtest.Reply
		want  string
	}{
		{"unknown localId in input",
			patchReply("x", `[{"op": "add", "path": "/nodes/-", "value": {"localId": "n1", "template": "revise", "input": ["draft", "$n2"]}}]`),
			"operations[0] (add /nodes/-): unknown localId $n2"},
		{"unknown localId in path",
			patchReply("x", `[{"op": "add", "path": "/nodes/-", "value": {"localId": "n1", "template": "summarise", "input": "draft"}}, {"op": "replace", "path": "/nodes/$n3/attrs/temperature", "value": 0.5}]`),
			"operations[1] (replace /nodes/$n3/attrs/temperature): unknown localId $n3"},
		{"unknown localId in text",
			patchReply("x", `[{"op": "replace", "path": "/nodes/draft/prompts/1", "value": {"role": "user", "text": "Use {{$later}}"}}, {"op": "add", "path": "/nodes/-", "value": {"localId": "later", "template": "premise"}}]`),
			"operations[0] (replace /nodes/draft/prompts/1): unknown localId $later"},
		{"cycle",
			patchReply("x", `[{"op": "add", "path": "/nodes/-", "value": {"localId": "c", "template": "self-critique", "input": "draft"}}, {"op": "replace", "path": "/nodes/outline/prompts/0", "value": {"role": "user", "text": "Outline again after {{$c}}"}}]`),
			"operations[1] (replace /nodes/outline/prompts/0): node outline: cycle"},
		{"unknown attribute",
			patchReply("x", `[{"op": "add", "path": "/nodes/-", "value": {"localId": "c", "template": "self-critique", "input": "draft", "attrs": {"colour": "red"}}}]`),
			"operations[0] (add /nodes/-): node critique: unknown-attr: unknown attribute colour"},
		{"bad attribute value",
			patchReply("x", `[{"op": "replace", "path": "/nodes/draft/attrs/temperature", "value": 7}]`),
			"operations[0] (replace /nodes/draft/attrs/temperature): node draft: attr-type"},
		{"unknown node",
			patchReply("x", `[{"op": "remove", "path": "/nodes/epilogue"}]`),
			`operations[0] (remove /nodes/epilogue): no node named "epilogue"`},
		{"edges",
			patchReply("x", `[{"op": "add", "path": "/edges/-", "value": {"from": "draft", "to": "premise"}}]`),
			"operations[0] (add /edges/-): edges are derived from the references"},
		{"unknown template",
			patchReply("x", `[{"op": "add", "path": "/nodes/-", "value": {"localId": "x", "template": "epilogue-writer"}}]`),
			`unknown template "epilogue-writer"`},
		{"misplaced value",
			patchReply("x", `[{"op": "add", "path": "/nodes/draft/colour", "value": "red"}]`),
			"operations[0] (add /nodes/draft/colour): the result is not a workflow model"},
		{"dangling reference after remove",
			patchReply("x", `[{"op": "remove", "path": "/nodes/outline"}]`),
			"unknown-ref"},
		{"no change",
			patchReply("x", `[{"op": "test", "path": "/nodes/0/name", "value": "premise"}]`),
			"invalid patch: the patch changes nothing in the file"},
		{"failed test op",
			patchReply("x", `[{"op": "test", "path": "/nodes/premise/attrs/model", "value": "writer"}, {"op": "remove", "path": "/nodes/premise"}]`),
			"operations[0] (test /nodes/premise/attrs/model): testing value"},
		{"not JSON Patch: prose",
			llmtest.Reply{Content: "Sure! I would add a critique node after the draft."},
			"did not answer with a JSON Patch: the answer is not JSON"},
		{"not JSON Patch: wrong shape",
			llmtest.Reply{Content: `{"operations": [{"op": "frobnicate", "path": "/nodes/0"}]}`},
			"did not answer with a JSON Patch: the answer does not match the schema"},
		{"not JSON Patch: a bare array",
			llmtest.Reply{Content: `[{"op": "add", "path": "/nodes/-"}]`},
			"did not answer with a JSON Patch"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := tt.reply
			r.Times = 2
			e := newEnv(t, llmtest.Script{Replies: []llmtest.Reply{r}})
			_, err := e.b.Suggest(context.Background(), request(src, "do it"))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("err = %v\nwant it to contain %q", err, tt.want)
			}
			reqs := e.srv.Requests()
			if len(reqs) != 2 {
				t.Fatalf("%d model calls, want 2 (one repair round)", len(reqs))
			}
			// The repair prompt must carry the reason: want's last clause.
			feedback := map[string]string{"not JSON Patch: a bare array": "got array, want object"}[tt.name]
			if feedback == "" {
				feedback = tt.want[strings.LastIndex(tt.want, ": ")+2:]
			}
			if fb := reqs[1].LastUser(); !strings.Contains(fb, "Your answer was rejected") || !strings.Contains(fb, feedback) {
				t.Errorf("the retry was not told why: %q", fb)
			}
			log, _ := e.st.Log(store.LogQuery{Role: Role, Status: "invalid-patch"})
			if len(log) != 1 || !strings.Contains(log[0].Error, tt.want) {
				t.Errorf("invalid patch not logged: %+v", log)
			}
		})
	}
}

func TestSuggestRetriesOnceWithTheError(t *testing.T) {
	src := readFixture(t)
	e := newEnv(t, llmtest.Script{Replies: []llmtest.Reply{
		patchReply("bad", `[{"op": "add", "path": "/nodes/-", "value": {"localId": "n1", "template": "revise", "input": "$n9"}}]`),
		{Match: &llmtest.Match{Contains: "unknown localId $n9"}, Content: `{"summary": "good", "operations": [{"op": "add", "path": "/nodes/-", "value": {"localId": "n1", "template": "continuity-check", "input": "draft"}}]}`},
	}})
	s, err := e.b.Suggest(context.Background(), request(src, "check continuity"))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Added) != 1 || s.Added[0] != "continuity" || !strings.Contains(s.NewText, "{{draft}}") {
		t.Errorf("added %v:\n%s", s.Added, s.NewText)
	}
}

func TestAcceptRejectRefine(t *testing.T) {
	src := readFixture(t)
	critique := `[{"op": "add", "path": "/nodes/-", "value": {"localId": "c", "template": "self-critique", "input": "draft"}}]`
	e := newEnv(t, llmtest.Script{Replies: []llmtest.Reply{
		{Match: &llmtest.Match{Contains: "asks for this change to it: use the agent model at temperature 0"},
			Content: `{"summary": "critique at 0", "operations": [{"op": "add", "path": "/nodes/-", "value": {"localId": "c", "template": "self-critique", "input": "draft", "attrs": {"temperature": 0}}}]}`},
		{Match: &llmtest.Match{Contains: "Intent: add a critique"}, Times: 3, Content: `{"summary": "critique the draft", "operations": ` + critique + `}`},
	}})
	ctx := context.Background()
	req := request(src, "add a critique")

	// Reject with a reason: recorded and fed into the next suggestion.
	s1, err := e.b.Suggest(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if e.b.Latest(req.URI) != s1 {
		t.Error("Latest does not find the pending suggestion")
	}
	if err := e.b.Reject(ctx, RejectRequest{URI: req.URI, Reason: "too cold, I want a warmer reviewer"}); err != nil {
		t.Fatal(err)
	}
	if err := e.b.Reject(ctx, RejectRequest{ID: s1.ID, Reason: "twice"}); err == nil {
		t.Error("rejected a decided suggestion")
	}
	if e.b.Latest(req.URI) != nil {
		t.Error("a rejected suggestion is still the latest")
	}
	s2, err := e.b.Suggest(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	reqs := e.srv.Requests()
	if last := reqs[len(reqs)-1].LastUser(); !strings.Contains(last, "too cold, I want a warmer reviewer") || !strings.Contains(last, "critique the draft") {
		t.Errorf("the rejection was not fed into the next suggestion:\n%s", last)
	}

	// Accept against a changed document: refused.
	if _, err := e.b.Accept(ctx, AcceptRequest{ID: s2.ID, Text: src + "\n# edited\n"}); err == nil || !strings.Contains(err.Error(), "changed since") {
		t.Errorf("accept on a changed text: %v", err)
	}
	// Accept with a modification: a second builder call, a new suggestion.
	s3, err := e.b.Accept(ctx, AcceptRequest{ID: s2.ID, Text: src, Modification: "use the agent model at temperature 0"})
	if err != nil {
		t.Fatal(err)
	}
	if s3.Refines != s2.ID || !strings.Contains(s3.NewText, "temperature = 0\n") || e.b.Pending(s2.ID) != nil {
		t.Errorf("refined suggestion %+v", s3)
	}
	reqs = e.srv.Requests()
	if last := reqs[len(reqs)-1].LastUser(); !strings.Contains(last, `"template":"self-critique"`) {
		t.Errorf("the refinement did not show the previous operations:\n%s", last)
	}
	// Plain accept: the edits to apply.
	got, err := e.b.Accept(ctx, AcceptRequest{ID: s3.ID, Text: src})
	if err != nil {
		t.Fatal(err)
	}
	if string(workflowlang.ApplyEdits([]byte(src), got.Edits)) != s3.NewText {
		t.Error("accepted edits do not give the suggested text")
	}
	if _, err := e.b.Accept(ctx, AcceptRequest{ID: s3.ID}); err == nil {
		t.Error("accepted twice")
	}
	log, _ := e.st.Log(store.LogQuery{Role: Role})
	var statuses []string
	for _, l := range log {
		if l.Agent == "builder" && l.Tool == "" && l.Model == "" && !strings.HasPrefix(l.Output, "run ") {
			statuses = append(statuses, l.Status)
		}
	}
	if strings.Join(statuses, ",") != "suggested,rejected,suggested,refine,suggested,accepted" {
		t.Errorf("builder log: %v", statuses)
	}
}

func TestSuggestRefusesBrokenSyntax(t *testing.T) {
	e := newEnv(t, llmtest.Script{})
	_, err := e.b.Suggest(context.Background(), request("node a {\n  user \"\"\"x\n", "anything"))
	if err == nil || !strings.Contains(err.Error(), "syntax") {
		t.Errorf("err = %v", err)
	}
	if e.srv.Count() != 0 {
		t.Error("the model was asked about a broken file")
	}
}

func TestSuggestToolsAndProjectView(t *testing.T) {
	src := readFixture(t)
	e := newEnv(t, llmtest.Script{Replies: []llmtest.Reply{
		{ToolCalls: []llmtest.ToolCall{{Name: "node_templates", Arguments: `{"query": "对话"}`}, {Name: "workflow_model", Arguments: `{}`}}},
		patchReply("dialogue", `[{"op": "add", "path": "/nodes/-", "value": {"localId": "d", "template": "dialogue-pass", "input": "draft"}}]`),
	}})
	req := request(src, "add a dialogue pass")
	req.Offset = strings.Index(src, "temperature = 0.9")
	s, err := e.b.Suggest(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	if s.Added[0] != "dialogue" {
		t.Errorf("added %v", s.Added)
	}
	reqs := e.srv.Requests()
	first := reqs[0].LastUser()
	for _, want := range []string{"The cursor is in node draft", "林黛玉 (@entities/characters/lin)", "chapters written: 1", "- dialogue-pass (Dialogue pass)", `"name": "outline"`, "premise -> outline"} {
		if !strings.Contains(first, want) {
			t.Errorf("the prompt lacks %q", want)
		}
	}
	var tools string
	for _, m := range reqs[1].Messages {
		if m.Role == "tool" {
			tools += m.Content
		}
	}
	if !strings.Contains(tools, `"id":"dialogue-pass"`) || !strings.Contains(tools, `"name": "draft"`) {
		t.Errorf("tool results: %s", tools)
	}
}

func TestLibrarySearch(t *testing.T) {
	lib, err := DefaultLibrary()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ query, want string }{
		{"add a self-critique pass after the draft", "self-critique"},
		{"对话", "dialogue-pass"},
		{"检查连续性", "continuity-check"},
		{"generate three alternatives and pick the best", "candidates"},
		{"前情提要", "premise"},
		{"split the chapter into scenes", "split-scenes"},
	}
	for _, tt := range tests {
		got := lib.Search(tt.query, 3)
		if len(got) == 0 || got[0].ID != tt.want {
			var ids []string
			for _, g := range got {
				ids = append(ids, g.ID)
			}
			t.Errorf("Search(%q) = %v, want %s first", tt.query, ids, tt.want)
		}
	}
	if _, err := ParseLibrary([]byte("- id: x\n  title: X\n")); err == nil {
		t.Error("a template without description was accepted")
	}
	if _, err := ParseLibrary([]byte("- id: x\n  title: X\n  description: d\n  user: u\n  follows: [nope]\n")); err == nil {
		t.Error("an unknown follows was accepted")
	}
	if _, err := ParseLibrary([]byte("{not yaml")); err == nil {
		t.Error("broken YAML was accepted")
	}
}

func TestSnippets(t *testing.T) {
	lib, err := DefaultLibrary()
	if err != nil {
		t.Fatal(err)
	}
	src := readFixture(t)
	res := workflowlang.Check(workflowlang.Parse("chapter.flow", []byte(src)), workflowlang.Env{})
	snips := lib.Snippets(res, len(src))
	byTemplate := map[string]Snippet{}
	for _, s := range snips {
		byTemplate[s.Template] = s
	}
	for _, want := range []string{"self-critique", "dialogue-pass", "continuity-check", "summarise"} {
		if _, ok := byTemplate[want]; !ok {
			t.Errorf("after a draft, no %s snippet (got %d)", want, len(snips))
		}
	}
	if _, ok := byTemplate["premise"]; ok {
		t.Error("a premise offered after a draft")
	}
	crit := byTemplate["self-critique"]
	golden(t, "snippet-critique", crit.Text+"\n---\n"+crit.Snippet+"\n")
	// Inserted as offered, every snippet checks without errors.
	for _, s := range snips {
		text := src + "\n" + s.Text + "\n"
		r := workflowlang.Check(workflowlang.Parse("chapter.flow", []byte(text)), workflowlang.Env{})
		for _, d := range r.Diagnostics {
			if d.Severity == workflowlang.SeverityError {
				t.Errorf("snippet %s: %s %s", s.Template, d.Code, d.Message)
			}
		}
	}

	// After a critique: the revision reads the draft and the critique, and
	// names stay unique.
	with := src + "\n" + crit.Text + "\n"
	res = workflowlang.Check(workflowlang.Parse("chapter.flow", []byte(with)), workflowlang.Env{})
	var revise *Snippet
	for _, s := range lib.Snippets(res, len(with)) {
		if s.Template == "revise" {
			revise = &s
		}
	}
	if revise == nil || !strings.Contains(revise.Text, "{{draft}}\n    {{critique}}") {
		t.Fatalf("revise after a critique: %+v", revise)
	}
	with2 := with + "\n" + revise.Text + "\n"
	res = workflowlang.Check(workflowlang.Parse("chapter.flow", []byte(with2)), workflowlang.Env{})
	for _, s := range lib.Snippets(res, len(with2)) {
		if s.Template == "self-critique" && s.Name != "critique-2" {
			t.Errorf("second critique named %q", s.Name)
		}
	}
	// Inside a node: nothing.
	if got := lib.Snippets(res, strings.Index(with2, "Write chapter 12")); len(got) != 0 {
		t.Errorf("%d snippets inside a node", len(got))
	}
	// An empty file: nodes that need no input.
	empty := workflowlang.Check(workflowlang.Parse("e.flow", nil), workflowlang.Env{})
	for _, s := range lib.Snippets(empty, 0) {
		if strings.Contains(s.Text, "{{in}}") || s.Template == "revise" {
			t.Errorf("empty file offered %s", s.Template)
		}
	}
}

func TestCodeActions(t *testing.T) {
	lib, _ := DefaultLibrary()
	src := readFixture(t)
	res := workflowlang.Check(workflowlang.Parse("chapter.flow", []byte(src)), workflowlang.Env{})
	acts := lib.CodeActions(res, "draft")
	if len(acts) != 3 {
		t.Fatalf("%d actions", len(acts))
	}
	for _, a := range acts {
		if a.Node != "draft" || !strings.Contains(a.Intent, "draft") || !strings.Contains(a.Title, "draft") {
			t.Errorf("action %+v", a)
		}
	}
	if lib.CodeActions(res, "nosuch") != nil {
		t.Error("actions for a missing node")
	}
	// The list an editor shows names the same actions, in the same
	// order, with a patch where CodeActions has one and the intent where
	// it has none.
	listed := lib.ListCodeActions(res, "draft")
	if len(listed) != len(acts) {
		t.Fatalf("%d actions listed, %d made", len(listed), len(acts))
	}
	for i, l := range listed {
		a := acts[i]
		if l.Title != a.Title || l.Node != a.Node || l.Patch != (len(a.Ops) > 0) || !l.Patch && l.Intent != a.Intent || l.Patch && l.Intent != "" {
			t.Errorf("listed %+v, made %+v", l, a)
		}
	}
	if lib.ListCodeActions(res, "nosuch") != nil {
		t.Error("actions listed for a missing node")
	}

	// The ready-made patches work without a model.
	b, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := b.Suggest(ctx, request(src, "anything")); err == nil || !strings.Contains(err.Error(), "no agent model") {
		t.Errorf("Suggest without a model: %v", err)
	}
	var added [][]string
	for _, a := range acts {
		if a.Ops == nil {
			continue
		}
		req := request(src, a.Intent)
		req.Offset = strings.Index(src, "node draft")
		s, err := b.Apply(ctx, req, a.Title, a.Ops)
		if err != nil {
			t.Fatalf("%s: %v", a.Title, err)
		}
		checkMinimal(t, src, s, nil)
		added = append(added, s.Added)
		if b.Latest(req.URI) != s {
			t.Error("an applied action is not pending")
		}
	}
	if fmt.Sprint(added) != "[[critique revise] [continuity]]" {
		t.Errorf("added %v", added)
	}
}

func TestRangesInUTF16(t *testing.T) {
	src := "node 草稿 \"😀 𠀀\" { user \"\"\"\n  写 {{x}}\n\"\"\" } # 注 😀\n"
	s := &Suggestion{req: Request{Text: src}, Edits: []workflowlang.TextEdit{
		{Span: workflowlang.Span{Start: strings.Index(src, "{ user"), End: strings.Index(src, "{ user")}, NewText: "X"},
		{Span: workflowlang.Span{Start: len(src), End: len(src)}, NewText: "node y {}\n"},
	}}
	got := s.Ranges(workflowlang.UTF16)
	// 'node 草稿 "😀 𠀀" ' is 5+2+1+1+2+1+2+1+1 = 16 UTF-16 units.
	if got[0].Start != (workflowlang.Position{Line: 0, Col: 16}) || got[1].Start != (workflowlang.Position{Line: 3, Col: 0}) {
		t.Errorf("ranges %+v", got)
	}
	if got8 := s.Ranges(workflowlang.UTF8); got8[0].Start.Col != strings.Index(src, "{ user") {
		t.Errorf("UTF-8 column %d", got8[0].Start.Col)
	}
	if off := Offset(src, workflowlang.Position{Line: 1, Col: 4}, workflowlang.UTF16); src[off:off+2] != "{{" {
		t.Errorf("offset %d", off)
	}
}

// TestE2EScript drives the builder with testdata/builder/e2e-script.json,
// the script the editor end-to-end tests give `flowcabal scripted-llm`: an
// intent about a critique, on a workflow with a node draft, then a
// refinement.
func TestE2EScript(t *testing.T) {
	script, err := llmtest.LoadScript("../../testdata/builder/e2e-script.json")
	if err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, script)
	src := readFixture(t)
	s, err := e.b.Suggest(context.Background(), request(src, "add a self-critique pass after the draft"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(s.Added, ",") != "critique,revise" {
		t.Errorf("added %v", s.Added)
	}
	s2, err := e.b.Accept(context.Background(), AcceptRequest{ID: s.ID, Modification: "make the critique colder"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s2.NewText, "temperature = 0\n") {
		t.Errorf("refinement:\n%s", s2.NewText)
	}
	checkMinimal(t, src, s2, nil)
}
