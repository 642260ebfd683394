// Package webnovel makes a project of web-novel size (thousands of
// chapters, millions of characters) from the Chinese books of the shared
// corpus, for the scale benchmarks: deterministic from a seed, so that two
// runs measure the same book.
//
// The books are cut into paragraphs and the paragraphs dealt into chapters
// of about the size asked (within ±15%, drawn from the seed). When the
// books run out they are dealt again from the start; the drawn sizes make
// the chapter boundaries of each pass fall elsewhere, so no two chapters
// have the same text (a cache keyed by content would otherwise flatter
// the figures).
package webnovel

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Books are the corpus folders the chapters are made from, in the order
// they are dealt.
var Books = []string{"hongloumeng", "xiyouji"}

// Options say what to make.
type Options struct {
	// Corpus is the shared corpus folder (holding hongloumeng/ and
	// xiyouji/, chapter files 001.txt…).
	Corpus string
	// Chapters is the number of chapters; ChapterChars their mean size in
	// characters (runes).
	Chapters, ChapterChars int
	// Seed draws the chapter sizes.
	Seed uint64
	// Entities are project-shaped folders (holding entities/ and
	// perhaps meta/) copied into the project.
	Entities []string
	// Distinct makes the text of each source chapter appear once as
	// itself: one pass of the books (OriginalPass) is dealt as it is,
	// each source chapter into whole chapters of its own, and every other
	// pass is disguised (each declared name replaced by another, drawn
	// for that pass), and a [Manifest] of where each source chapter went
	// is written to ManifestFile. Without it the output is as it always
	// was.
	Distinct bool
	// OriginalPass is the pass dealt undisguised with Distinct (default
	// 2, so that a disguised copy precedes the original and a tie broken
	// by chapter path never favours it).
	OriginalPass int
}

// Report says what was made.
type Report struct {
	Chapters   int   // chapter files written
	Chars      int64 // characters (runes) of the manuscript
	Bytes      int64 // bytes of the manuscript
	Passes     int   // times the books were dealt (1: no repetition)
	Entities   int   // entity files copied
	Workflow   string
	NextNumber int // the chapter the workflow writes
}

// ChapterDir is the folder of chapter n, numbered with four digits so
// that the chapters of a 3,000-chapter book sort by name.
func ChapterDir(n int) string { return fmt.Sprintf("manuscript/chapter-%04d", n) }

// Generate writes the project into dir, which must not exist or be empty.
func Generate(dir string, o Options) (Report, error) {
	var rep Report
	if o.Chapters <= 0 || o.ChapterChars <= 0 {
		return rep, errors.New("webnovel: chapters and chapter size must be positive")
	}
	if ents, err := os.ReadDir(dir); err == nil && len(ents) > 0 {
		return rep, fmt.Errorf("webnovel: %s is not empty", dir)
	}
	paras, err := readParagraphs(o.Corpus, o.ChapterChars)
	if err != nil {
		return rep, err
	}
	if o.Distinct {
		if err := generateDistinct(dir, o, paras, &rep); err != nil {
			return rep, err
		}
		return finish(dir, o, rep)
	}
	rng := rand.New(rand.NewPCG(o.Seed, 0x5eed))
	next, pass := 0, 1
	for ch := 1; ch <= o.Chapters; ch++ {
		// ±15% around the mean.
		want := o.ChapterChars*85/100 + rng.IntN(o.ChapterChars*30/100+1)
		var b strings.Builder
		fmt.Fprintf(&b, "# 第%d章\n\n", ch)
		n := 0
		for n < want {
			if next == len(paras) {
				next, pass = 0, pass+1
			}
			p := paras[next].text
			next++
			b.WriteString(p)
			b.WriteString("\n\n")
			n += utf8.RuneCountInString(p)
		}
		text := b.String()
		if err := write(dir, ChapterDir(ch)+"/content.md", text); err != nil {
			return rep, err
		}
		rep.Chars += int64(utf8.RuneCountInString(text))
		rep.Bytes += int64(len(text))
	}
	rep.Chapters, rep.Passes = o.Chapters, pass
	return finish(dir, o, rep)
}

