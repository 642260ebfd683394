package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/lsptest"
	"github.com/flowcabal/flowcabal/workflowlang"
	"go.lsp.dev/protocol"

	"github.com/flowcabal/flowcabal/internal/cputime"
)

// BenchmarkRequests measures what the server adds to a request's round
// trip, in process: decoding the params, the handler, encoding the
// result; on lspbench's workspace (flow-25 of a chain of 10 files of 200
// nodes open). Ping is the floor the other requests are compared with.
func BenchmarkRequests(b *testing.B) {
	dir := b.TempDir()
	var open string
	for i := range 10 {
		var s strings.Builder
		if i > 0 {
			fmt.Fprintf(&s, "use \"flow-%02d.flow\" as prev\n\n", i-1)
		}
		for n := range 200 {
			fmt.Fprintf(&s, "node n%d \"第%d节 😀\" {\n  user \"\"\"\n    Write part %d. 黛玉葬花。\n", n, n, n)
			switch {
			case n > 0:
				fmt.Fprintf(&s, "    From {{n%d}}", n-1)
				if n > 10 {
					fmt.Fprintf(&s, " and {{n%d}}", n-10)
				}
				s.WriteString("\n")
			case i > 0:
				s.WriteString("    After {{prev.n199}}\n")
			}
			if n%20 == 0 {
				s.WriteString("    Style: {{@meta/style-guide:L1}}\n")
			}
			s.WriteString("  \"\"\"\n}\n\n")
		}
		if i == 5 {
			open = s.String()
		}
		writeFiles(b, dir, map[string]string{fmt.Sprintf("workflows/flow-%02d.flow", i): s.String()})
	}
	writeFiles(b, dir, map[string]string{"flowcabal.toml": "", "meta/style-guide.md": "# 文风\n\n短句。\n"})
	ws, err := cache.NewWorkspace([]string{dir}, workflowlang.UTF16)
	if err != nil {
		b.Fatal(err)
	}
	uri := cache.FileURI(filepath.Join(dir, "workflows", "flow-05.flow"))
	snap, _, _ := ws.Open(uri, "flow", 1, open)
	for _, f := range snap.Files() {
		snap.Check(f)
	}
	s := newServer(Options{})
	s.ws, s.state = ws, stateInitialized
	data, err := os.ReadFile(filepath.Join("..", "testdata", "lsp", "initialize", "vscode-1.100.json"))
	if err != nil {
		b.Fatal(err)
	}
	var ip initializeParams
	if err := json.Unmarshal(data, &ip); err != nil {
		b.Fatal(err)
	}
	s.caps = ip.Capabilities
	pos := func(marker string, delta int) protocol.Position {
		return lsptest.Position(open, strings.Index(open, marker)+delta, false)
	}
	doc := map[string]any{"uri": uri}
	at := func(p protocol.Position) map[string]any { return map[string]any{"textDocument": doc, "position": p} }
	ref := pos("{{n150}}", 3)
	ctx := context.Background()
	call := func(method string, params any) (json.RawMessage, error) {
		raw, _ := json.Marshal(params)
		res, err := s.run(ctx, method, routes[method], raw)
		if err != nil {
			return nil, err
		}
		var buf bytes.Buffer
		err = encodeTo(&buf, res)
		return buf.Bytes(), err
	}
	item, err := call("textDocument/prepareCallHierarchy", at(ref))
	if err != nil {
		b.Fatal(err)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(item, &items); err != nil || len(items) != 1 {
		b.Fatalf("prepare: %s", item)
	}
	for _, tc := range []struct {
		method string
		params any
	}{
		{"flowcabal/ping", nil},
		{"textDocument/definition", at(ref)},
		{"textDocument/hover", at(ref)},
		{"textDocument/documentHighlight", at(ref)},
		{"textDocument/documentLink", map[string]any{"textDocument": doc}},
		{"textDocument/selectionRange", map[string]any{"textDocument": doc, "positions": []protocol.Position{ref}}},
		{"textDocument/prepareCallHierarchy", at(ref)},
		{"callHierarchy/incomingCalls", map[string]any{"item": items[0]}},
		{"callHierarchy/outgoingCalls", map[string]any{"item": items[0]}},
		// The style guide every file names ten times, renamed: 100 edits
		// in 10 files.
		{"workspace/willRenameFiles", map[string]any{"files": []map[string]any{{
			"oldUri": cache.FileURI(filepath.Join(dir, "meta", "style-guide.md")),
			"newUri": cache.FileURI(filepath.Join(dir, "meta", "文风.md"))}}}},
	} {
		raw, _ := json.Marshal(tc.params)
		if tc.params == nil {
			raw = nil
		}
		b.Run(strings.TrimPrefix(tc.method, "textDocument/"), func(b *testing.B) {
			for b.Loop() {
				res, err := s.run(ctx, tc.method, routes[tc.method], raw)
				if err != nil {
					b.Fatal(err)
				}
				var buf bytes.Buffer
				if err := encodeTo(&buf, res); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWillRenameFiles is lspbench's rename in process: 50 workflows
// of 200 nodes (each using the one before), each naming chapters 1-10 of
// 130 once, flow-25 open; a chapter nothing names, and chapter-001, which
// all 50 name (50 edits in 50 files, a 9 KB answer). Each iteration
// decodes the params, runs the handler and encodes the answer into a
// buffer as respond does: cold, each answer made anew; again, the same
// ask repeated before anything changes (what lspbench times).
//
//	go test -run '^$' -bench WillRenameFiles ./server/
func BenchmarkWillRenameFiles(b *testing.B) {
	dir := b.TempDir()
	files := map[string]string{"flowcabal.toml": "budget = 24000\n"}
	for c := 1; c <= 130; c++ {
		files[fmt.Sprintf("manuscript/chapter-%03d/content.md", c)] = "# 第" + fmt.Sprint(c) + "回\n\n寶玉聽曲。\n"
	}
	var open string
	for i := range 50 {
		var s strings.Builder
		if i > 0 {
			fmt.Fprintf(&s, "use \"flow-%02d.flow\" as prev\n\n", i-1)
		}
		fmt.Fprintf(&s, "workflow \"第%d卷 · 红楼\" {\n  budget = 24000\n}\n\n", i)
		for n := range 200 {
			fmt.Fprintf(&s, "node n%d \"第%d节 宝玉与黛玉\" {\n  temperature = 0.7\n  user \"\"\"\n    Write part %d of the chapter. 黛玉葬花，宝玉听曲。\n", n, n, n)
			switch {
			case n > 0:
				fmt.Fprintf(&s, "    From {{n%d}}", n-1)
				if n > 10 {
					fmt.Fprintf(&s, " and {{n%d}}", n-10)
				}
				s.WriteString("\n")
			case i > 0:
				s.WriteString("    After {{prev.n199}}\n")
			}
			if n%20 == 0 {
				fmt.Fprintf(&s, "    Previous chapter: {{@manuscript/chapter-%03d:L1}}\n", n/20+1)
			}
			s.WriteString("  \"\"\"\n}\n\n")
		}
		if i == 25 {
			open = s.String()
		}
		files[fmt.Sprintf("workflows/flow-%02d.flow", i)] = s.String()
	}
	writeFiles(b, dir, files)
	ws, err := cache.NewWorkspace([]string{dir}, workflowlang.UTF16)
	if err != nil {
		b.Fatal(err)
	}
	snap, _, _ := ws.Open(cache.FileURI(filepath.Join(dir, "workflows", "flow-25.flow")), "flow", 1, open)
	for _, f := range snap.Files() {
		snap.Check(f)
	}
	s := newServer(Options{})
	s.ws, s.state = ws, stateInitialized
	ctx := context.Background()
	for _, tc := range []struct {
		name, chapter string
		size          int // the answer's least size
	}{{"unnamed", "chapter-050", 4}, {"named-by-50", "chapter-001", 9000}} {
		old := filepath.Join(dir, "manuscript", tc.chapter)
		raw, _ := json.Marshal(map[string]any{"files": []map[string]any{{"oldUri": cache.FileURI(old), "newUri": cache.FileURI(old + "-renamed")}}})
		// cold: every ask makes its edits anew (the answer of an editor's
		// single ask before a rename); again: the same ask repeated on
		// the same snapshot, answered from the last answer kept.
		for _, cold := range []bool{true, false} {
			b.Run(tc.name+map[bool]string{true: "/cold", false: "/again"}[cold], func(b *testing.B) {
				defer reportCPU(b, cputime.Used())
				for b.Loop() {
					if cold {
						s.lastRename.Store(nil)
					}
					res, err := s.run(ctx, "workspace/willRenameFiles", routes["workspace/willRenameFiles"], raw)
					if err != nil {
						b.Fatal(err)
					}
					var out []byte
					if a, ok := res.(jsonAppender); ok {
						out = a.AppendJSON(make([]byte, 0, 100+a.JSONSize()))
					} else {
						var buf bytes.Buffer
						if err := encodeTo(&buf, res); err != nil {
							b.Fatal(err)
						}
						out = buf.Bytes()
					}
					if len(out) < tc.size {
						b.Fatalf("answer of %d B: %s", len(out), out)
					}
				}
			})
		}
	}
}
