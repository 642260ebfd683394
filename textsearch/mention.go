package textsearch

import (
	"cmp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A MatchEntry is one thing to find in text: an entity with its names
// (name and aliases) and the phrases that contain a name but must not
// count as a mention of it (a character called "Rose" and the phrase
// "rose garden").
type MatchEntry struct {
	Key     string   // what a mention reports, e.g. the entity's project path
	Names   []string // the name and aliases
	Exclude []string // phrases that must not count as a mention
}

// A Mention is one occurrence of a name in text.
type Mention struct {
	Key        string // the entry's Key
	Name       string // the name or alias as the entry gave it
	Start, End int    // byte span in the original text
}

// A Matcher finds mentions of many names at once with an Aho-Corasick
// automaton over folded text, so that a simplified name finds a
// traditional text and case does not matter. Names that begin or end with
// a letter or digit of a spaced script (Latin, Cyrillic…) match whole
// words only; CJK names match anywhere. A Matcher is immutable and safe
// for concurrent use.
type Matcher struct {
	folder *Folder
	nodes  []acNode
	pats   []acPattern
}

type acPattern struct {
	key     string
	name    string
	exclude bool
	n       int  // folded byte length
	wordL   bool // first rune is a word rune: needs a boundary before
	wordR   bool // last rune is a word rune: needs a boundary after
}

type acNode struct {
	next []acEdge // sorted by byte
	fail int32
	out  []int32 // patterns ending here, including via fail links
}

type acEdge struct {
	b    byte
	node int32
}

func (n *acNode) child(b byte) (int32, bool) {
	i, ok := slices.BinarySearchFunc(n.next, b, func(e acEdge, b byte) int { return cmp.Compare(e.b, b) })
	if ok {
		return n.next[i].node, true
	}
	return 0, false
}

// NewMatcher builds a matcher for entries. Empty names are ignored.
func NewMatcher(f *Folder, entries []MatchEntry) *Matcher {
	if f == nil {
		f = NewFolder()
	}
	m := &Matcher{folder: f, nodes: []acNode{{}}}
	add := func(key, name string, exclude bool) {
		fold := m.fold(name)
		fold = strings.TrimSpace(fold)
		if fold == "" {
			return
		}
		first, _ := utf8.DecodeRuneInString(fold)
		last, _ := utf8.DecodeLastRuneInString(fold)
		p := acPattern{key: key, name: name, exclude: exclude, n: len(fold),
			wordL: isSpacedWordRune(first), wordR: isSpacedWordRune(last)}
		id := int32(len(m.pats))
		m.pats = append(m.pats, p)
		cur := int32(0)
		for i := 0; i < len(fold); i++ {
			nx, ok := m.nodes[cur].child(fold[i])
			if !ok {
				nx = int32(len(m.nodes))
				m.nodes = append(m.nodes, acNode{})
				n := &m.nodes[cur]
				j, _ := slices.BinarySearchFunc(n.next, fold[i], func(e acEdge, b byte) int { return cmp.Compare(e.b, b) })
				n.next = slices.Insert(n.next, j, acEdge{fold[i], nx})
			}
			cur = nx
		}
		m.nodes[cur].out = append(m.nodes[cur].out, id)
	}
	for _, e := range entries {
		for _, n := range e.Names {
			add(e.Key, n, false)
		}
		for _, x := range e.Exclude {
			add(e.Key, x, true)
		}
	}
	// Breadth-first failure links.
	queue := []int32{}
	for _, e := range m.nodes[0].next {
		m.nodes[e.node].fail = 0
		queue = append(queue, e.node)
	}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for _, e := range m.nodes[u].next {
			v := e.node
			f := m.nodes[u].fail
			for {
				if nx, ok := m.nodes[f].child(e.b); ok && nx != v {
					m.nodes[v].fail = nx
					break
				}
				if f == 0 {
					m.nodes[v].fail = 0
					break
				}
				f = m.nodes[f].fail
			}
			m.nodes[v].out = append(m.nodes[v].out, m.nodes[m.nodes[v].fail].out...)
			queue = append(queue, v)
		}
	}
	return m
}

