package entitysuggest

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/textsearch"
)

// EvalOptions set what Evaluate measures.
type EvalOptions struct {
	// Top is how many suggestions are looked at (default 40).
	Top int
	// Important is how many characters of the entity files count as the
	// book's most important (default 15).
	Important int
	// MinAliasMentions is how often a declared alias must occur in the
	// book to be counted: an alias the text (almost) never uses cannot be
	// merged (default 3).
	MinAliasMentions int
	// Folder folds traditional and simplified Chinese; nil makes one.
	Folder *textsearch.Folder
}

// EvalReport is the measure of the suggestions for one book against its
// entity files.
type EvalReport struct {
	// Characters are the book's most important characters, most
	// mentioned first.
	Characters []EvalCharacter
	// Found counts those with an entry among the top suggestions.
	Found int
	// AliasesCounted counts the countable declared aliases of the found
	// characters, AliasesMerged those in the character's entry.
	AliasesCounted, AliasesMerged int
	// Merges lists the top entries whose names are the declared names of
	// two or more different characters, as "entry: a + b".
	Merges []string
	// Suggestions are the top suggestions measured.
	Suggestions []Suggestion
}

// AliasShare is AliasesMerged / AliasesCounted (1 when none counted).
func (r *EvalReport) AliasShare() float64 {
	if r.AliasesCounted == 0 {
		return 1
	}
	return float64(r.AliasesMerged) / float64(r.AliasesCounted)
}

// EvalCharacter is one important character and how the suggestions
// treat it.
type EvalCharacter struct {
	Name     string
	Mentions int // mentions of its name and aliases in the book
	// Rank is the 1-based rank of its entry among the suggestions; 0
	// when no top entry has one of its names.
	Rank  int
	Entry string
	// Countable are its declared aliases that the book uses at least
	// MinAliasMentions times and no other entity declares; Merged are
	// those in its entry.
	Countable, Merged []string
}

// Evaluate suggests entities for the chapters and measures them against
// the author's entity files: the important characters are the Important
// character entities whose name and aliases are mentioned most in the
// book (leftmost-longest matching, traditional and simplified folded); a
// character is found when one of the Top entries carries one of its
// names that no other entity declares; its aliases merged are its
// countable aliases in the entry that carries most of its names; an
// entry merges two people when it carries names that only two different
// characters declare.
func Evaluate(ctx context.Context, chapters []Chapter, ents []*knowledge.Entity, opt EvalOptions) (*EvalReport, error) {
	if opt.Top == 0 {
		opt.Top = 40
	}
	if opt.Important == 0 {
		opt.Important = 15
	}
	if opt.MinAliasMentions == 0 {
		opt.MinAliasMentions = 3
	}
	if opt.Folder == nil {
		opt.Folder = textsearch.NewFolder()
	}
	fold := func(s string) string { return strings.Join(strings.Fields(opt.Folder.Fold(s)), " ") }
	owners := map[string][]string{} // folded name -> entity resources
	var entries []textsearch.MatchEntry
	byRes := map[string]*knowledge.Entity{}
	for _, e := range ents {
		byRes[e.Resource] = e
		entries = append(entries, textsearch.MatchEntry{Key: e.Resource, Names: e.Names()})
		for _, n := range e.Names() {
			k := fold(n)
			if !slices.Contains(owners[k], e.Resource) {
				owners[k] = append(owners[k], e.Resource)
			}
		}
	}
	m := textsearch.NewMatcher(opt.Folder, entries)
	mentions := map[string]int{}
	byName := map[[2]string]int{}
	for _, ch := range chapters {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("evaluate: %w", err)
		}
		for _, mn := range m.Find(ch.Text) {
			mentions[mn.Key]++
			byName[[2]string{mn.Key, fold(mn.Name)}]++
		}
	}
	var chars []*knowledge.Entity
	for _, e := range ents {
		if e.Kind == KindCharacter {
			chars = append(chars, e)
		}
	}
	slices.SortStableFunc(chars, func(a, b *knowledge.Entity) int {
		if c := cmp.Compare(mentions[b.Resource], mentions[a.Resource]); c != 0 {
			return c
		}
		return strings.Compare(a.Resource, b.Resource)
	})
	if len(chars) > opt.Important {
		chars = chars[:opt.Important]
	}
	sugg, err := Suggest(ctx, chapters, Options{Top: opt.Top, Folder: opt.Folder})
	if err != nil {
		return nil, err
	}
	rep := &EvalReport{Suggestions: sugg}
	// The characters each entry carries a name of, by names only they declare.
	carried := make([]map[string]int, len(sugg))
	names := make([]map[string]bool, len(sugg))
	for i, s := range sugg {
		carried[i] = map[string]int{}
		names[i] = map[string]bool{}
		for _, n := range s.Names() {
			k := fold(n)
			names[i][k] = true
			if o := owners[k]; len(o) == 1 && byRes[o[0]].Kind == KindCharacter {
				carried[i][o[0]]++
			}
		}
		if len(carried[i]) > 1 {
			var who []string
			for r := range carried[i] {
				who = append(who, byRes[r].Name)
			}
			slices.Sort(who)
			rep.Merges = append(rep.Merges, fmt.Sprintf("%s: %s", s.Name, strings.Join(who, " + ")))
		}
	}
	for _, e := range chars {
		ec := EvalCharacter{Name: e.Name, Mentions: mentions[e.Resource]}
		best := -1
		for i := range sugg {
			if carried[i][e.Resource] > 0 && (best < 0 || carried[i][e.Resource] > carried[best][e.Resource]) {
				best = i
			}
		}
		for _, a := range e.Aliases {
			k := fold(a)
			if len(owners[k]) != 1 || byName[[2]string{e.Resource, k}] < opt.MinAliasMentions || k == fold(e.Name) {
				continue
			}
			if slices.Contains(ec.Countable, a) {
				continue
			}
			ec.Countable = append(ec.Countable, a)
		}
		if best >= 0 {
			ec.Rank = best + 1
			ec.Entry = sugg[best].Name
			rep.Found++
			for _, a := range ec.Countable {
				if names[best][fold(a)] {
					ec.Merged = append(ec.Merged, a)
				}
			}
			rep.AliasesCounted += len(ec.Countable)
			rep.AliasesMerged += len(ec.Merged)
		}
		rep.Characters = append(rep.Characters, ec)
	}
	return rep, nil
}

