package server

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/lsptest"
	"github.com/flowcabal/flowcabal/server/source"
	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// TestWatchedFilesKeepTheModelCurrent: the server registers file watching
// with a client that can do it dynamically, and a knowledge file or a
// .flow created on disk changes the diagnostics of the files that name it.
func TestWatchedFilesKeepTheModelCurrent(t *testing.T) {
	files := map[string]string{
		"flowcabal.toml":   "",
		"workflows/a.flow": "use \"b.flow\" as b\n\nnode x {\n  user \"\"\"\n    {{@meta/world-rules}} {{b.y}}\n  \"\"\"\n}\n",
	}
	s := newSession(t, "vscode-1.100.json", files)
	uri := s.uri("workflows/a.flow")
	p := s.open("workflows/a.flow")
	if !hasCode(p, "missing-knowledge") || !hasCode(p, "missing-use") {
		t.Fatalf("start: %v", p.Diagnostics)
	}
	var reg protocol.RegistrationParams
	err := s.client.WaitFor(s.ctx, "client/registerCapability", func(v *lsptest.View) bool {
		for _, r := range v.Requests {
			if r.Method == "client/registerCapability" {
				return json.Unmarshal(r.Params, &reg) == nil
			}
		}
		return false
	})
	if err != nil || len(reg.Registrations) != 1 || reg.Registrations[0].Method != "workspace/didChangeWatchedFiles" {
		t.Fatalf("registration: %+v, %v", reg, err)
	}
	writeFiles(t, s.dir, map[string]string{"meta/world-rules.md": "# Rules\n", "workflows/b.flow": "node y {\n  user \"y\"\n}\n"})
	before := len(s.client.PublishedFor(uri))
	_ = s.client.Notify(s.ctx, "workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{
		{"uri": s.uri("meta/world-rules.md"), "type": 1}, {"uri": s.uri("workflows/b.flow"), "type": 1}}})
	var got lsptest.Published
	err = s.client.WaitFor(s.ctx, "a.flow's new diagnostics", func(v *lsptest.View) bool {
		n := 0
		for _, p := range v.Published {
			if p.URI == uri {
				n++
				got = p
			}
		}
		return n > before
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Diagnostics) != 0 {
		t.Errorf("after the files appeared: %v", got.Diagnostics)
	}
}

// TestClientCapabilitiesRespected: no Markdown and no snippets to a client
// that did not offer them.
func TestClientCapabilitiesRespected(t *testing.T) {
	for _, tc := range []struct {
		payload           string
		markdown, snippet bool
	}{{"vscode-1.100.json", true, true}, {"spec-3.17-extremes.json", false, false}} {
		s := newSession(t, tc.payload, flowFiles())
		uri := s.uri("workflows/a.flow")
		s.open("workflows/a.flow")
		var h protocol.Hover
		s.call("textDocument/hover", docPos(uri, s.pos(astralFlow, "{{pre|mise}}")), &h)
		if (h.Contents.Kind == protocol.Markdown) != tc.markdown || strings.Contains(h.Contents.Value, "###") != tc.markdown {
			t.Errorf("%s: hover %s %q", tc.payload, h.Contents.Kind, h.Contents.Value)
		}
		var list protocol.CompletionList
		end := lsptest.Position(astralFlow, len(astralFlow), s.utf8)
		s.call("textDocument/completion", docPos(uri, end), &list)
		if len(list.Items) == 0 {
			t.Fatalf("%s: no top-level completion", tc.payload)
		}
		for _, it := range list.Items {
			if (it.InsertTextFormat == protocol.InsertTextFormatSnippet) != tc.snippet {
				t.Errorf("%s: item %s format %v", tc.payload, it.Label, it.InsertTextFormat)
			}
		}
	}
}

