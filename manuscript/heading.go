package manuscript

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Kind is what a heading opens.
type Kind int

// The kinds of heading. A part (Part II, Volume 3, 卷三, Book One) opens an
// arc and holds no text of its own; the others open a piece of text.
const (
	KindChapter  Kind = iota
	KindPrologue      // chapter 0
	KindEpilogue      // numbered after the last chapter
	KindExtra         // kept apart from the chapter sequence
	KindPart          // an arc
)

func (k Kind) String() string {
	return [...]string{"chapter", "prologue", "epilogue", "extra", "part"}[k]
}

// heading is one heading line as read.
type heading struct {
	kind Kind
	// num is the number the heading gives (0 when none).
	num int
	// part is set for a combined heading ("Book One, Chapter I"): the
	// line opens an arc and a chapter at once.
	part bool
	// epilogue is set for "Second Epilogue, Chapter I": a chapter of an
	// epilogue part, numbered in sequence after the book's chapters.
	epilogue bool
	// partLabel is the part of a combined heading ("Book One").
	partLabel string
}

// Numbers as authors write them in headings.
const (
	numAr  = `[0-9０-９]{1,6}`
	numRom = `[IVXLCDMivxlcdm]{1,8}`
	numEn  = `(?:(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|and|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth)[\s-]*)+`
	numZh  = `[〇零○一二兩两三四五六七八九十百千萬万壹貳贰參叁肆伍陸陆柒捌玖拾佰仟]{1,8}`
	// A title may follow a heading's number after a separator.
	titleSep = `(?:\s*[.:：、·—–\-]\s*|\s+|$)`
)

var (
	enNum   = `(` + numAr + `|` + numRom + `|` + numEn + `)`
	anyNum  = `(` + numAr + `|` + numZh + `)`
	reEnCh  = regexp.MustCompile(`(?i)^(?:chapter|chap\.?|ch\.)\s*` + enNum + `\b` + titleSep)
	reEnPt  = regexp.MustCompile(`(?i)^(?:part|volume|vol\.|book)\s+` + enNum + `\b` + titleSep)
	reEnBk  = regexp.MustCompile(`(?i)^(?:(?:part|volume|vol\.|book)\s+` + enNum + `|(?:(?:first|second|third|final)\s+)?epilogue)\s*[,.:;]?\s*(?:chapter|chap\.?)\s+` + enNum + `\b` + titleSep)
	reBare  = regexp.MustCompile(`^(?:(` + numAr + `|` + numRom + `)\s*[.、．]` + titleSep + `|(` + numZh + `)[、．])`)
	reZhCh  = regexp.MustCompile(`^第\s*` + anyNum + `\s*[章回節节話话]` + `(?:\s*|[:：、·　]|$)`)
	reZhPt  = regexp.MustCompile(`^(?:第\s*` + anyNum + `\s*[卷部集篇]|卷\s*` + anyNum + `)` + `(?:\s*|[:：、·　]|$)`)
	reEnPro = regexp.MustCompile(`(?i)^(?:prologue|preface|foreword|introduction)\b` + titleSep)
	reEnEpi = regexp.MustCompile(`(?i)^(?:(?:first|second|third|final)\s+)?(?:epilogue|afterword)\b` + titleSep)
	reEnExt = regexp.MustCompile(`(?i)^(?:extra|bonus chapter|side story|interlude)\b` + titleSep)
	reZhPro = regexp.MustCompile(`^(?:楔子|序章|序幕|引子|序言|序|前言|自序)(?:\s|[:：、·　]|$)`)
	reZhEpi = regexp.MustCompile(`^(?:尾聲|尾声|後記|后记|終章|终章)(?:\s|[:：、·　]|$)`)
	reZhExt = regexp.MustCompile(`^(?:番外|完本感言|上架感言|感言)`)
	// reZhChIn finds a chapter heading after a volume's on the same line.
	reZhChIn = regexp.MustCompile(`(?:^|[\s　])(第\s*` + anyNum + `\s*[章回節节])(?:[\s　]|[:：、·]|$)`)
)

// headingText is a line as a heading reads: without Markdown marks, the
// brackets some sites put around headings (【第一章】) and the 正文 ("main
// text") label web-novel downloads put before them.
func headingText(line string) string {
	s := strings.TrimSpace(strings.Trim(line, "#*= \t\u3000"))
	if strings.HasPrefix(s, "【") && strings.HasSuffix(s, "】") && strings.Count(s, "【") == 1 {
		s = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(s, "【"), "】"))
	}
	if rest, ok := strings.CutPrefix(s, "正文"); ok && rest != "" {
		if r, _ := utf8.DecodeRuneInString(rest); unicode.IsSpace(r) || r == '　' || r == '第' {
			s = strings.TrimSpace(strings.Trim(rest, " \t\u3000"))
		}
	}
	return s
}

// maxHeadingRunes bounds a heading line: a longer line is prose that
// happens to start like a heading ("第一回合，他……").
const maxHeadingRunes = 60

