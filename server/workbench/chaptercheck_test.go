package workbench

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"

	"github.com/flowcabal/flowcabal/agent/factcheck"
	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/internal/projecttest"
	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/lsptest"
)

// writeChapter puts a chapter the author is writing into the project and
// opens it in the editor; it returns its URI after the first diagnostics.
func (e *editor) writeChapter(rel, text string) protocol.DocumentURI {
	e.t.Helper()
	p := filepath.Join(e.root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		e.t.Fatal(err)
	}
	uri := cache.FileURI(p)
	e.openMarkdown(uri, text)
	if _, err := e.client.Diagnostics(e.ctx, uri, 1); err != nil {
		e.t.Fatal(err)
	}
	return uri
}

// checkChapter sends flowcabal.checkChapter over the real pipe
// (workspace/executeCommand), as an editor does.
func (e *editor) checkChapter(uri protocol.DocumentURI, text string) (map[string]any, error) {
	e.t.Helper()
	args := map[string]any{"uri": uri}
	if text != "" {
		args["text"] = text
	}
	return e.command(cmdCheckChapter, args)
}

// lastDiagnostics waits until the latest publication for uri satisfies
// cond and returns it.
func (e *editor) lastDiagnostics(uri protocol.DocumentURI, what string, cond func(ds []protocol.Diagnostic) bool) []protocol.Diagnostic {
	e.t.Helper()
	var got []protocol.Diagnostic
	err := e.client.WaitFor(e.ctx, what, func(v *lsptest.View) bool {
		for i := len(v.Published) - 1; i >= 0; i-- {
			if v.Published[i].URI == uri {
				got = v.Published[i].Diagnostics
				return cond(got)
			}
		}
		return false
	})
	if err != nil {
		e.t.Fatalf("%v; last diagnostics %+v", err, got)
	}
	return got
}

func withCode(ds []protocol.Diagnostic, code string) *protocol.Diagnostic {
	for i := range ds {
		if fmt.Sprint(ds[i].Code) == code {
			return &ds[i]
		}
	}
	return nil
}

// progressFor returns the $/progress values sent for a token, in order.
func progressFor(e *editor, token string) []progressValue {
	var out []progressValue
	for _, r := range e.client.Requests() {
		if r.Method != "$/progress" {
			continue
		}
		var p struct {
			Token string        `json:"token"`
			Value progressValue `json:"value"`
		}
		if json.Unmarshal(r.Params, &p) == nil && p.Token == token {
			out = append(out, p.Value)
		}
	}
	return out
}

func (e *editor) waitProgressEnd(token string) progressValue {
	e.t.Helper()
	var end progressValue
	err := e.client.WaitFor(e.ctx, "the end of the check", func(v *lsptest.View) bool {
		for _, p := range progressFor(e, token) {
			if p.Kind == "end" {
				end = p
				return true
			}
		}
		return false
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return end
}

func (e *editor) change(uri protocol.DocumentURI, version int32, rng protocol.Range, text string) {
	e.t.Helper()
	if err := e.client.Notify(e.ctx, "textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": version},
		"contentChanges": []any{map[string]any{"range": rng, "text": text}}}); err != nil {
		e.t.Fatal(err)
	}
}

func at(text, sub string) protocol.Position {
	i := strings.Index(text, sub)
	if i < 0 {
		panic("no " + sub)
	}
	return lsptest.Position(text, i, false)
}

