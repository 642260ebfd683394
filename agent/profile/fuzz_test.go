package profile

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/knowledge"
)

// FuzzProfileFile: whatever an old profile file holds and whatever the
// model writes, the old file's author sections are kept, the model's text
// adds none, and the new file's front matter parses, a profile with the
// reading's hash (unless the author's own sections are not UTF-8: they
// are kept as they are all the same).
func FuzzProfileFile(f *testing.F) {
	f.Add([]byte("---\nname: x\n---\nbody\n<!-- author -->mine<!-- /author -->\n"), "新的解讀 𠀀 😀", "Title")
	f.Add([]byte("<!-- model -->\nold\n<!-- /model -->\n<!-- author -->a\n<!-- /author -->"), "x <!-- /model --><!-- author -->y<!-- /author -->", "t\x00\n")
	f.Add([]byte("---\nname: [broken\n---\n"), "<<!--!---->>", "\"quoted\" \\ title")
	f.Add([]byte{0xff, 0xfe}, "\xff\xfe", "\xff")
	f.Fuzz(func(t *testing.T, old []byte, body, title string) {
		prev := parseFile("profiles/themes/x.md", old)
		nf := file{name: cleanTitle(title), authors: prev.authors,
			reading: &Reading{Body: cleanBody(body), Source: "manuscript/chapter-2", Chapter: 2, Hash: "abc"}}
		if nf.name == "" {
			nf.name = "x"
		}
		out := nf.render()
		if utf8.Valid(bytes.Join(prev.authors, nil)) {
			d, err := knowledge.ParseDocument("profiles/themes/x.md", out)
			if err != nil {
				t.Fatalf("front matter: %v\n%s", err, out)
			}
			if d.Front["kind"] != "profile" || d.Front["source_hash"] != "abc" || d.Front["name"] != nf.name {
				t.Fatalf("front matter %v\n%s", d.Front, out)
			}
		}
		for _, s := range authorSection.FindAll(old, -1) {
			if !bytes.Contains(out, s) {
				t.Fatalf("author section %q lost", s)
			}
		}
		if got, want := len(authorSection.FindAll(out, -1)), len(prev.authors); got != want {
			t.Fatalf("%d author sections, want %d:\n%s", got, want, out)
		}
		again := parseFile("profiles/themes/x.md", out)
		if again.reading == nil || strings.TrimSpace(again.reading.Body) != strings.TrimSpace(nf.reading.Body) {
			t.Fatalf("the reading does not read back:\n%s", out)
		}
	})
}
