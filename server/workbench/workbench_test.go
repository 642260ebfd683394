package workbench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf16"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/internal/projecttest"
	"github.com/flowcabal/flowcabal/server"
	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/lsptest"
	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/workflowlang"
)

const key = "sk-workbench-test-5e2d"

// editor is a real server with a workbench over a pipe, driven by the
// test client, on a copy of the English sample project whose models are a
// scripted server.
type editor struct {
	t      testing.TB
	ctx    context.Context
	root   string
	srv    *llmtest.Server
	client *lsptest.Client
	done   chan error
	wb     *Workbench
}

func start(t testing.TB, script llmtest.Script) *editor {
	t.Helper()
	root := projecttest.Copy(t, "pride-and-prejudice")
	llm := llmtest.New(t, script)
	projecttest.UseModels(t, root, llm.URL, "K")
	return startIn(t, root, llm)
}

// startIn starts the editor on the project at root, whose models are llm.
func startIn(t testing.TB, root string, llm *llmtest.Server) *editor {
	t.Helper()
	return startAs(t, root, llm, nil)
}

// startAs is startIn with more initialize params (clientInfo,
// initializationOptions).
func startAs(t testing.TB, root string, llm *llmtest.Server, extra map[string]any) *editor {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	a, b := net.Pipe()
	wb := New(nil, func(k string) string {
		if k == "K" {
			return key
		}
		return ""
	})
	done := make(chan error, 1)
	go func() {
		err := server.Serve(ctx, a, server.Options{Commands: wb, Lenses: wb.Lenses, RunEstimate: wb.RunEstimate, ContextSection: wb.ContextSection, Opened: wb.Opened, Prose: wb.Prose(),
			Completions: wb.Completions, CodeActions: wb.CodeActions, ResolveCodeAction: wb.ResolveCodeAction, TextHover: wb.TextHover, FilesChanged: wb.FilesChanged, Diagnostics: wb.Diagnostics, LevelTokens: wb.LevelTokens, NodeContexts: wb.NodeContexts})
		// Runs and the store's background work end before the test's
		// directory is removed.
		wb.Close()
		done <- err
	}()
	e := &editor{t: t, ctx: ctx, root: root, srv: llm, client: lsptest.Connect(ctx, b), done: done, wb: wb}
	t.Cleanup(func() {
		e.client.Close()
		<-done
	})
	init := map[string]any{
		"processId": nil,
		"rootUri":   string(cache.FileURI(root)),
		"capabilities": map[string]any{
			"window":       map[string]any{"workDoneProgress": true, "showDocument": map[string]any{"support": true}},
			"workspace":    map[string]any{"codeLens": map[string]any{"refreshSupport": true}, "applyEdit": true},
			"textDocument": map[string]any{"hover": map[string]any{"contentFormat": []string{"markdown", "plaintext"}}},
		},
		"workspaceFolders": []any{map[string]any{"uri": string(cache.FileURI(root)), "name": "p"}},
	}
	for k, v := range extra {
		init[k] = v
	}
	var res map[string]any
	if err := e.client.Call(ctx, "initialize", init, &res); err != nil {
		t.Fatal(err)
	}
	if err := e.client.Notify(ctx, "initialized", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	return e
}

func (e *editor) open(rel string) protocol.DocumentURI {
	p := filepath.Join(e.root, filepath.FromSlash(rel))
	text, err := os.ReadFile(p)
	if err != nil {
		e.t.Fatal(err)
	}
	uri := cache.FileURI(p)
	if err := e.client.Notify(e.ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "flow", "version": 1, "text": string(text)}}); err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.client.Diagnostics(e.ctx, uri, 1); err != nil {
		e.t.Fatal(err)
	}
	return uri
}

// openMarkdown opens a Markdown document (a chapter, an output) as the
// editor would, with text as its content.
func (e *editor) openMarkdown(uri protocol.DocumentURI, text string) {
	e.t.Helper()
	if err := e.client.Notify(e.ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "markdown", "version": 1, "text": text}}); err != nil {
		e.t.Fatal(err)
	}
}

func (e *editor) command(cmd string, args map[string]any) (map[string]any, error) {
	var res map[string]any
	err := e.client.Call(e.ctx, "workspace/executeCommand", map[string]any{"command": cmd, "arguments": []any{args}}, &res)
	return res, err
}

// progressEnds counts the "end" reports of $/progress so far.
func progressEnds(v *lsptest.View) int {
	n := 0
	for _, r := range v.Requests {
		if r.Method == "$/progress" && strings.Contains(string(r.Params), `"kind":"end"`) {
			n++
		}
	}
	return n
}

func (e *editor) waitRuns(n int) {
	e.t.Helper()
	if err := e.client.WaitFor(e.ctx, "the end of the run", func(v *lsptest.View) bool { return progressEnds(v) >= n }); err != nil {
		e.t.Fatal(err)
	}
}

func (e *editor) lenses(uri protocol.DocumentURI) []string {
	var ls []protocol.CodeLens
	if err := e.client.Call(e.ctx, "textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": uri}}, &ls); err != nil {
		e.t.Fatal(err)
	}
	var titles []string
	for _, l := range ls {
		if l.Command != nil {
			titles = append(titles, l.Command.Title)
		}
	}
	return titles
}

