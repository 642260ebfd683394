package cache

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/internal/projecttest"
	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/protocol"
)

// dumpRefs writes an index as text: what each resource path is named by
// (file, the text at the site, its line and line start), the uses by
// target, the files by path. Two indexes of the same workspace dump the
// same.
func dumpRefs(s *Snapshot, x *refIndex) string {
	var b strings.Builder
	text := func(k Key, st *Site) string {
		f := s.files[k]
		if f == nil {
			return fmt.Sprintf("%s: FILE MISSING", k)
		}
		return fmt.Sprintf("%s %q line %d start %d", filepath.Base(f.Path), f.Src[st.Span.Start:st.Span.End], st.Line, st.LineStart)
	}
	paths := make([]string, 0, len(x.knowledge))
	for p := range x.knowledge {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		for _, is := range x.knowledge[p] {
			fmt.Fprintf(&b, "@%s <- %s #%d\n", p, text(is.key, is.site), is.ord)
		}
	}
	for _, is := range x.uses {
		fmt.Fprintf(&b, "use %s <- %s #%d\n", filepath.Base(x.sums[is.key].Uses[is.ord].Target), text(is.key, is.site), is.ord)
	}
	for _, p := range x.paths {
		fmt.Fprintf(&b, "file %s\n", filepath.Base(p.path))
	}
	return b.String()
}

