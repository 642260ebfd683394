// Package entitysuggest finds the characters and places a manuscript is
// about, for the author to accept as entity files: proper-name sequences
// of English text (titles, possessives, sentence-initial capitals told
// apart from names by counts over the whole manuscript), names of Chinese
// text (speakers before speech verbs, forms of address, places after
// verbs of motion, with boundaries judged by n-gram counts over the whole
// manuscript, traditional and simplified alike), the forms of one person
// merged into one entry only on evidence (containment of one form in
// another, agreement of titles, and which person the nearby text is
// about), ranked by mentions and spread over chapters.
//
// It only reads: nothing is written but by [WriteDrafts], on request.
package entitysuggest

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/textsearch"
)

// The kinds of entry.
const (
	KindCharacter = "character"
	KindLocation  = "location"
)

// Chapter is one chapter of the manuscript.
type Chapter struct {
	Number int
	Text   string
}

// Suggestion is one entity the manuscript is about.
type Suggestion struct {
	// Name is the fullest form the text commonly uses.
	Name string `json:"name"`
	// Aliases are the other forms merged into this entry, most used first.
	Aliases []string `json:"aliases"`
	// Kind is KindCharacter or KindLocation.
	Kind string `json:"kind"`
	// Mentions counts the occurrences of the name and aliases.
	Mentions int `json:"mentions"`
	// FirstChapter and LastChapter are the chapter numbers of the first
	// and the last mention.
	FirstChapter int `json:"first_chapter"`
	LastChapter  int `json:"last_chapter"`
	// Related are the names of the entries most often mentioned in the
	// same paragraphs: candidate relations.
	Related []string `json:"related"`
	// Chapters counts the chapters that mention the entry.
	Chapters int `json:"-"`
	// Score is the importance the entries are ranked by.
	Score float64 `json:"-"`
}

// Names returns the name followed by the aliases.
func (s *Suggestion) Names() []string { return append([]string{s.Name}, s.Aliases...) }

// Options tune Suggest.
type Options struct {
	// Top keeps the Top most important entries; 0 keeps all.
	Top int
	// Related is the number of related entries listed per entry (default 5).
	Related int
	// Folder folds traditional and simplified Chinese; nil makes one.
	Folder *textsearch.Folder
}

