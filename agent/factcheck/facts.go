package factcheck

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// A claim is something the text states about an unnamed holder: an age,
// a count, a quantity with a unit, a colour of something.
type claim struct {
	kind       string // "age", "count", "qty", "colour"
	noun       string // count: the counted noun; qty: the unit; colour: the thing coloured
	start, end int    // the stated value in the text
	wordIdx    int    // first word of the claim (-1 for CJK)
	lo, hi     int    // stated range (age, count, qty)
	vals       []int  // stated alternatives (qty)
	colour     string
	gender     byte // from "girl of", "young man of"
	// place is the word after "from"/"to" for a distance ("meryton").
	place string
	// total marks a count given as a total ("had three daughters").
	total bool
	// owned marks a quantity tied to a holder ("his having ten thousand
	// a year", "a fortune of").
	owned bool
	// of, when not zero, is 1 + the index of the one mention whose age
	// the claim can be ("fourteen-year-old Pétya").
	of int
	// demonstrative marks an age said of "this girl", "that young man"
	// opening its sentence: whose, the paragraphs around tell.
	demonstrative bool
}

// effMention is a mention resolved to the entity it speaks of: a
// possessive followed by a relation noun ("Elizabeth’s intimate friend")
// speaks of the related entity.
type effMention struct {
	start, end int
	ent        *entInfo
	possessive bool
	relational bool
}

var relationNouns = map[string][]string{
	"friend": {"friend"}, "sister": {"sister"}, "brother": {"brother"}, "father": {"father"}, "mother": {"mother"},
	"wife": {"spouse", "wife"}, "husband": {"spouse", "husband"}, "cousin": {"cousin"}, "aunt": {"aunt"}, "uncle": {"uncle"},
	"daughter": {"daughter"}, "son": {"son"}, "nephew": {"nephew"}, "niece": {"niece"}, "guardian": {"guardian"},
	"ward": {"ward"}, "patroness": {"patroness"}, "heir": {"heir"}, "tenant": {"tenant"}, "owner": {"owner"},
}

func (k *Knowledge) effMentions(d *doc) []effMention {
	out := make([]effMention, 0, len(d.mentions))
	for _, m := range d.mentions {
		if len(m.ents) != 1 {
			continue
		}
		em := effMention{start: m.start, end: m.end, ent: m.ents[0], possessive: m.possessive}
		if m.possessive && m.lastWord >= 0 {
			j := m.lastWord + 1
			if j < len(d.words) && d.words[j].s == "s" {
				j++
			}
			for n := 0; n < 3 && j+n < len(d.words); n++ {
				kinds, ok := relationNouns[strings.ToLower(d.words[j+n].s)]
				if !ok {
					continue
				}
				if r := k.related(m.ents[0], kinds); r != nil {
					em.ent, em.relational = r, true
				}
				break
			}
		}
		out = append(out, em)
	}
	return out
}

// related returns the one entity e relates to with a relation whose kind
// holds one of kinds, or nil.
func (k *Knowledge) related(e *entInfo, kinds []string) *entInfo {
	var found *entInfo
	for _, r := range e.e.Relations {
		rk := strings.ToLower(r.Kind)
		match := false
		for _, kd := range kinds {
			if strings.Contains(rk, kd) {
				match = true
			}
		}
		if !match {
			continue
		}
		t := k.byResource(r.To)
		if t == nil {
			continue
		}
		if found != nil && found != t {
			return nil
		}
		found = t
	}
	return found
}

func (k *Knowledge) byResource(res string) *entInfo {
	res = strings.TrimSuffix(strings.TrimPrefix(res, "@"), ".md")
	for _, e := range k.ents {
		if e.e.Resource == res {
			return e
		}
	}
	return nil
}

// colourGroups puts colours that do not contradict one another together.
var colourGroups = map[string]string{
	"dark": "dark", "black": "dark", "brown": "dark", "hazel": "dark", "jet": "dark",
	"blue": "blue", "grey": "grey", "gray": "grey", "green": "green", "light": "light",
	"fair": "fair", "golden": "fair", "yellow": "fair", "flaxen": "fair", "blond": "fair", "blonde": "fair",
	"red": "red", "auburn": "red", "ginger": "red", "white": "white", "silver": "white",
}

var ageNouns = map[string]byte{"girl": 'f', "woman": 'f', "lady": 'f', "maid": 'f', "maiden": 'f', "widow": 'f',
	"daughter": 'f', "bride": 'f', "spinster": 'f', "beauty": 'f', "son": 'm', "bachelor": 'm', "widower": 'm', "officer": 'm', "soldier": 'm', "heir": 0,
	"man": 'm', "boy": 'm', "gentleman": 'm', "fellow": 'm', "youth": 'm', "lad": 'm',
	"child": 0, "person": 0, "creature": 0}

// compass words give a bearing ("north-east" is two words).
var compass = wordSet("north", "south", "east", "west", "northward", "southward", "eastward", "westward")

// haveForm before a number ties it to a holder.
var haveForm = wordSet("has", "had", "have", "having", "possessed", "possesses", "worth")

// currencies may stand between an amount and a declared unit.
var currencies = wordSet("pounds", "pound", "guineas", "guinea", "dollars", "dollar", "francs", "livres", "crowns", "shillings", "sterling")

// qualifiers may stand between a have-form and its number.
var qualifiers = wordSet("about", "nearly", "almost", "full", "only", "but", "above", "near", "upwards", "at", "least", "a", "fully", "quite", "still")

// factNouns before a quantity say whose it is ("her fortune of …").
var factNouns = wordSet("fortune", "income", "estate", "property", "salary", "wealth", "rent", "rents", "living", "dowry", "portion")

var ageKeys = wordSet("age", "年龄", "年紀", "年纪", "年齡", "岁数", "歲數")

// predicatedNoun reports whether the noun at word i ("girl" of "a girl of
// sixteen") is said of someone: after a copula ("Véra was a handsome
// girl of twenty"), in apposition ("Sónya, a girl of sixteen"), or right
// after a name ("Sónya a girl of sixteen"). "He saw a man of forty" is
// someone else.
// of is 1 + the index of the name in apposition, or 0.
func predicatedNoun(d *doc, i int) (ok bool, of int) {
	j := i - 1
	for j >= 0 && j >= i-6 && sameClause(d, j, j+1) {
		w := strings.ToLower(d.words[j].s)
		if w == "a" || w == "an" {
			break
		}
		j--
	}
	if j < 0 || !sameClause(d, max(j, 0), i) {
		return false, 0
	}
	if w := strings.ToLower(d.words[j].s); w != "a" && w != "an" {
		return false, 0
	}
	if j == 0 {
		return false, 0
	}
	// An adverb or two may stand between the copula and the article:
	// "Pétya was now a handsome rosy lad of seventeen".
	pj := j - 1
	for n := 0; n < 2 && pj > 0 && copulaAdverb(d.words[pj].s) && sameClause(d, pj-1, pj+1); n++ {
		pj--
	}
	if prev := strings.ToLower(d.words[pj].s); copula[prev] || prev == "seemed" || prev == "looked" || prev == "became" {
		return true, 0
	}
	// An apposition or a bare name before the article.
	for mi, m := range d.mentions {
		if m.lastWord == j-1 && m.ents[0].person && (strings.TrimSpace(d.between(j-1, j)) == "," || strings.TrimSpace(d.between(j-1, j)) == "") {
			return true, mi + 1
		}
	}
	return false, 0
}

// chaptersPerYear is the fewest chapters a novel takes, as a rule, to
// tell a year: an age one more than the declared one that many chapters
// later may be time passing. A novel told faster (a year in eight
// chapters) is a year older sooner; only the age a file declares for a
// later chapter tells then.
const chaptersPerYear = 20

// copulaAdverb reports whether w is an adverb that may stand between a
// copula and what it says of the subject without denying it: "was now",
// "was still", "is evidently". "Not", "never" and "no longer" deny it.
func copulaAdverb(w string) bool {
	w = strings.ToLower(w)
	switch w {
	case "now", "still", "then", "already", "just", "quite", "also", "even", "indeed", "perhaps", "certainly", "evidently", "obviously", "clearly", "really", "yet":
		return true
	}
	return false
}

