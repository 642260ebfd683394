package flowgraph

import (
	"encoding/xml"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// sample is a small diamond with a sub-workflow input and Chinese titles.
func sample() *Graph {
	return &Graph{
		Title: "第十二章 · 断桥",
		Nodes: []Node{
			{Name: "premise", Title: "Where the story stands", State: StateDone, Detail: "640 tok · v2",
				Shares: []Share{{"meta", 900}, {"manuscript", 3000}}, Budget: 8000},
			{Name: "outline", State: StateCached},
			{Name: "人物", Title: "人物小傳 𠀀", State: StateFrozen},
			{Name: "draft", State: StateNeedsYou, Shares: []Share{{"entities", 2000}, {"manuscript", 9000}, {"summaries", 1000}}, Budget: 24000},
			{Name: "act2.plan", Detail: "sub-workflow"},
		},
		Edges: []Edge{
			{From: "premise", To: "outline"},
			{From: "premise", To: "人物"},
			{From: "outline", To: "draft"},
			{From: "人物", To: "draft"},
			{From: "act2.plan", To: "draft", External: true},
		},
	}
}

func TestLayoutColumns(t *testing.T) {
	g := sample()
	lay := g.layout()
	want := map[string]int{"premise": 0, "outline": 1, "人物": 1, "draft": 2, "act2.plan": 1}
	for i, n := range g.Nodes {
		if lay.col[i] != want[n.Name] {
			t.Errorf("column of %s = %d, want %d", n.Name, lay.col[i], want[n.Name])
		}
	}
	// Every edge goes strictly rightwards in a DAG.
	idx := map[string]int{}
	for i, n := range g.Nodes {
		idx[n.Name] = i
	}
	for _, e := range g.Edges {
		if lay.col[idx[e.From]] >= lay.col[idx[e.To]] {
			t.Errorf("edge %s -> %s does not go rightwards", e.From, e.To)
		}
	}
}

func TestLayoutSurvivesCycle(t *testing.T) {
	g := &Graph{
		Nodes: []Node{{Name: "a"}, {Name: "b"}, {Name: "c"}},
		Edges: []Edge{{From: "a", To: "b"}, {From: "b", To: "c"}, {From: "c", To: "b"}},
	}
	svg := g.SVG()
	if !strings.Contains(svg, "(cycle)") {
		t.Errorf("the back edge of a cycle is not drawn as such:\n%s", svg)
	}
	wellFormed(t, svg)
}

func TestRenderersDeterministic(t *testing.T) {
	for name, render := range map[string]func(*Graph) string{
		"svg": (*Graph).SVG, "dot": (*Graph).DOT, "mermaid": (*Graph).Mermaid,
	} {
		first := render(sample())
		for range 5 {
			if got := render(sample()); got != first {
				t.Fatalf("%s output differs between runs", name)
			}
		}
	}
}

func TestGolden(t *testing.T) {
	for _, tc := range []struct {
		file   string
		render func(*Graph) string
	}{
		{"sample.svg", (*Graph).SVG},
		{"sample.dot", (*Graph).DOT},
		{"sample.mmd", (*Graph).Mermaid},
	} {
		got := tc.render(sample())
		path := filepath.Join("testdata", tc.file)
		if *update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update to create it)", err)
		}
		if got != string(want) {
			t.Errorf("%s differs from the golden file; run go test ./flowgraph -update and review the diff", tc.file)
		}
	}
}

func TestSVGContent(t *testing.T) {
	svg := sample().SVG()
	wellFormed(t, svg)
	for _, want := range []string{
		`data-node="draft" data-state="needs-you"`,
		`data-node="人物" data-state="frozen"`,
		"⚠ needs you", "❄ frozen", "≡ cached", "✓ done",
		`stroke-dasharray="5,4"`,           // the sub-workflow edge
		"manuscript: 9000 of 24000 tokens", // a budget bar segment
		">entities</text>",                 // the legend
	} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
}

func TestSVGEscapesText(t *testing.T) {
	g := &Graph{Title: `<script>alert("x")</script>`, Nodes: []Node{{Name: "a", Title: `"&<>`}}}
	svg := g.SVG()
	if strings.Contains(svg, "<script>") {
		t.Fatal("title not escaped")
	}
	wellFormed(t, svg)
}

func TestFitCJKWidth(t *testing.T) {
	long := strings.Repeat("林黛玉", 10)
	got := fit(long, maxEm)
	if !strings.HasSuffix(got, "…") || textEm(got) > maxEm {
		t.Errorf("fit(%q) = %q (%.1f em), want an ellipsis within %.1f em", long, got, textEm(got), maxEm)
	}
	if fit("draft", maxEm) != "draft" {
		t.Error("a short name was cut")
	}
	if textEm("林黛玉") <= textEm("abc") {
		t.Error("CJK characters should count wider than Latin ones")
	}
}

func TestMermaidAndDOT(t *testing.T) {
	m := sample().Mermaid()
	for _, want := range []string{"flowchart LR", "n4 -.-> n3", "n0 --> n1", "class n3 needsyou", "人物小傳 𠀀<br/>人物"} {
		if !strings.Contains(m, want) {
			t.Errorf("mermaid lacks %q:\n%s", want, m)
		}
	}
	d := sample().DOT()
	for _, want := range []string{`"premise" -> "outline";`, `"act2.plan" -> "draft" [style=dashed];`, `rankdir=LR`} {
		if !strings.Contains(d, want) {
			t.Errorf("dot lacks %q:\n%s", want, d)
		}
	}
}

func wellFormed(t *testing.T, doc string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(doc))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatalf("SVG is not well-formed XML: %v", err)
		}
	}
}

func TestStaleNodeIsMarked(t *testing.T) {
	g := &Graph{Nodes: []Node{
		{Name: "premise", State: StateDone, Stale: "entities/characters/林黛玉.md changed"},
		{Name: "draft", State: StateDone},
	}}
	svg := g.SVG()
	for _, want := range []string{`data-stale="entities/characters/林黛玉.md changed"`, "⚠ stale", `stroke-dasharray="6,3"`, "stale: entities/characters/林黛玉.md changed"} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %q", want)
		}
	}
	if strings.Count(svg, "data-stale=") != 1 {
		t.Errorf("%d nodes marked stale, want 1", strings.Count(svg, "data-stale="))
	}
	if dot := g.DOT(); !strings.Contains(dot, "⚠ stale: entities/characters/林黛玉.md changed") || !strings.Contains(dot, "dashed") {
		t.Errorf("DOT does not mark the stale node:\n%s", dot)
	}
	if m := g.Mermaid(); !strings.Contains(m, "⚠ stale: entities/characters/林黛玉.md changed") {
		t.Errorf("Mermaid does not mark the stale node:\n%s", m)
	}
}