// Suggest returns the entities the chapters are about, most important
// first. It honours ctx between its stages.
func Suggest(ctx context.Context, chapters []Chapter, opt Options) ([]Suggestion, error) {
	if opt.Related == 0 {
		opt.Related = 5
	}
	if opt.Folder == nil {
		opt.Folder = textsearch.NewFolder()
	}
	chapters = slices.Clone(chapters)
	slices.SortStableFunc(chapters, func(a, b Chapter) int { return a.Number - b.Number })
	latin, cjk := scriptShares(chapters)
	var parts []*extraction
	// Each script's names are looked for wherever the script is used at
	// all: an English name in a Chinese book, a Chinese one in an
	// English book.
	if latin > 0 || cjk == 0 {
		ex, err := extractLatin(ctx, chapters)
		if err != nil {
			return nil, err
		}
		parts = append(parts, ex)
	}
	if cjk > 0 {
		ex, err := extractCJK(ctx, chapters, opt.Folder, cjk < 0.5)
		if err != nil {
			return nil, err
		}
		parts = append(parts, ex)
	}
	var out []Suggestion
	var surnames bookSurnames
	for _, ex := range parts {
		if err := ctx.Err(); err != nil {
			return nil, fmt.Errorf("suggest entities: %w", err)
		}
		if ex.surnames != nil {
			surnames = ex.surnames
		}
		r := resolve(ex)
		out = append(out, ex.suggestions(r, chapters, opt.Related)...)
	}
	if cjk > 0.2 {
		out = givenCharAddress(out, opt.Folder, surnames)
		addressForms(out, chapters, opt.Folder, surnames)
	}
	slices.SortStableFunc(out, func(a, b Suggestion) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	if opt.Top > 0 && len(out) > opt.Top {
		out = out[:opt.Top]
	}
	keep := map[string]bool{}
	for _, s := range out {
		keep[s.Name] = true
	}
	for i := range out {
		out[i].Related = slices.DeleteFunc(out[i].Related, func(n string) bool { return !keep[n] })
		if len(out[i].Related) > opt.Related {
			out[i].Related = out[i].Related[:opt.Related]
		}
	}
	return out, nil
}

// FromProject suggests entities from a loaded project's manuscript.
func FromProject(ctx context.Context, p *knowledge.Project, opt Options) ([]Suggestion, error) {
	chs := make([]Chapter, 0, len(p.Chapters))
	for _, c := range p.Chapters {
		chs = append(chs, Chapter{Number: c.Number, Text: c.Document.Body})
	}
	return Suggest(ctx, chs, opt)
}

// scriptShares returns the shares of Latin letters and of CJK characters
// among the letters of the chapters.
func scriptShares(chs []Chapter) (latin, cjk float64) {
	var l, c int
	for _, ch := range chs {
		for _, r := range ch.Text {
			switch {
			case r < 0x80:
				if 'a' <= r|0x20 && r|0x20 <= 'z' {
					l++
				}
			case textsearch.IsCJK(r):
				c++
			case unicode.IsLetter(r):
				l++
			}
		}
	}
	if l+c == 0 {
		return 0, 0
	}
	return float64(l) / float64(l+c), float64(c) / float64(l+c)
}

// form is one way the text names someone or something ("Mr. Darcy",
// "寶玉").
type form struct {
	text  string // as the text most often writes it
	count int
	// sex is 'm', 'f' or 0, from a title; married is 'w' (Mrs.), 'u'
	// (Miss) or 0.
	sex, married byte
	// spec orders resolution: a more specific form ("Elizabeth Bennet")
	// is placed before the shorter forms that may join it.
	spec int
	// provides are the features the form gives the entry it belongs to
	// ("first:Elizabeth", "last:Bennet", "title:Colonel").
	provides []string
	// needs are the features an entry must have for the form to join it
	// (any one of them).
	needs []string
	// malePref marks a bare surname: where men and women share it, the
	// bare form names the man ("Darcy" is Mr. Darcy, not Miss Darcy).
	malePref bool
	// votesOnly marks a form that may join an entry only on the evidence
	// of the nearby text, however often it occurs ("the countess").
	votesOnly bool
	// address marks a form of address standing for a titled person
	// ("her Ladyship"), said to or of someone in the scene.
	address bool
	// he and she count subject pronouns right after the form.
	he, she int
	// loc and person weigh the evidence of a place and of a person.
	loc, person float64
	// drop marks a form that names no entity (a nationality, a group).
	drop bool
	// titles are the titles the form carries (in their shown form).
	titles []string
	// full marks a full name, of one person only ("Elizabeth Bennet").
	full bool
	// bare is the title a Chinese form is made of alone, without a name
	// or a rank ("國王", "老爺"), folded; "" for any other form.
	bare string
	// key is a Chinese form's folded text.
	key string
	// beforeTitle marks a Chinese name the text writes before a title
	// of address (觀音 of 觀音菩薩), three times at least.
	beforeTitle bool
}

// mention is one occurrence of a form.
type mention struct {
	chap int32 // index into the chapters
	pos  int32 // token (Latin) or character (CJK) index in the chapter
	para int32 // paragraph index in the chapter
	form int32
}

// extraction is what a script's extractor found: the forms and every
// occurrence of them in text order.
type extraction struct {
	forms  []*form
	stream []mention
	// window is how far back (in pos units) the nearby text reaches when
	// a form's referent is in question.
	window int32
	// fuller reports whether a is a fuller form than b for the entry's
	// name.
	fuller func(a, b *form) bool
	// links are pairs of forms the text itself says name one person
	// ("Eliza Bennet" and "Elizabeth Bennet"; "悟空" called "行者"):
	// their entries are merged once the forms are resolved.
	links [][2]int32
	// relink, when set, finds more such pairs once the forms are
	// resolved, on evidence that needs the entries (who bears a name).
	relink func(r *resolution) [][2]int32
	// surnames are the family names a Chinese book declares besides
	// the common ones (我姓豬).
	surnames bookSurnames
}

// entry is a set of forms judged to name one entity.
type entry struct {
	forms []int32
	count int
	m, f  int // weight of male and female evidence
	w, u  int // weight of married and unmarried titles
	feats map[string]bool
	// fulls counts the full names (two words or more) among its forms.
	fulls int
	dead  bool // merged into another entry
}

func (e *entry) sex() byte {
	switch {
	case e.m > 2*e.f && e.m >= 2:
		return 'm'
	case e.f > 2*e.m && e.f >= 2:
		return 'f'
	}
	return 0
}

func (e *entry) married() byte {
	switch {
	case e.w > 0 && e.u == 0:
		return 'w'
	case e.u > 0 && e.w == 0:
		return 'u'
	}
	return 0
}

// resolution maps forms to entries; -1 for forms left out (dropped or
// ambiguous).
type resolution struct {
	of      []int32
	entries []*entry
}

// resolve groups forms into entries, most specific forms first: a form
// joins an entry that has one of the features it needs when only one
// entry qualifies and either the form is that entry's main name or the
// nearby text points at that entry; when several qualify, only when the
// nearby text points at one of them, clearly; otherwise an ambiguous form
// is left out rather than risk merging two people.
func resolve(ex *extraction) *resolution {
	r := &resolution{of: make([]int32, len(ex.forms))}
	for i := range r.of {
		r.of[i] = -1
	}
	byFeat := map[string][]int32{}
	occ := make([][]int32, len(ex.forms))
	for i, m := range ex.stream {
		occ[m.form] = append(occ[m.form], int32(i))
	}
	order := make([]int32, 0, len(ex.forms))
	for i, f := range ex.forms {
		if !f.drop && f.count > 0 {
			order = append(order, int32(i))
		}
	}
	slices.SortStableFunc(order, func(a, b int32) int {
		fa, fb := ex.forms[a], ex.forms[b]
		if c := cmp.Compare(fb.spec, fa.spec); c != 0 {
			return c
		}
		if c := cmp.Compare(fb.count, fa.count); c != 0 {
			return c
		}
		return strings.Compare(fa.text, fb.text)
	})
	join := func(fi int32, ei int32) {
		f, e := ex.forms[fi], r.entries[ei]
		r.of[fi] = ei
		e.forms = append(e.forms, fi)
		e.count += f.count
		switch f.sex {
		case 'm':
			e.m += f.count + 2
		case 'f':
			e.f += f.count + 2
		}
		e.m += f.he
		e.f += f.she
		if f.full {
			e.fulls++
		}
		switch f.married {
		case 'w':
			e.w += f.count
		case 'u':
			e.u += f.count
		}
		for _, p := range f.provides {
			if !e.feats[p] {
				e.feats[p] = true
				byFeat[p] = append(byFeat[p], ei)
			}
		}
	}
	merge := func(dst, src int32) {
		d, sr := r.entries[dst], r.entries[src]
		for _, fi := range sr.forms {
			r.of[fi] = dst
		}
		d.forms = append(d.forms, sr.forms...)
		d.count += sr.count
		d.m, d.f, d.w, d.u, d.fulls = d.m+sr.m, d.f+sr.f, d.w+sr.w, d.u+sr.u, d.fulls+sr.fulls
		for p := range sr.feats {
			if !d.feats[p] {
				d.feats[p] = true
				byFeat[p] = append(byFeat[p], dst)
			}
		}
		*sr = entry{dead: true}
	}
	for _, fi := range order {
		f := ex.forms[fi]
		var cands []int32
		strength := map[int32]int{}
		for _, n := range f.needs {
			st := needStrength(n)
			for _, ei := range byFeat[n] {
				if r.entries[ei].dead || !compatible(f, r.entries[ei]) || ladyOfFamily(ex, f, r.entries[ei]) {
					continue
				}
				if !slices.Contains(cands, ei) {
					cands = append(cands, ei)
				}
				strength[ei] = max(strength[ei], st)
			}
		}
		if f.malePref && len(cands) > 1 {
			// Of unknown sex, the bearer of the word as a given name is
			// kept: "Anatole" is Anatole Kurágin, whose full name no
			// title marks a man's, as much as Prince Anatole.
			word := ""
			for _, n := range f.needs {
				if w, ok := strings.CutPrefix(n, "first:"); ok {
					word = w
				}
			}
			men := slices.DeleteFunc(slices.Clone(cands), func(ei int32) bool {
				e := r.entries[ei]
				given := word != "" && e.sex() == 0 && e.feats["first:"+word] && !e.feats["last:"+word]
				return e.sex() != 'm' && !given
			})
			if len(men) > 0 {
				cands = men
			}
		}
		titled := cands
		if f.titles != nil && len(cands) > 1 {
			// "Prince Vasíli" is the Vasíli called prince elsewhere.
			same := slices.DeleteFunc(slices.Clone(cands), func(ei int32) bool {
				for _, t := range f.titles {
					// A ruler is a ruler under any of a ruler's titles
					// (唐王 of 太宗皇帝).
					if r.entries[ei].feats["title:"+t] || cjkRulers[t] && slices.Contains(f.needs, "ruler") && r.entries[ei].feats["ruler"] {
						return false
					}
				}
				return true
			})
			if len(same) > 0 {
				cands = same
			}
		}
		if len(cands) > 1 {
			cands = familyNameBearers(ex, r, f, cands, strength)
		}
		if len(cands) > 1 && f.beforeTitle {
			// A name found before a title is a person's: the place named
			// after them (觀音院 of 觀音) is not who it names.
			people := slices.DeleteFunc(slices.Clone(cands), func(ei int32) bool { return hasPlace(r.entries[ei]) })
			if len(people) == 1 && bearsTitled(ex, r.entries[people[0]], f) {
				cands = people
			}
		}
		newEntry := func() {
			r.entries = append(r.entries, &entry{feats: map[string]bool{}})
			join(fi, int32(len(r.entries)-1))
		}
		if len(cands) == 0 {
			newEntry()
			continue
		}
		var whole []int32
		for _, c := range cands {
			if strength[c] == linkWhole {
				whole = append(whole, c)
			}
		}
		if len(whole) == 1 {
			// The same full name, with or without a title.
			join(fi, whole[0])
			continue
		}
		votes, cast := vote(ex, r, occ[fi], cands)
		best := cands[0]
		for _, c := range cands {
			if votes[c] > votes[best] || votes[c] == votes[best] && r.entries[c].count > r.entries[best].count {
				best = c
			}
		}
		nb := votes[best]
		fulls := 0
		men := true
		for _, c := range cands {
			men = men && strength[c] == linkWeak // the same word as a family name in all
			if r.entries[c].fulls > 0 {
				fulls++
			}
			men = men && r.entries[c].sex() == 'm'
		}
		switch {
		case f.votesOnly:
			// A rank standing for a person ("the countess") joins the
			// one person of that rank the nearby text names, if the text
			// has one; else it is an entry of its own. A form of address
			// ("her Ladyship") speaks to someone present, so the nearby
			// text tells among several of that rank.
			if len(cands) == 1 && float64(nb) >= 0.5*float64(f.count) && nb >= 2 ||
				len(cands) > 1 && f.address && float64(nb) >= 0.8*float64(cast) && float64(nb) >= 0.5*float64(f.count) && nb >= 3 {
				join(fi, best)
			} else {
				newEntry()
			}
		case len(cands) > 1 && dominantGiven(ex, r, f, cands, strength, votes):
			// "Pierre" beside "Monsieur Pierre", "Uncle Pierre" and
			// "Pierre Bezúkhov": the given name the book uses of one
			// person, far more than the titled forms, which the nearby
			// text ties to it.
			target := best
			for _, c := range cands {
				if r.entries[c].fulls > 0 && (target == best || r.entries[c].count > r.entries[target].count) {
					target = c
				}
			}
			major := majorFullCount(r, cands)
			join(fi, target)
			for _, c := range cands {
				if c != target && votes[c] > 0 && !rareFull(r.entries[c]) && !minorFull(r.entries[c], major) {
					merge(target, c)
				}
			}
		case len(cands) > 1 && titledGiven(ex, r, f, cands, strength, votes):
			// "哪吒" beside "哪吒太子" and "哪吒三太子": the name the
			// book uses of one person, with or without the titles.
			join(fi, best)
			for _, c := range cands {
				if c != best && votes[c] > 0 {
					merge(best, c)
				}
			}
		case len(cands) > 1 && f.malePref && men && fulls <= 1:
			// "Kutúzov" beside "General Kutúzov" and "Prince Kutúzov":
			// one man under several titles, as no two given names
			// tell two men of that name apart.
			join(fi, best)
			for _, c := range cands {
				if c != best {
					merge(best, c)
				}
			}
		case len(cands) > 1 && dominantSurname(ex, r, f, cands, votes) >= 0:
			// "Kutúzov" beside "Michael Ilariónovich Kutúzov", "Prince
			// Kutúzov" and "General Kutúzov": the family name the book
			// uses of one man, far more than all his other forms, and the
			// nearby text names him, not another of his family.
			target := dominantSurname(ex, r, f, cands, votes)
			join(fi, target)
			for _, c := range cands {
				if c != target && r.entries[c].fulls == 0 && votes[c] > 0 {
					merge(target, c)
				}
			}
		case len(cands) == 1 && f.malePref && r.entries[best].sex() == 'm':
			// A bare name shared by one man only: "Bingley" is Mr.
			// Bingley, whatever his sisters are called.
			join(fi, best)
		case len(cands) == 1 && strength[best] >= linkGiven && !f.votesOnly && f.count >= r.entries[best].count:
			// The form is the entry's main name ("Elizabeth"): the rarer
			// fuller form that founded the entry only spells it out. Not
			// so for a family name: "Mr. Bingley" is not "Caroline
			// Bingley".
			join(fi, best)
		case len(cands) == 1 && strength[best] >= linkGiven && bearsTitled(ex, r.entries[best], f):
			// A name written before a title ("觀音", 51 uses alone) and
			// the one entry that holds it with the title ("觀音菩薩", 48
			// uses): the name was found as that person's, so it is
			// theirs however much more the titled form is used.
			join(fi, best)
		case len(cands) == 1 && float64(nb) >= 0.3*float64(f.count) && nb >= 2:
			join(fi, best)
		case len(cands) == 1 && soleFamilyTitle(f) && r.entries[best].fulls > 0 && nb == cast && cast >= minSoleVotes:
			// A family name and a title ("沙僧", the monk 沙) whose
			// one bearer with a full name (沙悟淨) is the only one the
			// nearby text ever names, many times over, though it names
			// him seldom beside the title, which is the name the book
			// mostly calls him by.
			join(fi, best)
		case len(cands) > 1 && float64(nb) >= 0.8*float64(cast) && float64(nb) >= max(3, 0.25*float64(f.count)):
			join(fi, best)
		case eldestMiss(ex, r, f, titled, occ[fi]) >= 0:
			// "Miss Bennet" is Jane Bennet: the daughter of the family
			// never called Miss and her given name. Her sisters, who
			// are, are the candidates that share the title.
			join(fi, eldestMiss(ex, r, f, titled, occ[fi]))
		default:
			// Nothing says which entry the form is of, or that it is the
			// one entry's: someone else of the same name ("Catherine"
			// beside "Lady Catherine", "Mrs. Bennet" beside "Jane
			// Bennet").
			newEntry()
		}
	}
	linked := map[int32]bool{} // the entries the text's links merged
	link := func(links [][2]int32) {
		for _, l := range links {
			a, b := r.of[l[0]], r.of[l[1]]
			if a < 0 || b < 0 || a == b || !entriesAgree(r.entries[a], r.entries[b]) {
				continue
			}
			if r.entries[a].count < r.entries[b].count {
				a, b = b, a
			}
			merge(a, b)
			linked[a] = true
		}
	}
	link(ex.links)
	if ex.relink != nil {
		// On the entries the text's own links made.
		link(ex.relink(r))
	}
	reaskLinked(ex, r, occ, byFeat, linked, merge)
	// A titled family name that founded an entry of its own ("Count
	// Bezúkhov") was placed before the bare names ("Pierre") that now
	// fill the entries around it: the nearby text is asked again, among
	// the bearers of the family name, and the form joins the one it
	// names clearly, as any form does; among those whose full name ends
	// with it, not a saint's day nor a mother of a daughter.
	// A bare family name is asked too ("Kurágin", used of Anatole), but
	// not a word some full name has as its given name (Nicholas of
	// "Nicholas Rostóv"; "Malvíntseva Nicholas" is a misreading), nor a
	// place.
	givenNames := map[string]bool{}
	for _, g := range ex.forms {
		if !g.full {
			continue
		}
		for _, p := range g.provides {
			if w, ok := strings.CutPrefix(p, "first:"); ok && g.count >= 2 {
				givenNames[w] = true
			}
		}
	}
	for fi, f := range ex.forms {
		ei := r.of[fi]
		if ei < 0 || len(f.titles) == 0 && !f.malePref || f.full || f.votesOnly || len(r.entries[ei].forms) != 1 {
			continue
		}
		if len(f.titles) == 0 && (f.loc > f.person || slices.ContainsFunc(f.needs, func(n string) bool {
			w, ok := strings.CutPrefix(n, "last:")
			return ok && givenNames[w]
		})) {
			continue
		}
		// Men (or a bare family name, which names men before women); a
		// woman's title before the family name is as often her
		// mother's (Mrs. Lucas beside Charlotte Lucas), and joins only
		// a married woman's full name under that same title (Countess
		// Bezúkhova, Countess Hélène Bezúkhova): the family name she
		// took, not one she was born to.
		woman := f.sex == 'f' && !f.malePref && f.married != 'u' && len(f.titles) > 0
		if f.sex != 'm' && !f.malePref && !woman || slices.Contains(f.titles, "St.") || slices.Contains(f.titles, "Saint") {
			continue
		}
		var cands []int32
		for _, n := range f.needs {
			word, ok := strings.CutPrefix(n, "last:")
			if !ok {
				continue
			}
			for _, c := range byFeat[n] {
				e := r.entries[c]
				if c == ei || e.dead || !compatible(f, e) || !entriesAgree(e, r.entries[ei]) || ladyOfFamily(ex, f, e) || slices.Contains(cands, c) {
					continue
				}
				// A bearer of the family name: a full name ends with it,
				// with her title for a woman.
				if slices.ContainsFunc(e.forms, func(g int32) bool {
					p := ex.forms[g].provides
					return ex.forms[g].full && slices.Contains(p, "last:"+word) && !slices.Contains(p, "first:"+word) &&
						(!woman || slices.ContainsFunc(f.titles, func(t string) bool { return slices.Contains(p, "title:"+t) }))
				}) {
					cands = append(cands, c)
				}
			}
		}
		if len(cands) == 0 {
			continue
		}
		votes, cast := vote(ex, r, occ[fi], cands)
		best := cands[0]
		for _, c := range cands {
			if votes[c] > votes[best] {
				best = c
			}
		}
		if nb := votes[best]; float64(nb) >= 0.8*float64(cast) && float64(nb) >= max(3, 0.25*float64(f.count)) {
			merge(best, ei)
		}
	}
	partNameVote(ex, r, occ, merge)
	return r
}

// reaskLinked asks the nearby text again for a form that founded an
// entry of its own because it named two entries that the text's own
// links have since made one: 李氏, near 李紈 13 times and near 李宮裁 4
// times, joins them once "李紈，字宮裁" has made them one, on the votes
// that tie any form. Only where the entry it would join is one the links
// merged.
func reaskLinked(ex *extraction, r *resolution, occ [][]int32, byFeat map[string][]int32, linked map[int32]bool, merge func(dst, src int32)) {
	if len(linked) == 0 {
		return
	}
	for fi, f := range ex.forms {
		ei := r.of[fi]
		if ei < 0 || f.votesOnly || f.full || len(r.entries[ei].forms) != 1 {
			continue
		}
		var cands []int32
		for _, n := range f.needs {
			// A name it bears: not a ruler's title (女王, the queen of
			// a realm, is no kin of 猴王).
			if kind, _, _ := strings.Cut(n, ":"); !slices.Contains(nameNeeds, kind) {
				continue
			}
			for _, c := range byFeat[n] {
				e := r.entries[c]
				if c == ei || e.dead || slices.Contains(cands, c) || !compatible(f, e) || !entriesAgree(e, r.entries[ei]) || ladyOfFamily(ex, f, e) {
					continue
				}
				cands = append(cands, c)
			}
		}
		if !slices.ContainsFunc(cands, func(c int32) bool { return linked[c] }) {
			continue
		}
		votes, cast := vote(ex, r, occ[fi], cands)
		best := cands[0]
		for _, c := range cands {
			if votes[c] > votes[best] {
				best = c
			}
		}
		nb := float64(votes[best])
		if !linked[best] {
			continue
		}
		if len(cands) == 1 && nb >= 0.3*float64(f.count) && nb >= 2 ||
			len(cands) > 1 && nb >= 0.8*float64(cast) && nb >= max(3, 0.25*float64(f.count)) {
			merge(best, ei)
		}
	}
}

// nameNeeds are the kinds of need that name a person: family and given
// names, and their characters.
var nameNeeds = []string{"sur", "gchar", "given", "first", "last"}

// minSoleVotes is how many votes of the nearby text, all for one entry,
// tie a titled family name to the one full name of that family.
const minSoleVotes = 20

// soleFamilyTitle reports whether f is a Chinese family name with a
// title that is no kinship word: 薛姨媽 is the aunt of the family, not
// the one of it the scene names.
func soleFamilyTitle(f *form) bool {
	if len(f.titles) != 1 || f.votesOnly || cjkKin[f.titles[0]] {
		return false
	}
	return slices.ContainsFunc(f.needs, func(n string) bool { return strings.HasPrefix(n, "sur:") })
}

// entriesAgree reports whether two entries may be one person: no clash of
// sex or of married and unmarried titles.
func entriesAgree(a, b *entry) bool {
	if sa, sb := a.sex(), b.sex(); sa != 0 && sb != 0 && sa != sb {
		return false
	}
	if ma, mb := a.married(), b.married(); ma != 0 && mb != 0 && ma != mb {
		return false
	}
	return true
}

// dominantSurname returns the entry a bare family name names when it is
// used five times as often as all its candidate entries together and,
// of the votes of the nearby text for the candidates with a full name,
// one has two thirds and three at least; else -1. The candidates of a
// title and the family name only ("Prince Kutúzov") are that man's
// when the text votes for them too.
func dominantSurname(ex *extraction, r *resolution, f *form, cands []int32, votes map[int32]int) int32 {
	if !f.malePref {
		return -1
	}
	var word string
	for _, n := range f.needs {
		if w, ok := strings.CutPrefix(n, "last:"); ok {
			word = w
		}
	}
	sum, cast := 0, 0
	top := int32(-1)
	for _, c := range cands {
		e := r.entries[c]
		sum += e.count
		if e.fulls == 0 {
			continue
		}
		// The word must be the family name of every full name among
		// them: "Nicholas" is the given name of two men.
		if !e.feats["last:"+word] {
			return -1
		}
		for _, g := range e.forms {
			if g := ex.forms[g]; g.full && slices.Contains(g.provides, "first:"+word) {
				return -1
			}
		}
		cast += votes[c]
		if top < 0 || votes[c] > votes[top] {
			top = c
		}
	}
	if top < 0 || f.count < 5*sum || votes[top] < 3 || 3*votes[top] < 2*cast {
		return -1
	}
	return top
}

// eldestMiss returns the entry an unmarried woman's title before a
// family name alone ("Miss Bennet") names, by the custom that gives it to
// the eldest unmarried daughter, while her sisters are called by the
// title and their given names ("Miss Elizabeth", "Miss Lydia Bennet"):
// of the candidates with a full name of that family, the one with no
// other title and no form of the title with a given name; where several
// are left, the one the nearby text votes for, two thirds and three
// votes at least. Else -1.
func eldestMiss(ex *extraction, r *resolution, f *form, cands []int32, occ []int32) int32 {
	if f.married != 'u' || len(f.titles) != 1 || f.full {
		return -1
	}
	var family string
	for _, n := range f.needs {
		if w, ok := strings.CutPrefix(n, "last:"); ok {
			family = w
		}
	}
	if family == "" {
		return -1
	}
	var left []int32
	for _, c := range cands {
		e := r.entries[c]
		if e.fulls == 0 || !e.feats["last:"+family] {
			continue
		}
		other := false
		for ft := range e.feats {
			if t, ok := strings.CutPrefix(ft, "title:"); ok && t != f.titles[0] {
				other = true
			}
		}
		for _, g := range e.forms {
			g := ex.forms[g]
			if g.married != 'u' || len(g.titles) == 0 {
				continue
			}
			for _, p := range g.provides {
				if w, ok := strings.CutPrefix(p, "first:"); ok && w != family {
					other = true
				}
			}
		}
		if !other {
			left = append(left, c)
		}
	}
	switch {
	case len(left) == 1:
		return left[0]
	case len(left) > 1:
		votes, _ := vote(ex, r, occ, left)
		best, sum := left[0], 0
		for _, c := range left {
			sum += votes[c]
			if votes[c] > votes[best] {
				best = c
			}
		}
		if votes[best] >= 3 && 3*votes[best] >= 2*sum {
			return best
		}
	}
	return -1
}

// ladyOfFamily reports whether f is "Lady" before the family name of
// an entry of an unmarried woman: "Lady Lucas" is the wife of Sir
// William Lucas, not "Miss Lucas" his daughter, while "Lady Catherine",
// a given name, is a peer's daughter, married or not.
func ladyOfFamily(ex *extraction, f *form, e *entry) bool {
	if f.full || !slices.Contains(f.titles, "Lady") || e.married() != 'u' {
		return false
	}
	var word string
	for _, n := range f.needs {
		if w, ok := strings.CutPrefix(n, "last:"); ok {
			word = w
		}
	}
	for _, g := range e.forms {
		if g := ex.forms[g]; g.full && slices.Contains(g.provides, "last:"+word) && !slices.Contains(g.provides, "first:"+word) {
			return true
		}
	}
	return false
}

// familyNameBearers narrows the candidates of a bare word that is the
// family name of some ("Colonel Fitzwilliam") and the given name of
// others ("Mr. Fitzwilliam Darcy") to those bearing it as a family name,
// when the book writes it as their family name after a title three
// times as often as it writes it as the others' given name: a man is
// called by his family name alone, and the nearby text, which names his
// cousin as often as him, cannot tell them apart. Otherwise (another
// kind of candidate among them, or the given name as common) the
// candidates are returned as they are.
func familyNameBearers(ex *extraction, r *resolution, f *form, cands []int32, strength map[int32]int) []int32 {
	if len(f.titles) > 0 || f.full || f.votesOnly {
		return cands
	}
	var word string
	for _, n := range f.needs {
		if w, ok := strings.CutPrefix(n, "last:"); ok {
			word = w
		}
	}
	if word == "" {
		return cands
	}
	var family []int32
	famUse, givenUse := 0, 0
	for _, c := range cands {
		e := r.entries[c]
		fam, given := 0, 0
		for _, g := range e.forms {
			g := ex.forms[g]
			asLast := slices.Contains(g.provides, "last:"+word)
			asFirst := slices.Contains(g.provides, "first:"+word)
			switch {
			case asLast && !g.full && len(g.titles) > 0:
				fam += g.count
			case asFirst && !asLast:
				given += g.count
			}
		}
		switch {
		case fam > 0 && strength[c] == linkWeak:
			family = append(family, c)
			famUse += fam
		case strength[c] == linkGiven && !e.feats["last:"+word]:
			givenUse += given
		default:
			// A bearer of the family name with no title, or a place:
			// not the case this tells apart.
			return cands
		}
	}
	if len(family) == 0 || len(family) == len(cands) || famUse < 3 || famUse < 3*givenUse {
		return cands
	}
	return family
}

// rareFull reports whether an entry is a full name the book uses once.
func rareFull(e *entry) bool { return e.fulls > 0 && e.count < 2 }

// majorFullCount is the count of the most used entry with a full name
// among the candidates.
func majorFullCount(r *resolution, cands []int32) int {
	n := 0
	for _, c := range cands {
		if e := r.entries[c]; e.fulls > 0 {
			n = max(n, e.count)
		}
	}
	return n
}

// minorFull reports whether an entry with a full name is used less than
// a tenth as often as the most used full name of the candidates: a
// passer-by who shares the given name, or the given name caught in a
// phrase ("經三藏" of "取經三藏" beside "唐三藏"), not a second person
// the given name could as well be.
func minorFull(e *entry, major int) bool { return e.fulls > 0 && 10*e.count < major }

// dominantGiven reports whether a bare given name (no title) is the main
// name of the one person its candidate entries are: it is their given
// name in all of them, it is used five times as often as all of them
// together, they hold one full name at most and no two ranks ("Prince
// Nicholas" and "Count Nicholas" are two men; not so where all are a
// woman's, who takes her husband's rank), none is a saint's, and
// the nearby text votes for them.
func dominantGiven(ex *extraction, r *resolution, f *form, cands []int32, strength map[int32]int, votes map[int32]int) bool {
	if len(f.titles) > 0 || f.votesOnly || f.full {
		return false
	}
	sum, fulls, nv := 0, 0, 0
	var rank string
	major := majorFullCount(r, cands)
	// A woman takes her husband's rank: Princess Hélène Kurágina is
	// Countess Bezúkhova once married, one woman under two ranks.
	women := f.sex != 'm'
	for _, c := range cands {
		women = women && r.entries[c].sex() == 'f'
	}
	for _, c := range cands {
		e := r.entries[c]
		if strength[c] < linkGiven && !rareFull(e) {
			return false
		}
		sum += e.count
		if rareFull(e) || minorFull(e, major) {
			continue // a passer-by, or a name used once, left apart
		}
		if e.fulls > 0 {
			fulls++
			if votes[c] == 0 {
				return false
			}
		}
		nv += votes[c]
		for ft := range e.feats {
			t, ok := strings.CutPrefix(ft, "title:")
			if !ok {
				continue
			}
			if t == "St." || t == "Saint" {
				return false
			}
			if ti, ok := titles[strings.TrimSuffix(t, ".")]; ok && ti.rank {
				if rank != "" && rank != t && !women {
					return false
				}
				rank = t
			}
		}
	}
	return fulls <= 1 && f.count >= 5*sum && nv >= 2
}

// titledGiven reports whether a bare Chinese name of two characters or
// more (哪吒) is the one person its candidate entries name with a title
// (哪吒太子, 哪吒三太子): every candidate is only that name with a title,
// they agree in sex and rank, the bare name is used at least as often as
// all of them together, it is no place (南海 of 南海菩薩 and 南海龍王),
// and the nearby text votes for each candidate it joins.
func titledGiven(ex *extraction, r *resolution, f *form, cands []int32, strength map[int32]int, votes map[int32]int) bool {
	if len(f.titles) > 0 || f.votesOnly || f.full || f.loc >= f.person || f.key == "" {
		return false
	}
	given := "given:" + f.key
	if !slices.Contains(f.needs, given) {
		return false
	}
	sum, nv := 0, 0
	rank := ""
	for i, c := range cands {
		e := r.entries[c]
		if strength[c] != linkGiven || e.fulls > 0 || i > 0 && !entriesAgree(e, r.entries[cands[0]]) {
			return false
		}
		for _, g := range e.forms {
			g := ex.forms[g]
			if len(g.titles) == 0 || !slices.Contains(g.provides, given) {
				return false
			}
			for _, p := range g.provides {
				if rk, ok := strings.CutPrefix(p, "rank:"); ok {
					if rank != "" && rank != rk {
						return false
					}
					rank = rk
				}
			}
		}
		sum += e.count
		nv += votes[c]
	}
	return f.count >= sum && nv >= 2
}

// bearsTitled reports whether f is a name found before a title, that
// the text shows as a person more than as a place (not 北海 of 北海龍王,
// the dragon king of the northern sea), and e holds that name with a
// title (觀音菩薩 of 觀音).
func bearsTitled(ex *extraction, e *entry, f *form) bool {
	if !f.beforeTitle || f.key == "" || len(f.titles) > 0 || f.votesOnly || f.loc >= f.person {
		return false
	}
	for _, g := range e.forms {
		g := ex.forms[g]
		if rest, ok := strings.CutPrefix(g.key, f.key); ok && rest != "" && len(g.titles) > 0 && cjkTitleList.suffix([]rune(g.key)) == len([]rune(rest)) {
			return true
		}
	}
	return false
}

// titledPerson reports whether e is someone named with a title and
// holds no name of a place.
func titledPerson(e *entry) bool {
	if hasPlace(e) {
		return false
	}
	for ft := range e.feats {
		if strings.HasPrefix(ft, "title:") {
			return true
		}
	}
	return false
}

// hasPlace reports whether e holds the name of a place.
func hasPlace(e *entry) bool {
	for ft := range e.feats {
		if strings.HasPrefix(ft, "place:") {
			return true
		}
	}
	return false
}

// How strongly a feature ties a form to an entry.
const (
	linkWeak  = 1 // a family name, a title: shared by a family, a rank
	linkGiven = 2 // a given name
	linkWhole = 3 // a whole name of two or more words
)

// needStrength tells how strongly the need n ties a form to an entry.
func needStrength(n string) int {
	kind, _, _ := strings.Cut(n, ":")
	switch kind {
	case "full", "first2", "last2", "whole":
		return linkWhole
	case "first", "given", "place", "sub":
		return linkGiven
	}
	return linkWeak
}

// compatible reports whether f may name someone of entry e: no clash of
// sex or of married and unmarried titles.
func compatible(f *form, e *entry) bool {
	if f.sex != 0 {
		if s := e.sex(); s != 0 && s != f.sex {
			return false
		}
	}
	if f.married != 0 {
		if m := e.married(); m != 0 && m != f.married {
			return false
		}
	}
	// A title names a person, never a place: 南海菩薩 is no part of 南海.
	if len(f.titles) > 0 && hasPlace(e) {
		return false
	}
	// Nor is the place a part of the person named by a title after it
	// (南海 of 南海菩薩, the bodhisattva of the southern sea). Chinese
	// only: an English name is found after "to" and "at" as often as a
	// place is.
	if f.key != "" && len(f.titles) == 0 && f.loc > f.person && titledPerson(e) {
		return false
	}
	// A rank among siblings before a Chinese title is one person's: 尤二姐
	// is not 尤三姐.
	for _, p := range f.provides {
		if !strings.HasPrefix(p, "rank:") {
			continue
		}
		for ft := range e.feats {
			if strings.HasPrefix(ft, "rank:") && ft != p {
				return false
			}
		}
	}
	// A title of nobility is kept for life: "Prince Nicholas" is not
	// "Count Nicholas".
	for _, t := range f.titles {
		if !nobility[t] {
			continue
		}
		other := false
		for ft := range e.feats {
			if et, ok := strings.CutPrefix(ft, "title:"); ok && nobility[et] {
				if et == t {
					return true
				}
				other = true
			}
		}
		if other {
			return false
		}
	}
	return true
}

// nobility are the titles of rank that a person keeps for life, as
// shown in forms.
var nobility = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields("Prince Princess Count Countess Duke Duchess Baron Baroness Marquis Marchioness Earl Archduke Archduchess") {
		m[w] = true
	}
	return m
}()

