package textsearch

import (
	"strings"
	"unicode/utf8"
)

// A Passage is a byte span of a text: whole paragraphs, or sentences of a
// paragraph too long to stand alone.
type Passage struct {
	Start, End int
}

// DefaultPassageSize is the size of a passage in weight units: one per
// CJK character, one per four other characters — about 200 to 300 tokens
// of either script.
const DefaultPassageSize = 300

// textWeight approximates a token count without a tokenizer, for cutting.
func textWeight(s string) int {
	w, other := 0, 0
	for _, r := range s {
		if IsCJK(r) {
			w++
		} else {
			other++
		}
	}
	return w + other/4
}

// Passages splits text into consecutive passages of about size weight
// units (see [DefaultPassageSize]; size <= 0 selects it). Paragraphs (text
// between blank lines, or between line breaks where the text has no blank
// lines) are kept whole and grouped up to size; a paragraph above twice
// size is cut between sentences. The passages cover every non-blank
// paragraph, in order, and never overlap.
func Passages(text string, size int) []Passage {
	if size <= 0 {
		size = DefaultPassageSize
	}
	paras := paragraphs(text)
	var units []Passage
	for _, p := range paras {
		if textWeight(text[p.Start:p.End]) <= 2*size {
			units = append(units, p)
			continue
		}
		units = append(units, sentences(text, p, size)...)
	}
	var out []Passage
	cur := Passage{-1, -1}
	curW := 0
	for _, u := range units {
		w := textWeight(text[u.Start:u.End])
		if cur.Start >= 0 && curW+w > size {
			out = append(out, cur)
			cur, curW = Passage{-1, -1}, 0
		}
		if cur.Start < 0 {
			cur.Start = u.Start
		}
		cur.End = u.End
		curW += w
	}
	if cur.Start >= 0 {
		out = append(out, cur)
	}
	return out
}

// paragraphs returns the trimmed paragraphs of text.
func paragraphs(text string) []Passage {
	sep := "\n\n"
	if !strings.Contains(strings.ReplaceAll(text, "\r\n", "\n"), "\n\n") {
		sep = "\n"
	}
	var out []Passage
	start := 0
	for start < len(text) {
		end := start
		for end < len(text) {
			if text[end] == '\n' {
				if sep == "\n" {
					break
				}
				// A blank line: "\n", optional spaces or '\r', "\n".
				j := end + 1
				for j < len(text) && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r') {
					j++
				}
				if j < len(text) && text[j] == '\n' {
					break
				}
			}
			end++
		}
		s, e := trimSpan(text, start, end)
		if s < e {
			out = append(out, Passage{s, e})
		}
		start = end + 1
	}
	return out
}

func trimSpan(text string, s, e int) (int, int) {
	for s < e {
		r, n := utf8.DecodeRuneInString(text[s:e])
		if r != ' ' && r != '\t' && r != '\r' && r != '\n' && r != '\u3000' {
			break
		}
		s += n
	}
	for e > s {
		r, n := utf8.DecodeLastRuneInString(text[s:e])
		if r != ' ' && r != '\t' && r != '\r' && r != '\n' && r != '\u3000' {
			break
		}
		e -= n
	}
	return s, e
}

// sentences cuts paragraph p into pieces of about size at sentence ends.
func sentences(text string, p Passage, size int) []Passage {
	var out []Passage
	start := p.Start
	cjk, other := 0, 0
	for i := p.Start; i < p.End; {
		r, n := utf8.DecodeRuneInString(text[i:p.End])
		i += n
		if IsCJK(r) {
			cjk++
		} else {
			other++
		}
		if !isSentenceEnd(r) {
			continue
		}
		// Closing quotes and brackets belong to the sentence they close.
		for i < p.End {
			r2, n2 := utf8.DecodeRuneInString(text[i:p.End])
			if !strings.ContainsRune("\"'”’」』）)", r2) {
				break
			}
			i += n2
			other++
		}
		if cjk+other/4 >= size {
			if s, e := trimSpan(text, start, i); s < e {
				out = append(out, Passage{s, e})
			}
			start, cjk, other = i, 0, 0
		}
	}
	if s, e := trimSpan(text, start, p.End); s < e {
		out = append(out, Passage{s, e})
	}
	return out
}

func isSentenceEnd(r rune) bool {
	switch r {
	case '.', '!', '?', '。', '！', '？', '；', '．', '…':
		return true
	}
	return false
}
