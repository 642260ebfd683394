package source

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/protocol"
)

// benchFlow is a 200-node workflow like lspbench's.
func benchFlow() string {
	var b strings.Builder
	b.WriteString("workflow \"第一卷\" {\n  budget = 24000\n}\n\n")
	for i := 0; i < 200; i++ {
		b.WriteString("node n" + itoa(i) + " \"第" + itoa(i) + "节\" {\n  user \"\"\"\n    Write part " + itoa(i) + ". 黛玉葬花。\n")
		if i > 0 {
			b.WriteString("    From {{n" + itoa(i-1) + "}}\n")
		}
		b.WriteString("  \"\"\"\n}\n\n")
	}
	return b.String()
}

func itoa(i int) string { return strconv.Itoa(i) }

func benchSetup(b *testing.B) (*cache.Snapshot, *cache.File, string) {
	dir := b.TempDir()
	text := benchFlow()
	p := filepath.Join(dir, "a.flow")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		b.Fatal(err)
	}
	ws, err := cache.NewWorkspace([]string{dir}, workflowlang.UTF16)
	if err != nil {
		b.Fatal(err)
	}
	snap := ws.Snapshot()
	f, _ := snap.FileByPath(p)
	snap.Check(f)
	return snap, f, text
}

func position(text, marker string, delta int) protocol.Position {
	i := strings.Index(text, marker) + delta
	line := strings.Count(text[:i], "\n")
	col := len([]rune(text[strings.LastIndex(text[:i], "\n")+1 : i]))
	return protocol.Position{Line: uint32(line), Character: uint32(col)}
}

func BenchmarkHover(b *testing.B) {
	snap, f, text := benchSetup(b)
	p := position(text, "{{n150}}", 3)
	o := Options{Markdown: true}
	for b.Loop() {
		if h, err := Hover(snap, f, p, o, nil); err != nil || h == nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCompletion(b *testing.B) {
	snap, f, text := benchSetup(b)
	p := position(text, "{{n180}}", 2)
	for b.Loop() {
		if _, err := Completion(snap, f, p, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkDocumentSymbolsUncached(b *testing.B) {
	snap, f, _ := benchSetup(b)
	for b.Loop() {
		documentSymbols(snap, f, Options{Hierarchical: true})
	}
}

func BenchmarkParseCheck200Nodes(b *testing.B) {
	text := []byte(benchFlow())
	for b.Loop() {
		workflowlang.Check(workflowlang.Parse("a.flow", text), workflowlang.Env{})
	}
}
