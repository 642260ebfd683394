package workflowlang

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/internal/cputime"
)

func TestBadInput(t *testing.T) {
	tests := []struct {
		name string
		src  string
		code Code
		msg  string // a substring of the first diagnostic with code
		// nodes that must still be parsed
		nodes []string
	}{
		{"invalid utf8 outside", "node a { user \"x\" }\n\xff\xfe\nnode b { user \"{{a}}\" }\n", CodeInvalidUTF8, "invalid UTF-8 (2 bytes)", []string{"a", "b"}},
		{"invalid utf8 in prompt", "node a {\n user \"\"\"\n  caf\xe9 {{b}}\n \"\"\"\n}\nnode b { user \"x\" }\n", CodeInvalidUTF8, "invalid UTF-8", []string{"a", "b"}},
		{"invalid utf8 in name", "node a\xffb { user \"x\" }\nnode c { user \"y\" }\n", CodeInvalidUTF8, "invalid UTF-8", []string{"a", "c"}},
		{"NUL outside", "node a { user \"x\" }\n\x00\nnode b { user \"y\" }\n", CodeSyntax, "NUL byte", []string{"a", "b"}},
		{"NUL in text", "node a { user \"\"\"x\x00y\"\"\" }\nnode b { user \"y\" }\n", CodeSyntax, "NUL byte", []string{"a", "b"}},
		{"unterminated block", "node a {\n  user \"\"\"\n    never closed\n}\n\nnode b { user \"y\" }\n", CodeSyntax, `unterminated text block`, []string{"a", "b"}},
		{"unterminated string", "node a {\n  user \"never closed\n}\nnode b { user \"y\" }\n", CodeSyntax, "unterminated string", []string{"a", "b"}},
		{"unterminated body", "node a {\n  user \"x\"\n\nnode b { user \"y\" }\n", CodeSyntax, "missing '}'", []string{"a", "b"}},
		{"unterminated ref", "node a { user \"\"\"see {{b\"\"\" }\nnode b { user \"y\" }\n", CodeSyntax, "unterminated reference", []string{"a", "b"}},
		{"unterminated list", "node a {\n  checks = [\"world\"\n  user \"x\"\n}\n", CodeSyntax, "expected ',' or ']'", []string{"a"}},
		{"only garbage", "%%%% ]]] }}} ===", CodeSyntax, "expected node", nil},
		{"empty ref", "node a { user \"{{}} and {{ }}\" }\n", CodeSyntax, "empty reference", []string{"a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Parse("bad.flow", []byte(tt.src))
			checkSpans(t, f)
			res := Check(f, Env{})
			var found *Diagnostic
			for i, d := range res.Diagnostics {
				if d.Code == tt.code && strings.Contains(d.Message, tt.msg) {
					found = &res.Diagnostics[i]
					break
				}
			}
			if found == nil {
				t.Fatalf("want %s %q, got %+v", tt.code, tt.msg, res.Diagnostics)
			}
			var names []string
			for _, n := range f.Nodes {
				names = append(names, n.Name.Name)
			}
			if strings.Join(names, ",") != strings.Join(tt.nodes, ",") {
				t.Errorf("nodes %q, want %q", names, tt.nodes)
			}
			if _, err := Format(f); err == nil {
				t.Error("Format accepted a broken file")
			}
		})
	}
}

func TestHugeSingleLine(t *testing.T) {
	// A 10 MB prompt on one line, then a 10 MB line of garbage.
	text := strings.Repeat("长夜漫漫 long night ", 10<<20/24)
	src := "node a { user \"" + text + "\" }\nnode b { user \"{{a}}\" }\n" + strings.Repeat("x", 10<<20) + "\n"
	f := Parse("big.flow", []byte(src))
	if len(f.Nodes) != 2 || f.Nodes[0].Prompts[0].Blocks[0].(*TextBlock).Text != text {
		t.Fatalf("nodes %d", len(f.Nodes))
	}
	res := Check(f, Env{})
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != CodeSyntax {
		t.Fatalf("diagnostics %+v", res.Diagnostics)
	}
}

