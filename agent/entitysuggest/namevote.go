package entitysuggest

import (
	"slices"
	"strings"
)

// Minimums of the name-word vote (partNameVote): the share of the votes
// cast that must go to one full name, the share of the bare name's uses
// that must cast a vote, and the uses a bare name needs to be asked.
const (
	partVoteShare = 0.7
	partVoteCast  = 0.5
	partVoteMin   = 5
)

// partNameVote joins a bare name of one word that was left an entry of
// its own ("Nicholas", "Rostóv") to the one full name it is part of that
// the text around its uses names. A book that calls two people by one
// given name (Nicholas Rostóv, Nicholas Bolkónski) still uses the bare
// name of one of them far more, and writes it where that one's family
// is spoken of: each use votes for the full name whose other part (the
// family name for a given name, the given name for a family name) is
// nearest in the same paragraph, else the one whose other part the
// chapter uses most, if one does. The bare name joins the entry of that
// full name when four votes of five go to it and enough of its uses vote;
// otherwise it stays apart. Latin names only: a Chinese name's parts
// are not words apart.
func partNameVote(ex *extraction, r *resolution, occ [][]int32, merge func(dst, src int32)) {
	// The full forms by the words they hold.
	type part struct {
		fi          int32
		first, last string
	}
	var fulls []part
	byFirst, byLast := map[string][]int{}, map[string][]int{}
	for fi, f := range ex.forms {
		if !f.full || r.of[fi] < 0 {
			continue
		}
		p := part{fi: int32(fi)}
		for _, pr := range f.provides {
			if w, ok := strings.CutPrefix(pr, "first:"); ok {
				p.first = w
			} else if w, ok := strings.CutPrefix(pr, "last:"); ok {
				p.last = w
			}
		}
		if p.first == "" || p.last == "" || p.first == p.last {
			continue
		}
		byFirst[p.first] = append(byFirst[p.first], len(fulls))
		byLast[p.last] = append(byLast[p.last], len(fulls))
		fulls = append(fulls, p)
	}
	if len(fulls) == 0 {
		return
	}
	// The start of each chapter's mentions in the stream.
	chapStart := map[int32]int32{}
	for i := len(ex.stream) - 1; i >= 0; i-- {
		chapStart[ex.stream[i].chap] = int32(i)
	}
	for ei, e := range r.entries {
		ei := int32(ei)
		if e.dead || e.fulls > 0 || e.count < partVoteMin {
			continue
		}
		// The entry's main form is a name of one word, bare or with a
		// title before a given name ("Prince Andrew", not "Mrs. Bennet",
		// whose family has many).
		var f *form
		for _, gi := range e.forms {
			if g := ex.forms[gi]; f == nil || g.count > f.count {
				f = g
			}
		}
		if f.votesOnly || f.loc > f.person || len(f.titles) > 0 && !givenOnly(f, byFirst, byLast) {
			continue
		}
		var uses []int32
		for _, gi := range e.forms {
			uses = append(uses, occ[gi]...)
		}
		// The other part of each full name the bare word is part of, and
		// the entries holding a full name of that other part.
		other := map[string][]int32{} // other part -> entries
		for _, p := range f.provides {
			var idx []int
			given := false
			if w, ok := strings.CutPrefix(p, "first:"); ok {
				idx, given = byFirst[w], true
			} else if w, ok := strings.CutPrefix(p, "last:"); ok {
				idx = byLast[w]
			}
			for _, i := range idx {
				fp := fulls[i]
				c := r.of[fp.fi]
				if c == ei || r.entries[c].dead || !entriesAgree(e, r.entries[c]) || slices.ContainsFunc(e.forms, func(gi int32) bool { return !compatible(ex.forms[gi], r.entries[c]) }) {
					continue
				}
				w := fp.first
				if given {
					w = fp.last
				}
				if !containsInt32(other[w], c) {
					other[w] = append(other[w], c)
				}
			}
		}
		if len(other) == 0 {
			continue
		}
		// The forms that speak of a full name's bearer: the forms of its
		// entry, and the other part as a form of someone with no full
		// name ("Rostóv" alone), not in another's full name ("Andrew
		// Bolkónski" is no vote for Nicholas Bolkónski).
		wordOf := map[int32]string{}
		for w, cs := range other {
			for gi, g := range ex.forms {
				ge := r.of[gi]
				if ge == ei || ge < 0 {
					continue
				}
				if containsInt32(cs, ge) {
					wordOf[int32(gi)] = w
					continue
				}
				if r.entries[ge].fulls > 0 {
					continue
				}
				for _, p := range g.provides {
					if p == "first:"+w || p == "last:"+w {
						wordOf[int32(gi)] = w
					}
				}
			}
		}
		votes := map[string]int{}
		cast := 0
		chapMost := map[int32]string{} // chapter -> its most used other part, "" when none or a tie
		for _, si := range uses {
			m := ex.stream[si]
			w := ""
			best := int32(-1)
			for j := si - 1; j >= 0; j-- {
				o := ex.stream[j]
				if o.chap != m.chap || o.para != m.para {
					break
				}
				if ow, ok := wordOf[o.form]; ok {
					w, best = ow, m.pos-o.pos
					break
				}
			}
			for j := si + 1; j < int32(len(ex.stream)); j++ {
				o := ex.stream[j]
				if o.chap != m.chap || o.para != m.para || best >= 0 && o.pos-m.pos >= best {
					break
				}
				if ow, ok := wordOf[o.form]; ok {
					w = ow
					break
				}
			}
			if w == "" {
				cw, ok := chapMost[m.chap]
				if !ok {
					n := map[string]int{}
					for j := chapStart[m.chap]; j < int32(len(ex.stream)) && ex.stream[j].chap == m.chap; j++ {
						if ow, ok := wordOf[ex.stream[j].form]; ok {
							n[ow]++
						}
					}
					top := 0
					for ow, k := range n {
						switch {
						case k > top:
							cw, top = ow, k
						case k == top:
							cw = ""
						}
					}
					chapMost[m.chap] = cw
				}
				w = cw
			}
			if w != "" {
				votes[w]++
				cast++
			}
		}
		win, nw := "", 0
		for w, k := range votes {
			if k > nw || k == nw && w < win {
				win, nw = w, k
			}
		}
		if len(other[win]) != 1 || float64(nw) < partVoteShare*float64(cast) || float64(cast) < partVoteCast*float64(len(uses)) {
			continue
		}
		merge(other[win][0], ei)
	}
}

func containsInt32(xs []int32, x int32) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// givenOnly reports whether the word of a one-word form is a given name
// of the book's full names and never a family name: a title before a
// family name ("Countess Rostóva", "Mrs. Bennet") is as often the
// mother's as a daughter's, and the text near it names the children.
func givenOnly(f *form, byFirst, byLast map[string][]int) bool {
	for _, p := range f.provides {
		if w, ok := strings.CutPrefix(p, "first:"); ok {
			return len(byFirst[w]) > 0 && len(byLast[w]) == 0
		}
	}
	return false
}
