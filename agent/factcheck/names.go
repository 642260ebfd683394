package factcheck

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/hanzi"
	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
	"github.com/flowcabal/flowcabal/lexicon"
)

// checkNames reports near-misses of declared names: a capitalised word one
// or two edits from a distinctive word of a name or alias, that is itself
// neither a declared name, nor an ordinary English word, nor frequent in
// the text; and, in CJK text, a run of characters that differs in one
// character from a name of three or more characters.
func (k *Knowledge) checkNames(d *doc) []Finding {
	var out []Finding
	if len(k.targets) > 0 {
		out = append(out, k.latinNearMisses(d)...)
	}
	if d.cjk && len(k.cjkNear) > 0 {
		out = append(out, k.cjkNearMisses(d)...)
	}
	if d.cjk && len(k.cjkDoubled) > 0 {
		out = append(out, k.cjkDoubledMisses(d)...)
	}
	if d.cjk && len(k.cjkSounds) > 0 && k.book != nil {
		out = append(out, k.cjkSoundMisses(d)...)
	}
	if d.cjk && len(k.cjkNear) > 0 && k.book != nil {
		// Only where no other reading found a slip already: 柳湘連 says
		// what 湘連 would.
		for _, f := range k.cjkFrequentSlips(d) {
			if !slices.ContainsFunc(out, func(o Finding) bool { return o.Start < f.End && f.Start < o.End }) {
				out = append(out, f)
			}
		}
	}
	return dedupe(out)
}

// cjkSoundKey is the key of a two-character name in Knowledge.cjkSounds:
// its characters' readings with their tones.
func cjkSoundKey(rs []rune) (string, bool) {
	if len(rs) != 2 {
		return "", false
	}
	a, b := hanzi.Reading(rs[0]), hanzi.Reading(rs[1])
	if a == "" || b == "" {
		return "", false
	}
	return a + " " + b, true
}

// cjkSoundMisses finds two-character names written with both characters
// changed for others of the same reading and tone (巴界 for 八戒): what
// a pinyin input method offers when the typist picks the wrong word.
// cjkNearMisses sees one character changed; two are a slip only where a
// name starts (after a break), for a name the book writes often, in a
// window the book writes at most this once and that no declared name
// explains.
func (k *Knowledge) cjkSoundMisses(d *doc) []Finding {
	var out []Finding
	rs := d.frunes
	for i := 0; i+2 <= len(rs); i++ {
		if !prose.IsCJK(rs[i]) || !prose.IsCJK(rs[i+1]) || i > 0 && !prose.NameBreak(rs[i-1]) {
			continue
		}
		key, ok := cjkSoundKey(rs[i : i+2])
		if !ok {
			continue
		}
		for _, s := range k.cjkSounds[key] {
			if s.runes[0] == rs[i] || s.runes[1] == rs[i+1] || nameStopSet.has(rs[i]) {
				continue // one character changed is cjkNearMisses's
			}
			start, end := d.roff[i], d.roff[i+2]
			window := string(rs[i : i+2])
			if d.overlapsMention(start, end) || countRunes(rs, rs[i:i+2]) > 1 ||
				k.book.countCJK(window) > 1 || k.book.countCJK(string(s.runes)) < minFrequentName {
				continue
			}
			ei := s.ents[0]
			fix := string([]rune{k.inScriptOf(d, i, 2, s.runes[0]), k.inScriptOf(d, i, 2, s.runes[1])})
			conf := 0.75
			if len(s.ents) > 1 {
				conf = 0.5
			}
			out = append(out, Finding{
				Type:       TypeName,
				Start:      start,
				End:        end,
				Message:    fmt.Sprintf("“%s” reads like “%s” (%s): a slip of the input method?", d.text[start:end], fix, ei.e.Name),
				Evidence:   Evidence{Path: ei.e.Path, Resource: ei.e.Resource, Key: "name", Value: s.text, Line: nameLine(ei, s.text)},
				Suggestion: fix,
				Confidence: conf,
			})
			break
		}
	}
	return out
}

func (k *Knowledge) latinNearMisses(d *doc) []Finding {
	var out []Finding
	checked := map[string]*target{}
	for wi, w := range d.words {
		first, _ := utf8.DecodeRuneInString(w.s)
		if !unicode.IsUpper(first) {
			continue
		}
		n := utf8.RuneCountInString(w.s)
		if n < 3 || k.nameWords[w.s] || titleWords[w.s] || rankClass[w.s] != "" {
			continue
		}
		// "Bal-machève": a part of a hyphenated word is no name. Two
		// hyphens are a dash ("at Pemberley--for"), which ends a word.
		if hyphenated(d.text, w.start, w.end) {
			continue
		}
		// The book writes the pair with the name ("Vladímirovich
		// Bezúkhov", the father of a declared son): the text's word
		// after the same first part is a slip of it, not the name of
		// someone the files leave out.
		if k.otherPersonsName(d, wi) && !k.bookWritesPairNear(d, wi) {
			continue
		}
		// After an honorific ("Mr. Gardener") a word is a name, though
		// the dictionary holds it: the book's own counts judge it then.
		titled := wi > 0 && honorifics[d.words[wi-1].s] && strings.TrimSpace(strings.TrimPrefix(d.text[d.words[wi-1].end:w.start], ".")) == ""
		key := w.s
		if titled {
			key += "\x00titled"
		}
		t, seen := checked[key]
		if !seen {
			t = k.nearestTarget(d, w.s, titled)
			checked[key] = t
		}
		if t == nil {
			t = k.slavicSlotSlip(d, wi)
		}
		if t == nil || k.book.knownLatin(w.s, matchCase(t.word, w.s)) || placeNamedOf(d, wi) && allPersons(t.ents) {
			continue
		}
		// "the Buonapartes": the plural of a form the book writes often
		// (Buonaparte, 30 times) is that word of the book too.
		// Not a stem in s: its plural is in -es (pluralOf).
		if stem, ok := strings.CutSuffix(w.s, "s"); ok && !strings.HasSuffix(stem, "s") && utf8.RuneCountInString(stem) >= 3 && k.book.knownLatin(stem, matchCase(t.word, stem)) {
			continue
		}
		// Part of a declared name's mention already (e.g. a declared
		// alias spelled with this word): not a misspelling.
		if d.insideMention(w.start, w.end) {
			continue
		}
		ei, name := k.resolveTarget(d, wi, t)
		if t.inName && name == "" {
			continue
		}
		fix := matchCase(t.word, w.s)
		conf := 0.9
		if ei == nil {
			conf = 0.6
			ei = t.ents[0]
		}
		if name == "" {
			name = ei.e.Name
		}
		out = append(out, Finding{
			Type:       TypeName,
			Start:      w.start,
			End:        w.end,
			Message:    fmt.Sprintf("%q looks like a misspelling of %q (%s)", w.s, fix, name),
			Evidence:   Evidence{Path: ei.e.Path, Resource: ei.e.Resource, Key: "name", Value: name, Line: nameLine(ei, name)},
			Suggestion: fix,
			Confidence: conf,
		})
	}
	return out
}

