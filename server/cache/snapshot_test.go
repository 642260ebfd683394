package cache

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"testing"

	"github.com/flowcabal/flowcabal/workflowlang"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for rel, s := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestCheckWithSkeletons: a file's check, which loads the files it uses
// indirectly as skeletons, reports exactly what a check with every file
// parsed whole reports, use cycles deep in the chain included.
func TestCheckWithSkeletons(t *testing.T) {
	for _, tc := range []struct {
		name  string
		codes []workflowlang.Code // of a.flow, besides unused-node hints
		files map[string]string
	}{
		{"cycle below", []workflowlang.Code{workflowlang.CodeUseCycle}, map[string]string{
			"a.flow": "use \"b.flow\" as b\nnode x { user \"\"\"{{b.y}}\"\"\" }\n",
			"b.flow": "use \"c.flow\" as c\nnode y { user \"\"\"{{c.z}}\"\"\" }\n",
			"c.flow": "use \"b.flow\" as b\nnode z { user \"\"\"{{b.y}}\"\"\" }\n",
		}},
		{"diamond", []workflowlang.Code{workflowlang.CodeMissingInput, workflowlang.CodeUnknownUseNode}, map[string]string{
			"a.flow":     "use \"b.flow\" as b\nuse \"sub/c.flow\" as c\nnode x { user \"\"\"{{b.y}} {{c.z}} {{c.w}}\"\"\" }\n",
			"b.flow":     "use \"sub/c.flow\" as c\nnode y { user \"\"\"{{c.z}}\"\"\" }\n",
			"sub/c.flow": "use \"../d.flow\" as d\ninput goal \"g\"\nnode z { user \"\"\"{{goal}} {{d.q}}\"\"\" }\n",
			"d.flow":     "node q { user \"\"\"q\"\"\" }\n",
		}},
		{"missing and self", []workflowlang.Code{workflowlang.CodeUseCycle}, map[string]string{
			"a.flow": "use \"b.flow\" as b { goal = \"x\" }\nnode x { user \"\"\"{{b.y}}\"\"\" }\n",
			"b.flow": "use \"gone.flow\" as g\nuse \"b.flow\" as me\ninput goal \"g\"\nnode y { user \"\"\"{{g.x}}\"\"\" }\n",
		}},
		{"long chain", []workflowlang.Code{workflowlang.CodeUseCycle}, map[string]string{
			"a.flow": "use \"b.flow\" as b\nnode x { user \"\"\"{{b.y}}\"\"\" }\n",
			"b.flow": "use \"c.flow\" as c\nnode y { user \"\"\"{{c.y}}\"\"\" }\n",
			"c.flow": "use \"d.flow\" as d\nnode y { user \"\"\"{{d.y}}\"\"\" }\n",
			"d.flow": "use \"a.flow\" as a\nnode y { user \"\"\"{{a.x}}\"\"\" }\n",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeFiles(t, tc.files)
			ws, err := NewWorkspace([]string{dir}, workflowlang.UTF16)
			if err != nil {
				t.Fatal(err)
			}
			s := ws.Snapshot()
			a, _ := s.FileByPath(filepath.Join(dir, "a.flow"))
			src := string(a.Src)
			s, _, _ = ws.Open(a.URI, "flow", 1, src) // one open, the rest closed
			var codes []workflowlang.Code
			for _, d := range s.Check(a).Diagnostics {
				if d.Code != workflowlang.CodeUnusedNode {
					codes = append(codes, d.Code)
				}
			}
			slices.Sort(codes)
			if !slices.Equal(codes, tc.codes) {
				t.Errorf("a.flow: %v, want %v", codes, tc.codes)
			}
			for _, f := range s.Files() {
				got := s.Check(f)
				want := workflowlang.Check(workflowlang.Parse(f.name(), f.Src), s.Env())
				if !reflect.DeepEqual(got.Diagnostics, want.Diagnostics) {
					t.Errorf("%s:\n got %+v\nwant %+v", f.Path, got.Diagnostics, want.Diagnostics)
				}
				for alias, uf := range got.Uses {
					if w := want.Uses[alias]; (uf == nil) != (w == nil) || uf != nil && len(uf.Nodes) != len(w.Nodes) {
						t.Errorf("%s: use %s is not the whole file", f.Path, alias)
					}
				}
			}
		})
	}
}

