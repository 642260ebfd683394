package manuscript

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Chapter is one piece of the book as split.
type Chapter struct {
	// Number is the chapter's number: 0 for a prologue or front matter,
	// the heading's own number when the book's headings number its
	// chapters in increasing order (gaps kept), else its place in the
	// sequence. Extras have the number of the chapter they follow.
	Number int
	Kind   Kind
	// Heading is the heading line as written ("" for front matter).
	Heading string
	// Text is the chapter as it is written to its file: the heading as the
	// first line, then its paragraphs, one blank line between them.
	Text string
	// Source names the input the chapter came from, and Line its heading's
	// line there (1-based).
	Source string
	Line   int
}

// Arc is a part of the book (Part II, Volume 3, 卷三, Book One): a span of
// chapters under a heading.
type Arc struct {
	Heading     string
	First, Last int
	// Source and Line say where a part heading of its own line stands;
	// Line is 0 for a part named in its chapters' headings ("Book One,
	// Chapter I"), whose text is in those chapters.
	Source string
	Line   int
}

// Book is a manuscript split into chapters.
type Book struct {
	Chapters []Chapter
	// Extras are pieces kept apart from the chapter sequence (番外,
	// Extra, Interlude), each numbered after the chapter it follows.
	Extras []Chapter
	Arcs   []Arc
	// Unwrapped says the text was hard-wrapped and its paragraphs joined.
	Unwrapped bool
	// cjk says the book is written without spaces between words: wrapped
	// lines join with none but between two Latin letters or digits.
	cjk bool
	// moved says text without a heading (an epigraph under a part
	// heading) was moved after the heading of the chapter it opens.
	moved bool
	// Renumbered says the headings' numbers were not in increasing order
	// (parts restarting at one, a number repeated), so the chapters are
	// numbered by their place.
	Renumbered bool
}

// Source is one input text, named for messages.
type Source struct {
	Name string
	Text string
	// Whole marks an input that is one chapter by itself (a file of a
	// folder of chapter files): when it has no heading, its first line is
	// taken as one.
	Whole bool
}

// piece is a run of lines under one heading, before numbering.
type piece struct {
	h       heading
	line    string // heading line; "" for text before any heading
	body    []string
	src     string
	lineNo  int
	arc     string // the part heading this piece opens, if any
	arcOnly bool   // a part heading with no chapter of its own
	// unnumbered marks a chapter file whose heading gives no number: its
	// first line read as a title, or none when it opens with prose. It
	// is numbered by its place.
	unnumbered bool
}

// Split splits the sources, in order, into a book. It fails when it finds
// no text, or when the pieces would not hold every non-whitespace
// character of the input in order (a bug, never to be papered over).
func Split(srcs ...Source) (*Book, error) {
	var pieces []*piece
	var all []string
	for _, src := range srcs {
		text := normalizeNewlines(src.Text)
		lines := strings.Split(text, "\n")
		all = append(all, lines...)
		pieces = append(pieces, splitLines(src, lines)...)
	}
	if len(pieces) == 0 {
		return nil, fmt.Errorf("no text to import")
	}
	b := &Book{}
	b.Unwrapped = isHardWrapped(all)
	b.cjk = mostlyCJK(all)
	if err := b.number(pieces); err != nil {
		return nil, err
	}
	if err := b.check(srcs); err != nil {
		return nil, err
	}
	return b, nil
}

func normalizeNewlines(s string) string {
	s = strings.TrimPrefix(s, "\ufeff")
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\r", "\n")
}

// cand is a line that may be a heading: its index, what it reads as, and
// whether it is a bare number ("12." or "12"), which counts only where the
// book has no worded headings.
type cand struct {
	i    int
	h    heading
	bare bool
}

// givenAgain reports whether a heading is given again by a later one: the
// same kind and number, or the same words.
func givenAgain(lines []string, c cand, later []cand) bool {
	words := dense(lines[c.i])
	for _, d := range later {
		if d.h.kind == c.h.kind && d.bare == c.bare && (c.h.num != 0 && d.h.num == c.h.num || dense(lines[d.i]) == words) {
			return true
		}
	}
	return false
}

// dense is a heading line without markup and whitespace.
func dense(l string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) || strings.ContainsRune("#*=", r) {
			return -1
		}
		return r
	}, l)
}

