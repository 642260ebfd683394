package monitor

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/flowcabal/flowcabal/store"
)

// A model's evidence is free text; the resource or chapter it cites is
// picked out so an editor can point at it (LSP related information). A
// citation of something the project does not have is not kept.

var (
	citedPath    = regexp.MustCompile(`@?((?:entities|meta|manuscript|profiles|summaries)/[\p{L}\p{N}_./-]+)`)
	citedChapter = regexp.MustCompile(`(?i)\bchapter\s+(\d{1,5})\b|第\s*(\d{1,5})\s*[章回]`)
)

// cite fills ev's Resource and Chapter from the model's evidence text,
// checked against st when there is one. It returns a note when the model
// cited a resource or chapter the project lacks.
func cite(st *store.Store, ev *Evidence, text string) string {
	var note string
	if m := citedPath.FindStringSubmatch(text); m != nil {
		p := strings.TrimSuffix(strings.TrimRight(m[1], "./-"), ".md")
		if st == nil {
			ev.Resource = p
		} else if _, err := st.Resource(p); err == nil {
			ev.Resource = p
		} else if errors.Is(err, store.ErrNotFound) {
			note = fmt.Sprintf("cites %s, which the project does not have", p)
		}
	}
	if m := citedChapter.FindStringSubmatch(text); m != nil {
		d := m[1]
		if d == "" {
			d = m[2]
		}
		n, _ := strconv.Atoi(d)
		if st == nil {
			ev.Chapter = n
		} else if _, err := st.Chapter(n); err == nil {
			ev.Chapter = n
		} else if errors.Is(err, store.ErrNotFound) && note == "" {
			note = fmt.Sprintf("cites chapter %d, which the project does not have", n)
		}
	}
	return note
}
