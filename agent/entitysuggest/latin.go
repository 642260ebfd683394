package entitysuggest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/lexicon"
	"github.com/flowcabal/flowcabal/textsearch"
)

// title is a word of address that precedes a name.
type title struct {
	norm    string // as shown ("Mr.")
	sex     byte   // 'm', 'f' or 0
	married byte   // 'w' (Mrs.), 'u' (Miss) or 0
	// rank marks titles that stand alone for a person ("the countess",
	// "the colonel"); "the lady", "the master" are ordinary nouns.
	rank bool
	// surname marks titles followed by a family name only ("Mr. Darcy",
	// "Colonel Fitzwilliam"); the others take a given name as well
	// ("Lady Catherine", "Prince Andrew").
	surname bool
}

// titles is the small closed list of English titles, keyed by the word as
// written without its full stop.
var titles = func() map[string]title {
	m := map[string]title{}
	add := func(sex, married byte, surname bool, words ...string) {
		for _, w := range words {
			norm := w
			switch w {
			case "Mr", "Mrs", "Ms", "Dr", "St", "Mme", "Mlle", "Messrs":
				norm = w + "."
			}
			m[w] = title{norm: norm, sex: sex, married: married, surname: surname}
		}
	}
	ranks := map[string]bool{}
	for _, w := range strings.Fields("Captain Colonel General Major Lieutenant Admiral Princess Countess Duchess Baroness Queen Empress Marchioness Archduchess Prince Count Duke Baron King Emperor Tsar Marquis Earl Archduke") {
		ranks[w] = true
	}
	defer func() {
		for w, t := range m {
			t.rank = ranks[w]
			m[w] = t
		}
	}()
	add('m', 0, true, "Mr", "Messrs", "Captain", "Colonel", "General", "Major", "Lieutenant", "Sergeant", "Admiral", "Corporal", "Commander", "Ensign", "Governor")
	add('f', 'w', true, "Mrs")
	add(0, 0, true, "Dr", "Doctor", "Professor", "Reverend")
	add('f', 'u', false, "Miss", "Mademoiselle", "Mlle")
	add('f', 0, false, "Ms", "Lady", "Princess", "Countess", "Duchess", "Baroness", "Queen", "Empress", "Marchioness", "Archduchess", "Madame", "Mme", "Aunt", "Sister", "Dame", "Mistress")
	add('m', 0, false, "Sir", "Lord", "Prince", "Count", "Duke", "Baron", "King", "Emperor", "Tsar", "Marquis", "Earl", "Archduke", "Monsieur", "Uncle", "Father", "Brother", "Master")
	add(0, 0, false, "Saint", "St")
	return m
}()

// addressNouns stand for a titled person after "her", "his", "your":
// "her Ladyship" is the Lady of the scene; the value is the title.
var addressNouns = map[string]string{"Ladyship": "Lady", "Lordship": "Lord", "Highness": "Prince", "Majesty": "Emperor"}

// particles join the words of a name in lower case ("de Bourgh").
var particles = map[string]bool{"de": true, "von": true, "van": true, "der": true, "du": true, "la": true, "le": true, "di": true, "da": true, "del": true, "des": true, "den": true}

// placeHeads end the names of places ("Netherfield Park").
var placeHeads = map[string]bool{"Hall": true, "Park": true, "House": true, "Lodge": true, "Street": true, "Square": true, "Abbey": true, "Castle": true, "Court": true, "Place": true, "Manor": true, "Church": true, "Hill": true, "Hills": true, "Bridge": true, "River": true, "Lake": true, "Inn": true, "Road": true, "Lane": true, "Gardens": true, "Palace": true, "Cathedral": true, "Monastery": true, "Forest": true, "Wood": true, "Gate": true, "Island": true, "Mountains": true, "Mountain": true, "Valley": true, "Bay": true, "Sea": true}