// splitLines cuts one source at its headings. Bare numbered headings
// ("12.") count only when the source has no worded chapter headings, as
// numbered paragraphs are common in prose.
func splitLines(src Source, lines []string) []*piece {
	var cands []cand
	worded := 0
	var numerals []cand // lines of a number alone ("7"), maybe headings
	for i, l := range lines {
		h, ok := parseHeading(l)
		if !ok {
			if n, ok := numeralLine(l); ok && blankAt(lines, i-1) && blankAt(lines, i+1) {
				numerals = append(numerals, cand{i, heading{kind: KindChapter, num: n}, true})
			}
			continue
		}
		bare := h.kind == KindChapter && reBare.MatchString(strings.TrimSpace(strings.Trim(l, "#*= \t\u3000")))
		if bare && !(blankAt(lines, i-1) && blankAt(lines, i+1)) {
			continue
		}
		if h.kind == KindChapter && !bare {
			worded++
		}
		cands = append(cands, cand{i, h, bare})
	}
	if numeralsCount(numerals) {
		// Numbers alone on their lines that count 1, 2, 3… through the
		// book are its chapter headings; a stray one (a year, a page) is
		// not, nor are numbers that do not count up.
		cands = append(cands, numerals...)
		slices.SortFunc(cands, func(a, b cand) int { return a.i - b.i })
	}
	// A table of contents lists the headings before the book gives them:
	// a heading with no text under it that the book gives again later is
	// an entry of the contents, part of the front matter.
	kept := cands[:0]
	for k, c := range cands {
		end := len(lines)
		if k+1 < len(cands) {
			end = cands[k+1].i
		}
		if c.h.kind != KindPart && !hasText(lines[c.i+1:end]) && givenAgain(lines, c, cands[k+1:]) {
			if c.h.kind == KindChapter && !c.bare {
				worded--
			}
			continue
		}
		kept = append(kept, c)
	}
	cands = kept
	var out []*piece
	cur := &piece{src: src.Name}
	flush := func() {
		if cur.line != "" || cur.arcOnly || hasText(cur.body) {
			out = append(out, cur)
		}
	}
	next := 0
	for i, l := range lines {
		if next < len(cands) && cands[next].i == i {
			c := cands[next]
			next++
			if !(c.bare && worded >= 2) {
				flush()
				cur = &piece{h: c.h, line: l, src: src.Name, lineNo: i + 1}
				if c.h.kind == KindPart {
					cur.arc, cur.arcOnly = strings.TrimSpace(l), true
				} else if c.h.part {
					cur.arc = c.h.partLabel
				}
				continue
			}
		}
		if cur.arcOnly && strings.TrimSpace(l) != "" {
			// Text under a part heading before its first chapter (an
			// epigraph) belongs to a piece of its own, kept with the arc.
			flush()
			cur = &piece{h: heading{kind: KindChapter}, src: src.Name, lineNo: i + 1}
		}
		cur.body = append(cur.body, l)
	}
	flush()
	if src.Whole && len(out) > 0 && out[0].line == "" && !out[0].arcOnly {
		// A chapter file without a heading: its first line is one when
		// it reads as a title; a file that opens with prose is a chapter
		// with no heading.
		p := out[0]
		p.h, p.unnumbered = heading{kind: KindChapter}, true
		for j, l := range p.body {
			if strings.TrimSpace(l) != "" {
				if titleLike(l) {
					p.line, p.body, p.lineNo = l, p.body[j+1:], j+1
				}
				break
			}
		}
	}
	return out
}

// numeralLine reads a line that is a number alone ("7", "１２", "XII").
func numeralLine(l string) (int, bool) {
	s := strings.TrimSpace(strings.Trim(l, "#*= \t\u3000"))
	if s == "" || utf8.RuneCountInString(s) > 8 {
		return 0, false
	}
	if n, ok := parseDigits(s); ok {
		return n, true
	}
	if strings.Trim(s, "IVXLCDM") != "" {
		return 0, false // Roman numerals in capitals only: "I" is a word too
	}
	return parseNumber(s)
}

