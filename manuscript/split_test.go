package manuscript

import (
	"fmt"
	"github.com/flowcabal/flowcabal/internal/projecttest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
	"golang.org/x/text/transform"
)

// corpus reads the chapter files of a book of ../shared/corpus.
func corpus(t testing.TB, book string) []string {
	t.Helper()
	d := filepath.Join(projecttest.Shared(t), "corpus", book)
	var out []string
	for n := 1; ; n++ {
		data, err := os.ReadFile(filepath.Join(d, fmt.Sprintf("%03d.txt", n)))
		if err != nil {
			if n == 1 {
				t.Fatal(err)
			}
			return out
		}
		out = append(out, string(data))
	}
}

// wrap breaks every paragraph of a chapter file at width columns (wide
// characters count two), as a plain-text edition does, and optionally
// indents each paragraph and drops the blank lines between them.
func wrap(chapter string, width int, indent string, blank bool) string {
	lines := strings.Split(strings.TrimRight(chapter, "\n"), "\n")
	var b strings.Builder
	b.WriteString(lines[0] + "\n\n") // the heading stays a line of its own
	for _, p := range lines[1:] {
		if p == "" {
			continue
		}
		p = indent + p
		var line strings.Builder
		w := 0
		emit := func() {
			b.WriteString(strings.TrimRight(line.String(), " ") + "\n")
			line.Reset()
			w = 0
		}
		if strings.ContainsRune(p, ' ') && !wide([]rune(p)[len(indent)]) {
			for _, word := range strings.Fields(p) {
				if w > 0 && w+1+width1(word) > width {
					emit()
				}
				if w > 0 {
					line.WriteByte(' ')
					w++
				}
				line.WriteString(word)
				w += width1(word)
			}
		} else {
			for _, r := range p {
				if w+width1(string(r)) > width {
					emit()
				}
				line.WriteRune(r)
				w += width1(string(r))
			}
		}
		emit()
		if blank {
			b.WriteString("\n")
		}
	}
	return b.String()
}

func width1(s string) int { return width(s) }

// unindent removes the indent wrap added to each paragraph.
func unindent(text, indent string) string {
	if indent == "" {
		return text
	}
	return strings.ReplaceAll(strings.Replace(text, "\n\n"+indent, "\n\n", -1), "\n"+indent, "\n")
}

func join(chapters []string, sep string) string { return strings.Join(chapters, sep) }

// same fails the test unless the split gives back the chapters, numbered
// from first.
func same(t *testing.T, b *Book, want []string, first int, fix func(string) string) {
	t.Helper()
	var body []Chapter
	for _, c := range b.Chapters {
		if c.Number > 0 || c.Kind == KindChapter {
			body = append(body, c)
		}
	}
	if len(body) != len(want) {
		t.Fatalf("%d chapters, want %d", len(body), len(want))
	}
	bad := 0
	for i, c := range body {
		got := c.Text
		if fix != nil {
			got = fix(got)
		}
		if c.Number != first+i || got != want[i] {
			bad++
			if bad <= 2 {
				t.Errorf("chapter %d (number %d, want %d):\n got %q\nwant %q", i+1, c.Number, first+i, head(got), head(want[i]))
				for j := 0; j < len(got) && j < len(want[i]); j++ {
					if got[j] != want[i][j] {
						t.Errorf("first difference at byte %d: got %q want %q", j, snippet(got, j), snippet(want[i], j))
						break
					}
				}
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d chapters differ", bad, len(want))
	}
}

func head(s string) string {
	if len(s) > 120 {
		i := 120
		for !utf8.RuneStart(s[i]) {
			i--
		}
		return s[:i] + "…"
	}
	return s
}

func TestSplitEnglishForms(t *testing.T) {
	pp := corpus(t, "pride-and-prejudice")
	front := "PRIDE AND PREJUDICE\n\nBy Jane Austen\n\n\n"
	var wrapped []string
	for _, c := range pp {
		wrapped = append(wrapped, wrap(c, 72, "", true))
	}
	crlf := strings.ReplaceAll(join(pp, "\n\n"), "\n", "\r\n")
	for _, tc := range []struct {
		name      string
		data      []byte
		enc       string
		zero      bool
		unwrapped bool
	}{
		{"one UTF-8 file", []byte(join(pp, "\n\n")), "utf-8", false, false},
		{"CRLF with a BOM", []byte("\ufeff" + crlf), "utf-8 (BOM)", false, false},
		{"hard-wrapped at 72 with a title page", []byte(front + join(wrapped, "\n\n")), "utf-8", true, true},
		{"CR line endings", []byte(strings.ReplaceAll(join(pp, "\n"), "\n", "\r")), "utf-8", false, false},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			text, enc, err := Decode(tc.data, "")
			if err != nil || enc != tc.enc {
				t.Fatalf("decode: %q %v, want %s", enc, err, tc.enc)
			}
			b, err := Split(Source{Name: "pp.txt", Text: text})
			if err != nil {
				t.Fatal(err)
			}
			if b.Unwrapped != tc.unwrapped {
				t.Errorf("unwrapped = %v, want %v", b.Unwrapped, tc.unwrapped)
			}
			if hasZero := len(b.Chapters) > 0 && b.Chapters[0].Number == 0; hasZero != tc.zero {
				t.Errorf("chapter 0 = %v, want %v", hasZero, tc.zero)
			}
			if tc.zero && !strings.HasPrefix(b.Chapters[0].Text, "PRIDE AND PREJUDICE\n\nBy Jane Austen\n") {
				t.Errorf("front matter: %q", b.Chapters[0].Text)
			}
			same(t, b, pp, 1, nil)
		})
	}
}