// TestEveryPositionAnswers asks every position-based request at every
// position of a document with Chinese and astral text, including positions
// inside surrogate pairs: answers or clean errors, never an internal error.
func TestEveryPositionAnswers(t *testing.T) {
	s := newSession(t, "vscode-1.100.json", flowFiles())
	uri := s.uri("workflows/a.flow")
	s.open("workflows/a.flow")
	lines := strings.Split(astralFlow, "\n")
	methods := []string{"textDocument/hover", "textDocument/definition", "textDocument/references",
		"textDocument/completion", "textDocument/prepareRename", "textDocument/codeAction",
		"textDocument/documentHighlight", "textDocument/selectionRange", "textDocument/prepareCallHierarchy"}
	for l, line := range lines {
		units := 0
		for _, r := range line {
			units++
			if r >= 0x10000 {
				units++ // astral characters are two UTF-16 units
			}
		}
		for c := 0; c <= units+1; c++ {
			p := protocol.Position{Line: uint32(l), Character: uint32(c)}
			// Two methods per position, in turn: every method meets every
			// kind of position, and the test stays quick on a busy machine.
			for _, m := range []string{methods[(l+c)%len(methods)], methods[(l+c+3)%len(methods)]} {
				params := docPos(uri, p)
				params["context"] = map[string]any{"includeDeclaration": true, "diagnostics": []any{}}
				params["range"] = protocol.Range{Start: p, End: p}
				params["positions"] = []protocol.Position{p}
				err := s.client.Call(s.ctx, m, params, nil)
				if code := codeOf(err); err != nil && code != codeRequestFailed && code != jsonrpc2.InvalidParams {
					t.Fatalf("%s at %d:%d: %v", m, l, c, err)
				}
			}
		}
	}
	if strings.Contains(s.logs.String(), "panicked") {
		t.Errorf("a handler panicked:\n%s", s.logs.String())
	}
}

// testRunner stands where the runner will plug in: it implements runNode
// through the Editor seam and leaves every other command unavailable.
type testRunner struct{}

func (testRunner) Execute(ctx context.Context, req CommandRequest) (any, error) {
	if req.Command != "flowcabal.runNode" {
		return nil, ErrNotAvailable
	}
	out := protocol.DocumentURI(string(req.File.URI) + ".out.md")
	shown, err := req.Editor.ShowDocument(ctx, out, false)
	if err != nil {
		return nil, err
	}
	return map[string]any{"node": req.Args.Node, "shown": shown, "progress": req.Editor.WorkDoneProgress()}, nil
}

func TestCommandRunnerSeam(t *testing.T) {
	s := start(t, flowFiles(), func(srv *Server) { srv.opts.Commands = testRunner{} })
	s.initialize("vscode-1.100.json")
	uri := s.uri("workflows/a.flow")
	s.open("workflows/a.flow")
	var res map[string]any
	s.call("workspace/executeCommand", map[string]any{"command": "flowcabal.runNode", "arguments": []any{map[string]any{"uri": uri, "node": "大纲", "version": 1}}}, &res)
	if res["node"] != "大纲" || res["shown"] != true || res["progress"] != true {
		t.Errorf("runNode through the seam: %v", res)
	}
	err := s.client.Call(s.ctx, "workspace/executeCommand", map[string]any{"command": "flowcabal.approve", "arguments": []any{map[string]any{"uri": uri, "node": "大纲"}}}, nil)
	if codeOf(err) != codeRequestFailed || !strings.Contains(err.Error(), "not available yet") {
		t.Errorf("a command the runner lacks: %v", err)
	}
}

