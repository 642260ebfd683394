// Package summarize produces the derived levels of a text without a
// model: an extractive L0 (one sentence, under 50 tokens) and L1 (an
// overview of 200 to 500 tokens) made of the text's own sentences, chosen
// by how central their terms are to the text. The result is deterministic
// and says it is extractive, so that a summary written by a model can
// replace it and the provenance can tell the two apart.
package summarize

import (
	"cmp"
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/textsearch"
)

// Method names how an extractive summary was made; it changes when the
// algorithm does, so stored summaries can be recomputed.
const Method = "extractive/v1"

// Limits on the levels, in tokens.
const (
	L0Max = 49  // L0 stays under 50 tokens
	L1Min = 200 // L1 aims at 200 to 500 tokens when the text is long enough
	L1Max = 500
)

// A Summary holds the two derived levels of a text.
type Summary struct {
	L0, L1             string
	L0Tokens, L1Tokens int
	// Method is [Method] for extractive summaries.
	Method string
}

// Extractive reports whether the summary was made by this package.
func (s Summary) Extractive() bool { return strings.HasPrefix(s.Method, "extractive/") }

// A Summarizer makes extractive summaries. It is safe for concurrent use.
type Summarizer struct {
	an *textsearch.Analyzer
	tc *textsearch.Counter
}

// New returns a Summarizer that finds terms with an and counts tokens
// with tc.
func New(an *textsearch.Analyzer, tc *textsearch.Counter) *Summarizer {
	return &Summarizer{an: an, tc: tc}
}

type sentence struct {
	text  string
	pos   int     // index in document order
	terms []int32 // distinct terms, as numbers of the text's own
	score float64
	toks  int // -1 until counted
}

var htmlComment = regexp.MustCompile(`(?s)<!--.*?-->`)