// clauseOpening reports whether word i opens its clause: the first word
// of its sentence or after a break, or after a conjunction that does.
func clauseOpening(d *doc, i int) bool {
	if i <= 0 || !sameClause(d, i-1, i) {
		return true
	}
	switch strings.ToLower(d.words[i-1].s) {
	case "and", "but", "yet", "now", "so":
		return i-1 == 0 || !sameClause(d, i-2, i-1)
	}
	return false
}

// ageVerbs before a bare number state an age ("was seventeen", "must
// have been thirty").
var ageVerbs = wordSet("was", "is", "turned", "but", "been", "be")

// clauseSubjects open a clause as its subject or its determiner.
var clauseSubjects = wordSet("i", "he", "she", "it", "we", "they", "you", "there", "this", "that", "the", "his", "her", "their", "my", "our")

// conjoinedClause reports whether word i is a conjunction that opens a
// new clause ("and it was", "but she"), so that what stands before it
// ends its own: "was eighteen and it was the year 1809" says an age,
// "was eighteen and a half miles" does not.
func conjoinedClause(d *doc, i int) bool {
	if i+1 >= len(d.words) || !sameClause(d, i, i+1) {
		return false
	}
	switch strings.ToLower(d.words[i].s) {
	case "and", "but", "when", "while", "yet":
	default:
		return false
	}
	w := d.words[i+1].s
	if clauseSubjects[strings.ToLower(w)] {
		return true
	}
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

// claims finds the statements of the text that facts can contradict,
// made once per text (the fact and measure checks both read them).
func (k *Knowledge) claims(d *doc) []claim {
	if !d.claimedDone {
		d.claimed, d.claimedDone = k.makeClaims(d), true
	}
	return d.claimed
}

// makeClaims finds the claims of d (see claims).
func (k *Knowledge) makeClaims(d *doc) []claim {
	var out []claim
	lw := func(i int) string {
		if i < 0 || i >= len(d.words) {
			return ""
		}
		return strings.ToLower(d.words[i].s)
	}
	// haveBefore: "had five", "has about ten", "his having six".
	haveBefore := func(i int) bool {
		if haveForm[lw(i-1)] {
			return true
		}
		return haveForm[lw(i-2)] && qualifiers[lw(i-1)] && sameClause(d, i-2, i-1)
	}
	// qualifiedAfter: "two daughters married" names some, not all.
	qualifiedAfter := func(i int) bool {
		w := lw(i)
		return w != "" && sameClause(d, i-1, i) && (strings.HasSuffix(w, "ed") || qualifiers[w] || w == "at" || w == "in" || w == "out" || w == "home" || w == "left" || w == "alive" || w == "dead")
	}
	nouns, units, colourNouns := k.nouns, k.unitWords, k.colourKeys
	for _, n := range d.numbersIn() {
		v := n.vals[0]
		start, end := d.words[n.first].start, d.words[n.last].end
		next, next2 := lw(n.last+1), lw(n.last+2)
		// Ages.
		age := false
		var g byte
		of := 0
		demo := false
		switch {
		case next == "year" && next2 == "old" && d.between(n.last+1, n.last+2) == "-":
			// "fourteen-year-old Pétya": the age of the name it
			// modifies, and of no one when it modifies a thing
			// ("thirty-year-old birches", "his forty-year-old stomach")
			// or another person ("her six year-old nephew").
			for mi, m := range d.mentions {
				if m.firstWord == n.last+3 && m.ents[0].person && !d.inQuote(m.start) {
					age, of = true, mi+1
				}
			}
			if !age {
				continue
			}
		case next == "years" && (next2 == "old" || next2 == "of") || next == "year" && next2 == "old":
			age = true
		case lw(n.first-1) == "aged":
			age = true
		case lw(n.first-1) == "of" && lw(n.first-2) == "age" && lw(n.first-3) == "the" && lw(n.first-4) == "at" && clauseOpening(d, n.first-4):
			// "and at the age of two-and-thirty, …, she felt": put
			// first, the age sets the clause's time, which is now. After
			// a verb it dates that event ("had entered the service at the
			// age of sixteen"), as often long past.
			age = true
		case ageVerbs[lw(n.first-1)] && v >= 10 && v < 120 &&
			(next == "" || next == "years" || d.between(n.last, n.last+1) != " " || conjoinedClause(d, n.last+1)) && !strings.HasPrefix(strings.TrimLeft(d.text[end:], " "), "-"):
			// "she was seventeen.", "he is but thirty,", "he must
			// have been thirty,", "Natásha was eighteen and it was
			// the year 1809"
			age = true
		case lw(n.first-1) == "of":
			if gg, ok := ageNouns[lw(n.first-2)]; ok {
				if pred, mi := predicatedNoun(d, n.first-2); pred {
					age, g, of = true, gg, mi
				} else if demonstrativeNoun(d, n.first-2) && gg != 0 {
					age, g, demo = true, gg, true
				}
			} else if gg, ok := ageNouns[lw(n.first-3)]; ok && lw(n.first-2) != "" {
				// "young man of", "girl of" with one adjective between
				// is covered above; "man of about thirty" here.
				_ = gg
			}
		case bareAtAge(d, n.first, n.last, v):
			// "She will be married at sixteen!"
			age = true
		}
		lo, hi := v, v
		mod := lw(n.first - 1)
		if mod == "than" && lw(n.first-2) == "more" {
			mod = "more than"
			if lw(n.first-3) == "little" {
				mod = "little more than"
			}
		}
		if mod == "yet" && lw(n.first-2) == "not" {
			mod = "not yet"
		}
		if mod == "of" && lw(n.first-2) == "upwards" {
			mod = "upwards of"
		}
		switch mod {
		case "about", "nearly", "almost", "past", "above", "under", "not yet", "little more than", "more than", "upwards of", "turned", "then", "now", "barely", "scarcely", "hardly", "only", "just":
			if !age && v >= 5 && v <= 120 && (next == "" || d.between(n.last, n.last+1) != " " || next == "years") && !strings.HasPrefix(strings.TrimLeft(d.text[end:], " "), "-") {
				// "about nineteen, was…": a bare number after an age
				// modifier, followed by punctuation.
				age = true
			}
			switch mod {
			case "about":
				lo, hi = v-2, v+2
			case "nearly", "almost":
				lo, hi = v-2, v
			case "past", "above", "more than", "upwards of":
				lo, hi = v, 150
			case "under", "not yet":
				lo, hi = 0, v-1
			case "little more than":
				lo, hi = v, v+1
			}
		}
		// "girls of six and eight years old" is a list; "when she was
		// only eight" looks back.
		if age && (lw(n.first-1) == "and" || lw(n.first-1) == "or") {
			age = false
		}
		if age {
			for j := n.first - 1; j >= 0 && j >= n.first-6 && sameClause(d, j, j+1); j-- {
				if w := lw(j); w == "when" || w == "since" || w == "till" || w == "until" {
					age = false
					break
				}
			}
		}
		if age && v > 0 && v < 150 {
			out = append(out, claim{kind: "age", start: start, end: end, wordIdx: n.first, lo: lo, hi: hi, gender: g, of: of, demonstrative: demo})
			continue
		}
		// Counts: "six daughters", "her four sisters".
		total := haveBefore(n.first) && !qualifiedAfter(n.last+2)
		if nouns[next] && d.between(n.last, n.last+1) == " " {
			out = append(out, claim{kind: "count", noun: next, start: start, end: d.words[n.last+1].end, wordIdx: n.first, lo: v, hi: v, total: total})
			continue
		}
		if v == 1 && nouns[next+"s"] && d.between(n.last, n.last+1) == " " {
			out = append(out, claim{kind: "count", noun: next + "s", start: start, end: d.words[n.last+1].end, wordIdx: n.first, lo: 1, hi: 1, total: total})
			continue
		}
		// Quantities: "ten thousand a year", "five miles from Meryton".
		for _, u := range units {
			// "ten thousand pounds a year" states "ten thousand a year".
			skip := 0
			if currencies[lw(n.last+1)] && u[0] != singular(lw(n.last+1)) {
				skip = 1
			}
			if n.last+skip+len(u) >= len(d.words) {
				continue
			}
			matches := func(u []string) bool {
				for j, uw := range u {
					at := n.last + skip + 1 + j
					if at >= len(d.words) || singular(lw(at)) != uw || !numberGap(d.between(at-1, at)) {
						return false
					}
				}
				return true
			}
			if !matches(u) && !(strings.Join(u, " ") == "a year" && (matches([]string{"per", "annum"}) || matches([]string{"per", "year"}))) {
				continue
			}
			c := claim{kind: "qty", noun: strings.Join(u, " "), start: start, end: d.words[n.last+skip+len(u)].end, wordIdx: n.first, vals: n.vals}
			// "his having ten thousand a year", "his twelve thousand a
			// year", "Darcy’s ten thousand a year".
			possessive := lw(n.first-1) == "s" && n.first >= 2 && (d.between(n.first-2, n.first-1) == "’" || d.between(n.first-2, n.first-1) == "'")
			c.owned = haveBefore(n.first) || lw(n.first-1) == "his" || lw(n.first-1) == "her" || possessive
			// "her fortune of"; "an income which was said to amount
			// to": the noun further back when the number is what it
			// amounts to.
			back := 4
			if lw(n.first-1) == "to" && strings.HasPrefix(lw(n.first-2), "amount") {
				back = 9
			}
			for j := n.first - 1; j >= 0 && j >= n.first-back && sameClause(d, j, j+1); j-- {
				if factNouns[lw(j)] {
					c.owned = true
					break
				}
			}
			if !c.owned {
				// "inherited property to the amount of nearly a hundred
				// thousand pounds": the word of a fact's key.
				c.owned = k.keyWordBefore(d, n.first, c.noun)
			}
			after := n.last + skip + len(u) + 1
			if p := lw(after); p == "away" || p == "distant" || p == "off" && (lw(after+1) == "from" || lw(after+1) == "to") {
				after++ // "five miles away from"
			}
			// "fourteen miles east from Smolénsk", "ten miles to the
			// north-west of it": a bearing says which way, not how far.
			for compass[lw(after)] || lw(after) == "to" && lw(after+1) == "the" && compass[lw(after+2)] {
				if lw(after) == "to" {
					after += 2
				}
				after++
			}
			if p := lw(after); p == "from" || p == "to" || p == "of" || p == "off" {
				var place []string
				first := after + 1
				if lw(first) == "the" {
					first++ // "twelve miles off the Smolénsk highroad"
				}
				j := first
				for ; j < len(d.words) && j < first+3; j++ {
					w := d.words[j].s
					if r, _ := utf8.DecodeRuneInString(w); r < 'A' || r > 'Z' {
						break
					}
					// A place's words stand side by side: "Lambton,
					// Pemberley" are two places.
					if j > first && d.between(j-1, j) != " " {
						break
					}
					place = append(place, strings.ToLower(w))
				}
				// "the Smolénsk highroad" is the road, not the town: a
				// distance to it is a fact of the road's key only.
				if len(place) > 0 && j < len(d.words) && d.between(j-1, j) == " " && roadNouns[lw(j)] {
					place = append(place, lw(j))
				}
				c.place = strings.Join(place, "_")
			}
			out = append(out, c)
			break
		}
	}
	// Colours: "her blue eyes", "his hair was grey".
	if len(colourNouns) > 0 {
		for i, w := range d.words {
			c := strings.ToLower(w.s)
			if _, ok := colourGroups[c]; !ok {
				continue
			}
			noun := lw(i + 1)
			switch noun {
			case "eyed":
				noun = "eyes"
			case "haired":
				noun = "hair"
			}
			if colourNouns[noun] && (d.between(i, i+1) == " " || d.between(i, i+1) == "-") {
				out = append(out, claim{kind: "colour", noun: noun, colour: c, start: w.start, end: w.end, wordIdx: i})
				continue
			}
			if i >= 2 && colourNouns[lw(i-2)] && (lw(i-1) == "were" || lw(i-1) == "was" || lw(i-1) == "are" || lw(i-1) == "is") {
				out = append(out, claim{kind: "colour", noun: lw(i - 2), colour: c, start: w.start, end: w.end, wordIdx: i - 2})
			}
		}
	}
	if d.cjk {
		out = append(out, k.cjkClaims(d)...)
	}
	return out
}

// cjkClaims finds Chinese ages ("十五岁") and counts ("两个女儿").
func (k *Knowledge) cjkClaims(d *doc) []claim {
	var out []claim
	rs := d.frunes
	nouns := k.nouns
	for i := 0; i < len(rs); i++ {
		if !prose.IsCJKNumeral(rs[i]) || (i > 0 && prose.IsCJKNumeral(rs[i-1])) {
			continue
		}
		j := i
		for j < len(rs) && prose.IsCJKNumeral(rs[j]) {
			j++
		}
		v, ok := prose.ParseCJKNumber(string(rs[i:j]))
		if !ok {
			continue
		}
		if j < len(rs) && (rs[j] == '岁' || rs[j] == '歲') {
			// "活到一百歲", "到八十歲的時候": an age to come.
			if i > 0 && (rs[i-1] == '到' || rs[i-1] == '至') {
				i = j
				continue
			}
			// "比寶玉小兩歲", "大他三歲": the years between two people,
			// not an age.
			if i > 0 && strings.ContainsRune("大小長长", rs[i-1]) {
				i = j
				continue
			}
			// "萬歲": long live the emperor, not an age.
			if string(rs[i:j]) == "万" || string(rs[i:j]) == "萬" {
				i = j
				continue
			}
			// "我五十歲上還沒兒子", "十歲時": a time in the past, told by
			// the age it was.
			if j+1 < len(rs) && strings.ContainsRune("上时時那", rs[j+1]) {
				i = j
				continue
			}
			out = append(out, claim{kind: "age", start: d.roff[i], end: d.roff[j+1], wordIdx: -1, lo: v, hi: v})
			i = j
			continue
		}
		// "七旬之慶", "年近八旬": an age told in decades.
		if j < len(rs) && rs[j] == '旬' && v >= 1 && v <= 12 {
			lo, hi := v*10, v*10+9
			if i > 0 && rs[i-1] == '近' {
				lo, hi = v*10-3, v*10
			}
			out = append(out, claim{kind: "age", start: d.roff[i], end: d.roff[j+1], wordIdx: -1, lo: lo, hi: hi})
			i = j
			continue
		}
		// "年方十三", "芳龄十五", "今年八十了"
		if i >= 2 {
			before := string(rs[i-2 : i])
			if before == "年方" || before == "芳龄" || before == "芳齡" || (before == "今年" && j < len(rs) && strings.ContainsRune("了，。．,", rs[j])) {
				out = append(out, claim{kind: "age", start: d.roff[i], end: d.roff[j], wordIdx: -1, lo: v, hi: v})
				i = j
				continue
			}
		}
		// "两个女儿", "三位姐妹"
		m := j
		if m < len(rs) && strings.ContainsRune("个個位名", rs[m]) {
			m++
		}
		for noun := range nouns {
			nr := []rune(noun)
			if !prose.HasCJK(noun) || m+len(nr) > len(rs) || !slices.Equal(rs[m:m+len(nr)], k.foldRunes(noun)) {
				continue
			}
			// Only a total counts: "有两个女儿", "生了三个儿子".
			before := string(rs[max(0, i-2):i])
			if !strings.ContainsAny(before, "有生养養") {
				break
			}
			out = append(out, claim{kind: "count", noun: noun, start: d.roff[i], end: d.roff[m+len(nr)], wordIdx: -1, lo: v, hi: v, total: true})
			break
		}
		i = j
	}
	return out
}

func singular(w string) string {
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		return w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ss"):
		return w
	case strings.HasSuffix(w, "s") && len(w) > 3:
		return w[:len(w)-1]
	}
	return w
}

