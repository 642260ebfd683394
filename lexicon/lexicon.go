// Package lexicon holds the word lists that tell a name from an ordinary
// word: the English dictionary's ordinary words, the capitalised words
// that name no person or place, the dictionary's short proper names, and
// the verbs of a Chinese dictionary.
// Role C (a near-miss of a name that is an ordinary word is no slip) and
// the entity suggestions (a capitalised ordinary word is no candidate)
// share them from here.
//
// The lists are embedded and decoded once per process, on first use;
// they are read-only after that and safe for concurrent use.
package lexicon

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"slices"
	"sort"
	"strings"
	"sync"
)

//go:embed data/words.txt.gz
var wordsGz []byte

//go:embed data/extra-words.txt
var extraWords string

//go:embed data/short-names.txt.gz
var shortNamesGz []byte

//go:embed data/zh-verbs.txt.gz
var zhVerbsGz []byte

// IsOrdinary reports whether w, as written, is an ordinary English word of
// the shipped lists (data/words.txt.gz, in any case) or one of the
// capitalised words that name no person or place (data/extra-words.txt).
func IsOrdinary(w string) bool {
	l := load()
	return l.extra[w] || l.lower.has(strings.ToLower(w))
}

// IsCapitalisedNonName reports whether w is one of the capitalised words of
// data/extra-words.txt: written with a capital, yet no name of a person or
// place ("Monday", "December", "English", "God").
func IsCapitalisedNonName(w string) bool { return load().extra[w] }

// IsShortName reports whether w is one of the dictionary's short proper
// names ("Janet", "Marty"): one letter from a four-letter name, such a
// word is more often another person than a slip.
func IsShortName(w string) bool { return load().short.has(w) }

// IsChineseVerb reports whether w, in simplified characters, is a verb of
// two to four characters in jieba's dictionary (data/zh-verbs.txt.gz):
// 吩咐, 回头, 起身. A run of Chinese text that is such a word is what
// someone does, however often it stands where a name would.
func IsChineseVerb(w string) bool { return loadZh().has(w) }

// The Chinese list is decoded apart: an English book never asks for it.
var loadZh = sync.OnceValue(func() sortedWords { return newSortedWords(gzLines(zhVerbsGz)) })

type lists struct {
	lower sortedWords     // lower-case dictionary words
	extra map[string]bool // capitalised non-names
	short sortedWords     // short proper names, as written
}

var load = sync.OnceValue(decode)

func decode() *lists {
	l := &lists{lower: newSortedWords(gzLines(wordsGz)), short: newSortedWords(gzLines(shortNamesGz)), extra: map[string]bool{}}
	for _, line := range strings.Split(extraWords, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			l.extra[line] = true
		}
	}
	return l
}

// sortedWords is a sorted list of words kept end to end in one string: the
// lists live as long as the process, and as a map of 64,000 strings the
// dictionary was 3.5 MB of pointers for the garbage collector to scan at
// every cycle; this way it is one string and an array of offsets.
type sortedWords struct {
	text string
	ends []int32 // word i is text[ends[i-1]:ends[i]] (from 0 for the first)
}

func newSortedWords(words []string) sortedWords {
	slices.Sort(words)
	words = slices.Compact(words)
	var b strings.Builder
	ends := make([]int32, 0, len(words))
	for _, w := range words {
		b.WriteString(w)
		ends = append(ends, int32(b.Len()))
	}
	return sortedWords{text: b.String(), ends: ends}
}

func (s sortedWords) word(i int) string {
	start := int32(0)
	if i > 0 {
		start = s.ends[i-1]
	}
	return s.text[start:s.ends[i]]
}

func (s sortedWords) has(w string) bool {
	i := sort.Search(len(s.ends), func(i int) bool { return s.word(i) >= w })
	return i < len(s.ends) && s.word(i) == w
}

// gzLines returns the non-blank lines of a gzip-compressed list.
func gzLines(data []byte) []string {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil
	}
	var out []string
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		if w := strings.TrimSpace(sc.Text()); w != "" {
			out = append(out, w)
		}
	}
	return out
}
