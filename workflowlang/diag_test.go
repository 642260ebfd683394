package workflowlang

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var diagDir = filepath.Join("..", "testdata", "diagnostics")

// diskEnv loads used files from testdata/diagnostics and knows a fixed set
// of resources with token counts.
func diskEnv() Env {
	res := map[string]int{"meta/style-guide": 1000, "entities/characters/lin": 5500, "profiles/characters/lin": 300}
	var names []string
	for r := range res {
		names = append(names, r)
	}
	slices.Sort(names)
	return Env{
		Load: func(from, use string) (*File, error) {
			p := path.Join(path.Dir(from), use)
			src, err := os.ReadFile(filepath.Join(diagDir, filepath.FromSlash(p)))
			if err != nil {
				return nil, fmt.Errorf("load %s: %w", use, err)
			}
			return Parse(p, src), nil
		},
		Resource:  func(p string) bool { _, ok := res[p]; return ok },
		Resources: func() []string { return names },
		Tokens: func(p, level string) (int, bool) {
			n, ok := res[p]
			return n, ok
		},
		Models: []string{"fast"},
	}
}

// render prints diagnostics as `flowcabal check` does, with related
// locations indented below.
func render(f *File, ds []Diagnostic) string {
	var b strings.Builder
	m := f.Mapper()
	for _, d := range ds {
		p := m.Position(d.Span.Start, UTF8)
		fmt.Fprintf(&b, "%s:%d:%d: %s: %s [%s]\n", f.Path, p.Line+1, p.Col+1, d.Severity, d.Message, d.Code)
		for _, r := range d.Related {
			q := m.Position(r.Span.Start, UTF8)
			fmt.Fprintf(&b, "\t%s:%d:%d: %s\n", f.Path, q.Line+1, q.Col+1, r.Message)
		}
	}
	return b.String()
}

var allCodes = []Code{CodeSyntax, CodeInvalidUTF8, CodeUnknownRef, CodeUnknownAlias, CodeUnknownUseNode, CodeSelfRef,
	CodeCycle, CodeDuplicateNode, CodeDuplicateAttr, CodeDuplicateAlias, CodeDuplicateHeader, CodeUnknownAttr,
	CodeAttrType, CodeMissingKnowledge, CodeBadPath, CodeMissingUse, CodeUseCycle, CodeUnknownInput,
	CodeMissingInput, CodeUnusedNode, CodeOverBudget, CodeEmptyNode, CodeTooLarge}

func TestDiagnosticsGolden(t *testing.T) {
	for _, code := range allCodes {
		t.Run(string(code), func(t *testing.T) {
			name := string(code) + ".flow"
			src, err := os.ReadFile(filepath.Join(diagDir, name))
			if err != nil {
				t.Fatalf("every code needs an example: %v", err)
			}
			f := Parse(name, src)
			res := Check(f, diskEnv())
			if !slices.ContainsFunc(res.Diagnostics, func(d Diagnostic) bool { return d.Code == code }) {
				t.Errorf("%s does not produce %s", name, code)
			}
			checkSpans(t, f)
			got := render(f, res.Diagnostics)
			golden := filepath.Join(diagDir, string(code)+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("diagnostics differ\n--- got\n%s--- want\n%s", got, want)
			}
		})
	}
	// No stray examples for codes that do not exist.
	entries, err := os.ReadDir(diagDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if c, ok := strings.CutSuffix(e.Name(), ".flow"); ok && !slices.Contains(allCodes, Code(c)) {
			t.Errorf("%s names no diagnostic code", e.Name())
		}
	}
	_ = fs.ErrNotExist
}
