package workbench

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/internal/projecttest"
	"github.com/flowcabal/flowcabal/internal/webnovel"
	"github.com/flowcabal/flowcabal/server/lsptest"
	"github.com/flowcabal/flowcabal/server/source"
	"go.lsp.dev/protocol"
)

// On a long work never indexed, the first hover on a node answers while
// Role A's view is still being read, and says how far it got; a later
// hover shows the context. Over the server's real JSON-RPC transport.
func TestHoverWhileTheContextIsIndexing(t *testing.T) {
	root := filepath.Join(t.TempDir(), "book")
	repo := filepath.Join("..", "..")
	const chapters = 600
	_, err := webnovel.Generate(root, webnovel.Options{Corpus: filepath.Join(projecttest.Shared(t), "corpus"), Chapters: chapters, ChapterChars: 1200, Seed: 3,
		Entities: []string{filepath.Join(repo, "testdata", "assemble", "hongloumeng-entities")}})
	if err != nil {
		t.Fatal(err)
	}
	llm := llmtest.New(t, llmtest.Script{})
	e := startIn(t, root, llm)
	uri := e.open("workflows/next-chapter.flow")
	hover := func() string {
		var h protocol.Hover
		// "node 正文" is on line 12 of the generated workflow.
		if err := e.client.Call(e.ctx, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri},
			"position": map[string]any{"line": 12, "character": 6}}, &h); err != nil {
			t.Fatal(err)
		}
		return h.Contents.Value
	}
	// The inlay hints answer at once too: each node's header says Role A
	// is indexing rather than waiting for a count.
	hints := func() map[uint32]string {
		var hs []source.InlayHint
		if err := e.client.Call(e.ctx, "textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": uri},
			"range": map[string]any{"start": map[string]any{"line": 0, "character": 0}, "end": map[string]any{"line": 10000, "character": 0}}}, &hs); err != nil {
			t.Fatal(err)
		}
		out := map[uint32]string{}
		for _, h := range hs {
			if !strings.HasSuffix(h.Label, " tok") || strings.HasPrefix(h.Label, "≈") {
				out[h.Position.Line] = h.Label // a header's
			}
		}
		return out
	}
	if got := hints()[12]; got != "indexing…" {
		t.Errorf("header hint of 正文 while indexing: %q", got)
	}
	first := hover()
	if !strings.Contains(first, "Context injected") {
		t.Fatalf("first hover has no Role A section:\n%s", first)
	}
	m := regexp.MustCompile(`context still indexing: (\d+) of (\d+) chapters`).FindStringSubmatch(first)
	if m == nil {
		t.Fatalf("the first hover waited for the whole book instead of saying it is indexing:\n%s", first)
	}
	read, _ := strconv.Atoi(m[1])
	total, _ := strconv.Atoi(m[2])
	if total != chapters || read > total {
		t.Fatalf("progress %d of %d; want of %d", read, total, chapters)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for {
		v := hover()
		if strings.Contains(v, "Would be injected now") {
			if strings.Contains(v, "still indexing") || !strings.Contains(v, webnovel.ChapterDir(chapters)) {
				t.Fatalf("the context once read:\n%s", v)
			}
			// Once read, the header hint counts what the hover counts.
			m := regexp.MustCompile(`Would be injected now: \*\*(\d+)\*\* of (\d+) tokens`).FindStringSubmatch(v)
			n, _ := strconv.Atoi(m[1])
			want := "≈ " + groupDigits(n) + " tok · "
			var got string
			if err := e.client.WaitFor(e.ctx, "the header hint's count", func(*lsptest.View) bool {
				got = hints()[12]
				return strings.HasPrefix(got, want)
			}); err != nil {
				t.Fatalf("%v: %q, want %q… (hover: %s of %s tokens)", err, got, want, m[1], m[2])
			}
			break
		}
		if !strings.Contains(v, "context still indexing") {
			t.Fatalf("neither indexing nor the context:\n%s", v)
		}
		if time.Now().After(deadline) {
			t.Fatalf("still indexing after two minutes:\n%s", v)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