// isSpacedWordRune reports a letter or digit of a script written with
// spaces between words.
func isSpacedWordRune(r rune) bool {
	return (unicode.IsLetter(r) || unicode.IsDigit(r)) && !IsCJK(r)
}

// fold folds s for matching: the Folder's folding, and every white space
// rune as one ASCII space, so "Mr.\nDarcy" matches "Mr. Darcy".
func (m *Matcher) fold(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		b.WriteRune(m.foldRune(r))
	}
	return b.String()
}

func (m *Matcher) foldRune(r rune) rune {
	if unicode.IsSpace(r) {
		return ' '
	}
	return m.folder.FoldRune(r)
}

// Find returns the mentions in text, in order of position. Where names
// overlap, the longest wins (so "Miss Bingley" is one mention, not also
// "Bingley"); a name shared by several entries (an ambiguous alias) yields
// one mention per entry at the same span. A name inside an exclusion
// phrase of the same entry does not count.
func (m *Matcher) Find(text string) []Mention {
	if len(m.pats) == 0 {
		return nil
	}
	type raw struct {
		pat        int32
		start, end int // folded byte offsets
	}
	var b strings.Builder
	b.Grow(len(text))
	off := make([]int, 0, len(text)+1)
	for i, r := range text {
		fr := m.foldRune(r)
		n := utf8.RuneLen(fr)
		if n < 0 {
			fr, n = utf8.RuneError, 3
		}
		for k := 0; k < n; k++ {
			off = append(off, i)
		}
		b.WriteRune(fr)
	}
	off = append(off, len(text))
	s := b.String()

	var found []raw
	cur := int32(0)
	for i := 0; i < len(s); i++ {
		c := s[i]
		for {
			if nx, ok := m.nodes[cur].child(c); ok {
				cur = nx
				break
			}
			if cur == 0 {
				break
			}
			cur = m.nodes[cur].fail
		}
		for _, p := range m.nodes[cur].out {
			pat := &m.pats[p]
			start, end := i+1-pat.n, i+1
			if pat.wordL && start > 0 {
				r, _ := utf8.DecodeLastRuneInString(s[:start])
				if isSpacedWordRune(r) {
					continue
				}
			}
			if pat.wordR && end < len(s) {
				r, _ := utf8.DecodeRuneInString(s[end:])
				if isSpacedWordRune(r) {
					continue
				}
			}
			found = append(found, raw{p, start, end})
		}
	}
	// Exclusions cancel the same key's names that they overlap.
	var excl []raw
	for _, f := range found {
		if m.pats[f.pat].exclude {
			excl = append(excl, f)
		}
	}
	names := found[:0:0]
	for _, f := range found {
		pat := &m.pats[f.pat]
		if pat.exclude {
			continue
		}
		excluded := false
		for _, g := range excl {
			if m.pats[g.pat].key == pat.key && g.start < f.end && f.start < g.end {
				excluded = true
				break
			}
		}
		if !excluded {
			names = append(names, f)
		}
	}
	// Leftmost-longest, keeping every key that matched the chosen span.
	slices.SortStableFunc(names, func(a, b raw) int {
		if c := cmp.Compare(a.start, b.start); c != 0 {
			return c
		}
		if c := cmp.Compare(b.end, a.end); c != 0 {
			return c
		}
		return cmp.Compare(a.pat, b.pat)
	})
	var out []Mention
	lastEnd := -1
	chosenStart, chosenEnd := -1, -1
	seen := map[string]bool{}
	for _, f := range names {
		if f.start == chosenStart && f.end == chosenEnd {
			pat := &m.pats[f.pat]
			if !seen[pat.key] {
				seen[pat.key] = true
				out = append(out, Mention{Key: pat.key, Name: pat.name, Start: off[f.start], End: off[f.end]})
			}
			continue
		}
		if f.start < lastEnd {
			continue
		}
		pat := &m.pats[f.pat]
		chosenStart, chosenEnd, lastEnd = f.start, f.end, f.end
		clear(seen)
		seen[pat.key] = true
		out = append(out, Mention{Key: pat.key, Name: pat.name, Start: off[f.start], End: off[f.end]})
	}
	return out
}
