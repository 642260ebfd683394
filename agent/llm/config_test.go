package llm

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"
)

// TestConfigHidesCredentialsInTheURL: a base URL may carry a key (Azure's
// ?api-key=, a proxy's user:pw@); no way of printing or logging a Config
// shows it, and the rest of the URL is kept.
func TestConfigHidesCredentialsInTheURL(t *testing.T) {
	const secret = "s3cr3t-KEY-0123456789"
	for _, tc := range []struct{ base, want string }{
		{"https://example.openai.azure.com/openai?api-version=2024&api-key=" + secret, "https://example.openai.azure.com/openai"},
		{"https://user:" + secret + "@proxy.example/v1", "https://proxy.example/v1"},
		{"https://api.example/v1#key=" + secret, "https://api.example/v1"},
		{"https://api.example/v1?key=" + secret + "&x=%zz", "https://api.example/v1"},
		{"http://h:bad port/v1?key=" + secret, "http://h:bad port/v1"},
		{"https://api.example/v1", "https://api.example/v1"},
	} {
		c := Config{Name: "writer", BaseURL: tc.base, Model: "m", APIKey: NewSecret(secret + "-header")}
		var logs bytes.Buffer
		slog.New(slog.NewJSONHandler(&logs, nil)).Info("model", "cfg", c)
		shown := strings.Join([]string{c.String(), fmt.Sprintf("%v %+v %#v", c, c, c), logs.String()}, "\n")
		if strings.Contains(shown, secret) {
			t.Errorf("%s: the key is shown:\n%s", tc.base, shown)
		}
		if !strings.Contains(logs.String(), `"base_url":"`+tc.want+`"`) || !strings.Contains(c.String(), tc.want) {
			t.Errorf("%s: want %s in\n%s", tc.base, tc.want, shown)
		}
	}
}
