package source

import (
	"testing"

	"github.com/flowcabal/flowcabal/workflowlang"
)

// TestLineWalker: the walker gives every offset the position the whole
// text's mapper gives, in every encoding, with Chinese, astral characters,
// CRLF, invalid UTF-8 and offsets that go backwards or past the end.
func TestLineWalker(t *testing.T) {
	for _, src := range []string{
		"",
		"a😀b\n第𠀀c\n",
		"node 第一 {\r\n  user \"\"\"\r\n    𠀀{{x}}\r\n\"\"\"\r\n}",
		"\n\n\xff\xfeab\n\xe7\xac",
		"no newline at all 黛玉",
	} {
		for _, enc := range []workflowlang.Encoding{workflowlang.UTF8, workflowlang.UTF16, workflowlang.UTF32} {
			m := workflowlang.NewMapper([]byte(src))
			w := lineWalker{src: []byte(src)}
			offs := []int{}
			for i := 0; i <= len(src)+1; i++ {
				offs = append(offs, i)
			}
			offs = append(offs, len(src)/2, 0, len(src)) // backwards, then on
			for _, off := range offs {
				got := w.position(off, enc)
				want := pos(m.Position(off, enc))
				if got != want {
					t.Errorf("%q enc %v offset %d: %v, want %v", src, enc, off, got, want)
				}
			}
		}
	}
}