// Summarize returns the L0 and L1 of a Markdown text (front matter, if
// any, already removed).
func (s *Summarizer) Summarize(text string) (Summary, error) {
	// HTML comments are notes to tools and authors (a profile's section
	// markers), never part of what a summary should say.
	if strings.Contains(text, "<!--") {
		text = htmlComment.ReplaceAllString(text, "")
	}
	heading, body := splitHeading(text)
	sents := splitSentences(body)
	out := Summary{Method: Method}

	// Term weights: frequency in the text, damped, ignoring terms that
	// occur once (they say nothing about what the text is about). Terms
	// are numbered as they first occur, so that counting, scoring and the
	// coverage below index slices instead of hashing strings (a third of
	// a cold index's summarising was spent in those maps).
	ids := map[string]int32{}
	var tf []int32 // sentences holding each term
	var last []int // the last sentence each term was seen in, plus one
	var all []string
	var terms []int32 // every sentence's terms, back to back
	for i := range sents {
		all = s.an.AppendTerms(all[:0], sents[i].text)
		from := len(terms)
		for _, t := range all {
			id, ok := ids[t]
			if !ok {
				id = int32(len(tf))
				ids[t] = id
				tf, last = append(tf, 0), append(last, 0)
			}
			if last[id] == i+1 {
				continue
			}
			last[id] = i + 1
			tf[id]++
			terms = append(terms, id)
		}
		sents[i].terms = terms[from:len(terms):len(terms)]
		sents[i].toks = -1
		sents[i].score = float64(len(all)) // the length, for now
	}
	for i := range sents {
		st := &sents[i]
		sum := 0.0
		for _, t := range st.terms {
			if n := tf[t]; n > 1 {
				sum += math.Log(float64(n))
			}
		}
		n := st.score
		if n == 0 {
			continue
		}
		// Prefer sentences of ordinary length; favour the opening a little.
		st.score = sum / math.Sqrt(n+8) * (1 + 0.5/float64(1+st.pos))
	}

	// L0: an informative heading, else the best sentence that fits.
	if h := informativeHeading(heading); h != "" {
		if n, err := s.tc.Count(h); err != nil {
			return Summary{}, err
		} else if n <= L0Max {
			out.L0, out.L0Tokens = h, n
		}
	}
	if out.L0 == "" {
		order := rank(sents)
		for _, i := range order {
			n, err := s.count(&sents[i])
			if err != nil {
				return Summary{}, err
			}
			if n <= L0Max {
				out.L0, out.L0Tokens = sents[i].text, n
				break
			}
		}
		if out.L0 == "" && len(order) == 0 && len(sents) > 0 {
			// No term repeats (a very short text): the opening sentence.
			order = []int{0}
			sents[0].toks = -1
			if n, err := s.count(&sents[0]); err == nil && n <= L0Max {
				out.L0, out.L0Tokens = sents[0].text, n
			}
		}
		if out.L0 == "" && len(order) > 0 {
			l0, err := s.clip(sents[order[0]].text, L0Max)
			if err != nil {
				return Summary{}, err
			}
			out.L0 = l0
			out.L0Tokens, _ = s.tc.Count(l0)
		}
	}

	// L1: the whole text when it is short, else central sentences that
	// add new terms, in document order, up to the target.
	// Prose has at least one token per two weight units, so a text above
	// 2*L1Max units needs no count to know it is too long.
	whole := strings.TrimSpace(text)
	if weight(whole) <= 2*L1Max {
		if n, err := s.tc.Count(whole); err != nil {
			return Summary{}, err
		} else if n <= L1Max {
			out.L1, out.L1Tokens = whole, n
			return out.detached(), nil
		}
	}
	covered := make([]bool, len(tf))
	chosen := []int{}
	total := 0
	if h := informativeHeading(heading); h != "" {
		total, _ = s.tc.Count(h + "\n")
	}
	used := make([]bool, len(sents))
	for total < (L1Min+L1Max)/2 {
		best, bestGain := -1, 0.0
		for i := range sents {
			if used[i] || sents[i].score <= 0 {
				continue
			}
			novel := 0
			for _, t := range sents[i].terms {
				if !covered[t] {
					novel++
				}
			}
			gain := sents[i].score * (0.3 + 0.7*float64(novel)/float64(len(sents[i].terms)))
			if gain > bestGain {
				best, bestGain = i, gain
			}
		}
		if best < 0 {
			break
		}
		used[best] = true
		n, err := s.count(&sents[best])
		if err != nil {
			return Summary{}, err
		}
		if total+n+1 > L1Max {
			continue
		}
		total += n + 1
		chosen = append(chosen, best)
		for _, t := range sents[best].terms {
			covered[t] = true
		}
	}
	slices.Sort(chosen)
	var b strings.Builder
	if h := informativeHeading(heading); h != "" {
		b.WriteString(h)
		b.WriteString("\n")
	}
	for k, i := range chosen {
		if k > 0 {
			if chosen[k-1] != i-1 {
				b.WriteString(" … ")
			} else {
				b.WriteString(" ")
			}
		}
		b.WriteString(sents[i].text)
	}
	out.L1 = strings.TrimSpace(b.String())
	n, err := s.tc.Count(out.L1)
	if err != nil {
		return Summary{}, err
	}
	out.L1Tokens = n
	return out.detached(), nil
}

// detached is s with its levels copied out of the text they were cut
// from: an L0 of one sentence would otherwise keep the whole chapter (or
// its copy without comments) alive for as long as the summary is kept,
// which Role A's snapshot does for every file of a long work (2.6 MB of
// a million-character manuscript, measured with cmd/lspbench's heap
// profile).
func (s Summary) detached() Summary {
	s.L0, s.L1 = strings.Clone(s.L0), strings.Clone(s.L1)
	return s
}

func (s *Summarizer) count(st *sentence) (int, error) {
	if st.toks < 0 {
		n, err := s.tc.Count(st.text)
		if err != nil {
			return 0, err
		}
		st.toks = n
	}
	return st.toks, nil
}

