package factcheck

import (
	_ "embed"
	"path"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/lexicon"
	"github.com/flowcabal/flowcabal/textsearch"
	"github.com/longbridgeapp/opencc"
)

// entInfo is an entity with what the checkers derive from it.
type entInfo struct {
	e *knowledge.Entity
	// gender is 'm', 'f' or 0, from titles and the description's pronouns.
	gender byte
	person bool
	// slug is the last element of the resource path ("meryton").
	slug string
	// titled maps a name word that follows a title in one of the names
	// ("Fitzwilliam" in "Colonel Fitzwilliam") to that title.
	titled map[string]string
}

// nameSeq is one declared name or alias, possibly shared by entities.
type nameSeq struct {
	text  string   // as declared (first declaration)
	words []string // Latin: its words
	runes []rune   // CJK: its folded runes
	ents  []*entInfo
	// exclude marks an exclusion phrase (of ents) rather than a name.
	exclude bool
	// miss marks a "Miss …" form, which does not name a married woman.
	miss bool
	// implicit marks a given name the author did not declare as an alias.
	implicit bool
}

// target is a word of a Latin name a near-miss is measured against.
type target struct {
	word  string
	runes []rune // lower-cased
	ents  []*entInfo
	// inName marks a title, a near-miss of which counts only where the
	// corrected words form a declared name.
	inName bool
}

// cjkKey identifies a CJK name with one position blanked out.
type cjkKey struct {
	n, pos int
	r      [6]rune
}

const maxCJKName = 6

// NewKnowledge builds the checkers' tables from entities and world rules
// (either may be nil). folder folds traditional Chinese to simplified; nil
// makes a new one.
func NewKnowledge(entities []*knowledge.Entity, world *knowledge.WorldRules, folder *textsearch.Folder) *Knowledge {
	if folder == nil {
		folder = textsearch.NewFolder()
	}
	if world == nil {
		world = &knowledge.WorldRules{}
	}
	k := &Knowledge{
		world:     world,
		folder:    folder,
		latin:     map[string][]*nameSeq{},
		cjk:       map[rune][]*nameSeq{},
		nameWords: map[string]bool{},
		cjkNear:   map[cjkKey][]*nameSeq{},
	}
	for _, e := range entities {
		if e == nil {
			continue
		}
		k.ents = append(k.ents, newEntInfo(e))
	}
	latinSeqs := map[string]*nameSeq{}
	cjkSeqs := map[string]*nameSeq{}
	add := func(ei *entInfo, name string, exclude bool) {
		if prose.HasCJK(name) {
			rs := k.foldRunes(name)
			if len(rs) == 0 {
				return
			}
			key := string(rs)
			if exclude {
				key = "\x00" + key + "\x00" + ei.e.Resource
			}
			s := cjkSeqs[key]
			if s == nil {
				s = &nameSeq{text: name, runes: rs, exclude: exclude}
				cjkSeqs[key] = s
				k.cjk[rs[0]] = append(k.cjk[rs[0]], s)
			}
			if !containsEnt(s.ents, ei) {
				s.ents = append(s.ents, ei)
			}
			return
		}
		ws := prose.LatinWords(name)
		if len(ws) == 0 {
			return
		}
		key := strings.Join(ws, " ")
		if exclude {
			key = "\x00" + key + "\x00" + ei.e.Resource
		}
		s := latinSeqs[key]
		if s == nil {
			s = &nameSeq{text: name, words: ws, exclude: exclude, miss: ws[0] == "Miss"}
			latinSeqs[key] = s
			k.latin[ws[0]] = append(k.latin[ws[0]], s)
			// "the old count" opens a sentence as "The old count".
			if c := capitalizeWord(ws[0]); c != ws[0] && len(ws) > 1 {
				k.latin[c] = append(k.latin[c], s)
			}
		}
		if !containsEnt(s.ents, ei) {
			s.ents = append(s.ents, ei)
		}
		if !exclude {
			for _, w := range ws {
				k.nameWords[w] = true
			}
		}
	}
	for _, ei := range k.ents {
		for _, n := range ei.e.Names() {
			add(ei, n, false)
		}
		for _, x := range ei.e.Exclude {
			add(ei, x, true)
		}
	}
	// A person's given name stands for them when no other entity's name
	// uses the word and it is not an ordinary word: "Elizabeth" for
	// Elizabeth Bennet. It does not count after a title ("Sir William").
	for _, ei := range k.ents {
		if g := k.givenName(ei); g != "" {
			before := len(latinSeqs)
			add(ei, g, false)
			if len(latinSeqs) > before {
				latinSeqs[g].implicit = true
			}
		}
	}
	// Near-miss targets: distinctive capitalised words of Latin names.
	byWord := map[string]*target{}
	for _, ei := range k.ents {
		for _, n := range ei.e.Names() {
			if prose.HasCJK(n) {
				continue
			}
			ws := prose.LatinWords(n)
			for _, w := range ws {
				r, _ := utf8.DecodeRuneInString(w)
				if !unicode.IsUpper(r) || utf8.RuneCountInString(w) < 4 {
					continue
				}
				// A title ("Colonel", "Ladyship") is a target only in its
				// name: "Colenel Fitzwilliam", not "Colenel" alone.
				title := titleWords[w] || rankClass[w] != ""
				if title && len(ws) < 2 {
					continue
				}
				t := byWord[w]
				if t == nil {
					t = &target{word: w, runes: []rune(strings.ToLower(w)), inName: title}
					byWord[w] = t
					k.targets = append(k.targets, t)
				}
				if !containsEnt(t.ents, ei) {
					t.ents = append(t.ents, ei)
				}
			}
		}
	}
	// CJK near-miss keys: every name of 3 to 6 runes with one position
	// (not the first, which is usually a family name) blanked.
	lens := map[int]bool{}
	for _, s := range cjkSeqs {
		n := len(s.runes)
		if s.exclude || n < 2 || n > maxCJKName {
			continue
		}
		lens[n] = true
		if key, ok := cjkSoundKey(s.runes); ok {
			if k.cjkSounds == nil {
				k.cjkSounds = map[string][]*nameSeq{}
			}
			k.cjkSounds[key] = append(k.cjkSounds[key], s)
		}
		for pos := 0; pos < n; pos++ {
			key := cjkKey{n: n, pos: pos}
			copy(key.r[:], s.runes)
			key.r[pos] = 0
			k.cjkNear[key] = append(k.cjkNear[key], s)
		}
		k.indexDoubled(s)
	}
	for n := range lens {
		k.cjkLens = append(k.cjkLens, n)
	}
	k.compileForbidden()
	k.nouns, k.unitWords, k.colourKeys = k.countNouns(), k.units(), k.colourNouns()
	k.buildCJKFacts()
	return k
}

