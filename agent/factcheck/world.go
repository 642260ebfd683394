package factcheck

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// forbiddenRule is one term or pattern of meta/world-rules.md.
type forbiddenRule struct {
	term string
	line int
	re   *regexp.Regexp // Latin terms and patterns
	cjk  []rune         // CJK terms, folded
	// whole asks for whole words (terms, not patterns).
	whole bool
	// words are a Latin term's words, lower case; the last one matches
	// in any ordinary form.
	words []string
}

func (k *Knowledge) compileForbidden() {
	k.termsByFirst = map[string][]*forbiddenRule{}
	k.termPrefixes = map[string]bool{}
	for _, term := range k.world.Forbidden {
		r := &forbiddenRule{term: term, line: k.world.Lines[term], whole: true}
		if prose.HasCJK(term) {
			r.cjk = k.foldRunes(term)
		} else {
			for _, w := range wordsOf(term) {
				r.words = append(r.words, strings.ToLower(w.s))
			}
			if len(r.words) == 0 {
				continue
			}
			k.termsByFirst[r.words[0]] = append(k.termsByFirst[r.words[0]], r)
			k.termPrefixes[prefix3(r.words[0])] = true
			continue
		}
		if len(r.cjk) > 0 {
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

func (k *Knowledge) checkWorld(d *doc) []Finding {
	var out []Finding
	if len(k.termsByFirst) > 0 {
		for i, w := range d.words {
			lw := asciiLower(w.s)
			if !k.termPrefixes[prefix3(lw)] {
				continue
			}
			for first, rules := range k.termsByFirst {
				if !strings.HasPrefix(lw, prefix3(first)) {
					continue
				}
				for _, r := range rules {
					if end, ok := matchTerm(d, i, r.words); ok {
						out = append(out, k.worldFinding(r, w.start, end, d.text[w.start:end]))
					}
				}
			}
		}
	}
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
					// Folding merges traditional words: 香煙 (incense
					// smoke) and 香菸 (cigarettes) both fold to 香烟. A
					// spelling other than the rule's that the book itself
					// uses is the book's word, not the forbidden one.
					if found := d.text[s:e]; found != r.term && k.book.usesExactly(found) >= minBookUses {
						continue
					}
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
		if prose.IsLatinWordRune(r) {
			return false
		}
	}
	if end < len(s) {
		r, _ := utf8.DecodeRuneInString(s[end:])
		if prose.IsLatinWordRune(r) {
			return false
		}
	}
	return true
}

// matchTerm matches a term's words at word i of d: the last word in any
// regular form, the others as they are, separated by spaces or hyphens.
func matchTerm(d *doc, i int, words []string) (int, bool) {
	if i+len(words) > len(d.words) {
		return 0, false
	}
	for j, tw := range words {
		w := asciiLower(d.words[i+j].s)
		if j > 0 {
			gap := d.between(i+j-1, i+j)
			if strings.TrimSpace(strings.ReplaceAll(gap, "-", " ")) != "" || len(gap) > 3 {
				return 0, false
			}
		}
		if j == len(words)-1 {
			// The word's own possessive "’s" is split off by the
			// tokeniser; plain forms are tested here.
			if !isForm(w, tw) {
				return 0, false
			}
			continue
		}
		if w != tw {
			return 0, false
		}
	}
	return d.words[i+len(words)-1].end, true
}

// asciiLower lowers ASCII letters without allocating for lower-case input.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

// prefix3 is the first three bytes of a lower-case word, the key that
// filters text words before the inflection test.
func prefix3(w string) string {
	if len(w) > 3 {
		return w[:3]
	}
	return w
}

// isForm reports whether w (lower case) is base or a regular form of it:
// plural, possessive, -ed, -ing, -er(s), with a final e dropped, y turned
// into ie, a consonant doubled, man turned into men.
func isForm(w, base string) bool {
	if w == base {
		return true
	}
	if len(w) < len(base)-1 || !strings.HasPrefix(w, base[:max(1, len(base)-3)]) {
		return false
	}
	if strings.HasSuffix(base, "man") && w == base[:len(base)-3]+"men" {
		return true
	}
	stems := []string{base}
	if strings.HasSuffix(base, "e") {
		stems = append(stems, base[:len(base)-1])
	}
	if strings.HasSuffix(base, "y") && len(base) > 1 && !strings.ContainsRune("aeiou", rune(base[len(base)-2])) {
		stems = append(stems, base[:len(base)-1]+"i")
	}
	if last := base[len(base)-1]; !strings.ContainsRune("aeiouwyx", rune(last)) {
		stems = append(stems, base+string(last))
	}
	for _, st := range stems {
		rest, ok := strings.CutPrefix(w, st)
		if !ok {
			continue
		}
		switch rest {
		case "s", "es", "ed", "d", "ing", "er", "ers", "r", "rs":
			return true
		}
	}
	return false
}