// countNouns are fact keys that count something: a plural noun with a
// number value ("daughters: 5", "女儿: 2").
func (k *Knowledge) countNouns() map[string]bool {
	out := map[string]bool{}
	for _, e := range k.ents {
		k.eachFact(e, func(key, val string) {
			vals, _, rest, ok := parseValue(val)
			if !ok || len(vals) != 1 || len(rest) != 0 {
				return
			}
			if n := countNoun(key); n != "" && !ageKeys[strings.ToLower(key)] {
				out[n] = true
			}
		})
		k.eachFact(e, func(key, val string) {
			for noun := range countedParts(val) {
				out[noun] = true
			}
		})
	}
	return out
}

// countedParts reads a value that counts several things ("three
// daughters and a son", "two sons, one daughter"): each plural noun and
// its number. A value that is not wholly such a list gives nothing, so a
// sentence ("two daughters married") is never read as counts.
func countedParts(v string) map[string]int {
	parts := strings.FieldsFunc(strings.ToLower(v), func(r rune) bool { return r == ',' || r == ';' })
	var fields []string
	for _, p := range parts {
		for _, q := range strings.Split(p, " and ") {
			if q = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(q), "and ")); q != "" {
				fields = append(fields, q)
			}
		}
	}
	if len(fields) < 2 {
		return nil
	}
	out := map[string]int{}
	for _, f := range fields {
		ws := strings.Fields(f)
		if len(ws) != 2 {
			return nil
		}
		n := 0
		switch ws[0] {
		case "a", "an", "one":
			n = 1
		default:
			vals, _, rest, ok := parseValue(ws[0])
			if !ok || len(vals) != 1 || len(rest) != 0 {
				return nil
			}
			n = vals[0]
		}
		noun := ws[1]
		if n == 1 {
			noun = plural(noun)
		}
		if countNoun(noun) != noun {
			return nil
		}
		out[noun] = n
	}
	return out
}

