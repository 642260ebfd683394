package source

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/lsptest"
	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/protocol"
)

// crossFiles is a project whose files reference each other through uses,
// with Chinese and astral names: every file is closed unless a test opens
// it, so the features work from summaries and trees parsed on demand.
var crossFiles = map[string]string{
	"meta/style.md": "# Style\n\nShort.\n",
	"workflows/act.flow": "input goal \"the aim\"\n\n" +
		"node plan \"计划𠀀\" {\n  user \"\"\"\n    Plan {{goal}} with {{@meta/style}}.\n  \"\"\"\n}\n\n" +
		"node 结局 {\n  user \"\"\"\n    End: {{plan}}\n  \"\"\"\n}\n",
	"workflows/book.flow": "use \"act.flow\" as act {\n  goal = \"\"\"\n    𠀀 {{@meta/style}}\n  \"\"\"\n}\n\n" +
		"node review {\n  user \"\"\"\n    𠀀 {{act.plan}}, {{act.结局}}\n  \"\"\"\n}\n",
	"workflows/other.flow": "use \"act.flow\" as a2 { goal = \"x\" }\n\n" +
		"node 𠀀x {\n  user \"\"\"\n    {{a2.plan}}\n  \"\"\"\n}\n",
	"workflows/unrelated.flow": "use \"book.flow\" as book\n\n" +
		"node plan {\n  user \"\"\"\n    {{book.review}} {{@meta/other}}\n  \"\"\"\n}\n",
	"workflows/sub/nested.flow": "use \"../act.flow\" as act { goal = \"y\" }\n\n" +
		"node n {\n  user \"\"\"\n    {{act.plan}} and {{act.plan}}\n  \"\"\"\n}\n",
}

func crossWorkspace(t *testing.T) (string, *cache.Workspace) {
	t.Helper()
	dir := t.TempDir()
	for rel, s := range crossFiles {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "flowcabal.toml"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := cache.NewWorkspace([]string{dir}, workflowlang.UTF16)
	if err != nil {
		t.Fatal(err)
	}
	return dir, ws
}

// site is where marker's nth occurrence (from 0) in rel covers part,
// as "rel:line:col-line:col" in UTF-16.
func site(rel, marker string, nth int, part string) string {
	text := crossFiles[rel]
	i := -1
	for range nth + 1 {
		j := strings.Index(text[i+1:], marker)
		if j < 0 {
			panic(rel + ": no " + marker)
		}
		i += 1 + j
	}
	i += strings.Index(marker, part)
	return fmt.Sprintf("%s:%v-%v", rel, lsptest.Position(text, i, false), lsptest.Position(text, i+len(part), false))
}

func sites(dir string, locs []protocol.Location) []string {
	var out []string
	for _, l := range locs {
		p, _ := cache.URIPath(l.URI)
		rel, _ := filepath.Rel(dir, p)
		out = append(out, fmt.Sprintf("%s:%v-%v", filepath.ToSlash(rel), l.Range.Start, l.Range.End))
	}
	slices.Sort(out)
	return out
}

// TestReferencesAcrossClosedFiles: references find every site in every
// file, whether the files are open or not, and only those.
func TestReferencesAcrossClosedFiles(t *testing.T) {
	for _, tc := range []struct {
		name     string
		open     string // a file to open first, or none
		file     string
		marker   string
		delta    int
		want     []string
		wantDecl string
	}{
		{name: "node used from three files", file: "workflows/act.flow", marker: "node plan", delta: 6,
			wantDecl: site("workflows/act.flow", "node plan", 0, "plan"),
			want: []string{
				site("workflows/act.flow", "{{plan}}", 0, "{{plan}}"),
				site("workflows/book.flow", "{{act.plan}}", 0, "{{act.plan}}"),
				site("workflows/other.flow", "{{a2.plan}}", 0, "{{a2.plan}}"),
				site("workflows/sub/nested.flow", "{{act.plan}}", 0, "{{act.plan}}"),
				site("workflows/sub/nested.flow", "{{act.plan}}", 1, "{{act.plan}}"),
			}},
		{name: "same from an open user", open: "workflows/book.flow", file: "workflows/book.flow", marker: "{{act.plan}}", delta: 7,
			wantDecl: site("workflows/act.flow", "node plan", 0, "plan"),
			want: []string{
				site("workflows/act.flow", "{{plan}}", 0, "{{plan}}"),
				site("workflows/book.flow", "{{act.plan}}", 0, "{{act.plan}}"),
				site("workflows/other.flow", "{{a2.plan}}", 0, "{{a2.plan}}"),
				site("workflows/sub/nested.flow", "{{act.plan}}", 0, "{{act.plan}}"),
				site("workflows/sub/nested.flow", "{{act.plan}}", 1, "{{act.plan}}"),
			}},
		{name: "input filled by arguments", file: "workflows/act.flow", marker: "input goal", delta: 7,
			wantDecl: site("workflows/act.flow", "input goal", 0, "goal"),
			want: []string{
				site("workflows/act.flow", "{{goal}}", 0, "{{goal}}"),
				site("workflows/book.flow", "goal =", 0, "goal"),
				site("workflows/other.flow", "goal =", 0, "goal"),
				site("workflows/sub/nested.flow", "goal =", 0, "goal"),
			}},
		{name: "knowledge", file: "workflows/book.flow", marker: "{{@meta/style}}", delta: 5,
			want: []string{
				site("workflows/act.flow", "{{@meta/style}}", 0, "{{@meta/style}}"),
				site("workflows/book.flow", "{{@meta/style}}", 0, "{{@meta/style}}"),
			}},
		{name: "node of the unrelated file", file: "workflows/unrelated.flow", marker: "node plan", delta: 6,
			wantDecl: site("workflows/unrelated.flow", "node plan", 0, "plan")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, ws := crossWorkspace(t)
			snap := ws.Snapshot()
			if tc.open != "" {
				snap, _, _ = ws.Open(cache.FileURI(filepath.Join(dir, tc.open)), "flow", 1, crossFiles[tc.open])
			}
			f, ok := snap.FileByPath(filepath.Join(dir, filepath.FromSlash(tc.file)))
			if !ok {
				t.Fatal("no file")
			}
			text := crossFiles[tc.file]
			p := lsptest.Position(text, strings.Index(text, tc.marker)+tc.delta, false)
			locs, err := References(snap, f, p, tc.wantDecl != "", Options{Encoding: workflowlang.UTF16})
			if err != nil {
				t.Fatal(err)
			}
			want := append([]string(nil), tc.want...)
			if tc.wantDecl != "" {
				want = append(want, tc.wantDecl)
			}
			slices.Sort(want)
			if got := sites(dir, locs); !slices.Equal(got, want) {
				t.Errorf("references:\n got %q\nwant %q", got, want)
			}
		})
	}
}

