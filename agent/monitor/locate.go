package monitor

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/textsearch"
)

// Models quote loosely: straight quotes for curly ones, a space more or
// less, simplified characters for traditional ones, a word changed. The
// locator therefore compares keys rather than text: every letter, digit
// and CJK character folded (textsearch's Folder: traditional to
// simplified, case, full width), with white space and punctuation left
// out. An exact key match is tried first, then an approximate one that
// allows a fifth of the quote's key characters to differ.

// maxQuoteKey bounds the part of a quote used for the approximate match,
// in key characters: the dynamic programme costs text length × quote
// length.
const maxQuoteKey = 160

// How a quote was found.
const (
	HowExact   = "exact"   // the quote occurs as written
	HowFolded  = "folded"  // it occurs once case, punctuation, spaces and script are folded
	HowFuzzy   = "fuzzy"   // it occurs with small edits
	HowElided  = "elided"  // its pieces around an ellipsis occur in order
	HowMissing = "missing" // not found: a document-level finding
)

// textKey is the key of a text: the folded letters and digits, each with
// the byte range of the original rune it came from.
type textKey struct {
	runes      []rune
	start, end []int // byte range in the original text, per key rune
}

func isKeyRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func buildKey(f *textsearch.Folder, s string) textKey {
	k := textKey{}
	for i, r := range s {
		if r == utf8.RuneError {
			continue
		}
		if !isKeyRune(r) {
			continue
		}
		k.runes = append(k.runes, f.FoldRune(r))
		k.start = append(k.start, i)
		k.end = append(k.end, i+utf8.RuneLen(r))
	}
	return k
}

// Locator finds quotes in one text. Build it once per checked text.
type Locator struct {
	text   string
	folder *textsearch.Folder
	key    textKey
}

// NewLocator returns a locator over text. A nil folder uses a new one.
func NewLocator(text string, f *textsearch.Folder) *Locator {
	if f == nil {
		f = textsearch.NewFolder()
	}
	return &Locator{text: text, folder: f, key: buildKey(f, text)}
}

// Locate finds quote in the text and returns its byte range and how it
// was found. near, when at least 0, is a byte offset the quote is
// expected close to (the model's own offset): among several equally good
// matches the closest wins; it never makes a bad match good. ok is false
// when the quote matches nothing well enough.
func (l *Locator) Locate(quote string, near int) (start, end int, how string, ok bool) {
	q := strings.TrimSpace(quote)
	if q == "" || !utf8.ValidString(q) {
		return 0, 0, HowMissing, false
	}
	if s, ok := closest(allIndex(l.text, q), near); ok {
		return s, s + len(q), HowExact, true
	}
	qk := buildKey(l.folder, q)
	if len(qk.runes) == 0 {
		return 0, 0, HowMissing, false
	}
	if s, e, ok := l.exactKey(qk.runes, near); ok {
		return s, e, HowFolded, true
	}
	if s, e, ok := l.elided(q, near); ok {
		return s, e, HowElided, true
	}
	if s, e, ok := l.fuzzy(qk.runes, near); ok {
		return s, e, HowFuzzy, true
	}
	return 0, 0, HowMissing, false
}

func allIndex(s, sub string) []int {
	var out []int
	for off := 0; off < len(s) && len(out) < 64; {
		i := strings.Index(s[off:], sub)
		if i < 0 {
			break
		}
		out = append(out, off+i)
		_, n := utf8.DecodeRuneInString(s[off+i:])
		off += i + n
	}
	return out
}

// closest returns the candidate nearest to near (the first when near < 0).
func closest(cands []int, near int) (int, bool) {
	if len(cands) == 0 {
		return 0, false
	}
	best := cands[0]
	if near >= 0 {
		for _, c := range cands[1:] {
			if absInt(c-near) < absInt(best-near) {
				best = c
			}
		}
	}
	return best, true
}

