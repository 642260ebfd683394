package cache

import (
	"path/filepath"
	"testing"

	"go.lsp.dev/protocol"
)

// TestKeyOfFastPathAgreesWithParsing: a URI taken as its own key without
// parsing must be the key parsing gives.
func TestKeyOfFastPathAgreesWithParsing(t *testing.T) {
	parsed := func(u protocol.DocumentURI) Key {
		if p, ok := URIPath(u); ok {
			return Key("file://" + filepath.ToSlash(p))
		}
		return Key(u)
	}
	for _, tc := range []struct {
		uri  protocol.DocumentURI
		fast bool // taken as is
	}{
		{"file:///w/workflows/a.flow", true},
		{"file:///w/第五回 😀.flow", true},
		{"file:///w/a b.flow", true},
		{"file:///w/%E7%AC%AC.flow", false},
		{"file:///w/./a.flow", false},
		{"file:///w//a.flow", false},
		{"file:///w/a.flow?x=1", false},
		{"file:///w/a.flow#frag", false},
		{"file://host/w/a.flow", false},
		{"file:///w/a.flow/", false},
		{"FILE:///w/a.flow", false},
		{"file://", false},
		{"untitled:Untitled-1", false},
		{"file:///w/a\\b.flow", false},
	} {
		_, fast := canonical(string(tc.uri))
		if fast != tc.fast {
			t.Errorf("%s: taken as is %v, want %v", tc.uri, fast, tc.fast)
		}
		if got, want := KeyOf(tc.uri), parsed(tc.uri); got != want {
			t.Errorf("%s: key %q, parsing gives %q", tc.uri, got, want)
		}
	}
}

// FuzzKeyOf: whatever the URI, the fast path never disagrees with parsing.
func FuzzKeyOf(f *testing.F) {
	for _, s := range []string{"file:///w/a.flow", "file:///w/%41.flow", "file:///w/../a.flow", "file:///ü/😀.flow", "file:///a;b", "file:///a\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k, fast := canonical(s)
		if !fast {
			return
		}
		if p, ok := URIPath(protocol.DocumentURI(s)); ok {
			if want := Key("file://" + filepath.ToSlash(p)); k != want {
				t.Fatalf("%q: fast key %q, parsing gives %q", s, k, want)
			}
		} else if k != Key(s) {
			t.Fatalf("%q: fast key %q for an unparsable URI", s, k)
		}
	})
}