// TestRefIndexFollowsTheWorkspace: the reverse index a snapshot derives
// from the last one built equals one built from scratch, and says what
// the workflows name, after each way a workflow changes: edited in the
// editor (several versions without a lookup between them), saved and
// closed, deleted, changed, created and deleted on disk behind the
// editor's back (watched files). Paths and texts are Chinese and astral,
// so that sites are byte offsets of multi-byte text.
func TestRefIndexFollowsTheWorkspace(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, s string) { projecttest.WriteFile(t, dir, rel, s) }
	write("flowcabal.toml", "")
	write("entities/characters/林黛玉.md", "# 林黛玉\n")
	write("meta/𝄞樂譜.md", "# 𝄞\n")
	write("workflows/第一卷.flow", "node 甲 {\n  user \"\"\"\n    𝄞 {{@entities/characters/林黛玉:L1}} 與 {{@meta/𝄞樂譜}}\n  \"\"\"\n}\n")
	write("workflows/𝄞/乙.flow", "use \"../第一卷.flow\" as 卷\n\nnode 乙 {\n  user \"\"\"\n    {{卷.甲}}\n  \"\"\"\n}\n")
	ws, err := NewWorkspace([]string{dir}, workflowlang.UTF16)
	if err != nil {
		t.Fatal(err)
	}
	first := FileURI(filepath.Join(dir, "workflows", "第一卷.flow"))
	second := FileURI(filepath.Join(dir, "workflows", "𝄞", "乙.flow"))
	third := FileURI(filepath.Join(dir, "workflows", "丙.flow"))

	// check compares the snapshot's index with one built from scratch
	// and with want, the lines the dump must hold (and not hold, with
	// a leading "!").
	check := func(step string, s *Snapshot, want ...string) {
		t.Helper()
		got := dumpRefs(s, s.refs())
		if scratch := dumpRefs(s, s.buildRefs()); got != scratch {
			t.Fatalf("%s: the derived index differs from one built afresh:\n%s\nafresh:\n%s", step, got, scratch)
		}
		for _, w := range want {
			if neg, ok := strings.CutPrefix(w, "!"); ok {
				if strings.Contains(got, neg) {
					t.Errorf("%s: index holds %q:\n%s", step, neg, got)
				}
			} else if !strings.Contains(got, w) {
				t.Errorf("%s: index lacks %q:\n%s", step, w, got)
			}
		}
	}
	s := ws.Snapshot()
	check("start", s,
		`@entities/characters/林黛玉 <- 第一卷.flow "entities/characters/林黛玉" line 2 start 22 #0`,
		`@meta/𝄞樂譜 <- 第一卷.flow "meta/𝄞樂譜" line 2 start 22 #1`,
		`use 第一卷.flow <- 乙.flow "../第一卷.flow" line 0 start 0 #0`,
		"file 第一卷.flow\nfile 乙.flow\n")
	if refs := s.KnowledgeRefs("entities/characters/林黛玉"); len(refs) != 1 || refs[0].File.URI != first {
		t.Errorf("KnowledgeRefs: %+v", refs)
	}

	// Edited in the editor: three versions, the index asked for after the
	// last only (derived with the changes of all three).
	ws.Open(second, "flow", 1, "use \"../第一卷.flow\" as 卷\n")
	ws.Change(second, 2, []Change{{Text: "𝄞\nuse \"../第一卷.flow\" as 卷\nnode 乙 {\n  user \"\"\"\n    {{@entities/characters/林黛玉}}\n  \"\"\"\n}\n"}})
	s, _, _ = ws.Change(second, 3, []Change{{Range: rng(0, 0, 0, 2), Text: "# 乙"}})
	check("edited", s,
		`@entities/characters/林黛玉 <- 第一卷.flow`,
		`@entities/characters/林黛玉 <- 乙.flow "entities/characters/林黛玉" line 4 start 59 #0`,
		`use 第一卷.flow <- 乙.flow "../第一卷.flow" line 1 start 6 #0`)
	if refs := s.KnowledgeRefs("entities/characters/林黛玉"); len(refs) != 2 || refs[1].File.URI != second || refs[1].File.Version != 3 {
		t.Errorf("KnowledgeRefs after the edit: %+v", refs)
	}

	// Saved (the disk now has the editor's text) and closed.
	f, _ := s.File(second)
	write("workflows/𝄞/乙.flow", string(f.Src))
	ws.FilesChanged([]*protocol.FileEvent{{URI: second, Type: protocol.FileChangeTypeChanged}})
	s, _ = ws.Close(second)
	check("saved and closed", s, `@entities/characters/林黛玉 <- 乙.flow "entities/characters/林黛玉" line 4 start 59 #0`)

	// Changed on disk behind the editor's back: the reference leaves.
	write("workflows/第一卷.flow", "node 甲 {\n  user \"\"\"\n    {{@meta/𝄞樂譜:L0}}\n  \"\"\"\n}\n")
	s, _ = ws.FilesChanged([]*protocol.FileEvent{{URI: first, Type: protocol.FileChangeTypeChanged}})
	check("changed on disk", s,
		"!@entities/characters/林黛玉 <- 第一卷.flow",
		`@meta/𝄞樂譜 <- 第一卷.flow "meta/𝄞樂譜" line 2 start 22 #0`)

	// Created on disk, then a workflow deleted.
	write("workflows/丙.flow", "use \"𝄞/乙.flow\" as 乙\n")
	s, _ = ws.FilesChanged([]*protocol.FileEvent{{URI: third, Type: protocol.FileChangeTypeCreated}})
	check("created", s, `use 乙.flow <- 丙.flow "𝄞/乙.flow" line 0 start 0 #0`, "file 丙.flow\n")
	os.Remove(filepath.Join(dir, "workflows", "𝄞", "乙.flow"))
	s, _ = ws.FilesChanged([]*protocol.FileEvent{{URI: second, Type: protocol.FileChangeTypeDeleted}})
	check("deleted", s,
		"!<- 乙.flow", "!file 乙.flow",
		`use 乙.flow <- 丙.flow "𝄞/乙.flow"`) // a use of a missing file is still where a path points
	if fs := s.FilesUnder(filepath.Join(dir, "workflows", "𝄞")); len(fs) != 0 {
		t.Errorf("FilesUnder a folder whose workflow was deleted: %d files", len(fs))
	}

	// Two workflows changed, one in the editor and one on disk, before
	// the index is asked for again: it is derived with both changes.
	ws.Open(first, "flow", 1, "node 甲 {\n  user \"\"\"{{@entities/characters/林黛玉}}\"\"\"\n}\n")
	write("workflows/丙.flow", "\n\nuse \"第一卷.flow\" as 一\n")
	s, _ = ws.FilesChanged([]*protocol.FileEvent{{URI: third, Type: protocol.FileChangeTypeChanged}})
	check("two changed", s,
		`@entities/characters/林黛玉 <- 第一卷.flow "entities/characters/林黛玉" line 1 start 11 #0`,
		`use 第一卷.flow <- 丙.flow "第一卷.flow" line 2 start 2 #0`,
		"!@meta", "!use 乙.flow")

	// Opened as an untitled document: not a file, not indexed.
	s, _, _ = ws.Open("untitled:Untitled-1", "flow", 1, "node x {\n  user \"\"\"{{@meta/𝄞樂譜}}\"\"\"\n}\n")
	check("untitled", s, "!<- Untitled-1")
}