// numeralsCount reports whether lines of a number alone are a book's
// chapter headings: at least three, counting up by one from 0 or 1.
func numeralsCount(cs []cand) bool {
	if len(cs) < 3 || cs[0].h.num > 1 {
		return false
	}
	for k := 1; k < len(cs); k++ {
		if cs[k].h.num != cs[k-1].h.num+1 {
			return false
		}
	}
	return true
}

// titleLike reports whether a chapter file's first line reads as its
// title: short, and not ending as a sentence does.
func titleLike(l string) bool {
	s := strings.TrimSpace(strings.Trim(l, "#*= \t\u3000"))
	if s == "" || utf8.RuneCountInString(s) > maxHeadingRunes {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(s)
	return !strings.ContainsRune("。！？”」，,;；.!?:：…—\"'’", last)
}

func blankAt(lines []string, i int) bool {
	return i < 0 || i >= len(lines) || strings.TrimSpace(lines[i]) == ""
}

func hasText(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return true
		}
	}
	return false
}

// number gives the pieces their numbers and kinds, and fills b.
func (b *Book) number(pieces []*piece) error {
	// Chapter 0 gathers the front matter and prologues that come before
	// the first chapter; a piece without a heading after that (an
	// epigraph under a part heading) joins the chapter that follows it.
	var numbered []int // heading numbers of the chapters, in order
	for _, p := range pieces {
		if p.line != "" && p.h.kind == KindChapter && !p.h.epilogue && !p.unnumbered {
			numbered = append(numbered, p.h.num)
		}
	}
	useOwn := len(numbered) > 0
	for i, n := range numbered {
		if i > 0 && n <= numbered[i-1] {
			useOwn = false
		}
	}
	b.Renumbered = !useOwn && len(numbered) > 1
	var zero *Chapter
	last := 0
	var pendingArc string
	var pendingSrc string
	var pendingLine int
	var carry []string // text with no heading waiting for the next chapter
	var carryLine string
	// pending is the part headings and text with no heading not yet
	// placed, in the order written: at the end of a book cut short they
	// stay with the last chapter in that order.
	var pending []string
	// openAtZero opens a part whose heading stands before chapter 0 (Book
	// One, then a prologue or a chapter numbered 0) there.
	openAtZero := func() {
		if pendingArc != "" {
			b.Arcs = append(b.Arcs, Arc{Heading: pendingArc, First: 0, Last: 0, Source: pendingSrc, Line: pendingLine})
			pendingArc, pending = "", nil
		}
	}
	for _, p := range pieces {
		if p.arcOnly {
			pending = append(pending, p.arc, "")
			if pendingArc != "" {
				// Two part headings in a row (Part I, then Book 1): one
				// arc under both.
				pendingArc += "\n" + p.arc
				continue
			}
			pendingArc, pendingSrc, pendingLine = p.arc, p.src, p.lineNo
			continue
		}
		text := b.render(p.line, p.body)
		switch {
		case p.line == "" && !p.unnumbered && zero == nil && len(b.Chapters) == 0 && pendingArc == "":
			// Front matter.
			b.Chapters = append(b.Chapters, Chapter{Number: 0, Kind: KindPrologue, Text: text, Source: p.src, Line: p.lineNo})
			zero = &b.Chapters[len(b.Chapters)-1]
			continue
		case p.line == "" && !p.unnumbered:
			carry = append(carry, p.body...)
			pending = append(pending, p.body...)
			carryLine = p.src
			continue
		}
		kind := p.h.kind
		if p.h.epilogue {
			kind = KindEpilogue
		}
		if len(carry) > 0 {
			text = b.render(p.line, append(append(slices.Clone(carry), ""), p.body...))
			carry = nil
			b.moved = true
		}
		switch {
		case kind == KindPrologue && last == 0:
			openAtZero()
			if zero != nil {
				zero.Text += "\n" + text
				zero.Heading = strings.TrimSpace(p.line)
				continue
			}
			b.Chapters = append(b.Chapters, Chapter{Number: 0, Kind: KindPrologue, Heading: strings.TrimSpace(p.line), Text: text, Source: p.src, Line: p.lineNo})
			zero = &b.Chapters[len(b.Chapters)-1]
			continue
		case kind == KindExtra:
			b.Extras = append(b.Extras, Chapter{Number: last, Kind: KindExtra, Heading: strings.TrimSpace(p.line), Text: text, Source: p.src, Line: p.lineNo})
			continue
		case kind == KindChapter && p.h.num == 0 && useOwn && !p.unnumbered && last == 0 && len(b.Chapters) == 0:
			openAtZero()
			b.Chapters = append(b.Chapters, Chapter{Number: 0, Kind: KindChapter, Heading: strings.TrimSpace(p.line), Text: text, Source: p.src, Line: p.lineNo})
			zero = &b.Chapters[len(b.Chapters)-1]
			continue
		}
		n := last + 1
		if kind == KindChapter && useOwn && !p.h.epilogue && !p.unnumbered {
			n = p.h.num
		}
		last = n
		b.Chapters = append(b.Chapters, Chapter{Number: n, Kind: kind, Heading: strings.TrimSpace(p.line), Text: text, Source: p.src, Line: p.lineNo})
		pending = nil
		if zero != nil && zero.Number == 0 {
			zero = nil // chapter 0 is closed once chapters begin
		}
		switch {
		case pendingArc != "":
			b.Arcs = append(b.Arcs, Arc{Heading: pendingArc, First: n, Last: n, Source: pendingSrc, Line: pendingLine})
			pendingArc = ""
		case p.arc != "" && (len(b.Arcs) == 0 || b.Arcs[len(b.Arcs)-1].Heading != p.arc):
			// A combined heading ("Book Two, Chapter I") opens its part
			// when the part's name changes.
			b.Arcs = append(b.Arcs, Arc{Heading: p.arc, First: n, Last: n})
		case len(b.Arcs) > 0:
			b.Arcs[len(b.Arcs)-1].Last = n
		}
	}
	if pendingArc != "" || len(carry) > 0 {
		// Part headings or text with no chapter after them (a book cut
		// short, or one with no chapter headings at all): they stay with
		// the last chapter, or make chapter 0, in the order written.
		tail := b.render("", pending)
		if len(b.Chapters) == 0 {
			src, line := pendingSrc, pendingLine
			if pendingArc == "" {
				src = carryLine
			}
			b.Chapters = append(b.Chapters, Chapter{Number: 0, Kind: KindPrologue, Text: tail, Source: src, Line: line})
		} else {
			c := &b.Chapters[len(b.Chapters)-1]
			c.Text = strings.TrimRight(c.Text, "\n") + "\n\n" + tail
		}
	}
	return nil
}

