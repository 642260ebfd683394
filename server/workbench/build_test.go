package workbench

import (
	"bytes"
	"encoding/json"
	"testing"

	fastjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/protocol"
)

// TestBuildArgumentsAreTheMapsJSON: a build command's argument, a struct
// so that the encoder needs no sorted map, encodes (with encoding/json
// and with the server's encoder) to the bytes of the map it replaced, on
// Chinese and astral node names, URIs and intents with quotes, newlines
// and <>&.
func TestBuildArgumentsAreTheMapsJSON(t *testing.T) {
	for _, a := range []buildArgs{
		{Node: "黛玉", Text: "Split node 黛玉 into scene nodes: \"quoted\"\n<b>&", URI: "file:///w/%E7%AC%AC%F0%9D%84%9E.flow"},
		{Node: "𝄞", Text: "", URI: `file:///w/q"uote\.flow`},
		{},
	} {
		m := map[string]any{"uri": a.URI, "node": a.Node, "text": a.Text}
		for name, enc := range map[string]func(any) string{
			"encoding/json": func(v any) string {
				var b bytes.Buffer
				e := json.NewEncoder(&b)
				e.SetEscapeHTML(false)
				_ = e.Encode(v)
				return b.String()
			},
			"the server's encoder": func(v any) string {
				var b bytes.Buffer
				e := fastjson.NewEncoder(&b)
				e.SetEscapeHTML(false)
				_ = e.Encode(v)
				return b.String()
			},
		} {
			if got, want := enc([]any{a}), enc([]any{m}); got != want {
				t.Errorf("%s: %s, the map gave %s", name, got, want)
			}
		}
	}
	var act protocol.CodeAction
	buildCommand(&act, "file:///w/a.flow", "黛玉", "Split 黛玉", "intent")
	raw, _ := json.Marshal(act.Command.Arguments)
	var back []map[string]string
	if err := json.Unmarshal(raw, &back); err != nil || len(back) != 1 || back[0]["node"] != "黛玉" || back[0]["text"] != "intent" || back[0]["uri"] != "file:///w/a.flow" || len(back[0]) != 3 {
		t.Errorf("the command's arguments: %s (%v)", raw, err)
	}
}
