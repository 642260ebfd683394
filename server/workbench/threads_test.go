package workbench

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/internal/projecttest"
	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/lsptest"
)

// threadProject is the sample project with three plot threads: the
// entail, opened in chapter 3 and due by chapter 9 (overdue for chapters
// 10 and 11); a debt due by chapter 14 (due soon for chapter 11); a ball
// resolved in chapter 8 though due by 9.
func threadProject(t *testing.T) string {
	root := projecttest.Copy(t, "pride-and-prejudice")
	writeFiles(t, root, map[string]string{
		"entities/plot-threads/the-entail.md": "---\nname: The entail\naliases: [the entail]\nkind: plot-thread\nopened: 3\ndue: 9\n---\nLongbourn passes to Mr. Collins.\n",
		"entities/plot-threads/the-debt.md":   "---\nname: 舊債 𝄞\nkind: plot-thread\nopened: 5\ndue: 14\n---\nA debt of honour.\n",
		"entities/plot-threads/the-ball.md":   "---\nname: The ball\nkind: plot-thread\nopened: 6\ndue: 9\nresolved: 8\n---\nThe ball Bingley promised.\n",
	})
	return root
}

func overdue(p []protocol.Diagnostic) []protocol.Diagnostic {
	var out []protocol.Diagnostic
	for _, d := range p {
		if d.Code == codeOverdueThread {
			out = append(out, d)
		}
	}
	return out
}

