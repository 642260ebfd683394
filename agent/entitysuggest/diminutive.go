package entitysuggest

import (
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// A pet name is a given name cut short with an ending of endearment:
// Andrúsha of Andrew, Bóry of Borís, Pétya of Peter.
// No list of pairs is needed: the book shows which given names it uses,
// and the ending is one of a small closed set of the languages whose
// names English fiction carries (Russian above all, English -y and -ie).
// A pet name joins the one person who bears the longer name it cuts,
// where the book has one only, and that person is far more often named
// otherwise: a rarer name of someone else (Maria beside Mary) is no pet
// name of theirs, and one whose own person bears the longer name, or
// another family name, stays with that person (Váska Denísov, Vasíli
// Dmítrich Denísov, is no Prince Vasíli).
//
// No maintained list of given-name variants could be shipped here: the
// nickname lists found (English only) are not served by the package
// registries this project reaches, and they hold no Russian pet names.

// petEndings are the endings of pet names, accents stripped, longest first.
var petEndings = func() []string {
	es := strings.Fields("ochka echka ushka yushka enka onka inka usha yusha ysha asha isha sha ya ka ie y")
	slices.SortStableFunc(es, func(a, b string) int { return len(b) - len(a) })
	return es
}()

// Pet names are judged on these figures.
const (
	minPetStem   = 3 // letters of the longer name a pet name keeps
	petRarity    = 5 // the pet name's entry is used this many times less, at least
	minPetBearer = 2 // uses of a form that makes its entry a bearer of a given name
	// minPetUses: a pet name used once or twice may be anyone's (the
	// maid Mavrúshka, sent off in one scene, is not Mávra Kuzmínichna).
	minPetUses = 3
	// petBearerShare is the share of the uses of a given name that one
	// entry must have to be its bearer.
	petBearerShare = 0.9
)

// stripAccents lower-cases a word and takes its accents off (Andrúsha is
// andrusha, Fëdor fedor). A chain of transformers keeps state: one per
// call, as suggestions may run side by side.
func stripAccents(s string) string {
	t := transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)
	out, _, err := transform.String(t, s)
	if err != nil {
		out = s
	}
	return strings.ToLower(out)
}

// petKey returns the first minPetStem letters of a word, and whether it
// has that many.
func petKey(s string) (string, bool) {
	n := 0
	for i := range s {
		if n == minPetStem {
			return s[:i], true
		}
		n++
	}
	return s, n == minPetStem
}