// ReadBook reads a book laid out as one UTF-8 file per chapter (001.txt,
// 002.txt, …; the number is the chapter) in dir.
func ReadBook(dir string) ([]Chapter, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read book: %w", err)
	}
	var out []Chapter
	for _, de := range des {
		name := de.Name()
		if de.IsDir() || !strings.HasSuffix(name, ".txt") {
			continue
		}
		n, ok := knowledge.ChapterNumber(strings.TrimSuffix(name, ".txt"))
		if !ok {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("read book: %w", err)
		}
		out = append(out, Chapter{Number: n, Text: string(data)})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("read book: no chapter files (001.txt, …) in %s", dir)
	}
	slices.SortFunc(out, func(a, b Chapter) int { return a.Number - b.Number })
	return out, nil
}

// Format writes the report as text: one line per important character,
// then the figures.
func (r *EvalReport) Format(b *strings.Builder, top int) {
	for _, c := range r.Characters {
		rank := "-"
		if c.Rank > 0 {
			rank = fmt.Sprint(c.Rank)
		}
		var missed []string
		for _, a := range c.Countable {
			if !slices.Contains(c.Merged, a) {
				missed = append(missed, a)
			}
		}
		fmt.Fprintf(b, "%-28s mentions=%-5d rank=%-3s entry=%q aliases %d/%d %v missed [%s]\n", c.Name, c.Mentions, rank, c.Entry, len(c.Merged), len(c.Countable), c.Countable, strings.Join(missed, "; "))
	}
	fmt.Fprintf(b, "found: %d/%d in the top %d\n", r.Found, len(r.Characters), top)
	fmt.Fprintf(b, "aliases merged: %d/%d (%.0f%%)\n", r.AliasesMerged, r.AliasesCounted, 100*r.AliasShare())
	fmt.Fprintf(b, "entries merging two people: %d\n", len(r.Merges))
	for _, m := range r.Merges {
		fmt.Fprintf(b, "  %s\n", m)
	}
}