// vote asks, for each occurrence of a form, which candidate entry the
// nearest mention around it (within the window, the same chapter; the
// preceding text first) belongs to.
func vote(ex *extraction, r *resolution, occ []int32, cands []int32) (map[int32]int, int) {
	votes := map[int32]int{}
	cast := 0
	isCand := func(fi int32) (int32, bool) {
		ei := r.of[fi]
		if ei < 0 {
			return 0, false
		}
		return ei, slices.Contains(cands, ei)
	}
	for _, si := range occ {
		m := ex.stream[si]
		found := false
		for j := si - 1; j >= 0; j-- {
			o := ex.stream[j]
			if o.chap != m.chap || o.pos < m.pos-ex.window {
				break
			}
			if ei, ok := isCand(o.form); ok {
				votes[ei]++
				cast++
				found = true
				break
			}
		}
		if found {
			continue
		}
		for j := si + 1; j < int32(len(ex.stream)); j++ {
			o := ex.stream[j]
			if o.chap != m.chap || o.pos > m.pos+ex.window {
				break
			}
			if ei, ok := isCand(o.form); ok {
				votes[ei]++
				cast++
				break
			}
		}
	}
	return votes, cast
}

// suggestions turns the entries into suggestions with mentions, chapter
// span, kind, related entries and score.
func (ex *extraction) suggestions(r *resolution, chapters []Chapter, nRelated int) []Suggestion {
	n := len(r.entries)
	first := make([]int32, n)
	last := make([]int32, n)
	mentions := make([]int, n)
	chapSeen := make([]int32, n)
	nChap := make([]int, n)
	for i := range first {
		first[i], last[i], chapSeen[i] = -1, -1, -1
	}
	type pk struct{ chap, para int32 }
	var cur pk
	var inPara []int32
	pair := map[[2]int32]int{}
	flush := func() {
		for a := 0; a < len(inPara); a++ {
			for b := a + 1; b < len(inPara); b++ {
				x, y := inPara[a], inPara[b]
				if x > y {
					x, y = y, x
				}
				pair[[2]int32{x, y}]++
			}
		}
		inPara = inPara[:0]
	}
	titled := map[int32]map[string]int{}
	for k, m := range ex.stream {
		ei := r.of[m.form]
		if ei < 0 {
			continue
		}
		if k > 0 {
			countTitled(ex, r, ex.stream[k-1], m, titled)
		}
		if k := (pk{m.chap, m.para}); k != cur {
			flush()
			cur = k
		}
		if !slices.Contains(inPara, ei) {
			inPara = append(inPara, ei)
		}
		mentions[ei]++
		if first[ei] < 0 {
			first[ei] = m.chap
		}
		last[ei] = m.chap
		if chapSeen[ei] != m.chap {
			chapSeen[ei] = m.chap
			nChap[ei]++
		}
	}
	flush()
	related := make([][]int32, n)
	relScore := map[[2]int32]float64{}
	for k, c := range pair {
		if c < 2 {
			continue
		}
		s := float64(c) / math.Sqrt(float64(mentions[k[0]])*float64(mentions[k[1]]))
		relScore[k] = s
		related[k[0]] = append(related[k[0]], k[1])
		related[k[1]] = append(related[k[1]], k[0])
	}
	total := max(1, len(chapters))
	bearers := titleBearers(ex, r)
	out := make([]Suggestion, 0, n)
	idx := make([]int, n)
	for ei, e := range r.entries {
		idx[ei] = -1
		if mentions[ei] == 0 {
			continue
		}
		name, aliases := ex.names(e)
		if name == "" {
			continue
		}
		aliases = append(aliases, titledAliases(titled[int32(ei)], name, aliases)...)
		var loc, person float64
		for _, fi := range e.forms {
			loc += ex.forms[fi].loc
			person += ex.forms[fi].person
		}
		kind := KindCharacter
		if loc >= 0.15*float64(mentions[ei]) && loc > 2*person {
			kind = KindLocation
		}
		spread := float64(nChap[ei]) / float64(total)
		score := float64(mentions[ei]) * math.Sqrt(0.1+spread)
		if genericTitle(ex, e, bearers) || kind == KindCharacter && unnamed(ex, e, person, mentions[ei]) {
			score *= genericWeight
		}
		idx[ei] = len(out)
		out = append(out, Suggestion{
			Name:         name,
			Aliases:      aliases,
			Kind:         kind,
			Mentions:     mentions[ei],
			FirstChapter: chapters[first[ei]].Number,
			LastChapter:  chapters[last[ei]].Number,
			Chapters:     nChap[ei],
			Score:        score,
		})
	}
	for ei := range r.entries {
		if idx[ei] < 0 {
			continue
		}
		rel := related[ei]
		key := func(o int32) [2]int32 {
			if o < int32(ei) {
				return [2]int32{o, int32(ei)}
			}
			return [2]int32{int32(ei), o}
		}
		slices.SortStableFunc(rel, func(a, b int32) int {
			if c := cmp.Compare(relScore[key(b)], relScore[key(a)]); c != 0 {
				return c
			}
			return cmp.Compare(a, b)
		})
		for _, o := range rel {
			if idx[o] >= 0 {
				out[idx[ei]].Related = append(out[idx[ei]].Related, out[idx[o]].Name)
			}
			if len(out[idx[ei]].Related) >= 4*nRelated {
				break // Suggest trims to the entries it keeps
			}
		}
	}
	return out
}

