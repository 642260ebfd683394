package workbench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/server/cache"
)

func (e *editor) codeLenses(uri protocol.DocumentURI) []protocol.CodeLens {
	e.t.Helper()
	var ls []protocol.CodeLens
	if err := e.client.Call(e.ctx, "textDocument/codeLens", map[string]any{"textDocument": map[string]any{"uri": uri}}, &ls); err != nil {
		e.t.Fatal(err)
	}
	return ls
}

// editKnowledge appends to a project file as the author would in another
// editor, and lets the server know through the file watch.
func (e *editor) editKnowledge(rel, more string) {
	e.t.Helper()
	p := filepath.Join(e.root, filepath.FromSlash(rel))
	old, err := os.ReadFile(p)
	if err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, append(old, more...), 0o644); err != nil {
		e.t.Fatal(err)
	}
	if err := e.client.Notify(e.ctx, "workspace/didChangeWatchedFiles", map[string]any{"changes": []any{
		map[string]any{"uri": cache.FileURI(p), "type": 2}}}); err != nil {
		e.t.Fatal(err)
	}
}

// waitLens polls the lenses until one's title contains want.
func (e *editor) waitLens(uri protocol.DocumentURI, want string) protocol.CodeLens {
	e.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		ls := e.codeLenses(uri)
		for _, l := range ls {
			if l.Command != nil && strings.Contains(l.Command.Title, want) {
				return l
			}
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("no lens %q among %v", want, e.lenses(uri))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestStaleLensRerunsInOneClick: the chapter the premise was built from
// is edited; the premise's state lens says so and offers a re-run, which
// calls the model again; once frozen, a stale output says it is frozen
// and stale, and a run leaves it alone.
func TestStaleLensRerunsInOneClick(t *testing.T) {
	e := start(t, llmtest.Script{Default: &llmtest.Reply{Content: "Where the story stands."}})
	uri := e.open("workflows/chapter-11.flow")
	if _, err := e.command("flowcabal.runNode", map[string]any{"uri": uri, "node": "premise"}); err != nil {
		t.Fatal(err)
	}
	e.waitRuns(1)
	if got := strings.Join(e.lenses(uri), " | "); !strings.Contains(got, "✓ approved") || strings.Contains(got, "stale") {
		t.Fatalf("lenses after the run: %s", got)
	}
	e.editKnowledge("manuscript/chapter-10/content.md", "\nJane was better the next morning; 林黛玉 𝄞.\n")
	state := e.waitLens(uri, "⚠ stale: manuscript/chapter-10/content.md changed")
	if !strings.HasSuffix(state.Command.Title, "· v1") {
		t.Errorf("stale lens %q does not name the version", state.Command.Title)
	}
	rerun := e.waitLens(uri, "Re-run")
	if rerun.Range != state.Range {
		t.Errorf("the re-run lens is at %v, the state lens at %v", rerun.Range, state.Range)
	}
	before := len(e.srv.Requests())
	// The author clicks the lens: the client executes its command as given.
	var res map[string]any
	if err := e.client.Call(e.ctx, "workspace/executeCommand", map[string]any{"command": rerun.Command.Command, "arguments": rerun.Command.Arguments}, &res); err != nil {
		t.Fatal(err)
	}
	e.waitRuns(2)
	if n := len(e.srv.Requests()) - before; n < 1 {
		t.Fatalf("the re-run lens called the model %d times", n)
	}
	got := strings.Join(e.lenses(uri), " | ")
	if strings.Contains(got, "stale") || !strings.Contains(got, "v2") {
		t.Fatalf("lenses after the re-run: %s", got)
	}

	if _, err := e.command("flowcabal.freeze", map[string]any{"uri": uri, "node": "premise"}); err != nil {
		t.Fatal(err)
	}
	e.editKnowledge("manuscript/chapter-10/content.md", "\nAnother line.\n")
	frozen := e.waitLens(uri, "❄ frozen v2 · stale: manuscript/chapter-10/content.md changed (frozen: not re-run)")
	for _, l := range e.codeLenses(uri) {
		if l.Range == frozen.Range && l.Command != nil && strings.Contains(l.Command.Title, "Re-run") {
			t.Errorf("a frozen node is offered a re-run: %q", l.Command.Title)
		}
	}
	before = len(e.srv.Requests())
	if _, err := e.command("flowcabal.runNode", map[string]any{"uri": uri, "node": "premise"}); err != nil {
		t.Fatal(err)
	}
	e.waitRuns(3)
	if n := len(e.srv.Requests()) - before; n != 0 {
		t.Errorf("a frozen stale node was run: %d model calls", n)
	}
}

// TestStaleLensOnANodeAnEarlierRunMade: the whole chapter is run, then
// the premise alone; the outline and the draft keep the state lens of
// the run that made their outputs, and say so when the chapter they read
// is edited.
func TestStaleLensOnANodeAnEarlierRunMade(t *testing.T) {
	e := start(t, llmtest.Script{Default: &llmtest.Reply{Content: "Plain prose."}})
	uri := e.open("workflows/chapter-11.flow")
	if _, err := e.command("flowcabal.runWorkflow", map[string]any{"uri": uri}); err != nil {
		t.Fatal(err)
	}
	e.waitRuns(1)
	if _, err := e.command("flowcabal.runNode", map[string]any{"uri": uri, "node": "premise", "text": "force"}); err != nil {
		t.Fatal(err)
	}
	e.waitRuns(2)
	states := 0
	for _, l := range e.codeLenses(uri) {
		if l.Command != nil && l.Command.Command == cmdOpenOutput {
			states++
		}
	}
	if states != 3 {
		t.Fatalf("%d state lenses after running the premise alone, want 3: %v", states, e.lenses(uri))
	}
	e.editKnowledge("manuscript/chapter-10/content.md", "\nJane was better the next morning.\n")
	e.waitLens(uri, "⚠ stale: manuscript/chapter-10/content.md changed")
	stale := map[string]bool{}
	for _, l := range e.codeLenses(uri) {
		if l.Command != nil && l.Command.Command == cmdOpenOutput && strings.Contains(l.Command.Title, "stale") {
			args, _ := l.Command.Arguments[0].(map[string]any)
			stale[fmt.Sprint(args["node"])] = true
		}
	}
	if !stale["premise"] || !stale["draft"] {
		t.Errorf("stale nodes %v, want the premise (its own run) and the draft (an earlier run), both read chapter 10", stale)
	}
}