// TestUnder: a folder holds what lies under it, and neither the file
// that merely begins with its name nor its namesake with an extension.
func TestUnder(t *testing.T) {
	sorted := []string{"/p/a", "/p/a-2/x", "/p/a.md", "/p/a/b.flow", "/p/a/c/d.md", "/p/ab", "/p/𝄞/第.flow"}
	slices.Sort(sorted)
	for _, tc := range []struct {
		p    string
		want []string
	}{
		{"/p/a", []string{"/p/a", "/p/a/b.flow", "/p/a/c/d.md"}},
		{"/p/a/", []string{"/p/a", "/p/a/b.flow", "/p/a/c/d.md"}},
		{"/p/a/c", []string{"/p/a/c/d.md"}},
		{"/p/a.md", []string{"/p/a.md"}},
		{"/p/𝄞", []string{"/p/𝄞/第.flow"}},
		{"/p/b", nil},
		{"/", sorted},
	} {
		var got []string
		eachUnder(len(sorted), func(i int) string { return sorted[i] }, tc.p, func(i int) { got = append(got, sorted[i]) })
		if !slices.Equal(got, tc.want) {
			t.Errorf("under %s: %q, want %q", tc.p, got, tc.want)
		}
	}
}

// TestRefIndexWhileEditing: snapshots' indexes asked for from other
// goroutines while the editor keeps changing a workflow (as requests run
// beside didChange) each say what their own snapshot's texts name (run
// with -race: cells are built once, derived from cells being built).
func TestRefIndexWhileEditing(t *testing.T) {
	dir := t.TempDir()
	for i := range 5 {
		p := filepath.Join(dir, fmt.Sprintf("w%d.flow", i))
		if err := os.WriteFile(p, []byte(fmt.Sprintf("node n {\n  user \"\"\"{{@meta/第%d}}\"\"\"\n}\n", i)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := NewWorkspace([]string{dir}, workflowlang.UTF16)
	if err != nil {
		t.Fatal(err)
	}
	uri := FileURI(filepath.Join(dir, "w0.flow"))
	ws.Open(uri, "flow", 1, "")
	snaps := make(chan *Snapshot, 64)
	done := make(chan string)
	for range 4 {
		go func() {
			bad := ""
			for s := range snaps {
				f, _ := s.File(uri)
				// Version v names 𝄞v, once.
				want := fmt.Sprintf("meta/𝄞%d", f.Version)
				if refs := s.KnowledgeRefs(want); len(refs) != 1 || refs[0].File != f {
					bad = fmt.Sprintf("version %d: %d references to %s", f.Version, len(refs), want)
				}
				if got := len(s.KnowledgeRefs("meta/第3")); got != 1 {
					bad = fmt.Sprintf("version %d: %d references to meta/第3", f.Version, got)
				}
			}
			done <- bad
		}()
	}
	for v := int32(2); v < 200; v++ {
		s, _, err := ws.Change(uri, v, []Change{{Text: fmt.Sprintf("node n {\n  user \"\"\"𝄞 {{@meta/𝄞%d}}\"\"\"\n}\n", v)}})
		if err != nil {
			t.Fatal(err)
		}
		snaps <- s
		if v%7 == 0 {
			snaps <- s // asked twice: built once
		}
	}
	close(snaps)
	for range 4 {
		if bad := <-done; bad != "" {
			t.Error(bad)
		}
	}
}

// TestFileURIJSON: a file's URI as a JSON string decodes to its URI, for
// URIs as clients spell them: percent-escaped, raw Chinese and astral
// text, a quote and a backslash.
func TestFileURIJSON(t *testing.T) {
	for _, uri := range []protocol.DocumentURI{
		"file:///w/%E7%AC%AC%E4%B8%80%E5%8D%B7.flow", "file:///w/第一卷/𝄞.flow", `file:///w/q"uote\.flow`, "file:///w/a\tb.flow",
	} {
		f := newFile(uri, 1, true, nil)
		var back string
		if err := json.Unmarshal([]byte(f.URIJSON), &back); err != nil || back != string(uri) {
			t.Errorf("%q: URIJSON %s decodes to %q (%v)", uri, f.URIJSON, back, err)
		}
	}
}
