package workbench

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/internal/projecttest"
	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/lsptest"
)

// chapterText is a chapter whose people are named often enough to be
// suggested, with an astral character (𝄞) before the names so that UTF-16
// columns differ from code points.
func chapterText(n string) string {
	return "第" + n + "回　開卷\n\n" + strings.Repeat("𝄞賈寶玉進來了。寶玉笑道：“好。”黛玉道：“去罷。”林黛玉聽了，便往大觀園來。寶玉說：“妹妹。”黛玉笑道：“是。”\n\n", 6)
}

// authorCaps are the capabilities of an editor that applies edits with
// file operations (VS Code, Neovim).
func authorCaps(resourceOps ...string) map[string]any {
	return map[string]any{
		"window": map[string]any{"workDoneProgress": true, "showDocument": map[string]any{"support": true}},
		"workspace": map[string]any{"codeLens": map[string]any{"refreshSupport": true}, "applyEdit": true,
			"workspaceEdit": map[string]any{"documentChanges": true, "resourceOperations": resourceOps}},
	}
}

func startProject(t *testing.T, files map[string]string, caps map[string]any) *editor {
	t.Helper()
	root := projecttest.Write(t, files)
	llm := llmtest.New(t, llmtest.Script{})
	projecttest.UseModels(t, root, llm.URL, "K")
	return startAs(t, root, llm, map[string]any{"capabilities": caps})
}

func (e *editor) call(cmd string, args map[string]any, res any) error {
	return e.client.Call(e.ctx, "workspace/executeCommand", map[string]any{"command": cmd, "arguments": []any{args}}, res)
}

// applyEditRequests are the workspace/applyEdit requests the editor received.
func applyEditRequests(c *lsptest.Client) []json.RawMessage {
	var out []json.RawMessage
	for _, r := range c.Requests() {
		if r.Method == "workspace/applyEdit" {
			out = append(out, r.Params)
		}
	}
	return out
}

type docChange struct {
	Kind         string               `json:"kind"`
	URI          protocol.DocumentURI `json:"uri"`
	OldURI       protocol.DocumentURI `json:"oldUri"`
	NewURI       protocol.DocumentURI `json:"newUri"`
	TextDocument *struct {
		URI     protocol.DocumentURI `json:"uri"`
		Version *int32               `json:"version"`
	} `json:"textDocument"`
	Edits []protocol.TextEdit `json:"edits"`
}

func changesOf(t *testing.T, raw json.RawMessage) []docChange {
	t.Helper()
	var p struct {
		Edit struct {
			DocumentChanges []docChange `json:"documentChanges"`
		} `json:"edit"`
	}
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	return p.Edit.DocumentChanges
}

