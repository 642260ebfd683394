package factcheck

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// forbiddenRule is one term or pattern of meta/world-rules.md.
type forbiddenRule struct {
	term string
	line int
	re   *regexp.Regexp // Latin terms and patterns
	cjk  []rune         // CJK terms, folded
	// whole asks for whole words (terms, not patterns).
	whole bool
}

func (k *Knowledge) compileForbidden() {
	for _, term := range k.world.Forbidden {
		r := &forbiddenRule{term: term, line: k.world.Lines[term], whole: true}
		if hasCJK(term) {
			r.cjk = k.foldRunes(term)
		} else {
			re, err := regexp.Compile(termPattern(term))
			if err != nil {
				k.errs = append(k.errs, fmt.Errorf("%s: forbidden term %q: %w", k.world.Path, term, err))
				continue
			}
			r.re = re
		}
		if r.re != nil || len(r.cjk) > 0 {
			k.forbidden = append(k.forbidden, r)
		}
	}
	for _, p := range k.world.ForbiddenPatterns {
		re, err := regexp.Compile(p)
		if err != nil {
			k.errs = append(k.errs, fmt.Errorf("%s: forbidden pattern %q: %w", k.world.Path, p, err))
			continue
		}
		k.forbidden = append(k.forbidden, &forbiddenRule{term: p, re: re})
	}
}

// termPattern turns a forbidden term into a case-insensitive pattern for
// the term and its ordinary word forms: the last word takes plural and
// verb endings (telephone: telephones, telephoned, telephoning), words
// are separated by spaces or hyphens. Word boundaries are checked by the
// caller, since Go's \b knows ASCII only.
func termPattern(term string) string {
	ws := strings.Fields(term)
	var parts []string
	for i, w := range ws {
		if i < len(ws)-1 {
			parts = append(parts, regexp.QuoteMeta(w))
			continue
		}
		parts = append(parts, inflections(w))
	}
	return `(?i)` + strings.Join(parts, `[\s\-]+`)
}

// inflections returns a pattern for a word and its regular forms.
func inflections(w string) string {
	lw := strings.ToLower(w)
	q := regexp.QuoteMeta
	switch {
	case strings.HasSuffix(lw, "man"):
		return q(w[:len(w)-3]) + `m[ae]n(?:'s|’s)?`
	case strings.HasSuffix(lw, "e"):
		return q(w[:len(w)-1]) + `(?:ers|er|es|ed|ing|e's|e’s|e)`
	case strings.HasSuffix(lw, "y") && len(lw) > 1 && !strings.ContainsRune("aeiou", rune(lw[len(lw)-2])):
		return q(w[:len(w)-1]) + `(?:ies|ied|ying|y's|y’s|y)`
	case strings.HasSuffix(lw, "s") || strings.HasSuffix(lw, "x") || strings.HasSuffix(lw, "sh") || strings.HasSuffix(lw, "ch"):
		return q(w) + `(?:es|ed|ing|'s|’s)?`
	}
	last := lw[len(lw)-1:]
	double := ""
	if !strings.ContainsAny(last, "aeiouwy") {
		double = "(?:" + q(w[len(w)-1:]) + ")?"
	}
	return q(w) + `(?:s|'s|’s|` + double + `ed|` + double + `ing|` + double + `ers|` + double + `er)?`
}

func (k *Knowledge) checkWorld(d *doc) []Finding {
	var out []Finding
	for _, r := range k.forbidden {
		if r.re != nil {
			for _, m := range r.re.FindAllStringIndex(d.text, -1) {
				if r.whole && !wordBoundary(d.text, m[0], m[1]) {
					continue
				}
				out = append(out, k.worldFinding(r, m[0], m[1], d.text[m[0]:m[1]]))
			}
		}
		if len(r.cjk) > 0 && d.cjk {
			rs := d.frunes
			for i := 0; i+len(r.cjk) <= len(rs); i++ {
				if rs[i] != r.cjk[0] {
					continue
				}
				ok := true
				for j := 1; j < len(r.cjk); j++ {
					if rs[i+j] != r.cjk[j] {
						ok = false
						break
					}
				}
				if ok {
					s, e := d.roff[i], d.roff[i+len(r.cjk)]
					out = append(out, k.worldFinding(r, s, e, d.text[s:e]))
				}
			}
		}
	}
	return out
}

func (k *Knowledge) worldFinding(r *forbiddenRule, start, end int, found string) Finding {
	msg := fmt.Sprintf("%q is forbidden by the world rules", found)
	if k.world.Era != "" {
		msg += " (" + k.world.Era + ")"
	}
	return Finding{
		Type:       TypeWorld,
		Start:      start,
		End:        end,
		Message:    msg,
		Evidence:   Evidence{Path: k.world.Path, Key: "forbidden", Value: r.term, Rule: r.term, Line: r.line},
		Confidence: 0.95,
	}
}

// wordBoundary reports whether [start, end) of s is a whole word or
// phrase: no letter or digit touches it on either side.
func wordBoundary(s string, start, end int) bool {
	if start > 0 {
		r, _ := utf8.DecodeLastRuneInString(s[:start])
		if isLatinWordRune(r) {
			return false
		}
	}
	if end < len(s) {
		r, _ := utf8.DecodeRuneInString(s[end:])
		if isLatinWordRune(r) {
			return false
		}
	}
	return true
}
