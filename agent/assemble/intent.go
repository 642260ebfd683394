package assemble

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/textsearch"
)

// Intent is what Role A understands of a node before it assembles: the
// chapter being written and the entities the node is about.
type Intent struct {
	// Chapter is the chapter being written; the manuscript before it is
	// the story so far.
	Chapter int
	// ChapterFrom says where Chapter came from: "node", "persist target",
	// "text", "next chapter".
	ChapterFrom string
	// Named are entities named in the node's text (name or alias), in
	// order of first mention.
	Named []EntityRef
	// Described are entities the text refers to by role or description,
	// found through their entity files.
	Described []EntityRef
	// Upstream are entities named only in the resolved upstream outputs.
	Upstream []EntityRef
}

// An EntityRef is an entity the intent found, with the evidence.
type EntityRef struct {
	Path  string // the entity file
	Name  string // the canonical name
	Found string // the surface form in the text, or the matched terms
	Count int    // mentions, for named entities
	Score float64
}

var (
	chapterEN = regexp.MustCompile(`(?i)\bchapter\s+(\d{1,5})\b`)
	chapterZH = regexp.MustCompile(`第\s*([0-9]{1,5}|[零〇一二两三四五六七八九十百千]{1,8})\s*[章回]`)
)

// chapterOf finds the chapter a node is about.
func chapterOf(n Node, snap Snapshot) (int, string) {
	if n.Chapter > 0 {
		return n.Chapter, "node"
	}
	if n.PersistTarget != "" {
		if c, ok := knowledge.ChapterNumber(n.PersistTarget); ok && c > 0 {
			return c, "persist target"
		}
	}
	if m := chapterEN.FindStringSubmatch(n.Text); m != nil {
		if c, err := strconv.Atoi(m[1]); err == nil && c > 0 {
			return c, "text"
		}
	}
	if m := chapterZH.FindStringSubmatch(n.Text); m != nil {
		if c := chineseNumber(m[1]); c > 0 {
			return c, "text"
		}
	}
	chs := snap.Chapters()
	if len(chs) == 0 {
		return 1, "next chapter"
	}
	return chs[len(chs)-1].Number + 1, "next chapter"
}

// chineseNumber reads "12", "十二", "一百二十", "两百零三".
func chineseNumber(s string) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	digits := map[rune]int{'零': 0, '〇': 0, '一': 1, '二': 2, '两': 2, '三': 3, '四': 4, '五': 5, '六': 6, '七': 7, '八': 8, '九': 9}
	units := map[rune]int{'十': 10, '百': 100, '千': 1000}
	total, cur := 0, 0
	for _, r := range s {
		if d, ok := digits[r]; ok {
			cur = d
			continue
		}
		if u, ok := units[r]; ok {
			if cur == 0 {
				cur = 1
			}
			total += cur * u
			cur = 0
			continue
		}
		return 0
	}
	return total + cur
}

// analyze works out the intent of node n.
func analyze(n Node, snap Snapshot, chapter int) Intent {
	in := Intent{Chapter: chapter}
	byPath := map[string]*Entity{}
	for _, e := range snap.Entities() {
		byPath[e.Path] = e
	}
	m := snap.Matcher()
	count := func(text string) ([]string, map[string]int, map[string]string) {
		var order []string
		counts := map[string]int{}
		forms := map[string]string{}
		if m == nil {
			return nil, counts, forms
		}
		for _, men := range m.Find(text) {
			if counts[men.Key] == 0 {
				order = append(order, men.Key)
				forms[men.Key] = text[men.Start:men.End]
			}
			counts[men.Key]++
		}
		return order, counts, forms
	}
	order, counts, forms := count(n.Text)
	named := map[string]bool{}
	for _, k := range order {
		e := byPath[k]
		if e == nil {
			continue
		}
		named[k] = true
		in.Named = append(in.Named, EntityRef{Path: k, Name: e.Decl.Name, Found: forms[k], Count: counts[k]})
	}
	for _, up := range n.Upstream {
		order, counts, forms := count(up)
		for _, k := range order {
			e := byPath[k]
			if e == nil || named[k] {
				continue
			}
			named[k] = true
			in.Upstream = append(in.Upstream, EntityRef{Path: k, Name: e.Decl.Name, Found: forms[k], Count: counts[k]})
		}
	}
	in.Described = relatedByWord(n.Text, snap, byPath, named)
	for _, r := range in.Described {
		named[r.Path] = true
	}
	in.Described = append(in.Described, describedEntities(n.Text, snap, byPath, named)...)
	return in
}

// symmetric relation kinds hold both ways: if A is B's friend, B is A's.
var symmetric = map[string]bool{"friend": true, "spouse": true, "cousin": true, "enemy": true,
	"acquaintance": true, "love-interest": true, "sibling": true, "rival": true, "ally": true}

