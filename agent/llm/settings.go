package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/flowcabal/flowcabal/project"
)

// ParseEditorSettings reads the model overrides the editors send through
// workspace/configuration. Both editors write
//
//	{"models": {"writer": {"baseUrl": …, "model": …, "apiKeyEnv": …}, …}}
//
// possibly inside {"flowcabal": …}; snake_case keys (base_url) as in
// flowcabal.toml are accepted too, as are temperature, maxTokens and
// timeoutSeconds. The result feeds [Config.Merge]. A key itself in the
// settings ("apiKey") is refused: keys belong in the editor's secret
// storage, not in a settings file. Errors never quote values.
func ParseEditorSettings(data []byte) (map[string]project.Model, error) {
	out := map[string]project.Model{}
	data = bytes.TrimSpace(data)
	if len(data) == 0 || string(data) == "null" {
		return out, nil
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, fmt.Errorf("editor settings: not a JSON object")
	}
	if inner, ok := top["flowcabal"]; ok {
		if err := json.Unmarshal(inner, &top); err != nil {
			return nil, fmt.Errorf("editor settings: flowcabal is not an object")
		}
	}
	raw, ok := top["models"]
	if !ok || string(raw) == "null" {
		return out, nil
	}
	var models map[string]map[string]json.RawMessage
	if err := json.Unmarshal(raw, &models); err != nil {
		return nil, fmt.Errorf("editor settings: models must be an object of objects")
	}
	names := make([]string, 0, len(models))
	for name := range models {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		var m project.Model
		for key, val := range models[name] {
			if string(val) == "null" {
				continue
			}
			where := fmt.Sprintf("editor settings: models.%s.%s", name, key)
			var err error
			switch norm := strings.ToLower(strings.ReplaceAll(key, "_", "")); norm {
			case "baseurl":
				err = json.Unmarshal(val, &m.BaseURL)
			case "model":
				err = json.Unmarshal(val, &m.Model)
			case "apikeyenv":
				err = json.Unmarshal(val, &m.APIKeyEnv)
			case "tokenizer":
				err = json.Unmarshal(val, &m.Tokenizer)
			case "temperature":
				var t float64
				if err = json.Unmarshal(val, &t); err == nil {
					m.Temperature = &t
				}
			case "maxtokens":
				err = json.Unmarshal(val, &m.MaxTokens)
			case "timeoutseconds":
				err = json.Unmarshal(val, &m.TimeoutSeconds)
			case "apikey", "key", "token", "secret":
				return nil, fmt.Errorf("%s: an API key does not belong in the settings; store it with the editor's \"set API key\" command (secret storage)", where)
			default:
				// Unknown keys are left for newer servers and other tools.
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("%s: wrong type", where)
			}
		}
		out[name] = m
	}
	return out, nil
}
