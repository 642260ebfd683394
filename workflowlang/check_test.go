package workflowlang

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"testing"
)

// memEnv is an Env over in-memory files and resources.
func memEnv(files map[string]string, resources map[string]int) Env {
	var names []string
	for r := range resources {
		names = append(names, r)
	}
	slices.Sort(names)
	return Env{
		Load: func(from, use string) (*File, error) {
			p := path.Join(path.Dir(from), use)
			src, ok := files[p]
			if !ok {
				return nil, fmt.Errorf("load %s: %w", p, fs.ErrNotExist)
			}
			return Parse(p, []byte(src)), nil
		},
		Resource:  func(p string) bool { _, ok := resources[p]; return ok },
		Resources: func() []string { return names },
		Tokens: func(p, level string) (int, bool) {
			n, ok := resources[p]
			return n, ok
		},
		Models: []string{"fast"},
	}
}

func codes(ds []Diagnostic) string {
	var out []string
	for _, d := range ds {
		out = append(out, string(d.Code))
	}
	return strings.Join(out, ",")
}

func TestCheckRules(t *testing.T) {
	files := map[string]string{
		"w/act.flow":   "input goal\ninput tone { default = \"dark\" }\nnode plan { user \"{{goal}} {{tone}}\" }\n",
		"w/loop1.flow": "use \"loop2.flow\" as b\nnode x { user \"x\" }\n",
		"w/loop2.flow": "use \"loop1.flow\" as a\nnode y { user \"y\" }\n",
	}
	res := map[string]int{"meta/style-guide": 100, "entities/characters/lin": 5000}
	tests := []struct {
		name, src, want string
	}{
		{"clean", "node a { user \"x\" }\nnode b { user \"{{a}} {{@meta/style-guide:L1}}\" }\n", ""},
		{"unknown ref", "node alpha { user \"x\" }\nnode b { user \"{{alpah}}\" }\n", "unused-node,unknown-ref"},
		{"self", "node a { user \"{{a}}\" }\n", "self-ref"},
		{"cycle", "node a { user \"{{c}}\" }\nnode b { user \"{{a}}\" }\nnode c { user \"{{b}}\" }\n", "cycle"},
		{"dup node", "node a { user \"x\" }\nnode a { user \"y\" }\n", "unused-node,duplicate-node"},
		{"dup input", "input a\nnode a { user \"{{a}}\" }\n", "duplicate-node,self-ref"},
		{"dup attr", "node a { retries = 1\n retries = 2\n user \"x\" }\n", "duplicate-attr"},
		{"unknown attr", "node a { temprature = 1\n user \"x\" }\n", "unknown-attr"},
		{"attr types", "node a {\n temperature = 3\n max_tokens = 0\n context = maybe\n budget = 1.5\n checks = [\"spelling\"]\n retries = 11\n refine = 0\n candidates = 21\n generations = \"2\"\n select = robot\n model = gpt9\n user \"x\" }\n",
			strings.Repeat("attr-type,", 11)[:len(strings.Repeat("attr-type,", 11))-1]},
		{"model ok", "node a { model = fast\n user \"x\" }\n", ""},
		{"persist out", "node a { persist = \"../x\"\n user \"x\" }\n", "bad-path"},
		{"persist in workflow", "workflow { persist = \"x\" }\nnode a { user \"x\" }\n", "unknown-attr"},
		{"max_cost ok", "workflow { max_cost = 2.5 }\nnode a { user \"x\" }\n", ""},
		{"max_cost zero", "workflow { max_cost = 0 }\nnode a { user \"x\" }\n", "attr-type"},
		{"max_cost in node", "node a { max_cost = 1\n user \"x\" }\n", "unknown-attr"},
		{"dup header", "workflow \"a\" { }\nworkflow \"b\" { }\nnode a { user \"x\" }\n", "duplicate-workflow"},
		{"missing knowledge", "node a { user \"{{@meta/style-guid}}\" }\n", "missing-knowledge"},
		{"bad knowledge path", "node a { user \"{{@../secret}} {{@/etc/passwd}}\" }\n", "bad-path,bad-path"},
		{"use ok", "use \"act.flow\" as act { goal = \"g\" }\nnode a { user \"{{act.plan}}\" }\n", ""},
		{"use unknown node", "use \"act.flow\" as act { goal = \"g\" }\nnode a { user \"{{act.plna}}\" }\n", "unknown-use-node"},
		{"unknown alias", "node a { user \"{{act.plan}}\" }\n", "unknown-alias"},
		{"missing use", "use \"nope.flow\" as n\nnode a { user \"x\" }\n", "missing-use"},
		{"use outside", "use \"../../x.flow\" as n\nnode a { user \"x\" }\n", "bad-path"},
		{"use cycle", "use \"loop1.flow\" as l\nnode a { user \"x\" }\n", "use-cycle"},
		{"use self", "use \"main.flow\" as l\nnode a { user \"x\" }\n", "use-cycle"},
		{"unknown input", "use \"act.flow\" as act { goal = \"g\"\n mood = \"m\" }\nnode a { user \"{{act.plan}}\" }\n", "unknown-input"},
		{"missing input", "use \"act.flow\" as act\nnode a { user \"{{act.plan}}\" }\n", "missing-input"},
		{"dup alias", "use \"act.flow\" as act { goal = \"g\" }\nuse \"act.flow\" as act { goal = \"g\" }\nnode a { user \"{{act.plan}}\" }\n", "duplicate-alias"},
		{"unused", "node a { user \"x\" }\nnode b { user \"y\" }\n", "unused-node"},
		{"persist not unused", "node a { persist = \"manuscript/a\"\n user \"x\" }\nnode b { user \"y\" }\n", ""},
		{"over budget", "node a { budget = 1000\n user \"{{@entities/characters/lin}} {{@meta/style-guide}}\" }\n", "over-budget"},
		{"over budget workflow", "workflow { budget = 5050 }\nnode a { user \"{{@entities/characters/lin}} {{@meta/style-guide}}\" }\n", "over-budget"},
		{"empty", "node a { }\n", "empty-node"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Parse("w/main.flow", []byte(tt.src))
			r := Check(f, memEnv(files, res))
			if got := codes(r.Diagnostics); got != tt.want {
				t.Errorf("codes %q, want %q", got, tt.want)
				for _, d := range r.Diagnostics {
					t.Logf("  %v %s: %s", d.Span, d.Code, d.Message)
				}
			}
		})
	}
}