// petNameLinks links the form of a pet name to a form of the one person
// who bears the given name it cuts short.
func petNameLinks(ex *extraction, r *resolution) [][2]int32 {
	// Places bear no given names: Borodinó is no Borís.
	loc := make([]float64, len(r.entries))
	person := make([]float64, len(r.entries))
	for fi, f := range ex.forms {
		if ei := r.of[fi]; ei >= 0 {
			loc[ei] += f.loc
			person[ei] += f.person
		}
	}
	// uses[g][e] counts the uses of given name g by entry e; rep[g][e]
	// is its most used form of g.
	uses := map[string]map[int32]int{}
	rep := map[string]map[int32]int32{}
	// given marks the words the book shows to be given names: the first
	// name of a full name, or after a title that takes one (Prince
	// Andrew). A word alone may be anything (Bórovsk, Andréevich).
	given := map[string]bool{}
	for fi, f := range ex.forms {
		ei := r.of[fi]
		if f.drop || ei < 0 || f.count < minPetBearer {
			continue
		}
		if e := r.entries[ei]; loc[ei] >= 0.15*float64(e.count) && loc[ei] > 2*person[ei] {
			continue
		}
		for _, p := range f.provides {
			g, ok := strings.CutPrefix(p, "first:")
			if !ok {
				continue
			}
			if f.full || len(f.titles) > 0 {
				given[g] = true
			}
			if uses[g] == nil {
				uses[g], rep[g] = map[int32]int{}, map[int32]int32{}
			}
			uses[g][ei] += f.count
			if o, ok := rep[g][ei]; !ok || ex.forms[o].count < f.count {
				rep[g][ei] = int32(fi)
			}
		}
	}
	// bearer[g] is the entry that bears g, where one does nearly always
	// (Prince Andrew beside St. Andrew); -1 where several share it
	// (Prince Vasíli and Vasíli Dmítrich).
	bearer := map[string]int32{}
	for g, by := range uses {
		best, sum := int32(-1), 0
		for ei, n := range by {
			sum += n
			if best < 0 || n > by[best] || n == by[best] && ei < best {
				best = ei
			}
		}
		if float64(by[best]) < petBearerShare*float64(sum) {
			best = -1
		}
		bearer[g] = best
	}
	byPrefix := map[string][]string{}
	plain := map[string]string{}
	for g := range bearer {
		sg := stripAccents(g)
		plain[g] = sg
		for _, clipped := range []bool{false, true} {
			if v, has := petBase(sg, clipped); has {
				if k, ok := petKey(v); ok && !slices.Contains(byPrefix[k], g) {
					byPrefix[k] = append(byPrefix[k], g)
				}
			}
		}
	}
	var out [][2]int32
	for fi, f := range ex.forms {
		ei := r.of[fi]
		if f.drop || ei < 0 || f.full || len(f.titles) > 0 || f.votesOnly || f.count < minPetUses {
			continue
		}
		var w string
		for _, p := range f.provides {
			if g, ok := strings.CutPrefix(p, "first:"); ok {
				w = g
			}
		}
		// Whoever else bears the pet name as a given name ("Márya
		// Dmítrievna" beside "Márya") makes it no one's pet name.
		if w == "" || bearer[w] != ei {
			continue
		}
		sw := plain[w]
		target := int32(-1)
		var to int32
		ok := true
		// The name's own beginning first; a name that has lost its
		// first vowel only where no name begins so (Natásha is
		// Natalie's, not Anatole's).
		for _, clipped := range []bool{false, true} {
			for _, e := range petEndings {
				stem, cut := strings.CutSuffix(sw, e)
				stem = undouble(stem)
				k, long := petKey(stem)
				if !cut || !long {
					continue
				}
				for _, g := range byPrefix[k] {
					base, has := petBase(plain[g], clipped)
					if g == w || !given[g] || !has || len(base) <= len(stem) || !strings.HasPrefix(base, stem) {
						continue
					}
					if uses[g][ei] > 0 {
						// The pet name's own person bears the name (Váska
						// Denísov is Vasíli Dmítrich Denísov): the name is
						// theirs, not another's who bears it more often.
						ok = false
						break
					}
					b := bearer[g]
					if b < 0 || !sameFamily(ex, r.entries[ei], r.entries[b]) {
						// Another bears the name more, or several do: the
						// one of the pet name's own family, if one does
						// nearly always among them (Váska Denísov is
						// Vasíli Dmítrich Denísov, not Prince Vasíli).
						b = familyBearer(ex, r, ei, uses[g])
					}
					if b < 0 || target >= 0 && b != target {
						ok = false
						break
					}
					target = b
					to = rep[g][target]
				}
				break // the longest ending only
			}
			if !ok || target >= 0 {
				break
			}
		}
		if !ok || target < 0 || target == ei {
			continue
		}
		if !sameFamily(ex, r.entries[ei], r.entries[target]) {
			continue
		}
		a, b := r.entries[ei], r.entries[target]
		if petRarity*a.count > b.count && petRarity*b.count > a.count {
			continue
		}
		out = append(out, [2]int32{int32(fi), to})
	}
	return out
}

// familyBearerShare is the share of a given name's uses among the bearers
// of one family that makes one of them its bearer: four in five, less
// than petBearerShare, as the family is already told by the pet name's
// full name and a full name used once or twice is often an unmerged form
// of the same person (Vasíli Denísov beside Vasíli Dmítrich Denísov).
const familyBearerShare = 0.8