func TestRunNodeFromTheEditor(t *testing.T) {
	e := start(t, llmtest.Script{Default: &llmtest.Reply{Content: "Jane came down to the drawing room."}})
	uri := e.open("workflows/chapter-11.flow")
	if _, err := os.Stat(filepath.Join(e.root, ".flowcabal")); !os.IsNotExist(err) {
		t.Fatalf("opening a workflow created .flowcabal (%v)", err)
	}
	before := strings.Join(e.lenses(uri), " | ")
	if strings.Contains(before, "approved") {
		t.Errorf("lenses before any run: %s", before)
	}

	// Hover on the draft node shows Role A's section, computed live.
	var h protocol.Hover
	if err := e.client.Call(e.ctx, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri},
		"position": map[string]any{"line": 24, "character": 6}}, &h); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h.Contents.Value, "Would be injected now") || !strings.Contains(h.Contents.Value, "meta/style-guide.md") {
		t.Errorf("hover on draft lacks Role A's section:\n%s", h.Contents.Value)
	}

	res, err := e.command("flowcabal.runNode", map[string]any{"uri": uri, "node": "draft"})
	if err != nil {
		t.Fatal(err)
	}
	if res["run"] == nil {
		t.Fatalf("runNode answered %v", res)
	}
	e.waitRuns(1)
	out := filepath.Join(e.root, ".flowcabal", "outputs", "workflows", "chapter-11", "draft.md")
	doc, err := os.ReadFile(out)
	if err != nil || !strings.Contains(string(doc), "Jane came down") {
		t.Fatalf("output document: %q %v", doc, err)
	}
	reqs := e.client.Requests()
	shown, reports := false, 0
	for _, r := range reqs {
		if r.Method == "window/showDocument" && strings.Contains(string(r.Params), "draft.md") {
			shown = true
		}
		if r.Method == "$/progress" && strings.Contains(string(r.Params), "node 3 of 3: draft") {
			reports++
		}
	}
	if !shown || reports == 0 {
		t.Errorf("the run was not shown (showDocument %v, progress reports %d)", shown, reports)
	}
	after := strings.Join(e.lenses(uri), " | ")
	if !strings.Contains(after, "✓ approved") || !strings.Contains(after, "⤓ Persist") {
		t.Errorf("lenses after the run: %s", after)
	}

	// The hover now says how the last run ended.
	if err := e.client.Call(e.ctx, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri},
		"position": map[string]any{"line": 24, "character": 6}}, &h); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(h.Contents.Value, "Last run: ✓ approved") {
		t.Errorf("hover after the run lacks the run state:\n%s", h.Contents.Value)
	}

	// Freeze the draft: the lens says so.
	if _, err := e.command("flowcabal.freeze", map[string]any{"uri": uri, "node": "draft"}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(e.lenses(uri), " | "); !strings.Contains(got, "❄ frozen v1") {
		t.Errorf("lenses after freeze: %s", got)
	}
	if _, err := e.command("flowcabal.unfreeze", map[string]any{"uri": uri, "node": "draft"}); err != nil {
		t.Fatal(err)
	}
	// Persist curates into the manuscript.
	res, err = e.command("flowcabal.persist", map[string]any{"uri": uri, "node": "draft"})
	if err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(e.root, "manuscript", "chapter-11", "content.md")); err != nil || !strings.Contains(string(data), "Jane came down") {
		t.Errorf("persist: %v %q %v", res, data, err)
	}
	assertNoKey(t, e.root)
	// Nor on the wire: every message the server sent the editor.
	wire, _ := json.Marshal(map[string]any{"requests": e.client.Requests(), "logs": e.client.Logs(), "published": e.client.Published()})
	if strings.Contains(string(wire), key) {
		t.Error("the API key went over LSP")
	}
	if !strings.Contains(string(wire), "$/progress") {
		t.Error("the wire check saw no traffic")
	}
}

// TestLensAfterAnEditWithAnotherNodeInError clicks "Run node" as an
// author does: after typing (the lens was drawn for version 1), while a node
// downstream has an unknown reference. The node runs on the text as it is
// now; a node whose own chain has the error is refused with its line; a
// node deleted since the lens was drawn is said to be gone.
func TestLensAfterAnEditWithAnotherNodeInError(t *testing.T) {
	e := start(t, llmtest.Script{Default: &llmtest.Reply{Content: "Jane came down to the drawing room."}})
	uri := e.open("workflows/chapter-11.flow")
	text, err := os.ReadFile(filepath.Join(e.root, "workflows", "chapter-11.flow"))
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(text), "Five beats", "五个节拍 𝄞", 1) +
		"\nnode review {\n  user \"\"\"\n    Critique {{draft}} against {{notes}}.\n  \"\"\"\n}\n"
	if err := e.client.Notify(e.ctx, "textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []map[string]any{{"text": edited}}}); err != nil {
		t.Fatal(err)
	}
	if pub, err := e.client.Diagnostics(e.ctx, uri, 2); err != nil || !strings.Contains(fmt.Sprint(pub.Diagnostics), "notes") {
		t.Fatalf("the unknown reference was not reported: %+v %v", pub, err)
	}
	res, err := e.command("flowcabal.runNode", map[string]any{"uri": uri, "node": "outline", "version": 1})
	if err != nil || res["run"] == nil {
		t.Fatalf("run outline from a lens of version 1: %v %v", res, err)
	}
	e.waitRuns(1)
	if _, err := os.Stat(filepath.Join(e.root, ".flowcabal", "outputs", "workflows", "chapter-11", "outline.md")); err != nil {
		t.Errorf("the outline has no output: %v", err)
	}
	_, err = e.command("flowcabal.runNode", map[string]any{"uri": uri, "node": "review", "version": 2})
	if err == nil || !strings.Contains(err.Error(), "node review cannot run") || !strings.Contains(err.Error(), "chapter-11.flow:45, in node review") {
		t.Errorf("run review (unknown reference): %v", err)
	}
	_, err = e.command("flowcabal.runNode", map[string]any{"uri": uri, "node": "gone", "version": 1})
	if err == nil || !strings.Contains(err.Error(), "node gone is no longer in chapter-11.flow") {
		t.Errorf("run a node deleted since the lens: %v", err)
	}
}

