// Package prose reads what Role C's checkers need of a text without
// knowing any project: its scripts and words, accents, the numerals of
// both languages, and the forms in which Chinese prose retells the past
// (verse, flashbacks). The checkers of package factcheck, which know the
// entities, build on it.
package prose

import (
	"strings"
	"unicode"

	"github.com/flowcabal/flowcabal/textsearch"
	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// LatinWords splits s into words: runs of letters and digits outside CJK.
func LatinWords(s string) []string {
	var out []string
	start := -1
	for i, r := range s {
		if IsLatinWordRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = append(out, s[start:i])
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, s[start:])
	}
	return out
}

func IsLatinWordRune(r rune) bool {
	if r < 0x80 {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	if 0x2E80 <= r && r <= 0x9FFF {
		return false // CJK, kana and their punctuation: the common case in Chinese text
	}
	return (unicode.IsLetter(r) || unicode.IsDigit(r)) && !IsCJK(r)
}

func IsCJK(r rune) bool {
	if r < 0x2E80 {
		return false
	}
	if 0x3400 <= r && r <= 0x9FFF {
		return true // CJK unified ideographs and extension A, without a table search
	}
	return textsearch.IsCJK(r)
}

func HasCJK(s string) bool {
	for _, r := range s {
		if IsCJK(r) {
			return true
		}
	}
	return false
}

func AllCJK(rs []rune) bool {
	for _, r := range rs {
		if !IsCJK(r) {
			return false
		}
	}
	return true
}

// Unaccented folds case and strips diacritics: "NAPOLÉON" and "Napoleon"
// are one name spelled two ways, never a misspelling of each other.
func Unaccented(s string) string {
	if plainRunes(s) {
		return strings.ToLower(s)
	}
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(t, s)
	if err != nil {
		return strings.ToLower(s)
	}
	return strings.ToLower(out)
}

// plainRunes reports whether s holds only runes that no canonical
// decomposition or composition touches: ASCII and the unified CJK
// ideographs, with the CJK and full-width punctuation. Most names and
// words asked about are such, and the normalising chain Unaccented builds
// otherwise costs more than the rest of a name comparison.
func plainRunes(s string) bool {
	for _, r := range s {
		switch {
		case r < 0x80, r >= 0x4E00 && r <= 0x9FFF, r >= 0x3400 && r <= 0x4DBF, r >= 0x3000 && r <= 0x303F, r >= 0xFF01 && r <= 0xFF5E:
		default:
			return false
		}
	}
	return true
}

// NameBreak reports whether r may stand right before a name: punctuation,
// a closing quote, a line break.
func NameBreak(r rune) bool {
	return strings.ContainsRune("，。．：；！？、”’」』）)\n\r \t“‘「『（(…—\"'!?,.:;", r)
}
