package workbench

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/server/cache"
)

// applyLineEdit applies an edit whose range starts and ends at line
// starts, as the editor would.
func applyLineEdit(t *testing.T, text string, start, end int, newText string) string {
	t.Helper()
	lines := strings.SplitAfter(text, "\n")
	if start > end || end > len(lines) {
		t.Fatalf("edit lines %d-%d of %d", start, end, len(lines))
	}
	return strings.Join(lines[:start], "") + newText + strings.Join(lines[end:], "")
}

func TestEntityFactsCommands(t *testing.T) {
	entity := "---\nname: 林黛玉\naliases: [黛玉]\nkind: character\n# 作者寫的\nfacts: { home: 蘇州 }\n---\n\n𝄞 待補。\n"
	files := map[string]string{
		"manuscript/chapter-01/content.md": chapterText("一"),
		"manuscript/chapter-02/content.md": chapterText("二"),
		"entities/characters/林黛玉.md":       entity,
		"workflows/.keep":                  "",
	}
	e := startProject(t, files, authorCaps())
	answer, _ := json.Marshal(map[string]any{
		"facts": []any{
			map[string]any{"key": "home", "value": "大觀園", "chapter": 1, "quote": "林黛玉聽了，便往大觀園來"},
			map[string]any{"key": "manner", "value": "笑", "chapter": 2, "quote": "黛玉笑道：“是。”"},
			map[string]any{"key": "instrument", "value": "琴", "chapter": 1, "quote": "黛玉撫琴"},
		},
		"progressions": []any{
			map[string]any{"key": "location", "value": "大觀園", "chapter": 2, "quote": "𝄞賈寶玉進來了"},
		},
	})
	if err := e.srv.SetScript(llmtest.Script{Replies: []llmtest.Reply{{Match: &llmtest.Match{Contains: "Entity: 林黛玉"}, JSON: answer}}}); err != nil {
		t.Fatal(err)
	}
	uri := cache.FileURI(filepath.Join(e.root, "entities", "characters", "林黛玉.md"))

	var res EntityFactsResult
	if err := e.call("flowcabal.entityFacts", map[string]any{"uri": uri}, &res); err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, p := range res.Proposals {
		ids[p.Key] = p.ID
		if p.Quote == "" || p.Line == 0 {
			t.Errorf("a proposal without its evidence: %+v", p)
		}
	}
	if len(res.Proposals) != 3 || len(res.Rejected) != 1 || res.Rejected[0].Key != "instrument" {
		t.Fatalf("proposals: %+v", res)
	}
	if p := res.Proposals[0]; p.Status != "conflict" || p.Existing != "蘇州" {
		t.Errorf("home: %+v", p)
	}
	if e.srv.Count() != 1 {
		t.Fatalf("%d requests", e.srv.Count())
	}

	// The author accepts two, with an unsaved change in the buffer; the
	// edit goes to the editor (versioned), the server writes nothing,
	// and the model is not asked again.
	buffer := strings.Replace(entity, "待補。", "待補。今天改的。", 1)
	var acc AcceptFactsResult
	if err := e.call("flowcabal.acceptFacts", map[string]any{"uri": uri, "names": []string{ids["manner"], ids["location"]}, "text": buffer, "version": 7}, &acc); err != nil {
		t.Fatal(err)
	}
	if !acc.Applied || acc.Added != 2 {
		t.Fatalf("accept: %+v", acc)
	}
	if e.srv.Count() != 1 {
		t.Errorf("the accept asked the model again (%d requests)", e.srv.Count())
	}
	if data, _ := os.ReadFile(filepath.Join(e.root, "entities", "characters", "林黛玉.md")); string(data) != entity {
		t.Errorf("the server wrote the file:\n%s", data)
	}
	edits := applyEditRequests(e.client)
	if len(edits) != 1 {
		t.Fatalf("%d applyEdit requests", len(edits))
	}
	ch := changesOf(t, edits[0])
	if len(ch) != 1 || ch[0].TextDocument == nil || ch[0].TextDocument.URI != uri || ch[0].TextDocument.Version == nil || *ch[0].TextDocument.Version != 7 || len(ch[0].Edits) != 1 {
		t.Fatalf("edit: %s", edits[0])
	}
	ed := ch[0].Edits[0]
	if ed.Range.Start.Character != 0 || ed.Range.End.Character != 0 {
		t.Errorf("the range does not run from line start to line start: %+v", ed.Range)
	}
	got := applyLineEdit(t, buffer, int(ed.Range.Start.Line), int(ed.Range.End.Line), ed.NewText)
	want := strings.Replace(buffer, "facts: { home: 蘇州 }\n", "facts: { home: 蘇州, manner: 笑 }\nprogressions:\n  - { chapter: 2, facts: { location: 大觀園 } }\n", 1)
	if got != want {
		t.Errorf("the buffer after the edit:\n%s\nwant\n%s", got, want)
	}

	// A conflict is never accepted; nor is an id that is not proposed.
	for _, id := range []string{ids["home"], "fact:1:eyes=blue"} {
		err := e.call("flowcabal.acceptFacts", map[string]any{"uri": uri, "names": []string{id}}, &acc)
		if err == nil || !strings.Contains(err.Error(), "Nothing was added") && !strings.Contains(err.Error(), "nothing was added") {
			t.Errorf("accept %q: %v", id, err)
		}
	}
	if n := len(applyEditRequests(e.client)); n != 1 {
		t.Errorf("%d applyEdit requests after the refusals", n)
	}

	// Without an agent model: a clear error.
	if err := os.WriteFile(filepath.Join(e.root, "flowcabal.toml"), []byte("# no models\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := e.call("flowcabal.entityFacts", map[string]any{"uri": uri}, &res)
	if err == nil || !strings.Contains(err.Error(), "[models.agent]") {
		t.Errorf("without a model: %v", err)
	}
}