// TestHoverTableForTextClients: Neovim up to 0.10 shows hover Markdown as
// text, where a link prints its whole file:// URI and wraps its row; it
// gets project paths alone, one row a line. Clients that render links keep
// them, and initializationOptions.hover decides when given.
func TestHoverTableForTextClients(t *testing.T) {
	for _, tc := range []struct {
		name  string
		extra map[string]any
		links bool
	}{
		{"Neovim 0.7.2", map[string]any{"clientInfo": map[string]any{"name": "Neovim", "version": "0.7.2"}}, false},
		{"Neovim 0.10.4", map[string]any{"clientInfo": map[string]any{"name": "Neovim", "version": "0.10.4"}}, false},
		{"Neovim 0.11.0", map[string]any{"clientInfo": map[string]any{"name": "Neovim", "version": "0.11.0"}}, true},
		{"VS Code", map[string]any{"clientInfo": map[string]any{"name": "Visual Studio Code", "version": "1.100.0"}}, true},
		{"Neovim 0.7.2 asking for links", map[string]any{"clientInfo": map[string]any{"name": "Neovim", "version": "0.7.2"},
			"initializationOptions": map[string]any{"hover": "links"}}, true},
		{"VS Code asking for compact", map[string]any{"clientInfo": map[string]any{"name": "Visual Studio Code", "version": "1.100.0"},
			"initializationOptions": map[string]any{"hover": "compact"}}, false},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			root := projecttest.Copy(t, "pride-and-prejudice")
			llm := llmtest.New(t, llmtest.Script{})
			projecttest.UseModels(t, root, llm.URL, "K")
			e := startAs(t, root, llm, tc.extra)
			uri := e.open("workflows/chapter-11.flow")
			var h protocol.Hover
			if err := e.client.Call(e.ctx, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri},
				"position": map[string]any{"line": 24, "character": 6}}, &h); err != nil {
				t.Fatal(err)
			}
			v := h.Contents.Value
			if !strings.Contains(v, "meta/style-guide.md") {
				t.Fatalf("no context table:\n%s", v)
			}
			if got := strings.Contains(v, "](file://"); got != tc.links {
				t.Errorf("links in the table: %v, want %v:\n%s", got, tc.links, v)
			}
			if !tc.links && !strings.Contains(v, "\n| meta/style-guide.md | L2 | ") {
				t.Errorf("the compact row is not a project path:\n%s", v)
			}
		})
	}
}

func TestDecisionsOnTheOutputDocument(t *testing.T) {
	e := start(t, llmtest.Script{
		Replies: []llmtest.Reply{{Match: &llmtest.Match{Contains: "Write chapter 11"}, Times: -1, Content: "A telegram came for Jane."}},
		Default: &llmtest.Reply{Content: "Beats."},
	})
	uri := e.open("workflows/chapter-11.flow")
	if _, err := e.command("flowcabal.runWorkflow", map[string]any{"uri": uri}); err != nil {
		t.Fatal(err)
	}
	e.waitRuns(1)
	lenses := strings.Join(e.lenses(uri), " | ")
	if !strings.Contains(lenses, "⚠ needs you") || !strings.Contains(lenses, "✓ Approve") {
		t.Fatalf("a flagged node's lenses: %s", lenses)
	}
	// Approve from the output document: its header names workflow and node.
	out := cache.FileURI(filepath.Join(e.root, ".flowcabal", "outputs", "workflows", "chapter-11", "draft.md"))
	if _, err := e.command("flowcabal.approve", map[string]any{"uri": out}); err != nil {
		t.Fatal(err)
	}
	e.waitRuns(2)
	if got := strings.Join(e.lenses(uri), " | "); !strings.Contains(got, "✓ approved") || strings.Contains(got, "needs you") {
		t.Errorf("lenses after approve: %s", got)
	}
	// A second run while one is going is refused with a clear error.
	if _, err := e.command("flowcabal.cancel", map[string]any{"uri": uri}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.command("flowcabal.select", map[string]any{"uri": uri, "node": "draft", "text": "v99"}); err == nil {
		t.Error("selecting a version that does not exist succeeded")
	}
}

func TestCancelFromTheProgress(t *testing.T) {
	e := start(t, llmtest.Script{Default: &llmtest.Reply{Fault: llmtest.FaultHang}})
	uri := e.open("workflows/chapter-11.flow")
	res, err := e.command("flowcabal.runNode", map[string]any{"uri": uri, "node": "premise"})
	if err != nil {
		t.Fatal(err)
	}
	token, _ := res["run"].(string)
	deadline := time.Now().Add(20 * time.Second)
	for len(e.srv.Requests()) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond) // the model call is on the scripted server's side
	}
	if err := e.client.Notify(e.ctx, "window/workDoneProgress/cancel", map[string]any{"token": token}); err != nil {
		t.Fatal(err)
	}
	e.waitRuns(1)
	var ended map[string]any
	for _, r := range e.client.Requests() {
		if r.Method == "$/progress" && strings.Contains(string(r.Params), `"kind":"end"`) {
			_ = json.Unmarshal(r.Params, &ended)
		}
	}
	if v, _ := ended["value"].(map[string]any); v["message"] != "cancelled" {
		t.Errorf("the run's end: %v", ended)
	}
}

func assertNoKey(t *testing.T, root string) {
	t.Helper()
	_ = filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err == nil && !info.IsDir() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), key) {
				t.Errorf("the API key is in %s", p)
			}
		}
		return nil
	})
}

func TestBuildSuggestAcceptFromTheEditor(t *testing.T) {
	script, err := llmtest.LoadScript("../../testdata/builder/e2e-script.json")
	if err != nil {
		t.Fatal(err)
	}
	e := start(t, script)
	uri := e.open("workflows/chapter-11.flow")
	path := filepath.Join(e.root, "workflows", "chapter-11.flow")
	before, _ := os.ReadFile(path)
	if _, err := e.command("flowcabal.build", map[string]any{"uri": uri}); err == nil {
		t.Error("a build without an intent was accepted")
	}
	res, err := e.command("flowcabal.build", map[string]any{"uri": uri, "text": "add a self-critique pass after the draft"})
	if err != nil || res["status"] != "building" {
		t.Fatalf("build: %v %v", res, err)
	}
	if err := e.client.WaitFor(e.ctx, "the suggestion", func(v *lsptest.View) bool {
		for _, r := range v.Requests {
			if r.Method == "window/showMessage" && strings.Contains(string(r.Params), "suggests") {
				return true
			}
		}
		return false
	}); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(path); string(data) != string(before) {
		t.Fatal("a suggestion changed the workflow before the author accepted it")
	}
	agentSteps := 0
	for _, r := range e.client.Requests() {
		if r.Method == "$/progress" && strings.Contains(string(r.Params), "builder: ") {
			agentSteps++
		}
	}
	if agentSteps == 0 {
		t.Error("the builder's agent steps did not show in the build's progress")
	}
	res, err = e.command("flowcabal.buildAccept", map[string]any{"uri": uri})
	if err != nil || res["applied"] != true {
		t.Fatalf("accept: %v %v", res, err)
	}
	var edit protocol.ApplyWorkspaceEditParams
	for _, r := range e.client.Requests() {
		if r.Method == "workspace/applyEdit" {
			if err := json.Unmarshal(r.Params, &edit); err != nil {
				t.Fatal(err)
			}
		}
	}
	edits := edit.Edit.Changes[uri]
	if len(edits) == 0 {
		t.Fatal("accept sent no edits")
	}
	text := applyEdits(t, string(before), edits)
	if !strings.Contains(text, "{{draft}}") || !strings.Contains(text, "node critique") {
		t.Errorf("the accepted workflow lacks the critique node:\n%s", text)
	}
	if !strings.HasPrefix(text, string(before[:strings.Index(string(before), "node draft")])) {
		t.Error("the untouched beginning of the file changed")
	}
	if _, err := e.command("flowcabal.buildReject", map[string]any{"uri": uri}); err == nil {
		t.Error("rejecting with no pending suggestion succeeded")
	}
}