// clip shortens text to at most max tokens, at a clause boundary when one
// is near, and marks the cut with an ellipsis.
func (s *Summarizer) clip(text string, max int) (string, error) {
	rs := []rune(text)
	lo, hi := 0, len(rs)
	for lo < hi { // longest prefix that fits with the ellipsis
		mid := (lo + hi + 1) / 2
		n, err := s.tc.Count(string(rs[:mid]) + "…")
		if err != nil {
			return "", err
		}
		if n <= max {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	cut := lo
	for i := lo; i > lo*2/3; i-- {
		if strings.ContainsRune(",;:，；：、 ", rs[i-1]) {
			cut = i
			break
		}
	}
	return strings.TrimRightFunc(string(rs[:cut]), func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(",;:，；：、", r)
	}) + "…", nil
}

// weight approximates a token count: one per CJK character, one per four
// other characters.
func weight(s string) int {
	cjk, other := 0, 0
	for _, r := range s {
		if textsearch.IsCJK(r) {
			cjk++
		} else {
			other++
		}
	}
	return cjk + other/4
}

func rank(sents []sentence) []int {
	order := make([]int, 0, len(sents))
	for i := range sents {
		if sents[i].score > 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(sents[b].score, sents[a].score) })
	return order
}

// splitHeading separates a first line that is a heading: a Markdown
// heading, or a short line without sentence punctuation followed by a
// blank line.
func splitHeading(text string) (heading, body string) {
	t := strings.TrimLeft(text, " \t\r\n\ufeff")
	line, rest, _ := strings.Cut(t, "\n")
	l := strings.TrimSpace(line)
	if strings.HasPrefix(l, "#") {
		return strings.TrimSpace(strings.TrimLeft(l, "#")), rest
	}
	if l != "" && utf8.RuneCountInString(l) <= 60 && !strings.ContainsAny(l[len(l)-1:], ".!?") &&
		strings.HasPrefix(strings.TrimLeft(rest, " \t\r"), "\n") {
		return l, rest
	}
	return "", t
}

// informativeHeading returns the heading unless it is only a chapter
// number ("Chapter XII", "第十二回", "12").
func informativeHeading(h string) string {
	rest := strings.TrimSpace(h)
	low := strings.ToLower(rest)
	for _, p := range []string{"chapter", "part", "book"} {
		if strings.HasPrefix(low, p) {
			f := strings.Fields(rest)
			if len(f) <= 2 {
				return ""
			}
		}
	}
	if strings.IndexFunc(rest, func(r rune) bool {
		return unicode.IsLetter(r) && !strings.ContainsRune("第回章节卷一二三四五六七八九十百千零〇", r) &&
			!strings.ContainsRune("ivxlcdm", unicode.ToLower(r))
	}) < 0 {
		return ""
	}
	return rest
}

// splitSentences cuts body into sentences: at sentence punctuation (with
// the closing quotes that follow) and at paragraph breaks, but not after
// common English abbreviations of address.
func splitSentences(body string) []sentence {
	var out []sentence
	add := func(s string) {
		s = strings.Join(strings.Fields(cleanMarkdown(s)), " ")
		if s != "" && strings.IndexFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0 {
			out = append(out, sentence{text: s, pos: len(out)})
		}
	}
	start := 0
	for i := 0; i < len(body); {
		r, n := utf8.DecodeRuneInString(body[i:])
		i += n
		end := false
		switch r {
		case '\n':
			end = strings.HasPrefix(strings.TrimLeft(body[i:], " \t\r"), "\n") || i == len(body)
		case '!', '?', '。', '！', '？', '．', '…':
			end = true
		case '.':
			end = !abbreviation(body[start:i])
		}
		if !end {
			continue
		}
		for i < len(body) {
			r2, n2 := utf8.DecodeRuneInString(body[i:])
			if !strings.ContainsRune("\"'”’」』）)!?！？…。", r2) {
				break
			}
			i += n2
		}
		add(body[start:i])
		start = i
	}
	add(body[start:])
	return out
}

func abbreviation(s string) bool {
	f := strings.Fields(s)
	if len(f) == 0 {
		return false
	}
	last := strings.TrimLeft(f[len(f)-1], "\"“‘(")
	switch last {
	case "Mr.", "Mrs.", "Ms.", "Dr.", "St.", "Col.", "Capt.", "Gen.", "Rev.", "Sir.", "Lt.", "Messrs.", "No.":
		return true
	}
	return len(last) == 2 && unicode.IsUpper(rune(last[0])) // initials: "J."
}

// cleanMarkdown removes list bullets and quote markers; emphasis stays,
// so that a quotation of the text still matches the summary verbatim.
func cleanMarkdown(s string) string {
	return strings.TrimLeft(strings.TrimSpace(s), "-*> ")
}