// otherPersonsName reports whether the capitalized word at wi is the
// second part of a name the files do not declare: right after a given
// name that is no part of any declared name ("Alphonse Kárlovich" beside
// Pierre's "Kirílovich"), or a saint's ("St. Natalia’s day" beside
// "Natalie"). A slip in a declared name keeps its declared first part
// ("Pierre Kárlovich") or stands alone.
func (k *Knowledge) otherPersonsName(d *doc, wi int) bool {
	if wi == 0 {
		return false
	}
	prev := d.words[wi-1]
	gap := d.text[prev.end:d.words[wi].start]
	if prev.s == "St" || prev.s == "Saint" || prev.s == "Ste" {
		return gap == ". " || gap == " "
	}
	if gap != " " {
		return false
	}
	first, _ := utf8.DecodeRuneInString(prev.s)
	if !unicode.IsUpper(first) || utf8.RuneCountInString(prev.s) < 3 || k.nameWords[prev.s] || titleWords[prev.s] || rankClass[prev.s] != "" || honorifics[prev.s] {
		return false
	}
	return !lexicon.IsOrdinary(prev.s)
}

// bookWritesPairNear reports whether the book writes the word before the
// capitalised word at wi together with a declared name word one letter
// from it, at least minBookUses times, and the text's own pair at most
// once (here): the pair is a name of the book, misspelt.
func (k *Knowledge) bookWritesPairNear(d *doc, wi int) bool {
	if k.book == nil || wi == 0 {
		return false
	}
	prev, w := d.words[wi-1].s, d.words[wi].s
	rs := []rune(strings.ToLower(w))
	// The near names first: each pair the book is asked about costs a
	// pass over it, and most such words are near no declared name.
	for _, t := range k.targets {
		if editDistance(rs, t.runes, 1) == 1 && k.book.usesWords(prev+" "+matchCase(t.word, w)) >= minBookUses {
			return k.book.usesWords(prev+" "+w) <= 1
		}
	}
	return false
}

// placeHeads name a kind of place whose name follows "of": "the villages
// of Bezúbova and Zakhárino", "the town of Meryton".
var placeHeads = wordSet("village", "villages", "town", "towns", "city", "hamlet", "hamlets", "river", "fortress",
	"province", "district", "parish", "county", "estate", "estates", "monastery", "port", "island", "valley")

// placeNamedOf reports whether the word at wi is the name after a place's
// kind and "of", or the second of two such names joined by "and".
func placeNamedOf(d *doc, wi int) bool {
	for _, at := range []int{wi - 1, wi - 3} {
		if at < 1 || at >= len(d.words) || !strings.EqualFold(d.words[at].s, "of") || !placeHeads[strings.ToLower(d.words[at-1].s)] {
			continue
		}
		if at == wi-1 || strings.EqualFold(d.words[wi-1].s, "and") {
			return true
		}
	}
	return false
}

// allPersons reports whether every entity of ents is a person.
func allPersons(ents []*entInfo) bool {
	for _, e := range ents {
		if !e.person {
			return false
		}
	}
	return len(ents) > 0
}

// hyphenated reports whether text[start:end] is joined to a word before
// or after it by a single hyphen; "--" is a dash.
func hyphenated(text string, start, end int) bool {
	after := strings.HasPrefix(text[end:], "-") && !strings.HasPrefix(text[end:], "--")
	before := start > 0 && text[start-1] == '-' && (start < 2 || text[start-2] != '-')
	return after || before
}

// honorifics are the titles after which a capitalised word names a
// person ("Mr. Gardener" is no gardener).
var honorifics = wordSet("Mr", "Mrs", "Miss", "Ms", "Sir", "Lady", "Lord", "Dr", "Captain", "Colonel", "Major", "General",
	"Lieutenant", "Prince", "Princess", "Count", "Countess", "Baron", "Baroness", "Duke", "Duchess")

// nearestTarget returns the name word s is a near-miss of, or nil. After
// an honorific (titled), a word of the dictionary may be one.
func (k *Knowledge) nearestTarget(d *doc, s string, titled bool) *target {
	if !titled && lexicon.IsOrdinary(s) && !k.strayCapital(d, s) || d.lowerSeen[strings.ToLower(s)] || d.count[s] >= 3 {
		return nil
	}
	rs := []rune(strings.ToLower(s))
	var best []*target
	bestDist := 3
	// A word that is a declared name's in another case (MARY for Mary)
	// is that name, not a variant spelling of another.
	declared := slices.ContainsFunc(k.targets, func(t *target) bool { return slices.Equal(t.runes, rs) })
	for _, t := range k.targets {
		if t.runes[0] != rs[0] && !k.firstLetterSlip(s, rs, t) {
			continue
		}
		limit := 1
		if len(t.runes) >= 9 && len(rs) >= 7 {
			limit = 2
		}
		if abs(len(t.runes)-len(rs)) > limit {
			continue
		}
		// The name without its ending ("Rosing" for Rosings) is a
		// singular of its own only where the book writes it so: beside
		// a name the book writes often, the book's counts judge it as
		// any other near-miss (knownLatin).
		if pluralOf(rs, t.runes) || pluralOf(t.runes, rs) && !k.writesOften(t.word) || slavicForm(rs, t.runes) || slavicForm(t.runes, rs) {
			continue
		}
		if len(t.runes) <= 4 && lexicon.IsShortName(s) {
			continue // "Janet" beside "Jane" is someone else
		}
		dist := editDistance(rs, t.runes, limit)
		if dist > limit && len(rs) >= 5 && swappedPair(rs, t.runes) {
			dist = 1 // "Lidya" for "Lydia": two letters traded places
		}
		if prose.Unaccented(string(rs)) == prose.Unaccented(string(t.runes)) {
			// An accent on another letter is a slip (Bóris for Borís),
			// unless the book writes it so (knownLatin), or never
			// writes the name so (Petrúsha, an alias of a file, beside
			// the book's Pétrusha, a servant). Accents left off are a
			// way of writing (Napoleon beside Napoléon) where the book
			// writes so; beside a name the book writes often with its
			// accents (Sónya, 448 times), the form it never writes
			// (Sonya) is a slip, as any other: the manuscript is the
			// dictionary, and knownLatin judges it.
			switch {
			case dist == 0:
				continue
			case movedAccent(rs, t.runes) && k.book.writesLatin(matchCase(t.word, s)):
			case accentsLeftOff(rs, t.runes) && k.writesOften(t.word):
			default:
				continue
			}
			dist = 1
		}
		if dist == limit+1 && doubledSwap(rs, t.runes) && k.writesOften(t.word) {
			// Lissy for Lizzy: one doubled letter written for another is
			// one slip of the hand, though it changes two letters; for a
			// name the book writes often, as a slip needs a habit.
			dist = limit
		}
		if dist == limit+1 && !declared && sameSound(rs, t.runes) {
			// Kittie for Kitty, Carolyn for Caroline: a spelling that
			// keeps the name's sound is one slip, however many letters
			// it takes.
			dist = limit
		}
		if dist == 0 || dist > limit {
			continue
		}
		switch {
		case dist < bestDist:
			bestDist, best = dist, []*target{t}
		case dist == bestDist:
			best = append(best, t)
		}
	}
	switch len(best) {
	case 0:
		return nil
	case 1:
		return best[0]
	}
	// Several names are as close: take the one the text uses most, if
	// one clearly does; else the one the book uses far more than any
	// other (Rostóvv: Rostóv 776 times, Rostóva 29).
	slices.SortStableFunc(best, func(a, b *target) int { return d.count[b.word] - d.count[a.word] })
	if d.count[best[0].word] > d.count[best[1].word] {
		return best[0]
	}
	if k.book == nil {
		return nil
	}
	k.book.once.Do(k.book.build)
	tied := best[:1]
	for _, t := range best[1:] {
		if d.count[t.word] == d.count[best[0].word] {
			tied = append(tied, t)
		}
	}
	slices.SortStableFunc(tied, func(a, b *target) int { return k.book.latin[b.word] - k.book.latin[a.word] })
	if k.book.latin[tied[0].word] >= minFrequentName && k.book.latin[tied[0].word] > bookMajority*k.book.latin[tied[1].word] {
		return tied[0]
	}
	return nil
}