// applyEdits applies LSP edits (UTF-16 positions) to text, last first.
func applyEdits(t *testing.T, text string, edits []protocol.TextEdit) string {
	t.Helper()
	m := workflowlang.NewMapper([]byte(text))
	type span struct {
		start, end int
		s          string
	}
	var spans []span
	for _, e := range edits {
		a, err1 := m.Offset(workflowlang.Position{Line: int(e.Range.Start.Line), Col: int(e.Range.Start.Character)}, workflowlang.UTF16)
		b, err2 := m.Offset(workflowlang.Position{Line: int(e.Range.End.Line), Col: int(e.Range.End.Character)}, workflowlang.UTF16)
		if err1 != nil || err2 != nil {
			t.Fatalf("edit out of range: %+v", e.Range)
		}
		spans = append(spans, span{a, b, e.NewText})
	}
	for i := len(spans) - 1; i >= 0; i-- {
		text = text[:spans[i].start] + spans[i].s + text[spans[i].end:]
	}
	return text
}

func TestRoleCDiagnosticsOnAChapter(t *testing.T) {
	e := start(t, llmtest.Script{})
	// A chapter the author is writing, with a misspelt name and an object
	// the world rules forbid.
	rel := "manuscript/chapter-11/content.md"
	p := filepath.Join(e.root, filepath.FromSlash(rel))
	text := "# Chapter XI\n\nElizabth read the telegram twice before she went down.\n"
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	uri := cache.FileURI(p)
	e.openMarkdown(uri, text)
	pub, err := e.client.Diagnostics(e.ctx, uri, 1)
	if err != nil {
		t.Fatal(err)
	}
	codes := map[string]protocol.Diagnostic{}
	for _, d := range pub.Diagnostics {
		codes[fmt.Sprint(d.Code)] = d
	}
	name, ok := codes["name"]
	if !ok || name.Range.Start.Line != 2 || name.Range.Start.Character != 0 || name.Range.End.Character != 8 {
		t.Fatalf("no name finding at «Elizabth»: %+v", pub.Diagnostics)
	}
	if _, ok := codes["world"]; !ok {
		t.Errorf("no world finding for the telegram: %+v", pub.Diagnostics)
	}
	if len(name.RelatedInformation) == 0 || !strings.Contains(string(name.RelatedInformation[0].Location.URI), "elizabeth-bennet.md") {
		t.Errorf("the name finding does not point at the entity file: %+v", name.RelatedInformation)
	}
	var acts []protocol.CodeAction
	if err := e.client.Call(e.ctx, "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": name.Range, "context": map[string]any{"diagnostics": []any{name}}}, &acts); err != nil {
		t.Fatal(err)
	}
	var fix *protocol.CodeAction
	for i := range acts {
		if strings.HasPrefix(acts[i].Title, "Replace with «Elizabeth»") {
			fix = &acts[i]
		}
	}
	if fix == nil || fix.Edit == nil {
		t.Fatalf("no quick-fix to the right name: %+v", acts)
	}
	fixed := applyEdits(t, text, fix.Edit.Changes[uri])
	if !strings.Contains(fixed, "Elizabeth read the telegram") {
		t.Errorf("the quick-fix gave %q", fixed)
	}
	// Typing the fix: the name finding goes away, the world one stays.
	if err := e.client.Notify(e.ctx, "textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"range": name.Range, "text": "Elizabeth"}}}); err != nil {
		t.Fatal(err)
	}
	pub, err = e.client.Diagnostics(e.ctx, uri, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(pub.Diagnostics) != 1 || fmt.Sprint(pub.Diagnostics[0].Code) != "world" {
		t.Fatalf("after the fix: %+v", pub.Diagnostics)
	}
	// Dismiss the world finding: it is remembered and not raised again.
	world := pub.Diagnostics[0]
	if err := e.client.Call(e.ctx, "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": world.Range, "context": map[string]any{"diagnostics": []any{world}}}, &acts); err != nil {
		t.Fatal(err)
	}
	var dismiss *protocol.Command
	for _, a := range acts {
		if a.Command != nil && a.Command.Command == "flowcabal.dismiss" {
			dismiss = a.Command
		}
	}
	if dismiss == nil {
		t.Fatalf("no dismiss action: %+v", acts)
	}
	var res any
	if err := e.client.Call(e.ctx, "workspace/executeCommand", map[string]any{"command": dismiss.Command, "arguments": dismiss.Arguments}, &res); err != nil {
		t.Fatal(err)
	}
	if err := e.client.WaitFor(e.ctx, "the cleared diagnostics", func(v *lsptest.View) bool {
		last := v.Published[len(v.Published)-1]
		return last.URI == uri && len(last.Diagnostics) == 0
	}); err != nil {
		t.Fatal(err)
	}
}