// TestOutlineSetting checks initializationOptions.outline: "nodes" gives
// the nodes without their prompts, the default and an unknown value the
// full outline (the unknown one with a warning in the log).
func TestOutlineSetting(t *testing.T) {
	for _, tc := range []struct {
		opts     any
		children bool
		warn     bool
	}{{nil, true, false}, {map[string]any{"outline": "full"}, true, false}, {map[string]any{"outline": "nodes"}, false, false},
		{map[string]any{"outline": "tree"}, true, true}, {"not an object", true, true}} {
		s := start(t, flowFiles(), nil)
		p := initParams(t, "vscode-1.100.json", s.dir)
		p["initializationOptions"] = tc.opts
		if err := s.client.Call(s.ctx, "initialize", p, &s.init); err != nil {
			t.Fatalf("%v: initialize: %v", tc.opts, err)
		}
		if err := s.client.Notify(s.ctx, "initialized", map[string]any{}); err != nil {
			t.Fatal(err)
		}
		s.open("workflows/a.flow")
		var raw []protocol.DocumentSymbol
		s.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": s.uri("workflows/a.flow")}}, &raw)
		if len(raw) != 1 || len(raw[0].Children) == 0 {
			t.Fatalf("%v: outline %+v", tc.opts, raw)
		}
		nodes, prompts := 0, 0
		for _, n := range raw[0].Children {
			if n.Kind == protocol.SymbolKindFunction {
				nodes++
				prompts += len(n.Children)
			}
		}
		if nodes == 0 || (prompts > 0) != tc.children {
			t.Errorf("%v: %d nodes with %d prompts in the outline", tc.opts, nodes, prompts)
		}
		if warned := strings.Contains(s.logs.String(), "level=WARN"); warned != tc.warn {
			t.Errorf("%v: warning in the log %v, want %v:\n%s", tc.opts, warned, tc.warn, s.logs.String())
		}
	}
}

// TestLargeOutlineFraming checks an answer large enough to be written
// around rather than copied (largeResult) arrives whole and decodes,
// with a small answer right behind it on the same connection.
func TestLargeOutlineFraming(t *testing.T) {
	var b strings.Builder
	b.WriteString("workflow \"长篇 😀\" {\n}\n\n")
	for i := range 150 {
		fmt.Fprintf(&b, "node n%d \"第%d节\" {\n  user \"\"\"\n    写第%d节，接 {{n%d}}。\n  \"\"\"\n}\n\n", i, i, i, max(i-1, 0)+1)
	}
	files := flowFiles()
	files["workflows/long.flow"] = b.String()
	s := newSession(t, "vscode-1.100.json", files)
	s.open("workflows/long.flow")
	var raw json.RawMessage
	s.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": s.uri("workflows/long.flow")}}, &raw)
	if len(raw) < largeResult {
		t.Fatalf("outline of %d bytes: the test needs one of at least %d", len(raw), largeResult)
	}
	var syms []protocol.DocumentSymbol
	if err := json.Unmarshal(raw, &syms); err != nil {
		t.Fatalf("outline does not decode: %v", err)
	}
	if len(syms) != 1 || len(syms[0].Children) != 150 {
		t.Fatalf("outline: %d top symbols, %d nodes", len(syms), len(syms[0].Children))
	}
	var pong string
	s.call("flowcabal/ping", nil, &pong)
	if pong != "pong" {
		t.Errorf("ping after a large answer: %q", pong)
	}
}

