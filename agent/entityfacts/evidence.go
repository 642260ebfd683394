// Package entityfacts proposes facts and progressions for an entity the
// author has accepted, from the passages of the manuscript that mention
// it: the agent model reads them and answers in a fixed JSON schema, each
// proposal with a quotation from the chapter as its evidence. Nothing the
// model says is trusted: a proposal whose quotation is not in that
// chapter is rejected, and proposals are compared with what the entity
// file already declares (new, the same, or in conflict). Answers are
// cached by the hash of the question, so asking again costs no call.
// [AddToFile] and [WriteEntity] put accepted proposals into the entity
// file's front matter, changing nothing else in it.
package entityfacts

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/textsearch"
)

// Chapter is one chapter of the manuscript.
type Chapter struct {
	Number int
	Text   string
}

// ChaptersOf returns the chapters of a loaded project, in number order.
func ChaptersOf(p *knowledge.Project) []Chapter {
	out := make([]Chapter, 0, len(p.Chapters))
	for _, c := range p.Chapters {
		out = append(out, Chapter{Number: c.Number, Text: c.Document.Body})
	}
	slices.SortStableFunc(out, func(a, b Chapter) int { return a.Number - b.Number })
	return out
}

// Book is the manuscript made ready for gathering: its chapters in number
// order, each cut into passages once for all the entities asked about.
type Book struct {
	chapters []Chapter
	passages [][]textsearch.Passage
}

// NewBook cuts chapters into passages ([textsearch.Passages]).
func NewBook(chapters []Chapter) *Book {
	b := &Book{chapters: slices.Clone(chapters)}
	slices.SortStableFunc(b.chapters, func(x, y Chapter) int { return x.Number - y.Number })
	b.passages = make([][]textsearch.Passage, len(b.chapters))
	for i, ch := range b.chapters {
		b.passages[i] = textsearch.Passages(ch.Text, 0)
	}
	return b
}

// Chapters returns the book's chapters in number order.
func (b *Book) Chapters() []Chapter { return b.chapters }

// Passage is a span of a chapter that mentions the entity.
type Passage struct {
	Chapter    int
	Start, End int // byte span in the chapter's text
	Text       string
	Mentions   int
}

// Evidence is what the model is shown of an entity: the passages that
// mention it, within a budget.
type Evidence struct {
	Passages []Passage
	// Chapters counts the chapters that mention the entity at all;
	// Mentions the mentions in them (shown or not); First and Last are
	// the first and the last of those chapters.
	Chapters    int
	Mentions    int
	First, Last int
}

// DefaultBudget is the default size of the passages shown per entity, in
// the weight units of [textsearch.Passages] (about one token each).
const DefaultBudget = 6000

// Gather finds the passages of chapters that mention e (by its name and
// aliases, not counting its exclusions, traditional and simplified
// folded) and keeps as many as budget allows, spread over the chapters:
// the passage with the most mentions of each chapter first, then the
// second of each, and so on, the chapters taken first, last, middle,
// then the middles of the halves (so that a budget too small for every
// chapter still shows the entity's start, end and course). The result
// depends only on the text, so that the question it makes is the same
// each time and its answer can be cached.
func Gather(e *knowledge.Entity, book *Book, folder *textsearch.Folder, budget int) Evidence {
	if budget <= 0 {
		budget = DefaultBudget
	}
	m := textsearch.NewMatcher(folder, []textsearch.MatchEntry{{Key: e.Resource, Names: e.Names(), Exclude: e.Exclude}})
	var ev Evidence
	var per [][]Passage // candidates of each chapter, best first
	for ci, ch := range book.chapters {
		ms := m.Find(ch.Text)
		if len(ms) == 0 {
			continue
		}
		if ev.Chapters == 0 {
			ev.First = ch.Number
		}
		ev.Chapters++
		ev.Mentions += len(ms)
		ev.Last = ch.Number
		var cands []Passage
		for _, p := range book.passages[ci] {
			n := 0
			for _, x := range ms {
				if x.Start >= p.Start && x.End <= p.End {
					n++
				}
			}
			if n > 0 {
				cands = append(cands, Passage{Chapter: ch.Number, Start: p.Start, End: p.End, Text: strings.TrimSpace(ch.Text[p.Start:p.End]), Mentions: n})
			}
		}
		slices.SortStableFunc(cands, func(a, b Passage) int {
			if c := cmp.Compare(b.Mentions, a.Mentions); c != 0 {
				return c
			}
			return a.Start - b.Start
		})
		if len(cands) > 0 {
			per = append(per, cands)
		}
	}
	order := spread(len(per))
	left := budget
	for round := 0; left > 0; round++ {
		took := false
		for _, k := range order {
			cands := per[k]
			if round >= len(cands) {
				continue
			}
			took = true
			w := weight(cands[round].Text)
			if w > left {
				continue
			}
			left -= w
			ev.Passages = append(ev.Passages, cands[round])
		}
		if !took {
			break
		}
	}
	slices.SortFunc(ev.Passages, func(a, b Passage) int {
		if c := a.Chapter - b.Chapter; c != 0 {
			return c
		}
		return a.Start - b.Start
	})
	return ev
}

// spread returns 0..n-1 in the order first, last, middle, then the
// middles of each half, and so on down.
func spread(n int) []int {
	if n == 0 {
		return nil
	}
	out := make([]int, 0, n)
	seen := make([]bool, n)
	emit := func(i int) {
		if !seen[i] {
			seen[i] = true
			out = append(out, i)
		}
	}
	emit(0)
	emit(n - 1)
	queue := [][2]int{{0, n - 1}}
	for len(queue) > 0 {
		lo, hi := queue[0][0], queue[0][1]
		queue = queue[1:]
		if hi-lo < 2 {
			continue
		}
		mid := (lo + hi) / 2
		emit(mid)
		queue = append(queue, [2]int{lo, mid}, [2]int{mid, hi})
	}
	return out
}

// weight approximates a token count as textsearch.Passages does: one per
// CJK character, one per four other characters.
func weight(s string) int {
	w, other := 0, 0
	for _, r := range s {
		if textsearch.IsCJK(r) {
			w++
		} else {
			other++
		}
	}
	return w + other/4
}

// render writes the passages for the model, chapter by chapter.
func (ev Evidence) render(b *strings.Builder) {
	last := -1 << 31
	for _, p := range ev.Passages {
		if p.Chapter != last {
			fmt.Fprintf(b, "\n[Chapter %d]\n", p.Chapter)
			last = p.Chapter
		} else {
			b.WriteString("…\n")
		}
		b.WriteString(p.Text)
		b.WriteString("\n")
	}
}
