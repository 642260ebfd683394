package manuscript

import (
	"strings"
	"testing"
)

// FuzzSplit: any bytes that decode to some text split into pieces that
// hold every non-whitespace character of it, in order; nothing panics.
func FuzzSplit(f *testing.F) {
	for _, s := range []string{
		"Chapter I\n\nIt is a truth.\n\nChapter II\n\nMr. Bennet.\n",
		"楔子\n\n話說。\n第1章 起\n　　行者道：\n番外\n完",
		"Book One, Chapter I\n\nx\n\nPart II\n\nepigraph\n\nChapter 1\n\ny\n",
		"PRIDE\r\n\r\nChapter 1\r\ntext\rmore",
		"\ufeff12.\n\nOne.\n\n13.\n\nTwo.\n",
		"卷一\n第一章\n甲\n卷二\n",
		"第1章 初見\n\n好。\n\n第二卷 雲湧\n\n嗯。\n",
		"正文 第1章 甲\n\n乙\n\n第一卷 風起 第2章 丙\n\n丁\n\n【第3章】\n\n戊\n",
		"目錄\n\nI\nII\n\nI\n\nOne.\n\nII\n\nTwo.\n\nIII\n\nThree.\n",
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
			if strings.TrimSpace(strings.TrimPrefix(text, "\ufeff")) != "" {
				// The check behind this error is a guard against a bug;
				// a manuscript with text always splits.
				t.Fatalf("%q: %v", text, err)
			}
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