// bookMajority is how many times more often the book must write one of
// two names a word is equally near for the word to be taken for it.
const bookMajority = 4

// minFirstLetterSlip is the length from which a word that differs from a
// name word in its first letter alone may be a slip for it.
const minFirstLetterSlip = 5

// firstLetterSlip reports whether s, rs in lower case, is the name word of
// t with its first letter changed and nothing else (Atrádnoe for
// Otrádnoe, Hemberley for Pemberley, Rucas for Lucas), in a word long
// enough that the rest alone names it, for a name the book writes often.
// Elsewhere a near-miss keeps the first letter: beside a short or seldom
// written name, another first letter is another name, as it is where
// the dictionary knows the word as a name (Polly beside Molly) or the
// book writes it often (Volkónski beside Bolkónski).
func (k *Knowledge) firstLetterSlip(s string, rs []rune, t *target) bool {
	if len(rs) < minFirstLetterSlip || len(rs) != len(t.runes) || !slices.Equal(rs[1:], t.runes[1:]) || k.book == nil || lexicon.IsShortName(s) {
		return false
	}
	k.book.once.Do(k.book.build)
	return k.book.latin[t.word] >= minFrequentName
}

// sameSound reports whether two lower-case words are spelt alike once
// the letters that write one English sound in several ways are taken as
// one: y for i, a word-final -ie, -ey or -y for -i, a final silent e
// after a consonant, and a doubled letter for a single one (Kittie and
// Kitty, Carolyn and Caroline, Phillip and Philip); and a Russian
// name's -off or -eff, the French and German way of writing its -ov or
// -ev (Kutúzoff and Kutúzov), which translators of one book do not mix.
func sameSound(a, b []rune) bool {
	return slices.Equal(soundSpelling(a), soundSpelling(b))
}

// soundSpelling is sameSound's form of a lower-case word.
func soundSpelling(w []rune) []rune {
	if n := len(w); n >= 5 && w[n-1] == 'f' && w[n-2] == 'f' && (w[n-3] == 'o' || w[n-3] == 'e') {
		w = append(slices.Clone(w[:n-2]), 'v')
	}
	out := make([]rune, 0, len(w))
	for i, r := range w {
		if r == 'y' {
			r = 'i'
		}
		last := i == len(w)-1
		if last && r == 'e' && i >= 2 && !isVowel(w[i-1]) {
			break // a silent e (Caroline)
		}
		if last && r == 'e' && i >= 1 && (w[i-1] == 'i' || w[i-1] == 'y') {
			break // -ie, -ye: as -i, -y
		}
		if r == 'e' && i == len(w)-2 && w[i+1] == 'y' {
			continue // -ey as -y
		}
		if n := len(out); n > 0 && out[n-1] == r {
			continue // a doubled letter
		}
		out = append(out, r)
	}
	return out
}

// isVowel reports whether r is an unaccented Latin vowel.
func isVowel(r rune) bool {
	return strings.ContainsRune("aeiouy", r)
}

// nameOpeners are the Chinese function words a name may follow inside a
// clause (folded): conjunctions, adverbs, prepositions, verbs of
// calling or seeing, and the demonstratives of a storyteller (這猴王).
const nameOpeners = "则又便就也和与同跟见叫让给把将被向对替问是乃说道这那共"

// accentsLeftOff reports whether a is b, which bears accents, written
// without any.
func accentsLeftOff(a, b []rune) bool {
	return string(a) == prose.Unaccented(string(a)) && string(b) != prose.Unaccented(string(b))
}

// movedAccent reports whether a and b, the same letters but for accents,
// both bear accents, on different letters.
func movedAccent(a, b []rune) bool {
	accented := func(rs []rune) bool { return string(rs) != prose.Unaccented(string(rs)) }
	return accented(a) && accented(b) && string(a) != string(b)
}

// slavicForm reports whether a is another form of the Russian name b,
// lower case: the feminine of a surname (dólokhova of dólokhov, rostóva of
// rostóv, ilyína of ilyín) or a surname in -ova beside a patronymic in
// -ovna (semënova, semënovna). Each names someone else, not a slip.
func slavicForm(a, b []rune) bool {
	as, bs := prose.Unaccented(string(a)), prose.Unaccented(string(b))
	if as == bs+"a" {
		for _, e := range []string{"ov", "ev", "in", "yn"} {
			if strings.HasSuffix(bs, e) {
				return true
			}
		}
	}
	for _, e := range []string{"ova", "eva"} {
		if stem, ok := strings.CutSuffix(as, e); ok && bs == stem+e[:2]+"na" {
			return true
		}
	}
	return false
}

// slavicSlotSlip returns the name word that the capitalised word at wi
// misspells as another Russian form of it (slavicForm), where the word
// stands in the slot of a declared name after that name's word before
// it: "Anna Pávlova" for the declared "Anna Pávlovna", "Hélène
// Bezúkhov" for "Hélène Bezúkhova". Alone, -ova beside -ovna or -ov
// beside -ova names another person; after the declared first word, the
// book decides: it writes the declared pair often and the text's pair
// at most here.
func (k *Knowledge) slavicSlotSlip(d *doc, wi int) *target {
	if wi == 0 || k.book == nil {
		return nil
	}
	prev, w := d.words[wi-1], d.words[wi]
	if d.text[prev.end:w.start] != " " || !k.nameWords[prev.s] {
		return nil
	}
	rs := []rune(strings.ToLower(w.s))
	for _, t := range k.targets {
		if t.runes[0] != rs[0] || !slavicForm(rs, t.runes) && !slavicForm(t.runes, rs) || editDistance(rs, t.runes, 1) != 1 || !declaresPair(t, prev.s) {
			continue
		}
		if k.book.usesWords(prev.s+" "+w.s) <= 1 && k.book.usesWords(prev.s+" "+matchCase(t.word, w.s)) >= minFrequentName {
			return t
		}
	}
	return nil
}