// TestNavigationInEveryEncoding asks documentHighlight, documentLink,
// selectionRange and the call hierarchy of a file with Chinese names and
// astral characters, in UTF-16 (VS Code) and UTF-8 (negotiated): the text
// each range covers, cut by the client in its own encoding, must be the
// same in both.
func TestNavigationInEveryEncoding(t *testing.T) {
	text := astralFlow + "\nnode 尾声 {\n  user \"\"\"\n    😀𠀀 {{@meta/style-guide:L1}} 与 {{大纲}}\n  \"\"\"\n}\n"
	for _, tc := range []struct {
		payload string
		utf8    bool
	}{{"vscode-1.100.json", false}, {"spec-3.17-extremes.json", true}} {
		t.Run(tc.payload, func(t *testing.T) {
			files := flowFiles()
			files["workflows/a.flow"] = text
			s := newSession(t, tc.payload, files)
			if s.utf8 != tc.utf8 {
				t.Fatalf("negotiated utf-8 %v, want %v", s.utf8, tc.utf8)
			}
			uri := s.uri("workflows/a.flow")
			doc := map[string]any{"uri": uri}
			s.open("workflows/a.flow")
			slice := func(r protocol.Range) string {
				sl, err := lsptest.Slice(text, r, s.utf8)
				if err != nil {
					return "!" + err.Error()
				}
				return sl
			}
			check := func(what string, got, want []string) {
				t.Helper()
				if strings.Join(got, "|") != strings.Join(want, "|") {
					t.Errorf("%s:\n got %q\nwant %q", what, got, want)
				}
			}

			var hs []protocol.DocumentHighlight
			s.call("textDocument/documentHighlight", docPos(uri, s.pos(text, "{{前|提}}")), &hs)
			var got []string
			for _, h := range hs {
				got = append(got, h.Kind.String()+" "+slice(h.Range))
			}
			check("highlight", got, []string{"Write 前提", "Read {{前提}}"})

			var links []protocol.DocumentLink
			s.call("textDocument/documentLink", map[string]any{"textDocument": doc}, &links)
			got = nil
			for _, l := range links {
				got = append(got, slice(l.Range)+" "+string(l.Target)[len(s.uri("")):]+" "+l.Tooltip)
			}
			check("links", got, []string{"@meta/style-guide:L1 /meta/style-guide.md meta/style-guide.md at L1 (overview); its full text (L2) is ~12 tokens"})

			var srs []protocol.SelectionRange
			s.call("textDocument/selectionRange", map[string]any{"textDocument": doc, "positions": []protocol.Position{s.pos(text, "与 {{大|纲}}")}}, &srs)
			got = nil
			for r := &srs[0]; r != nil; r = r.Parent {
				got = append(got, slice(r.Range))
			}
			node := text[strings.Index(text, "node 尾声"):]
			check("selection", got, []string{"{{大纲}}", "😀𠀀 {{@meta/style-guide:L1}} 与 {{大纲}}", node[strings.Index(node, "user") : len(node)-3], node[:len(node)-1], text})

			var items []protocol.CallHierarchyItem
			s.call("textDocument/prepareCallHierarchy", docPos(uri, s.pos(text, "与 {{大|纲}}")), &items)
			if len(items) != 1 || slice(items[0].SelectionRange) != "大纲" {
				t.Fatalf("prepareCallHierarchy: %+v", items)
			}
			var in []protocol.CallHierarchyIncomingCall
			s.call("callHierarchy/incomingCalls", map[string]any{"item": items[0]}, &in)
			got = nil
			for _, c := range in {
				for _, r := range c.FromRanges {
					got = append(got, c.From.Name+" "+slice(c.From.SelectionRange)+" "+slice(r))
				}
			}
			check("incoming", got, []string{"尾声 尾声 {{大纲}}"})
			var out []protocol.CallHierarchyOutgoingCall
			s.call("callHierarchy/outgoingCalls", map[string]any{"item": items[0]}, &out)
			got = nil
			for _, c := range out {
				for _, r := range c.FromRanges {
					got = append(got, c.To.Name+" "+slice(r))
				}
			}
			// {{premis}} names no node: no call.
			check("outgoing", got, []string{"前提 {{前提}}", "premise {{premise}}"})
		})
	}
}