// Prepositions before a place; the second set also precedes people.
var (
	placePreps = map[string]bool{"at": true, "in": true, "near": true, "into": true, "through": true, "towards": true, "toward": true, "within": true, "across": true, "beyond": true}
	movePreps  = map[string]bool{"to": true, "from": true}
	articles   = map[string]bool{"the": true, "a": true, "an": true}
	// saidVerbs attribute speech: "said Elizabeth", "Darcy replied".
	saidVerbs = map[string]bool{"said": true, "cried": true, "replied": true, "asked": true, "answered": true, "exclaimed": true, "continued": true, "added": true, "observed": true, "whispered": true, "returned": true, "rejoined": true, "shouted": true, "muttered": true, "thought": true}
	// roleAdjectives may stand between "the" and a title ("the old prince").
	roleAdjectives = map[string]bool{"old": true, "young": true, "little": true}
)

// tok is one word of English text.
type tok struct {
	s     string // as written, without a possessive 's
	lower string
	cap   bool // starts with an upper-case letter
	upper bool // written all in capitals (a heading, a shout)
	init  bool // starts a sentence, a paragraph or a quotation
	poss  bool // followed by 's
	gap   bool // punctuation stands between the previous word and this one
	para  int32
}

// tokenize splits English text into words, marking sentence starts and
// punctuation between words. A first line that reads as a heading is left
// out, and so are Markdown headings.
func tokenize(text string) []tok {
	// About a word a space: little room for a chapter of Chinese, whose
	// Latin words are few.
	toks := make([]tok, 0, strings.Count(text, " ")+strings.Count(text, "\n")+1)
	var para int32
	init, gap := true, true
	newlines := 0
	lineStart := true
	first := true
	for i := 0; i < len(text); {
		if lineStart {
			lineStart = false
			end := strings.IndexByte(text[i:], '\n')
			if end < 0 {
				end = len(text) - i
			}
			line := strings.TrimSpace(text[i : i+end])
			if strings.HasPrefix(line, "#") || first && isHeading(line) {
				i += end
				first = first && line == ""
				continue
			}
			if line != "" {
				first = false
			}
		}
		r, n := utf8.DecodeRuneInString(text[i:])
		// Chinese characters are no part of a word: "那天Tom來了" holds
		// the word "Tom".
		if unicode.IsLetter(r) && !textsearch.IsCJK(r) {
			j := i + n
			poss := false
			for j < len(text) {
				r2, n2 := utf8.DecodeRuneInString(text[j:])
				if (unicode.IsLetter(r2) || unicode.IsDigit(r2) || unicode.Is(unicode.Mn, r2)) && !textsearch.IsCJK(r2) {
					j += n2
					continue
				}
				if r2 == '\'' || r2 == '’' {
					r3, n3 := utf8.DecodeRuneInString(text[j+n2:])
					if !unicode.IsLetter(r3) {
						break
					}
					if r3 == 's' || r3 == 'S' {
						r4, _ := utf8.DecodeRuneInString(text[j+n2+n3:])
						if !unicode.IsLetter(r4) {
							poss = true
							break
						}
					}
					if j-i == 1 && unicode.IsUpper(r) && unicode.IsUpper(r3) { // O'Brien, D'Arcy
						j += n2
						continue
					}
				}
				break
			}
			w := text[i:j]
			t := tok{s: w, lower: strings.ToLower(w), cap: unicode.IsUpper(r), init: init, gap: gap, para: para, poss: poss}
			t.upper = t.cap && utf8.RuneCountInString(w) > 1 && strings.ToUpper(w) == w
			toks = append(toks, t)
			init, gap = false, false
			newlines = 0
			i = j
			if poss {
				_, n2 := utf8.DecodeRuneInString(text[i:])
				i += n2 + 1
			}
			continue
		}
		switch {
		case r == '\n':
			// A line break ends a name; a blank line, a paragraph.
			newlines++
			gap = true
			if newlines == 2 {
				para++
				init = true
			}
			lineStart = true
		case unicode.IsSpace(r):
		case r == '.':
			if len(toks) > 0 && !gap {
				if t, ok := titles[toks[len(toks)-1].s]; ok && t.norm != toks[len(toks)-1].s {
					break // "Mr." goes on
				}
			}
			init, gap = true, true
		case r == '!' || r == '?' || r == '…' || r == ':' || r == '—' || r == '–' || r == '“' || r == '‘' || r == '(' || r == '[':
			init, gap = true, true
		case r == '"':
			if i == 0 || strings.ContainsRune(" \n\t(—", rune(text[i-1])) {
				init = true // an opening quotation mark
			}
			gap = true
		default:
			if r != '\r' {
				gap = true
				if r != '\'' && r != '’' && r != '-' {
					newlines = 0
				}
			}
		}
		if r != '\n' && !unicode.IsSpace(r) {
			newlines = 0
		}
		i += n
	}
	return toks
}