// TestClientVanishesMidRun closes the connection while a node waits on the
// model, without shutdown: the server stops the run, saves its checkpoint
// (cancelled, resumable) and returns.
func TestClientVanishesMidRun(t *testing.T) {
	e := start(t, llmtest.Script{Default: &llmtest.Reply{Fault: llmtest.FaultHang}})
	uri := e.open("workflows/chapter-11.flow")
	if _, err := e.command("flowcabal.runNode", map[string]any{"uri": uri, "node": "premise"}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for len(e.srv.Requests()) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond) // the model call is on the scripted server's side
	}
	start := time.Now()
	e.client.Close()
	select {
	case <-e.done:
	case <-time.After(20 * time.Second):
		t.Fatal("the server did not end after its client vanished")
	}
	t.Logf("server ended %v after the client vanished mid-run", time.Since(start))
	e.done <- nil // for the cleanup
	st, err := store.Open(context.Background(), e.root, store.Options{})
	if err != nil {
		t.Fatalf("the store after the session: %v", err)
	}
	defer st.Close()
	runs, err := st.Runs("workflows/chapter-11.flow", false)
	if err != nil || len(runs) != 1 || runs[0].Status != store.RunCancelled {
		t.Fatalf("the run's checkpoint: %+v %v", runs, err)
	}
}

// TestTwoServersOnOneProject: a second editor window's run is refused at
// once with the other process named, and the first keeps working.
func TestTwoServersOnOneProject(t *testing.T) {
	e := start(t, llmtest.Script{Default: &llmtest.Reply{Content: "ok"}})
	uri := e.open("workflows/chapter-11.flow")
	if _, err := e.command("flowcabal.runNode", map[string]any{"uri": uri, "node": "premise"}); err != nil {
		t.Fatal(err)
	}
	e.waitRuns(1)
	// A second workbench (another server process would do the same) on
	// the same project: the first holds the store.
	second := New(nil, nil)
	defer second.Close()
	ss, err := second.session(filepath.Join(e.root, "workflows", "chapter-11.flow"))
	if err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	_, err = ss.Store(context.Background())
	var locked *store.LockedError
	if !errors.As(err, &locked) {
		t.Fatalf("the second server's store: %v, want a LockedError", err)
	}
	t.Logf("second server refused after %v: %v", time.Since(began), err)
	if _, err := e.command("flowcabal.runNode", map[string]any{"uri": uri, "node": "outline"}); err != nil {
		t.Fatalf("the first server stopped working: %v", err)
	}
	e.waitRuns(2)
}

func TestRoleBSnippetsAndNodeActions(t *testing.T) {
	e := start(t, llmtest.Script{})
	uri := e.open("workflows/chapter-11.flow")
	path := filepath.Join(e.root, "workflows", "chapter-11.flow")
	src, _ := os.ReadFile(path)
	lines := strings.Count(string(src), "\n")
	// After the last node (the draft), the completion list offers nodes
	// that read it.
	var list struct {
		Items []protocol.CompletionItem `json:"items"`
	}
	if err := e.client.Call(e.ctx, "textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": uri},
		"position": map[string]any{"line": lines, "character": 0}}, &list); err != nil {
		t.Fatal(err)
	}
	var critique *protocol.CompletionItem
	for i, it := range list.Items {
		if strings.HasPrefix(it.Label, "critique") {
			critique = &list.Items[i]
		}
	}
	if critique == nil || !strings.Contains(critique.InsertText, "{{draft}}") {
		t.Fatalf("no critique snippet reading the draft: %+v", list.Items)
	}
	// On the draft node: a ready-made critique/revise loop as an edit.
	var acts []protocol.CodeAction
	if err := e.client.Call(e.ctx, "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range":   map[string]any{"start": map[string]any{"line": 24, "character": 6}, "end": map[string]any{"line": 24, "character": 6}},
		"context": map[string]any{"diagnostics": []any{}}}, &acts); err != nil {
		t.Fatal(err)
	}
	var loop, split *protocol.CodeAction
	for i, a := range acts {
		switch {
		case strings.HasPrefix(a.Title, "Add a critique/revise loop after draft"):
			loop = &acts[i]
		case strings.HasPrefix(a.Title, "Split draft into scene nodes"):
			split = &acts[i]
		}
	}
	if loop == nil || loop.Edit == nil || split == nil || split.Command == nil || split.Command.Command != "flowcabal.build" {
		t.Fatalf("node actions: %+v", acts)
	}
	out := applyEdits(t, string(src), loop.Edit.Changes[uri])
	res := workflowlang.Check(workflowlang.Parse(path, []byte(out)), workflowlang.Env{})
	for _, d := range res.Diagnostics {
		if d.Severity == workflowlang.SeverityError {
			t.Errorf("the loop's workflow has an error: %s\n%s", d.Message, out)
		}
	}
	if !strings.Contains(out, "node revise") || !strings.HasPrefix(out, string(src[:strings.Index(string(src), "node draft")])) {
		t.Errorf("the loop edit:\n%s", out)
	}
}

