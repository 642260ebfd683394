package source

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/internal/projecttest"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/protocol"
)

// readEveryWorkflow is what MoveEdits did before the snapshot indexed
// references: parse every workflow that may need an edit and walk its
// tree. It is the oracle MoveEdits' answers are compared with.
func readEveryWorkflow(snap *cache.Snapshot, moves []PathMove, enc workflowlang.Encoding) (map[protocol.DocumentURI][]protocol.TextEdit, []string) {
	renamed := map[string]string{}
	for _, r := range snap.Resources() {
		nf, ok := movedTo(r.File, moves)
		if !ok {
			continue
		}
		np, _ := snap.KnowledgePath(nf)
		if np != r.Path {
			renamed[r.Path] = np
		}
	}
	out := map[protocol.DocumentURI][]protocol.TextEdit{}
	var broken []string
	for _, f := range snap.Files() {
		if f.Path == "" || !filepath.IsAbs(f.Path) {
			continue
		}
		newPath, fileMoves := movedTo(f.Path, moves)
		pf := workflowlang.Parse(f.Path, f.Src)
		var edits []protocol.TextEdit
		for _, u := range pf.Uses {
			target := filepath.Join(filepath.Dir(f.Path), filepath.FromSlash(u.Path.Value))
			if _, ok := snap.FileByPath(target); !ok {
				continue
			}
			newTarget, targetMoves := movedTo(target, moves)
			if !fileMoves && !targetMoves {
				continue
			}
			rel, err := filepath.Rel(filepath.Dir(newPath), newTarget)
			if err != nil {
				broken = append(broken, fmt.Sprintf("%s: use %q: %v", f.Path, u.Path.Value, err))
				continue
			}
			rel = filepath.ToSlash(rel)
			if rel == u.Path.Value {
				continue
			}
			if strings.ContainsAny(rel, "\"\\\n\r\t") {
				broken = append(broken, fmt.Sprintf("%s: use %q: the new path %q cannot be written in a string", f.Path, u.Path.Value, rel))
				continue
			}
			edits = append(edits, protocol.TextEdit{Range: Range(pf, unquoted(pf.Src, u.Path.Span), enc), NewText: rel})
		}
		eachRef(pf, func(r refSite) {
			if r.Ref.Kind != workflowlang.RefKnowledge {
				return
			}
			np, ok := renamed[r.Ref.Path]
			switch {
			case !ok:
			case np == "":
				broken = append(broken, fmt.Sprintf("%s: {{@%s}} names a file that leaves the knowledge folders (%s)", f.Path, r.Ref.Path, strings.Join(project.KnowledgeDirs, ", ")))
			default:
				edits = append(edits, protocol.TextEdit{Range: Range(pf, r.Ref.PathSpan, enc), NewText: np})
			}
		})
		if len(edits) > 0 {
			slices.SortFunc(edits, func(a, b protocol.TextEdit) int {
				if a.Range.Start.Line != b.Range.Start.Line {
					return int(a.Range.Start.Line) - int(b.Range.Start.Line)
				}
				return int(a.Range.Start.Character) - int(b.Range.Start.Character)
			})
			out[f.URI] = edits
		}
	}
	return out, broken
}