// isHeading reports whether a first line reads as a chapter heading: short
// and not ending a sentence.
func isHeading(line string) bool {
	if line == "" {
		return true
	}
	if len(line) > 100 {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(line)
	return !strings.ContainsRune(".!?”\"’", last)
}

// wordStat counts how a word is written across the manuscript.
type wordStat struct {
	capMid  int // capitalised inside a sentence
	capInit int // capitalised at a sentence start
	low     int // in lower case
}

// latinNames decides which capitalised words are names.
type latinNames struct {
	stats map[string]*wordStat
	memo  map[string]bool
}

// isName reports whether the word of t is a name: capitalised inside
// sentences, rarely or never in lower case (never, for a word of the
// dictionary), not a title, not one of the capitalised non-names.
func (ln *latinNames) isName(t *tok) bool {
	if !t.cap || t.upper {
		return false
	}
	if v, ok := ln.memo[t.s]; ok {
		return v
	}
	v := ln.decide(t)
	ln.memo[t.s] = v
	return v
}

func (ln *latinNames) decide(t *tok) bool {
	if utf8.RuneCountInString(t.s) < 2 {
		return false
	}
	if _, ok := titles[t.s]; ok {
		return false
	}
	st := ln.stats[t.lower]
	if st == nil || st.capMid < 2 || st.low*10 > st.capMid {
		return false
	}
	if lexicon.IsCapitalisedNonName(t.s) {
		return false
	}
	if st.low > 0 && lexicon.IsOrdinary(t.lower) {
		return false
	}
	return true
}

// extractLatin finds the name forms of English text and their mentions.
func extractLatin(ctx context.Context, chapters []Chapter) (*extraction, error) {
	docs := make([][]tok, len(chapters))
	ln := &latinNames{stats: map[string]*wordStat{}, memo: map[string]bool{}}
	for ci, ch := range chapters {
		if ci%16 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("suggest entities: %w", err)
			}
		}
		docs[ci] = tokenize(ch.Text)
		for i := range docs[ci] {
			t := &docs[ci][i]
			if t.upper {
				continue
			}
			st := ln.stats[t.lower]
			if st == nil {
				st = &wordStat{}
				ln.stats[t.lower] = st
			}
			switch {
			case !t.cap:
				st.low++
			case t.init:
				st.capInit++
			default:
				st.capMid++
			}
		}
	}
	ex := &extraction{window: 120, fuller: latinFuller}
	byKey := map[string]int32{}
	surface := map[int32]map[string]int{}
	type formInfo struct {
		det int
	}
	infos := []formInfo{}
	addMention := func(ci int, pos int32, para int32, key string, mk func() *form, written string) int32 {
		fi, ok := byKey[key]
		if !ok {
			fi = int32(len(ex.forms))
			byKey[key] = fi
			ex.forms = append(ex.forms, mk())
			infos = append(infos, formInfo{})
			surface[fi] = map[string]int{}
		}
		ex.forms[fi].count++
		surface[fi][written]++
		ex.stream = append(ex.stream, mention{chap: int32(ci), pos: pos, para: para, form: fi})
		return fi
	}
	runs := make([][]run, len(docs))
	// Single words standing alone: how often, and how often after a
	// preposition of place.
	alone := map[string]*[2]float64{}
	pairs := map[string]int{}
	surnames := map[string]bool{}
	for ci, toks := range docs {
		runs[ci] = findRuns(toks, ln)
		for _, r := range runs[ci] {
			if r.kind == runName && len(r.words) >= 2 && r.nw >= 2 {
				pairs[r.words[0]+" "+r.words[1]]++
			}
			if r.kind == runName && len(r.tls) > 0 && r.tls[len(r.tls)-1].surname && len(r.words) == 1 {
				surnames[r.words[0]] = true // "General Bonaparte"
			}
			if r.kind != runName || len(r.tls) > 0 || len(r.words) != 1 {
				continue
			}
			a := alone[r.words[0]]
			if a == nil {
				a = &[2]float64{}
				alone[r.words[0]] = a
			}
			a[0]++
			if r.i > 0 && !toks[r.i].gap && placePreps[toks[r.i-1].lower] {
				a[1]++
			}
		}
	}
	for ci, toks := range docs {
		if ci%16 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, fmt.Errorf("suggest entities: %w", err)
			}
		}
		for _, r := range splitRuns(runs[ci], alone, pairs, surnames) {
			t := &toks[r.i]
			i, j := r.i, r.j
			switch r.kind {
			case runTitle, runAddress:
				text := r.words[0]
				fi := addMention(ci, int32(i), t.para, "the|"+text, func() *form {
					return &form{text: text, sex: r.sex, married: r.married, needs: r.needs, votesOnly: true, address: r.kind == runAddress}
				}, text)
				if r.kind == runTitle {
					countPronoun(ex.forms[fi], toks, j)
				}
				continue
			}
			tls, words, nw, place := r.tls, r.words, r.nw, r.place
			tnorm := make([]string, len(tls))
			var sex, married byte
			surnameOnly := false
			for k, ti := range tls {
				tnorm[k] = ti.norm
				if ti.sex != 0 {
					sex = ti.sex
				}
				if ti.married != 0 {
					married = ti.married
				}
				surnameOnly = surnameOnly || ti.surname
			}
			name := strings.Join(words, " ")
			text := name
			if len(tnorm) > 0 {
				text = strings.Join(tnorm, " ") + " " + name
			}
			fi := addMention(ci, int32(i), t.para, text, func() *form {
				return latinForm(tnorm, words, nw, sex, married, surnameOnly, place)
			}, text)
			f := ex.forms[fi]
			// The evidence around the mention: of a place, of a person, of
			// an ordinary noun ("the French").
			if i > 0 && !t.gap {
				p := toks[i-1].lower
				switch {
				case placePreps[p]:
					f.loc++
				case movePreps[p]:
					f.loc += 0.5
				case articles[p] && len(tls) == 0:
					infos[fi].det++
				case saidVerbs[p]:
					f.person++
				}
			}
			if place {
				f.loc += 2
			}
			if len(tls) > 0 {
				f.person++
			}
			if j < len(toks) && !toks[j].gap && saidVerbs[toks[j].lower] {
				f.person++
			}
			countPronoun(f, toks, j)
		}
	}
	for fi, f := range ex.forms {
		best, bc := f.text, 0
		for s, c := range surface[int32(fi)] {
			if c > bc || c == bc && s < best {
				best, bc = s, c
			}
		}
		f.text = best
		f.person += float64(f.he+f.she) / 2
		// "the French", "the Russians": a word that takes an article is
		// a people, a family or a thing, unless it is a place.
		if d := infos[fi].det; float64(d) >= 0.25*float64(f.count) && f.loc < 0.3*float64(f.count) {
			f.drop = true
		}
	}
	givenNameSex(ex.forms)
	ex.links = append(shortGivenLinks(ex.forms), accentLinks(ex.forms)...)
	ex.relink = func(r *resolution) [][2]int32 { return petNameLinks(ex, r) }
	return ex, nil
}