func TestCheckSuggestionsAndCycles(t *testing.T) {
	src := "node outline { user \"x\" }\nnode outlines { user \"x\" }\nnode b { user \"{{outlin}}\" }\n" +
		"node p { user \"{{r}}\" }\nnode q { user \"{{p}}\" }\nnode r { user \"{{q}}\" }\n"
	r := Check(Parse("m.flow", []byte(src)), Env{})
	var unk, cyc *Diagnostic
	for i, d := range r.Diagnostics {
		switch d.Code {
		case CodeUnknownRef:
			unk = &r.Diagnostics[i]
		case CodeCycle:
			cyc = &r.Diagnostics[i]
		}
	}
	if unk == nil || strings.Join(unk.Suggestions, ",") != "outline,outlines" || !strings.Contains(unk.Message, "did you mean outline, outlines?") {
		t.Errorf("unknown ref: %+v", unk)
	}
	if cyc == nil || !strings.Contains(cyc.Message, "p → q → r → p") || len(cyc.Related) != 3 {
		t.Fatalf("cycle: %+v", cyc)
	}
	if got := string(r.File.Src[cyc.Span.Start:cyc.Span.End]); got != "{{r}}" {
		t.Errorf("cycle reported at %q", got)
	}
}

func TestCheckOrderAndLevels(t *testing.T) {
	src := `node c { user "{{a}} {{b}}" }
node b { user "{{a}}" }
node a { user "root" }
node d { user "{{a}}" }
node e { user "{{c}} {{d}}" }
`
	r := Check(Parse("m.flow", []byte(src)), Env{})
	if got := strings.Join(r.Order, ","); got != "a,b,c,d,e" {
		t.Errorf("order %s", got)
	}
	var lv []string
	for _, l := range r.Levels {
		lv = append(lv, strings.Join(l, " "))
	}
	if got := strings.Join(lv, " | "); got != "a | b d | c | e" {
		t.Errorf("levels %s", got)
	}
	if len(r.Edges) != 6 || r.Edges[0].From != "a" || r.Edges[0].To != "c" {
		t.Errorf("edges %+v", r.Edges)
	}
}