// relatedByWord finds entities named through a relation of a named one:
// "Darcy's imperious aunt" is the entity Darcy's file relates to with
// kind "aunt". The kind must follow the name within a few words.
func relatedByWord(text string, snap Snapshot, byPath map[string]*Entity, named map[string]bool) []EntityRef {
	m := snap.Matcher()
	if m == nil {
		return nil
	}
	an := snap.Analyzer()
	byRes := map[string]*Entity{}
	for _, e := range byPath {
		byRes[e.Decl.Resource] = e
	}
	var out []EntityRef
	seen := map[string]bool{}
	for _, men := range m.Find(text) {
		src := byPath[men.Key]
		if src == nil {
			continue
		}
		// The next few words after the name.
		rest := text[men.End:]
		words := an.Terms(firstWords(rest, 4))
		has := func(kind string) bool {
			kt := an.Terms(strings.ReplaceAll(kind, "-", " "))
			if len(kt) == 0 {
				return false
			}
			for _, t := range kt {
				if !slices.Contains(words, t) {
					return false
				}
			}
			return true
		}
		try := func(t *Entity, kind string) {
			if t == nil || named[t.Path] || seen[t.Path] || t.Path == src.Path || !has(kind) {
				return
			}
			seen[t.Path] = true
			out = append(out, EntityRef{Path: t.Path, Name: t.Decl.Name, Found: fmt.Sprintf("%s's %s", men.Name, kind)})
		}
		for _, r := range src.Decl.Relations {
			try(byRes[strings.TrimSuffix(r.To, ".md")], r.Kind)
		}
		for _, t := range snap.Entities() {
			for _, r := range t.Decl.Relations {
				if symmetric[r.Kind] && strings.TrimSuffix(r.To, ".md") == src.Decl.Resource {
					try(t, r.Kind)
				}
			}
		}
	}
	return out
}

// firstWords returns the start of s up to n words (CJK characters count
// as words).
func firstWords(s string, n int) string {
	words, in := 0, false
	for i, r := range s {
		switch {
		case textsearch.IsCJK(r):
			words++
			in = false
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '\'' || r == '’':
			if !in {
				words++
				in = true
			}
		default:
			in = false
		}
		if words > n {
			return s[:i]
		}
	}
	return s
}

// describedEntities finds entities the text refers to without naming
// them ("Elizabeth's closest friend", "the steward's son"): it ranks the
// entity files against the text's terms, without the terms of names the
// text does use, and keeps the entities that clearly stand out.
func describedEntities(text string, snap Snapshot, byPath map[string]*Entity, named map[string]bool) []EntityRef {
	x := snap.EntityIndex()
	if x == nil || x.Len() == 0 {
		return nil
	}
	an := snap.Analyzer()
	// Remove the named mentions from the text, so that "Elizabeth's
	// closest friend" looks for the friend, not for Elizabeth.
	rest := text
	if m := snap.Matcher(); m != nil {
		var b strings.Builder
		last := 0
		for _, men := range m.Find(text) {
			if men.Start < last {
				// An ambiguous alias is one mention per entity at the
				// same span: it is out already.
				continue
			}
			b.WriteString(text[last:men.Start])
			b.WriteString(" ")
			last = men.End
		}
		b.WriteString(text[last:])
		rest = b.String()
	}
	q := an.Terms(rest)
	if len(q) == 0 {
		return nil
	}
	hits := x.Search(q, 0, func(id string) bool { return !named[id] })
	if len(hits) == 0 {
		return nil
	}
	top := hits[0].Score
	// A term found in more than a quarter of the entity files says little
	// about which one is meant.
	rare := func(t string) bool { return x.DocFreq(t)*4 <= x.Len() || x.DocFreq(t) <= 1 }
	var out []EntityRef
	for _, h := range hits {
		if h.Score < 0.6*top || len(out) == maxDescribed {
			break
		}
		e := byPath[h.ID]
		if e == nil {
			continue
		}
		shared := sharedTerms(q, an.Terms(e.Decl.Description+" "+strings.Join(e.Decl.Names(), " ")+" "+factValues(e.Decl)+" "+relationKinds(e.Decl)))
		nRare := 0
		for _, t := range shared {
			if rare(t) {
				nRare++
			}
		}
		if len(shared) < 2 || nRare == 0 {
			continue
		}
		out = append(out, EntityRef{Path: h.ID, Name: e.Decl.Name, Found: "matched " + strings.Join(shared, ", "), Score: h.Score})
	}
	return out
}

const maxDescribed = 3

func factValues(e *knowledge.Entity) string {
	var b strings.Builder
	for k, v := range e.Facts {
		b.WriteString(strings.ReplaceAll(k, "_", " "))
		b.WriteString(" ")
		b.WriteString(v)
		b.WriteString(" ")
	}
	return b.String()
}

func relationKinds(e *knowledge.Entity) string {
	var b strings.Builder
	for _, r := range e.Relations {
		b.WriteString(strings.ReplaceAll(r.Kind, "-", " "))
		b.WriteString(" ")
	}
	return b.String()
}

// sharedTerms lists, in query order, the query terms found in doc.
func sharedTerms(q, doc []string) []string {
	in := map[string]bool{}
	for _, t := range doc {
		in[t] = true
	}
	var out []string
	for _, t := range q {
		if in[t] && !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// nameTerms are the terms that stand for an entity in a search: its
// canonical name and its shortest alias (the form the text uses most).
func nameTerms(an *textsearch.Analyzer, e *knowledge.Entity) []string {
	terms := an.Terms(e.Name)
	short := ""
	for _, a := range e.Aliases {
		if short == "" || len(a) < len(short) {
			short = a
		}
	}
	for _, t := range an.Terms(short) {
		if !slices.Contains(terms, t) {
			terms = append(terms, t)
		}
	}
	return terms
}
