package workflowlang

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// flowFiles lists every .flow file under testdata (the seed corpus too).
func flowFiles(t testing.TB) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(filepath.Join("..", "testdata"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && strings.HasSuffix(p, ".flow") {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestFormatGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "format", "*.flow"))
	if len(files) == 0 {
		t.Fatal("no formatter inputs")
	}
	for _, in := range files {
		t.Run(filepath.Base(in), func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			got, err := Format(Parse(in, src))
			if err != nil {
				t.Fatal(err)
			}
			golden := strings.TrimSuffix(in, ".flow") + ".golden"
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("format mismatch\n--- got\n%s\n--- want\n%s", got, want)
			}
			assertFormatInvariants(t, in, src, got)
		})
	}
}

// assertFormatInvariants checks idempotence, kept comments and kept
// prompt text.
func assertFormatInvariants(t testing.TB, name string, src, out []byte) {
	t.Helper()
	f1 := Parse(name, src)
	f2 := Parse(name, out)
	if len(f2.Diagnostics) > 0 {
		t.Fatalf("formatted output has diagnostics: %+v\n%s", f2.Diagnostics, out)
	}
	again, err := Format(f2)
	if err != nil || !bytes.Equal(again, out) {
		t.Fatalf("not idempotent (err %v)\n--- first\n%s\n--- second\n%s", err, out, again)
	}
	if len(f1.Comments) != len(f2.Comments) {
		t.Errorf("comments %d -> %d", len(f1.Comments), len(f2.Comments))
	}
	for i := range min(len(f1.Comments), len(f2.Comments)) {
		// Trailing blanks go, except where the formatter keeps a value's
		// text as written (a comment inside a header's list: "A=[# ").
		if c1, c2 := f1.Comments[i].Text, f2.Comments[i].Text; strings.TrimRight(c1, " \t\r") != c2 && c1 != c2 {
			t.Errorf("comment %d: %q -> %q", i, f1.Comments[i].Text, f2.Comments[i].Text)
		}
	}
	if len(f1.Nodes) != len(f2.Nodes) {
		t.Fatalf("nodes %d -> %d", len(f1.Nodes), len(f2.Nodes))
	}
	for i, n := range f1.Nodes {
		m := f2.Nodes[i]
		if len(n.Prompts) != len(m.Prompts) {
			t.Fatalf("node %s prompts %d -> %d", n.Name.Name, len(n.Prompts), len(m.Prompts))
		}
		for j := range n.Prompts {
			if !sameBlocks(n.Prompts[j].Blocks, m.Prompts[j].Blocks) {
				t.Errorf("node %s prompt %d text changed:\n%q\n%q", n.Name.Name, j, texts(n.Prompts[j].Blocks), texts(m.Prompts[j].Blocks))
			}
		}
	}
}

func TestFormatAllTestdata(t *testing.T) {
	for _, p := range flowFiles(t) {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f := Parse(p, src)
		out, err := Format(f)
		if hasErrors(f.Diagnostics) {
			if err == nil {
				t.Errorf("%s: Format accepted a file with syntax errors", p)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		assertFormatInvariants(t, p, src, out)
	}
}

func hasErrors(ds []Diagnostic) bool {
	for _, d := range ds {
		if d.Severity == SeverityError {
			return true
		}
	}
	return false
}

func TestFormatTextFallbacks(t *testing.T) {
	tests := []struct{ src, want string }{
		// Every line starts with a space: the block layout cannot carry it.
		{"node a {\n  user \"\"\"  a\"\"\"\n}\n", "node a {\n  user \"  a\"\n}\n"},
		{"node a {\n  user \"x\\ny {{a}} \\{{\"\n}\n", "node a {\n  user \"x\\ny {{a}} \\{{\"\n}\n"},
		{"node a { user \"\"\"\"\"\" }\n", "node a {\n  user \"\"\"\n  \"\"\"\n}\n"},
		{"node a { user \"\"\"a\\\\{{b}}\"\"\" }\n", "node a {\n  user \"\"\"\n    a\\\\{{b}}\n  \"\"\"\n}\n"},
	}
	for _, tt := range tests {
		out, err := Format(Parse("t.flow", []byte(tt.src)))
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != tt.want {
			t.Errorf("Format(%q) =\n%q, want\n%q", tt.src, out, tt.want)
		}
		assertFormatInvariants(t, "t.flow", []byte(tt.src), out)
	}
}

func TestFormatRefusesSyntaxErrors(t *testing.T) {
	if _, err := Format(Parse("x.flow", []byte("node a { user \"\"\"x }\n"))); err == nil {
		t.Fatal("Format accepted an unterminated block")
	}
}