// parseHeading reads line as a heading, or reports false. A heading is a
// short line that does not end as a sentence ends.
func parseHeading(line string) (heading, bool) {
	s := headingText(line)
	if s == "" || utf8.RuneCountInString(s) > maxHeadingRunes {
		return heading{}, false
	}
	last, _ := utf8.DecodeLastRuneInString(s)
	if strings.ContainsRune("。！？”」，,;；", last) {
		return heading{}, false
	}
	// Authors capitalise headings: a line of wrapped prose that starts
	// with "chapter" or "part" in lower case is prose.
	if r, _ := utf8.DecodeRuneInString(s); unicode.IsLower(r) {
		return heading{}, false
	}
	num := func(m []string, i int) int {
		n, _ := parseNumber(strings.TrimSpace(m[i]))
		return n
	}
	if m := reEnBk.FindStringSubmatch(s); m != nil {
		label := s
		if i := strings.Index(strings.ToLower(s), "chap"); i > 0 {
			label = strings.TrimRight(s[:i], " ,.:;")
		}
		return heading{kind: KindChapter, num: num(m, 2), part: true, partLabel: label,
			epilogue: strings.Contains(strings.ToLower(m[0]), "epilogue")}, true
	}
	if m := reEnCh.FindStringSubmatch(s); m != nil && validNum(m[1]) {
		return heading{kind: KindChapter, num: num(m, 1)}, true
	}
	if m := reZhPt.FindStringSubmatch(s); m != nil {
		// A volume and its chapter on one line, as web-novel sites
		// write them: "第一卷 風起 第3章 初見".
		if loc := reZhChIn.FindStringSubmatchIndex(s[len(m[0]):]); loc != nil {
			at := len(m[0]) + loc[2]
			n := s[len(m[0])+loc[4] : len(m[0])+loc[5]]
			if v, ok := parseNumber(n); ok && validNum(n) {
				return heading{kind: KindChapter, num: v, part: true, partLabel: strings.TrimSpace(s[:at])}, true
			}
		}
	}
	if m := reZhCh.FindStringSubmatch(s); m != nil && validNum(m[1]) {
		return heading{kind: KindChapter, num: num(m, 1)}, true
	}
	if m := reEnPt.FindStringSubmatch(s); m != nil && validNum(m[1]) {
		return heading{kind: KindPart, num: num(m, 1)}, true
	}
	if m := reZhPt.FindStringSubmatch(s); m != nil {
		n := m[1]
		if n == "" {
			n = m[2]
		}
		if validNum(n) {
			v, _ := parseNumber(n)
			return heading{kind: KindPart, num: v}, true
		}
	}
	// A worded heading without a number is the word alone, or the word
	// and a title after punctuation ("Prologue: The Storm"), never a
	// sentence that starts with it ("Introduction had been made.").
	worded := func(re *regexp.Regexp) bool {
		m := re.FindString(s)
		if m == "" {
			return false
		}
		rest := s[len(m):]
		sep := strings.TrimSpace(m[len(strings.TrimRightFunc(m, func(r rune) bool { return strings.ContainsRune(" .:：、·—–-", r) })):])
		return rest == "" || sep != ""
	}
	switch {
	case worded(reEnPro), reZhPro.MatchString(s):
		return heading{kind: KindPrologue}, true
	case worded(reEnEpi), reZhEpi.MatchString(s):
		return heading{kind: KindEpilogue}, true
	case worded(reEnExt), reZhExt.MatchString(s):
		return heading{kind: KindExtra}, true
	}
	// "12.", "XII." or "十二、" alone (or with a short title): only with no other
	// words than a title in capitals or a short one, as numbered
	// paragraphs of prose are numbers followed by a sentence.
	if m := reBare.FindStringSubmatch(s); m != nil && validNum(m[1]+m[2]) {
		if m[1] == "" {
			m[1] = m[2]
		}
		rest := strings.TrimSpace(s[len(m[0]):])
		if rest == "" || (utf8.RuneCountInString(rest) <= 40 && !strings.ContainsAny(rest, ".!?。！？")) {
			return heading{kind: KindChapter, num: num(m, 1)}, true
		}
	}
	return heading{}, false
}

// validNum reports whether a matched number reads as one (a Roman numeral
// must be canonical; "mix" is not 1009).
func validNum(s string) bool {
	_, ok := parseNumber(strings.TrimSpace(s))
	return ok && !allLower(s)
}

// allLower is true for a lower-case Roman-looking word ("mild", "civil"):
// authors write chapter numerals in capitals.
func allLower(s string) bool {
	s = strings.TrimSpace(s)
	if _, ok := parseDigits(s); ok {
		return false
	}
	if _, ok := parseEnglish(s); ok {
		return false
	}
	for _, r := range s {
		if !unicode.IsLower(r) {
			return false
		}
	}
	return s != ""
}