// plural is the plural of the family nouns a count names ("son" ->
// "sons", "child" -> "children").
func plural(w string) string {
	switch w {
	case "child":
		return "children"
	case "man":
		return "men"
	case "woman":
		return "women"
	}
	return w + "s"
}

// units are the unit words of declared quantities ("a year", "mile",
// "pound"), singular, longest first.
func (k *Knowledge) units() [][]string {
	seen := map[string]bool{}
	var out [][]string
	for _, e := range k.ents {
		k.eachFact(e, func(key, val string) {
			_, _, rest, ok := parseValue(val)
			if !ok || len(rest) == 0 || len(rest) > 3 {
				return
			}
			u := make([]string, len(rest))
			for i, w := range rest {
				u[i] = singular(w)
			}
			j := strings.Join(u, " ")
			if !seen[j] {
				seen[j] = true
				out = append(out, u)
			}
		})
	}
	slices.SortStableFunc(out, func(a, b []string) int { return len(b) - len(a) })
	return out
}

// colourNouns are fact keys whose value is a colour ("eyes: dark").
func (k *Knowledge) colourNouns() map[string]bool {
	out := map[string]bool{}
	for _, e := range k.ents {
		k.eachFact(e, func(key, val string) {
			for _, w := range prose.LatinWords(strings.ToLower(val)) {
				if _, ok := colourGroups[w]; ok {
					out[colourNoun(key)] = true
				}
			}
		})
	}
	return out
}

// eachFact calls f for every base fact and progression fact of e.
func (k *Knowledge) eachFact(e *entInfo, f func(key, val string)) {
	for key, v := range e.e.Facts {
		f(key, v)
	}
	for _, p := range e.e.Progressions {
		for key, v := range p.Facts {
			f(key, v)
		}
	}
}

// checkFacts compares the text's claims, titles and marital words with
// the entities' facts as of the chapter.
func (k *Knowledge) checkFacts(d *doc) []Finding {
	if len(k.ents) == 0 {
		return nil
	}
	eff := k.effMentions(d)
	var out []Finding
	for _, c := range k.claims(d) {
		if f, ok := k.judgeClaim(d, eff, c); ok {
			out = append(out, f)
		}
	}
	out = append(out, k.checkRanks(d)...)
	out = append(out, k.checkMarital(d)...)
	out = append(out, k.checkMarriedNames(d)...)
	out = append(out, k.checkBirthOrder(d)...)
	out = append(out, k.checkYears(d)...)
	out = append(out, k.checkCallings(d)...)
	if d.cjk {
		out = append(out, k.checkCJKFacts(d, eff)...)
		out = append(out, k.checkCJKLifespans(d, eff)...)
		out = append(out, k.checkCJKSurnames(d, eff)...)
		out = append(out, k.checkWeapons(d)...)
		out = append(out, k.checkCJKTitleSets(d)...)
	}
	return out
}

