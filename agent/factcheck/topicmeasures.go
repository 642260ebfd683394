package factcheck

import (
	"slices"
	"strings"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// A measure (a number with its unit: miles, pounds, 里, 難) need not name
// its holder in its clause. A text tells how far, how wide or how much of
// what its paragraph is about, or answers a question that named it:
// "Mr. Gardiner expressed a wish of going round the whole park … it was
// four miles round"; 「我們到雷音有多少遠？」行者道：「十萬八千里…」. The
// reading here is by the kind of the value, not by a construction: a
// number with the unit of a declared measure, framed as that measure (a
// word of its key, or of the dimension the key names, in its clause or in
// the question it answers), whose clause names no holder, where the
// paragraph names one place with a measure so framed, and the declared
// value is not stated there too. Only places are read so: a person's
// measure (a somersault's 十萬八千里) is not every distance a paragraph
// about them walks, and the other fact checks find its holder by name.

// measureFrames are the words, both scripts, by which a text says which
// dimension a number measures, by the word of a key that names it. A
// key's own English words frame it as well.
var measureFrames = map[string][]string{
	"distance":      {"distance", "distant", "far", "journey", "遠", "远", "遙", "遥", "路程", "相去", "相距"},
	"circumference": {"round", "around", "circuit", "compass", "周圍", "周围", "週圍", "方圓", "方圆", "圍", "围"},
	"perimeter":     {"round", "around", "circuit", "compass", "周圍", "周围", "週圍", "方圓", "方圆", "圍", "围"},
	"width":         {"wide", "broad", "breadth", "across", "寬", "宽", "闊", "阔", "廣", "广", "徑", "径", "橫", "横"},
	"breadth":       {"wide", "broad", "width", "across", "寬", "宽", "闊", "阔", "廣", "广", "徑", "径", "橫", "横"},
	"length":        {"long", "長", "长"},
	"height":        {"high", "tall", "高"},
	"depth":         {"deep", "深"},
}

// keyFunctionWords are the words of a key that name no dimension.
var keyFunctionWords = wordSet("to", "from", "of", "the", "a", "an", "in", "at", "per", "and", "with", "by")

// measureFact is a declared measure: its key, value, number and unit.
type measureFact struct {
	e        *entInfo
	key, val string
	n        int
	approx   bool
	unit     string   // English: singular unit words joined by spaces; Chinese: the folded unit
	frames   []string // the words that frame it: English lower case, Chinese folded
	// things are the English words of its key that name the thing
	// measured, not a dimension ("park" of park_circumference).
	things []string
	cjkKey string // a Chinese key, folded ("" otherwise)
	value  string // the declared value as the text writes it: lower case or folded
}

// readMeasure reads a declared English value with one number and a unit
// ("ten miles", "within thirty miles", "forty-three thousand rubles"):
// any words before the number are qualifiers of it.
func readMeasure(v string) (n int, approx bool, unit string, ok bool) {
	ws := wordsOf(v)
	gap := func(a, b int) string { return v[ws[a].end:ws[b].start] }
	for i := range ws {
		num, found := parseNumberAt(ws, i, gap)
		if !found {
			continue
		}
		if i > 2 || len(num.vals) != 1 {
			return 0, false, "", false
		}
		for _, w := range ws[:i] {
			if approxWords[strings.ToLower(w.s)] {
				approx = true
			}
		}
		rest := ws[num.last+1:]
		if len(rest) == 0 || len(rest) > 3 {
			return 0, false, "", false
		}
		u := make([]string, len(rest))
		for j, w := range rest {
			u[j] = singular(strings.ToLower(w.s))
		}
		return num.vals[0], approx, strings.Join(u, " "), true
	}
	return 0, false, "", false
}

// measureFacts lists the places' declared measures as of d's chapter.
func (k *Knowledge) measureFacts(d *doc) []measureFact {
	var out []measureFact
	for _, e := range k.ents {
		for key, val := range d.factsOf(e) {
			if e.person {
				continue
			}
			m := measureFact{e: e, key: key, val: strings.TrimSpace(val)}
			if d.cjk {
				u, n, ok := k.cjkQuantity(val)
				if !ok || u == "" {
					continue
				}
				m.unit, m.n = u, n
				if prose.HasCJK(key) {
					m.cjkKey = string(k.foldRunes(key))
				}
				m.value = string(k.foldRunes(m.val))
			} else {
				n, approx, u, ok := readMeasure(val)
				if !ok {
					continue
				}
				m.unit, m.n, m.approx = u, n, approx
				m.value = strings.ToLower(m.val)
			}
			otherEnd := false
			for _, w := range strings.Fields(normKey(key)) {
				// The place after "to" or "from", all its words, is the
				// other end of a distance, not what is measured:
				// "retreated eighty miles—to beyond Moscow" is no
				// distance from Moscow, and the hills of "marching
				// thirty miles … across roadless hills" no distance
				// from Bald Hills.
				if w == "to" || w == "from" {
					otherEnd = true
				}
				if otherEnd || keyFunctionWords[w] || prose.HasCJK(w) {
					continue
				}
				if !d.cjk {
					m.frames = append(m.frames, w)
					if measureFrames[w] == nil {
						m.things = append(m.things, w)
					}
				}
				for _, f := range measureFrames[w] {
					if prose.HasCJK(f) == d.cjk {
						if d.cjk {
							f = string(k.foldRunes(f))
						}
						m.frames = append(m.frames, f)
					}
				}
			}
			out = append(out, m)
		}
	}
	return out
}

// statedMeasure is a number with a unit in the text.
type statedMeasure struct {
	start, end int
	vals       []int
	unit       string
}

// statedMeasures finds the numbers of d followed by the unit of some
// declared measure: English quantity claims that name no place ("five
// miles from Meryton" is the distance checks'), Chinese numerals before a
// unit.
func (k *Knowledge) statedMeasures(d *doc, units map[string]bool) []statedMeasure {
	var out []statedMeasure
	if !d.cjk {
		for _, c := range k.claims(d) {
			if c.kind == "qty" && c.place == "" && units[c.noun] {
				out = append(out, statedMeasure{c.start, c.end, c.vals, c.noun})
			}
		}
		return out
	}
	rs := d.frunes
	for i := 0; i < len(rs); i++ {
		if !prose.IsCJKNumeral(rs[i]) || i > 0 && prose.IsCJKNumeral(rs[i-1]) {
			continue
		}
		j := i
		for j < len(rs) && prose.IsCJKNumeral(rs[j]) {
			j++
		}
		v, ok := prose.ParseCJKNumber(string(rs[i:j]))
		if ok {
			for u := range units {
				ur := []rune(u)
				if j+len(ur) <= len(rs) && slices.Equal(rs[j:j+len(ur)], ur) {
					out = append(out, statedMeasure{d.roff[i], d.roff[j+len(ur)], []int{v}, u})
					break
				}
			}
		}
		i = j - 1
	}
	return out
}

// lineAround is the byte span of the line (a paragraph) holding p.
func lineAround(text string, p int) (int, int) {
	from := strings.LastIndexByte(text[:p], '\n') + 1
	to := strings.IndexByte(text[p:], '\n')
	if to < 0 {
		return from, len(text)
	}
	return from, p + to
}

// lineBefore is the span of the last non-blank line before byte from.
func lineBefore(text string, from int) (int, int, bool) {
	t := strings.TrimRight(text[:from], "\n\r \t")
	if t == "" {
		return 0, 0, false
	}
	return strings.LastIndexByte(t, '\n') + 1, len(t), true
}

// clauseAround is the byte span of the clause holding [start, end): back
// and on to a comma, a stop or a quotation mark.
func clauseAround(text string, start, end int) (int, int) {
	const marks = "，,；;。.!！?？：:「」『』“”\"\n"
	from := strings.LastIndexAny(text[:start], marks) + 1
	to := strings.IndexAny(text[end:], marks)
	if to < 0 {
		return from, len(text)
	}
	return from, end + to
}

// questionBefore is the span of the sentence before the one holding p
// when it asks a question ("An easy distance do you call it?",
// 「我們到雷音有多少遠？」): the answer measures what it asks about.
func (d *doc) questionBefore(p int) (int, int, bool) {
	si := d.sentenceAt(p)
	if si == 0 {
		return 0, 0, false
	}
	s := d.sents[si-1]
	t := strings.TrimRight(d.text[s.start:s.end], "”」』\"'’ \n")
	if !strings.HasSuffix(t, "？") && !strings.HasSuffix(t, "?") {
		return 0, 0, false
	}
	return s.start, s.end, true
}

// framedIn reports whether text (lower case, or folded for Chinese)
// writes a word that frames m.
func (m *measureFact) framedIn(d *doc, text string) bool {
	if m.cjkKey != "" && keyInSentence(m.cjkKey, text) {
		return true
	}
	if d.cjk {
		for _, f := range m.frames {
			if strings.Contains(text, f) {
				return true
			}
		}
		return false
	}
	for _, w := range prose.LatinWords(text) {
		for _, f := range m.frames {
			if w == f || len(f) >= keyStemLen+1 && stemsMatch(w, f) {
				return true
			}
		}
	}
	return false
}

// measureVerbs stand between a Chinese dimension and its number (寬有,
// 徑過有, 約).
const measureVerbs = "有約约過过足達达共"

// framedAt reports whether the clause [cf, ct) frames the measure at
// [start, end) as m (clause is its text, lower case or folded). A Chinese
// dimension frames it right before the number, but for verbs between
// (徑過有五百里), or right after the unit (五百里遙, 七八里路程): elsewhere
// in the clause it is said of something else (鐘聲遠送三千里).
func (m *measureFact) framedAt(k *Knowledge, d *doc, cf, start, end, ct int, clause string) bool {
	if !d.cjk {
		return m.framedIn(d, clause)
	}
	if m.cjkKey != "" && keyInSentence(m.cjkKey, clause) {
		return true
	}
	before := strings.TrimRight(string(k.foldRunes(d.text[cf:start])), measureVerbs)
	after := string(k.foldRunes(d.text[end:ct]))
	for _, f := range m.frames {
		if strings.HasSuffix(before, f) || strings.HasPrefix(after, f) {
			return true
		}
	}
	return false
}

// namedIn reports whether e is named in bytes [from, to) of d: a mention,
// or for a Chinese place its name without the generic ending (雷音 of
// 雷音寺).
func (k *Knowledge) namedIn(d *doc, eff []effMention, e *entInfo, from, to int) bool {
	for _, m := range eff {
		if m.start >= from && m.end <= to && m.ent == e {
			return true
		}
	}
	if !d.cjk || e.person {
		return false
	}
	for i, off := range d.roff {
		if off < from {
			continue
		}
		if off >= to {
			break
		}
		if k.placeNamedAt(e, d.frunes, i) {
			return true
		}
	}
	return false
}

// checkTopicMeasures reads every number with the unit of a declared
// measure that no holder in its clause claims, as the measure of its
// paragraph's topic (see the comment at the top of the file).
func (k *Knowledge) checkTopicMeasures(d *doc) []Finding {
	facts := k.measureFacts(d)
	if len(facts) == 0 {
		return nil
	}
	units := map[string]bool{}
	for _, m := range facts {
		units[m.unit] = true
	}
	stated := k.statedMeasures(d, units)
	if len(stated) == 0 {
		return nil
	}
	eff := k.effMentions(d)
	lower := func(from, to int) string {
		if d.cjk {
			return string(k.foldRunes(d.text[from:to]))
		}
		return strings.ToLower(d.text[from:to])
	}
	var out []Finding
	for _, s := range stated {
		cf, ct := clauseAround(d.text, s.start, s.end)
		frame := lower(cf, ct)
		if k.holderSaid(d, eff, s.start, ct) {
			continue
		}
		// A bare reply (「五萬四千里，…」) measures what the question
		// before it asked about.
		qf, qt, asked := d.questionBefore(s.start)
		asked = asked && d.bareReply(s.start)
		question := ""
		if asked {
			question = lower(qf, qt)
		}
		pf, pt := lineAround(d.text, s.start)
		var framed []*measureFact
		for i := range facts {
			m := &facts[i]
			if m.unit != s.unit || !(m.framedAt(k, d, cf, s.start, s.end, ct, frame) || asked && m.framedIn(d, question)) {
				continue
			}
			framed = append(framed, m)
		}
		if len(framed) == 0 {
			continue
		}
		// The topic: the framed measures whose holder the paragraph (or
		// the question) names; the paragraph before when it names none.
		pick := func(from, to int) []*measureFact {
			var in []*measureFact
			for _, m := range framed {
				if k.namedIn(d, eff, m.e, from, to) || asked && k.namedIn(d, eff, m.e, qf, qt) {
					in = append(in, m)
				}
			}
			return in
		}
		in := pick(pf, pt)
		scopeFrom := pf
		if len(in) == 0 && !namesAny(eff, pf, pt) {
			if bf, bt, ok := lineBefore(d.text, pf); ok {
				in = pick(bf, bt)
				scopeFrom = bf
			}
		}
		// Unnamed, a place is the topic through the thing its key
		// measures: "going round the whole park … four miles round" of
		// the one place with a park's circumference, when the paragraph
		// names no other place (whose park it would be).
		if len(in) == 0 && !namesPlace(eff, pf, pt) {
			para := prose.LatinWords(lower(pf, pt))
			for _, m := range framed {
				if len(m.things) > 0 && len(m.frames) > len(m.things) && slices.ContainsFunc(para, func(w string) bool { return slices.Contains(m.things, w) }) {
					in = append(in, m)
				}
			}
			scopeFrom = pf
		}
		if len(in) != 1 {
			continue
		}
		m := in[0]
		agrees := false
		for _, v := range s.vals {
			if v == m.n || m.approx && abs(m.n-v)*5 <= m.n {
				agrees = true
			}
		}
		if agrees {
			continue
		}
		scope := lower(scopeFrom, pt)
		if strings.Contains(scope, m.value) {
			continue
		}
		f := k.cjkFactFinding(d, m.e, s.start, s.end, m.key, m.val, 0.55)
		f.Suggestion = m.val
		out = append(out, f)
	}
	return out
}

// holderSaid reports whether the sentence of p names an entity before p,
// on p's side of any quotation mark, or its clause names one after p
// (千般變化美猴王): a measure then has its holder said, which the other
// fact checks read.
func (k *Knowledge) holderSaid(d *doc, eff []effMention, p, clauseEnd int) bool {
	if d.latestBefore(eff, p, 0, func(effMention) bool { return true }) != nil {
		return true
	}
	return namesAny(eff, p, clauseEnd)
}

// namesPlace reports whether eff has a mention of a place (an entity
// not a person) in bytes [from, to).
func namesPlace(eff []effMention, from, to int) bool {
	for _, m := range eff {
		if m.start >= from && m.end <= to && !m.ent.person {
			return true
		}
	}
	return false
}

// namesAny reports whether eff has a mention in bytes [from, to).
func namesAny(eff []effMention, from, to int) bool {
	for _, m := range eff {
		if m.start >= from && m.end <= to {
			return true
		}
	}
	return false
}

// bareReply reports whether p opens its quotation, but for a verb of
// having or a word of approximation (「有五萬四千里」, “About four
// miles.”): a reply that says nothing but the measure.
func (d *doc) bareReply(p int) bool {
	qi := d.quoteAt(p)
	if qi == 0 {
		return false
	}
	lead := strings.TrimLeft(d.text[d.quoted[qi-1].start:p], "“「『\"'‘ ")
	lead = strings.TrimSpace(strings.ToLower(lead))
	switch lead {
	case "", "有", "約", "约", "約有", "约有", "about", "nearly", "almost", "only", "just":
		return true
	}
	return false
}
