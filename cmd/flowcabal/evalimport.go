package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/flowcabal/flowcabal/manuscript"
)

// importCase is one case of an import evaluation set: a folder with the
// manuscript under input/ (one file: a whole book; several, or a folder
// in it: chapter files) and expected.json, written by someone who did not
// see the importer.
type importCase struct {
	Chapters []expectedChapter `json:"chapters"`
	Extras   []expectedChapter `json:"extras"`
	Arcs     []struct {
		Heading      string `json:"heading"`
		FirstChapter int    `json:"first_chapter"`
	} `json:"arcs"`
	Encoding string `json:"encoding"`
	Notes    string `json:"notes"`
}

type expectedChapter struct {
	Number  int    `json:"number"`
	Kind    string `json:"kind"`
	Heading string `json:"heading"`
	// HeadingTitle is a title on the line under the heading ("第三章",
	// then the title): the importer may read it as part of the heading
	// or as the body's first line.
	HeadingTitle string `json:"heading_title"`
	StartsWith   string `json:"starts_with"`
}

// start is how the chapter begins, whitespace aside.
func (e expectedChapter) start() string { return dense(e.Heading + e.HeadingTitle + e.StartsWith) }

// importScore is what one case got right.
type importScore struct {
	name                          string
	err                           error
	want, got, placed             int // chapters expected, found, and found where expected
	numbered, headed              int // of those placed, with the right number and kind, and heading
	wantExtras, gotExtras, extras int
	wantArcs, gotArcs, arcs       int
	encoding                      string
	encodingOK                    bool
	misses                        []string
}

func (s importScore) perfect() bool {
	return s.err == nil && s.placed == s.want && s.got == s.want && s.numbered == s.want && s.headed == s.want &&
		s.extras == s.wantExtras && s.gotExtras == s.wantExtras && s.arcs == s.wantArcs && s.gotArcs == s.wantArcs && s.encodingOK
}