// TestDependentsThroughSkeletons: an edit to the last file of a chain of
// uses re-checks the file that uses it directly; the files above, which
// read it only as a skeleton, are re-checked when its uses change (a use
// cycle appears), and keep their checks otherwise. Whichever checks are
// kept report what a fresh check of every file reports.
func TestDependentsThroughSkeletons(t *testing.T) {
	dir := chainWorkspace(t, 8, 5)
	ws, err := NewWorkspace([]string{dir}, workflowlang.UTF16)
	if err != nil {
		t.Fatal(err)
	}
	s := ws.Snapshot()
	for _, f := range s.Files() {
		s.Check(f)
	}
	f0, _ := s.File(flowURI(dir, 0))
	if deps := s.Dependents(map[string]bool{f0.Path: true}); len(deps) != 7 {
		t.Errorf("dependents of flow-00: %d files, want 7", len(deps))
	}
	keys := func(flows ...int) []Key {
		var out []Key
		for _, i := range flows {
			out = append(out, KeyOf(flowURI(dir, i)))
		}
		slices.Sort(out)
		return out
	}
	for i, tc := range []struct {
		name  string
		text  string
		dirty []Key
	}{
		{"a new node", string(f0.Src) + "node extra { user \"\"\"x\"\"\" }\n", keys(0, 1)},
		{"a use that closes a cycle", "use \"flow-05.flow\" as up\n" + string(f0.Src), keys(0, 1, 2, 3, 4, 5, 6, 7)},
		{"the cycle moved down the file", string(f0.Src) + "\nuse \"flow-05.flow\" as up\n", keys(0, 1)},
		{"no use", string(f0.Src), keys(0, 1, 2, 3, 4, 5, 6, 7)},
	} {
		var dirty []Key
		s, dirty, _ = ws.Open(f0.URI, "flow", int32(i+1), tc.text)
		if !slices.Equal(dirty, tc.dirty) {
			t.Errorf("%s: dirty %v, want %v", tc.name, dirty, tc.dirty)
		}
		for _, f := range s.Files() {
			got := s.Check(f)
			want := workflowlang.Check(workflowlang.Parse(f.name(), f.Src), s.Env())
			if !reflect.DeepEqual(got.Diagnostics, want.Diagnostics) {
				t.Errorf("%s: %s:\n got %+v\nwant %+v", tc.name, f.Path, got.Diagnostics, want.Diagnostics)
			}
		}
	}
}

// TestSummary lists declarations, uses and cross-file references.
func TestSummary(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"a.flow": "use \"b.flow\" as b { goal = \"\"\"{{@meta/x:L1}}\"\"\" }\n" +
			"input topic \"t\" { default = \"\"\"{{b.y}}\"\"\" }\n" +
			"node 第一 \"标题𠀀\" { user \"\"\"{{b.z}} {{第二}} {{@meta/y}}\"\"\" }\n" +
			"node 第二 { user \"\"\"{{b.z}}\"\"\" }\n",
	})
	ws, _ := NewWorkspace([]string{dir}, workflowlang.UTF16)
	s := ws.Snapshot()
	f, _ := s.FileByPath(filepath.Join(dir, "a.flow"))
	sum := s.Summary(f)
	if len(sum.Nodes) != 2 || sum.Nodes[0].Name != "第一" || sum.Nodes[0].Title != "标题𠀀" || sum.Nodes[1].Title != "" {
		t.Errorf("nodes: %+v", sum.Nodes)
	}
	if n := sum.Nodes[0]; string(f.Src[n.NameSpan.Start:n.NameSpan.End]) != "第一" || f.Src[n.Span.Start] != 'n' {
		t.Errorf("spans: %+v", n)
	}
	if len(sum.Uses) != 1 || sum.Uses[0].Path != "b.flow" || sum.Uses[0].Alias != "b" || !slices.Equal(sum.Uses[0].Args, []string{"goal"}) {
		t.Errorf("uses: %+v", sum.Uses)
	}
	for _, tc := range []struct {
		alias, node string
		want        bool
	}{{"b", "y", true}, {"b", "z", true}, {"b", "第二", false}, {"c", "y", false}} {
		if got := sum.References(tc.alias, tc.node); got != tc.want {
			t.Errorf("References(%s, %s) = %v", tc.alias, tc.node, got)
		}
	}
	for _, tc := range []struct {
		path string
		want bool
	}{{"meta/x", true}, {"meta/y", true}, {"meta/z", false}} {
		if got := sum.ReferencesKnowledge(tc.path); got != tc.want {
			t.Errorf("ReferencesKnowledge(%s) = %v", tc.path, got)
		}
	}
}

// TestConcurrentReaders: handlers read closed files' trees, checks and
// summaries from several goroutines while the editor types (run with
// -race); every reader sees complete results.
func TestConcurrentReaders(t *testing.T) {
	dir := chainWorkspace(t, 10, 30)
	ws, err := NewWorkspace([]string{dir}, workflowlang.UTF16)
	if err != nil {
		t.Fatal(err)
	}
	open := flowURI(dir, 9)
	src, _ := os.ReadFile(filepath.Join(dir, "workflows", "flow-09.flow"))
	ws.Open(open, "flow", 1, string(src))
	done := make(chan struct{})
	errs := make(chan string, 100)
	for g := range 4 {
		go func() {
			defer func() { done <- struct{}{} }()
			for i := range 30 {
				s := ws.Snapshot()
				files := s.Files()
				f := files[(g*7+i)%len(files)]
				if n := len(s.Parse(f).Nodes); n != 30 {
					errs <- fmt.Sprintf("%s: %d nodes", f.Path, n)
				}
				if n := len(s.Summary(f).Nodes); n != 30 {
					errs <- fmt.Sprintf("%s: summary of %d nodes", f.Path, n)
				}
				res := s.Check(f)
				if res.File == nil || len(res.Order) != 30 {
					errs <- fmt.Sprintf("%s: order of %d nodes", f.Path, len(res.Order))
				}
				runtime.GC() // let weak pointers go
			}
		}()
	}
	for v := int32(2); v < 20; v++ {
		if _, _, err := ws.Change(open, v, []Change{{Text: string(src)}}); err != nil {
			t.Fatal(err)
		}
	}
	for range 4 {
		<-done
	}
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}
