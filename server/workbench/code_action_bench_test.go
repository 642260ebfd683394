package workbench

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/lsptest"
	"github.com/flowcabal/flowcabal/workflowlang"
	fastjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/protocol"

	"github.com/flowcabal/flowcabal/internal/cputime"
)

// BenchmarkCodeActionsLazy lists Role B's actions on a node of a 200-node
// workflow as a client that resolves edits asks for them: the titles and
// what resolving needs, no patch applied.
//
//	go test -run '^$' -bench CodeActionsLazy ./server/workbench/
func BenchmarkCodeActionsLazy(b *testing.B) {
	dir := b.TempDir()
	var s strings.Builder
	for n := range 200 {
		fmt.Fprintf(&s, "node n%d \"第%d节 𝄞\" {\n  user \"\"\"\n    Write part %d.\n", n, n, n)
		if n > 0 {
			fmt.Fprintf(&s, "    From {{n%d}}\n", n-1)
		}
		s.WriteString("  \"\"\"\n}\n\n")
	}
	text := s.String()
	p := filepath.Join(dir, "workflows", "a.flow")
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(filepath.Join(dir, "flowcabal.toml"), nil, 0o644); err != nil {
		b.Fatal(err)
	}
	ws, err := cache.NewWorkspace([]string{dir}, workflowlang.UTF16)
	if err != nil {
		b.Fatal(err)
	}
	uri := cache.FileURI(p)
	snap, _, _ := ws.Open(uri, "flow", 1, text)
	f, _ := snap.File(uri)
	w := New(slog.New(slog.DiscardHandler), func(string) string { return "" })
	defer w.Close()
	at := lsptest.Position(text, strings.Index(text, "node n120 ")+6, false)
	rng := protocol.Range{Start: at, End: at}
	only := []protocol.CodeActionKind{protocol.Refactor}
	if acts := w.CodeActions(context.Background(), snap, f, rng, only, workflowlang.UTF16, true); len(acts) != 3 || acts[0].Data == nil {
		b.Fatalf("actions: %+v", acts)
	}
	b.Run("list", func(b *testing.B) {
		defer reportCPU(b, cputime.Used())
		for b.Loop() {
			w.CodeActions(context.Background(), snap, f, rng, only, workflowlang.UTF16, true)
		}
	})
	// And encoded as the server answers (its encoder, no HTML escapes).
	b.Run("list+encode", func(b *testing.B) {
		defer reportCPU(b, cputime.Used())
		for b.Loop() {
			var buf bytes.Buffer
			e := fastjson.NewEncoder(&buf)
			e.SetEscapeHTML(false)
			if err := e.Encode(w.CodeActions(context.Background(), snap, f, rng, only, workflowlang.UTF16, true)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