func TestSplitWarAndPeaceBooksAndEpilogues(t *testing.T) {
	wp := corpus(t, "war-and-peace")
	b, err := Split(Source{Name: "wp.txt", Text: join(wp, "\n\n")})
	if err != nil {
		t.Fatal(err)
	}
	if !b.Renumbered {
		t.Error("chapter numbers restart in every book, but the split kept them")
	}
	same(t, b, wp, 1, nil)
	if len(b.Arcs) != 17 || b.Arcs[0].Heading != "Book One" || b.Arcs[0].First != 1 || b.Arcs[16].Heading != "Second Epilogue" || b.Arcs[16].Last != 365 {
		t.Errorf("arcs: %d %+v … %+v", len(b.Arcs), b.Arcs[0], b.Arcs[len(b.Arcs)-1])
	}
	for _, c := range b.Chapters[len(b.Chapters)-28:] {
		if c.Kind != KindEpilogue {
			t.Errorf("chapter %d (%s) is a %s, want an epilogue", c.Number, c.Heading, c.Kind)
			break
		}
	}
}

func TestSplitChineseEncodings(t *testing.T) {
	hlm := corpus(t, "hongloumeng")
	xyj := corpus(t, "xiyouji")
	gb, err := simplifiedchinese.GB18030.NewEncoder().String(join(hlm, "\n\n"))
	if err != nil {
		t.Fatal(err)
	}
	// Big5 lacks some characters of the text: the book is the chapters
	// that encode (their numbers keep their gaps).
	var big5 []string
	var kept []string
	var first, gaps int
	for i, c := range xyj {
		s, _, err := transform.String(traditionalchinese.Big5.NewEncoder(), c)
		if err != nil {
			gaps++
			continue
		}
		if first == 0 {
			first = i + 1
		}
		big5, kept = append(big5, s), append(kept, c)
	}
	if len(kept) < 50 {
		t.Fatalf("only %d chapters of 西遊記 encode in Big5", len(kept))
	}
	t.Logf("Big5: %d chapters, %d left out (characters Big5 lacks)", len(kept), gaps)
	for _, tc := range []struct {
		name, enc string
		data      []byte
		want      []string
		first     int
	}{
		{"紅樓夢 in GB18030", "gb18030", []byte(gb), hlm, 1},
		{"西遊記 in Big5", "big5", []byte(strings.Join(big5, "\n\n")), kept, first},
	} {
		t.Run(tc.name, func(t *testing.T) {
			text, enc, err := Decode(tc.data, "")
			if err != nil || enc != tc.enc {
				t.Fatalf("decode: %q %v, want %s", enc, err, tc.enc)
			}
			b, err := Split(Source{Name: "book.txt", Text: text})
			if err != nil {
				t.Fatal(err)
			}
			if tc.name == "西遊記 in Big5" {
				// The numbers are the headings' own, gaps and all.
				var ns []int
				for _, c := range b.Chapters {
					ns = append(ns, c.Number)
				}
				if ns[0] != tc.first || b.Renumbered {
					t.Errorf("numbers %v…, renumbered %v", ns[:5], b.Renumbered)
				}
				for i, c := range b.Chapters {
					if c.Text != tc.want[i] {
						t.Fatalf("chapter %d differs", c.Number)
					}
				}
				return
			}
			same(t, b, tc.want, tc.first, nil)
		})
	}
}