// TestOverdueThreadWarnings: a workflow writing chapter 11 is warned, on
// its persist target, of the thread due by chapter 9 and not resolved,
// with where it was opened; so is chapter 10 when opened; the resolved
// thread and the one due later are not warned of; the node's hover lists
// the threads due soon and Role A injects them with the reason.
func TestOverdueThreadWarnings(t *testing.T) {
	root := threadProject(t)
	llm := llmtest.New(t, llmtest.Script{})
	projecttest.UseModels(t, root, llm.URL, "K")
	e := startIn(t, root, llm)
	uri := e.open("workflows/chapter-11.flow")
	pub, err := e.client.Diagnostics(e.ctx, uri, 1)
	if err != nil {
		t.Fatal(err)
	}
	ds := overdue(pub.Diagnostics)
	if len(ds) != 1 {
		t.Fatalf("%d overdue warnings, want 1: %+v", len(ds), pub.Diagnostics)
	}
	d := ds[0]
	if d.Severity != protocol.DiagnosticSeverityWarning || d.Range.Start.Line != 28 ||
		!strings.Contains(d.Message, `"The entail" was due by chapter 9`) || !strings.Contains(d.Message, "opened in chapter 3 (entities/plot-threads/the-entail.md:5)") {
		t.Errorf("warning: %+v", d)
	}
	if len(d.RelatedInformation) != 1 || d.RelatedInformation[0].Location.URI != cache.FileURI(filepath.Join(root, "entities/plot-threads/the-entail.md")) ||
		d.RelatedInformation[0].Location.Range.Start.Line != 4 {
		t.Errorf("related information: %+v", d.RelatedInformation)
	}

	// The chapter 10 document: the entail is overdue there too.
	ch10 := filepath.Join(root, "manuscript", "chapter-10", "content.md")
	text, err := os.ReadFile(ch10)
	if err != nil {
		t.Fatal(err)
	}
	cu := cache.FileURI(ch10)
	e.openMarkdown(cu, string(text))
	cp, err := e.client.Diagnostics(e.ctx, cu, 1)
	if err != nil {
		t.Fatal(err)
	}
	if ds := overdue(cp.Diagnostics); len(ds) != 1 || ds[0].Range.Start.Line != 0 || !strings.Contains(ds[0].Message, "The entail") {
		t.Errorf("chapter 10's overdue warnings: %+v", ds)
	}

	// The draft's hover: the debt is due soon, and injected.
	var h protocol.Hover
	if err := e.client.Call(e.ctx, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri},
		"position": map[string]any{"line": 24, "character": 6}}, &h); err != nil {
		t.Fatal(err)
	}
	v := h.Contents.Value
	for _, want := range []string{"Plot threads due by chapter 16", "due soon **舊債 𝄞**: due by chapter 14, opened in chapter 5",
		"overdue **The entail**: due by chapter 9", "thread due by chapter 14"} {
		if !strings.Contains(v, want) {
			t.Errorf("hover lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "The ball") {
		t.Errorf("hover lists the resolved thread:\n%s", v)
	}

	// The author resolves the entail (in another editor: the file watch
	// tells the server): the warning goes without the workflow being touched.
	writeFiles(t, root, map[string]string{
		"entities/plot-threads/the-entail.md": "---\nname: The entail\nkind: plot-thread\nopened: 3\ndue: 9\nresolved: 9\n---\nLongbourn passes to Mr. Collins.\n",
	})
	before := len(e.client.PublishedFor(uri))
	if err := e.client.Notify(e.ctx, "workspace/didChangeWatchedFiles", map[string]any{"changes": []any{
		map[string]any{"uri": cache.FileURI(filepath.Join(root, "entities/plot-threads/the-entail.md")), "type": 2}}}); err != nil {
		t.Fatal(err)
	}
	if err := e.client.WaitFor(e.ctx, "the warning to go", func(v *lsptest.View) bool {
		n := 0
		for _, p := range v.Published {
			if p.URI != uri {
				continue
			}
			n++
			if n > before && len(overdue(p.Diagnostics)) == 0 {
				return true
			}
		}
		return false
	}); err != nil {
		t.Fatal(err)
	}
}

// writeFiles writes files into the project at root, as the author saves them.
func writeFiles(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestCheckChapterProposesResolvedThread: the author asks the model to
// check a chapter; the setup/payoff angle says it pays off the entail; the
// chapter shows it as information at the passage, and a quick-fix writes
// `resolved: 11` into the thread's front matter, only when the author
// applies it.
func TestCheckChapterProposesResolvedThread(t *testing.T) {
	const quote = "the entail was broken at last"
	e := start(t, llmtest.Script{
		Replies: []llmtest.Reply{{Match: &llmtest.Match{System: "the setup and payoff checker"},
			Content: `{"findings":[],"resolves":[{"thread":"entities/plot-threads/the-entail.md","quote":"` + quote + `","confidence":0.9}]}`}},
		Default: &llmtest.Reply{Content: `{"findings":[]}`, Times: -1},
	})
	text := "# Chapter XI\n\n𝄞 Mr. Collins read the settlement twice: " + quote + ", and Longbourn would stay with the Bennets.\n"
	uri := e.writeChapter("manuscript/chapter-11/content.md", text)
	if _, err := e.checkChapter(uri, ""); err != nil {
		t.Fatal(err)
	}
	ds := e.lastDiagnostics(uri, "the proposal", func(ds []protocol.Diagnostic) bool { return withCode(ds, "thread-resolved") != nil })
	d := withCode(ds, "thread-resolved")
	want := protocol.Range{Start: at(text, quote), End: lsptest.Position(text, strings.Index(text, quote)+len(quote), false)}
	if d.Range != want || d.Severity != protocol.DiagnosticSeverityInformation || !strings.Contains(d.Message, `"The entail"`) || !strings.Contains(d.Message, "resolved in chapter 11") {
		t.Errorf("proposal %+v, want an information at %+v", d, want)
	}
	thread := filepath.Join(e.root, "entities", "plot-threads", "the-entail.md")
	before, _ := os.ReadFile(thread)
	var acts []protocol.CodeAction
	if err := e.client.Call(e.ctx, "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": d.Range, "context": map[string]any{"diagnostics": []any{*d}}}, &acts); err != nil {
		t.Fatal(err)
	}
	var mark *protocol.CodeAction
	for i, a := range acts {
		if strings.HasPrefix(a.Title, "Mark the plot thread resolved in chapter 11") {
			mark = &acts[i]
		}
		if a.Command != nil && a.Command.Command == cmdRetry {
			t.Errorf("a proposal is offered a retry: %q", a.Title)
		}
	}
	if mark == nil || mark.Edit == nil {
		t.Fatalf("no quick-fix marking the thread resolved: %+v", acts)
	}
	after, _ := os.ReadFile(thread)
	if string(after) != string(before) {
		t.Fatal("the thread file changed before the author applied the fix")
	}
	got := applyEdits(t, string(before), mark.Edit.Changes[cache.FileURI(thread)])
	if !strings.Contains(got, "kind: concerns }\nresolved: 11\n---\n") {
		t.Fatalf("the thread after the fix:\n%s", got)
	}
	// Applied twice (a second check proposing it again), it stays one line.
	if err := os.WriteFile(thread, []byte(strings.Replace(got, "resolved: 11", "resolved: 12", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := e.client.Call(e.ctx, "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
		"range": d.Range, "context": map[string]any{"diagnostics": []any{*d}}}, &acts); err != nil {
		t.Fatal(err)
	}
	for _, a := range acts {
		if strings.HasPrefix(a.Title, "Mark the plot thread resolved") {
			cur, _ := os.ReadFile(thread)
			if out := applyEdits(t, string(cur), a.Edit.Changes[cache.FileURI(thread)]); strings.Count(out, "resolved:") != 1 || !strings.Contains(out, "resolved: 11\n") {
				t.Errorf("re-marking:\n%s", out)
			}
		}
	}
}
