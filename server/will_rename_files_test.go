package server

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/server/lsptest"
	"go.lsp.dev/protocol"
)

// TestWillRenameFilesFollowsTheWorkflows: over the real pipe, the edits
// of a knowledge file's rename follow the workflows as they change: a
// reference typed in the editor (after astral text: UTF-16 columns) is
// edited, its unsaved text the one edited; saved and closed it stays;
// removed on disk behind the editor's back (watched files) it is not
// edited; a workflow created on disk is, and a deleted one is not. The
// paths are Chinese and astral.
func TestWillRenameFilesFollowsTheWorkflows(t *testing.T) {
	first := "node 甲 {\n  user \"\"\"\n    寫她：{{@entities/characters/林黛玉:L1}}\n  \"\"\"\n}\n"
	s := newSession(t, "vscode-1.100.json", map[string]string{
		"flowcabal.toml":                  "",
		"entities/characters/林黛玉.md":      "# 林黛玉\n",
		"workflows/第一卷.flow":              first,
		"workflows/𝄞/乙.flow":              "node 乙 {\n  user \"\"\"無\"\"\"\n}\n",
		"workflows/𝄞/unrelated-name.flow": "node 丙 {\n  user \"\"\"{{@entities/characters/林黛玉-2}}\"\"\"\n}\n",
	})
	firstURI, secondURI, thirdURI := s.uri("workflows/第一卷.flow"), s.uri("workflows/𝄞/乙.flow"), s.uri("workflows/丁.flow")
	// rename checks that renaming 林黛玉.md to 黛玉.md edits exactly the
	// workflows of texts, and each one's resource path in the text the
	// server has for it.
	rename := func(step string, texts map[protocol.DocumentURI]string) {
		t.Helper()
		var e *protocol.WorkspaceEdit
		s.call("workspace/willRenameFiles", map[string]any{"files": []map[string]any{{
			"oldUri": s.uri("entities/characters/林黛玉.md"), "newUri": s.uri("entities/characters/黛玉.md")}}}, &e)
		var got, want []string
		for uri := range texts {
			want = append(want, string(uri))
		}
		if e != nil {
			for uri, edits := range e.Changes {
				got = append(got, string(uri))
				text, ok := texts[uri]
				if !ok {
					continue
				}
				after, err := lsptest.Apply(text, edits, false)
				if err != nil || after != strings.ReplaceAll(text, "{{@entities/characters/林黛玉", "{{@entities/characters/黛玉") {
					t.Errorf("%s: %s edited to\n%s (%v)", step, uri, after, err)
				}
			}
		}
		sort.Strings(got)
		sort.Strings(want)
		if strings.Join(got, " ") != strings.Join(want, " ") {
			t.Errorf("%s: edits of %v, want %v", step, got, want)
		}
	}
	texts := map[protocol.DocumentURI]string{firstURI: first}
	rename("start", texts)

	// Typed in the editor, not saved.
	typed := "node 乙 {\n  user \"\"\"\n    𝄞😀 寫她 {{@entities/characters/林黛玉}}\n  \"\"\"\n}\n"
	s.openText(secondURI, "node 乙 {\n  user \"\"\"無\"\"\"\n}\n", 1)
	s.change(secondURI, 2, typed)
	texts[secondURI] = typed
	rename("typed", texts)

	// Saved and closed: the disk has it now.
	if err := os.WriteFile(filepath.Join(s.dir, "workflows", "𝄞", "乙.flow"), []byte(typed), 0o644); err != nil {
		t.Fatal(err)
	}
	_ = s.client.Notify(s.ctx, "textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": secondURI}})
	_ = s.client.Notify(s.ctx, "textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": secondURI}})
	rename("saved and closed", texts)

	// Changed on disk behind the editor's back: the reference is gone;
	// a workflow created, one deleted.
	if err := os.WriteFile(filepath.Join(s.dir, "workflows", "第一卷.flow"), []byte("node 甲 {\n  user \"\"\"無\"\"\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	created := "\n\nnode 丁 {\n  user \"\"\"𝄞 {{@entities/characters/林黛玉:L0}}\"\"\"\n}\n"
	if err := os.WriteFile(filepath.Join(s.dir, "workflows", "丁.flow"), []byte(created), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(s.dir, "workflows", "𝄞", "乙.flow")); err != nil {
		t.Fatal(err)
	}
	_ = s.client.Notify(s.ctx, "workspace/didChangeWatchedFiles", map[string]any{"changes": []map[string]any{
		{"uri": firstURI, "type": 2}, {"uri": thirdURI, "type": 1}, {"uri": secondURI, "type": 3}}})
	delete(texts, firstURI)
	delete(texts, secondURI)
	texts[thirdURI] = created
	rename("changed on disk", texts)
}

// TestWillRenameFilesAnswerKeptUntilAChange: the answer willRenameFiles
// keeps once an ask is repeated serves it again, byte for byte, and no
// other: a
// different rename gets its own edits, and after a workflow changes in
// the editor (a reference added after Chinese and astral text, then
// every reference removed) the same ask gets edits of the new text.
func TestWillRenameFilesAnswerKeptUntilAChange(t *testing.T) {
	open := "node 甲 {\n  user \"\"\"\n    寫她：{{@entities/characters/林黛玉:L1}}\n  \"\"\"\n}\n"
	closed := "node 乙 {\n  user \"\"\"{{@entities/characters/林黛玉}}\"\"\"\n}\n"
	s := newSession(t, "vscode-1.100.json", map[string]string{
		"flowcabal.toml":             "",
		"entities/characters/林黛玉.md": "# 林黛玉\n",
		"workflows/甲.flow":           open,
		"workflows/乙.flow":           closed,
	})
	openURI, closedURI := s.uri("workflows/甲.flow"), s.uri("workflows/乙.flow")
	s.openText(openURI, open, 1)
	ask := func(to string) (json.RawMessage, *renameAnswer) {
		t.Helper()
		var raw json.RawMessage
		s.call("workspace/willRenameFiles", map[string]any{"files": []map[string]any{{
			"oldUri": s.uri("entities/characters/林黛玉.md"), "newUri": s.uri("entities/characters/" + to + ".md")}}}, &raw)
		return raw, s.srv.lastRename.Load()
	}
	// check applies the answer's edits to texts and wants each workflow
	// of texts (and no other) to read to instead of 林黛玉.
	check := func(step string, raw json.RawMessage, to string, texts map[protocol.DocumentURI]string) {
		t.Helper()
		var e *protocol.WorkspaceEdit
		if err := json.Unmarshal(raw, &e); err != nil {
			t.Fatalf("%s: %v in %s", step, err, raw)
		}
		var changes map[protocol.DocumentURI][]protocol.TextEdit
		if e != nil {
			changes = e.Changes
		}
		if len(changes) != len(texts) {
			t.Errorf("%s: edits of %d workflows, want %d: %s", step, len(changes), len(texts), raw)
		}
		for uri, text := range texts {
			edits, ok := changes[uri]
			if !ok {
				t.Errorf("%s: no edit of %s: %s", step, uri, raw)
				continue
			}
			after, err := lsptest.Apply(text, edits, false)
			if want := strings.ReplaceAll(text, "{{@entities/characters/林黛玉", "{{@entities/characters/"+to); err != nil || after != want {
				t.Errorf("%s: %s edited to\n%s\nwant\n%s (%v)", step, uri, after, want, err)
			}
		}
	}

	// The first ask is written into its frame and only its moves are
	// kept; asked again, the answer's JSON is kept and serves every
	// later ask.
	first, asked := ask("黛玉")
	check("first", first, "黛玉", map[protocol.DocumentURI]string{openURI: open, closedURI: closed})
	if asked == nil || asked.json != nil {
		t.Fatalf("after the first ask: %+v, want its moves kept and no JSON", asked)
	}
	again, kept := ask("黛玉")
	if string(again) != string(first) || kept == nil || string(kept.json) != string(first) {
		t.Errorf("the same ask again: other bytes or none kept:\n%s\n%s", again, first)
	}
	third, keptThird := ask("黛玉")
	if string(third) != string(first) || keptThird != kept {
		t.Errorf("the third ask: a new answer (%p, was %p) or other bytes:\n%s\n%s", keptThird, kept, third, first)
	}

	// Another rename of the same file: its own edits.
	other, keptOther := ask("颦儿")
	check("another rename", other, "颦儿", map[protocol.DocumentURI]string{openURI: open, closedURI: closed})
	if keptOther == kept {
		t.Error("another rename answered from the first one's answer")
	}

	// The open workflow changes, the first rename's answer kept: a
	// second reference after astral text.
	if back, _ := ask("黛玉"); string(back) != string(first) {
		t.Errorf("the first rename asked again: %s, want %s", back, first)
	}
	typed := "node 甲 {\n  user \"\"\"\n    𝄞😀 寫她：{{@entities/characters/林黛玉:L1}}\n    又見 {{@entities/characters/林黛玉}}\n  \"\"\"\n}\n"
	s.change(openURI, 2, typed)
	changed, keptChanged := ask("黛玉")
	check("after a change", changed, "黛玉", map[protocol.DocumentURI]string{openURI: typed, closedURI: closed})
	if keptChanged == kept || string(changed) == string(first) {
		t.Errorf("after a change: the answer kept before it served again:\n%s", changed)
	}

	// Every reference of the open workflow removed: only the closed one
	// is edited.
	s.change(openURI, 3, "node 甲 {\n  user \"\"\"無\"\"\"\n}\n")
	removed, _ := ask("黛玉")
	check("references removed", removed, "黛玉", map[protocol.DocumentURI]string{closedURI: closed})
}
