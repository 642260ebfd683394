package llm

import (
	"errors"
	"testing"
)

var fuzzSchema = map[string]any{
	"type": "object",
	"properties": map[string]any{
		"decision": map[string]any{"type": "string", "enum": []any{"approve", "retry", "flag"}},
		"issues":   map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
	},
	"required":             []any{"decision"},
	"additionalProperties": false,
}

func TestSchemaCheck(t *testing.T) {
	cs, err := compileSchema(fuzzSchema)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		in string
		ok bool
	}{
		{`{"decision": "approve"}`, true},
		{"```json\n{\"decision\": \"flag\", \"issues\": [\"x\"]}\n```", true},
		{`{"decision": "maybe"}`, false},
		{`{"decision": "approve", "extra": 1}`, false},
		{`{}`, false},
		{`["approve"]`, false},
		{`{"decision": "approve"`, false},
		{"", false},
		{"\xff\xfe", false},
	} {
		raw, err := cs.check(tt.in)
		if tt.ok != (err == nil) {
			t.Errorf("%q: err = %v", tt.in, err)
		}
		if err != nil && !errors.Is(err, ErrSchema) {
			t.Errorf("%q: %v is not ErrSchema", tt.in, err)
		}
		if err == nil && len(raw) == 0 {
			t.Errorf("%q: no JSON returned", tt.in)
		}
	}
	// The message names each violation and where, on one line, for the
	// agent's repair round.
	_, err = cs.check(`{"decision": "maybe", "extra": 1}`)
	want := `reply does not match the schema: at /decision: value must be one of 'approve', 'retry', 'flag'; at (root): additional properties 'extra' not allowed`
	if err == nil || err.Error() != want {
		t.Errorf("message:\n got %v\nwant %s", err, want)
	}
}

// FuzzSchemaCheck: any model output gives a value or ErrSchema, never a
// panic.
func FuzzSchemaCheck(f *testing.F) {
	cs, err := compileSchema(fuzzSchema)
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{`{"decision": "approve"}`, "```json\n{}\n```", `[1,2`, `{"decision": "retry", "issues": ["a", 1]}`, "```"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		raw, err := cs.check(s)
		if err != nil && !errors.Is(err, ErrSchema) {
			t.Fatalf("%q: %v", s, err)
		}
		if err == nil && len(raw) == 0 {
			t.Fatalf("%q: accepted with no JSON", s)
		}
	})
}
