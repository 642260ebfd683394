package workbench

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/server/cache"
)

// TestCompareWithAnEarlierVersion: the outline is run, then the author
// edits the style guide every node is given and raises the outline's
// temperature, and runs it again. On the output document a lens offers
// to compare with v1; the comparison writes both sides for the diff
// view, each with its model, settings, tokens and context, the newer
// saying what changed.
func TestCompareWithAnEarlierVersion(t *testing.T) {
	e := start(t, llmtest.Script{
		Replies: []llmtest.Reply{
			{Match: &llmtest.Match{Contains: "outline chapter 11"}, Times: 1, Content: "Beat one: 林黛玉 arrives. 𝄞"},
			{Match: &llmtest.Match{Contains: "outline chapter 11"}, Times: -1, Content: "Beat one: Jane comes down."},
		},
		Default: &llmtest.Reply{Content: "Where the story stands."},
	})
	uri := e.open("workflows/chapter-11.flow")
	if _, err := e.command("flowcabal.runNode", map[string]any{"uri": uri, "node": "outline"}); err != nil {
		t.Fatal(err)
	}
	e.waitRuns(1)
	if _, err := e.command("flowcabal.compare", map[string]any{"uri": uri, "node": "outline"}); err == nil || !strings.Contains(err.Error(), "no other version") {
		t.Errorf("compare with one version: %v", err)
	}

	e.editKnowledge("meta/style-guide.md", "\nPrefer short paragraphs.\n")
	flow := filepath.Join(e.root, "workflows", "chapter-11.flow")
	src, _ := os.ReadFile(flow)
	edited := strings.Replace(string(src), "temperature = 0.7", "temperature = 0.9", 1)
	if err := os.WriteFile(flow, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := e.client.Notify(e.ctx, "textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": uri, "version": 2},
		"contentChanges": []any{map[string]any{"text": edited}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.client.Diagnostics(e.ctx, uri, 2); err != nil {
		t.Fatal(err)
	}
	if _, err := e.command("flowcabal.runNode", map[string]any{"uri": uri, "node": "outline"}); err != nil {
		t.Fatal(err)
	}
	e.waitRuns(2)

	// Prices set after the runs still cost them: the comparison prices
	// each side's tokens with the project's prices as they are now.
	cfgPath := filepath.Join(e.root, "flowcabal.toml")
	cfgText, err := os.ReadFile(cfgPath)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfgPath, append(cfgText, "\n[prices.writer]\ninput = 150\noutput = 600\n"...), 0o644); err != nil {
		t.Fatal(err)
	}

	p := filepath.Join(e.root, ".flowcabal", "outputs", "workflows", "chapter-11", "outline.md")
	text, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	out := cache.FileURI(p)
	e.openMarkdown(out, string(text))
	lens := e.waitLens(out, "⇄ Compare with v1")
	var res map[string]any
	if err := e.client.Call(e.ctx, "workspace/executeCommand", map[string]any{"command": lens.Command.Command, "arguments": lens.Command.Arguments}, &res); err != nil {
		t.Fatal(err)
	}
	if res["title"] != "outline: v1 ↔ v2" {
		t.Errorf("title %v", res["title"])
	}
	read := func(key string) string {
		path, ok := cache.URIPath(protocolURI(res[key]))
		if !ok {
			t.Fatalf("%s is no file URI: %v", key, res[key])
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	left, right := read("left"), read("right")
	for _, want := range []string{"# outline · v1", "temperature 0.7", "Beat one: 林黛玉 arrives. 𝄞", "meta/style-guide.md · L2"} {
		if !strings.Contains(left, want) {
			t.Errorf("the v1 side lacks %q:\n%s", want, left)
		}
	}
	for _, want := range []string{"# outline · v2", "temperature 0.9", "Beat one: Jane comes down.", "## Since v1",
		"- content changed: meta/style-guide.md", "- setting: temperature 0.7 → 0.9"} {
		if !strings.Contains(right, want) {
			t.Errorf("the v2 side lacks %q:\n%s", want, right)
		}
	}
	if strings.Contains(left, "## Since") {
		t.Errorf("the older side says what changed since:\n%s", left)
	}
	for _, side := range []string{left, right} {
		if !regexp.MustCompile(`- tokens: [0-9,]+ in · [0-9,]+ out · ≈\$[0-9.]+\n`).MatchString(side) {
			t.Errorf("a side has no cost:\n%s", side)
		}
		if strings.Contains(side, "- tokens: 0 in") {
			t.Errorf("a side has no prompt tokens:\n%s", side)
		}
	}
	tok := res["tokens"].(map[string]any)
	if tok["old"].(map[string]any)["prompt"].(float64) <= 0 || tok["new"].(map[string]any)["completion"].(float64) <= 0 {
		t.Errorf("tokens %v", tok)
	}
	if !strings.Contains(res["summary"].(string), "1 changed") || !strings.Contains(res["summary"].(string), "temperature 0.7 → 0.9") {
		t.Errorf("summary %q", res["summary"])
	}
	// Comparing the current output with itself is refused, clearly.
	if _, err := e.command("flowcabal.compare", map[string]any{"uri": uri, "node": "outline", "version": 2}); err == nil || !strings.Contains(err.Error(), "current output") {
		t.Errorf("compare v2 with itself: %v", err)
	}
}

func protocolURI(v any) protocol.DocumentURI {
	s, _ := v.(string)
	return protocol.DocumentURI(s)
}
