package factcheck

import (
	"maps"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// doc is the text under check with what every checker needs of it.
type doc struct {
	text    string
	chapter int
	// words are the Latin-script words, in order.
	words []word
	// sents are sentence spans, in order, covering the text.
	sents []span
	// quoted are spans of direct speech.
	quoted []span
	// mentions of declared names, in order, not overlapping.
	mentions []mention
	// cjk is set when the text has CJK characters; frunes and roff are
	// then its folded runes and their byte offsets (roff has one extra
	// element, len(text)).
	cjk    bool
	frunes []rune
	roff   []int
	// pairs is a Bloom filter of the adjacent pairs of frunes (see
	// mayHold), made with them.
	pairs *runePairs
	// lowerSeen holds words that occur in lower case in the text.
	lowerSeen map[string]bool
	// count of each word as written.
	count map[string]int
	// facts caches each entity's facts as of the chapter.
	facts map[*entInfo]map[string]string
	// know is the Knowledge that analyzed the text, whose other files
	// may give an entity's facts (dwellers.go).
	know *Knowledge
	// dwelt caches dwellings.
	dwelt map[*entInfo]*entInfo
	// ftext caches string(frunes) (foldedText).
	ftext     string
	ftextDone bool
	// chapterFolded caches the folded manuscript chapter of the doc
	// (earlierServant); chapterFoldedDone is set once it is made.
	chapterFolded     string
	chapterFoldedDone bool
	// nameChars caches nameChar.
	nameChars map[rune]bool
	// owned caches ownedValues.
	owned []ownedValue
	// marks caches visionMarks (nil also when it cannot be made).
	marks     *visionMarks
	marksDone bool
	// refs caches references (refsDone set once they are made).
	refs     []reference
	refsDone bool
	// claimed caches claims (claimedDone set once they are made).
	claimed     []claim
	claimedDone bool
}

// firstFact is the first of e's facts as of d's chapter, by key order,
// for which ok holds: so that which fact a finding cites never depends on
// a map's order.
func (d *doc) firstFact(e *entInfo, ok func(key, val string) bool) (string, string, bool) {
	facts := d.factsOf(e)
	for _, k := range slices.Sorted(maps.Keys(facts)) {
		if ok(k, facts[k]) {
			return k, facts[k], true
		}
	}
	return "", "", false
}

// factsOf returns e's facts as of the chapter, computed once per check.
func (d *doc) factsOf(e *entInfo) map[string]string {
	if f, ok := d.facts[e]; ok {
		return f
	}
	if d.facts == nil {
		d.facts = map[*entInfo]map[string]string{}
	}
	f := e.e.FactsAsOf(d.chapter)
	d.facts[e] = f
	f = d.withDwelling(e, f)
	d.facts[e] = f
	return f
}

type span struct{ start, end int }

type word struct {
	s          string
	start, end int
}

type mention struct {
	start, end int
	seq        *nameSeq
	ents       []*entInfo // the entities it may name, as of the chapter
	// firstWord and lastWord index d.words for Latin mentions (-1 for CJK).
	firstWord, lastWord int
	possessive          bool
}

func (k *Knowledge) analyze(text string, chapter int) *doc {
	d := &doc{text: text, chapter: chapter, count: map[string]int{}, lowerSeen: map[string]bool{}, know: k}
	start := -1
	for i, r := range text {
		if prose.IsLatinWordRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			d.addWord(text[start:i], start, i)
			start = -1
		}
		if !d.cjk && prose.IsCJK(r) {
			d.cjk = true
		}
	}
	if start >= 0 {
		d.addWord(text[start:], start, len(text))
	}
	if d.cjk {
		d.frunes = make([]rune, 0, len(text)/3+1)
		d.roff = make([]int, 0, len(text)/3+2)
		for i, r := range text {
			d.frunes = append(d.frunes, k.foldRune(r))
			d.roff = append(d.roff, i)
		}
		d.roff = append(d.roff, len(text))
		d.pairs = new(runePairs)
		for i := 1; i < len(d.frunes); i++ {
			d.pairs.add(d.frunes[i-1], d.frunes[i])
		}
	}
	d.sents = sentences(text, d.words)
	d.quoted = quotedSpans(text)
	d.mentions = k.findMentions(d)
	return d
}