// usesWords counts s in the manuscript as written, as whole words: "Julie
// Karágin" is not in "Julie Karágina".
func (b *bookForms) usesWords(s string) int {
	if n := b.usesExactly(s); n <= 1 {
		return n // none cut out of a longer word can raise it
	}
	n := 0
	for _, ch := range b.chapters {
		for i := 0; ; {
			j := strings.Index(ch[i:], s)
			if j < 0 {
				break
			}
			at := i + j
			before, _ := utf8.DecodeLastRuneInString(ch[:at])
			after, _ := utf8.DecodeRuneInString(ch[at+len(s):])
			if !unicode.IsLetter(before) && !unicode.IsLetter(after) {
				n++
			}
			i = at + len(s)
		}
	}
	return n
}

// declaresPair reports whether a name or alias of an entity of t has
// the word first right before t's word.
func declaresPair(t *target, first string) bool {
	for _, ei := range t.ents {
		for _, n := range ei.e.Names() {
			ws := prose.LatinWords(n)
			for j := 1; j < len(ws); j++ {
				if ws[j] == t.word && ws[j-1] == first {
					return true
				}
			}
		}
	}
	return false
}

// pluralOf reports whether a is b with a plural or possessive ending.
func pluralOf(a, b []rune) bool {
	if len(a) <= len(b) || !slices.Equal(a[:len(b)], b) {
		return false
	}
	switch string(a[len(b):]) {
	case "s":
		// A name ending in s makes its plural with -es (the Lucases):
		// another s after it ("Collinss") is a slip of the hand.
		return b[len(b)-1] != 's'
	case "es", "'s", "’s":
		return true
	}
	return false
}

// resolveTarget picks the entity a misspelt word meant: the one whose
// full name or alias matches the surrounding words once the misspelling
// is corrected ("Lady Catharine" -> Lady Catherine), else the only
// entity with that word. It returns nil when it cannot tell.
func (k *Knowledge) resolveTarget(d *doc, wi int, t *target) (*entInfo, string) {
	var bestEnt *entInfo
	bestName, bestLen := "", 0
	for _, ei := range t.ents {
		for _, n := range ei.e.Names() {
			ws := prose.LatinWords(n)
			pos := slices.Index(ws, t.word)
			if pos < 0 || len(ws) < 2 {
				continue
			}
			start := wi - pos
			if start < 0 || start+len(ws) > len(d.words) {
				continue
			}
			ok := true
			for j, x := range ws {
				if start+j == wi {
					continue
				}
				if d.words[start+j].s != x {
					ok = false
					break
				}
			}
			if ok && len(ws) > bestLen {
				bestEnt, bestName, bestLen = ei, n, len(ws)
			}
		}
	}
	if bestEnt != nil {
		return bestEnt, bestName
	}
	if len(t.ents) == 1 {
		return t.ents[0], ""
	}
	return nil, ""
}

// insideMention reports whether [start, end) lies in a mention.
func (d *doc) insideMention(start, end int) bool {
	for _, i := range d.mentionsIn(start-64, end) {
		m := d.mentions[i]
		if m.start <= start && end <= m.end {
			return true
		}
	}
	return false
}

