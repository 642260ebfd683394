package workbench

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/internal/projecttest"
	"github.com/flowcabal/flowcabal/server/lsptest"
	"go.lsp.dev/protocol"
)

// BenchmarkRecheckTypedChapter measures what the author waits for while
// typing in a chapter: one character sent with didChange, over the real
// pipe, until the chapter's Role C diagnostics of that version arrive.
// The chapter is 10,000 characters of 紅樓夢 in a project of 100
// entities (the sample's 8 and 92 generated ones). Issue 7's target: under
// 20 ms.
func BenchmarkRecheckTypedChapter(b *testing.B) {
	root := projecttest.Copy(b, "hongloumeng")
	writeEntities(b, root, 92)
	llm := llmtest.New(b, llmtest.Script{})
	projecttest.UseModels(b, root, llm.URL, "K")
	e := startIn(b, root, llm)
	text := corpusText(b, "hongloumeng", 3, 10_000)
	uri := e.writeChapter("manuscript/chapter-04/content.md", text)
	pos := lsptest.Position(text, strings.Index(text, "。")+len("。"), false)
	insert := protocol.Range{Start: pos, End: pos}
	typed := protocol.Range{Start: pos, End: protocol.Position{Line: pos.Line, Character: pos.Character + 1}}
	version := int32(1)
	b.ResetTimer()
	for b.Loop() {
		version++
		if version%2 == 0 {
			e.change(uri, version, insert, "他")
		} else {
			e.change(uri, version, typed, "")
		}
		if _, err := e.client.Diagnostics(e.ctx, uri, version); err != nil {
			b.Fatal(err)
		}
	}
}

// writeEntities adds n generated characters to the project, with names,
// aliases, facts and a progression, as an author's entity files are.
func writeEntities(tb testing.TB, root string, n int) {
	tb.Helper()
	const surnames = "赵钱孙李周吴郑王冯陈褚卫蒋沈韩杨朱秦尤许何吕施张孔曹严华金魏陶姜"
	const given = "春夏秋冬梅兰竹菊云霞玉珠明月清风山水琴棋书画"
	sr, gr := []rune(surnames), []rune(given)
	for i := range n {
		g := string(gr[i%len(gr)]) + string(gr[(i*7+3)%len(gr)])
		name := string(sr[i%len(sr)]) + g
		doc := fmt.Sprintf("---\nname: %s\naliases: [%s]\nkind: character\nfacts: { age: %d, status: unmarried, home: 金陵 }\nprogressions:\n  - { chapter: %d, facts: { status: away } }\n---\n%s是故事中的一个人物。\n",
			name, g, 16+i%40, 5+i%20, name)
		p := filepath.Join(root, "entities", "characters", fmt.Sprintf("gen-%03d.md", i))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(doc), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// corpusText returns n characters of a book of the shared corpus (beside
// the repository), from chapter first on.
func corpusText(tb testing.TB, book string, first, n int) string {
	tb.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "corpus", book)
	var sb strings.Builder
	for ch := first; utf8.RuneCountInString(sb.String()) < n; ch++ {
		data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("%03d.txt", ch)))
		if err != nil {
			tb.Fatalf("the shared corpus is needed beside the repository: %v", err)
		}
		sb.Write(data)
	}
	return string([]rune(sb.String())[:n])
}