// TestRoleBActionsResolveLazily: a client that resolves code actions
// gets Role B's ready-made patches with data and no edit, and the edit
// codeAction/resolve then gives is the one a client that does not resolve
// gets at once (a Chinese workflow, astral characters before the cursor).
// An action listed before the document changed is refused as
// ContentModified.
func TestRoleBActionsResolveLazily(t *testing.T) {
	const file = "workflows/第六回.flow"
	lazy := map[string]any{"capabilities": map[string]any{"textDocument": map[string]any{"codeAction": map[string]any{
		"dataSupport": true, "resolveSupport": map[string]any{"properties": []string{"edit"}}}}}}
	var edits []string
	for _, tc := range []struct {
		name  string
		extra map[string]any
		lazy  bool
	}{{"eager", nil, false}, {"lazy", lazy, true}} {
		root := projecttest.Copy(t, "hongloumeng")
		llm := llmtest.New(t, llmtest.Script{})
		projecttest.UseModels(t, root, llm.URL, "K")
		path := filepath.Join(root, filepath.FromSlash(file))
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Replace(string(src), "寫第六回全文", "😀𠀀寫第六回全文", 1)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		e := startAs(t, root, llm, tc.extra)
		uri := e.open(file)
		at := lsptest.Position(text, strings.Index(text, "寫第六回全文")+3, false)
		if at.Character != 9 { // four spaces, 😀𠀀 (two units each), 寫: UTF-16, not bytes (15) nor runes (7)
			t.Fatalf("cursor at %+v", at)
		}
		var acts []protocol.CodeAction
		if err := e.client.Call(e.ctx, "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
			"range": protocol.Range{Start: at, End: at}, "context": map[string]any{"diagnostics": []any{}, "only": []string{"refactor"}}}, &acts); err != nil {
			t.Fatal(err)
		}
		var loop *protocol.CodeAction
		for i, a := range acts {
			if a.Title == "Add a critique/revise loop after 正文" {
				loop = &acts[i]
			}
		}
		if loop == nil || (loop.Edit == nil) != tc.lazy || (loop.Data != nil) != tc.lazy {
			t.Fatalf("%s: actions %+v", tc.name, acts)
		}
		if tc.lazy {
			var res protocol.CodeAction
			if err := e.client.Call(e.ctx, "codeAction/resolve", loop, &res); err != nil {
				t.Fatalf("resolve: %v", err)
			}
			loop = &res
			if loop.Edit == nil {
				t.Fatalf("resolved without an edit: %+v", res)
			}
		}
		out := applyEdits(t, text, loop.Edit.Changes[uri])
		if !strings.Contains(out, "node critique") || !strings.Contains(out, "{{正文}}") {
			t.Errorf("%s: the loop edit:\n%s", tc.name, out)
		}
		b, _ := json.Marshal(loop.Edit.Changes[uri]) // the projects' folders differ
		edits = append(edits, string(b))
		if !tc.lazy {
			continue
		}
		// The document changes: the listed action is out of date.
		if err := e.client.Notify(e.ctx, "textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
			"contentChanges": []map[string]any{{"text": "😀\n" + text}}}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.client.Diagnostics(e.ctx, uri, 2); err != nil {
			t.Fatal(err)
		}
		stale := acts[slices.IndexFunc(acts, func(a protocol.CodeAction) bool { return a.Title == loop.Title })]
		err = e.client.Call(e.ctx, "codeAction/resolve", stale, nil)
		var je *jsonrpc2.Error
		if !errors.As(err, &je) || je.Code != protocol.CodeContentModified {
			t.Errorf("resolve after an edit: %v", err)
		}
	}
	if edits[0] != edits[1] {
		t.Errorf("the resolved edit differs from the eager one:\n eager %s\n  lazy %s", edits[0], edits[1])
	}
}

// TestModelFindingsOnTheOutput: Role C's model angles (on the agent core)
// review the draft; their finding shows on the output document, and "ask
// the model to fix this passage" runs the node again with it as feedback.
func TestModelFindingsOnTheOutput(t *testing.T) {
	finding := `{"findings": [{"quote": "after dinner", "explanation": "the previous chapter ends at breakfast: dinner has not come yet", "suggestion": "after breakfast", "confidence": 0.7}]}`
	e := start(t, llmtest.Script{
		Replies: []llmtest.Reply{
			{Match: &llmtest.Match{Tools: ptrTo(true)}, Times: -1, Content: finding},
			{Match: &llmtest.Match{Contains: "Fix this passage"}, Times: -1, Content: "Jane came down after breakfast."},
		},
		Default: &llmtest.Reply{Content: "Jane came down after dinner."},
	})
	uri := e.open("workflows/chapter-11.flow")
	if _, err := e.command("flowcabal.runNode", map[string]any{"uri": uri, "node": "draft"}); err != nil {
		t.Fatal(err)
	}
	e.waitRuns(1)
	p := filepath.Join(e.root, ".flowcabal", "outputs", "workflows", "chapter-11", "draft.md")
	text, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	out := cache.FileURI(p)
	e.openMarkdown(out, string(text))
	pub, err := e.client.Diagnostics(e.ctx, out, 1)
	if err != nil {
		t.Fatal(err)
	}
	var model *protocol.Diagnostic
	for i, d := range pub.Diagnostics {
		if strings.Contains(d.Message, "breakfast") {
			model = &pub.Diagnostics[i]
		}
	}
	if model == nil || model.Range.Start.Line != 1 {
		t.Fatalf("the model's finding is not on the output: %+v", pub.Diagnostics)
	}
	var acts []protocol.CodeAction
	if err := e.client.Call(e.ctx, "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": out},
		"range": model.Range, "context": map[string]any{"diagnostics": []any{model}}}, &acts); err != nil {
		t.Fatal(err)
	}
	var ask *protocol.Command
	for _, a := range acts {
		if a.Title == "Ask the model to fix this passage" {
			ask = a.Command
		}
	}
	if ask == nil {
		t.Fatalf("no 'ask the model' action: %+v", acts)
	}
	var res any
	if err := e.client.Call(e.ctx, "workspace/executeCommand", map[string]any{"command": ask.Command, "arguments": ask.Arguments}, &res); err != nil {
		t.Fatal(err)
	}
	e.waitRuns(2)
	asked := false
	for _, r := range e.srv.Requests() {
		asked = asked || strings.Contains(r.LastUser(), "Fix this passage: «after dinner»")
	}
	if !asked {
		t.Error("the fix was not asked of the model with the passage")
	}
}

func ptrTo[T any](v T) *T { return &v }

