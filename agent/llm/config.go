package llm

import (
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/flowcabal/flowcabal/project"
)

// The configuration names the project file and the editor settings use.
const (
	Writer    = "writer"
	Agent     = "agent"
	Embedding = "embedding"
)

// DefaultTimeout bounds one request when the configuration does not: the
// whole request for non-streaming calls, the silence between two chunks
// for streaming ones (a long chapter may stream for minutes; a stalled
// stream should not wait that long).
const DefaultTimeout = 120 * time.Second

// Config is one resolved model endpoint. Build it with [FromProject], adjust
// it with [Config.Merge], then pass it to [New].
//
// Formatting a Config with fmt or log/slog never shows the key.
type Config struct {
	// Name is the configuration's name ("writer", "agent", "embedding").
	Name        string
	BaseURL     string
	Model       string
	APIKeyEnv   string
	Temperature *float64
	MaxTokens   int
	Timeout     time.Duration
	// APIKey, when set, is used instead of the variable APIKeyEnv names.
	// The server sets it from the editor's secret storage.
	APIKey Secret
}

// FromProject returns the configuration called name in the project's
// flowcabal.toml. A name the file does not mention gives a Config with only
// Name set, which an editor override may complete.
func FromProject(pc *project.Config, name string) Config {
	c := Config{Name: name}
	if pc == nil {
		return c
	}
	if m, ok := pc.Models[name]; ok {
		c = c.Merge(m)
	}
	return c
}

// Merge returns c with every field that o sets replacing c's. Zero fields
// of o leave c's value: the editor's settings (workspace/configuration,
// decoded into a project.Model from its JSON) override the project file
// one field at a time.
func (c Config) Merge(o project.Model) Config {
	if o.BaseURL != "" {
		c.BaseURL = o.BaseURL
	}
	if o.Model != "" {
		c.Model = o.Model
	}
	if o.APIKeyEnv != "" {
		c.APIKeyEnv = o.APIKeyEnv
	}
	if o.Temperature != nil {
		t := *o.Temperature
		c.Temperature = &t
	}
	if o.MaxTokens > 0 {
		c.MaxTokens = o.MaxTokens
	}
	if o.TimeoutSeconds > 0 {
		c.Timeout = time.Duration(o.TimeoutSeconds) * time.Second
	}
	return c
}

// Endpoint names the endpoint for messages: base URL and model, never the
// key.
func (c Config) Endpoint() string {
	return fmt.Sprintf("%s (model %s)", strings.TrimRight(shownURL(c.BaseURL), "/"), c.Model)
}

// shownURL is base without the credentials a URL can carry (user:pw@,
// ?key=…), for messages and logs. A URL that does not parse loses
// everything from its first '?' and up to its last '@' all the same.
func shownURL(base string) string {
	if u, err := url.Parse(base); err == nil {
		if u.User != nil || u.RawQuery != "" || u.Fragment != "" {
			u.User, u.RawQuery, u.Fragment, u.RawFragment = nil, "", "", ""
			return u.String()
		}
		return base
	}
	base, _, _ = strings.Cut(base, "?")
	if i := strings.LastIndexByte(base, '@'); i >= 0 {
		scheme, _, ok := strings.Cut(base, "://")
		if ok {
			return scheme + "://" + base[i+1:]
		}
		return base[i+1:]
	}
	return base
}

// Validate reports what is missing before a request can be made.
func (c Config) Validate() error {
	var missing []string
	if c.BaseURL == "" {
		missing = append(missing, "base_url")
	}
	if c.Model == "" {
		missing = append(missing, "model")
	}
	if len(missing) > 0 {
		return fmt.Errorf("model configuration %q: missing %s (set [models.%s] in flowcabal.toml or the editor settings)",
			c.Name, strings.Join(missing, " and "), c.Name)
	}
	u, err := url.Parse(c.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("model configuration %q: base_url is not an http(s) URL", c.Name)
	}
	if u.User != nil {
		return fmt.Errorf("model configuration %q: base_url must not carry credentials; name the key's variable in api_key_env", c.Name)
	}
	return nil
}

// cleartextToRemote reports whether base names a plain-http endpoint off
// this machine: a key must not travel there.
func cleartextToRemote(base string) (string, bool) {
	u, err := url.Parse(base)
	if err != nil || u.Scheme != "http" {
		return "", false
	}
	host := u.Hostname()
	if host == "localhost" {
		return host, false
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return host, false
	}
	return host, true
}

// String describes c without its key.
func (c Config) String() string {
	key := "none"
	if !c.APIKey.Empty() {
		key = "set"
	} else if c.APIKeyEnv != "" {
		key = "$" + c.APIKeyEnv
	}
	return fmt.Sprintf("%s: %s key=%s", c.Name, c.Endpoint(), key)
}

// GoString is String, so that %#v does not print the key either.
func (c Config) GoString() string { return c.String() }

// LogValue gives slog the fields of c without the key.
func (c Config) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("name", c.Name),
		slog.String("base_url", shownURL(c.BaseURL)),
		slog.String("model", c.Model),
		slog.String("api_key_env", c.APIKeyEnv),
		slog.Bool("api_key_set", !c.APIKey.Empty()),
	)
}

// Secret holds an API key. Every way of printing it (fmt verbs, slog,
// encoding/json) shows "[redacted]"; only [Secret.Reveal] gives the key.
type Secret struct{ v string }

// NewSecret wraps a key.
func NewSecret(key string) Secret { return Secret{v: key} }

// Reveal returns the key, for the Authorization header only.
func (s Secret) Reveal() string { return s.v }

// Empty reports whether no key is held.
func (s Secret) Empty() bool { return s.v == "" }

const redacted = "[redacted]"

// String returns "[redacted]".
func (s Secret) String() string { return redacted }

// GoString returns "[redacted]".
func (s Secret) GoString() string { return redacted }

// Format prints "[redacted]" for every verb.
func (s Secret) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(redacted)) }

// LogValue returns "[redacted]".
func (s Secret) LogValue() slog.Value { return slog.StringValue(redacted) }

// MarshalJSON returns "[redacted]", so a Secret never reaches a file.
func (s Secret) MarshalJSON() ([]byte, error) { return []byte(`"` + redacted + `"`), nil }

// MarshalText returns "[redacted]".
func (s Secret) MarshalText() ([]byte, error) { return []byte(redacted), nil }

// EditorKeyEnv is the variable the editor extensions set to the author's
// key (see [project.EditorKeyEnv]).
const EditorKeyEnv = project.EditorKeyEnv

// resolveKey finds the key: the one set on c; else the variable
// c.APIKeyEnv names; else, when that is unnamed or unset, the editor's key
// (EditorKeyEnv). No key at all is fine when no variable is named (local
// servers often need none).
func (c Config) resolveKey(getenv func(string) string) (Secret, error) {
	if !c.APIKey.Empty() {
		return c.APIKey, nil
	}
	if c.APIKeyEnv != "" {
		if v := strings.TrimSpace(getenv(c.APIKeyEnv)); v != "" {
			return NewSecret(v), nil
		}
	}
	if v := strings.TrimSpace(getenv(EditorKeyEnv)); v != "" {
		return NewSecret(v), nil
	}
	if c.APIKeyEnv != "" {
		return Secret{}, fmt.Errorf("model configuration %q: environment variable %s (api_key_env) is not set, nor is an editor key (%s)",
			c.Name, c.APIKeyEnv, EditorKeyEnv)
	}
	return Secret{}, nil
}