// matchCase spells fix with the capitals of like ("KITY" -> "KITTY").
func matchCase(fix, like string) string {
	if like == strings.ToUpper(like) && utf8.RuneCountInString(like) > 1 {
		return strings.ToUpper(fix)
	}
	return fix
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// swappedPair reports whether a and b differ only in two letters that
// traded places, not side by side (those editDistance counts as one).
func swappedPair(a, b []rune) bool {
	if len(a) != len(b) {
		return false
	}
	var diff []int
	for i := range a {
		if a[i] != b[i] {
			if diff = append(diff, i); len(diff) > 2 {
				return false
			}
		}
	}
	return len(diff) == 2 && a[diff[0]] == b[diff[1]] && a[diff[1]] == b[diff[0]]
}

// editDistance is the optimal string alignment distance of a and b
// (insertions, deletions, substitutions and transpositions of adjacent
// runes), or limit+1 when it exceeds limit.
func editDistance(a, b []rune, limit int) int {
	if abs(len(a)-len(b)) > limit {
		return limit + 1
	}
	var buf [3][32]int
	if len(b)+1 > len(buf[0]) {
		return limit + 1
	}
	prev2, prev, cur := buf[0][:len(b)+1], buf[1][:len(b)+1], buf[2][:len(b)+1]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// cjkNearMisses finds runs of CJK characters that differ from a declared
// name of two to six characters in exactly one character (not the
// first, usually a family name), by a character that sounds the same or
// looks alike (the slips of an input method or of recognition), outside
// forms of address, that are not declared names themselves, and that
// occur at most once in the text (a name the text repeats is a different
// person).
func (k *Knowledge) cjkNearMisses(d *doc) []Finding {
	var out []Finding
	rs := d.frunes
	type hit struct {
		i, n, pos int
		s         *nameSeq
	}
	var hits []hit
	for i := range rs {
		if !prose.IsCJK(rs[i]) {
			continue
		}
		// A window can start a near-miss when it starts with a name's first
		// character (the others differ) or when its next character is a
		// name's second (the first differs: 朱八戒, 洪孩兒).
		startsName := len(k.cjk[rs[i]]) > 0
		for _, n := range k.cjkLens {
			if i+n > len(rs) {
				continue
			}
			whole := true
			for j := i; j < i+n; j++ {
				if !prose.IsCJK(rs[j]) {
					whole = false
					break
				}
			}
			if !whole {
				continue
			}
			for pos := 0; pos < n; pos++ {
				if pos > 0 && !startsName {
					break
				}
				key := cjkKey{n: n, pos: pos}
				copy(key.r[:n], rs[i:i+n])
				key.r[pos] = 0
				for _, s := range k.cjkNear[key] {
					a, b := s.runes[pos], rs[i+pos]
					if a == b {
						continue // the name itself
					}
					// "宝二爷" and "宝二叔", "王夫人" and "王大人": forms of
					// address that differ in a kinship word name two
					// people, and in a short name a kinship word against
					// another character is a word of its own (大聲 beside
					// 大聖, 鳳接 beside 鳳姐). In a long name it is a slip
					// (鐵扇公主 written 鐵扇宮主).
					ka, kb := strings.ContainsRune(kinshipChars, a), strings.ContainsRune(kinshipChars, b)
					// Unless the window is the subject of what follows
					// and sounds just like the name (相云听說 for 湘云).
					subject := pos == 0 && hanzi.Homophone(a, b) && actsNext(string(rs[i+n:min(len(rs), i+n+4)]))
					// Or the name's kinship word is written with another
					// character of its phonetic series, read alike (薛姨嗎
					// for 薛姨媽, 賈拇 for 賈母, 叭戒 for 八戒), in a name of
					// three or more, or of two whose other character is no
					// kinship word (太泰 is no slip for 太太), that the
					// book writes often and the window never elsewhere:
					// the slip of a hand that hears the word.
					kinSlip := ka && !kb && (n >= 3 || !kinshipSet.has(s.runes[1-pos])) && hanzi.SameSeries(a, b) && k.bookVouchesWindow(s.runes, rs[i:i+n])
					// In a name of three or more the book writes often, a
					// radical added or dropped anywhere (牛魔閏 for 牛魔王,
					// 沙和淌 for 沙和尚) is a slip of the pen; in a name of
					// two, after the first character (玉啼 for 玉帝), unless
					// the name's is a kinship word or the text's a particle
					// that ends no name.
					radical := func() bool {
						return (n >= 3 || pos > 0 && !ka && !nameInnerStopSet.has(b)) && (hanzi.RadicalAdded(a, b) || hanzi.RadicalAdded(b, a)) && k.bookVouchesWindow(s.runes, rs[i:i+n])
					}
					// Or the kinship word is put for a character the book
					// hardly writes (鳳妲 for 鳳姐: 妲 look-alike of 姐), in
					// a name it writes often and a window it never does:
					// no word of the book stands there.
					rareSlip := func() bool {
						return ka && !kb && k.rareInBook(b) && k.bookVouchesWindow(s.runes, rs[i:i+n])
					}
					// Or any character put for the name's that the book
					// hardly writes and that is built on the same top or
					// bottom (探舂 for 探春: 舂, never written in 紅樓夢,
					// is 𡗗 over 臼), in a name the book writes often and
					// a window it never does: the eye took the part it
					// knew for the character.
					rareShape := func() bool {
						return !ka && !kb && k.rareInBook(b) && hanzi.SharedPart(a, b) && k.bookVouchesWindow(s.runes, rs[i:i+n])
					}
					// A reading of the name's character other than its
					// first (藏 zàng of 三藏, typed 葬) is typed as
					// readily: hanzi.ReadAlike knows them all. They are
					// many (亲 is qīn and qìng, beside 卿 of 可卿), so
					// the book must vouch: it writes the name often and
					// the window nowhere else.
					similar := hanzi.Similar(a, b) || hanzi.ReadAlike(a, b) && k.bookVouchesWindow(s.runes, rs[i:i+n])
					if ka && kb || (ka || kb) && n < 4 && !subject && !kinSlip && !rareSlip() || !similar && !k.lookAlikeAsWritten(d, i, s, pos) && !(pos == 0 && (hanzi.RadicalAdded(a, b) || n < 3 && k.sharePart(d, i, s, pos))) && !radical() && !rareShape() {
						continue
					}
					// "大聖" beside "大聲": a two-character name that starts
					// with a kinship or size word is a phrase's start.
					// The book may vouch for a name it writes often (三藏)
					// against a look-alike window it never writes (三臧).
					if n == 2 && pos == 1 && strings.ContainsRune(kinshipChars, s.runes[0]) && !k.bookVouches(s.runes, rs[i:i+n], pos) {
						continue
					}
					// The first character differing in a two-character
					// name: windows that sound like a name ("是尊" for
					// 世尊, "姓者" for 行者) are too often words. Only a
					// look-alike (借春 for 惜春) where a name starts (after
					// a break), of a name the book uses often, and the
					// book's counts then judge the window.
					// A homophone, tone and all (習人 for 襲人), is what
					// a pinyin input method offers first: the book's
					// counts tell a word from a slip. A character that
					// opens many words (相) is a slip there only as the
					// subject of what follows (相云听說).
					stop := nameStopSet.has(b) && !subject
					// Where a name starts: after a break, or after a
					// function word that the book does not write before
					// this character (二則代玉: 則代 is no word, 交代 is
					// one, and 學 of 學習人情 is no function word), or in
					// a slot the book fills with this name: it writes
					// the character before the window before the name
					// (待襲人), never before the window's first (待龔).
					// Counted last, as the book's counts cost most.
					bound := func() bool {
						if i == 0 || prose.NameBreak(rs[i-1]) {
							return false
						}
						if k.book == nil {
							return true
						}
						if strings.ContainsRune(nameOpeners, rs[i-1]) && k.book.countCJK(string(rs[i-1:i+1])) < minBookUses {
							return false
						}
						// A look-alike in a slot the book fills with the
						// name (奉玉帝 written 奉王帝), a window it never
						// writes: though the book writes the pair before
						// it now and then (奉王命), the window's second
						// character starts no word after it there.
						if (hanzi.LookAlike(a, b) || k.lookAlikeAsWritten(d, i, s, pos)) && k.bookVouchesWindow(s.runes, rs[i:i+n]) &&
							k.book.countCJK(string(rs[i-1])+string(s.runes)) >= minSlotUses {
							return false
						}
						return !k.inSlot(rs, i, s)
					}
					if pos == 0 && n < 3 && (k.book == nil || !hanzi.LookAlike(a, b) && !k.lookAlikeAsWritten(d, i, s, pos) && !hanzi.Homophone(a, b) && !hanzi.SameSeries(a, b) && !k.sharePart(d, i, s, pos) || stop ||
						k.book.countCJK(string(s.runes)) < minFrequentName || bound()) {
						continue
					}
					hits = append(hits, hit{i, n, pos, s})
				}
			}
		}
	}
	if len(hits) == 0 {
		return nil
	}
	for _, h := range hits {
		start, end := d.roff[h.i], d.roff[h.i+h.n]
		// The window overlaps a real mention of a declared name: the
		// characters belong to that name, not to a misspelling. When the
		// first character differs, the rest may itself be a declared
		// name (朱八戒: 八戒 is 豬八戒's alias): only a mention over the
		// differing character counts then.
		if h.pos == 0 {
			// The rest a name of its own, the first character is a word
			// before it (助八戒, 嫁寶玉, 其中湘雲) unless it is a family
			// name put for the name's own first character (朱八戒). The
			// rest a form of address (鳳奶奶, 史姑娘), the first
			// character is what tells whom it addresses: 奉奶奶 is a
			// phrase.
			rest := rs[h.i+1 : h.i+h.n]
			a, b := h.s.runes[0], rs[h.i]
			atBreak := h.i == 0 || prose.NameBreak(rs[h.i-1])
			// A radical added to the first character (遜 for 孫, 汪 for
			// 王) makes a word of its own too often to count in a
			// short name; in a longer one the book writes often, it
			// is a slip of the pen, even where the rest is a name of
			// its own (遜行者: 行者), if it stands where a name starts.
			frequent := k.book != nil && h.n >= 3 && k.book.countCJK(string(h.s.runes)) >= minFrequentName
			added := frequent && (hanzi.LookAlike(b, a) || hanzi.RadicalAdded(a, b))
			// So is a character read like the name's (留姥姥 for 劉姥姥,
			// 猻悟空 for 孫悟空), where a name starts or in a slot the
			// book fills with the name (有個猻悟空: 個孫悟空).
			slip := added || frequent && (hanzi.Homophone(a, b) || hanzi.SameSeries(a, b))
			// Where a name starts, too: after a character that makes no
			// word with the window's first, a pair the book writes
			// nowhere else (因吏湘云, 曾華果山), for a long name the book
			// writes often.
			atStart := atBreak || frequent && k.unpaired(rs, h.i)
			// Only a mention that the rest opens with makes the first
			// character a word before a name: one further in (菩薩 of
			// 官音菩薩 for 觀音菩薩) leaves a character of the name
			// between, which no word before a name explains.
			restStart := d.roff[min(h.i+2, h.i+h.n)]
			if d.overlapsMention(start, d.roff[h.i+1]) || d.overlapsMention(start, restStart) && !surnameSet.has(b) && !(slip && (atStart || k.inSlot(rs, h.i, h.s))) {
				continue
			}
			// The rest a form of address (鳳奶奶, 劉姥姥), the first
			// character is all that tells whom it addresses: only where
			// a name stands, after a break or a preposition (．柳姥姥,
			// 到連二奶奶那邊), not after a verb's subject (上夜奉奶奶的命).
			if allKinship(rest) && h.i > 0 && !prose.NameBreak(rs[h.i-1]) && !strings.ContainsRune(cjkNamePrepositions, rs[h.i-1]) {
				continue
			}
			if k.book != nil {
				// The manuscript decides whether the first character is
				// a word before the rest (助八戒, 殺和尚): it is when
				// the book writes the window elsewhere too. A window the
				// book never writes is a slip when the character is
				// what an input method offers for the name's (紅孩兒
				// typed 洪孩兒) or looks like it (牛 午, 玉 王); where
				// a name starts, after a break, any same syllable
				// (．柳姥姥 for 劉姥姥).
				if k.book.countCJK(string(rs[h.i:h.i+h.n])) > 1 || !hanzi.Homophone(a, b) && !hanzi.LookAlike(a, b) && !k.lookAlikeAsWritten(d, h.i, h.s, 0) && !hanzi.SameSeries(a, b) && !(h.n < 3 && k.sharePart(d, h.i, h.s, 0)) && !(atStart && hanzi.SoundAlike(a, b)) && !added {
					continue
				}
			}
		} else if d.ownsWindow(start, end, d.roff[h.i+h.pos], d.roff[h.i+h.pos+1], h.s) {
			continue
		}
		window := rs[h.i : h.i+h.n]
		if countRunes(rs, window) > 1 || k.book.knownCJK(string(window), string(h.s.runes)) {
			continue
		}
		// A two-character name ("黛玉") is only worth comparing when its
		// first character is mostly used in names in this text; "可" of
		// "可卿" starts too many ordinary words.
		if h.n == 2 && h.pos > 0 && !d.nameChar(rs[h.i]) {
			continue
		}
		if k.book != nil && k.edgeInWord(rs, h.i, h.n, h.pos, h.s.runes) && !k.restBound(rs[h.i:h.i+h.n], h.s, h.pos) {
			continue
		}
		// A longer near-miss over the same characters says it already.
		if slices.ContainsFunc(hits, func(o hit) bool {
			return o.n > h.n && o.i <= h.i && h.i+h.n <= o.i+o.n && o.s.ents[0] == h.s.ents[0]
		}) {
			continue
		}
		fix := []rune(d.text[start:end])
		// Keep the text's script: take the name as declared when it has
		// the same length, else the folded form.
		fix[h.pos] = k.inScriptOf(d, h.i, h.n, h.s.runes[h.pos])
		out = append(out, cjkSlipFinding(d, start, end, fix, h.s, 0.85))
	}
	return dedupe(out)
}

// cjkSlipFinding is the finding of a slip in the CJK name s written at
// [start, end), fix the name as the text should have it; conf is the
// confidence when s names one entity (0.6 when it names several).
func cjkSlipFinding(d *doc, start, end int, fix []rune, s *nameSeq, conf float64) Finding {
	ei := s.ents[0]
	if len(s.ents) > 1 {
		conf = 0.6
	}
	return Finding{
		Type:       TypeName,
		Start:      start,
		End:        end,
		Message:    fmt.Sprintf("“%s” looks like a misspelling of “%s” (%s)", d.text[start:end], string(fix), ei.e.Name),
		Evidence:   Evidence{Path: ei.e.Path, Resource: ei.e.Resource, Key: "name", Value: s.text, Line: nameLine(ei, s.text)},
		Suggestion: string(fix),
		Confidence: conf,
	}
}

// edgeInWord reports whether the changed character of the window
// rs[i:i+n] (changed at pos) belongs to a word the book writes often,
// more often than the slot holds name (when given):
// when it is the first, with the character before it (回顧 of 回顧雨村),
// not counting where the pair starts a declared name; when it is the
// last, with the character after it (往西 of 唐往西天). Such a window is
// two words side by side, not a slip. Pairs at the unchanged edge (不大
// of 不大管園) were tried: they hid real misprints (紫娟).
func (k *Knowledge) edgeInWord(rs []rune, i, n, pos int, name []rune) bool {
	const often = 3
	// 那朱八戒: a demonstrative before a name makes no word with it,
	// though the book writes 那朱 (那朱紫國) often.
	if pos == 0 && i > 0 && prose.IsCJK(rs[i-1]) && !strings.ContainsRune("那这此", rs[i-1]) {
		pair := string(rs[i-1 : i+1])
		uses := k.book.countCJK(pair)
		if uses >= often {
			for _, s := range k.cjk[rs[i]] {
				if !s.exclude {
					uses -= k.book.countCJK(string(rs[i-1]) + string(s.runes))
				}
			}
			// The book fills the slot with the name more often than it
			// writes the pair (見玉帝 21 times, 見王 6): the pair there is
			// the name's slot with a slip in it (見王帝), not a word.
			if uses >= often && (name == nil || uses > k.book.countCJK(string(rs[i-1])+string(name))) {
				return true
			}
		}
	}
	if pos == n-1 && i+n < len(rs) && prose.IsCJK(rs[i+n]) {
		return k.book.countCJK(string(rs[i+n-1:i+n+1])) >= often
	}
	return false
}

// restBound reports whether the window, a name of three or more
// characters with its first or last character changed, holds besides it
// a part that the book writes only inside the names of the name's entity
// (音菩薩 of 觀音菩薩 and 觀世音菩薩; 沙和 of 沙和尚): the changed
// character then makes no word with its outer neighbour (見官 of
// 見官音菩薩, though the book writes 見官; 上馱 of 沙和上馱著, though the
// book writes 上馱), since the part the book writes nowhere else is no
// word of its own. The book may hold the window once, where it is
// checked.
func (k *Knowledge) restBound(window []rune, s *nameSeq, pos int) bool {
	if pos != 0 && pos != len(window)-1 || len(window) < 3 || k.book == nil || k.book.countCJK(string(s.runes)) < minFrequentName {
		return false
	}
	rest := string(window[1:])
	if pos > 0 {
		rest = string(window[:pos])
	}
	var forms []string
	for _, ei := range s.ents {
		for _, n := range ei.e.Names() {
			if f := string(k.foldRunes(n)); strings.Contains(f, rest) && !slices.Contains(forms, f) {
				forms = append(forms, f)
			}
		}
	}
	inNames := 0
	for _, f := range forms {
		// A form holding another (南海觀音菩薩) is counted in it.
		if !slices.ContainsFunc(forms, func(o string) bool { return o != f && strings.Contains(f, o) }) {
			inNames += k.book.countCJK(f)
		}
	}
	return k.book.countCJK(rest)-inNames <= 1
}

// bookVouches reports whether the manuscript makes a window a slip for a
// name where the construction alone cannot: the book writes the name
// often, never writes the window, and the changed character looks like
// the name's (not only sounds like it).
//
// Besides a look-alike, a character of the name's phonetic series read
// alike (八誡 for 八戒: 言 put beside 戒) is such a slip.
func (k *Knowledge) bookVouches(name, window []rune, pos int) bool {
	return k.bookVouchesWindow(name, window) && (hanzi.LookAlike(name[pos], window[pos]) || hanzi.SameSeries(name[pos], window[pos]))
}

// bookVouchesWindow reports whether the book writes name often and
// window, which differs from it in one character, nowhere but here.
func (k *Knowledge) bookVouchesWindow(name, window []rune) bool {
	return k.book != nil && k.book.countCJK(string(name)) >= minFrequentName && k.book.countCJK(string(window)) <= 1
}

// sharePart reports whether the character at pos of the name s and the
// text's at i+pos of d are built on one part, with a different top or
// bottom ([hanzi.SharedTop], [hanzi.SharedBottom]), folded or as the
// text writes them: 賈 and 買 share 貝 under their tops, their
// simplified forms 贾 and 买 nothing, and a writer of traditional
// characters confuses what he sees.
func (k *Knowledge) sharePart(d *doc, i int, s *nameSeq, pos int) bool {
	a, b := s.runes[pos], d.frunes[i+pos]
	if hanzi.SharedTop(a, b) || hanzi.SharedBottom(a, b) {
		return true
	}
	written, _ := utf8.DecodeRuneInString(d.text[d.roff[i+pos]:])
	if written == b {
		return false // the same in both scripts: compared already
	}
	declared := []rune(s.text)
	aw := a
	if len(declared) == len(s.runes) {
		aw = declared[pos]
	}
	if aw == a {
		aw = k.toTraditional(a)
	}
	return aw != a && (hanzi.SharedTop(aw, written) || hanzi.SharedBottom(aw, written))
}

// lookAlikeAsWritten reports whether the character at pos of the name s
// and the text's at i+pos of d look alike as the text writes them, the
// name's in the script of its declaration or in traditional form: a
// writer of traditional characters confuses what he sees (束 for 東,
// 鏨 for 寶), whose simplified forms (东 束, 宝 鏨) the folded comparison
// finds apart.
func (k *Knowledge) lookAlikeAsWritten(d *doc, i int, s *nameSeq, pos int) bool {
	a := s.runes[pos]
	written, _ := utf8.DecodeRuneInString(d.text[d.roff[i+pos]:])
	if written == d.frunes[i+pos] && k.toTraditional(a) == a {
		return false // the same in both scripts: compared already
	}
	if declared := []rune(s.text); len(declared) == len(s.runes) && declared[pos] != a && hanzi.LookAlike(declared[pos], written) {
		return true
	}
	t := k.toTraditional(a)
	return t != a && hanzi.LookAlike(t, written)
}

// rareInBook reports whether the manuscript, long enough to write its
// words many times over, writes the character r at most once in every
// hundred thousand characters (minPairedBook): it makes no word of the
// book.
func (k *Knowledge) rareInBook(r rune) bool {
	if k.book == nil {
		return false
	}
	k.book.once.Do(k.book.build)
	n := len(k.book.cjk)
	return n >= minPairedBook && k.book.countCJK(string(r)) <= n/minPairedBook
}

// inSlot reports whether the window of rs at i, a slip for the name s in
// its first character, stands in a slot the book fills with that name:
// the book writes the character before the window before the name at
// least minSlotUses times (待襲人, 將唐三藏), and before the window's
// first character at most here (待龔, 將糖).
func (k *Knowledge) inSlot(rs []rune, i int, s *nameSeq) bool {
	if i == 0 || k.book == nil || !prose.IsCJK(rs[i-1]) {
		return false
	}
	return k.book.countCJK(string(rs[i-1:i+1])) <= 1 && k.book.countCJK(string(rs[i-1])+string(s.runes)) >= minSlotUses
}

// unpaired reports whether the character before rs[i] makes no word with
// it: a book long enough to write most pairs of its words writes this
// one at most this once. A slip of a name's first character leaves such
// a pair where the name starts (因吏湘云 for 因史湘雲); a word before a
// name (助八戒, 謙遜行者, 其中湘雲) is a pair such a book writes
// elsewhere. In a short manuscript a pair's absence tells nothing.
func (k *Knowledge) unpaired(rs []rune, i int) bool {
	if i == 0 || k.book == nil || !prose.IsCJK(rs[i-1]) {
		return false
	}
	k.book.once.Do(k.book.build)
	return len(k.book.cjk) >= minPairedBook && k.book.countCJK(string(rs[i-1:i+1])) <= 1
}

// minPairedBook is the length, in bytes of folded text (about 100,000
// Chinese characters, ten chapters of a classic novel), from which a
// pair the book never writes is taken for no word.
const minPairedBook = 300_000

// minSlotUses is how often the book must write a character before a name
// for the place after it to be a slot for that name.
const minSlotUses = 2

// minFrequentName is how often the book must use a two-character name for
// a look-alike of its first character to be questioned.
const minFrequentName = 20

// cjkNamePrepositions stand before a person as the object of a
// preposition or a verb of address (folded).
const cjkNamePrepositions = "到在向对跟和同与给叫请见问告找"

// allKinship reports whether every rune of rs is a kinship or address
// character.
func allKinship(rs []rune) bool {
	for _, r := range rs {
		if !kinshipSet.has(r) {
			return false
		}
	}
	return true
}

// ownsWindow reports whether a real mention of a declared name explains
// the window [start, end) compared with target, whose differing character
// is at [dstart, dend): any mention but a name of the target's own entity
// inside the window after the differing character. Such a title (祖師 in
// 須菩堤祖師, 菩薩 in 觀士音菩薩) explains nothing: the slip is in the part
// before it.
func (d *doc) ownsWindow(start, end, dstart, dend int, target *nameSeq) bool {
	for _, i := range d.mentionsIn(start-64, end) {
		m := d.mentions[i]
		if m.end <= start || end <= m.start {
			continue
		}
		// Only a title after the slip; a name before it (二郎 of 二郎身)
		// is the name followed by another word. A form of the target's
		// own entity that the window goes on from with more of the
		// name before the slip (太上 of 太上老軍 for 太上老君) is the
		// name's own start: the slip is in the part after it.
		if m.start < dend && !(m.end < dstart && m.start >= start && onlyOf(m.ents, target.ents)) || m.end > end {
			return true
		}
		for _, e := range m.ents {
			if !containsEnt(target.ents, e) {
				return true
			}
		}
	}
	return false
}

// onlyOf reports whether every entity of ents is one of target.
func onlyOf(ents, target []*entInfo) bool {
	for _, e := range ents {
		if !containsEnt(target, e) {
			return false
		}
	}
	return len(ents) > 0
}

func (d *doc) overlapsMention(start, end int) bool {
	for _, i := range d.mentionsIn(start-64, end) {
		m := d.mentions[i]
		if m.start < end && start < m.end {
			return true
		}
	}
	return false
}

func countRunes(hay, needle []rune) int {
	n := 0
	for i := 0; i+len(needle) <= len(hay); i++ {
		if hay[i] == needle[0] && slices.Equal(hay[i:i+len(needle)], needle) {
			n++
			if n > 1 {
				return n
			}
		}
	}
	return n
}

// dedupe drops findings with the same range and type as an earlier one.
func dedupe(in []Finding) []Finding {
	out := in[:0]
	seen := map[[3]int]bool{}
	for _, f := range in {
		key := [3]int{f.Start, f.End, len(f.Type)}
		if seen[key] {
			continue
		}
		seen[key] = true
		out = append(out, f)
	}
	return out
}

// inScriptOf writes the simplified character r as the text around
// window [i, i+n) of d writes: as it appears elsewhere in the text, or in
// traditional characters when the window's own characters are traditional.
func (k *Knowledge) inScriptOf(d *doc, i, n int, r rune) rune {
	traditional := false
	for j := i; j < i+n; j++ {
		if orig, _ := utf8.DecodeRuneInString(d.text[d.roff[j]:]); orig != d.frunes[j] {
			traditional = true
			break
		}
	}
	// A window whose characters are the same in both scripts (朱八戒)
	// takes the script of the text around it.
	if !traditional {
		for j := range d.frunes {
			if orig, _ := utf8.DecodeRuneInString(d.text[d.roff[j]:]); orig != d.frunes[j] {
				traditional = true
				break
			}
		}
	}
	if !traditional {
		return r
	}
	for j, fr := range d.frunes {
		if fr == r {
			orig, _ := utf8.DecodeRuneInString(d.text[d.roff[j]:])
			return orig
		}
	}
	return k.toTraditional(r)
}

// nameLine is the line of the front matter key that declares name.
func nameLine(ei *entInfo, name string) int {
	if name != ei.e.Name {
		if l := ei.e.KeyLines["aliases"]; l > 0 {
			return l
		}
	}
	return ei.e.KeyLines["name"]
}

// nameChar reports whether at least half the other occurrences of the
// folded rune r in the text (all but the one under test) are inside
// mentions of declared names.
func (d *doc) nameChar(r rune) bool {
	if v, ok := d.nameChars[r]; ok {
		return v
	}
	if d.nameChars == nil {
		d.nameChars = map[rune]bool{}
	}
	v := d.countNameChar(r)
	d.nameChars[r] = v
	return v
}

func (d *doc) countNameChar(r rune) bool {
	total, inside := 0, 0
	mi := 0
	for j, x := range d.frunes {
		if x != r {
			continue
		}
		total++
		off := d.roff[j]
		for mi < len(d.mentions) && d.mentions[mi].end <= off {
			mi++
		}
		if mi < len(d.mentions) && d.mentions[mi].start <= off {
			inside++
		}
	}
	return inside*2 >= total-1
}

// doubledSwap reports whether a and b, of one length, differ only in one
// doubled letter written for another doubled letter (ss for zz).
func doubledSwap(a, b []rune) bool {
	if len(a) != len(b) {
		return false
	}
	at := -1
	for i := range a {
		if a[i] != b[i] {
			at = i
			break
		}
	}
	if at < 0 || at+1 >= len(a) || a[at] != a[at+1] || b[at] != b[at+1] {
		return false
	}
	return slices.Equal(a[at+2:], b[at+2:])
}

// strayCapital reports whether the dictionary word s, capitalised, is
// written in d only where a sentence cannot have made it so (after a
// comma or a word), and the book never writes it so elsewhere: a name
// mistyped into a word ("late, Pierce on that day arrived"), not the
// word. With no book to ask, the dictionary is believed.
func (k *Knowledge) strayCapital(d *doc, s string) bool {
	if k.book == nil {
		return false
	}
	k.book.once.Do(k.book.build)
	if k.book.latin[s] > d.count[s] {
		return false
	}
	for wi, w := range d.words {
		if w.s != s {
			continue
		}
		// "the Manna Seekers": beside another capitalised word it is
		// part of a name the files do not declare.
		if !afterWordOrComma(d.text, w.start) || capitalisedAt(d, wi-1) || capitalisedAt(d, wi+1) {
			return false
		}
	}
	return d.count[s] > 0
}

// afterWordOrComma reports whether the last thing before start, past
// spaces, is a letter, a digit or a comma: no sentence, paragraph or
// quotation opens there.
func afterWordOrComma(text string, start int) bool {
	before := strings.TrimRight(text[:start], " \t")
	r, _ := utf8.DecodeLastRuneInString(before)
	return r == ',' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// capitalisedAt reports whether d's word wi exists and starts with a
// capital.
func capitalisedAt(d *doc, wi int) bool {
	if wi < 0 || wi >= len(d.words) {
		return false
	}
	r, _ := utf8.DecodeRuneInString(d.words[wi].s)
	return unicode.IsUpper(r)
}

// writesOften reports whether the book writes the name word w at least
// minFrequentName times.
func (k *Knowledge) writesOften(w string) bool {
	if k.book == nil {
		return false
	}
	k.book.once.Do(k.book.build)
	return k.book.latin[w] >= minFrequentName
}