// A Chinese name and a title the book writes right after it, both forms
// of one entry (如來 and 佛祖 of the Buddha), make a form of that entry
// where the book writes them so minJoinedTitle times at least (如來佛祖):
// the reading of mentions takes the two apart, as each is a form.
const minJoinedTitle = 3

// countTitled counts in titled[entry] the name of mention a joined to the
// title alone of mention b right after it, where both are of one entry.
func countTitled(ex *extraction, r *resolution, a, b mention, titled map[int32]map[string]int) {
	fa, fb := ex.forms[a.form], ex.forms[b.form]
	if a.chap != b.chap || fb.bare == "" || fa.bare != "" || fa.key == "" || len(fa.titles) > 0 || fa.drop || fb.drop {
		return
	}
	ei := r.of[a.form]
	if ei < 0 || ei != r.of[b.form] || int(a.pos)+utf8.RuneCountInString(fa.text) != int(b.pos) {
		return
	}
	if titled[ei] == nil {
		titled[ei] = map[string]int{}
	}
	titled[ei][fa.text+fb.text]++
}

// titledAliases returns the joined forms of an entry written often
// enough that it does not have yet, most used first.
func titledAliases(joined map[string]int, name string, aliases []string) []string {
	var out []string
	for t, n := range joined {
		if n >= minJoinedTitle && t != name && !slices.Contains(aliases, t) {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b string) int {
		return cmp.Or(cmp.Compare(joined[b], joined[a]), strings.Compare(a, b))
	})
	return out
}

