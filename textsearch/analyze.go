package textsearch

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// An Analyzer turns text into index terms. Chinese, Japanese and Korean
// runs become overlapping character bigrams (a run of one character becomes
// that character); other letters and digits form words, which lose
// possessive endings, stop words and, for ASCII words, their Porter suffix.
// Text is folded first (see [Folder]), so traditional and simplified
// Chinese, and upper and lower case, give the same terms.
//
// Bigrams rather than a dictionary segmenter: measured against
// github.com/go-ego/gse (see the package tests and the report), a
// dictionary costs hundreds of milliseconds and tens of megabytes to load,
// splits names it does not know, and gains nothing for ranking chapters,
// while bigrams need no table and cover every name.
type Analyzer struct {
	folder *Folder
}

// NewAnalyzer returns an Analyzer that folds with f.
func NewAnalyzer(f *Folder) *Analyzer {
	if f == nil {
		f = NewFolder()
	}
	return &Analyzer{folder: f}
}

// Folder returns the Folder the analyzer folds with.
func (a *Analyzer) Folder() *Folder { return a.folder }

// Terms returns the terms of text in order, duplicates kept.
func (a *Analyzer) Terms(text string) []string {
	return a.AppendTerms(nil, text)
}

// AppendTerms appends the terms of text to dst.
func (a *Analyzer) AppendTerms(dst []string, text string) []string {
	a.scan(text, func(t Token) { dst = append(dst, t.Term) })
	return dst
}

// A Token is one term with the byte span of text it came from.
type Token struct {
	Term       string
	Start, End int
}

// Tokens returns the terms of text with their byte spans in text.
func (a *Analyzer) Tokens(text string) []Token {
	var out []Token
	a.scan(text, func(t Token) { out = append(out, t) })
	return out
}

// IsCJK reports whether r is written without spaces between words
// (Han, kana, Hangul), so that it is indexed by character bigrams.
func IsCJK(r rune) bool {
	if r < 0x2E80 {
		return false
	}
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}

func isWordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func (a *Analyzer) scan(text string, emit func(Token)) {
	type cjk struct {
		r     rune
		start int
		end   int
	}
	var run []cjk
	flushCJK := func() {
		switch len(run) {
		case 0:
		case 1:
			emit(Token{Term: string(run[0].r), Start: run[0].start, End: run[0].end})
		default:
			var buf [8]byte
			for i := 0; i+1 < len(run); i++ {
				n := utf8.EncodeRune(buf[:], run[i].r)
				n += utf8.EncodeRune(buf[n:], run[i+1].r)
				emit(Token{Term: string(buf[:n]), Start: run[i].start, End: run[i+1].end})
			}
		}
		run = run[:0]
	}
	var word strings.Builder
	wordStart := -1
	flushWord := func(end int) {
		if wordStart < 0 {
			return
		}
		w := word.String()
		word.Reset()
		start := wordStart
		wordStart = -1
		if t := wordTerm(w); t != "" {
			emit(Token{Term: t, Start: start, End: end})
		}
	}
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		f := a.folder.FoldRune(r)
		switch {
		case IsCJK(f):
			flushWord(i)
			run = append(run, cjk{f, i, i + n})
		case isWordRune(f):
			flushCJK()
			if wordStart < 0 {
				wordStart = i
			}
			word.WriteRune(f)
		case f == '\'' && wordStart >= 0:
			// Keep the apostrophe inside a word (o'clock, Elizabeth's);
			// wordTerm strips possessives.
			word.WriteRune(f)
		default:
			flushCJK()
			flushWord(i)
		}
		i += n
	}
	flushCJK()
	flushWord(len(text))
}

// wordTerm maps a folded word to its term, or "" for a stop word.
func wordTerm(w string) string {
	w = strings.TrimRight(w, "'")
	if strings.HasSuffix(w, "'s") {
		w = w[:len(w)-2]
	}
	if w == "" || stopWords[w] {
		return ""
	}
	if strings.IndexByte(w, '\'') >= 0 {
		w = strings.ReplaceAll(w, "'", "")
	}
	return Stem(w)
}

// stopWords are English function words that carry no topic. Read only.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a about above after again against all am an and any are as at be
		because been before being below between both but by can could did do does doing down during
		each few for from further had has have having he her here hers herself him himself his how i
		if in into is it its itself just me more most my myself no nor not now of off on once only or
		other our ours ourselves out over own same she should so some such than that the their theirs
		them themselves then there these they this those through to too under until up upon very was
		we were what when where which while who whom why will with would you your yours yourself
		yourselves shall may might must let s t don didn won isn wasn`) {
		m[w] = true
	}
	return m
}()

// IsStopWord reports whether the folded word w is an English stop word.
func IsStopWord(w string) bool { return stopWords[w] }

// IsGrammaticalPair reports whether term is a character pair of Chinese
// that holds a particle or a personal pronoun (的那, 看了, 她们), folded as
// the analyzer folds. The index keeps such pairs, since a name or a line may
// need them, but in a query they rank chapters by grammar rather than by
// what the prompt is about, the way English stop words would.
func IsGrammaticalPair(term string) bool {
	if len(term) != 6 || utf8.RuneCountInString(term) != 2 {
		return false
	}
	for _, r := range term {
		if strings.ContainsRune(grammatical, r) {
			return true
		}
	}
	return false
}

// grammatical are the particles and personal pronouns of Chinese, in the
// folded (simplified) script, and 著, which folding leaves as it is (it is
// a simplified character too) though traditional text writes 着 with it.
// Demonstratives (这, 那) are left out: a prompt's "那位姑娘" points at
// someone, and they measured worse.
const grammatical = "的了着著地得之她他它们"

// Separates reports whether no term of text spans two of the passages ps
// or lies outside them, so that text's terms are the terms of its
// passages, in order: every byte outside the passages breaks terms, and
// passages that touch meet at a rune that breaks them. Role A analyses a
// chapter's passages anyway and then need not analyse the whole chapter
// again.
func (a *Analyzer) Separates(text string, ps []Passage) bool {
	breaks := func(r rune) bool {
		f := a.folder.FoldRune(r)
		return !IsCJK(f) && !isWordRune(f) && f != '\''
	}
	allBreak := func(s string) bool {
		for _, r := range s {
			if !breaks(r) {
				return false
			}
		}
		return true
	}
	at := 0
	for i, p := range ps {
		if p.Start < at || p.End < p.Start || p.End > len(text) {
			return false
		}
		if !allBreak(text[at:p.Start]) {
			return false
		}
		if i > 0 && p.Start == at {
			before, _ := utf8.DecodeLastRuneInString(text[:at])
			after, _ := utf8.DecodeRuneInString(text[at:])
			if !breaks(before) && !breaks(after) {
				return false
			}
		}
		at = p.End
	}
	return allBreak(text[at:])
}