func (d *doc) addWord(s string, start, end int) {
	d.words = append(d.words, word{s: s, start: start, end: end})
	d.count[s]++
	if r, _ := utf8.DecodeRuneInString(s); unicode.IsLower(r) {
		d.lowerSeen[s] = true
	}
}

// abbreviations end with a period that does not end a sentence.
var abbreviations = map[string]bool{"Mr": true, "Mrs": true, "Ms": true, "Dr": true, "St": true, "Messrs": true, "Esq": true, "Capt": true, "Col": true, "Gen": true, "Rev": true, "Mt": true, "No": true, "vs": true}

func sentences(text string, words []word) []span {
	var out []span
	start := 0
	wi := 0
	emit := func(end int) {
		if end > start {
			out = append(out, span{start, end})
		}
		start = end
	}
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		switch r {
		case '.', '!', '?', '。', '！', '？', '…', '．':
			for wi < len(words) && words[wi].end <= i {
				wi++
			}
			if r == '.' && wi > 0 && words[wi-1].end == i && abbreviations[words[wi-1].s] {
				break
			}
			// Take closing quotes and brackets with the sentence.
			j := i + n
			for j < len(text) {
				c, m := utf8.DecodeRuneInString(text[j:])
				if !strings.ContainsRune("”’\"')」』）】!?！？.。", c) {
					break
				}
				j += m
			}
			if j >= len(text) {
				emit(len(text))
				i = j
				continue
			}
			c, _ := utf8.DecodeRuneInString(text[j:])
			if unicode.IsSpace(c) || prose.IsCJK(c) || strings.ContainsRune("“‘\"「『", c) || r != '.' {
				emit(j)
				i = j
				continue
			}
		case '\n':
			// A blank line (or a line break in CJK text) ends a paragraph.
			if strings.HasPrefix(text[i+1:], "\n") || strings.HasPrefix(text[i+1:], "\r\n") {
				emit(i + 1)
			}
		}
		i += n
	}
	emit(len(text))
	return out
}

// quotedSpans finds direct speech: “…”, "…", 「…」 and 『…』. A quotation
// left open ends at the end of its paragraph (line).
// isCJKQuote reports whether a quotation is in Chinese: its first
// character after the mark is CJK.
func isCJKQuote(q string) bool {
	_, size := utf8.DecodeRuneInString(q)
	r, _ := utf8.DecodeRuneInString(q[size:])
	return prose.IsCJK(r)
}

func quotedSpans(text string) []span {
	var out []span
	open, firstStop := -1, -1
	var closer rune
	for i, r := range text {
		if open >= 0 {
			// Texts mix curly and straight quotes (“…" is common in
			// transcribed Chinese), so either closes either.
			if r == closer || (closer == '”' && r == '"') || (closer == '"' && r == '”') {
				out = append(out, span{open, i + utf8.RuneLen(r)})
				open = -1
				continue
			}
			// Another opening mark of the kind: the first quotation was
			// never closed; it ends with its first sentence.
			if r == '“' && closer == '”' || r == '「' && closer == '」' {
				end := i
				if firstStop > 0 {
					end = firstStop
				}
				out = append(out, span{open, end})
				open, firstStop = i, -1
				continue
			}
			if firstStop < 0 && strings.ContainsRune("。．！？", r) {
				firstStop = i + utf8.RuneLen(r)
			}
			if r == '\n' {
				// A quotation the edition never closes (“快回二奶奶去，
				// 大奶奶來了． then narration to the paragraph's end)
				// ends with its first sentence in Chinese text; the
				// narration after it is not speech.
				end := i
				if firstStop > 0 && closer != '"' && closer != '”' || firstStop > 0 && isCJKQuote(text[open:i]) {
					end = firstStop
				}
				out = append(out, span{open, end})
				open = -1
			}
			continue
		}
		firstStop = -1
		switch r {
		case '“':
			open, closer = i, '”'
		case '"':
			open, closer = i, '"'
		case '「':
			open, closer = i, '」'
		case '『':
			open, closer = i, '』'
		}
	}
	if open >= 0 {
		out = append(out, span{open, len(text)})
	}
	return out
}