// TestCodeActionResolveFollowsTheClient: the costly edits of
// Options.CodeActions wait for codeAction/resolve only with a client that
// keeps data and resolves edits (VS Code, Neovim 0.7) and a server that
// can resolve; resolveProvider is advertised exactly then; other clients
// get the edit at once, as before.
func TestCodeActionResolveFollowsTheClient(t *testing.T) {
	for _, tc := range []struct {
		payload  string
		resolver bool
		lazy     bool
	}{
		{"vscode-1.100.json", true, true},
		{"nvim-0.7.2.json", true, true},
		{"spec-3.17-extremes.json", true, false}, // no codeAction capabilities at all
		{"vscode-1.100.json", false, false},      // nothing to resolve with
	} {
		t.Run(fmt.Sprintf("%s resolver=%v", tc.payload, tc.resolver), func(t *testing.T) {
			var sawLazy []bool
			edit := func(uri protocol.DocumentURI) *protocol.WorkspaceEdit {
				return &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{uri: {{NewText: "😀"}}}}
			}
			s := start(t, flowFiles(), func(srv *Server) {
				srv.opts.CodeActions = func(_ context.Context, _ *cache.Snapshot, f *cache.File, _ protocol.Range, _ []protocol.CodeActionKind, _ workflowlang.Encoding, lazy bool) []protocol.CodeAction {
					sawLazy = append(sawLazy, lazy)
					a := protocol.CodeAction{Title: "Costly", Kind: protocol.Refactor}
					if lazy {
						a.Data = map[string]any{"uri": f.URI}
					} else {
						a.Edit = edit(f.URI)
					}
					return []protocol.CodeAction{a}
				}
				if tc.resolver {
					srv.opts.ResolveCodeAction = func(_ context.Context, _ *cache.Snapshot, a protocol.CodeAction, _ workflowlang.Encoding) (protocol.CodeAction, error) {
						d, _ := a.Data.(map[string]any)
						uri, _ := d["uri"].(string)
						a.Edit = edit(protocol.DocumentURI(uri))
						return a, nil
					}
				}
			})
			s.initialize(tc.payload)
			if got := s.init.Capabilities.CodeActionProvider.ResolveProvider; got != tc.lazy {
				t.Errorf("resolveProvider %v, want %v", got, tc.lazy)
			}
			uri := s.uri("workflows/a.flow")
			s.open("workflows/a.flow")
			p := s.pos(astralFlow, "{{前|提}}")
			var acts []protocol.CodeAction
			s.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": protocol.Range{Start: p, End: p},
				"context": map[string]any{"diagnostics": []any{}}}, &acts)
			if len(sawLazy) != 1 || sawLazy[0] != tc.lazy {
				t.Fatalf("the hook was told lazy=%v, want %v", sawLazy, tc.lazy)
			}
			var costly protocol.CodeAction
			for _, a := range acts {
				if a.Title == "Costly" {
					costly = a
				}
			}
			if (costly.Edit == nil) != tc.lazy || (costly.Data != nil) != tc.lazy {
				t.Fatalf("listed action: %+v", costly)
			}
			var res protocol.CodeAction
			s.call("codeAction/resolve", costly, &res)
			if res.Edit == nil || res.Edit.Changes[uri][0].NewText != "😀" || res.Title != "Costly" {
				t.Errorf("resolved: %+v", res)
			}
		})
	}
}

// stubProse follows Markdown documents and answers nothing.
type stubProse struct{}

func (stubProse) Open(Editor, protocol.DocumentURI, int32, string, workflowlang.Encoding)   {}
func (stubProse) Change(Editor, protocol.DocumentURI, int32, string, workflowlang.Encoding) {}
func (stubProse) Close(Editor, protocol.DocumentURI)                                        {}
func (stubProse) CodeActions(context.Context, protocol.DocumentURI, protocol.Range, []protocol.Diagnostic, workflowlang.Encoding) ([]protocol.CodeAction, error) {
	return nil, nil
}
func (stubProse) CodeLenses(protocol.DocumentURI) []protocol.CodeLens { return nil }
func (stubProse) Hover(protocol.DocumentURI, protocol.Position, workflowlang.Encoding) string {
	return ""
}