// genNodes generates a workflow of n nodes, each referencing up to two
// earlier nodes and a knowledge resource.
func genNodes(n int) []byte {
	var b bytes.Buffer
	b.WriteString("workflow \"generated\" {\n  budget = 24000\n}\n\n")
	for i := range n {
		fmt.Fprintf(&b, "# node %d\nnode n%d \"第%d章\" {\n  temperature = 0.7\n  checks = [\"continuity\", \"world\"]\n  user \"\"\"\n    Write part %d of the story, in the voice of {{@meta/style-guide:L1}}.\n", i, i, i, i)
		if i > 0 {
			fmt.Fprintf(&b, "    Continue from {{n%d}}", i-1)
			if i > 1 {
				fmt.Fprintf(&b, " and remember {{n%d}}", i/2)
			}
			b.WriteString(".\n")
		}
		b.WriteString("  \"\"\"\n}\n\n")
	}
	return b.Bytes()
}

func TestHundredThousandNodes(t *testing.T) {
	src := genNodes(100_000)
	f := Parse("big.flow", src)
	res := Check(f, Env{})
	if len(res.Diagnostics) != 0 || len(res.Order) != 100_000 || len(res.Levels) != 100_000 {
		t.Fatalf("diagnostics %d order %d levels %d", len(res.Diagnostics), len(res.Order), len(res.Levels))
	}
	if _, err := Format(f); err != nil {
		t.Fatal(err)
	}
}

func TestTooManyNodes(t *testing.T) {
	var b bytes.Buffer
	for i := range MaxNodes + 1 {
		fmt.Fprintf(&b, "node n%d {}\n", i)
	}
	f := Parse("huge.flow", b.Bytes())
	n := 0
	for _, d := range f.Diagnostics {
		if d.Code == CodeTooLarge {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d too-large diagnostics", n)
	}
}

func TestHugeCycleMessage(t *testing.T) {
	var b bytes.Buffer
	const n = 50_000
	for i := range n {
		fmt.Fprintf(&b, "node n%d { user \"{{n%d}}\" }\n", i, (i+1)%n)
	}
	res := Check(Parse("ring.flow", b.Bytes()), Env{})
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Code != CodeCycle {
		t.Fatalf("%d diagnostics", len(res.Diagnostics))
	}
	d := res.Diagnostics[0]
	if !strings.Contains(d.Message, fmt.Sprintf("%d more", n+1-maxCycleNames)) || len(d.Related) != maxCycleRelated || len(res.Order) != 0 {
		t.Errorf("message %q, %d related", d.Message[:100], len(d.Related))
	}
}

// TestLinearTime compares the (CPU) time of parse+check+format on inputs
// of two sizes: the ratio must stay near the size ratio (8), far below the
// 64 a quadratic algorithm would show.
func TestLinearTime(t *testing.T) {
	inputs := map[string]func(n int) []byte{
		"nodes": genNodes,
		"unknown refs": func(n int) []byte {
			var b bytes.Buffer
			for i := range n {
				fmt.Fprintf(&b, "node n%d { user \"{{m%d}} {{@x/y%d}}\" }\n", i, i, i)
			}
			return b.Bytes()
		},
		"syntax errors": func(n int) []byte {
			var b bytes.Buffer
			b.WriteString("node a {\n")
			for range n {
				b.WriteString("  $ = = \"\n  user \"\"\"{{\"\"\"\n")
			}
			return b.Bytes()
		},
		"one long prompt": func(n int) []byte {
			return []byte("node a {\n  user \"\"\"\n" + strings.Repeat("    line {{a}} \\{{ x\n", n) + "  \"\"\"\n}\n")
		},
		"unterminated": func(n int) []byte {
			return bytes.Repeat([]byte("node a { user \"\"\"x\n"), n)
		},
	}
	res := []string{"meta/style-guide"}
	env := Env{Resource: func(string) bool { return false }, Resources: func() []string { return res }}
	for name, gen := range inputs {
		t.Run(name, func(t *testing.T) {
			measure := func(n int) time.Duration {
				src := gen(n)
				best := time.Duration(1 << 62)
				for range 5 {
					runtime.GC()
					// CPU time of this process where available: other
					// processes on a shared machine do not count.
					start, cpu := time.Now(), cputime.Used()
					f := Parse("t.flow", src)
					Check(f, env)
					Format(f)
					took := time.Since(start)
					if c := cputime.Used() - cpu; cpu > 0 && c > 0 {
						took = c
					}
					best = min(best, took)
				}
				return best
			}
			small, large := measure(4_000), measure(32_000)
			ratio := float64(large) / float64(max(small, time.Microsecond))
			t.Logf("%s: 4k %v, 32k %v, ratio %.1f", name, small, large, ratio)
			if ratio > 24 {
				t.Errorf("time grows faster than linear: ratio %.1f for 8x the input", ratio)
			}
		})
	}
}