// TestMoveEditsAsReadingEveryWorkflow: for moves of knowledge files and
// folders, workflows and their folders, several at once, and moves that
// break references, MoveEdits (from the snapshot's index) gives the edits
// and the broken references that parsing every workflow gives, in every
// position encoding, on Chinese and astral text and paths; written as
// JSON without reflection, they are encoding/json's bytes; edits applied
// to the texts give the same result as the oracle's; and the workflows
// come in key order.
func TestMoveEditsAsReadingEveryWorkflow(t *testing.T) {
	root := t.TempDir()
	write := func(rel, s string) { projecttest.WriteFile(t, root, rel, s) }
	write("flowcabal.toml", "")
	write("entities/characters/林黛玉.md", "# 林黛玉\n")
	write("entities/characters/賈寶玉/content.md", "# 賈寶玉\n")
	write("meta/𝄞樂譜.md", "# 𝄞\n")
	write("manuscript/chapter-001/content.md", "第一回\n")
	write("manuscript/chapter-001-2/content.md", "又一回\n")
	// A reference after astral and Chinese text on its line, references
	// in use arguments and input defaults, two on one line, one at a
	// level, and one of a resource that does not exist.
	write("workflows/第一卷.flow", "input 背景 {\n  default = \"\"\"𝄞 {{@meta/𝄞樂譜}}\"\"\"\n}\n\n"+
		"use \"𝄞/乙.flow\" as 乙 {\n  角色 = \"\"\"{{@entities/characters/林黛玉:L0}}\"\"\"\n}\n\n"+
		"node 甲 {\n  user \"\"\"\n    𝄞𝄞 寶玉 {{@entities/characters/賈寶玉:L1}} 與 {{@entities/characters/林黛玉}} {{@manuscript/chapter-001}}\n"+
		"    {{@manuscript/chapter-001-2:L2}} {{@meta/無}} {{背景}} {{乙.乙}}\n  \"\"\"\n}\n")
	write("workflows/𝄞/乙.flow", "input 角色 {}\n\nuse \"../第一卷.flow\" as 卷\nuse \"丙/丁.flow\" as 丁\nuse \"nowhere.flow\" as 無\n\n"+
		"node 乙 {\n  user \"\"\"\n    {{角色}} {{@meta/𝄞樂譜:L1}}\n  \"\"\"\n}\n")
	write("workflows/𝄞/丙/丁.flow", "node 丁 {\n  user \"\"\"{{@entities/characters/賈寶玉}}\"\"\"\n}\n")
	write("workflows/戊.flow", "use \"𝄞/丙/丁.flow\" as 丁\n\nnode 戊 {\n  user \"\"\"{{丁.丁}} {{@manuscript/chapter-001}}\"\"\"\n}\n")

	ws, err := cache.NewWorkspace([]string{root}, workflowlang.UTF16)
	if err != nil {
		t.Fatal(err)
	}
	// One workflow open in the editor with text the disk does not have.
	open := cache.FileURI(filepath.Join(root, "workflows", "戊.flow"))
	ws.Open(open, "flow", 3, "𝄞\nuse \"𝄞/丙/丁.flow\" as 丁\n\nnode 戊 {\n  user \"\"\"{{丁.丁}} {{@manuscript/chapter-001}} {{@meta/𝄞樂譜}}\"\"\"\n}\n")
	snap := ws.Snapshot()
	abs := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }
	for _, tc := range []struct {
		name   string
		moves  [][2]string
		files  int // workflows edited
		broken int
	}{
		{"a knowledge file renamed", [][2]string{{"entities/characters/林黛玉.md", "entities/characters/黛玉.md"}}, 1, 0},
		{"a knowledge file moved into a folder", [][2]string{{"meta/𝄞樂譜.md", "meta/樂/𝄞.md"}}, 3, 0},
		{"a chapter folder", [][2]string{{"manuscript/chapter-001", "manuscript/第一回"}}, 2, 0},
		{"a knowledge folder with a file and a folder resource", [][2]string{{"entities/characters", "entities/人物"}}, 2, 0},
		{"a knowledge file leaving the knowledge folders", [][2]string{{"meta/𝄞樂譜.md", "notes/𝄞樂譜.md"}}, 0, 3},
		{"a workflow renamed", [][2]string{{"workflows/𝄞/乙.flow", "workflows/𝄞/乙二.flow"}}, 1, 0},
		{"a workflow moved to another folder", [][2]string{{"workflows/𝄞/乙.flow", "workflows/乙.flow"}}, 2, 0},
		{"a folder of workflows", [][2]string{{"workflows/𝄞", "workflows/𝄞𝄞"}}, 2, 0},
		{"a folder of workflows into a folder with a quote", [][2]string{{"workflows/𝄞", "workflows/a\"b"}}, 0, 2},
		{"two moves at once", [][2]string{{"workflows/𝄞/丙", "workflows/丙"}, {"entities/characters/賈寶玉", "entities/寶玉"}}, 4, 0},
		{"nothing names it", [][2]string{{"manuscript/chapter-002", "manuscript/chapter-003"}}, 0, 0},
	} {
		var moves []PathMove
		for _, m := range tc.moves {
			moves = append(moves, PathMove{Old: abs(m[0]), New: abs(m[1])})
		}
		edits, broken := MoveEdits(snap, moves)
		for i := 1; i < len(edits); i++ {
			if edits[i-1].File.Key >= edits[i].File.Key {
				t.Errorf("%s: workflows out of key order: %s, %s", tc.name, edits[i-1].File.Key, edits[i].File.Key)
			}
		}
		for _, enc := range []workflowlang.Encoding{workflowlang.UTF16, workflowlang.UTF8, workflowlang.UTF32} {
			want, wantBroken := readEveryWorkflow(snap, moves, enc)
			got := map[protocol.DocumentURI][]protocol.TextEdit{}
			if we := WorkspaceEdit(edits, Options{Encoding: enc}); we != nil {
				got = we.Changes
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s, encoding %v: edits\n%v\nreading every workflow:\n%v", tc.name, enc, got, want)
			}
			// What willRenameFiles sends: the edit written without
			// reflection is encoding/json's encoding of it.
			if fast, std := string(AppendWorkspaceEdit(nil, edits, Options{Encoding: enc})), stdJSON(t, WorkspaceEdit(edits, Options{Encoding: enc})); fast != std {
				t.Errorf("%s, encoding %v: written as\n%s\nencoding/json:\n%s", tc.name, enc, fast, std)
			}
			if !slices.Equal(broken, wantBroken) {
				t.Errorf("%s: broken %q, reading every workflow: %q", tc.name, broken, wantBroken)
			}
		}
		if len(edits) != tc.files || len(broken) != tc.broken {
			t.Errorf("%s: %d workflows edited, %d broken; want %d, %d", tc.name, len(edits), len(broken), tc.files, tc.broken)
		}
		// Apply makes the edits the ranges say.
		for _, fe := range edits {
			pf := workflowlang.Parse(fe.File.Path, fe.File.Src)
			var b []byte
			last := 0
			for _, te := range fe.TextEdits(workflowlang.UTF16) {
				start, _ := Offset(pf, te.Range.Start, workflowlang.UTF16)
				end, _ := Offset(pf, te.Range.End, workflowlang.UTF16)
				b = append(append(b, fe.File.Src[last:start]...), te.NewText...)
				last = end
			}
			if got := string(append(b, fe.File.Src[last:]...)); got != string(fe.Apply()) {
				t.Errorf("%s: Apply gives\n%s\nthe ranges give\n%s", tc.name, fe.Apply(), got)
			}
		}
	}
}