// TestFlowFeaturesOnProseAnswerNothing: the features of .flow files asked
// of a chapter the server follows answer null, not an error a client
// would show (VS Code sends them for every document it shares).
func TestFlowFeaturesOnProseAnswerNothing(t *testing.T) {
	s := start(t, flowFiles(), func(srv *Server) { srv.opts.Prose = stubProse{} })
	s.initialize("vscode-1.100.json")
	uri := s.uri("manuscript/chapter-01/content.md")
	if err := s.client.Notify(s.ctx, "textDocument/didOpen", map[string]any{"textDocument": map[string]any{
		"uri": uri, "languageId": "markdown", "version": 1, "text": "# 第一回 😀\n\n甄士隱夢幻識通靈。\n"}}); err != nil {
		t.Fatal(err)
	}
	p := protocol.Position{Line: 2, Character: 1}
	for _, m := range []string{"textDocument/documentHighlight", "textDocument/documentLink", "textDocument/selectionRange", "textDocument/prepareCallHierarchy"} {
		params := docPos(uri, p)
		params["positions"] = []protocol.Position{p}
		var raw json.RawMessage
		if err := s.client.Call(s.ctx, m, params, &raw); err != nil || len(raw) > 0 && string(raw) != "null" {
			t.Errorf("%s on a chapter: %s, %v", m, raw, err)
		}
	}
	// A .flow the server does not know is still the client's mistake.
	err := s.client.Call(s.ctx, "textDocument/documentLink", map[string]any{"textDocument": map[string]any{"uri": s.uri("workflows/nope.flow")}}, nil)
	if codeOf(err) != jsonrpc2.InvalidParams {
		t.Errorf("documentLink on an unknown document: %v", err)
	}
}

// TestWillRenameFilesAdvertisedAndHonest: the server asks to hear of
// renames of knowledge files, workflows and folders; a rename whose
// references no edit can mend (a knowledge file moved out of the
// knowledge folders) gets no edit and a warning naming them; URIs that
// are not files are ignored.
func TestWillRenameFilesAdvertisedAndHonest(t *testing.T) {
	files := flowFiles()
	files["workflows/b.flow"] = "node 风格 {\n  user \"😀 {{@meta/style-guide:L1}}\"\n}\n"
	s := newSession(t, "vscode-1.100.json", files)
	fo := s.init.Capabilities.Workspace.FileOperations
	if fo == nil || fo.WillRename == nil {
		t.Fatalf("fileOperations.willRename not advertised: %+v", s.init.Capabilities.Workspace)
	}
	var globs []string
	for _, f := range fo.WillRename.Filters {
		globs = append(globs, f.Scheme+":"+f.Pattern.Glob+":"+f.Pattern.Matches)
	}
	if got := strings.Join(globs, " "); got != "file:**/*.md:file file:**/*.flow:file file:**:folder" {
		t.Errorf("filters %s", got)
	}
	for _, tc := range []struct {
		old, new protocol.DocumentURI
		edit     bool
		warn     string
	}{
		{s.uri("meta/style-guide.md"), s.uri("meta/文风.md"), true, ""},
		{s.uri("meta/style-guide.md"), s.uri("notes/style-guide.md"), false, "{{@meta/style-guide}} names a file that leaves the knowledge folders"},
		{"untitled:Untitled-1", s.uri("meta/x.md"), false, ""},
	} {
		var e *protocol.WorkspaceEdit
		s.call("workspace/willRenameFiles", map[string]any{"files": []map[string]any{{"oldUri": tc.old, "newUri": tc.new}}}, &e)
		if (e != nil) != tc.edit {
			t.Errorf("%s -> %s: edit %+v", tc.old, tc.new, e)
		}
		if e != nil && e.Changes[s.uri("workflows/b.flow")][0].NewText != "meta/文风" {
			t.Errorf("%s -> %s: %+v", tc.old, tc.new, e.Changes)
		}
		if tc.warn != "" && !strings.Contains(s.logs.String(), tc.warn) {
			t.Errorf("%s -> %s: no warning %q in\n%s", tc.old, tc.new, tc.warn, s.logs.String())
		}
	}
}

