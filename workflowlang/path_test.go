package workflowlang

import (
	"fmt"
	"strings"
	"testing"
)

func describePath(src string, path []any) string {
	var parts []string
	for _, e := range path {
		switch e := e.(type) {
		case *Node:
			parts = append(parts, "node "+e.Name.Name)
		case *Workflow:
			parts = append(parts, "workflow")
		case *Use:
			parts = append(parts, "use "+e.Alias.Name)
		case *Input:
			parts = append(parts, "input "+e.Name.Name)
		case *Ident:
			parts = append(parts, "ident "+e.Name)
		case *StringLit:
			parts = append(parts, "string "+e.Value)
		case *Attr:
			parts = append(parts, "attr "+e.Key.Name)
		case *Prompt:
			parts = append(parts, "prompt "+string(e.Role))
		case *TextBlock:
			parts = append(parts, fmt.Sprintf("text %q", e.Text))
		case *Ref:
			parts = append(parts, "ref "+e.Target())
		case *Comment:
			parts = append(parts, "comment")
		case Value:
			s := e.ValueSpan()
			parts = append(parts, "value "+src[s.Start:s.End])
		default:
			parts = append(parts, fmt.Sprintf("%T", e))
		}
	}
	return strings.Join(parts, " > ")
}

func TestPathAt(t *testing.T) {
	src := readFlow(t, "language-example.flow")
	f := Parse("x.flow", src)
	s := string(src)
	at := func(needle string, delta int) int {
		i := strings.Index(s, needle)
		if i < 0 {
			t.Fatalf("%q not in source", needle)
		}
		return i + delta
	}
	tests := []struct {
		off  int
		want string
	}{
		{at("# chapter-12", 3), "comment"},
		{at("断桥", 0), "workflow > string 第十二章 · 断桥"},
		{at("24000", 2), "workflow > attr budget > value 24000"},
		{at("premise \"Where", 2), "node premise > ident premise"},
		{at("\"agent\"", 1), "node premise > attr model > value \"agent\""},
		{at("Summarise", 3), "node premise > prompt user > text \"Summarise where the story stands before chapter 12.\""},
		{at("{{premise}}", 4), "node outline > prompt user > ref premise"},
		{at("{{premise}}", 0), "node outline > prompt user > ref premise"},
		{at("\"character\"", 2), "node draft > attr checks > value [\"continuity\", \"character\", \"timeline\", \"world\"] > value \"character\""},
		{at("{{@meta/style-guide}}", 5), "node draft > prompt system > ref @meta/style-guide"},
		{at("node outline", 0), "node outline"},
		{at("\n\nnode outline", 1), ""},
	}
	for _, tt := range tests {
		if got := describePath(s, PathAt(f, tt.off)); got != tt.want {
			t.Errorf("PathAt(%d) = %q, want %q", tt.off, got, tt.want)
		}
	}
}
