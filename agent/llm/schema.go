package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// compiledSchema checks structured output against the request's schema.
type compiledSchema struct{ s *jsonschema.Schema }

func compileSchema(schema map[string]any) (*compiledSchema, error) {
	if schema == nil {
		return nil, fmt.Errorf("no schema given")
	}
	// Round-trip through JSON so that Go ints and floats become the
	// json.Number the validator expects.
	data, err := json.Marshal(schema)
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	const loc = "mem:///schema.json"
	if err := c.AddResource(loc, doc); err != nil {
		return nil, err
	}
	s, err := c.Compile(loc)
	if err != nil {
		return nil, err
	}
	return &compiledSchema{s: s}, nil
}

// check parses content as JSON and validates it. Models sometimes wrap
// JSON in a Markdown fence; that is tolerated, nothing else is.
func (cs *compiledSchema) check(content string) (json.RawMessage, error) {
	text := strings.TrimSpace(content)
	if strings.HasPrefix(text, "```") {
		text = strings.TrimPrefix(text, "```json")
		text = strings.TrimPrefix(text, "```")
		text = strings.TrimSuffix(strings.TrimSpace(text), "```")
		text = strings.TrimSpace(text)
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		return nil, fmt.Errorf("%w: not JSON: %v", ErrSchema, err)
	}
	if err := cs.s.Validate(v); err != nil {
		return nil, fmt.Errorf("%w: %s", ErrSchema, describe(err))
	}
	return json.RawMessage(text), nil
}

// describe turns a validation error into one line a model can act on in a
// repair round: "at /decision: value must be one of …; at (root): …".
func describe(err error) string {
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return err.Error()
	}
	var parts []string
	for _, u := range ve.BasicOutput().Errors {
		if u.Error == nil {
			continue
		}
		loc := u.InstanceLocation
		if loc == "" {
			loc = "(root)"
		}
		parts = append(parts, "at "+loc+": "+u.Error.String())
	}
	if len(parts) == 0 {
		return err.Error()
	}
	return strings.Join(parts, "; ")
}