// TestInlayHints: after each {{@path}} its cost at the reference's level,
// exact from Options.LevelTokens, else the full text's estimate for L2,
// else nothing; at the end of each node's header line the tokens Role A
// would inject and their share of the budget (Options.NodeContexts),
// grouped by thousands, or "indexing…" while Role A's view is built;
// positions right after astral text in UTF-16 and UTF-8;
// initializationOptions.inlayHints=false withdraws the capability and the
// hints, header hints included.
func TestInlayHints(t *testing.T) {
	text := "node 甲 \"𝄞 標題\" {\n  user \"😀𠀀 {{@meta/style-guide:L1}} {{@meta/style-guide}}😀 {{@meta/nope}}\"\n}\n"
	afterL1 := strings.Index(text, ":L1}}") + len(":L1}}")
	afterL2 := strings.Index(text, "guide}}😀") + len("guide}}")
	header := strings.Index(text, "{\n") + 1
	counted := &source.NodeContexts{Nodes: map[string]source.NodeContext{"甲": {Tokens: 7940, Budget: 24000}}}
	for _, tc := range []struct {
		name    string
		payload string
		opts    any
		exact   bool
		nodes   *source.NodeContexts
		want    []string // "offset label"
	}{
		{"estimate", "vscode-1.100.json", nil, false, nil, []string{fmt.Sprint(afterL2, " ~12 tok")}},
		{"estimate utf-8", "spec-3.17-extremes.json", map[string]any{"inlayHints": true}, false, nil, []string{fmt.Sprint(afterL2, " ~12 tok")}},
		{"exact", "vscode-1.100.json", nil, true, nil, []string{fmt.Sprint(afterL1, " 7 tok"), fmt.Sprint(afterL2, " 30 tok")}},
		{"header", "vscode-1.100.json", nil, true, counted, []string{fmt.Sprint(header, " ≈ 7,940 tok · 33% of 24k"), fmt.Sprint(afterL1, " 7 tok"), fmt.Sprint(afterL2, " 30 tok")}},
		{"header utf-8", "spec-3.17-extremes.json", nil, false, &source.NodeContexts{Nodes: map[string]source.NodeContext{"甲": {Tokens: 1234567, Budget: 1500}}},
			[]string{fmt.Sprint(header, " ≈ 1,234,567 tok · 82304% of 1.5k"), fmt.Sprint(afterL2, " ~12 tok")}},
		{"header indexing", "vscode-1.100.json", nil, false, &source.NodeContexts{Indexing: true}, []string{fmt.Sprint(header, " indexing…"), fmt.Sprint(afterL2, " ~12 tok")}},
		{"header off", "vscode-1.100.json", nil, false, &source.NodeContexts{Nodes: map[string]source.NodeContext{"甲": {Off: true}}}, []string{fmt.Sprint(header, " context off"), fmt.Sprint(afterL2, " ~12 tok")}},
		{"off", "vscode-1.100.json", map[string]any{"inlayHints": false}, true, counted, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := flowFiles()
			files["workflows/a.flow"] = text
			s := start(t, files, func(srv *Server) {
				if tc.exact {
					srv.opts.LevelTokens = func(_ *cache.Snapshot, path, level string, _ func()) (int, bool) {
						return map[string]int{"L1": 7, "L2": 30}[level], path == "meta/style-guide"
					}
				}
				if tc.nodes != nil {
					srv.opts.NodeContexts = func(*cache.Snapshot, *cache.File, func()) source.NodeContexts { return *tc.nodes }
				}
			})
			p := initParams(t, tc.payload, s.dir)
			p["initializationOptions"] = tc.opts
			if err := s.client.Call(s.ctx, "initialize", p, &s.init); err != nil {
				t.Fatal(err)
			}
			s.utf8 = s.init.Capabilities.PositionEncoding == "utf-8"
			if got := s.init.Capabilities.InlayHintProvider; got != (tc.want != nil) {
				t.Errorf("inlayHintProvider %v", got)
			}
			s.open("workflows/a.flow")
			var hs []source.InlayHint
			whole := protocol.Range{End: lsptest.Position(text, len(text), s.utf8)}
			s.call("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": s.uri("workflows/a.flow")}, "range": whole}, &hs)
			var got []string
			for _, h := range hs {
				off, err := lsptest.Offset(text, h.Position, s.utf8)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, fmt.Sprint(off, " ", h.Label))
			}
			if strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("hints %q, want %q", got, tc.want)
			}
		})
	}
}

