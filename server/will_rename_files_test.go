package server

import (
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
