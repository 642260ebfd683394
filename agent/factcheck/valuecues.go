package factcheck

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// What a Chinese number measures is named by the words the manuscript
// writes before it. A fact key in another script (somersault_distance,
// weapon_weight) is never in the text, but the book writes the declared
// value after the same words again and again: 觔斗 before 十萬八千里, 金箍
// before 一萬三千五百斤. Those words, learned from the other chapters, tie
// a number of the same unit to the fact as the key's own words would.
// The chapter checked is left out, so that what it says (its error, or in
// an evaluation its original) never teaches the cue.

// cueWindow is how many characters before a value the cues are read from,
// within its sentence.
const cueWindow = 12

// maxCueOccurrences bounds the occurrences of a value read for its cues.
const maxCueOccurrences = 200

// valueOcc is one occurrence of a value in the manuscript: its chapter and
// the folded characters before it in its sentence.
type valueOcc struct {
	chapter int
	left    string
}

// cueOccurrences returns the occurrences of a folded value in the
// manuscript's chapters, cached by value. They are found in the folded
// book bookForms keeps for its counts, not in a copy of their own.
func (b *bookForms) cueOccurrences(value string) []valueOcc {
	if b == nil || b.nums == nil || value == "" {
		return nil
	}
	b.once.Do(b.build)
	b.mu.Lock()
	defer b.mu.Unlock()
	if occ, ok := b.valueOccs[value]; ok {
		return occ
	}
	if b.valueOccs == nil {
		b.valueOccs = map[string][]valueOcc{}
	}
	var occ []valueOcc
	for i := 0; len(occ) < maxCueOccurrences; {
		j := strings.Index(b.cjk[i:], value)
		if j < 0 {
			break
		}
		at := i + j
		i = at + len(value)
		// A longer number is another value (二十萬八千里 holds 十萬八千里).
		if r, _ := utf8.DecodeLastRuneInString(b.cjk[:at]); prose.IsCJKNumeral(r) {
			continue
		}
		ci := sort.SearchInts(b.cjkStarts, at+1) - 1
		if ci < 0 {
			continue
		}
		occ = append(occ, valueOcc{chapter: b.cjkNums[ci], left: leftInSentence(b.cjk, at, cueWindow)})
	}
	b.valueOccs[value] = occ
	return occ
}

// leftInSentence is up to n characters of s before byte offset at, not
// reaching back past the end of the sentence before.
func leftInSentence(s string, at, n int) string {
	start := at
	for i := 0; i < n && start > 0; i++ {
		r, size := utf8.DecodeLastRuneInString(s[:start])
		if strings.ContainsRune("。！？!?\n", r) {
			break
		}
		start -= size
	}
	return s[start:at]
}

// cueBigrams lists the pairs of Chinese characters of a window, numerals
// left out (they are the number, not what it measures), each once.
func cueBigrams(window string) []string {
	rs := []rune(window)
	var out []string
	seen := map[string]bool{}
	for i := 0; i+1 < len(rs); i++ {
		a, b := rs[i], rs[i+1]
		if !prose.IsCJK(a) || !prose.IsCJK(b) || prose.IsCJKNumeral(a) || prose.IsCJKNumeral(b) {
			continue
		}
		if bg := string(rs[i : i+2]); !seen[bg] {
			seen[bg] = true
			out = append(out, bg)
		}
	}
	return out
}

// valueCues are the pairs of characters the manuscript writes before a
// folded value in at least two of its occurrences outside chapter skip and
// in at least a third of them.
func (k *Knowledge) valueCues(value string, skip int) []string {
	occ := k.book.cueOccurrences(value)
	counts := map[string]int{}
	n := 0
	for _, o := range occ {
		if o.chapter == skip {
			continue
		}
		n++
		for _, bg := range cueBigrams(o.left) {
			counts[bg]++
		}
	}
	var cues []string
	for bg, c := range counts {
		if c >= 2 && 3*c >= n {
			cues = append(cues, bg)
		}
	}
	return cues
}

// cueBefore reports whether the sentence of the text before byte offset p
// of d writes one of the value's cues within cueWindow characters, and the
// number at p states a measure, not what was done.
func (k *Knowledge) cueBefore(d *doc, p int, value string) bool {
	if k.book == nil {
		return false
	}
	// 過了二百里: a number after the perfective 了 measures what someone
	// did, never what they have.
	if r, _ := utf8.DecodeLastRuneInString(d.text[:p]); r == '了' {
		return false
	}
	cues := k.valueCues(value, d.chapter)
	if len(cues) == 0 {
		return false
	}
	left := string(k.foldRunes(leftInSentence(d.text, p, cueWindow)))
	for _, c := range cues {
		if strings.Contains(left, c) {
			return true
		}
	}
	return false
}