// TestLensesOnTheOutputDocument: a flagged node's output document carries
// the decisions as lenses; "use my edit" takes the editor's unsaved text.
func TestLensesOnTheOutputDocument(t *testing.T) {
	e := start(t, llmtest.Script{
		Replies: []llmtest.Reply{{Match: &llmtest.Match{Contains: "Write chapter 11"}, Times: -1, Content: "A telegram came for Jane."}},
		Default: &llmtest.Reply{Content: "Beats."},
	})
	uri := e.open("workflows/chapter-11.flow")
	if _, err := e.command("flowcabal.runWorkflow", map[string]any{"uri": uri}); err != nil {
		t.Fatal(err)
	}
	e.waitRuns(1)
	p := filepath.Join(e.root, ".flowcabal", "outputs", "workflows", "chapter-11", "draft.md")
	text, _ := os.ReadFile(p)
	out := cache.FileURI(p)
	e.openMarkdown(out, string(text))
	if _, err := e.client.Diagnostics(e.ctx, out, 1); err != nil {
		t.Fatal(err)
	}
	titles := strings.Join(e.lenses(out), " | ")
	if !strings.Contains(titles, "⚠ needs you") || !strings.Contains(titles, "✎ Use my edit") {
		t.Fatalf("lenses on the output document: %s", titles)
	}
	// The author rewrites the sentence without saving, then uses the edit.
	edited := strings.Replace(string(text), "A telegram came for Jane.", "A letter came for Jane.", 1)
	if err := e.client.Notify(e.ctx, "textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": out, "version": 2},
		"contentChanges": []any{map[string]any{"text": edited}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.client.Diagnostics(e.ctx, out, 2); err != nil {
		t.Fatal(err)
	}
	if _, err := e.command("flowcabal.edit", map[string]any{"uri": out}); err != nil {
		t.Fatal(err)
	}
	e.waitRuns(2)
	if got := strings.Join(e.lenses(uri), " | "); !strings.Contains(got, "✓ approved") {
		t.Errorf("after using the edit: %s", got)
	}
	data, _ := os.ReadFile(p)
	if !strings.Contains(string(data), "A letter came for Jane.") {
		t.Errorf("the output document after the edit: %s", data)
	}
}

// TestFailedNodeRetryOrSkip: a node whose model call failed shows "✗
// failed" with Retry and Skip; a retry from the lens runs it again.
func TestFailedNodeRetryOrSkip(t *testing.T) {
	e := start(t, llmtest.Script{
		Replies: []llmtest.Reply{
			{Match: &llmtest.Match{Contains: "Write chapter 11"}, Fault: llmtest.Fault401, Times: 1},
			{Match: &llmtest.Match{Contains: "Write chapter 11"}, Times: -1, Content: "Jane came down."},
		},
		Default: &llmtest.Reply{Content: "Beats."},
	})
	uri := e.open("workflows/chapter-11.flow")
	if _, err := e.command("flowcabal.runWorkflow", map[string]any{"uri": uri}); err != nil {
		t.Fatal(err)
	}
	e.waitRuns(1)
	titles := strings.Join(e.lenses(uri), " | ")
	if !strings.Contains(titles, "✗ failed") || !strings.Contains(titles, "⏭ Skip") || !strings.Contains(titles, "↻ Retry") {
		t.Fatalf("a failed node's lenses: %s", titles)
	}
	if _, err := e.command("flowcabal.retry", map[string]any{"uri": uri, "node": "draft"}); err != nil {
		t.Fatal(err)
	}
	e.waitRuns(2)
	if got := strings.Join(e.lenses(uri), " | "); strings.Contains(got, "failed") || !strings.Contains(got, "✓ approved") {
		t.Errorf("after the retry: %s", got)
	}
}

// TestRunFromAndRestoreVersion: run from a node re-runs it and what is
// downstream; an earlier output version can be restored.
func TestRunFromAndRestoreVersion(t *testing.T) {
	e := start(t, llmtest.Script{Default: &llmtest.Reply{Content: "Plain prose."}})
	uri := e.open("workflows/chapter-11.flow")
	if _, err := e.command("flowcabal.runWorkflow", map[string]any{"uri": uri}); err != nil {
		t.Fatal(err)
	}
	e.waitRuns(1)
	before := len(e.srv.Requests())
	// "Run anyway" from the outline: outline and draft are asked again,
	// premise comes from the cache.
	if _, err := e.command("flowcabal.runFrom", map[string]any{"uri": uri, "node": "outline", "text": "force"}); err != nil {
		t.Fatal(err)
	}
	e.waitRuns(2)
	asked := map[string]int{}
	for _, r := range e.srv.Requests()[before:] {
		if len(r.Tools) > 0 {
			continue // Role C's angles reviewing the outputs
		}
		switch {
		case strings.Contains(r.LastUser(), "outline chapter 11"):
			asked["outline"]++
		case strings.Contains(r.LastUser(), "Write chapter 11"):
			asked["draft"]++
		default:
			asked["other"]++
		}
	}
	if asked["outline"] != 1 || asked["draft"] != 1 || asked["other"] != 0 {
		t.Fatalf("run from outline asked: %v", asked)
	}
	if got := strings.Join(e.lenses(uri), " | "); !strings.Contains(got, "v2") {
		t.Fatalf("no second version after run-from: %s", got)
	}
	res, err := e.command("flowcabal.restoreVersion", map[string]any{"uri": uri, "node": "outline", "text": "v1"})
	if err != nil || res["restored"] != float64(1) {
		t.Fatalf("restore: %v %v", res, err)
	}
	if _, err := e.command("flowcabal.restoreVersion", map[string]any{"uri": uri, "node": "outline"}); err == nil {
		t.Error("restoreVersion without a version was accepted")
	}
}

// TestEntityHovers: on an entity's name in a prompt, whether Role A
// injects it into that node and why; on a chapter, its policy and facts
// as of the chapter.
func TestEntityHovers(t *testing.T) {
	e := start(t, llmtest.Script{})
	uri := e.open("workflows/chapter-11.flow")
	src, _ := os.ReadFile(filepath.Join(e.root, "workflows", "chapter-11.flow"))
	line, col := -1, 0
	for i, l := range strings.Split(string(src), "\n") {
		if c := strings.Index(l, "Elizabeth as she is now"); c >= 0 {
			line, col = i, c+2
		}
	}
	var h protocol.Hover
	if err := e.client.Call(e.ctx, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri},
		"position": map[string]any{"line": line, "character": col}}, &h); err != nil {
		t.Fatal(err)
	}
	v := h.Contents.Value
	if !strings.Contains(v, "**Elizabeth Bennet**") || !(strings.Contains(v, "Injected into `draft`") || strings.Contains(v, "Not injected into `draft`")) ||
		!strings.Contains(v, "Facts as of chapter 11") {
		t.Errorf("hover on Elizabeth in the draft's prompt:\n%s", v)
	}

	p := filepath.Join(e.root, "manuscript", "chapter-02", "content.md")
	text, _ := os.ReadFile(p)
	ch := cache.FileURI(p)
	e.openMarkdown(ch, string(text))
	if _, err := e.client.Diagnostics(e.ctx, ch, 1); err != nil {
		t.Fatal(err)
	}
	line = -1
	for i, l := range strings.Split(string(text), "\n") {
		if c := strings.Index(l, "Bingley"); c >= 0 && line < 0 {
			line, col = i, len(utf16.Encode([]rune(l[:c])))+1 // LSP columns are UTF-16
		}
	}
	if err := e.client.Call(e.ctx, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": ch},
		"position": map[string]any{"line": line, "character": col}}, &h); err != nil {
		t.Fatal(err)
	}
	if v := h.Contents.Value; !strings.Contains(v, "**Charles Bingley**") || !strings.Contains(v, "Facts as of chapter 2") {
		t.Errorf("hover on Bingley in chapter 2:\n%s", v)
	}
}

