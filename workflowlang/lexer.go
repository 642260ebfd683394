package workflowlang

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// tokKind is the kind of a lexical token.
type tokKind uint8

const (
	tEOF     tokKind = iota
	tIdent           // a Unicode identifier (keywords are identifiers too)
	tString          // "…"
	tText            // """…"""
	tNumber          // 12, -3, 0.9
	tLBrace          // {
	tRBrace          // }
	tLBrack          // [
	tRBrack          // ]
	tComma           // ,
	tEquals          // =
	tIllegal         // a character that starts no token
)

func (k tokKind) String() string {
	switch k {
	case tEOF:
		return "end of file"
	case tIdent:
		return "name"
	case tString:
		return "string"
	case tText:
		return `"""text"""`
	case tNumber:
		return "number"
	case tLBrace:
		return "'{'"
	case tRBrace:
		return "'}'"
	case tLBrack:
		return "'['"
	case tRBrack:
		return "']'"
	case tComma:
		return "','"
	case tEquals:
		return "'='"
	case tIllegal:
		return "an unexpected character"
	}
	return "token"
}

// A token is a lexical token. Its text is src[start:end].
type token struct {
	kind       tokKind
	start, end int
	bol        bool // first token of its line
	open       bool // an unterminated string or text (already reported)
}

// scan returns the next token, skipping white space and comments and
// reporting (and skipping) bytes that cannot start a token.
func (p *parser) scan() token {
	src := p.src
	bol := p.pos == 0 || src[p.pos-1] == '\n'
	for {
		if p.pos >= len(src) {
			return token{kind: tEOF, start: len(src), end: len(src), bol: true}
		}
		c := src[p.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			p.pos++
			continue
		case c == '\n':
			p.pos++
			bol = true
			continue
		case c == '#':
			p.scanComment()
			continue
		}
		start := p.pos
		switch c {
		case '{':
			p.pos++
			return token{kind: tLBrace, start: start, end: p.pos, bol: bol}
		case '}':
			p.pos++
			return token{kind: tRBrace, start: start, end: p.pos, bol: bol}
		case '[':
			p.pos++
			return token{kind: tLBrack, start: start, end: p.pos, bol: bol}
		case ']':
			p.pos++
			return token{kind: tRBrack, start: start, end: p.pos, bol: bol}
		case ',':
			p.pos++
			return token{kind: tComma, start: start, end: p.pos, bol: bol}
		case '=':
			p.pos++
			return token{kind: tEquals, start: start, end: p.pos, bol: bol}
		case '"':
			if p.pos+2 < len(src) && src[p.pos+1] == '"' && src[p.pos+2] == '"' {
				open := p.scanText()
				return token{kind: tText, start: start, end: p.pos, bol: bol, open: open}
			}
			open := p.scanString()
			return token{kind: tString, start: start, end: p.pos, bol: bol, open: open}
		}
		if isDigit(c) || ((c == '-' || c == '+') && p.pos+1 < len(src) && isDigit(src[p.pos+1])) {
			p.scanNumber()
			return token{kind: tNumber, start: start, end: p.pos, bol: bol}
		}
		if c < utf8.RuneSelf {
			if isIdentStartASCII(c) {
				p.scanIdent()
				return token{kind: tIdent, start: start, end: p.pos, bol: bol}
			}
			p.pos++
			return token{kind: tIllegal, start: start, end: p.pos, bol: bol}
		}
		r, size := utf8.DecodeRune(src[p.pos:])
		if r == utf8.RuneError && size == 1 {
			p.pos = p.skipInvalid(p.pos)
			continue
		}
		if unicode.IsLetter(r) {
			p.scanIdent()
			return token{kind: tIdent, start: start, end: p.pos, bol: bol}
		}
		if unicode.IsSpace(r) {
			// Unicode spaces (U+3000 ideographic space, NBSP…) separate
			// tokens like ASCII ones; a Chinese author types them easily.
			p.pos += size
			continue
		}
		p.pos += size
		return token{kind: tIllegal, start: start, end: p.pos, bol: bol}
	}
}

