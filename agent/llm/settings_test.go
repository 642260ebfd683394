package llm_test

import (
	"strings"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/project"
)

func TestParseEditorSettings(t *testing.T) {
	m, err := llm.ParseEditorSettings([]byte(`{"flowcabal": {"models": {
		"writer": {"baseUrl": "http://127.0.0.1:8089/v1", "model": "w", "apiKeyEnv": "K", "temperature": 0.9, "maxTokens": 800},
		"agent": {"base_url": "http://127.0.0.1:1/v1", "timeout_seconds": 5, "futureSetting": true},
		"embedding": {"model": null}
	}}}`))
	if err != nil {
		t.Fatal(err)
	}
	w := m["writer"]
	if w.BaseURL != "http://127.0.0.1:8089/v1" || w.Model != "w" || w.APIKeyEnv != "K" || *w.Temperature != 0.9 || w.MaxTokens != 800 {
		t.Errorf("writer = %+v", w)
	}
	if a := m["agent"]; a.BaseURL != "http://127.0.0.1:1/v1" || a.TimeoutSeconds != 5 {
		t.Errorf("agent = %+v", a)
	}
	if e, ok := m["embedding"]; !ok || e.Configured() {
		t.Errorf("embedding = %+v %v", e, ok)
	}
	// Merged over the project file: set fields win, others stay.
	temp := 0.3
	base := llm.FromProject(&project.Config{Models: map[string]project.Model{
		"agent": {BaseURL: "http://file/v1", Model: "file-model", APIKeyEnv: "FILE_KEY", Temperature: &temp},
	}}, "agent").Merge(m["agent"])
	if base.BaseURL != "http://127.0.0.1:1/v1" || base.Model != "file-model" || base.APIKeyEnv != "FILE_KEY" || base.Timeout != 5*time.Second || *base.Temperature != 0.3 {
		t.Errorf("merged = %+v", base)
	}

	for _, tt := range []struct{ in, want string }{
		{`[]`, "not a JSON object"},
		{`{"models": []}`, "object of objects"},
		{`{"models": {"writer": {"maxTokens": "lots"}}}`, "models.writer.maxTokens: wrong type"},
		{`{"models": {"writer": {"apiKey": "sk-secret-value"}}}`, "secret storage"},
	} {
		_, err := llm.ParseEditorSettings([]byte(tt.in))
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "sk-secret-value") {
			t.Errorf("%s: err = %v, want %q", tt.in, err, tt.want)
		}
	}
	for _, empty := range []string{``, `null`, `{}`, `{"models": null}`} {
		if m, err := llm.ParseEditorSettings([]byte(empty)); err != nil || len(m) != 0 {
			t.Errorf("%q: %v %v", empty, m, err)
		}
	}
}

func TestEndpointChecks(t *testing.T) {
	key := func(string) string { return "sk-x" }
	trusting := func(hosts string) func(string) string {
		return func(v string) string {
			if v == llm.TrustedHostsEnv {
				return hosts
			}
			return "sk-x"
		}
	}
	for _, tt := range []struct {
		base string
		env  func(string) string
		err  string
	}{
		{"http://192.0.2.7:8000/v1", key, "plain http"},
		{"http://models.example.com/v1", key, "plain http"},
		{"http://192.0.2.7:8000/v1", func(string) string { return "" }, ""}, // no key: nothing to protect
		// A key goes to a remote host only when it is a known provider or
		// the author trusts it: a project file could name any host.
		{"https://models.example.com/v1", key, "not a known provider"},
		{"https://models.example.com/v1", trusting("other.example.org, models.example.com"), ""},
		{"https://models.example.com:8443/v1", trusting("models.example.com:8443"), ""},
		{"https://models.example.com/v1", trusting("*"), ""},
		{"https://evil.example/v1", trusting("models.example.com"), "FLOWCABAL_TRUSTED_HOSTS"},
		{"https://api.openai.com/v1", key, ""},
		{"https://myres.openai.azure.com/v1", key, "not a known provider"},
		{"https://api.deepseek.com", key, ""},
		{"https://openrouter.ai/api/v1", key, ""},
		{"https://evilopenai.com/v1", key, "not a known provider"},
		{"https://192.0.2.7:8000/v1", func(string) string { return "" }, ""}, // no key, no question
		{"http://127.0.0.1:8089/v1", key, ""},
		{"http://localhost:8089/v1", key, ""},
		{"http://[::1]:8089/v1", key, ""},
		{"ftp://models.example.com", key, "not an http(s) URL"},
		{"models.example.com/v1", key, "not an http(s) URL"},
		{"https://user:pw@models.example.com/v1", key, "credentials"},
	} {
		_, err := llm.New(llm.Config{Name: "writer", BaseURL: tt.base, Model: "m", APIKeyEnv: "K"}, llm.Options{Getenv: tt.env})
		if tt.err == "" && err != nil && !strings.Contains(err.Error(), "is not set") {
			t.Errorf("%s: %v", tt.base, err)
		}
		if tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%s: err = %v, want %q", tt.base, err, tt.err)
		}
		if err != nil && (strings.Contains(err.Error(), "sk-x") || strings.Contains(err.Error(), "pw")) {
			t.Errorf("%s: key in error", tt.base)
		}
	}
}