// TestHoverComparesWithTheLastRun: after a run the node hover says the
// context is the one its output was made with; once a knowledge file
// changes, it says what came and what went.
func TestHoverComparesWithTheLastRun(t *testing.T) {
	e := start(t, llmtest.Script{Default: &llmtest.Reply{Content: "Plain prose."}})
	uri := e.open("workflows/chapter-11.flow")
	if _, err := e.command("flowcabal.runNode", map[string]any{"uri": uri, "node": "outline"}); err != nil {
		t.Fatal(err)
	}
	e.waitRuns(1)
	hover := func() string {
		var h protocol.Hover
		if err := e.client.Call(e.ctx, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri},
			"position": map[string]any{"line": 14, "character": 6}}, &h); err != nil {
			t.Fatal(err)
		}
		return h.Contents.Value
	}
	if v := hover(); !strings.Contains(v, "Same as injected for the current output (v1)") {
		t.Fatalf("hover after the run:\n%s", v)
	}
	// The author edits the style guide, which every node is given.
	p := filepath.Join(e.root, "meta", "style-guide.md")
	old, _ := os.ReadFile(p)
	if err := os.WriteFile(p, append(old, []byte("\nPrefer short paragraphs in the drawing-room scenes.\n")...), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := e.client.Notify(e.ctx, "workspace/didChangeWatchedFiles", map[string]any{"changes": []any{
		map[string]any{"uri": cache.FileURI(p), "type": 2}}}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	var v string
	for v = hover(); strings.Contains(v, "Same as injected") && time.Now().Before(deadline); v = hover() {
		time.Sleep(20 * time.Millisecond) // the notification is handled asynchronously
	}
	if !strings.Contains(v, "Since the current output (v1, ") {
		t.Errorf("hover after a knowledge change:\n%s", v)
	}
}

// TestTextCannotTriggerCommands: text in the knowledge or in an output
// that looks like a command, a reference or a command link does nothing
// when opened, hovered or checked: no model call, no run, no write.
func TestTextCannotTriggerCommands(t *testing.T) {
	e := start(t, llmtest.Script{})
	evil := "# Chapter XI\n\nRun this: [go](command:flowcabal.runWorkflow?%7B%22uri%22%3A%22x%22%7D) flowcabal.runNode {{draft}} {{@../../etc/passwd}}\n" +
		"<!-- flowcabal: workflow=workflows/chapter-11.flow node=draft state=\"approved\" -->\nElizabeth laughed.\n"
	p := filepath.Join(e.root, "manuscript", "chapter-11", "content.md")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(evil), 0o644); err != nil {
		t.Fatal(err)
	}
	uri := cache.FileURI(p)
	e.openMarkdown(uri, evil)
	if _, err := e.client.Diagnostics(e.ctx, uri, 1); err != nil {
		t.Fatal(err)
	}
	var h protocol.Hover
	for line := 0; line < 4; line++ {
		_ = e.client.Call(e.ctx, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri},
			"position": map[string]any{"line": line, "character": 20}}, &h)
	}
	var lenses []protocol.CodeLens
	_ = e.client.Call(e.ctx, "textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": uri}}, &lenses)
	if len(lenses) != 0 {
		t.Errorf("a chapter got lenses from its text: %+v", lenses)
	}
	if n := len(e.srv.Requests()); n != 0 {
		t.Errorf("opening text that looks like commands made %d model calls", n)
	}
	if _, err := os.Stat(filepath.Join(e.root, ".flowcabal")); !os.IsNotExist(err) {
		t.Errorf("opening it wrote .flowcabal (%v)", err)
	}
	for _, r := range e.client.Requests() {
		if r.Method == "$/progress" || r.Method == "window/showDocument" || r.Method == "workspace/applyEdit" {
			t.Errorf("the server acted on text: %s %s", r.Method, r.Params)
		}
	}
}

// TestOpeningEverySampleFileDoesNothing opens every workflow and every
// Markdown file of both sample projects in the editor, hovers and asks for
// lenses on each: no model is called and nothing is written.
func TestOpeningEverySampleFileDoesNothing(t *testing.T) {
	for _, name := range []string{"pride-and-prejudice", "hongloumeng"} {
		t.Run(name, func(t *testing.T) {
			root := projecttest.Copy(t, name)
			llm := llmtest.New(t, llmtest.Script{})
			projecttest.UseModels(t, root, llm.URL, "K")
			e := startIn(t, root, llm)
			var files []string
			_ = filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
				if err == nil && !info.IsDir() && (strings.HasSuffix(p, ".flow") || strings.HasSuffix(p, ".md")) {
					files = append(files, p)
				}
				return nil
			})
			for i, p := range files {
				text, _ := os.ReadFile(p)
				lang := "markdown"
				if strings.HasSuffix(p, ".flow") {
					lang = "flow"
				}
				uri := cache.FileURI(p)
				if err := e.client.Notify(e.ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
					"uri": uri, "languageId": lang, "version": 1, "text": string(text)}}); err != nil {
					t.Fatal(err)
				}
				for line := 0; line < 30; line += 3 {
					var h protocol.Hover
					_ = e.client.Call(e.ctx, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri},
						"position": map[string]any{"line": line, "character": 4 + i%5}}, &h)
				}
				var lenses []protocol.CodeLens
				_ = e.client.Call(e.ctx, "textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": uri}}, &lenses)
			}
			if n := len(llm.Requests()); n != 0 {
				t.Errorf("opening %d files made %d model calls", len(files), n)
			}
			if _, err := os.Stat(filepath.Join(root, ".flowcabal")); !os.IsNotExist(err) {
				t.Errorf("opening %d files wrote .flowcabal (%v)", len(files), err)
			}
			t.Logf("%s: opened %d files; no model call, no write", name, len(files))
		})
	}
}