func absInt(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// exactKey finds q's key runes as a run of the text's key runes.
func (l *Locator) exactKey(q []rune, near int) (int, int, bool) {
	k := l.key.runes
	var cands []int
	for i := 0; i+len(q) <= len(k) && len(cands) < 64; i++ {
		if k[i] != q[0] {
			continue
		}
		match := true
		for j := 1; j < len(q); j++ {
			if k[i+j] != q[j] {
				match = false
				break
			}
		}
		if match {
			cands = append(cands, i)
		}
	}
	starts := make([]int, len(cands))
	for i, c := range cands {
		starts[i] = l.key.start[c]
	}
	s, ok := closest(starts, near)
	if !ok {
		return 0, 0, false
	}
	for _, c := range cands {
		if l.key.start[c] == s {
			return s, l.key.end[c+len(q)-1], true
		}
	}
	return 0, 0, false
}

// elided handles "the first words … the last words": both ends must be
// found (exactly or folded), in order, not far apart.
func (l *Locator) elided(q string, near int) (int, int, bool) {
	var parts []string
	for _, p := range strings.FieldsFunc(strings.ReplaceAll(q, "...", "…"), func(r rune) bool { return r == '…' }) {
		if len(buildKey(l.folder, p).runes) > 0 {
			parts = append(parts, p)
		}
	}
	if len(parts) < 2 {
		return 0, 0, false
	}
	first := buildKey(l.folder, parts[0]).runes
	last := buildKey(l.folder, parts[len(parts)-1]).runes
	if len(first) < 2 || len(last) < 2 {
		return 0, 0, false
	}
	s, _, ok := l.exactKey(first, near)
	if !ok {
		return 0, 0, false
	}
	// The last piece must come after the first, within a paragraph's reach.
	sub := &Locator{text: l.text, folder: l.folder}
	from := 0
	for from < len(l.key.start) && l.key.start[from] < s {
		from++
	}
	from += len(first)
	to := min(len(l.key.runes), from+2000)
	if from >= to {
		return 0, 0, false
	}
	sub.key = textKey{runes: l.key.runes[from:to], start: l.key.start[from:to], end: l.key.end[from:to]}
	_, e, ok := sub.exactKey(last, -1)
	if !ok {
		return 0, 0, false
	}
	return s, e, true
}

// fuzzy finds the stretch of key runes with the fewest edits from q
// (Sellers' approximate substring match), if those edits are at most a
// fifth of q. Quotes too short for that are only matched exactly.
func (l *Locator) fuzzy(q []rune, near int) (int, int, bool) {
	if len(q) < 5 || len(l.key.runes) == 0 {
		return 0, 0, false
	}
	if len(q) > maxQuoteKey {
		// Long quotes: match the head, then extend by the quote's length.
		s, _, ok := l.fuzzy(q[:maxQuoteKey], near)
		if !ok {
			return 0, 0, false
		}
		i := 0
		for i < len(l.key.start) && l.key.start[i] < s {
			i++
		}
		j := min(len(l.key.runes), i+len(q)) - 1
		return s, l.key.end[j], true
	}
	limit := len(q) / 5
	k := l.key.runes
	m := len(q)
	// cost[j] and origin[j]: edits to match q[:j] ending at the current
	// text position, and the text index where that match started.
	cost := make([]int, m+1)
	origin := make([]int, m+1)
	prevCost := make([]int, m+1)
	prevOrigin := make([]int, m+1)
	for j := range prevCost {
		prevCost[j] = j
	}
	bestCost, bestStart, bestEnd := limit+1, -1, -1
	bestOrigin, bestLast := -1, -1 // key indexes of the best match
	for i := 1; i <= len(k); i++ {
		cost[0], origin[0] = 0, i
		for j := 1; j <= m; j++ {
			sub := 1
			if k[i-1] == q[j-1] {
				sub = 0
			}
			// On ties a quote rune left out beats a substitution, which
			// beats a text rune left out: the shortest span wins.
			c, o := cost[j-1]+1, origin[j-1] // quote rune extra
			if d := prevCost[j-1] + sub; d < c {
				c, o = d, prevOrigin[j-1]
			}
			if d := prevCost[j] + 1; d < c { // text rune extra
				c, o = d, prevOrigin[j]
			}
			cost[j], origin[j] = c, o
		}
		if c := cost[m]; c <= limit && origin[m] < i {
			s, e := l.key.start[origin[m]], l.key.end[i-1]
			better := c < bestCost
			if c == bestCost && near >= 0 && absInt(s-near) < absInt(bestStart-near) {
				better = true
			}
			// The same match one rune longer at the same cost: the
			// quote's last rune was changed rather than left out.
			if c == bestCost && origin[m] == bestOrigin && i-1 == bestLast+1 {
				better = true
			}
			if better {
				bestCost, bestStart, bestEnd = c, s, e
				bestOrigin, bestLast = origin[m], i-1
			}
		}
		cost, prevCost = prevCost, cost
		origin, prevOrigin = prevOrigin, origin
	}
	if bestStart < 0 {
		return 0, 0, false
	}
	s, e := l.snapWords(bestStart, bestEnd)
	return s, e, true
}

// snapWords widens a fuzzy match that starts or ends inside a Latin word
// to the whole word: an edit at a quote's edge leaves a piece of a word.
func (l *Locator) snapWords(s, e int) (int, int) {
	for s > 0 {
		r, n := utf8.DecodeLastRuneInString(l.text[:s])
		if !isLatinWordRune(r) {
			break
		}
		if r2, _ := utf8.DecodeRuneInString(l.text[s:]); !isLatinWordRune(r2) {
			break
		}
		s -= n
	}
	for e < len(l.text) {
		r, n := utf8.DecodeRuneInString(l.text[e:])
		if !isLatinWordRune(r) {
			break
		}
		if r2, _ := utf8.DecodeLastRuneInString(l.text[:e]); !isLatinWordRune(r2) {
			break
		}
		e += n
	}
	return s, e
}

func isLatinWordRune(r rune) bool {
	return r < 0x2E80 && (unicode.IsLetter(r) || unicode.IsDigit(r))
}