// TestRenameAcrossClosedFiles renames a node used in closed files.
func TestRenameAcrossClosedFiles(t *testing.T) {
	dir, ws := crossWorkspace(t)
	snap := ws.Snapshot()
	f, _ := snap.FileByPath(filepath.Join(dir, "workflows", "act.flow"))
	text := crossFiles["workflows/act.flow"]
	e, err := Rename(snap, f, lsptest.Position(text, strings.Index(text, "node plan")+6, false), "outline", Options{Encoding: workflowlang.UTF16})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for uri, edits := range e.Changes {
		for _, ed := range edits {
			if ed.NewText != "outline" {
				t.Errorf("edit %+v", ed)
			}
			got = append(got, sites(dir, []protocol.Location{{URI: uri, Range: ed.Range}})...)
		}
	}
	slices.Sort(got)
	want := []string{
		site("workflows/act.flow", "node plan", 0, "plan"),
		site("workflows/act.flow", "{{plan}}", 0, "plan"),
		site("workflows/book.flow", "{{act.plan}}", 0, "plan"),
		site("workflows/other.flow", "{{a2.plan}}", 0, "plan"),
		site("workflows/sub/nested.flow", "{{act.plan}}", 0, "plan"),
		site("workflows/sub/nested.flow", "{{act.plan}}", 1, "plan"),
	}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("rename:\n got %q\nwant %q", got, want)
	}
}

// TestWorkspaceSymbolsFromSummaries: nodes of every file, closed or open,
// with UTF-16 ranges after astral characters.
func TestWorkspaceSymbolsFromSummaries(t *testing.T) {
	dir, ws := crossWorkspace(t)
	snap, _, _ := ws.Open(cache.FileURI(filepath.Join(dir, "workflows", "other.flow")), "flow", 1, crossFiles["workflows/other.flow"])
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"plan", []string{site("workflows/act.flow", "node plan", 0, "plan"), site("workflows/unrelated.flow", "node plan", 0, "plan")}},
		{"计划", []string{site("workflows/act.flow", "node plan", 0, "plan")}}, // by title
		{"𠀀X", []string{site("workflows/other.flow", "node 𠀀x", 0, "𠀀x")}},
		{"结局", []string{site("workflows/act.flow", "node 结局", 0, "结局")}},
	} {
		var locs []protocol.Location
		for _, s := range WorkspaceSymbols(snap, tc.query, Options{Encoding: workflowlang.UTF16}) {
			if s.Kind == protocol.SymbolKindFunction {
				locs = append(locs, s.Location)
			}
		}
		want := slices.Sorted(slices.Values(tc.want))
		if got := sites(dir, locs); !slices.Equal(got, want) {
			t.Errorf("%q:\n got %q\nwant %q", tc.query, got, want)
		}
	}
}
