package workbench

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/flowcabal/flowcabal/server/cache"
	"github.com/flowcabal/flowcabal/server/lsptest"
	"github.com/flowcabal/flowcabal/server/source"
)

// TestInlayHintsCountEveryLevel: the hint after each {{@path:Lx}} counts
// the level Role A would inject (L0 and L1 too, which only Role A's
// snapshot knows), exactly; the editor is asked to refresh the hints when
// those counts become known and when a knowledge file changes.
func TestInlayHintsCountEveryLevel(t *testing.T) {
	guide := "---\ntitle: 文風\n---\n\n" + strings.Repeat("短句為主，少用形容詞。𝄞 對話要有聲音，敘述要有節奏；每一章都從一個動作開始，從不從天氣開始。\n\n", 12)
	flow := "node 甲 {\n  user \"\"\"\n    𝄞 {{@meta/style-guide:L0}} 𠀀 {{@meta/style-guide:L1}} {{@meta/style-guide}}\n  \"\"\"\n}\n"
	caps := authorCaps()
	caps["workspace"].(map[string]any)["inlayHint"] = map[string]any{"refreshSupport": true}
	e := startProject(t, map[string]string{"meta/style-guide.md": guide, "workflows/甲.flow": flow}, caps)
	uri := e.open("workflows/甲.flow")
	hints := func() map[string]int {
		var hs []source.InlayHint
		whole := protocol.Range{End: lsptest.Position(flow, len(flow), false)}
		if err := e.client.Call(e.ctx, "textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": whole}, &hs); err != nil {
			t.Fatal(err)
		}
		out := map[string]int{}
		for _, h := range hs {
			off, err := lsptest.Offset(flow, h.Position, false)
			if err != nil {
				t.Fatal(err)
			}
			level := "L2"
			if strings.HasSuffix(flow[:off], ":L0}}") {
				level = "L0"
			} else if strings.HasSuffix(flow[:off], ":L1}}") {
				level = "L1"
			}
			if strings.HasPrefix(h.Label, "~") {
				level += "~" // an estimate
			}
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(h.Label, "~"), " tok"))
			if err != nil {
				t.Fatalf("label %q", h.Label)
			}
			out[level] = n
		}
		return out
	}
	var got map[string]int
	if err := e.client.WaitFor(e.ctx, "hints at L0, L1 and L2", func(*lsptest.View) bool {
		got = hints()
		return len(got) == 3 && got["L0"] > 0 && got["L1"] > 0 && got["L2"] > 0
	}); err != nil {
		t.Fatalf("%v: %v", err, got)
	}
	if !(got["L0"] < got["L1"] && got["L1"] < got["L2"]) {
		t.Errorf("counts do not grow with the level: %v", got)
	}
	refreshes := func() int {
		n := 0
		for _, r := range e.client.Requests() {
			if r.Method == "workspace/inlayHint/refresh" {
				n++
			}
		}
		return n
	}
	before := refreshes()
	// The author doubles the style guide outside the editor.
	p := filepath.Join(e.root, "meta", "style-guide.md")
	if err := os.WriteFile(p, []byte(guide+guide[strings.Index(guide, "\n\n")+2:]), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := e.client.Notify(e.ctx, "workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": cache.FileURI(p), "type": 2}}}); err != nil {
		t.Fatal(err)
	}
	if err := e.client.WaitFor(e.ctx, "an inlay hint refresh", func(*lsptest.View) bool { return refreshes() > before }); err != nil {
		t.Fatal(err)
	}
	var after map[string]int
	if err := e.client.WaitFor(e.ctx, "the new L2 count", func(*lsptest.View) bool {
		after = hints()
		return after["L2"] > got["L2"]*3/2
	}); err != nil {
		t.Fatalf("%v: before %v, after %v", err, got, after)
	}
}