func TestImportManuscriptFromTheEditor(t *testing.T) {
	book := "楔子\n\n開場一句話 𝄞 𠀀。\n\n" + chapterText("一") + chapterText("二")
	e := startProject(t, map[string]string{"workflows/.keep": "", "原稿/書.txt": book}, authorCaps())
	proj := string(cache.FileURI(e.root))
	src := filepath.Join(e.root, "原稿", "書.txt")

	var prev ImportResult
	if err := e.call("flowcabal.importManuscript", map[string]any{"uri": proj, "files": []string{string(cache.FileURI(src))}, "dryRun": true}, &prev); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(e.root, "manuscript")); !os.IsNotExist(err) {
		t.Fatalf("the preview wrote the manuscript (%v)", err)
	}
	var nums []int
	for _, c := range prev.Chapters {
		nums = append(nums, c.Number)
	}
	if !slices.Equal(nums, []int{0, 1, 2}) || prev.Chapters[1].Heading != "第一回　開卷" || prev.Chapters[1].Op != "create" || prev.Plan == "" {
		t.Fatalf("preview: %+v", prev)
	}
	if !strings.Contains(prev.Table, "第一回　開卷") || !strings.Contains(prev.Table, "manuscript/chapter-00/content.md") {
		t.Errorf("preview table:\n%s", prev.Table)
	}

	// A confirm against another preview (the source edited since) is
	// refused and writes nothing.
	err := e.call("flowcabal.importManuscript", map[string]any{"uri": proj, "files": []string{src}, "plan": "0123"}, &map[string]any{})
	if err == nil || !strings.Contains(err.Error(), "changed since the preview") {
		t.Fatalf("confirm of a stale preview: %v", err)
	}
	if _, err := os.Stat(filepath.Join(e.root, "manuscript")); !os.IsNotExist(err) {
		t.Fatalf("a refused import wrote the manuscript (%v)", err)
	}

	var done ImportResult
	if err := e.call("flowcabal.importManuscript", map[string]any{"uri": proj, "files": []string{src}, "plan": prev.Plan}, &done); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(e.root, "manuscript", "chapter-00", "content.md"))
	if err != nil || !strings.Contains(string(data), "開場一句話 𝄞 𠀀。") {
		t.Fatalf("prologue: %q %v", data, err)
	}
	data, err = os.ReadFile(filepath.Join(e.root, "manuscript", "chapter-02", "content.md"))
	if err != nil || !strings.HasPrefix(string(data), "第二回　開卷\n") {
		t.Fatalf("chapter 2: %q %v", data, err)
	}
	if !strings.Contains(done.Message, "3 new") {
		t.Errorf("message: %s", done.Message)
	}
	// Again: nothing to do.
	var again ImportResult
	if err := e.call("flowcabal.importManuscript", map[string]any{"uri": proj, "files": []string{src}, "dryRun": true}, &again); err != nil {
		t.Fatal(err)
	}
	for _, c := range again.Chapters {
		if c.Op != "unchanged" {
			t.Errorf("second preview: %+v", c)
		}
	}

	// Bad input: a clear error.
	for _, bad := range []map[string]any{
		{"uri": proj},
		{"uri": proj, "files": []string{filepath.Join(e.root, "無.txt")}},
		{"uri": proj, "files": []string{src}, "encoding": "klingon"},
	} {
		if err := e.call("flowcabal.importManuscript", bad, &map[string]any{}); err == nil {
			t.Errorf("%v: no error", bad)
		}
	}
}

func TestSuggestAndAcceptEntitiesFromTheEditor(t *testing.T) {
	e := startProject(t, map[string]string{
		"manuscript/chapter-01/content.md": chapterText("一"),
		"manuscript/chapter-02/content.md": chapterText("二"),
	}, authorCaps())
	proj := string(cache.FileURI(e.root))
	var sugg []SuggestedEntity
	if err := e.call("flowcabal.suggestEntities", map[string]any{"uri": proj}, &sugg); err != nil {
		t.Fatal(err)
	}
	find := func(name string) *SuggestedEntity {
		for i := range sugg {
			if slices.Contains(append([]string{sugg[i].Name}, sugg[i].Aliases...), name) {
				return &sugg[i]
			}
		}
		return nil
	}
	dai, bao := find("林黛玉"), find("賈寶玉")
	if dai == nil || bao == nil || dai.File != "" || dai.Kind != "character" {
		t.Fatalf("suggestions: %+v", sugg)
	}
	if _, err := os.Stat(filepath.Join(e.root, "entities")); !os.IsNotExist(err) {
		t.Fatal("suggesting wrote files")
	}

	// An unknown name: refused, nothing written.
	if err := e.call("flowcabal.acceptEntities", map[string]any{"uri": proj, "names": []string{dai.Name, "無名氏"}}, &map[string]any{}); err == nil || !strings.Contains(err.Error(), "無名氏") {
		t.Fatalf("unknown name: %v", err)
	}
	if _, err := os.Stat(filepath.Join(e.root, "entities")); !os.IsNotExist(err) {
		t.Fatal("a refused accept wrote files")
	}

	var acc AcceptResult
	if err := e.call("flowcabal.acceptEntities", map[string]any{"uri": proj, "names": []string{dai.Name}}, &acc); err != nil {
		t.Fatal(err)
	}
	if len(acc.Written) != 1 || !strings.HasPrefix(acc.Written[0], "entities/characters/") {
		t.Fatalf("accept: %+v", acc)
	}
	data, err := os.ReadFile(filepath.Join(e.root, filepath.FromSlash(acc.Written[0])))
	if err != nil || !strings.Contains(string(data), "draft: true") || !strings.Contains(string(data), "name: "+dai.Name) {
		t.Fatalf("draft: %q %v", data, err)
	}
	ents, _ := os.ReadDir(filepath.Join(e.root, "entities", "characters"))
	if len(ents) != 1 {
		t.Errorf("only the chosen name gets a file; entities/characters has %d", len(ents))
	}
	// Suggested again, it names its file; accepted again, nothing new.
	if err := e.call("flowcabal.suggestEntities", map[string]any{"uri": proj}, &sugg); err != nil {
		t.Fatal(err)
	}
	if d := find("林黛玉"); d == nil || d.File != acc.Written[0] {
		t.Errorf("after accept: %+v", d)
	}
	if err := e.call("flowcabal.acceptEntities", map[string]any{"uri": proj, "names": []string{dai.Name}}, &acc); err != nil {
		t.Fatal(err)
	}
	if len(acc.Written) != 0 || len(acc.Declared) != 1 {
		t.Errorf("accepting a declared name again: %+v", acc)
	}
}