// TestCheckChapterWithModel: the author asks the model to check a
// chapter; its findings appear on the chapter at the quoted text (UTF-16
// columns, past a character outside the BMP), stay while the author
// edits elsewhere, and go when the author edits the found words.
func TestCheckChapterWithModel(t *testing.T) {
	tests := []struct {
		name, rel, text string
		quote, fix      string // the timeline angle's quote and fix
		before          string // text inserted before the quote, on its line
	}{
		{"english", "manuscript/chapter-11/content.md",
			"# Chapter XI\n\nJane wrote to her sister on the Tuesday, three days after the ball at Netherfield.\n\nElizabeth laughed at the letter.\n",
			"three days after the ball at Netherfield", "a week after the ball at Netherfield", "Dear reader, "},
		{"chinese", "manuscript/chapter-11/content.md",
			"# 第十一回\n\n𠀀宝玉笑道：“三天前的事，我记得。”黛玉听了不语。\n\n袭人笑了。\n",
			"三天前的事", "七天前的事", "次日，"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			script := llmtest.Script{
				Replies: []llmtest.Reply{
					{Match: &llmtest.Match{System: "the timeline checker"}, Content: fmt.Sprintf(`{"findings":[{"quote":%q,"explanation":"The ball was a week before (chapter 10).","evidence":"chapter 10","suggestion":%q,"confidence":0.7}]}`, tt.quote, tt.fix)},
					{Match: &llmtest.Match{System: "the setup and payoff checker"}, Content: `{"findings":[{"quote":"the silver letter-case","explanation":"Nothing set up a silver letter-case.","confidence":0.6}]}`},
				},
				Default: &llmtest.Reply{Content: `{"findings":[]}`, Times: -1},
			}
			e := start(t, script)
			uri := e.writeChapter(tt.rel, tt.text)
			if d := withCode(e.client.PublishedFor(uri)[0].Diagnostics, "timeline"); d != nil {
				t.Fatalf("a model finding before any model check: %+v", d)
			}

			res, err := e.checkChapter(uri, "")
			if err != nil {
				t.Fatal(err)
			}
			token, _ := res["token"].(string)
			if res["status"] != "checking" || res["chapter"] != float64(11) || token == "" {
				t.Fatalf("checkChapter answered %v", res)
			}
			ds := e.lastDiagnostics(uri, "the model's findings", func(ds []protocol.Diagnostic) bool { return withCode(ds, "timeline") != nil })
			tl := withCode(ds, "timeline")
			want := protocol.Range{Start: at(tt.text, tt.quote), End: lsptest.Position(tt.text, strings.Index(tt.text, tt.quote)+len(tt.quote), false)}
			if tl.Range != want || tl.Severity != protocol.DiagnosticSeverityWarning || !strings.Contains(tl.Message, "a week before") {
				t.Errorf("timeline diagnostic %+v, want range %+v, a warning with the model's explanation", tl, want)
			}
			doc := withCode(ds, "setup-payoff")
			if doc == nil || doc.Range != (protocol.Range{}) || !strings.Contains(doc.Message, "the silver letter-case") {
				t.Errorf("the unlocated finding is not a document-level diagnostic quoting the model: %+v", doc)
			}
			end := e.waitProgressEnd(token)
			if ps := progressFor(e, token); len(ps) < 2 || ps[0].Kind != "begin" || !ps[0].Cancellable || !strings.Contains(end.Message, "2 finding(s)") {
				t.Errorf("progress %+v", ps)
			}
			// The model saw the chapter as chapter 11.
			saw := false
			for _, r := range e.srv.Requests() {
				for _, m := range r.Messages {
					saw = saw || (strings.Contains(m.Content, "chapter 11") && strings.Contains(m.Content, tt.quote))
				}
			}
			if !saw {
				t.Error("no model request had the chapter's text as chapter 11")
			}
			// The quick-fix replaces the quote with the model's fix.
			var acts []protocol.CodeAction
			if err := e.client.Call(e.ctx, "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
				"range": tl.Range, "context": map[string]any{"diagnostics": []any{*tl}}}, &acts); err != nil {
				t.Fatal(err)
			}
			fixed, again := false, false
			for _, a := range acts {
				if a.Edit != nil && strings.Contains(applyEdits(t, tt.text, a.Edit.Changes[uri]), tt.fix) {
					fixed = true
				}
				if a.Command != nil && a.Command.Command == cmdCheckChapter {
					again = true
				}
			}
			if !fixed || !again {
				t.Errorf("code actions (fix %v, check again %v): %+v", fixed, again, acts)
			}

			// Typing elsewhere on the line before it: the finding moves
			// with its words.
			lineStart := at(tt.text, tt.quote)
			lineStart.Character = 0
			e.change(uri, 2, protocol.Range{Start: lineStart, End: lineStart}, tt.before)
			text := tt.text[:strings.Index(tt.text, "\n\n")+2] + tt.before + tt.text[strings.Index(tt.text, "\n\n")+2:]
			pub, err := e.client.Diagnostics(e.ctx, uri, 2)
			if err != nil {
				t.Fatal(err)
			}
			tl = withCode(pub.Diagnostics, "timeline")
			if tl == nil || tl.Range.Start != at(text, tt.quote) {
				t.Errorf("after typing before it, timeline diagnostic %+v, want it at %+v", tl, at(text, tt.quote))
			}
			// Editing the found words: the finding goes; the document-level
			// one stays until the next check.
			e.change(uri, 3, tl.Range, tt.fix)
			pub, err = e.client.Diagnostics(e.ctx, uri, 3)
			if err != nil {
				t.Fatal(err)
			}
			if withCode(pub.Diagnostics, "timeline") != nil || withCode(pub.Diagnostics, "setup-payoff") == nil {
				t.Errorf("after editing the found words: %+v", pub.Diagnostics)
			}
			// No model call happened while the author typed.
			n := e.srv.Count()
			e.change(uri, 4, protocol.Range{Start: lineStart, End: lineStart}, "x")
			if _, err := e.client.Diagnostics(e.ctx, uri, 4); err != nil {
				t.Fatal(err)
			}
			if e.srv.Count() != n {
				t.Errorf("typing called the model (%d requests, then %d)", n, e.srv.Count())
			}
		})
	}
}

