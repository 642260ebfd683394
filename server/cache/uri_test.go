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
		if p, ok := parseURIPath(u); ok {
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

// TestURIPathFastPathAgreesWithParsing: the path of a URI read without
// parsing it is the path parsing gives, and a URI parsing refuses (a
// control character) is refused, for Chinese, astral and odd spellings.
func TestURIPathFastPathAgreesWithParsing(t *testing.T) {
	for _, u := range []protocol.DocumentURI{
		"file:///w/workflows/a.flow", "file:///w/第五回 😀.flow", "file:///w/𝄞/乙.flow", "file:///w/a b.flow",
		"file:///w/%E7%AC%AC.flow", "file:///w/./a.flow", "file:///w//a.flow", "file:///w/a.flow?x=1",
		"file:///w/a.flow#frag", "file://host/w/a.flow", "file:///w/a.flow/", "FILE:///w/a.flow", "file://",
		"untitled:Untitled-1", "file:///w/a\\b.flow", "file:///w/a;b.flow", "file:///w/a\x7f.flow", "file:///w/a\tb.flow",
		"file:///w/a\nb.flow", "file:///", "file:///w/manuscript/chapter-001-renamed",
	} {
		got, ok := URIPath(u)
		want, wantOK := parseURIPath(u)
		if got != want || ok != wantOK {
			t.Errorf("%q: path %q %v, parsing gives %q %v", u, got, ok, want, wantOK)
		}
	}
}

// FuzzKeyOf: whatever the URI, the fast paths of KeyOf and URIPath never
// disagree with parsing.
func FuzzKeyOf(f *testing.F) {
	for _, s := range []string{"file:///w/a.flow", "file:///w/%41.flow", "file:///w/../a.flow", "file:///ü/😀.flow", "file:///a;b", "file:///a\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, ok := URIPath(protocol.DocumentURI(s))
		if q, qok := parseURIPath(protocol.DocumentURI(s)); p != q || ok != qok {
			t.Fatalf("%q: path %q %v, parsing gives %q %v", s, p, ok, q, qok)
		}
		k, fast := canonical(s)
		if !fast {
			return
		}
		if p, ok := parseURIPath(protocol.DocumentURI(s)); ok {
			if want := Key("file://" + filepath.ToSlash(p)); k != want {
				t.Fatalf("%q: fast key %q, parsing gives %q", s, k, want)
			}
		} else if k != Key(s) {
			t.Fatalf("%q: fast key %q for an unparsable URI", s, k)
		}
	})
}