func TestAddEntityCodeActionInAChapter(t *testing.T) {
	files := map[string]string{"manuscript/chapter-01/content.md": chapterText("一"), "workflows/.keep": ""}
	e := startProject(t, files, authorCaps("create", "rename"))
	uri := cache.FileURI(filepath.Join(e.root, "manuscript", "chapter-01", "content.md"))
	text := files["manuscript/chapter-01/content.md"]
	e.openMarkdown(uri, text)

	actionsAt := func(needle string) []protocol.CodeAction {
		t.Helper()
		bar := strings.Index(needle, "|")
		at := strings.Index(text, needle[:bar]+needle[bar+1:])
		if bar < 0 || at < 0 {
			t.Fatalf("no %q in the chapter", needle)
		}
		off := at + bar
		pos := lsptest.Position(text, off, false)
		var acts []protocol.CodeAction
		if err := e.client.Call(e.ctx, "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
			"range": map[string]any{"start": pos, "end": pos}, "context": map[string]any{"diagnostics": []any{}}}, &acts); err != nil {
			t.Fatal(err)
		}
		return acts
	}
	titled := func(acts []protocol.CodeAction, prefix string) *protocol.CodeAction {
		for i := range acts {
			if strings.HasPrefix(acts[i].Title, prefix) {
				return &acts[i]
			}
		}
		return nil
	}
	// The cursor inside 黛玉 after 𝄞 (two UTF-16 units, one code point).
	var act *protocol.CodeAction
	if err := e.client.WaitFor(e.ctx, "the chapter's code actions", func(*lsptest.View) bool {
		act = titled(actionsAt("𝄞賈寶玉進來了。寶玉笑道：“好。”黛|玉道"), "Add ")
		return act != nil
	}); err != nil {
		t.Fatal(err)
	}
	if act.Title != "Add 林黛玉 as a character" || act.Command == nil || act.Command.Command != "flowcabal.addEntity" {
		t.Fatalf("action: %+v", act)
	}
	if a := titled(actionsAt("開|卷"), "Add "); a != nil {
		t.Errorf("an action on a word that is no name: %+v", a)
	}

	var res AddEntityResult
	args, _ := json.Marshal(act.Command.Arguments[0])
	var argMap map[string]any
	_ = json.Unmarshal(args, &argMap)
	if err := e.call(act.Command.Command, argMap, &res); err != nil {
		t.Fatal(err)
	}
	if !res.Applied || res.Path != "entities/characters/林黛玉.md" {
		t.Fatalf("addEntity: %+v", res)
	}
	// The server wrote nothing: the editor creates the file from the edit.
	if _, err := os.Stat(filepath.Join(e.root, "entities")); !os.IsNotExist(err) {
		t.Fatal("the server wrote the entity file itself")
	}
	edits := applyEditRequests(e.client)
	if len(edits) != 1 {
		t.Fatalf("%d applyEdit requests", len(edits))
	}
	ch := changesOf(t, edits[0])
	if len(ch) != 2 || ch[0].Kind != "create" || ch[0].URI != res.File || ch[1].TextDocument == nil || ch[1].TextDocument.URI != res.File ||
		!strings.Contains(ch[1].Edits[0].NewText, "name: 林黛玉") || !strings.Contains(ch[1].Edits[0].NewText, "draft: true") {
		t.Fatalf("edit: %s", edits[0])
	}

	// Once the editor saved the file (the watcher tells the server), the
	// name is declared: no action.
	if err := os.MkdirAll(filepath.Join(e.root, "entities", "characters"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(e.root, "entities", "characters", "林黛玉.md"), []byte(ch[1].Edits[0].NewText), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := e.client.Notify(e.ctx, "workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": res.File, "type": 1}}}); err != nil {
		t.Fatal(err)
	}
	if err := e.client.WaitFor(e.ctx, "the action to go", func(*lsptest.View) bool {
		return titled(actionsAt("𝄞賈寶玉進來了。寶玉笑道：“好。”黛|玉道"), "Add 林黛玉") == nil
	}); err != nil {
		t.Fatal(err)
	}
	// 寶玉 is still offered.
	if a := titled(actionsAt("𝄞賈寶|玉進來"), "Add "); a == nil || !strings.Contains(a.Title, "寶玉") {
		t.Errorf("寶玉: %+v", a)
	}
}

