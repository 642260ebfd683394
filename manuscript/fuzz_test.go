package manuscript

import (
	"strings"
	"testing"
)

// FuzzSplit: any bytes either fail with an error or split into pieces
// that hold every non-whitespace character of the decoded text; nothing
// panics.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{
		"Chapter I\n\nIt is a truth.\n\nChapter II\n\nMr. Bennet.\n",
		"楔子\n\n話說。\n第1章 起\n　　行者道：\n番外\n完",
		"Book One, Chapter I\n\nx\n\nPart II\n\nepigraph\n\nChapter 1\n\ny\n",
		"PRIDE\r\n\r\nChapter 1\r\ntext\rmore",
		"\ufeff12.\n\nOne.\n\n13.\n\nTwo.\n",
		"卷一\n第一章\n甲\n卷二\n",
	} {
		f.Add([]byte(s), false)
	}
	f.Fuzz(func(t *testing.T, data []byte, whole bool) {
		text, _, err := Decode(data, "")
		if err != nil {
			return
		}
		b, err := Split(Source{Name: "f", Text: text, Whole: whole})
		if err != nil {
			return
		}
		var out strings.Builder
		for _, c := range b.Chapters {
			out.WriteString(c.Text)
		}
		for _, c := range b.Extras {
			out.WriteString(c.Text)
		}
		for _, a := range b.Arcs {
			if a.Line > 0 {
				out.WriteString(a.Heading)
			}
		}
		var in, got strings.Builder
		writeDense(&in, normalizeNewlines(text))
		writeDense(&got, out.String())
		if !sameRunes(in.String(), got.String()) {
			t.Fatalf("text lost or added:\n in %q\nout %q", in.String(), got.String())
		}
	})
}