// inQuote reports whether offset p lies in direct speech.
func (d *doc) inQuote(p int) bool {
	i := sort.Search(len(d.quoted), func(i int) bool { return d.quoted[i].end > p })
	return i < len(d.quoted) && d.quoted[i].start <= p
}

// sentenceAt returns the index of the sentence holding offset p.
func (d *doc) sentenceAt(p int) int {
	i := sort.Search(len(d.sents), func(i int) bool { return d.sents[i].end > p })
	if i >= len(d.sents) {
		return len(d.sents) - 1
	}
	return i
}

// wordAt returns the index of the first word starting at or after p.
func (d *doc) wordAt(p int) int {
	return sort.Search(len(d.words), func(i int) bool { return d.words[i].start >= p })
}

// between returns the text between words i and j (i < j).
func (d *doc) between(i, j int) string { return d.text[d.words[i].end:d.words[j].start] }

// findMentions finds the declared names and aliases in the text: Latin
// names as whole words with their exact capitals, CJK names on folded
// runes. Where names overlap the longest wins; exclusion phrases cancel
// their entity's names inside them.
func (k *Knowledge) findMentions(d *doc) []mention {
	var found []mention
	var excl []mention
	// Latin.
	for i, w := range d.words {
		for _, s := range k.latin[w.s] {
			if i+len(s.words) > len(d.words) {
				continue
			}
			ok := true
			for j := 1; j < len(s.words); j++ {
				if d.words[i+j].s != s.words[j] || !nameGap(d.between(i+j-1, i+j)) {
					ok = false
					break
				}
			}
			if !ok {
				continue
			}
			// After a title that is not part of the name, the words name
			// someone else of the family: "Miss Bingley" is not
			// "Bingley", "Sir William" is not "William".
			// A military rank before a name that only one entity bears
			// is that person's rank ("Major Denísov"): the mention
			// stands, and the rank is checked against the declared one.
			if i > 0 && !s.exclude && isPersonTitle(d.words[i-1].s) && !isPersonTitle(s.words[0]) && nameGap(d.between(i-1, i)) &&
				(rankClass[capitalize(d.words[i-1].s)] != "military" || len(s.ents) != 1) {
				continue
			}
			last := i + len(s.words) - 1
			m := mention{start: w.start, end: d.words[last].end, seq: s, firstWord: i, lastWord: last}
			if s.exclude {
				excl = append(excl, m)
			} else {
				found = append(found, m)
			}
		}
	}
	// CJK.
	if d.cjk {
		for i, r := range d.frunes {
			for _, s := range k.cjk[r] {
				if i+len(s.runes) > len(d.frunes) {
					continue
				}
				ok := true
				for j := 1; j < len(s.runes); j++ {
					if d.frunes[i+j] != s.runes[j] {
						ok = false
						break
					}
				}
				if !ok {
					continue
				}
				m := mention{start: d.roff[i], end: d.roff[i+len(s.runes)], seq: s, firstWord: -1, lastWord: -1}
				if s.exclude {
					excl = append(excl, m)
				} else {
					found = append(found, m)
				}
			}
		}
		found = append(found, k.splitNames(d)...)
	}
	sort.SliceStable(found, func(a, b int) bool {
		if found[a].start != found[b].start {
			return found[a].start < found[b].start
		}
		return found[a].end > found[b].end
	})
	var out []mention
	lastEnd := -1
	for _, m := range found {
		if m.start < lastEnd {
			continue
		}
		ents := make([]*entInfo, 0, len(m.seq.ents))
		for _, e := range m.seq.ents {
			excluded := false
			for _, x := range excl {
				if x.start <= m.start && m.end <= x.end && containsEnt(x.seq.ents, e) {
					excluded = true
					break
				}
			}
			if excluded {
				continue
			}
			// "Miss Lucas" does not name a woman who is married as of
			// the chapter.
			if m.seq.miss && married(d.factsOf(e)["status"]) {
				continue
			}
			ents = append(ents, e)
		}
		if len(ents) == 0 {
			continue
		}
		if len(ents) > 1 && m.firstWord > 0 && d.between(m.firstWord-1, m.firstWord) == " " {
			ents = byGeneration(ents, strings.ToLower(d.words[m.firstWord-1].s))
		}
		m.ents = ents
		rest := d.text[m.end:]
		m.possessive = strings.HasPrefix(rest, "’s") || strings.HasPrefix(rest, "'s") || strings.HasPrefix(rest, "’ ") || strings.HasPrefix(rest, "的")
		out = append(out, m)
		lastEnd = m.end
	}
	return out
}

