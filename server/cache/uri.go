package cache

import (
	"net/url"
	"path"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"
)

// URIPath returns the local file path of a file: URI. ok is false for any
// other scheme (untitled:, git:, vscode-notebook-cell:…) and for URIs that
// do not parse: such documents live only in memory, and code must not ask
// go.lsp.dev/uri for their file name, which panics.
func URIPath(u protocol.DocumentURI) (path string, ok bool) {
	// A URI that is its own key and holds no control character (which
	// URL parsing refuses) names its path as written: every request that
	// names files (a rename names two) need not parse a URL.
	if k, ok := canonical(string(u)); ok && !hasControl(string(k)) {
		return string(k)[len("file://"):], true
	}
	return parseURIPath(u)
}

// hasControl reports whether s holds an ASCII control character.
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return false
}

// parseURIPath is URIPath by parsing the URL, whatever its spelling.
func parseURIPath(u protocol.DocumentURI) (path string, ok bool) {
	s := string(u)
	if !strings.HasPrefix(strings.ToLower(s), "file:") {
		return "", false
	}
	pu, err := url.Parse(s)
	if err != nil || pu.Path == "" {
		return "", false
	}
	return filepath.Clean(filepath.FromSlash(pu.Path)), true
}

// FileURI returns the canonical file: URI of an absolute path.
func FileURI(path string) protocol.DocumentURI {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path)}
	return protocol.DocumentURI(u.String())
}

// Key is the identity of a document: two spellings of the same file URI
// (percent-encoding differences) give the same key.
type Key string

// KeyOf returns the key of a document URI.
func KeyOf(u protocol.DocumentURI) Key {
	if k, ok := canonical(string(u)); ok {
		return k
	}
	if p, ok := URIPath(u); ok {
		return Key("file://" + filepath.ToSlash(p))
	}
	return Key(u)
}

// canonical reports whether u is already a key: "file://" and a clean
// absolute path with nothing URL parsing would change (no escapes, query,
// fragment or host). Every request names its document, and most clients
// spell ASCII paths so: the key is then had without parsing a URL.
func canonical(u string) (Key, bool) {
	const scheme = "file://"
	if len(u) <= len(scheme) || u[:len(scheme)] != scheme || u[len(scheme)] != '/' || filepath.Separator != '/' {
		return "", false
	}
	p := u[len(scheme):]
	if strings.ContainsAny(p, "%?#\\") || path.Clean(p) != p {
		return "", false
	}
	return Key(u), true
}

// keyOfPath returns the key of a file path.
func keyOfPath(p string) Key { return Key("file://" + filepath.ToSlash(filepath.Clean(p))) }