// shortGivenLinks links a full name to the same family name after a
// longer given name its given name begins ("Eliza Bennet", "Elizabeth
// Bennet"; "Chris Lane", "Christopher Lane"): a short form of that given
// name. Only where one longer given name under that family name fits, so
// that two sisters ("Ann" and "Anne", "Annabel") stay apart.
func shortGivenLinks(forms []*form) [][2]int32 {
	type full struct {
		given string
		fi    int32
	}
	bySur := map[string][]full{}
	for fi, f := range forms {
		if f.drop || !f.full || f.count < 2 {
			continue
		}
		var given, last string
		for _, p := range f.provides {
			if w, ok := strings.CutPrefix(p, "first:"); ok {
				given = w
			}
			if w, ok := strings.CutPrefix(p, "last:"); ok {
				last = w
			}
		}
		if given == "" || last == "" || given == last {
			continue
		}
		bySur[last] = append(bySur[last], full{given, int32(fi)})
	}
	var out [][2]int32
	for _, fs := range bySur {
		for _, a := range fs {
			if utf8.RuneCountInString(a.given) < 4 {
				continue
			}
			var match []int32
			var givens []string
			for _, b := range fs {
				if len(b.given) >= len(a.given)+2 && strings.HasPrefix(b.given, a.given) && !slices.Contains(givens, b.given) {
					match = append(match, b.fi)
					givens = append(givens, b.given)
				}
			}
			if len(givens) == 1 {
				out = append(out, [2]int32{a.fi, match[0]})
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

// givenNameSex gives a full name without a title ("Nicholas Rostóv") the
// sex its given name has across the book: the pronouns after the given
// name alone and the titles before it ("Prince Nicholas", "Countess
// Natásha"). A full name is rarer than its given name, and without a sex
// it could not be told from a sister's where a bare family name is
// resolved.
func givenNameSex(forms []*form) {
	type ev struct{ m, f int }
	by := map[string]*ev{}
	first := func(f *form) string {
		for _, p := range f.provides {
			if w, ok := strings.CutPrefix(p, "first:"); ok {
				return w
			}
		}
		return ""
	}
	for _, f := range forms {
		if f.drop || f.full {
			continue
		}
		w := first(f)
		if w == "" {
			continue
		}
		e := by[w]
		if e == nil {
			e = &ev{}
			by[w] = e
		}
		e.m += f.he
		e.f += f.she
		// A title tells the sex for sure, a pronoun after the name only
		// mostly (it may be someone else's in the sentence).
		switch f.sex {
		case 'm':
			e.m += 3 * f.count
		case 'f':
			e.f += 3 * f.count
		}
	}
	for _, f := range forms {
		if !f.full || f.sex != 0 {
			continue
		}
		e := by[first(f)]
		switch {
		case e == nil:
		case e.m >= 5 && e.m > 3*e.f:
			f.sex = 'm'
		case e.f >= 5 && e.f > 3*e.m:
			f.sex = 'f'
		}
	}
}

// The kinds of run.
const (
	runName    = iota // a name with its titles ("Mr. Darcy")
	runTitle          // a rank standing for a person ("the countess")
	runAddress        // a form of address ("her Ladyship")
)

// run is a span of words naming someone.
type run struct {
	kind    int
	i, j    int // tokens [i, j)
	tls     []title
	words   []string // name words (with particles); the text for the other kinds
	nw      int      // name words that are not particles or place words
	place   bool     // ends with a place word ("Park")
	sex     byte
	married byte
	needs   []string
}

// findRuns finds the names of a chapter's words: titles, then name words
// (with particles between them), with no punctuation inside.
func findRuns(toks []tok, ln *latinNames) []run {
	var out []run
	for i := 0; i < len(toks); {
		t := &toks[i]
		// "the countess", "the old prince": a rank standing for the
		// one person the scene is about.
		if t.lower == "the" && i+1 < len(toks) {
			j := i + 1
			if roleAdjectives[toks[j].lower] && j+1 < len(toks) && !toks[j+1].gap {
				j++
			}
			tt := &toks[j]
			if ti, ok := titles[capitalize(tt.lower)]; ok && ti.rank && !tt.cap && !tt.gap && !tt.poss && ti.norm == capitalize(tt.lower) &&
				(j+1 >= len(toks) || toks[j+1].gap || !ln.isName(&toks[j+1])) {
				words := make([]string, 0, 3)
				for k := i; k <= j; k++ {
					words = append(words, toks[k].lower)
				}
				out = append(out, run{kind: runTitle, i: i, j: j + 1, words: []string{strings.Join(words, " ")}, sex: ti.sex, married: ti.married, needs: []string{"title:" + ti.norm}})
				i = j + 1
				continue
			}
		}
		if tl, ok := addressNouns[t.s]; ok && i > 0 && !t.gap {
			if p := toks[i-1].lower; p == "her" || p == "his" || p == "your" {
				ti := titles[tl]
				need := []string{"title:" + tl}
				switch tl {
				case "Prince":
					need = append(need, "title:Princess")
				case "Emperor":
					need = append(need, "title:Empress", "title:King", "title:Queen")
				}
				sex := ti.sex
				switch p {
				case "her":
					sex = 'f'
				case "his":
					sex = 'm'
				}
				out = append(out, run{kind: runAddress, i: i, j: i + 1, words: []string{p + " " + t.s}, sex: sex, needs: need})
				i++
				continue
			}
		}
		_, isTitle := titles[t.s]
		if !(isTitle && t.cap) && !ln.isName(t) {
			i++
			continue
		}
		r := run{kind: runName, i: i}
		j := i
		for j < len(toks) {
			u := &toks[j]
			if j > i && u.gap {
				break
			}
			if ti, ok := titles[u.s]; ok && u.cap && len(r.words) == 0 {
				r.tls = append(r.tls, ti)
				j++
				if u.poss {
					break
				}
				continue
			}
			if placeHeads[u.s] && r.nw > 0 && !u.poss {
				r.words = append(r.words, u.s)
				r.place = true
				j++
				break
			}
			if ln.isName(u) {
				r.words = append(r.words, u.s)
				r.nw++
				j++
				if u.poss {
					break
				}
				continue
			}
			if particles[u.s] && (r.nw > 0 || len(r.tls) > 0) && j+1 < len(toks) && !toks[j+1].gap && ln.isName(&toks[j+1]) {
				r.words = append(r.words, u.s)
				j++
				continue
			}
			if placeHeads[u.s] && r.nw > 0 {
				r.words = append(r.words, u.s)
				r.place = true
				j++
			}
			break
		}
		r.j = j
		if r.nw > 0 && r.nw <= 4 {
			out = append(out, r)
		}
		i = max(j, i+1)
	}
	return out
}

// splitRuns cuts runs that are two names side by side with no comma
// between them ("In Moscow Pierre had…", "from London Lydia came"): a
// first word that stands alone mostly as a place, or two words that each
// stand alone far more often than together.
//
// pairs counts, over the whole manuscript, the runs whose first two name
// words are the key: a full name used in a few chapters only ("Nicholas
// Rostóv") is not two names side by side. Nor is a rare full name whose
// second word is a family name elsewhere: after a title of family names
// ("General Bonaparte") or in a full name of its own ("Nicholas Rostóv"
// beside "Pétya Rostóv").
func splitRuns(runs []run, alone map[string]*[2]float64, pairs map[string]int, surnames map[string]bool) []run {
	family := map[string]bool{}
	isFamily := func(first, w string) bool {
		if surnames[w] {
			return true
		}
		if v, ok := family[first+" "+w]; ok {
			return v
		}
		v := false
		for k, n := range pairs {
			if n >= 4 && strings.HasSuffix(k, " "+w) && k != first+" "+w {
				if a := alone[strings.TrimSuffix(k, " "+w)]; a == nil || a[1] < 0.3*a[0] {
					v = true
					break
				}
			}
		}
		family[first+" "+w] = v
		return v
	}
	out := runs[:0:0]
	for _, r := range runs {
		if r.kind != runName || len(r.tls) > 0 || len(r.words) < 2 || r.place || particles[r.words[1]] {
			out = append(out, r)
			continue
		}
		a, b := alone[r.words[0]], alone[strings.Join(r.words[1:], " ")]
		if a == nil || b == nil {
			out = append(out, r)
			continue
		}
		placeFirst := a[0] >= 3 && a[1] >= 0.3*a[0]
		n := float64(pairs[r.words[0]+" "+r.words[1]])
		apart := len(r.words) == 2 && n <= 3 && a[0] >= 20*n && b[0] >= 20*n && !isFamily(r.words[0], r.words[1])
		if !placeFirst && !apart {
			out = append(out, r)
			continue
		}
		first := r
		first.j, first.words, first.nw = r.i+1, r.words[:1], 1
		rest := r
		rest.i, rest.words, rest.nw = r.i+1, r.words[1:], r.nw-1
		out = append(out, first, rest)
	}
	return out
}

// countPronoun counts "he" or "she" as the first subject pronoun after
// position j in the same sentence, within a few words.
func countPronoun(f *form, toks []tok, j int) {
	for k := j; k < len(toks) && k < j+8; k++ {
		if k > j && toks[k].init {
			return
		}
		switch toks[k].lower {
		case "he":
			f.he++
			return
		case "she":
			f.she++
			return
		}
	}
}

// latinForm builds the form of a name of words (nw of them not
// particles or place words) after titles tls.
func latinForm(tls, words []string, nw int, sex, married byte, surnameOnly, place bool) *form {
	f := &form{sex: sex, married: married, titles: tls, full: nw >= 2}
	firstW, lastW := words[0], words[len(words)-1]
	for _, w := range words {
		if !particles[w] {
			firstW = w
			break
		}
	}
	if place {
		lastW = words[len(words)-2]
	}
	full := strings.Join(words, " ")
	if place {
		// A place has a name, not a family name or a given name:
		// "Netherfield" joins "Netherfield Park" only.
		f.sex, f.married, f.full = 0, 0, false
		f.provides = append(f.provides, "full:"+full, "place:"+firstW)
		f.needs = append(f.needs, "full:"+full)
		f.spec = nw*10 + 5
		return f
	}
	if nw == 1 && surnameOnly {
		f.provides = append(f.provides, "last:"+lastW)
	} else {
		f.provides = append(f.provides, "first:"+firstW, "last:"+lastW)
	}
	for _, t := range tls {
		f.provides = append(f.provides, "title:"+t)
	}
	f.spec = nw * 10
	if len(tls) > 0 {
		f.spec += 5
	}
	if nw >= 2 || place {
		f.provides = append(f.provides, "full:"+full)
		f.needs = append(f.needs, "full:"+full)
		if len(words) >= 2 {
			f.provides = append(f.provides, "first2:"+words[0]+" "+words[1], "last2:"+words[len(words)-2]+" "+words[len(words)-1])
		}
		if len(words) == 2 && !place {
			f.needs = append(f.needs, "first2:"+full, "last2:"+full)
		}
		return f
	}
	f.needs = append(f.needs, "last:"+lastW, "place:"+lastW)
	if !surnameOnly {
		f.needs = append(f.needs, "first:"+firstW)
	}
	if len(tls) == 0 {
		f.malePref = true
	}
	return f
}

// latinFuller reports whether a is a fuller name than b: more name
// words, and without a title where the count is equal.
func latinFuller(a, b *form) bool {
	if a.spec/10 != b.spec/10 {
		return a.spec/10 > b.spec/10
	}
	return a.spec < b.spec && a.count*4 >= b.count
}

func capitalize(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