// givenName returns the first word of a person's two-or-more-word name
// when it is distinctive: no other entity's name or alias holds it, it is
// not a title and not an ordinary word.
func (k *Knowledge) givenName(ei *entInfo) string {
	if !ei.person || prose.HasCJK(ei.e.Name) {
		return ""
	}
	ws := prose.LatinWords(ei.e.Name)
	if len(ws) < 2 || titleWords[ws[0]] || rankClass[ws[0]] != "" || lexicon.IsOrdinary(ws[0]) || utf8.RuneCountInString(ws[0]) < 3 {
		return ""
	}
	g := ws[0]
	for _, other := range k.ents {
		if other == ei {
			continue
		}
		for _, n := range other.e.Names() {
			if slices.Contains(prose.LatinWords(n), g) {
				return ""
			}
		}
	}
	return g
}

func containsEnt(list []*entInfo, e *entInfo) bool {
	for _, x := range list {
		if x == e {
			return true
		}
	}
	return false
}

// titleWords are words of names that say what someone is, not who.
var titleWords = map[string]bool{
	"Mr": true, "Mrs": true, "Miss": true, "Ms": true, "Mister": true, "Master": true, "Madam": true, "Madame": true,
	"Sir": true, "Lady": true, "Lord": true, "Dame": true, "Dr": true, "Doctor": true, "Rev": true, "Reverend": true,
	"Captain": true, "Colonel": true, "Major": true, "General": true, "Lieutenant": true, "Ensign": true,
	"Admiral": true, "Sergeant": true, "Corporal": true, "Private": true, "Commander": true,
	"Prince": true, "Princess": true, "King": true, "Queen": true, "Duke": true, "Duchess": true, "Earl": true,
	"Count": true, "Countess": true, "Baron": true, "Baroness": true, "Ladyship": true, "Lordship": true, "the": true, "The": true,
	"de": true, "De": true, "van": true, "von": true, "of": true, "House": true, "Park": true, "Hall": true,
	"Woods": true, "Lodge": true, "Street": true, "her": true, "his": true, "Her": true, "His": true,
}

// rankClass groups titles that replace one another: a military rank is
// not an ordinary misspelling but a different fact.
var rankClass = map[string]string{
	"Captain": "military", "Colonel": "military", "Major": "military", "General": "military",
	"Lieutenant": "military", "Ensign": "military", "Admiral": "military", "Sergeant": "military",
	"Corporal": "military", "Commander": "military", "Brigadier": "military", "Cornet": "military", "Private": "military", "Cadet": "military",
	"Duke": "peer", "Earl": "peer", "Count": "peer", "Baron": "peer", "Marquess": "peer", "Viscount": "peer", "Lord": "peer",
	"Duchess": "peeress", "Countess": "peeress", "Baroness": "peeress", "Marchioness": "peeress", "Viscountess": "peeress",
}