// TestCheckChapterMalformedModelOutput: answers that are not the findings
// asked for are reported to the author; the chapter keeps its
// deterministic diagnostics and nothing crashes.
func TestCheckChapterMalformedModelOutput(t *testing.T) {
	text := "# Chapter XI\n\nElizabth read the letter twice.\n"
	tests := []struct {
		name    string
		script  llmtest.Script
		message string // in the window/showMessage that reports it
		kind    int
	}{
		{"one angle", llmtest.Script{Replies: []llmtest.Reply{{Match: &llmtest.Match{System: "the timeline checker"}, Content: "The chapter reads well to me.", Times: -1}},
			Default: &llmtest.Reply{Content: `{"findings":[]}`, Times: -1}}, "timeline", 3},
		{"every angle", llmtest.Script{Default: &llmtest.Reply{Content: `{"findings": [{"quote": 12`, Times: -1}}, "no usable answer", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := start(t, tt.script)
			uri := e.writeChapter("manuscript/chapter-11/content.md", text)
			res, err := e.checkChapter(uri, "")
			if err != nil {
				t.Fatal(err)
			}
			e.waitProgressEnd(res["token"].(string))
			var shown string
			err = e.client.WaitFor(e.ctx, "the report", func(v *lsptest.View) bool {
				for _, r := range v.Requests {
					var m struct {
						Type    int    `json:"type"`
						Message string `json:"message"`
					}
					if r.Method == "window/showMessage" && json.Unmarshal(r.Params, &m) == nil && strings.Contains(m.Message, "checked manuscript/chapter-11") {
						shown = m.Message
						return m.Type == tt.kind
					}
				}
				return false
			})
			if err != nil || !strings.Contains(shown, tt.message) {
				t.Fatalf("report %q (%v), want it to mention %q", shown, err, tt.message)
			}
			ds := e.lastDiagnostics(uri, "the chapter's diagnostics", func(ds []protocol.Diagnostic) bool { return withCode(ds, "name") != nil })
			for _, d := range ds {
				if c := fmt.Sprint(d.Code); c != "name" {
					t.Errorf("unexpected diagnostic %s: %s", c, d.Message)
				}
			}
			// The server still answers.
			var h protocol.Hover
			if err := e.client.Call(e.ctx, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri},
				"position": map[string]any{"line": 0, "character": 0}}, &h); err != nil {
				t.Errorf("hover after the check: %v", err)
			}
		})
	}
}

// TestCheckChapterRefusals: no agent model, a document that is not a
// chapter.
func TestCheckChapterRefusals(t *testing.T) {
	root := projecttest.Copy(t, "pride-and-prejudice")
	srv := llmtest.New(t, llmtest.Script{})
	// A writer model, no agent model.
	toml := "[models.writer]\nbase_url = \"" + srv.URL + "\"\nmodel = \"w\"\napi_key_env = \"K\"\n"
	if err := os.WriteFile(filepath.Join(root, "flowcabal.toml"), []byte(toml), 0o644); err != nil {
		t.Fatal(err)
	}
	e := startIn(t, root, srv)
	uri := e.writeChapter("manuscript/chapter-11/content.md", "# Chapter XI\n\nJane smiled.\n")
	_, err := e.checkChapter(uri, "")
	var je *jsonrpc2.Error
	if err == nil || !strings.Contains(err.Error(), "no agent model is configured") || !errors.As(err, &je) || je.Code != codeRequestFailed {
		t.Errorf("without an agent model: %v", err)
	}
	if srv.Count() != 0 {
		t.Errorf("the model was called %d times", srv.Count())
	}
	other := cache.FileURI(filepath.Join(root, "meta", "style-guide.md"))
	if _, err := e.checkChapter(other, ""); err == nil || !strings.Contains(err.Error(), "not one") || !errors.As(err, &je) || je.Code != jsonrpc2.InvalidParams {
		t.Errorf("on a note: %v", err)
	}
}