// holder finds the entity a claim at c speaks of, given a test of whether
// an entity has a fact the claim can be compared with.
func (k *Knowledge) holder(d *doc, eff []effMention, c claim, has func(*entInfo) bool) (*entInfo, float64) {
	si := d.sentenceAt(c.start)
	sent := d.sents[si]
	// A pronoun before the claim in its sentence says which gender.
	g := c.gender
	pronounAt := -1
	if c.wordIdx >= 0 {
		for j := c.wordIdx - 1; j >= 0 && d.words[j].start >= sent.start; j-- {
			switch strings.ToLower(d.words[j].s) {
			case "his", "he", "him":
				if g == 0 {
					g = 'm'
				}
				pronounAt = d.words[j].start
			case "her", "she", "hers":
				if g == 0 {
					g = 'f'
				}
				pronounAt = d.words[j].start
			}
			if pronounAt >= 0 {
				break
			}
		}
	} else {
		for p := c.start - 1; p >= sent.start && p >= c.start-30; p-- {
			if strings.HasPrefix(d.text[p:], "他") {
				g, pronounAt = 'm', p
				break
			}
			if strings.HasPrefix(d.text[p:], "她") {
				g, pronounAt = 'f', p
				break
			}
		}
	}
	fits := func(e *entInfo) bool { return g == 0 || e.gender == 0 || e.gender == g }
	// In dialogue "he" and "she" are whoever the speakers have in mind:
	// only a name in the same sentence or a possessive will do.
	quoted := d.inQuote(c.start)
	// The claim can be only one name's ("fourteen-year-old Pétya").
	if c.of > 0 {
		m := d.mentions[c.of-1]
		if len(m.ents) == 1 && has(m.ents[0]) {
			return m.ents[0], 0.85
		}
		return nil, 0
	}
	// "This black-eyed girl of eleven": whom the sentences around name.
	if c.demonstrative {
		if e := k.demonstrativeHolder(d, eff, c.start, g); e != nil && has(e) {
			return e, 0.65
		}
		return nil, 0
	}
	// 0. A kinship address right before: "薛大妹妹今年十七歲".
	if c.wordIdx < 0 {
		if e := k.kinAddressBefore(d, c.start); e != nil {
			if has(e) {
				return e, 0.7
			}
			return nil, 0
		}
	}
	// 0. "我今年八十五了" in a quotation: the speaker's own.
	if c.wordIdx < 0 && quoted {
		if e := k.cjkSpeaker(d, eff, c.start); e != nil {
			if has(e) {
				return e, 0.75
			}
			return nil, 0
		}
		// "聖僧，汝前世原是…": the listener's own.
		if e := k.cjkAddressee(d, eff, c.start); e != nil {
			if has(e) {
				return e, 0.7
			}
			return nil, 0
		}
	}
	// 1. A possessive right before: "Mr. Bennet’s five daughters".
	for _, m := range eff {
		if m.possessive && !m.relational && m.end <= c.start && c.start-m.end <= 8 {
			if has(m.ent) {
				return m.ent, 0.85
			}
			return nil, 0
		}
	}
	// 2. The first person of the claim's sentence, of the right gender.
	var inSent []effMention
	cq := d.inQuote(c.start)
	for _, m := range eff {
		// A name on the other side of a quotation mark is the speaker
		// or the listener, not the holder: "“Lydia is seventeen,” said Jane".
		if m.start >= sent.start && m.end <= sent.end && m.ent.person && !(m.possessive && !m.relational && m.start > c.start) && d.inQuote(m.start) == cq && !d.comparedWith(m.start) {
			inSent = append(inSent, m)
		}
	}
	for mi, m := range inSent {
		if m.possessive && !m.relational {
			continue // "Elizabeth’s" is a possessor, not the subject
		}
		// A pronoun before the claim points back: only names before it.
		// Unless the sentence names no one before its main clause: "since
		// he had come into an income of…, Pierre felt" (the pronoun in a
		// clause put first points forward to the subject).
		if pronounAt >= 0 && m.start > pronounAt {
			if mi == 0 && !quoted && m.start > c.end && strings.HasSuffix(strings.TrimRight(d.text[sent.start:m.start], " "), ",") && fits(m.ent) && has(m.ent) {
				return m.ent, 0.7
			}
			break
		}
		// A name after the claim is its holder only through a relation:
		// "about nineteen, was Elizabeth’s intimate friend".
		if m.start > c.start && !m.relational {
			break
		}
		if fits(m.ent) {
			if has(m.ent) {
				return m.ent, 0.8
			}
			// A Chinese sentence runs its clauses on with commas, and
			// its topic changes among them (王夫人…扶著，…听見賈母…竟是
			// 去了，享年七十三歲): the holder is the latest name before
			// the claim that opens a clause of its own.
			if c.wordIdx < 0 && m.end <= c.start {
				if h := d.cjkClauseSubject(inSent[mi:], c.start); h != nil {
					if has(h) {
						return h, 0.8
					}
					return nil, 0
				}
			}
			if pronounAt < 0 || m.start < pronounAt {
				return nil, 0
			}
		}
	}
	// 2b. A pronoun in a sentence that names one person of its gender
	// before it: "Despite Count Bezúkhov’s wealth, since he had…".
	if pronounAt >= 0 && c.wordIdx >= 0 {
		if e := k.onlyOfGender(d, eff, pronounAt, g); e != nil {
			if has(e) {
				return e, 0.7
			}
			return nil, 0
		}
	}
	// 2c. A pronoun in direct speech: the one person of its gender the
	// speech has named before it.
	if quoted && pronounAt >= 0 && c.wordIdx >= 0 {
		if e := k.quotedOnlyOfGender(d, eff, pronounAt, g); e != nil {
			if has(e) {
				return e, 0.65
			}
			return nil, 0
		}
	}
	// 2d. "You" in direct speech: the one spoken to (“Lydia! Come here.
	// You are but twelve”).
	if quoted && pronounAt < 0 && c.wordIdx >= 0 && len(inSent) == 0 {
		if e := k.englishAddressee(d, eff, c.start); e != nil {
			if has(e) {
				return e, 0.65
			}
			return nil, 0
		}
	}
	// 3. A pronoun refers back to the latest person of that gender.
	if !quoted && (pronounAt >= 0 || g != 0) {
		for i := len(eff) - 1; i >= 0; i-- {
			m := eff[i]
			if m.start >= sent.start || !m.ent.person || m.possessive && !m.relational {
				continue
			}
			if d.sentenceAt(m.start) < si-3 {
				break
			}
			if fits(m.ent) {
				if has(m.ent) {
					return m.ent, 0.7
				}
				return nil, 0
			}
		}
		// Further back, the one person of that gender the paragraph
		// names before the claim ("Charlotte herself was tolerably
		// composed. … Mr. Collins … This preservative she had now
		// obtained; and at the age of…").
		if pronounAt >= 0 && g != 0 {
			para := strings.LastIndex(d.text[:sent.start], "\n") + 1
			var only *entInfo
			for _, m := range eff {
				if m.start < para || m.start >= sent.start || !m.ent.person || !fits(m.ent) {
					continue
				}
				if only != nil && only != m.ent {
					return nil, 0
				}
				only = m.ent
			}
			if only != nil && has(only) {
				return only, 0.65
			}
		}
	}
	// A Chinese pronoun or introduction that holders.go resolves.
	if c.wordIdx < 0 {
		if e := k.refBefore(d, eff, c.start, 30); e != nil && has(e) {
			return e, 0.7
		}
		// 今年才十八歲，法名妙玉: the subject left out until a naming.
		if e := k.namedInNextClause(d, eff, c.start); e != nil && has(e) {
			return e, 0.7
		}
	}
	return nil, 0
}

// comparedWith reports whether the mention starting at p is what
// something is compared with ("he was much handsomer than Mr. Bingley",
// "寶玉比黛玉大兩歲"): the object of the comparison, never the subject a
// pronoun or a value of the clause goes back to.
func (d *doc) comparedWith(p int) bool {
	if d.cjk {
		r, _ := utf8.DecodeLastRuneInString(d.text[:p])
		return r == '比'
	}
	i := d.wordAt(p)
	return i > 0 && i < len(d.words) && d.words[i].start == p && strings.EqualFold(d.words[i-1].s, "than") && sameClause(d, i-1, i)
}

// cjkClauseSubject is the latest of ms before p that a verb or a noun
// follows: the subject of a clause. A name right before a comma or a stop
// ends its clause as an object (見了賈母，) and is passed over; nil when
// every name is.
func (d *doc) cjkClauseSubject(ms []effMention, p int) *entInfo {
	for i := len(ms) - 1; i >= 0; i-- {
		m := ms[i]
		if m.end > p || m.possessive && !m.relational {
			continue
		}
		if r, _ := utf8.DecodeRuneInString(d.text[m.end:]); prose.IsCJK(r) {
			return m.ent
		}
	}
	return nil
}

// laterValue is the first number a progression after chapter declares
// for key.
func laterValue(e *entInfo, key string, chapter int) (int, bool) {
	for _, p := range e.e.Progressions {
		if p.Chapter <= chapter {
			continue
		}
		if v, ok := p.Facts[key]; ok {
			if vals, _, _, ok := parseValue(v); ok {
				return vals[len(vals)-1], true
			}
		}
	}
	return 0, false
}

// cjkSpeaker returns the speaker of the Chinese quotation holding p when
// the quotation says 我 shortly before p: the person named before the
// quotation's speech verb (劉姥姥忙立身答道：「我今年八十五了」), or nil.
// selfNaming are the words by which a speaker gives their own name:
// after them, a person's name.
var selfNaming = []string{"叫做", "喚做", "唤做", "名喚", "名唤", "名叫", "官名叫做", "法名叫做"}

// selfNamers are how a speaker says "I" before naming themself.
var selfNamers = []string{"我", "老拙", "老身", "小人", "在下", "貧僧", "贫僧", "弟子", "老漢", "老汉", "小的", "奴家", "小弟"}

// selfNamed returns the one person the quotation q says its speaker is:
// "I" (or a humble form of it) and, in the same sentence, a naming word
// right before a person's name. Nil when there is none or several.
func (k *Knowledge) selfNamed(d *doc, eff []effMention, q span) *entInfo {
	var found *entInfo
	for _, m := range eff {
		if m.start < q.start || m.end > q.end || !m.ent.person {
			continue
		}
		named := false
		for _, w := range selfNaming {
			if strings.HasSuffix(d.text[q.start:m.start], w) {
				named = true
				break
			}
		}
		if !named {
			continue
		}
		sent := d.text[q.start:m.start]
		if i := strings.LastIndexAny(sent, "。！？"); i >= 0 {
			sent = sent[i:]
		}
		self := false
		for _, w := range selfNamers {
			if strings.Contains(sent, w) || w == "我" && strings.Contains(sent, "故") {
				self = true
				break
			}
		}
		if !self {
			continue
		}
		if found != nil && found != m.ent {
			return nil
		}
		found = m.ent
	}
	return found
}

func (k *Knowledge) cjkSpeaker(d *doc, eff []effMention, p int) *entInfo {
	qi := sort.Search(len(d.quoted), func(i int) bool { return d.quoted[i].end > p })
	if qi >= len(d.quoted) || d.quoted[qi].start > p {
		return nil
	}
	q := d.quoted[qi]
	lead := []rune(d.text[max(q.start, p-30):p])
	if !slices.Contains(lead[max(0, len(lead)-8):], '我') && !d.opensWithSelf(q, p) {
		return nil
	}
	// The speaker who names themself in the quotation ("老拙叫做陳澄。我
	// 今年七十三歲", "我家住在…。…官名叫做豬剛鬣") is who 我 is, though the
	// narration called them 老者 or 那怪.
	if e := k.selfNamed(d, eff, q); e != nil {
		return e
	}
	return taggedSpeaker(d, eff, q)
}