// splitNames finds names written apart by 姓 and 名, as the old novels
// introduce people: "姓賈名化" is 賈化, "姓甄，名費" is 甄費. The mention runs
// from the family name to the end of the given name.
func (k *Knowledge) splitNames(d *doc) []mention {
	var out []mention
	fr := d.frunes
	for i := 0; i+3 < len(fr); i++ {
		if fr[i] != '姓' {
			continue
		}
		j := i + 2
		if j < len(fr) && fr[j] == '，' {
			j++
		}
		if j >= len(fr) || fr[j] != '名' {
			continue
		}
		j++
		for _, s := range k.cjk[fr[i+1]] {
			given := s.runes[1:]
			if s.exclude || len(given) == 0 || j+len(given) > len(fr) || !slices.Equal(fr[j:j+len(given)], given) {
				continue
			}
			out = append(out, mention{start: d.roff[i+1], end: d.roff[j+len(given)], seq: s, firstWord: -1, lastWord: -1})
		}
	}
	return out
}

// nameGap reports whether the text between two words of a name may join
// them: spaces, a line break, a period ("Mr. Darcy"), a hyphen.
func nameGap(s string) bool {
	if s == "" || len(s) > 4 {
		return false
	}
	for _, r := range s {
		if r != ' ' && r != '\n' && r != '\r' && r != '.' && r != '-' && r != '\t' {
			return false
		}
	}
	return true
}

func married(status string) bool {
	switch strings.ToLower(status) {
	case "married", "widowed", "widow", "widower", "divorced", "已婚", "成亲", "寡居":
		return true
	}
	return false
}

// mentionsIn returns the indexes of mentions inside [start, end).
func (d *doc) mentionsIn(start, end int) []int {
	i := sort.Search(len(d.mentions), func(i int) bool { return d.mentions[i].start >= start })
	var out []int
	for ; i < len(d.mentions) && d.mentions[i].start < end; i++ {
		out = append(out, i)
	}
	return out
}

// isPersonTitle reports whether w is a title that comes before a name.
func isPersonTitle(w string) bool {
	switch w {
	case "Mr", "Mrs", "Miss", "Ms", "Mister", "Master", "Madam", "Madame", "Sir", "Lady", "Lord", "Dame", "Dr", "Doctor", "Rev", "Reverend", "Uncle", "Aunt", "Cousin":
		return true
	}
	return rankClass[w] != ""
}

// runePairs is a Bloom filter of rune pairs, one bit a pair: a chapter
// of 3,300 characters sets about a twentieth of its bits.
type runePairs [1 << 10]uint64

func pairBit(a, b rune) uint32 {
	return (uint32(a)*0x9E3779B1 ^ uint32(b)*0x85EBCA77) >> 16
}

func (p *runePairs) add(a, b rune) {
	h := pairBit(a, b)
	p[h>>6] |= 1 << (h & 63)
}

func (p *runePairs) has(a, b rune) bool {
	h := pairBit(a, b)
	return p[h>>6]&(1<<(h&63)) != 0
}

// mayHold reports whether the folded text may hold the folded form s:
// false when a pair of adjacent characters of s is nowhere in it, which
// the checks that look for each declared value in every chapter learn
// without a scan. It is true for a text without CJK and a form shorter
// than two characters.
func (d *doc) mayHold(s string) bool {
	if d.pairs == nil {
		return true
	}
	prev, first := rune(0), true
	for _, r := range s {
		if !first && !d.pairs.has(prev, r) {
			return false
		}
		prev, first = r, false
	}
	return true
}

// foldedText is the folded runes of a CJK doc as one string, in which
// several readings look for declared values; made once per doc.
func (d *doc) foldedText() string {
	if !d.ftextDone {
		d.ftextDone = true
		d.ftext = string(d.frunes)
	}
	return d.ftext
}
