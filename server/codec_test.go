package server

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	fastjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/protocol"
)

// TestCodecMatchesEncodingJSON: decode and encodeTo use segmentio's codec
// for speed; what they read and write must be what encoding/json would,
// on the values the server sends and the payloads clients send.
func TestCodecMatchesEncodingJSON(t *testing.T) {
	one := 1
	for _, v := range []any{
		"a\xffb", "😀<>&\u2028\u2029", 1.0, 3.5, float64(1e21), map[string]any{"x": nil}, []int(nil),
		struct {
			A string `json:"a,omitempty"`
			B *int   `json:"b"`
		}{B: &one},
		[]protocol.Diagnostic{{Range: protocol.Range{End: protocol.Position{Line: 2, Character: 7}}, Severity: protocol.DiagnosticSeverityError, Code: "unknown-ref", Message: "{{前青}} 😀", Data: map[string]any{"suggestions": []string{"前情"}}}},
		[]protocol.DocumentHighlight{{Kind: protocol.DocumentHighlightKindWrite}},
		&protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: "### node `前情`\n\n| a | b |"}},
	} {
		var std bytes.Buffer
		e := json.NewEncoder(&std)
		e.SetEscapeHTML(false)
		if err := e.Encode(v); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		if err := encodeTo(&got, v); err != nil {
			t.Fatalf("%#v: %v", v, err)
		}
		if got.String()+"\n" != std.String() {
			t.Errorf("encode %#v:\n got %s\nwant %s", v, got.String(), std.String())
		}
	}
	// Real initialize payloads, and odd params.
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "lsp", "initialize", "*.json"))
	if len(paths) == 0 {
		t.Fatal("no initialize payloads")
	}
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var std, got initializeParams
		if err := json.Unmarshal(raw, &std); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if err := decode(raw, &got); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if !reflect.DeepEqual(std, got) {
			t.Errorf("%s decodes differently", p)
		}
	}
	for _, in := range []string{`{"Text":"a\xffb"}`, `{"text":"x","TEXT":"y"}`, `{"text":"\ud800"}`, `{"n":1e400}`, `{"text":1}`, `{"text":"😀","n":-0}`} {
		var std, got struct {
			Text string  `json:"text"`
			N    float64 `json:"n"`
		}
		e1 := json.Unmarshal([]byte(in), &std)
		e2 := fastjson.Unmarshal([]byte(in), &got)
		if (e1 == nil) != (e2 == nil) || std != got {
			t.Errorf("decode %q: encoding/json %+v %v, ours %+v %v", in, std, e1, got, e2)
		}
	}
}