// speechTag is the text before quotation q when it ends with a verb of
// saying (鶯兒道：, 王夫人問襲人說), its colon and spaces cut: the tag that
// names who speaks and to whom.
func (d *doc) speechTag(q span) (string, bool) {
	before := strings.TrimRight(d.text[:q.start], " ：:，,\n")
	return before, strings.HasSuffix(before, "道") || strings.HasSuffix(before, "說") || strings.HasSuffix(before, "说")
}

// taggedSpeaker is the person named right before quotation q with a verb
// of saying (鶯兒道：, 行者忙立身答：); nil when the tag names no one, or
// only the listener (賈政對寶玉道: the name after 對).
func taggedSpeaker(d *doc, eff []effMention, q span) *entInfo {
	before, ok := d.speechTag(q)
	if !ok {
		return nil
	}
	for i := len(eff) - 1; i >= 0; i-- {
		m := eff[i]
		if m.end > len(before) {
			continue
		}
		// The name, then a few characters of adverbs and verbs (忙立身答).
		if utf8.RuneCountInString(before[m.end:]) > 8 || d.inQuote(m.start) || !m.ent.person || m.possessive {
			return nil
		}
		if r, _ := utf8.DecodeLastRuneInString(before[:m.start]); strings.ContainsRune(listenerMarks, r) {
			return nil
		}
		return m.ent
	}
	return nil
}

// holderInScope is the last resort for counts: the only entity with the
// fact among those the text mentions near pos and their relations.
func (k *Knowledge) holderInScope(eff []effMention, pos int, has func(*entInfo) bool) *entInfo {
	var found *entInfo
	seen := map[*entInfo]bool{}
	consider := func(e *entInfo) bool {
		if e == nil || seen[e] {
			return true
		}
		seen[e] = true
		if has(e) {
			if found != nil && found != e {
				return false
			}
			found = e
		}
		return true
	}
	for _, m := range eff {
		if abs(m.start-pos) > 600 {
			continue
		}
		if !consider(m.ent) {
			return nil
		}
		for _, r := range m.ent.e.Relations {
			if !consider(k.byResource(r.To)) {
				return nil
			}
		}
	}
	return found
}

func (k *Knowledge) judgeClaim(d *doc, eff []effMention, c claim) (Finding, bool) {
	var key, declared string
	match := func(e *entInfo) (string, string, bool) {
		facts := d.factsOf(e)
		switch c.kind {
		case "age":
			for kk, v := range facts {
				if ageKeys[strings.ToLower(kk)] {
					return kk, v, true
				}
			}
		case "count":
			for kk, v := range facts {
				if countNoun(kk) == c.noun {
					return kk, v, true
				}
			}
			for kk, v := range facts {
				if _, ok := countedParts(v)[c.noun]; ok {
					return kk, v, true
				}
			}
		case "colour":
			for kk, v := range facts {
				if colourNoun(kk) == c.noun {
					return kk, v, true
				}
			}
		case "qty":
			var fallback [2]string
			frame := moneyFrame(d, c.wordIdx)
			for kk, v := range facts {
				_, _, rest, ok := parseValue(v)
				if !ok || len(rest) == 0 {
					continue
				}
				if frame != "" && !keyHasStem(kk, frame) {
					continue // "his salary of twelve hundred rubles" is no debt
				}
				u := make([]string, len(rest))
				for i, w := range rest {
					u[i] = singular(w)
				}
				if strings.Join(u, " ") != c.noun {
					continue
				}
				if i := strings.Index(kk, "_to_"); i >= 0 {
					if c.place != "" && placeMatches(kk[i+4:], c.place) {
						return kk, v, true
					}
					continue
				}
				if i := strings.Index(kk, "_from_"); i >= 0 {
					if c.place != "" && placeMatches(kk[i+6:], c.place) {
						return kk, v, true
					}
					continue
				}
				fallback = [2]string{kk, v}
			}
			if fallback[0] != "" && c.place == "" {
				return fallback[0], fallback[1], true
			}
		}
		return "", "", false
	}
	has := func(e *entInfo) bool { _, _, ok := match(e); return ok }
	var e *entInfo
	conf := 0.0
	if c.kind == "qty" && c.place != "" {
		// A distance: the other place of the sentence with a distance to
		// the named one.
		si := d.sentenceAt(c.start)
		for _, m := range eff {
			if m.start >= d.sents[si].start && m.end <= d.sents[si].end && has(m.ent) {
				e, conf = m.ent, 0.85
				break
			}
		}
	} else {
		if c.kind == "qty" && !c.owned {
			// "Mr. Darcy! … Eight thousand a year!": an amount said on
			// its own in a speech (factkeys.go).
			e = k.exclaimedAmountHolder(d, eff, c, has)
			if e == nil {
				// A bare reply to a question about "he" or "she" (“Is he
				// married or single?” “Oh, single! … five thousand a year.”).
				if e = k.answerHolder(d, eff, c.start); e != nil && !has(e) {
					e = nil
				}
			}
			if e == nil {
				return Finding{}, false
			}
			conf = 0.6
		} else {
			e, conf = k.holder(d, eff, c, has)
		}
		// Whose count it is, when no holder was found: anyone in scope
		// with such a fact, unless a possessive pronoun right before it
		// says whose ("her two daughters" is the count of the woman the
		// pronoun stands for, who may have no such fact).
		if e == nil && c.kind == "count" && !possessiveBefore(d, c.wordIdx) {
			e, conf = k.holderInScope(eff, c.start, has), 0.6
		}
	}
	if e == nil {
		return Finding{}, false
	}
	key, declared, _ = match(e)
	stated := d.text[c.start:c.end]
	contradicts := false
	switch c.kind {
	case "age", "count":
		vals, approx, _, ok := parseValue(declared)
		if n, part := countedParts(declared)[c.noun]; c.kind == "count" && part {
			vals, approx, ok = []int{n}, false, true
		}
		if !ok {
			return Finding{}, false
		}
		dlo, dhi := vals[0], vals[len(vals)-1]
		if approx {
			dlo, dhi = dlo-2, dhi+2
		}
		contradicts = c.hi < dlo || c.lo > dhi
		// Ages grow between the chapters that state them: 80 as of
		// chapter 71 and 83 as of chapter 110 allow 81 in chapter 88,
		// though not in chapter 71 itself.
		if _, since := e.e.FactSource(key, d.chapter); c.kind == "age" && c.lo > dhi && since < d.chapter {
			if later, ok := laterValue(e, key, d.chapter); ok && c.hi <= later {
				contradicts = false
			} else if !ok && since == 0 && c.lo-dhi <= 3 {
				// An age only the front matter gives is the one the
				// story opens with: a few years more later on is time
				// passing ("Sónya now was sixteen" for 15), many more
				// is another age.
				contradicts = false
			} else if !ok && since > 0 && c.lo-dhi <= (d.chapter-since)/chaptersPerYear {
				// An age declared as of a chapter is the one of that
				// chapter: far enough on, a year or two more is time
				// passing ("Pétya was now a handsome rosy lad of
				// fifteen", fifty chapters after 13).
				contradicts = false
			}
		}
		// "two daughters married" counts some of them: fewer than
		// declared contradicts only when the text gives the total
		// ("he had three daughters").
		if c.kind == "count" && c.hi < dlo && !c.total {
			contradicts = false
		}
	case "qty":
		vals, approx, _, ok := parseValue(declared)
		if !ok {
			return Finding{}, false
		}
		contradicts = true
		for _, dv := range vals {
			for _, sv := range c.vals {
				if dv == sv || approx && abs(dv-sv)*5 <= dv {
					contradicts = false
				}
			}
		}
	case "colour":
		contradicts = true
		for _, w := range prose.LatinWords(strings.ToLower(declared)) {
			if colourGroups[w] == colourGroups[c.colour] {
				contradicts = false
			}
		}
	}
	if !contradicts {
		return Finding{}, false
	}
	line, since := e.e.FactSource(key, d.chapter)
	return Finding{
		Type:       TypeFact,
		Start:      c.start,
		End:        c.end,
		Message:    fmt.Sprintf("the text says %q, but %s's %s is %q as of chapter %d", stated, e.e.Name, key, declared, d.chapter),
		Evidence:   Evidence{Path: e.e.Path, Resource: e.e.Resource, Key: key, Value: declared, Line: line, Since: since},
		Suggestion: claimFix(c, stated, declared),
		Confidence: conf,
	}, true
}

