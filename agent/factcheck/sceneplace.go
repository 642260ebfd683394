package factcheck

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Where a scene is set is the last place the narration has come to or
// settled in: "they reached Mr. Gardiner's house", "Sir William stayed
// only a week at Hunsford", 來至榮府, 進了大觀園. An English chapter that
// opens without such a move goes on where the one before it ended; a
// Chinese 回 turns to another thread (卻說, 話表) without one, so its
// scene is only what it narrates itself. An away character acting in a
// scene set where their file puts them ("Jane looked well" in the
// Gardiners' house, Jane away in London) is where they should be; one
// put into a scene by mistake is elsewhere, where no arrival at their
// place comes before.

// arrival is a place the narration comes to: a location entity, or the
// house of a person, whose declared home says where it is.
type arrival struct {
	at    int      // offset of the place's name
	place *entInfo // the location, or the person whose house it is
	house bool     // place is a person: "Mr. Gardiner's house"
}

// arrivalVerbs come before the place the narration arrives at or
// settles in, with or without a preposition.
var arrivalVerbs = wordSet("arrived", "reached", "came", "got", "entered", "returned",
	"stayed", "remained", "settled", "arriving", "reaching", "entering")

// arrivalPreps may stand between an arrival verb and its place.
var arrivalPreps = wordSet("at", "to", "in", "into", "back", "the", "only", "a", "week", "day", "few", "days", "weeks")

// houseWords after a person's possessive make the person's home a place.
var houseWords = wordSet("house", "home", "residence", "lodgings", "door", "hall")

// cjkArrivals before a place bring the narration there (folded).
var cjkArrivals = []string{"到了", "来至", "进了", "来到", "走到", "回到", "到得"}

// homeKeys are the facts of a person that say where their house is.
var homeKeys = []string{"home", "residence", "address", "city", "town", "seat", "住處", "住处", "住所", "家"}

// regionKeys are the facts of a place that name a place holding it.
var regionKeys = []string{"county", "city", "town", "region", "country", "province", "district", "parish", "part_of", "within", "located", "所在", "位置", "屬", "属", "州", "郡", "國", "国"}

// arrivals lists the arrivals narrated in d, in order.
func (k *Knowledge) arrivals(d *doc) []arrival {
	var out []arrival
	for _, m := range d.mentions {
		if len(m.ents) != 1 || d.inQuote(m.start) {
			continue
		}
		e := m.ents[0]
		house := false
		if e.person {
			if m.firstWord < 0 || !m.possessive {
				continue
			}
			rest := d.text[m.end:min(len(d.text), m.end+24)]
			rest = strings.TrimLeft(rest, "’'s ")
			w := rest
			if i := strings.IndexFunc(rest, func(r rune) bool { return !unicode.IsLetter(r) }); i >= 0 {
				w = rest[:i]
			}
			if !houseWords[strings.ToLower(w)] {
				continue
			}
			house = true
		}
		if m.firstWord < 0 {
			if k.cjkArrivesAt(d, m) {
				out = append(out, arrival{at: m.start, place: e})
			}
			continue
		}
		// Back over "the", a preposition, a stay's length.
		j := m.firstWord - 1
		for n := 0; n < 4 && j >= 0 && arrivalPreps[strings.ToLower(d.words[j].s)] && sameClause(d, j, j+1); n++ {
			j--
		}
		if j >= 0 && arrivalVerbs[strings.ToLower(d.words[j].s)] && sameClause(d, j, j+1) {
			out = append(out, arrival{at: m.start, place: e, house: house})
		}
	}
	return out
}

// cjkArrivesAt reports whether an arrival verb stands right before m, a
// CJK place: 來至榮府, 到了花果山.
func (k *Knowledge) cjkArrivesAt(d *doc, m mention) bool {
	before := d.text[max(0, m.start-9):m.start]
	for !utf8.ValidString(before) {
		before = before[1:]
	}
	folded := string(k.foldRunes(before))
	for _, v := range cjkArrivals {
		if strings.HasSuffix(folded, v) {
			return true
		}
	}
	return false
}

// sceneCarry is how many chapters back a scene's place is carried when
// no chapter between tells of a move.
const sceneCarry = 10

// sceneArrival is the last arrival before offset at in d: in d, else (in
// English) in the manuscript's chapter before the passage d is, else at
// the end of the chapters before it, up to sceneCarry of them.
func (k *Knowledge) sceneArrival(d *doc, at int) (arrival, bool) {
	var last arrival
	found := false
	for _, a := range k.arrivals(d) {
		if a.at < at {
			last, found = a, true
		}
	}
	if found {
		return last, true
	}
	b := k.book
	if b == nil || b.byNumber == nil || d.cjk {
		return arrival{}, false
	}
	if text, ok := b.byNumber[d.chapter]; ok && len(d.text) < len(text)*3/4 {
		if off, ok := placeIn(text, d.text); ok {
			for _, a := range k.chapterArrivals(d.chapter) {
				if a.at < off {
					last, found = a, true
				}
			}
			if found {
				return last, true
			}
		}
	}
	for c := d.chapter - 1; c >= d.chapter-sceneCarry && c > 0; c-- {
		if as := k.chapterArrivals(c); len(as) > 0 {
			return as[len(as)-1], true
		}
	}
	return arrival{}, false
}

// chapterArrivals are the arrivals of the manuscript's chapter n, made
// on first use.
func (k *Knowledge) chapterArrivals(n int) []arrival {
	b := k.book
	b.mu.Lock()
	as, ok := b.arrivals[n]
	b.mu.Unlock()
	if ok {
		return as
	}
	if text, ok := b.byNumber[n]; ok {
		as = k.arrivals(k.analyze(text, n))
	}
	b.mu.Lock()
	if b.arrivals == nil {
		b.arrivals = map[int][]arrival{}
	}
	b.arrivals[n] = as
	b.mu.Unlock()
	return as
}

// sceneIsAt reports whether the scene around m is set at loc, the
// declared location of m's owner: the place last arrived at is loc, lies
// in it, or holds it, by its names, its facts (a county, a city), or, for
// a person's house, the person's declared home.
func (k *Knowledge) sceneIsAt(d *doc, m mention, loc string) bool {
	if negatedPlace(loc) {
		return false
	}
	a, ok := k.sceneArrival(d, m.start)
	if !ok {
		return false
	}
	var names []string
	facts := d.factsOf(a.place)
	if a.house {
		for _, key := range homeKeys {
			if v := facts[key]; v != "" {
				names = append(names, v)
			}
		}
		// Where the person is: one whose house the narration reaches
		// is there to receive it.
		if v := facts["location"]; v != "" {
			names = append(names, v)
		}
	} else {
		names = append(names, a.place.e.Names()...)
		for _, key := range regionKeys {
			if v := facts[key]; v != "" {
				names = append(names, v)
			}
		}
	}
	for _, n := range names {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if containsPlace(n, loc) || containsPlace(loc, n) {
			return true
		}
	}
	return false
}

// negatedPlace reports whether a declared location says only where its
// owner is not ("away from Hertfordshire", 不在京中): a scene there is no
// proof of anything.
func negatedPlace(loc string) bool {
	l := strings.ToLower(loc)
	for _, w := range []string{"away from", "outside", "not at", "not in", "不在", "離開", "离开"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}