// skipInvalid reports the run of invalid UTF-8 starting at i as one
// diagnostic and returns the offset after it.
func (p *parser) skipInvalid(i int) int {
	j := i
	for j < len(p.src) && p.src[j] >= utf8.RuneSelf {
		r, size := utf8.DecodeRune(p.src[j:])
		if r != utf8.RuneError || size != 1 {
			break
		}
		j++
	}
	p.errorf(Span{i, j}, CodeInvalidUTF8, "invalid UTF-8 (%d byte%s)", j-i, plural(j-i))
	return j
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func (p *parser) scanComment() {
	start := p.pos
	end := start
	for end < len(p.src) && p.src[end] != '\n' {
		end++
	}
	text := end
	if text > start && p.src[text-1] == '\r' {
		text--
	}
	p.checkBytes(start, text)
	p.f.Comments = append(p.f.Comments, &Comment{Text: p.s[start:text], Span: Span{start, text}})
	p.pos = end
}

// checkBytes reports invalid UTF-8 and NUL bytes in src[a:b], text the
// lexer otherwise takes as it is (comments, strings, prompt text).
func (p *parser) checkBytes(a, b int) {
	for i := a; i < b; {
		c := p.src[i]
		if c == 0 {
			p.errorf(Span{i, i + 1}, CodeSyntax, "NUL byte is not allowed in a .flow file")
			i++
			continue
		}
		if c < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(p.src[i:b])
		if r == utf8.RuneError && size == 1 {
			j := i
			for j < b && p.src[j] >= utf8.RuneSelf {
				r, size := utf8.DecodeRune(p.src[j:b])
				if r != utf8.RuneError || size != 1 {
					break
				}
				j++
			}
			p.errorf(Span{i, j}, CodeInvalidUTF8, "invalid UTF-8 (%d byte%s)", j-i, plural(j-i))
			i = j
			continue
		}
		i += size
	}
}

func (p *parser) scanNumber() {
	if c := p.src[p.pos]; c == '-' || c == '+' {
		p.pos++
	}
	for p.pos < len(p.src) && isDigit(p.src[p.pos]) {
		p.pos++
	}
	if p.pos+1 < len(p.src) && p.src[p.pos] == '.' && isDigit(p.src[p.pos+1]) {
		p.pos++
		for p.pos < len(p.src) && isDigit(p.src[p.pos]) {
			p.pos++
		}
	}
}

func (p *parser) scanIdent() {
	p.pos = identEnd(p.src, p.pos)
}

// identEnd returns the end of the identifier starting at i (which must
// start one).
func identEnd(src []byte, i int) int {
	first := true
	for i < len(src) {
		c := src[i]
		if c < utf8.RuneSelf {
			if isIdentStartASCII(c) || (!first && (isDigit(c) || c == '-')) {
				i++
				first = false
				continue
			}
			return i
		}
		r, size := utf8.DecodeRune(src[i:])
		if !isIdentRune(r, first) {
			return i
		}
		i += size
		first = false
	}
	return i
}

func isIdentRune(r rune, first bool) bool {
	if r == utf8.RuneError {
		return false
	}
	if unicode.IsLetter(r) || r == '_' {
		return true
	}
	if first {
		return false
	}
	return unicode.IsDigit(r) || r == '-' || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r)
}

// IsIdent reports whether s is a valid name: a letter or '_' followed by
// letters, digits, '_' or '-'.
func IsIdent(s string) bool {
	if s == "" {
		return false
	}
	first := true
	for _, r := range s {
		if !isIdentRune(r, first) {
			return false
		}
		first = false
	}
	return true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isIdentStartASCII(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c == '_'
}

// scanString scans a "…" string from its opening quote. A string ends at
// its line: an unterminated one is reported at the opener and ends before
// the newline. It reports whether the string was left open.
func (p *parser) scanString() bool {
	start := p.pos
	p.pos++
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case '\\':
			if p.pos+1 < len(p.src) && p.src[p.pos+1] != '\n' {
				p.pos += 2
				continue
			}
			p.pos++
			continue
		case '"':
			p.pos++
			return false
		case '\n':
			end := p.pos
			if end > start && p.src[end-1] == '\r' {
				end--
			}
			p.errorf(Span{start, start + 1}, CodeSyntax, "unterminated string: missing closing \"")
			return true
		}
		p.pos++
	}
	p.errorf(Span{start, start + 1}, CodeSyntax, "unterminated string: missing closing \"")
	return true
}

// scanText scans a """…""" block from its opening quotes. `\"""` does not
// close it. When no closing quotes follow, the block is reported at its
// opener and ends before the first later line that starts (at column 0)
// with a top-level keyword, so that the declarations after it survive.
func (p *parser) scanText() bool {
	start := p.pos
	src := p.src
	i := start + 3
	for i < len(src) {
		c := src[i]
		if c == '\\' && i+3 < len(src) && src[i+1] == '"' && src[i+2] == '"' && src[i+3] == '"' {
			i += 4
			continue
		}
		if c == '"' && i+2 < len(src) && src[i+1] == '"' && src[i+2] == '"' {
			p.pos = i + 3
			return false
		}
		i++
	}
	p.errorf(Span{start, start + 3}, CodeSyntax, `unterminated text block: missing closing """`)
	end := len(src)
	for j := start + 3; j < len(src); j++ {
		if src[j] == '\n' && startsItem(src, j+1) {
			end = j + 1
			break
		}
	}
	p.pos = end
	return true
}

// startsItem reports whether a top-level keyword followed by a space or
// quote starts at i.
func startsItem(src []byte, i int) bool {
	for _, kw := range itemKeywords {
		if len(src)-i > len(kw) && string(src[i:i+len(kw)]) == kw {
			c := src[i+len(kw)]
			if c == ' ' || c == '\t' || c == '"' || c == '{' {
				return true
			}
		}
	}
	return false
}

var itemKeywords = [...]string{"node", "workflow", "use", "input"}

func (p *parser) errorf(s Span, code Code, format string, args ...any) {
	p.diag(Diagnostic{Span: s, Severity: SeverityError, Code: code, Message: fmt.Sprintf(format, args...)})
}

func (p *parser) diag(d Diagnostic) {
	if len(p.f.Diagnostics) >= maxDiagnostics {
		if len(p.f.Diagnostics) == maxDiagnostics {
			p.f.Diagnostics = append(p.f.Diagnostics, Diagnostic{Span: d.Span, Severity: SeverityError, Code: CodeTooLarge,
				Message: fmt.Sprintf("too many syntax errors; stopped reporting after %d", maxDiagnostics)})
		}
		return
	}
	p.f.Diagnostics = append(p.f.Diagnostics, d)
}