func newEntInfo(e *knowledge.Entity) *entInfo {
	ei := &entInfo{e: e, slug: path.Base(e.Resource), titled: map[string]string{}}
	kind := strings.ToLower(e.Kind)
	// A kind the author left out counts as a person unless the file sits
	// with places.
	ei.person = kind == "character" || kind == "person" || kind == "people" || kind == "人物" || kind == "角色" ||
		kind == "" && !strings.Contains(e.Path, "location") && !strings.Contains(e.Path, "place")
	m, f := 0, 0
	for _, n := range e.Names() {
		ws := prose.LatinWords(n)
		for i, w := range ws {
			switch w {
			case "Mr", "Sir", "Lord", "Mister", "Master", "Duke", "Earl", "Baron", "King", "Prince":
				if i == 0 {
					m += 3
				}
			case "Mrs", "Miss", "Lady", "Ms", "Madam", "Madame", "Dame", "Duchess", "Countess", "Queen", "Princess", "Baroness":
				if i == 0 {
					f += 3
				}
			}
			if i+1 < len(ws) && rankClass[w] != "" {
				ei.titled[ws[i+1]] = w
			}
		}
	}
	// Someone with a rank fact is "<Rank> <surname>" whether or not a
	// name says so: "Lieutenant Wickham".
	for key, v := range e.Facts {
		lk := strings.ToLower(key)
		r := capitalizeWord(v)
		if !(strings.Contains(lk, "rank") || lk == "title") || rankClass[r] == "" {
			continue
		}
		if ws := prose.LatinWords(e.Name); len(ws) >= 1 {
			last := ws[len(ws)-1]
			if first, _ := utf8.DecodeRuneInString(last); unicode.IsUpper(first) && !titleWords[last] && rankClass[last] == "" {
				if _, ok := ei.titled[last]; !ok {
					ei.titled[last] = r
				}
			}
		}
	}
	for _, n := range e.Names() {
		if strings.Contains(n, "夫人") || strings.Contains(n, "姑娘") || strings.Contains(n, "小姐") || strings.Contains(n, "奶奶") || strings.Contains(n, "太太") {
			f += 3
		}
		if strings.Contains(n, "老爷") || strings.Contains(n, "公子") || strings.Contains(n, "二爷") || strings.Contains(n, "大爷") {
			m += 3
		}
	}
	for _, w := range prose.LatinWords(e.Description) {
		switch strings.ToLower(w) {
		case "he", "his", "him", "himself":
			m++
		case "she", "her", "hers", "herself":
			f++
		}
	}
	m += strings.Count(e.Description, "他")
	f += strings.Count(e.Description, "她")
	switch {
	case m > f:
		ei.gender = 'm'
	case f > m:
		ei.gender = 'f'
	}
	return ei
}

// foldRunes folds s (traditional to simplified; CJK only) into runes,
// dropping spaces.
func (k *Knowledge) foldRunes(s string) []rune {
	var out []rune
	for _, r := range s {
		if unicode.IsSpace(r) {
			continue
		}
		out = append(out, k.foldRune(r))
	}
	return out
}

func (k *Knowledge) foldRune(r rune) rune {
	if prose.IsCJK(r) {
		return k.folder.FoldRune(r)
	}
	return r
}

// toTraditional converts one simplified character with OpenCC's s2t
// table, loaded on first use (it is needed to spell a quick-fix in a
// traditional text, and to compare a name's character with a text's as
// written); each answer is kept, as the near-miss rules ask for the same
// few characters again and again.
func (k *Knowledge) toTraditional(r rune) rune {
	if t, ok := k.s2tMemo.Load(r); ok {
		return t.(rune)
	}
	t := k.convertTraditional(r)
	k.s2tMemo.Store(r, t)
	return t
}

func (k *Knowledge) convertTraditional(r rune) rune {
	k.s2tOnce.Do(func() {
		cc, err := opencc.New("s2t")
		if err == nil {
			k.s2t = cc
		}
	})
	if k.s2t == nil {
		return r
	}
	out, err := k.s2t.Convert(string(r))
	if err != nil {
		return r
	}
	if t, n := utf8.DecodeRuneInString(out); n == len(out) && t != utf8.RuneError {
		return t
	}
	return r
}

func capitalizeWord(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + strings.ToLower(s[n:])
}