func TestAddEntityNeedsAnEditorThatCreatesFiles(t *testing.T) {
	files := map[string]string{"manuscript/chapter-01/content.md": chapterText("一"), "workflows/.keep": ""}
	e := startProject(t, files, authorCaps()) // documentChanges, but no resource operations
	uri := cache.FileURI(filepath.Join(e.root, "manuscript", "chapter-01", "content.md"))
	e.openMarkdown(uri, files["manuscript/chapter-01/content.md"])
	err := e.call("flowcabal.addEntity", map[string]any{"uri": uri, "text": "林黛玉"}, &map[string]any{})
	if err == nil || !strings.Contains(err.Error(), "does not create files") {
		t.Fatalf("got %v", err)
	}
	if n := len(applyEditRequests(e.client)); n != 0 {
		t.Errorf("%d applyEdit requests sent to an editor that cannot apply them", n)
	}
}

func TestMoveCommandRewritesWorkflowsThroughTheEditor(t *testing.T) {
	flow := "node 甲 {\n  user \"\"\"\n    𝄞 寫她：{{@entities/characters/林黛玉}} 與 {{@entities/characters/林黛玉:L0}}\n  \"\"\"\n}\n"
	files := map[string]string{
		"entities/characters/林黛玉.md": "---\nname: 林黛玉\nkind: character\n---\n",
		"workflows/第一卷.flow":         flow,
	}
	e := startProject(t, files, authorCaps("create", "rename"))
	old := cache.FileURI(filepath.Join(e.root, "entities", "characters", "林黛玉.md"))
	nu := cache.FileURI(filepath.Join(e.root, "entities", "characters", "黛玉.md"))
	wf := e.open("workflows/第一卷.flow")

	var res map[string]any
	if err := e.call("flowcabal.move", map[string]any{"uri": old, "newUri": nu}, &res); err != nil {
		t.Fatal(err)
	}
	if res["applied"] != true || res["new"] != "entities/characters/黛玉.md" {
		t.Fatalf("move: %v", res)
	}
	edits := applyEditRequests(e.client)
	if len(edits) != 1 {
		t.Fatalf("%d applyEdit requests", len(edits))
	}
	ch := changesOf(t, edits[0])
	if len(ch) != 2 || ch[0].TextDocument == nil || ch[0].TextDocument.URI != wf || ch[0].TextDocument.Version == nil || *ch[0].TextDocument.Version != 1 ||
		ch[1].Kind != "rename" || ch[1].OldURI != old || ch[1].NewURI != nu {
		t.Fatalf("edit: %s", edits[0])
	}
	got, err := lsptest.Apply(flow, ch[0].Edits, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.ReplaceAll(flow, "characters/林黛玉", "characters/黛玉"); got != want {
		t.Errorf("the workflow after the edits (UTF-16 ranges):\n%s\nwant\n%s", got, want)
	}
	// The server moved nothing itself.
	if _, err := os.Stat(filepath.Join(e.root, "entities", "characters", "林黛玉.md")); err != nil {
		t.Errorf("the server moved the file itself: %v", err)
	}

	// A refused move sends no edit.
	if err := os.WriteFile(filepath.Join(e.root, "entities", "characters", "黛玉.md"), []byte("---\nname: 黛玉\n---\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err = e.call("flowcabal.move", map[string]any{"uri": old, "newUri": nu}, &res)
	if err == nil || !strings.Contains(err.Error(), "never overwrites") {
		t.Fatalf("move onto an existing file: %v", err)
	}
	if n := len(applyEditRequests(e.client)); n != 1 {
		t.Errorf("a refused move sent an edit (%d in all)", n)
	}
}