// render lays a piece out: the heading line, then its paragraphs with one
// blank line between them.
func (b *Book) render(head string, body []string) string {
	var paras []string
	if h := strings.TrimRightFunc(head, unicode.IsSpace); strings.TrimSpace(h) != "" {
		paras = append(paras, strings.TrimSpace(h))
	}
	paras = append(paras, paragraphs(body, b.Unwrapped, b.cjk)...)
	return strings.Join(paras, "\n\n") + "\n"
}

// paragraphs groups lines into paragraphs: blank lines separate them;
// in hard-wrapped text the lines between are joined, and an indented
// line starts a new one; otherwise every line is a paragraph.
func paragraphs(lines []string, unwrap, cjk bool) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for _, l := range lines {
		t := strings.TrimRightFunc(l, unicode.IsSpace)
		if strings.TrimSpace(t) == "" {
			flush()
			continue
		}
		if !unwrap || cur.Len() == 0 || indented(t) {
			flush()
			cur.WriteString(t)
			continue
		}
		t = strings.TrimLeftFunc(t, unicode.IsSpace)
		prev := cur.String()
		if !joinsTight(prev, t, cjk) {
			cur.WriteByte(' ')
		}
		cur.WriteString(t)
	}
	flush()
	return out
}

func indented(line string) bool {
	r, _ := utf8.DecodeRuneInString(line)
	return unicode.IsSpace(r)
}

// joinsTight reports whether two wrapped lines join with no space: at a
// hyphen, where either side is Chinese or Japanese, and in a book written
// without spaces anywhere but between two Latin letters or digits.
func joinsTight(prev, next string, cjk bool) bool {
	a, _ := utf8.DecodeLastRuneInString(prev)
	z, _ := utf8.DecodeRuneInString(next)
	if cjk {
		latin := func(r rune) bool { return r < 0x80 && (unicode.IsLetter(r) || unicode.IsDigit(r)) }
		return !(latin(a) && latin(z))
	}
	return a == '-' || wide(a) || wide(z)
}