// familyBearer returns the entry of by (the bearers of a given name, with
// their uses of it) with a full name of the family of entry ei's full
// name, where one bears it nearly always among those (petBearerShare);
// -1 when ei has no full name, or no one of its family bears the name
// so.
func familyBearer(ex *extraction, r *resolution, ei int32, by map[int32]int) int32 {
	own := r.entries[ei]
	if own.fulls == 0 {
		return -1
	}
	best, sum := int32(-1), 0
	for e, n := range by {
		if e == ei || r.entries[e].fulls == 0 || !sameFamily(ex, own, r.entries[e]) {
			continue
		}
		sum += n
		if best < 0 || n > by[best] || n == by[best] && e < best {
			best = e
		}
	}
	if best < 0 || float64(by[best]) < familyBearerShare*float64(sum) {
		return -1
	}
	return best
}

// petBase returns the beginning a pet name may cut a given name (accents
// stripped) from: the name itself, or clipped, the name without its
// first letter where that is a vowel before a consonant, which pet names
// drop in both languages (Lizzy of Elizabeth, Kátya of Ekaterína, Nástya
// of Anastásia); false where the name has no such letter.
func petBase(g string, clipped bool) (string, bool) {
	if !clipped {
		return g, true
	}
	if len(g) > minPetStem+1 && strings.ContainsRune("aeiou", rune(g[0])) && !strings.ContainsRune("aeiouy", rune(g[1])) {
		return g[1:], true
	}
	return "", false
}

// undouble takes the last letter off a stem that ends in a doubled
// consonant, which an English pet name writes before its ending (Lizzy,
// Danny): the name it cuts has it once.
func undouble(stem string) string {
	n := len(stem)
	if n >= 2 && stem[n-1] == stem[n-2] && stem[n-1] < 0x80 && !strings.ContainsRune("aeiou", rune(stem[n-1])) {
		return stem[:n-1]
	}
	return stem
}

// sameFamily reports whether a pet name's entry a may be of the person
// of entry b by their family names: where a has a full name, b has one
// of the same family (Natásha Rostóva, Natalie Rostóva); Váska Denísov
// is no Prince Vasíli.
func sameFamily(ex *extraction, a, b *entry) bool {
	families := func(e *entry) []string {
		var out []string
		for _, fi := range e.forms {
			f := ex.forms[fi]
			if !f.full {
				continue
			}
			for _, p := range f.provides {
				if w, ok := strings.CutPrefix(p, "last:"); ok {
					out = append(out, w)
				}
			}
		}
		return out
	}
	fa := families(a)
	if len(fa) == 0 {
		return true
	}
	for _, w := range families(b) {
		if slices.Contains(fa, w) {
			return true
		}
	}
	return false
}

// accentLinks links forms written alike but for their accents
// (Napoléon, Napoleon) to the most used of them: a translator's or a
// printer's spelling, one name.
func accentLinks(forms []*form) [][2]int32 {
	by := map[string][]int32{}
	for fi, f := range forms {
		if f.drop || f.votesOnly || f.count == 0 {
			continue
		}
		k := stripAccents(f.text)
		by[k] = append(by[k], int32(fi))
	}
	var out [][2]int32
	for _, fs := range by {
		if len(fs) < 2 {
			continue
		}
		top := fs[0]
		for _, fi := range fs[1:] {
			if forms[fi].count > forms[top].count || forms[fi].count == forms[top].count && fi < top {
				top = fi
			}
		}
		for _, fi := range fs {
			if fi != top {
				out = append(out, [2]int32{fi, top})
			}
		}
	}
	slices.SortFunc(out, func(x, y [2]int32) int {
		if x[0] != y[0] {
			return int(x[0] - y[0])
		}
		return int(x[1] - y[1])
	})
	return out
}