// runEvalImport splits each case's manuscript as `flowcabal import` does
// and compares the chapters, extras, arcs and encoding with the case's
// expected split. Nothing is written.
func runEvalImport(ctx context.Context, env *cliEnv, args []string) int {
	fs := flag.NewFlagSet("eval import", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	verbose := fs.Bool("v", false, "list every difference")
	if err := parseFlags(fs, args); err != nil {
		return exitUsage
	}
	if fs.NArg() == 0 {
		fmt.Fprintln(env.stderr, "usage: flowcabal eval import [-v] CASEDIR... (each with input/ and expected.json; a folder of such folders is read whole)")
		return exitUsage
	}
	var dirs []string
	for _, a := range fs.Args() {
		if _, err := os.Stat(filepath.Join(a, "expected.json")); err == nil {
			dirs = append(dirs, a)
			continue
		}
		ents, err := os.ReadDir(a)
		if err != nil {
			fmt.Fprintf(env.stderr, "flowcabal eval import: %v\n", err)
			return exitFailure
		}
		for _, e := range ents {
			if _, err := os.Stat(filepath.Join(a, e.Name(), "expected.json")); e.IsDir() && err == nil {
				dirs = append(dirs, filepath.Join(a, e.Name()))
			}
		}
	}
	if len(dirs) == 0 {
		fmt.Fprintln(env.stderr, "flowcabal eval import: no case folders (with expected.json) found")
		return exitFailure
	}
	var scores []importScore
	for _, d := range dirs {
		scores = append(scores, scoreImportCase(d))
	}
	writeImportScores(env.stdout, scores, *verbose)
	return exitOK
}

func scoreImportCase(dir string) importScore {
	s := importScore{name: filepath.Base(dir)}
	data, err := os.ReadFile(filepath.Join(dir, "expected.json"))
	if err != nil {
		s.err = err
		return s
	}
	var c importCase
	if err := json.Unmarshal(data, &c); err != nil {
		s.err = fmt.Errorf("expected.json: %w", err)
		return s
	}
	s.want, s.wantExtras, s.wantArcs = len(c.Chapters), len(c.Extras), len(c.Arcs)
	in := filepath.Join(dir, "input")
	ents, err := os.ReadDir(in)
	if err != nil {
		s.err = err
		return s
	}
	var args []string
	for _, e := range ents {
		if !strings.HasPrefix(e.Name(), ".") {
			args = append(args, filepath.Join(in, e.Name()))
		}
	}
	if len(args) > 1 {
		args = []string{in} // a folder of chapter files, in natural order
	}
	srcs, encs, err := manuscript.ReadSources(args, "")
	if err != nil {
		s.err = err
		return s
	}
	if len(encs) > 0 {
		s.encoding = encs[0]
	}
	s.encodingOK = c.Encoding == "" || sameEncoding(c.Encoding, s.encoding)
	book, err := manuscript.Split(srcs...)
	if err != nil {
		s.err = err
		return s
	}
	s.got, s.gotExtras, s.gotArcs = len(book.Chapters), len(book.Extras), len(book.Arcs)

	// A chapter is placed where expected when it begins with the same
	// characters, whitespace aside, looked for in order after the last
	// one placed (chapters may open alike: "Elizabeth had").
	next := 0
	for _, e := range c.Chapters {
		k := placed(book.Chapters, next, e.start())
		if k < 0 {
			s.misses = append(s.misses, fmt.Sprintf("chapter %d %q not found (starting %q)", e.Number, e.Heading, e.StartsWith))
			continue
		}
		next = k + 1
		ch := book.Chapters[k]
		s.placed++
		if ch.Number == e.Number && ch.Kind.String() == e.Kind {
			s.numbered++
		} else {
			s.misses = append(s.misses, fmt.Sprintf("chapter %q: number %d %s, want %d %s", e.Heading, ch.Number, ch.Kind, e.Number, e.Kind))
		}
		if h := dense(ch.Heading); h == dense(e.Heading) || e.HeadingTitle != "" && h == dense(e.Heading+e.HeadingTitle) {
			s.headed++
		} else {
			s.misses = append(s.misses, fmt.Sprintf("chapter %d: heading %q, want %q", e.Number, ch.Heading, e.Heading))
		}
	}
	if s.got != s.want {
		for _, ch := range book.Chapters {
			if !expects(c.Chapters, ch) {
				s.misses = append(s.misses, fmt.Sprintf("found a chapter not expected: %d %s %q starting %q", ch.Number, ch.Kind, ch.Heading, chapterStart(ch.Text, 24)))
			}
		}
	}
	for _, e := range c.Extras {
		if placed(book.Extras, 0, e.start()) >= 0 {
			s.extras++
		} else {
			s.misses = append(s.misses, fmt.Sprintf("extra %q not found", e.Heading))
		}
	}
	for _, a := range c.Arcs {
		ok := false
		for _, g := range book.Arcs {
			if dense(g.Heading) == dense(a.Heading) && g.First == a.FirstChapter {
				ok = true
				break
			}
		}
		if ok {
			s.arcs++
		} else {
			s.misses = append(s.misses, fmt.Sprintf("arc %q from chapter %d not found", a.Heading, a.FirstChapter))
		}
	}
	for _, g := range book.Arcs {
		ok := false
		for _, a := range c.Arcs {
			ok = ok || dense(g.Heading) == dense(a.Heading) && g.First == a.FirstChapter
		}
		if !ok {
			s.misses = append(s.misses, fmt.Sprintf("found an arc not expected: %q from chapter %d", g.Heading, g.First))
		}
	}
	if !s.encodingOK {
		s.misses = append(s.misses, fmt.Sprintf("read as %s, want %s", s.encoding, c.Encoding))
	}
	return s
}

// expects reports whether some expected chapter begins as ch does.
func expects(want []expectedChapter, ch manuscript.Chapter) bool {
	for _, e := range want {
		if strings.HasPrefix(dense(ch.Text), e.start()) {
			return true
		}
	}
	return false
}

// placed returns the index of the first chapter from the from'th that
// begins with start, or -1.
func placed(chs []manuscript.Chapter, from int, start string) int {
	for k := from; k < len(chs); k++ {
		if start != "" && strings.HasPrefix(dense(chs[k].Text), start) {
			return k
		}
	}
	return -1
}

// chapterStart is the first n non-whitespace characters of text.
func chapterStart(text string, n int) string {
	var b strings.Builder
	for _, r := range text {
		if n == 0 {
			break
		}
		if !unicode.IsSpace(r) {
			b.WriteRune(r)
			n--
		}
	}
	return b.String()
}

// dense is s without whitespace.
func dense(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

// sameEncoding compares an expected encoding name with the name the
// decoder reports ("utf-8 (BOM)", "utf-16 (BOM)" for a BOM'd UTF-16 of
// either order).
func sameEncoding(want, got string) bool {
	norm := func(s string) string {
		s = strings.ToLower(strings.TrimSpace(s))
		s = strings.NewReplacer(" (bom)", "-bom", "_", "-", "utf8", "utf-8").Replace(s)
		switch s {
		case "gbk", "gb2312":
			return "gb18030"
		}
		return s
	}
	w, g := norm(want), norm(got)
	if g == "utf-16-bom" {
		return strings.HasPrefix(w, "utf-16")
	}
	return w == g
}

func writeImportScores(w io.Writer, scores []importScore, verbose bool) {
	fmt.Fprintf(w, "%-12s %9s %7s %7s %8s %6s %5s %-14s %s\n", "case", "chapters", "placed", "number", "heading", "extras", "arcs", "encoding", "")
	var perfect, want, got, placed, numbered, headed int
	for _, s := range scores {
		if s.err != nil {
			fmt.Fprintf(w, "%-12s error: %v\n", s.name, s.err)
			want += s.want
			continue
		}
		mark := "FAIL"
		if s.perfect() {
			mark, perfect = "ok", perfect+1
		}
		enc := s.encoding
		if !s.encodingOK {
			enc += "!"
		}
		fmt.Fprintf(w, "%-12s %4d/%-4d %7d %7d %8d %3d/%-2d %2d/%-2d %-14s %s\n", s.name, s.got, s.want, s.placed, s.numbered, s.headed,
			s.extras, s.wantExtras, s.arcs, s.wantArcs, enc, mark)
		want, got, placed, numbered, headed = want+s.want, got+s.got, placed+s.placed, numbered+s.numbered, headed+s.headed
		limit := 3
		if verbose {
			limit = len(s.misses)
		}
		for i, m := range s.misses {
			if i == limit {
				fmt.Fprintf(w, "    … %d more (-v)\n", len(s.misses)-limit)
				break
			}
			fmt.Fprintf(w, "    %s\n", m)
		}
	}
	ratio := func(a, b int) float64 {
		if b == 0 {
			return 0
		}
		return float64(a) / float64(b)
	}
	fmt.Fprintf(w, "\ncases split exactly as expected: %d/%d\n", perfect, len(scores))
	fmt.Fprintf(w, "chapters: %d expected, %d found; placed: recall %.3f, precision %.3f; right number and kind %.3f; right heading %.3f\n",
		want, got, ratio(placed, want), ratio(placed, got), ratio(numbered, want), ratio(headed, want))
}