// mostlyCJK reports whether most letters of the text are Chinese or
// Japanese.
func mostlyCJK(lines []string) bool {
	han, letters := 0, 0
	for _, l := range lines {
		for _, r := range l {
			if unicode.IsLetter(r) {
				letters++
				if wide(r) {
					han++
				}
			}
		}
	}
	return han*2 > letters
}

// wide reports whether r is written without spaces between words: CJK
// ideographs, kana, and full-width punctuation.
func wide(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) ||
		(r >= 0x3000 && r <= 0x303F) || (r >= 0xFF00 && r <= 0xFFEF)
}

// isHardWrapped reports whether the text's lines were broken at a fixed
// width: most lines run on into the next non-blank line, and those lines
// are nearly as long as the longest. One-line paragraphs, blank-line
// separated or not, vary in length and are left as they are.
func isHardWrapped(lines []string) bool {
	var lens []int
	cont := 0
	nonBlank := 0
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		nonBlank++
		w := width(strings.TrimSpace(l))
		lens = append(lens, w)
		if i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" {
			cont++
		}
	}
	if nonBlank < 10 || cont*10 < nonBlank*3 {
		return false
	}
	sorted := slices.Clone(lens)
	slices.Sort(sorted)
	top := sorted[len(sorted)*98/100]
	if top > 140 || top < 20 {
		return false
	}
	near := 0
	for i, l := range lines {
		if strings.TrimSpace(l) == "" || i+1 >= len(lines) || strings.TrimSpace(lines[i+1]) == "" {
			continue
		}
		if w := width(strings.TrimSpace(l)); w*10 >= top*7 && w <= top+2 {
			near++
		}
	}
	return near*10 >= cont*6
}

// width counts a wide character as two columns, as a fixed-width file
// wraps them.
func width(s string) int {
	n := 0
	for _, r := range s {
		if wide(r) {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// check holds the package's invariant: the non-whitespace characters of
// the input are those of the pieces, in order.
func (b *Book) check(srcs []Source) error {
	var in, out strings.Builder
	for _, s := range srcs {
		writeDense(&in, normalizeNewlines(s.Text))
	}
	// Pieces appear in the order of the input: chapters, extras and arc
	// headings interleave by where they came from.
	type at struct {
		src  int
		line int
		text string
	}
	order := map[string]int{}
	for i, s := range srcs {
		order[s.Name] = i
	}
	var all []at
	for _, c := range b.Chapters {
		all = append(all, at{order[c.Source], c.Line, c.Text})
	}
	for _, c := range b.Extras {
		all = append(all, at{order[c.Source], c.Line, c.Text})
	}
	for _, a := range b.Arcs {
		if a.Line > 0 {
			all = append(all, at{order[a.Source], a.Line, a.Heading})
		}
	}
	slices.SortStableFunc(all, func(x, y at) int {
		if x.src != y.src {
			return x.src - y.src
		}
		return x.line - y.line
	})
	for _, a := range all {
		writeDense(&out, a.text)
	}
	got, want := out.String(), in.String()
	if got != want && b.moved && sameRunes(got, want) {
		// An epigraph now follows the heading it stood before: the text
		// is all there, in another order at those places.
		return nil
	}
	if got != want {
		i := 0
		for i < len(got) && i < len(want) && got[i] == want[i] {
			i++
		}
		return fmt.Errorf("the split would lose or change text near %q (a bug: nothing was written)", snippet(want, i))
	}
	return nil
}

func writeDense(b *strings.Builder, s string) {
	for _, r := range s {
		if !unicode.IsSpace(r) {
			b.WriteRune(r)
		}
	}
}

// sameRunes reports whether a and b hold the same characters, in any
// order.
func sameRunes(a, b string) bool {
	count := map[rune]int{}
	for _, r := range a {
		count[r]++
	}
	for _, r := range b {
		count[r]--
	}
	for _, n := range count {
		if n != 0 {
			return false
		}
	}
	return true
}

func snippet(s string, i int) string {
	start := max(0, i-20)
	for start > 0 && !utf8.RuneStart(s[start]) {
		start--
	}
	end := min(len(s), i+20)
	for end < len(s) && !utf8.RuneStart(s[end]) {
		end++
	}
	return s[start:end]
}
