package llm

import (
	"fmt"
	"net"
	"net/url"
	"strings"
)

// TrustedHostsEnv names the variable that lists, separated by commas or
// spaces, the further hosts (or host:port) an API key may be sent to;
// "*" trusts every host.
const TrustedHostsEnv = "FLOWCABAL_TRUSTED_HOSTS"

// knownProviders are public OpenAI-compatible endpoints a key may go to
// without being listed. A project file is written by whoever wrote the
// project: a cloned project whose flowcabal.toml points base_url at a
// host of its choosing must not collect the author's key, so any other
// remote host has to be named by the author (TrustedHostsEnv).
var knownProviders = []string{
	"api.openai.com", "openrouter.ai", "api.deepseek.com", "api.anthropic.com", "api.mistral.ai",
	"api.groq.com", "api.together.xyz", "api.fireworks.ai", "generativelanguage.googleapis.com",
	"dashscope.aliyuncs.com", "dashscope-intl.aliyuncs.com", "api.moonshot.cn", "api.moonshot.ai",
	"open.bigmodel.cn", "api.siliconflow.cn", "ark.cn-beijing.volces.com", "api.x.ai",
}

// keyAllowed reports, as an error naming what to do, when baseURL is not
// a host the key may be sent to: loopback, a known provider (or a
// subdomain of one, such as an Azure-style resource host under it), or a
// host the author listed in TrustedHostsEnv.
func keyAllowed(name, baseURL string, getenv func(string) string) error {
	u, err := url.Parse(baseURL)
	if err != nil || u.Host == "" {
		return nil // Validate reports a bad URL on its own
	}
	host := strings.ToLower(u.Hostname())
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	for _, p := range knownProviders {
		if host == p || strings.HasSuffix(host, "."+p) {
			return nil
		}
	}
	hostport := strings.ToLower(u.Host)
	for _, t := range strings.FieldsFunc(getenv(TrustedHostsEnv), func(r rune) bool { return r == ',' || r == ' ' || r == ';' }) {
		t = strings.ToLower(strings.TrimSpace(t))
		if t == "*" || t == host || t == hostport {
			return nil
		}
	}
	return fmt.Errorf("model configuration %q: not sending the API key to %s, which is not a known provider: "+
		"a project's flowcabal.toml could point it anywhere. If you trust this endpoint, add %q to %s in your environment "+
		"(or your editor's server environment)", name, host, host, TrustedHostsEnv)
}
