package workflowlang

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readFlow(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "flows", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func texts(bs []Block) []string {
	var out []string
	for _, b := range bs {
		switch b := b.(type) {
		case *TextBlock:
			out = append(out, "T:"+b.Text)
		case *Ref:
			out = append(out, "R:"+b.Target())
		}
	}
	return out
}

func TestParseLanguageExample(t *testing.T) {
	src := readFlow(t, "language-example.flow")
	f := Parse("chapter-12.flow", src)
	if len(f.Diagnostics) != 0 {
		t.Fatalf("diagnostics: %+v", f.Diagnostics)
	}
	if f.Workflow == nil || f.Workflow.Title.Value != "第十二章 · 断桥" {
		t.Fatalf("workflow header: %+v", f.Workflow)
	}
	if a := f.Workflow.Attr("budget"); a == nil || a.Value.(*NumberValue).Value != 24000 {
		t.Fatalf("budget: %+v", a)
	}
	if len(f.Nodes) != 3 || len(f.Items) != 4 || len(f.Comments) != 2 {
		t.Fatalf("nodes %d items %d comments %d", len(f.Nodes), len(f.Items), len(f.Comments))
	}
	want := map[string][]string{
		"premise": {"T:Summarise where the story stands before chapter 12."},
		"outline": {"T:From this, outline chapter 12 in five beats:\n", "R:premise"},
	}
	for name, w := range want {
		got := texts(f.Node(name).Prompts[0].Blocks)
		if strings.Join(got, "|") != strings.Join(w, "|") {
			t.Errorf("%s: got %q want %q", name, got, w)
		}
	}
	d := f.Node("draft")
	if len(d.Attrs) != 4 || len(d.Prompts) != 2 || d.Prompts[0].Role != RoleSystem {
		t.Fatalf("draft: %+v", d)
	}
	if got := texts(d.Prompts[0].Blocks); strings.Join(got, "|") != "T:Keep the voice of |R:@meta/style-guide|T:." {
		t.Errorf("draft system: %q", got)
	}
	l := d.Attr("checks").Value.(*ListValue)
	if len(l.Elems) != 4 || l.Elems[3].(*StringValue).Value != "world" {
		t.Errorf("checks: %+v", l)
	}
	if d.Title != nil || f.Node("premise").Title.Value != "Where the story stands" {
		t.Errorf("titles")
	}
	checkSpans(t, f)
}

func TestParseConcepts(t *testing.T) {
	f := Parse("concepts.flow", readFlow(t, "concepts.flow"))
	if len(f.Diagnostics) != 0 {
		t.Fatalf("diagnostics: %+v", f.Diagnostics)
	}
	if len(f.Uses) != 1 || f.Uses[0].Path.Value != "act-2.flow" || f.Uses[0].Alias.Name != "act2" {
		t.Fatalf("use: %+v", f.Uses)
	}
	n := f.Node("第十二章")
	if n == nil || n.Title.Value != "十二" {
		t.Fatalf("node 第十二章 missing")
	}
	got := strings.Join(texts(n.Prompts[1].Blocks), "|")
	want := "T:Continue from |R:act2.final|T:.\nVoice: |R:@meta/style-guide|T:; Lin: |R:@profiles/characters/lin:L1|T:.\nA literal {{ is not a reference."
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	refs := n.Refs()
	if refs[2].Level != "L1" || refs[1].Level != "L2" || refs[0].Kind != RefUse {
		t.Errorf("refs: %+v", refs)
	}
	c := f.Node("chapter-12")
	if c == nil || len(c.Attrs) != 6 || c.Attr("model").Value.(*WordValue).Name != "writer" {
		t.Fatalf("chapter-12: %+v", c)
	}
	if got := strings.Join(texts(c.Prompts[0].Blocks), "|"); got != "T:Polish |R:第十二章|T:." {
		t.Errorf("one-line prompt: %q", got)
	}
	checkSpans(t, f)
}

// checkSpans walks the AST and fails on a span outside the source or an
// element outside its parent.
func checkSpans(t testing.TB, f *File) {
	t.Helper()
	n := len(f.Src)
	bad := func(what string, s Span, parent Span) {
		if s.Start < 0 || s.End > n || s.Start > s.End || s.Start < parent.Start || s.End > parent.End {
			t.Errorf("%s span %v outside %v (len %d)", what, s, parent, n)
		}
	}
	all := Span{0, n}
	for _, d := range f.Diagnostics {
		bad("diagnostic "+d.Message, d.Span, all)
	}
	for _, c := range f.Comments {
		bad("comment", c.Span, all)
	}
	var value func(v Value, parent Span)
	value = func(v Value, parent Span) {
		bad("value", v.ValueSpan(), parent)
		switch v := v.(type) {
		case *ListValue:
			for _, e := range v.Elems {
				value(e, v.Span)
			}
		case *TextValue:
			for _, b := range v.Blocks {
				bad("block", b.BlockSpan(), v.Span)
			}
		}
	}
	attrs := func(as []*Attr, parent Span) {
		for _, a := range as {
			bad("attr", a.Span, parent)
			bad("key", a.Key.Span, a.Span)
			if a.Value != nil {
				value(a.Value, a.Span)
			}
		}
	}
	for _, it := range f.Items {
		s := it.ItemSpan()
		bad("item", s, all)
		switch it := it.(type) {
		case *Node:
			bad("name", it.Name.Span, s)
			attrs(it.Attrs, s)
			for _, p := range it.Prompts {
				bad("prompt", p.Span, s)
				bad("prompt body", p.Body, p.Span)
				for _, b := range p.Blocks {
					bad("block", b.BlockSpan(), p.Body)
					if r, ok := b.(*Ref); ok {
						bad("ref inner", r.Inner, r.Span)
					}
				}
			}
		case *Workflow:
			attrs(it.Attrs, s)
		case *Use:
			bad("use path", it.Path.Span, s)
			attrs(it.Args, s)
		case *Input:
			attrs(it.Attrs, s)
		}
	}
}

func TestParseCRLF(t *testing.T) {
	f := Parse("crlf.flow", readFlow(t, "crlf.flow"))
	if len(f.Diagnostics) != 0 {
		t.Fatalf("%+v", f.Diagnostics)
	}
	if got := strings.Join(texts(f.Node("a").Prompts[0].Blocks), "|"); got != "T:line one\nline |R:b" {
		t.Errorf("CRLF text %q", got)
	}
	if f.Comments[0].Text != "# crlf comment" {
		t.Errorf("comment %q", f.Comments[0].Text)
	}
}

func TestParseEverything(t *testing.T) {
	f := Parse("everything.flow", readFlow(t, "everything.flow"))
	if len(f.Diagnostics) != 0 {
		t.Fatalf("%+v", f.Diagnostics)
	}
	o := f.Node("outline-12")
	if got := o.Prompts[0].Blocks[0].(*TextBlock).Text; got != "You outline.\tTabs,\nnewlines and 😀 are escapes; so is {{." {
		t.Errorf("string escapes: %q", got)
	}
	want := "T:    Deeper indentation is relative:\n      this line keeps two spaces.\n\nA line with \"\"\" triple quotes inside.\n|R:前情"
	if got := strings.Join(texts(o.Prompts[1].Blocks), "|"); got != want {
		t.Errorf("block text\n got %q\nwant %q", got, want)
	}
	if len(f.Uses) != 2 || len(f.Uses[0].Args) != 2 || len(f.Inputs) != 2 || f.Inputs[1].Title != nil {
		t.Errorf("uses/inputs: %d %d", len(f.Uses), len(f.Inputs))
	}
	if got := strings.Join(texts(f.Node("draft").Prompts[0].Blocks), "|"); got != "R:outline-12|T: — then |R:act2.final|T:." {
		t.Errorf("one-line block %q", got)
	}
	checkSpans(t, f)
}