// TestCheckChapterCancel: the progress's cancel button ends the check; the
// model's request is abandoned.
func TestCheckChapterCancel(t *testing.T) {
	slow := llmtest.Duration(30 * time.Second)
	e := start(t, llmtest.Script{Latency: slow, Default: &llmtest.Reply{Content: `{"findings":[]}`, Times: -1}})
	uri := e.writeChapter("manuscript/chapter-11/content.md", "# Chapter XI\n\nJane smiled.\n")
	res, err := e.checkChapter(uri, "")
	if err != nil {
		t.Fatal(err)
	}
	token := res["token"].(string)
	if err := e.client.WaitFor(e.ctx, "the check's start", func(v *lsptest.View) bool { return len(progressFor(e, token)) > 0 }); err != nil {
		t.Fatal(err)
	}
	if err := e.client.Notify(e.ctx, "window/workDoneProgress/cancel", map[string]any{"token": token}); err != nil {
		t.Fatal(err)
	}
	if end := e.waitProgressEnd(token); end.Message != "cancelled" {
		t.Errorf("progress ended with %q", end.Message)
	}
	// Cancelling again, by the command, finds nothing in flight.
	res, err = e.checkChapter(uri, "cancel")
	if err != nil || res["cancelled"] != false {
		t.Errorf("cancel after the end: %v %v", res, err)
	}
}

// TestFollow: kept findings move with the text and go when an edit
// touches them.
func TestFollow(t *testing.T) {
	const text = "宝玉笑道：三天前的事。Elizabeth laughed."
	quote := "三天前的事"
	s := strings.Index(text, quote)
	tests := []struct {
		name, now string
		kept      bool // the located finding survives
		at        int  // and starts here
	}{
		{"unchanged", text, true, s},
		{"typing before", "次日，" + text, true, s + len("次日，")},
		{"typing after", text + " More.", true, s},
		{"deleting before", text[len("宝玉"):], true, s - len("宝玉")},
		{"inside", strings.Replace(text, "三天", "七天", 1), false, 0},
		{"right after it", strings.Replace(text, "的事。", "的事情。", 1), false, 0},
		{"replacing all", "Nothing.", false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cm := &chapterModel{text: text, located: []bool{true, false}, findings: []factcheck.Finding{
				{Type: "timeline", Start: s, End: s + len(quote)}, {Type: "setup-payoff"}}}
			cm.follow(tt.now)
			if cm.text != tt.now {
				t.Errorf("text %q", cm.text)
			}
			var got *factcheck.Finding
			doc := false
			for i := range cm.findings {
				if cm.located[i] {
					got = &cm.findings[i]
				} else {
					doc = true
				}
			}
			if !doc {
				t.Error("the document-level finding went")
			}
			if (got != nil) != tt.kept {
				t.Fatalf("kept %v, want %v", got, tt.kept)
			}
			if got != nil && (got.Start != tt.at || tt.now[got.Start:got.End] != quote) {
				t.Errorf("finding at [%d,%d) %q, want %d", got.Start, got.End, tt.now[got.Start:got.End], tt.at)
			}
		})
	}
}

// TestCloseStopsAChapterCheck: a check waiting on a slow model does not
// outlive the workbench; Close cancels it and waits for it to end.
func TestCloseStopsAChapterCheck(t *testing.T) {
	e := start(t, llmtest.Script{Latency: llmtest.Duration(time.Minute),
		Default: &llmtest.Reply{Content: `{"findings":[]}`, Times: -1}})
	uri := e.writeChapter("manuscript/chapter-11/content.md", "# Chapter XI\n\nJane wrote to her sister.\n")
	if _, err := e.checkChapter(uri, ""); err != nil {
		t.Fatal(err)
	}
	pr := e.wb.Prose()
	pr.mu.Lock()
	inFlight := len(pr.checks)
	pr.mu.Unlock()
	if inFlight != 1 {
		t.Fatalf("%d checks in flight, want 1", inFlight)
	}
	closed := make(chan struct{})
	go func() { e.wb.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(20 * time.Second):
		t.Fatal("Close waited for the model instead of cancelling the check")
	}
	pr.mu.Lock()
	left := len(pr.checks)
	pr.mu.Unlock()
	if left != 0 {
		t.Errorf("%d checks left after Close", left)
	}
	if _, err := e.checkChapter(uri, ""); err == nil {
		t.Error("a check started after Close")
	}
}