// finish copies the entity folders and writes the configuration, the
// meta documents and the workflow.
func finish(dir string, o Options, rep Report) (Report, error) {
	for _, src := range o.Entities {
		n, err := copyTree(src, dir)
		if err != nil {
			return rep, err
		}
		rep.Entities += n
	}
	rep.NextNumber = o.Chapters + 1
	rep.Workflow = "workflows/next-chapter.flow"
	files := map[string]string{
		"flowcabal.toml":      config,
		"meta/outline.md":     "# 大綱\n\n寶玉黛玉之情與取經路上的九九八十一難交織：兩部書的人物在一個世界中相遇。\n",
		"meta/style-guide.md": "# 文風\n\n章回體白話，每章三千字上下；對話多用「道」引出；回末留懸念。\n",
		rep.Workflow:          workflow(rep.NextNumber),
	}
	for p, text := range files {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			continue // an entity folder brought its own
		}
		if err := write(dir, p, text); err != nil {
			return rep, err
		}
	}
	return rep, nil
}

const config = `# A web-novel-size project made by flowcabal bench genproject.
budget = 24000

[models.writer]
base_url = "http://127.0.0.1:1/v1"
model = "deepseek-chat"
api_key_env = "FLOWCABAL_BENCH_KEY"
`

func workflow(ch int) string {
	return fmt.Sprintf(`# 第%[1]d章：寶玉與悟空
workflow "第%[1]d章" {
  budget = 24000
}

node 大綱 "本章大綱" {
  model = "writer"
  user """
    依據前情，為第%[1]d章擬五個情節要點：孫悟空大鬧大觀園，林黛玉與賈寶玉在瀟湘館談起取經之事。
  """
}

node 正文 {
  temperature = 0.9
  checks  = ["continuity", "character", "world"]
  persist = "%[2]s"
  system """
    保持文風：{{@meta/style-guide}}
  """
  user """
    大綱：{{大綱}}
    寫第%[1]d章全文，約三千字。王熙鳳與豬八戒都要出場。
  """
}
`, ch, ChapterDir(ch))
}

// A paragraph is one paragraph of a book and the chapter it is from.
type paragraph struct {
	text    string
	book    string
	chapter int // the number of the chapter file
}

// readParagraphs reads the books' chapter files in order and returns their
// paragraphs (blank-line separated, trimmed, non-empty), a paragraph longer
// than max cut after a sentence end.
func readParagraphs(corpus string, max int) ([]paragraph, error) {
	var out []paragraph
	for _, book := range Books {
		files, err := filepath.Glob(filepath.Join(corpus, book, "*.txt"))
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("webnovel: no chapter files in %s", filepath.Join(corpus, book))
		}
		sort.Strings(files)
		for _, f := range files {
			num, err := strconv.Atoi(strings.TrimSuffix(filepath.Base(f), ".txt"))
			if err != nil {
				return nil, fmt.Errorf("webnovel: %s is not a numbered chapter file", f)
			}
			data, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
			sc := bufio.NewScanner(bytes.NewReader(data))
			sc.Buffer(nil, 1<<24)
			for sc.Scan() {
				line := strings.TrimSpace(sc.Text())
				if line == "" {
					continue
				}
				for _, piece := range cut(line, max) {
					out = append(out, paragraph{text: piece, book: book, chapter: num})
				}
			}
		}
	}
	return out, nil
}

// cut splits p after sentence ends into pieces of at most max runes where
// it can.
func cut(p string, max int) []string {
	if utf8.RuneCountInString(p) <= max {
		return []string{p}
	}
	var out []string
	start, n := 0, 0
	for i, r := range p {
		n++
		if n >= max/2 && (r == '。' || r == '！' || r == '？') {
			end := i + utf8.RuneLen(r)
			out = append(out, p[start:end])
			start, n = end, 0
		}
	}
	if start < len(p) {
		out = append(out, p[start:])
	}
	return out
}

func write(root, rel, text string) error {
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(text), 0o644)
}

// copyTree copies the .md files under src into dst at the same relative
// paths and returns how many it copied.
func copyTree(src, dst string) (int, error) {
	n := 0
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if _, err := os.Stat(filepath.Join(dst, rel)); err == nil {
			return nil // the first folder's file is kept (both books have world rules)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := write(dst, filepath.ToSlash(rel), string(data)); err != nil {
			return err
		}
		if strings.HasPrefix(filepath.ToSlash(rel), "entities/") {
			n++
		}
		return nil
	})
	if err != nil {
		return n, fmt.Errorf("webnovel: copy %s: %w", src, err)
	}
	return n, nil
}