// TestHeaderHintsKeptUntilRefresh: the hints of a document are made once
// per state (the hooks are not asked again for the same version), made
// anew after an edit, and after the hooks' refresh even with no edit.
func TestHeaderHintsKeptUntilRefresh(t *testing.T) {
	text := "node 甲 \"𝄞\" {\n  user \"x\"\n}\n"
	files := flowFiles()
	files["workflows/a.flow"] = text
	var mu sync.Mutex
	asked, tokens := 0, 100
	var refresh func()
	s := start(t, files, func(srv *Server) {
		srv.opts.NodeContexts = func(_ *cache.Snapshot, _ *cache.File, r func()) source.NodeContexts {
			mu.Lock()
			defer mu.Unlock()
			asked++
			refresh = r
			return source.NodeContexts{Nodes: map[string]source.NodeContext{"甲": {Tokens: tokens, Budget: 8000}}}
		}
	})
	s.initialize("vscode-1.100.json")
	uri := s.uri("workflows/a.flow")
	s.open("workflows/a.flow")
	label := func() string {
		var hs []source.InlayHint
		s.call("textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": protocol.Range{End: protocol.Position{Line: 3}}}, &hs)
		if len(hs) != 1 {
			t.Fatalf("hints %+v", hs)
		}
		return hs[0].Label
	}
	for i := 0; i < 3; i++ {
		if got := label(); got != "≈ 100 tok · 1% of 8k" {
			t.Fatalf("label %q", got)
		}
	}
	mu.Lock()
	if asked != 1 {
		t.Errorf("the hook was asked %d times for one version", asked)
	}
	tokens = 4000
	r := refresh
	mu.Unlock()
	r()
	if got := label(); got != "≈ 4,000 tok · 50% of 8k" {
		t.Errorf("after the refresh: %q", got)
	}
	mu.Lock()
	tokens = 6000
	mu.Unlock()
	s.change(uri, 2, text+"\n")
	if got := label(); got != "≈ 6,000 tok · 75% of 8k" {
		t.Errorf("after an edit: %q", got)
	}
}

// TestDocumentLinksFollowChanges: links are kept per snapshot, so they
// must follow an edit of the workflow and a knowledge file appearing on
// disk.
func TestDocumentLinksFollowChanges(t *testing.T) {
	text := "node 甲 {\n  user \"😀 {{@meta/新}} {{@meta/style-guide}}\"\n}\n"
	files := flowFiles()
	files["workflows/a.flow"] = text
	s := newSession(t, "vscode-1.100.json", files)
	uri := s.uri("workflows/a.flow")
	s.open("workflows/a.flow")
	links := func() []string {
		var ls []protocol.DocumentLink
		s.call("textDocument/documentLink", map[string]any{"textDocument": map[string]any{"uri": uri}}, &ls)
		var out []string
		for _, l := range ls {
			out = append(out, string(l.Target)[len(s.uri("")):])
		}
		return out
	}
	want := func(step string, got []string, w ...string) {
		t.Helper()
		if strings.Join(got, " ") != strings.Join(w, " ") {
			t.Errorf("%s: links %q, want %q", step, got, w)
		}
	}
	want("start", links(), "/meta/style-guide.md")
	want("asked again", links(), "/meta/style-guide.md")
	writeFiles(t, s.dir, map[string]string{"meta/新.md": "# 新\n"})
	before := len(s.client.PublishedFor(uri))
	_ = s.client.Notify(s.ctx, "workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{{"uri": s.uri("meta/新.md"), "type": 1}}})
	if err := s.client.WaitFor(s.ctx, "new diagnostics", func(v *lsptest.View) bool { return len(s.client.PublishedFor(uri)) > before }); err != nil {
		t.Fatal(err)
	}
	want("after the file appeared", links(), string(s.uri("meta/新.md")[len(s.uri("")):]), "/meta/style-guide.md")
	s.change(uri, 2, strings.Replace(text, " {{@meta/style-guide}}", "", 1))
	want("after the edit", links(), string(s.uri("meta/新.md")[len(s.uri("")):]))
}
