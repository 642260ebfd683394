package workflowlang

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"testing"
	"unicode/utf8"
)

// FuzzEdits mutates the model of a parsed file and checks that the text
// edits produce a file that parses, without errors, back to that model.
func FuzzEdits(f *testing.F) {
	for _, p := range flowFiles(f) {
		src, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		for op := range uint8(8) {
			f.Add(src, op, uint8(1), "new text {{x}} \"\"\" \\{{ \n  indented")
		}
	}
	f.Add([]byte(modelSrc), uint8(3), uint8(0), "  leading spaces")
	f.Fuzz(func(t *testing.T, src []byte, op, idx uint8, text string) {
		if !utf8.ValidString(text) {
			return
		}
		file := Parse("f.flow", src)
		for _, d := range file.Diagnostics {
			if d.Severity == SeverityError {
				return
			}
		}
		if hasDuplicateNodes(file) {
			return
		}
		m := ToModel(Check(file, Env{}))
		m.Edges = nil
		n := len(m.Nodes)
		i := 0
		if n > 0 {
			i = int(idx) % n
		}
		switch op % 8 {
		case 0:
			if n == 0 {
				return
			}
			m.Nodes = append(m.Nodes[:i], m.Nodes[i+1:]...)
		case 1:
			if n == 0 {
				return
			}
			m.Nodes[i].Attrs["retries"] = float64(idx % 11)
		case 2:
			if n == 0 {
				return
			}
			m.Nodes[i].Prompts = []ModelPrompt{{Role: "user", Blocks: []ModelBlock{{Text: text}}}}
			if text == "" {
				m.Nodes[i].Prompts[0].Blocks = []ModelBlock{}
			}
		case 3:
			nn := ModelNode{Name: fmt.Sprintf("new_%d", idx), Attrs: map[string]any{"model": "agent"},
				Prompts: []ModelPrompt{{Role: "system", Blocks: []ModelBlock{{Text: text}, {Ref: "@meta/x:L1"}}}}}
			if text == "" {
				nn.Prompts[0].Blocks = nn.Prompts[0].Blocks[1:]
			}
			for _, old := range m.Nodes {
				if old.Name == nn.Name {
					return
				}
			}
			m.Nodes = append(m.Nodes[:min(i+1, n)], append([]ModelNode{nn}, m.Nodes[min(i+1, n):]...)...)
		case 4:
			if m.Workflow == nil {
				m.Workflow = &ModelWorkflow{Attrs: map[string]any{}}
			}
			m.Workflow.Title = text
		case 5:
			if n == 0 {
				return
			}
			for k := range m.Nodes[i].Attrs {
				delete(m.Nodes[i].Attrs, k)
				break
			}
		case 6:
			if n == 0 {
				return
			}
			m.Nodes[i].Title = text
		case 7:
			m.Inputs = append(m.Inputs, ModelInput{Name: fmt.Sprintf("in_%d", idx), Attrs: map[string]any{"default": text}})
			for _, in := range m.Inputs[:len(m.Inputs)-1] {
				if in.Name == fmt.Sprintf("in_%d", idx) {
					return
				}
			}
			for _, nd := range m.Nodes {
				if nd.Name == fmt.Sprintf("in_%d", idx) {
					return
				}
			}
		}
		edits, err := Edits(file, m)
		if err != nil {
			t.Fatalf("Edits: %v", err)
		}
		out := ApplyEdits(src, edits)
		back := Parse("f.flow", out)
		for _, d := range back.Diagnostics {
			if d.Severity == SeverityError {
				t.Fatalf("edited file has an error: %s\n%s", d.Message, out)
			}
		}
		got := ToModel(Check(back, Env{}))
		got.Edges = nil
		a, _ := json.Marshal(normalModel(got))
		b, _ := json.Marshal(normalModel(m))
		if !bytes.Equal(a, b) {
			t.Fatalf("model after edits differs\n got %s\nwant %s\n--- text\n%s", a, b, out)
		}
	})
}

// normalModel gives empty collections one shape for comparison.
func normalModel(m *Model) *Model {
	c := *m
	c.Nodes = nil
	for _, n := range m.Nodes {
		c.Nodes = append(c.Nodes, normalNode(n))
	}
	if c.Workflow != nil && len(c.Workflow.Attrs) == 0 {
		w := *c.Workflow
		w.Attrs = map[string]any{}
		c.Workflow = &w
	}
	c.Uses, c.Inputs = nil, nil
	for _, u := range m.Uses {
		if len(u.Args) == 0 {
			u.Args = nil
		}
		c.Uses = append(c.Uses, u)
	}
	for _, in := range m.Inputs {
		if len(in.Attrs) == 0 {
			in.Attrs = nil
		}
		c.Inputs = append(c.Inputs, in)
	}
	return &c
}