// claimFix is the text that would state the declared value in place of
// the claim: the number in the claim's own form ("seventeen" -> "fifteen",
// "Six daughters" -> "Five daughters"), the declared amount or colour.
// It is "" when the declared value is not a plain replacement (an
// approximate age, a range).
func claimFix(c claim, stated, declared string) string {
	switch c.kind {
	case "age", "count":
		vals, approx, rest, ok := parseValue(declared)
		if n, part := countedParts(declared)[c.noun]; c.kind == "count" && part {
			vals, approx, rest, ok = []int{n}, false, nil, true
		}
		if !ok || approx || len(vals) != 1 || len(rest) != 0 {
			return ""
		}
		if c.wordIdx < 0 { // Chinese: "十五岁", "两个女儿"
			return ""
		}
		num := prose.NumberWords(vals[0])
		if r, _ := utf8.DecodeRuneInString(stated); r >= '0' && r <= '9' {
			num = fmt.Sprint(vals[0])
		}
		if num == "" {
			return ""
		}
		if r, _ := utf8.DecodeRuneInString(stated); unicode.IsUpper(r) {
			num = capitalize(num)
		}
		if c.kind == "count" {
			i := strings.LastIndexAny(stated, " \n")
			if i < 0 {
				return ""
			}
			noun := stated[i+1:]
			if vals[0] == 1 {
				noun = strings.TrimSuffix(noun, "s")
			} else if !strings.HasSuffix(noun, "s") && c.lo == 1 {
				noun += "s"
			}
			return num + " " + noun
		}
		return num
	case "qty":
		return declared
	case "colour":
		for _, w := range prose.LatinWords(declared) {
			if _, ok := colourGroups[strings.ToLower(w)]; ok {
				return w
			}
		}
	}
	return ""
}

// roadNouns after a place's name make a thing of the place: "the
// Smolénsk highroad", "the Moscow gate".
var roadNouns = wordSet("road", "highroad", "highway", "turnpike", "gate", "gates", "bridge", "ferry", "station", "frontier", "border")

// possessivePronouns own the noun after them.
var possessivePronouns = wordSet("his", "her", "their", "its", "my", "your", "our")

// possessiveBefore reports whether the word before word i is a possessive
// pronoun.
func possessiveBefore(d *doc, i int) bool {
	return i > 0 && i < len(d.words) && possessivePronouns[strings.ToLower(d.words[i-1].s)] && sameClause(d, i-1, i)
}

// moneyNouns name what a sum of money is ("a salary of", "a debt of").
var moneyNouns = wordSet("salary", "income", "fortune", "debt", "debts", "rent", "rents", "dowry", "portion", "pension",
	"price", "loan", "allowance", "wages", "revenue", "revenues", "legacy", "bribe", "fee", "stake", "stakes")

// moneyFrame is the money noun a quantity at word i is "of" ("his salary
// of twelve hundred rubles"), lower-cased, or "".
func moneyFrame(d *doc, i int) string {
	if i < 2 || i >= len(d.words) || !strings.EqualFold(d.words[i-1].s, "of") || !sameClause(d, i-2, i) {
		return ""
	}
	if w := strings.ToLower(d.words[i-2].s); moneyNouns[w] {
		return w
	}
	return ""
}

// keyHasStem reports whether a word of the fact key shares its stem with
// w (debt of gambling_debt, income of annual_income).
func keyHasStem(key, w string) bool {
	for _, kw := range keyWordsOf(key) {
		if kw == w || stemsMatch(w, kw) {
			return true
		}
	}
	return false
}

func placeMatches(key, place string) bool {
	norm := func(s string) string {
		return strings.NewReplacer("-", "_", " ", "_").Replace(prose.Unaccented(s))
	}
	// "distance_from_smolensk" names Smolénsk: keys are written plain.
	// The key may name more of the place than the text's capitals do
	// ("smolensk_highroad" for "the Smolénsk highroad").
	k, p := norm(key), norm(place)
	return k == p || p != "" && strings.HasPrefix(k, p+"_")
}

// checkRanks: a title of the same class as an entity's rank before its
// name ("Captain Fitzwilliam" for Colonel Fitzwilliam).
func (k *Knowledge) checkRanks(d *doc) []Finding {
	var out []Finding
	for i := 0; i+1 < len(d.words); i++ {
		title := d.words[i].s
		class := rankClass[title]
		if class == "" || !nameGap(d.between(i, i+1)) {
			continue
		}
		name := d.words[i+1].s
		for _, e := range k.ents {
			declared, ok := e.titled[name]
			if !ok || rankClass[declared] != class {
				continue
			}
			facts := d.factsOf(e)
			key := "name"
			for kk, v := range facts {
				lk := strings.ToLower(kk)
				if (strings.Contains(lk, "rank") || lk == "title") && rankClass[capitalize(v)] == class {
					declared, key = capitalize(v), kk
					break
				}
			}
			if strings.EqualFold(title, declared) || k.book.usedNearby(d.text[d.words[i].start:d.words[i+1].end], d.chapter) {
				continue
			}
			line, since := e.e.FactSource(key, d.chapter)
			value := facts[key]
			if key == "name" {
				value, line = e.e.Name, e.e.KeyLines["name"]
			}
			out = append(out, Finding{
				Type:       TypeFact,
				Start:      d.words[i].start,
				End:        d.words[i].end,
				Message:    fmt.Sprintf("%s %s: %s's %s is %q as of chapter %d", title, name, e.e.Name, key, value, d.chapter),
				Evidence:   Evidence{Path: e.e.Path, Resource: e.e.Resource, Key: key, Value: value, Line: line, Since: since},
				Suggestion: declared,
				Confidence: 0.85,
			})
			break
		}
	}
	// "I'm Major Denísov": a rank before the name of someone whose
	// declared rank (of the same class) is another, the name not itself
	// declared with a title.
	for _, m := range d.mentions {
		i := m.firstWord - 1
		if i < 0 || len(m.ents) != 1 || !m.ents[0].person || !nameGap(d.between(i, i+1)) {
			continue
		}
		// "General Prince Bagratión": a title of nobility between the
		// rank and the name.
		if nobleTitles[d.words[i].s] && i > 0 && nameGap(d.between(i-1, i)) && rankClass[d.words[i-1].s] == "military" {
			i--
		}
		title := capitalize(d.words[i].s)
		class := rankClass[title]
		// "squadron commander Rostóv" names a post, not a rank; a
		// lower-case rank is one only joined to its arm ("cavalry-major
		// Denísov", "staff-captain Túshin").
		hyphened := i > 0 && d.between(i-1, i) == "-"
		if class == "" || title != d.words[i].s && !hyphened || slices.ContainsFunc(out, func(f Finding) bool { return f.Start == d.words[i].start }) {
			continue
		}
		e := m.ents[0]
		facts := d.factsOf(e)
		key := firstKey(facts, "rank", "military_rank")
		words := rankWords(facts[key])
		if key == "" || len(words) == 0 {
			continue
		}
		// "Lieutenant-General" is one rank, another than "General in
		// Chief" or "Major General": the compound against the declared
		// rank's head. A file that says only "general" may mean any.
		if hyphened && rankClass[d.words[i-1].s] == class && class == "military" {
			if head := rankHead(facts[key]); len(head) > 0 && rankClass[head[len(head)-1]] == class && len(words) > 1 &&
				!slices.Equal(head, []string{capitalize(d.words[i-1].s), title}) {
				line, since := e.e.FactSource(key, d.chapter)
				out = append(out, Finding{
					Type:       TypeFact,
					Start:      d.words[i-1].start,
					End:        d.words[i].end,
					Message:    fmt.Sprintf("%s %s: %s's %s is %q as of chapter %d", d.text[d.words[i-1].start:d.words[i].end], d.text[m.start:m.end], e.e.Name, key, facts[key], d.chapter),
					Evidence:   Evidence{Path: e.e.Path, Resource: e.e.Resource, Key: key, Value: facts[key], Line: line, Since: since},
					Suggestion: facts[key],
					Confidence: 0.75,
				})
			}
			continue
		}
		if rankClass[words[len(words)-1]] != class || containsString(words, title) {
			continue
		}
		if k.book.usedNearby(d.text[d.words[i].start:m.end], d.chapter) {
			continue
		}
		line, since := e.e.FactSource(key, d.chapter)
		fix := matchCase(strings.Join(words, " "), d.words[i].s)
		if hyphened {
			// Only the rank is replaced; its arm stays as written.
			fix = strings.ToLower(words[len(words)-1])
		}
		out = append(out, Finding{
			Type:       TypeFact,
			Start:      d.words[i].start,
			End:        d.words[i].end,
			Message:    fmt.Sprintf("%s %s: %s's %s is %q as of chapter %d", d.words[i].s, d.text[m.start:m.end], e.e.Name, key, facts[key], d.chapter),
			Evidence:   Evidence{Path: e.e.Path, Resource: e.e.Resource, Key: key, Value: facts[key], Line: line, Since: since},
			Suggestion: fix,
			Confidence: 0.8,
		})
	}
	return out
}