// names picks an entry's name (the fullest form it commonly uses) and its
// aliases (the other forms, most used first).
func (ex *extraction) names(e *entry) (string, []string) {
	forms := slices.Clone(e.forms)
	slices.SortStableFunc(forms, func(a, b int32) int {
		if c := cmp.Compare(ex.forms[b].count, ex.forms[a].count); c != 0 {
			return c
		}
		return strings.Compare(ex.forms[a].text, ex.forms[b].text)
	})
	top := ex.forms[forms[0]].count
	name := forms[0]
	for _, fi := range forms[1:] {
		f := ex.forms[fi]
		if f.count >= 2 && f.count*100 >= top && ex.fuller(f, ex.forms[name]) {
			name = fi
		}
	}
	var aliases []string
	seen := map[string]bool{ex.forms[name].text: true}
	for _, fi := range forms {
		t := ex.forms[fi].text
		if fi == name || seen[t] {
			continue
		}
		seen[t] = true
		aliases = append(aliases, t)
	}
	return ex.forms[name].text, aliases
}

// titleBearers counts, for each title that some form is made of alone
// (國王), the entries that hold a form of a name with that title (烏雞國王,
// 車遲國王): how many people the book gives the title to by name.
func titleBearers(ex *extraction, r *resolution) map[string]int {
	bare := map[string]bool{}
	for _, f := range ex.forms {
		if f.bare != "" {
			bare[f.bare] = true
		}
	}
	out := map[string]int{}
	if len(bare) == 0 {
		return out
	}
	for _, e := range r.entries {
		if e.dead {
			continue
		}
		seen := map[string]bool{}
		for _, fi := range e.forms {
			f := ex.forms[fi]
			if f.bare != "" || len(f.titles) == 0 {
				continue
			}
			for _, t := range f.titles {
				if bare[t] && !seen[t] && strings.HasSuffix(f.key, t) && len(f.key) > len(t) {
					seen[t] = true
					out[t]++
				}
			}
		}
	}
	return out
}

