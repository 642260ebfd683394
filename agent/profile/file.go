package profile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/flowcabal/flowcabal/knowledge"
)

// A profile file has up to three parts after its front matter, each
// owned by one writer:
//
//	# Name — profile            the factual part (entity profiles only),
//	Appears in …                rebuilt from the index on every curation
//
//	<!-- model -->              the agent model's reading, rewritten only by
//	…                           a model pass over a curated chapter
//	<!-- /model -->
//
//	<!-- author -->             the author's own sections, never rewritten
//	…
//	<!-- /author -->
//
// Each writer carries the other parts over unchanged, so the factual
// rebuild keeps the model's section and the model pass keeps the facts.

var (
	authorSection = regexp.MustCompile(`(?s)<!-- author -->.*?<!-- /author -->`)
	modelSection  = regexp.MustCompile(`(?s)<!-- model -->\n?(.*?)\n?<!-- /model -->`)
)

// Reading is the model's section of a profile and where it came from.
type Reading struct {
	// Body is the section's Markdown, without the markers.
	Body string
	// Source is the resource of the chapter it was written from
	// ("manuscript/chapter-11"), Chapter its number (0 if none).
	Source  string
	Chapter int
	// Hash identifies the chapter text it was written from (SourceHash).
	Hash string
}

// file is a profile file taken apart.
type file struct {
	name  string // the front matter's name
	about string // the entity resource, or ""
	// authorsOwn marks a file the author wrote: text outside the author's
	// sections and no generated: field in the front matter. The model
	// does not rewrite it.
	authorsOwn bool
	factual    string
	reading    *Reading
	authors    [][]byte
}

// parseFile reads the parts of an existing profile file. A file that
// does not parse leaves the reading's provenance empty: the next model
// pass then writes it again.
func parseFile(rel string, data []byte) file {
	var f file
	f.authors = authorSection.FindAll(data, -1)
	f.authorsOwn = len(bytes.TrimSpace(authorSection.ReplaceAll(data, nil))) > 0
	d, _ := knowledge.ParseDocument(rel, data)
	if d == nil {
		// Not a document (not UTF-8): the model's section is kept all
		// the same, so that the factual rebuild does not lose it.
		if m := modelSection.FindSubmatch(data); m != nil {
			f.reading = &Reading{Body: strings.ToValidUTF8(string(m[1]), "\uFFFD")}
		}
		return f
	}
	f.name, _ = d.Front["name"].(string)
	f.about, _ = d.Front["about"].(string)
	if g, _ := d.Front["generated"].(string); g != "" {
		f.authorsOwn = false
	}
	if m := modelSection.FindStringSubmatch(d.Body); m != nil {
		r := &Reading{Body: m[1]}
		r.Source, _ = d.Front["source"].(string)
		r.Hash, _ = d.Front["source_hash"].(string)
		switch n := d.Front["source_chapter"].(type) {
		case int:
			r.Chapter = n
		case int64:
			r.Chapter = int(n)
		case uint64:
			r.Chapter = int(n)
		}
		f.reading = r
	}
	return f
}

// render writes the profile file. Without a reading it is byte for byte
// the factual profile as it has always been written.
func (f file) render() []byte {
	var b bytes.Buffer
	b.WriteString("---\n")
	fmt.Fprintf(&b, "name: %s\n", quote(f.name))
	b.WriteString("kind: profile\n")
	if f.about != "" {
		fmt.Fprintf(&b, "about: %s\n", f.about)
	}
	switch {
	case f.reading == nil:
		b.WriteString("generated: factual\n")
	case f.factual != "":
		b.WriteString("generated: factual, model\n")
	default:
		b.WriteString("generated: model\n")
	}
	if r := f.reading; r != nil {
		if r.Source != "" {
			fmt.Fprintf(&b, "source: %s\n", quote(r.Source))
		}
		if r.Chapter > 0 {
			fmt.Fprintf(&b, "source_chapter: %d\n", r.Chapter)
		}
		fmt.Fprintf(&b, "source_hash: %s\n", r.Hash)
	}
	b.WriteString("---\n")
	b.WriteString(f.factual)
	if r := f.reading; r != nil {
		if f.factual != "" {
			b.WriteString("\n")
		} else {
			fmt.Fprintf(&b, "# %s\n\n", oneLine(f.name))
		}
		// Whoever reads the profile (the author, Role A's context) sees
		// how recent the reading is.
		switch {
		case r.Chapter > 0:
			fmt.Fprintf(&b, "_As of chapter %d._\n\n", r.Chapter)
		case r.Source != "":
			fmt.Fprintf(&b, "_As of %s._\n\n", oneLine(r.Source))
		}
		b.WriteString("<!-- model -->\n")
		b.WriteString(strings.TrimSpace(r.Body))
		b.WriteString("\n<!-- /model -->\n")
	}
	for _, s := range f.authors {
		b.WriteString("\n")
		b.Write(s)
		b.WriteString("\n")
	}
	return b.Bytes()
}

// quote writes s as a YAML double-quoted scalar. Go's quoting is valid
// YAML for the printable text that reaches here (control characters are
// escaped the way both understand).
func quote(s string) string { return strconv.Quote(s) }

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// writeIfChanged writes data to the file rel under root unless the file
// already holds exactly that, and reports whether it wrote. The write is
// atomic: a crash leaves the old file or the new one.
func writeIfChanged(full string, old, data []byte) (bool, error) {
	if bytes.Equal(old, data) {
		return false, nil
	}
	dir := filepath.Dir(full)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, err
	}
	tmp, err := os.CreateTemp(dir, ".profile-*.tmp")
	if err != nil {
		return false, err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return false, err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return false, err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		os.Remove(tmp.Name())
		return false, err
	}
	if err := os.Rename(tmp.Name(), full); err != nil {
		os.Remove(tmp.Name())
		return false, err
	}
	return true, nil
}
