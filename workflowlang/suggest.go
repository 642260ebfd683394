package workflowlang

import (
	"path"
	"slices"
	"strings"
	"unicode/utf8"
)

// maxSuggestions is how many "did you mean" candidates a diagnostic gets.
const maxSuggestions = 3

// closest returns up to maxSuggestions candidates near name by edit
// distance on runes, best first (ties alphabetical). A
// candidate qualifies within a third of the name's length (at least 2
// edits). For resource paths a candidate whose last segment equals the
// name's last segment qualifies too, as a near match.
func (c *checker) closest(name string, cands []string, isPath bool) []string {
	type scored struct {
		s    string
		dist int
		i    int
	}
	n := utf8.RuneCountInString(name)
	limit := max(2, n/3)
	var best []scored
	a := []rune(name)
	var row []int
	var b []rune
	base := ""
	if isPath {
		base = path.Base(name)
	}
	for i, cand := range cands {
		if cand == name || cand == "" {
			continue
		}
		if isPath && path.Base(cand) == base {
			best = append(best, scored{cand, 1, i})
			continue
		}
		m := utf8.RuneCountInString(cand)
		if m-n > limit || n-m > limit {
			continue
		}
		if c.suggestBudget <= 0 {
			break
		}
		c.suggestBudget -= n * m
		b = append(b[:0], []rune(cand)...)
		d := editDistance(a, b, &row, limit)
		if d <= limit {
			best = append(best, scored{cand, d, i})
		}
	}
	slices.SortStableFunc(best, func(x, y scored) int {
		if x.dist != y.dist {
			return x.dist - y.dist
		}
		return strings.Compare(x.s, y.s)
	})
	var out []string
	for _, s := range best {
		if len(out) == maxSuggestions {
			break
		}
		if !slices.Contains(out, s.s) {
			out = append(out, s.s)
		}
	}
	return out
}

// editDistance is the Levenshtein distance of a and b; it returns early
// with a value above limit once every path exceeds it.
func editDistance(a, b []rune, row *[]int, limit int) int {
	if len(*row) < len(b)+1 {
		*row = make([]int, len(b)+1)
	}
	r := (*row)[:len(b)+1]
	for j := range r {
		r[j] = j
	}
	for i := 1; i <= len(a); i++ {
		prev := r[0]
		r[0] = i
		rowMin := r[0]
		for j := 1; j <= len(b); j++ {
			cur := r[j]
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			r[j] = min(r[j]+1, r[j-1]+1, prev+cost)
			prev = cur
			rowMin = min(rowMin, r[j])
		}
		if rowMin > limit {
			return limit + 1
		}
	}
	return r[len(b)]
}