// TestMoveWrittenFromItsReferences: the usual rename's JSON, written
// straight from the index's references, is encoding/json's encoding of
// MoveEdits's workspace edit, in every position encoding, with Chinese
// and astral text before the references and several in one workflow;
// and where the workflows' URIs do not sort as their keys ("a.flow"
// before "第一卷.flow" by key, after its percent-escaped URI), the
// edits are made and sorted first, with the same result.
func TestMoveWrittenFromItsReferences(t *testing.T) {
	for _, tc := range []struct {
		name      string
		workflows []string
		direct    bool
	}{
		{"URIs in key order", []string{"workflows/a.flow", "workflows/b/c.flow", "workflows/d.flow"}, true},
		{"URIs out of key order", []string{"workflows/a.flow", "workflows/第一卷.flow", "workflows/𝄞.flow"}, false},
	} {
		root := t.TempDir()
		write := func(rel, s string) { projecttest.WriteFile(t, root, rel, s) }
		write("flowcabal.toml", "")
		write("entities/characters/林黛玉.md", "# 林黛玉\n")
		for i, w := range tc.workflows {
			write(w, fmt.Sprintf("node 甲%d {\n  user \"\"\"\n    𝄞😀 寫她 {{@entities/characters/林黛玉:L1}}\n    又 {{@entities/characters/林黛玉}} 與 {{@entities/characters/林黛玉:L0}}\n  \"\"\"\n}\n", i))
		}
		ws, err := cache.NewWorkspace([]string{root}, workflowlang.UTF16)
		if err != nil {
			t.Fatal(err)
		}
		snap := ws.Snapshot()
		old := filepath.Join(root, "entities", "characters", "林黛玉.md")
		moves := []PathMove{{Old: old, New: filepath.Join(root, "entities", "characters", "黛玉 \"顰兒\".md")}}
		m, broken := FindMove(snap, moves)
		if m.direct() != tc.direct || len(broken) > 0 {
			t.Errorf("%s: written from the references: %v, want %v (broken %q)", tc.name, m.direct(), tc.direct, broken)
		}
		edits, _ := MoveEdits(snap, moves)
		if len(edits) != len(tc.workflows) {
			t.Fatalf("%s: %d workflows edited, want %d", tc.name, len(edits), len(tc.workflows))
		}
		for _, enc := range []workflowlang.Encoding{workflowlang.UTF16, workflowlang.UTF8, workflowlang.UTF32} {
			o := Options{Encoding: enc}
			want := stdJSON(t, WorkspaceEdit(edits, o))
			if got := string(m.AppendJSON([]byte("x"), o)); got != "x"+want {
				t.Errorf("%s, %v:\n got %s\nwant x%s", tc.name, enc, got, want)
			}
			if size := m.JSONSize(); size < len(want)/2 {
				t.Errorf("%s: JSONSize %d for %d bytes", tc.name, size, len(want))
			}
		}
	}
}