// nobleTitles stand between a military rank and the name ("General
// Prince Bagratión", "Colonel Prince Orlóv").
var nobleTitles = wordSet("Prince", "Princess", "Count", "Countess", "Baron", "Sir", "Lord")

// rankHead is a declared rank's words without a qualifier after "in" or
// "of" ("General in Chief" is a General's rank, "Colonel of the Guards" a
// Colonel's), capitalised.
func rankHead(v string) []string {
	words := rankWords(v)
	for i, w := range words {
		if i > 0 && (w == "In" || w == "Of") {
			return words[:i]
		}
	}
	return words
}

func capitalize(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return strings.ToUpper(string(r)) + strings.ToLower(s[n:])
}

// checkMarital: "wife of" where the entity is a widow (or unmarried), and
// "widow of" where she is married, in apposition to the name or before
// the name of the (late) spouse.
func (k *Knowledge) checkMarital(d *doc) []Finding {
	var out []Finding
	for wi := 0; wi+1 < len(d.words); wi++ {
		w := strings.ToLower(d.words[wi].s)
		var role string
		switch w {
		case "wife", "husband":
			role = "spouse"
		case "widow", "widower":
			role = "widowed"
		default:
			continue
		}
		if strings.ToLower(d.words[wi+1].s) != "of" {
			continue
		}
		// Whose wife? Apposition: "Lady Catherine de Bourgh, wife of".
		var e *entInfo
		for _, m := range d.mentions {
			if m.end > d.words[wi].start {
				break
			}
			gap := strings.TrimSpace(d.text[m.end:d.words[wi].start])
			if (gap == "," || gap == ", the" || gap == ", a") && len(m.ents) == 1 {
				e = m.ents[0]
			}
		}
		// Or: "wife of Sir Lewis de Bourgh" where that is a late spouse.
		after := d.text[d.words[wi+1].end:min(len(d.text), d.words[wi+1].end+80)]
		for _, cand := range k.ents {
			if e != nil {
				break
			}
			for key, v := range d.factsOf(cand) {
				lk := strings.ToLower(key)
				if (strings.Contains(lk, "husband") || strings.Contains(lk, "wife") || strings.Contains(lk, "spouse")) && len(v) > 3 && strings.HasPrefix(strings.TrimSpace(after), v) {
					e = cand
					break
				}
			}
		}
		if e == nil {
			continue
		}
		facts := d.factsOf(e)
		sk := firstKey(facts, "marital_status", "marital status", "status")
		status := strings.ToLower(facts[sk])
		bad := false
		switch status {
		case "widowed", "widow", "widower":
			bad = role == "spouse"
		case "married":
			bad = role == "widowed"
		}
		if !bad {
			continue
		}
		line, since := e.e.FactSource(sk, d.chapter)
		fix := map[string]string{"wife": "widow", "husband": "widower", "widow": "wife", "widower": "husband"}[w]
		out = append(out, Finding{
			Type:       TypeFact,
			Start:      d.words[wi].start,
			End:        d.words[wi].end,
			Suggestion: matchCase(fix, d.words[wi].s),
			Message:    fmt.Sprintf("the text says %q, but %s's %s is %q as of chapter %d", d.words[wi].s, e.e.Name, sk, facts[sk], d.chapter),
			Evidence:   Evidence{Path: e.e.Path, Resource: e.e.Resource, Key: sk, Value: facts[sk], Line: line, Since: since},
			Confidence: 0.8,
		})
	}
	return out
}

// firstKey returns the first of keys that facts has, or the last key.
func firstKey(facts map[string]string, keys ...string) string {
	for _, k := range keys {
		if _, ok := facts[k]; ok {
			return k
		}
	}
	return keys[len(keys)-1]
}

// countNoun is the noun a count fact counts: "daughters" for
// "daughters", "number_of_daughters" or "children_count"; the key itself
// for a CJK key; "" when the key counts nothing.
func countNoun(key string) string {
	if prose.HasCJK(key) {
		return key
	}
	words := strings.FieldsFunc(strings.ToLower(key), func(r rune) bool { return r == '_' || r == '-' || r == ' ' })
	// "miles_from_meryton" measures a way, it counts nothing.
	if slices.ContainsFunc(words, func(w string) bool { return w == "from" || w == "to" || w == "distance" || measureNouns[w] }) {
		return ""
	}
	for i := len(words) - 1; i >= 0; i-- {
		w := words[i]
		if w == "children" || w == "people" || w == "men" || w == "women" || (strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && len(w) > 3 && w != "status" && w != "years") {
			return w
		}
	}
	return ""
}

// measureNouns are units, not things counted.
var measureNouns = wordSet("miles", "leagues", "versts", "yards", "feet", "inches", "hours", "minutes", "days", "weeks", "months")

// colourNoun is the thing a colour fact colours: "eyes" for "eyes",
// "eye_colour" or "eye color"; "hair" for "hair_colour".
func colourNoun(key string) string {
	k := strings.ToLower(key)
	switch {
	case strings.Contains(k, "eye"):
		return "eyes"
	case strings.Contains(k, "hair"):
		return "hair"
	}
	return k
}

// checkMarriedNames: a married name ("Mrs. Wickham") for someone who is
// not married as of the chapter.
func (k *Knowledge) checkMarriedNames(d *doc) []Finding {
	var out []Finding
	for _, m := range d.mentions {
		if len(m.ents) != 1 || len(m.seq.words) < 2 || m.seq.words[0] != "Mrs" || d.inQuote(m.start) {
			continue
		}
		e := m.ents[0]
		facts := d.factsOf(e)
		sk := firstKey(facts, "marital_status", "marital status", "status")
		switch strings.ToLower(facts[sk]) {
		case "unmarried", "single", "engaged", "betrothed":
		default:
			continue
		}
		line, since := e.e.FactSource(sk, d.chapter)
		out = append(out, Finding{
			Type:       TypeFact,
			Start:      m.start,
			End:        m.end,
			Message:    fmt.Sprintf("%q is a married name, but %s's %s is %q as of chapter %d", d.text[m.start:m.end], e.e.Name, sk, facts[sk], d.chapter),
			Evidence:   Evidence{Path: e.e.Path, Resource: e.e.Resource, Key: sk, Value: facts[sk], Line: line, Since: since},
			Suggestion: e.e.Name,
			Confidence: 0.7,
		})
	}
	return out
}