// TestSplitWebNovel: 西遊記 as a web novel: Arabic chapter numbers (第12章),
// paragraphs indented and hard-wrapped with no blank lines, a 楔子 first
// and 番外 after the end, in GB18030.
func TestSplitWebNovel(t *testing.T) {
	xyj := corpus(t, "xiyouji")[:30]
	var parts []string
	parts = append(parts, "楔子\n\n　　話說天下四大部洲，此是一個楔子。\n")
	var want []string
	for i, c := range xyj {
		lines := strings.SplitN(c, "\n", 2)
		title := strings.TrimPrefix(lines[0], strings.SplitN(lines[0], "　", 2)[0])
		head := fmt.Sprintf("第%d章 %s", i+1, strings.TrimSpace(strings.ReplaceAll(title, "　", " ")))
		c = head + "\n" + lines[1]
		want = append(want, c)
		parts = append(parts, wrap(c, 76, "　　", false))
	}
	parts = append(parts, "番外 八戒的一天\n\n　　這一日八戒睡到日上三竿。\n")
	gb, err := simplifiedchinese.GB18030.NewEncoder().String(strings.Join(parts, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	text, enc, err := Decode([]byte(gb), "")
	if err != nil || enc != "gb18030" {
		t.Fatalf("decode: %q %v", enc, err)
	}
	b, err := Split(Source{Name: "web.txt", Text: text})
	if err != nil {
		t.Fatal(err)
	}
	if !b.Unwrapped {
		t.Error("the hard wrapping was not seen")
	}
	if b.Chapters[0].Number != 0 || b.Chapters[0].Heading != "楔子" || !strings.Contains(b.Chapters[0].Text, "此是一個楔子") {
		t.Errorf("chapter 0: %+v", b.Chapters[0])
	}
	if len(b.Extras) != 1 || b.Extras[0].Number != 30 || !strings.HasPrefix(b.Extras[0].Text, "番外 八戒的一天\n\n　　這一日") {
		t.Errorf("extras: %+v", b.Extras)
	}
	same(t, b, want, 1, func(s string) string { return unindent(s, "　　") })
}

// TestSplitFolderOfChapterFiles: one file a chapter, as a folder of
// chapter files gives them; a file with no heading has its first line
// taken as one.
func TestSplitFolderOfChapterFiles(t *testing.T) {
	pp := corpus(t, "pride-and-prejudice")[:12]
	var srcs []Source
	for i, c := range pp {
		srcs = append(srcs, Source{Name: fmt.Sprintf("%03d.txt", i+1), Text: c, Whole: true})
	}
	srcs = append(srcs, Source{Name: "013.txt", Text: "The Visit\n\nElizabeth walked on.\n", Whole: true})
	b, err := Split(srcs...)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Chapters) != 13 || b.Chapters[12].Heading != "The Visit" || b.Chapters[12].Number != 13 {
		t.Fatalf("%d chapters, last %+v", len(b.Chapters), b.Chapters[len(b.Chapters)-1])
	}
	same(t, &Book{Chapters: b.Chapters[:12]}, pp, 1, nil)
}

func TestHeadings(t *testing.T) {
	for _, tc := range []struct {
		line string
		ok   bool
		kind Kind
		num  int
	}{
		{"Chapter 12", true, KindChapter, 12},
		{"CHAPTER XII.", true, KindChapter, 12},
		{"Chapter Twelve: The Ball", true, KindChapter, 12},
		{"Chapter Twenty-One", true, KindChapter, 21},
		{"12.", true, KindChapter, 12},
		{"XII. THE BALL", true, KindChapter, 12},
		{"Book One, Chapter I", true, KindChapter, 1},
		{"Part II", true, KindPart, 2},
		{"Volume 3", true, KindPart, 3},
		{"第十二章 断桥", true, KindChapter, 12},
		{"第12章", true, KindChapter, 12},
		{"第１２章　风起", true, KindChapter, 12},
		{"第一百零一回　大觀園月夜感幽魂", true, KindChapter, 101},
		{"第十二節", true, KindChapter, 12},
		{"卷三", true, KindPart, 3},
		{"第二卷 风云", true, KindPart, 2},
		{"Prologue", true, KindPrologue, 0},
		{"楔子", true, KindPrologue, 0},
		{"序章 初遇", true, KindPrologue, 0},
		{"Epilogue", true, KindEpilogue, 0},
		{"尾聲", true, KindEpilogue, 0},
		{"後記", true, KindEpilogue, 0},
		{"番外一 八戒", true, KindExtra, 0},
		{"Interlude", true, KindExtra, 0},
		{"完本感言", true, KindExtra, 0},
		{"正文 第1章 初見", true, KindChapter, 1},
		{"【第4章 四見】", true, KindChapter, 4},
		{"第一卷 風起 第3章 三見", true, KindChapter, 3},
		{"第一卷　第十二章", true, KindChapter, 12},
		{"十二、斷橋", true, KindChapter, 12},
		// Prose that starts like a heading.
		{"一、他說了一句話。", false, 0, 0},
		{"正文裏寫得明白", false, 0, 0},
		{"第一卷書讀完了，第二章還沒看。", false, 0, 0},
		{"第一回合，他便败下阵来。", false, 0, 0},
		{"Chapter and verse were quoted at him by the rector.", false, 0, 0},
		{"mix the flour.", false, 0, 0},
		{"12. He went to town and bought a horse, which was lame.", false, 0, 0},
		{"Part of the money was gone.", false, 0, 0},
		{"第二天一早，他就走了", false, 0, 0},
		{"序言里说得明白，这本书不是为孩子写的。", false, 0, 0},
	} {
		h, ok := parseHeading(tc.line)
		if ok != tc.ok || (ok && (h.kind != tc.kind || h.num != tc.num)) {
			t.Errorf("%q: %+v %v, want %v %s %d", tc.line, h, ok, tc.ok, tc.kind, tc.num)
		}
	}
}

func TestDecodeRefusesWhatItCannotRead(t *testing.T) {
	if _, _, err := Decode([]byte{0xff, 0xff, 0xff, 0x00, 0x81}, ""); err == nil {
		t.Error("garbage decoded")
	}
	if _, _, err := Decode([]byte("abc\xff"), "utf-8"); err == nil || !strings.Contains(err.Error(), "byte 3") {
		t.Errorf("forced UTF-8 on bad bytes: %v", err)
	}
	if _, _, err := Decode([]byte("abc"), "latin-9"); err == nil || !strings.Contains(err.Error(), "big5") {
		t.Errorf("unknown encoding: %v", err)
	}
	utf16le := []byte{'C', 0, 'h', 0, ' ', 0, '1', 0, '\n', 0, 'x', 0}
	if s, enc, err := Decode(utf16le, ""); err != nil || s != "Ch 1\nx" || enc != "utf-16le" {
		t.Errorf("UTF-16LE without a BOM: %q %q %v", s, enc, err)
	}
}

// What real manuscripts hold besides chapters: a table of contents before
// them, chapter files that open with prose, chapters headed by a number
// alone. Each case gives the headings and numbers the split must find.
func TestSplitContentsFilesAndNumerals(t *testing.T) {
	type want struct {
		num     int
		kind    Kind
		heading string
	}
	for _, tc := range []struct {
		name string
		srcs []Source
		want []want
	}{{
		name: "a Chinese table of contents",
		srcs: []Source{{Name: "book.txt", Text: "西遊記\n\n目錄\n\n第一章　遊地府\n第二章　修大會\n\n\n第一章　遊地府\n\n　　卻說太宗還魂。\n\n第二章　修大會\n\n　　卻說唐王修大會。\n"}},
		want: []want{{0, KindPrologue, ""}, {1, KindChapter, "第一章　遊地府"}, {2, KindChapter, "第二章　修大會"}},
	}, {
		name: "an English table of contents",
		srcs: []Source{{Name: "book.txt", Text: "PRIDE AND PREJUDICE\n\nCONTENTS\n\nCHAPTER ONE\nCHAPTER TWO\n\nCHAPTER ONE\n\nIt is a truth.\n\nCHAPTER TWO\n\nMr. Bennet was among the earliest.\n"}},
		want: []want{{0, KindPrologue, ""}, {1, KindChapter, "CHAPTER ONE"}, {2, KindChapter, "CHAPTER TWO"}},
	}, {
		name: "a part heading right before its chapter stays a part",
		srcs: []Source{{Name: "book.txt", Text: "第一卷 風起\n\n第一章 初見\n\n寶玉笑道。\n\n第二卷 雲湧\n\n第二章 再見\n\n黛玉道。\n"}},
		want: []want{{1, KindChapter, "第一章 初見"}, {2, KindChapter, "第二章 再見"}},
	}, {
		name: "chapter files that open with prose, and one with a title",
		srcs: []Source{
			{Name: "1.txt", Text: "The discussion of Mr. Collins's offer was now nearly at an end.\n\nElizabeth sighed.\n", Whole: true},
			{Name: "2.txt", Text: "寶玉聽了，笑道：「好妹妹。」\n", Whole: true},
			{Name: "3.txt", Text: "The Visit\n\nElizabeth walked on.\n", Whole: true},
		},
		want: []want{{1, KindChapter, ""}, {2, KindChapter, ""}, {3, KindChapter, "The Visit"}},
	}, {
		name: "numbers alone that count up are headings",
		srcs: []Source{{Name: "book.txt", Text: "1\n\nHad Elizabeth's opinion.\n\n2\n\nElizabeth, as they drove.\n\n12 December.\n\n3\n\nElizabeth had settled it.\n"}},
		want: []want{{1, KindChapter, "1"}, {2, KindChapter, "2"}, {3, KindChapter, "3"}},
	}, {
		name: "Roman numerals alone that count up are headings",
		srcs: []Source{{Name: "book.txt", Text: "I\n\nIt is a truth.\n\nII\n\nMr. Bennet was among the earliest.\n\nIII\n\nNot all that Mrs. Bennet could ask.\n"}},
		want: []want{{1, KindChapter, "I"}, {2, KindChapter, "II"}, {3, KindChapter, "III"}},
	}, {
		name: "web-novel downloads: 正文, a volume on the chapter's line, brackets, an author's note",
		srcs: []Source{{Name: "book.txt", Text: "正文 第1章 初見\n\n寶玉笑道。\n\n第一卷 風起 第2章 再見\n\n黛玉道。\n\n【第3章 三見】\n\n寶釵道。\n\n完本感言\n\n謝謝大家。\n"}},
		want: []want{{1, KindChapter, "正文 第1章 初見"}, {2, KindChapter, "第一卷 風起 第2章 再見"}, {3, KindChapter, "【第3章 三見】"}},
	}, {
		name: "a part heading and its text with no chapter after them stay with the last chapter",
		srcs: []Source{{Name: "book.txt", Text: "第1章 初見\n\n寶玉笑道。\n\n第二卷 雲湧\n\n黛玉道。\n"}},
		want: []want{{1, KindChapter, "第1章 初見"}},
	}, {
		name: "a part heading and text, no chapter at all",
		srcs: []Source{{Name: "book.txt", Text: "卷一\n竤\n"}},
		want: []want{{0, KindPrologue, ""}},
	}, {
		name: "a part heading before a prologue",
		srcs: []Source{{Name: "book.txt", Text: "Book One\n\nPrologue\n\nIt began.\n\nChapter 1\n\nThen more.\n"}},
		want: []want{{0, KindPrologue, "Prologue"}, {1, KindChapter, "Chapter 1"}},
	}, {
		name: "a part heading before a book's only chapter, numbered 0",
		srcs: []Source{{Name: "book.txt", Text: "Book One\n\nChapter 0\n\nIt began.\n"}},
		want: []want{{0, KindChapter, "Chapter 0"}},
	}, {
		name: "a part heading before a prologue and no chapter",
		srcs: []Source{{Name: "book.txt", Text: "第一卷 風起\n\n楔子\n\n話說。\n"}},
		want: []want{{0, KindPrologue, "楔子"}},
	}, {
		name: "a part heading before a chapter numbered 0",
		srcs: []Source{{Name: "book.txt", Text: "第一卷 風起\n\n第0章 楔子\n\n話說。\n\n第1章 初見\n\n寶玉笑道。\n"}},
		want: []want{{0, KindChapter, "第0章 楔子"}, {1, KindChapter, "第1章 初見"}},
	}, {
		name: "numbers alone that do not count up are text",
		srcs: []Source{{Name: "book.txt", Text: "Chapter 1\n\nShe counted.\n\n1812\n\nThe year came.\n\n3\n\nThree of them.\n\n7\n\nSeven more.\n"}},
		want: []want{{1, KindChapter, "Chapter 1"}},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Split(tc.srcs...)
			if err != nil {
				t.Fatal(err)
			}
			var got []want
			for _, c := range b.Chapters {
				got = append(got, want{c.Number, c.Kind, c.Heading})
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("chapters %v, want %v", got, tc.want)
			}
		})
	}
}