// minPersonShare is the share of a Chinese entry's mentions that must
// show a person (speaking, addressed with a title) for it to rank among
// the names.
const minPersonShare = 0.05

// unnamed reports whether a Chinese entry hardly ever shows a person: a
// word taken for a speaker a few times (雲頭, the cloud one rides, before
// 道 twice in 170 uses) is a common word.
func unnamed(ex *extraction, e *entry, person float64, mentions int) bool {
	for _, fi := range e.forms {
		if ex.forms[fi].key == "" {
			return false
		}
	}
	return person < minPersonShare*float64(mentions)
}

// genericWeight scales the score of an entry that is only a title the
// book gives by name to several people.
const genericWeight = 0.01

// minTitleBearers is how many people the book must name with a title for
// the title alone to be taken for a word of rank, not one person's name.
const minTitleBearers = 2

// genericTitle reports whether every form of e is a title alone that the
// book gives by name to several people (國王 beside 烏雞國王 and 車遲國王;
// 老爺 beside 林老爺 and 賈老爺): a rank, said of whoever holds it in the
// scene, not a person's name.
func genericTitle(ex *extraction, e *entry, bearers map[string]int) bool {
	for _, fi := range e.forms {
		if t := ex.forms[fi].bare; t == "" || bearers[t] < minTitleBearers {
			return false
		}
	}
	return len(e.forms) > 0
}
