package workbench

import (
	"os"
	"path/filepath"
	"regexp"
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
			if !strings.HasSuffix(flow[:off], "}}") {
				continue // a node's header hint (TestHeaderInlayHints)
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

// TestHeaderInlayHints: at the end of each node's header line (after
// Chinese and astral text: the position is counted in UTF-16), the tokens
// Role A would inject into the node, as its hover counts them, and their
// share of the node's budget; "context off" for a node that sets it. The
// counts are made in the background and the editor asked to refresh;
// they follow an edit of the workflow and a change of a knowledge file;
// a range gets the hints of its lines alone.
func TestHeaderInlayHints(t *testing.T) {
	guide := "---\ntitle: 文風\n---\n\n" + strings.Repeat("短句為主，少用形容詞。𝄞 對話要有聲音。\n\n", 6)
	daiyu := "---\nname: 林黛玉\naliases: [黛玉, 林姑娘]\nkind: character\n---\n" + strings.Repeat("林黛玉，賈母的外孫女，寄居榮國府，多愁善感，工詩詞。𝄞\n\n", 8)
	flow := "workflow \"卷一 𝄞\" {\n  budget = 1500\n}\n\n" +
		"node 甲 \"𝄞 第一回 黛玉進府\" {   \n  user \"\"\"\n    寫一段開頭。\n  \"\"\"\n}\n\n" +
		"node 乙 \"二 𠀀\" { # 𝄞 註\n  budget = 2000\n  user \"\"\"\n    接著 {{甲}} 寫下去。\n  \"\"\"\n}\n\n" +
		"node 丙 {\n  context = off\n  user \"\"\"\n    不要上下文。\n  \"\"\"\n}\n"
	caps := authorCaps()
	caps["workspace"].(map[string]any)["inlayHint"] = map[string]any{"refreshSupport": true}
	e := startProject(t, map[string]string{"meta/style-guide.md": guide, "entities/characters/daiyu.md": daiyu, "workflows/卷.flow": flow}, caps)
	uri := e.open("workflows/卷.flow")

	// headerAt is the UTF-16 position of the end of node's header line.
	headerAt := func(text, node string) protocol.Position {
		i := strings.Index(text, "node "+node+" ")
		end := i + strings.IndexByte(text[i:], '\n')
		end = len(strings.TrimRight(text[:end], " "))
		return lsptest.Position(text, end, false)
	}
	hints := func(text string, rng protocol.Range) map[protocol.Position]string {
		var hs []source.InlayHint
		if err := e.client.Call(e.ctx, "textDocument/inlayHint", map[string]any{"textDocument": map[string]any{"uri": uri}, "range": rng}, &hs); err != nil {
			t.Fatal(err)
		}
		out := map[protocol.Position]string{}
		for _, h := range hs {
			out[h.Position] = h.Label
		}
		return out
	}
	whole := func(text string) protocol.Range { return protocol.Range{End: lsptest.Position(text, len(text), false)} }
	// injected is what the node's hover says Role A would inject now.
	injected := func(text, node string) (tokens, budget int) {
		var h protocol.Hover
		p := headerAt(text, node)
		p.Character = uint32(len("node ")) // on the name (BMP: one unit a character)
		if err := e.client.Call(e.ctx, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": p}, &h); err != nil {
			t.Fatal(err)
		}
		m := regexp.MustCompile(`Would be injected now: \*\*(\d+)\*\* of (\d+) tokens`).FindStringSubmatch(h.Contents.Value)
		if m == nil {
			return -1, -1
		}
		tokens, _ = strconv.Atoi(m[1])
		budget, _ = strconv.Atoi(m[2])
		return tokens, budget
	}
	label := regexp.MustCompile(`^≈ ([\d,]+) tok · (\d+)% of (\S+)$`)
	// check waits for the header hints of text to agree with the hovers.
	check := func(step, text string, budgets map[string]string) map[string]int {
		t.Helper()
		var got map[protocol.Position]string
		counts := map[string]int{}
		err := e.client.WaitFor(e.ctx, step, func(*lsptest.View) bool {
			got = hints(text, whole(text))
			for node, short := range budgets {
				m := label.FindStringSubmatch(got[headerAt(text, node)])
				if m == nil || m[3] != short {
					return false
				}
				n, _ := strconv.Atoi(strings.ReplaceAll(m[1], ",", ""))
				tok, budget := injected(text, node)
				if n != tok || tok <= 0 {
					return false
				}
				if pct, _ := strconv.Atoi(m[2]); pct != (tok*100+budget/2)/budget {
					t.Fatalf("%s: %s: %q for %d of %d", step, node, m[0], tok, budget)
				}
				counts[node] = n
			}
			return got[headerAt(text, "丙")] == "context off"
		})
		if err != nil {
			t.Fatalf("%v: hints %v", err, got)
		}
		return counts
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
	budgets := map[string]string{"甲": "1.5k", "乙": "2k"}
	before := check("header hints agreeing with the hovers", flow, budgets)
	if refreshes() == 0 {
		t.Error("no workspace/inlayHint/refresh once the counts were made")
	}

	// The range of 乙's header line alone: its hint alone.
	line := headerAt(flow, "乙")
	only := hints(flow, protocol.Range{Start: protocol.Position{Line: line.Line}, End: line})
	if len(only) != 1 || !label.MatchString(only[line]) {
		t.Errorf("hints of 乙's header line: %v", only)
	}

	// The author names 黛玉 in 甲: her entity joins 甲's context.
	edited := strings.Replace(flow, "寫一段開頭。", "寫一段開頭：黛玉初到榮國府，林姑娘步步留心。", 1)
	if err := e.client.Notify(e.ctx, "textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"text": edited}}}); err != nil {
		t.Fatal(err)
	}
	after := check("甲's count after the edit", edited, budgets)
	if after["甲"] <= before["甲"] {
		t.Errorf("甲: %d tokens before naming 黛玉, %d after", before["甲"], after["甲"])
	}

	// The style guide doubles on disk.
	n := refreshes()
	p := filepath.Join(e.root, "meta", "style-guide.md")
	if err := os.WriteFile(p, []byte(guide+strings.Repeat("每段不超過三句。𝄞\n\n", 20)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := e.client.Notify(e.ctx, "workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": cache.FileURI(p), "type": 2}}}); err != nil {
		t.Fatal(err)
	}
	if err := e.client.WaitFor(e.ctx, "an inlay hint refresh", func(*lsptest.View) bool { return refreshes() > n }); err != nil {
		t.Fatal(err)
	}
	var grown map[string]int
	if err := e.client.WaitFor(e.ctx, "乙's count with the longer guide", func(*lsptest.View) bool {
		grown = check("the hints after the guide changed", edited, budgets)
		return grown["乙"] > after["乙"]
	}); err != nil {
		t.Fatalf("%v: 乙 %d -> %v", err, after["乙"], grown)
	}
}
