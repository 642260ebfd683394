package factcheck

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// Coverage says, for the facts the entity files declare, which keys the
// deterministic checkers can check and which they leave to the model
// angles: a value of a kind they read (a number, with its unit or of a
// counted noun; an age; a rank, title, office, colour or status; a long
// Chinese value such as a place or a weight) is checked; free text
// ("前身: 天蓬元帥", "personality: proud") is not guessed at.
type Coverage struct {
	// Checked and Left map each fact key to how many entities declare it.
	Checked, Left map[string]int
}

// FactCoverage reports the Coverage of k's entity files, as declared and
// as every progression changes them.
func (k *Knowledge) FactCoverage() Coverage {
	c := Coverage{Checked: map[string]int{}, Left: map[string]int{}}
	for _, e := range k.ents {
		seen := map[string]bool{}
		k.eachFact(e, func(key, val string) {
			if seen[key] {
				return
			}
			seen[key] = true
			if k.checksFact(key, val) {
				c.Checked[key]++
			} else {
				c.Left[key]++
			}
		})
	}
	// A key some entity declares in a checkable form is checked there;
	// list it once, as checked.
	for key := range c.Checked {
		delete(c.Left, key)
	}
	return c
}

// Keys returns the keys of m, most declared first.
func Keys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for key := range m {
		out = append(out, key)
	}
	slices.SortFunc(out, func(a, b string) int {
		if m[a] != m[b] {
			return m[b] - m[a]
		}
		return strings.Compare(a, b)
	})
	return out
}

// checksFact reports whether a deterministic checker reads key: val.
func (k *Knowledge) checksFact(key, val string) bool {
	lk := strings.ToLower(strings.TrimSpace(key))
	v := strings.TrimSpace(val)
	switch {
	case v == "":
		return false
	case lk == "rank" || lk == "military_rank" || lk == "title":
		return rankClass[capitalize(lastWord(v))] != "" || k.namedInBookFrame(lk, v)
	case lk == "status" || lk == "marital_status" || lk == "marital status" || lk == "state" || lk == "presence":
		return true // presence (away, dead) and marital words
	case lk == "location":
		return true // where an away character is: a scene there is no finding
	case slices.Contains(strings.FieldsFunc(lk, func(r rune) bool { return r == '_' || r == '-' || r == ' ' }), "age"):
		_, _, _, ok := parseValue(v)
		return ok
	case colourNoun(key) == "eyes" || colourNoun(key) == "hair" || isColourKeyCJK(key):
		return true
	case residenceKeys[normKey(string(k.foldRunes(lk)))] || originKeys[normKey(string(k.foldRunes(lk)))]:
		return true // a place predicated of the holder (住在, 原籍, lived at, a native of)
	}
	for _, role := range []kinRole{roleSpouseOfMan, roleSpouseOfWoman, roleChild, roleDisciple} {
		// A spouse, a parent or a master, where the text makes the
		// holder someone's wife, daughter or disciple (kinship.go).
		if slices.Contains(role.keys, lk) {
			return true
		}
	}
	if slices.Contains(brotherKeys, lk) || slices.Contains(sisterKeys, lk) {
		// A sibling of the holder's family, against one of another
		// family the text gives (families.go); in English a brother only.
		if cjk := prose.HasCJK(v); (cjk || slices.Contains(brotherKeys, lk)) && len(k.declaredFamilies(v, cjk)) > 0 {
			return true
		}
	}
	if slices.Contains(childKeys, lk) && len(k.declaredFamilies(v, prose.HasCJK(v))) > 0 {
		return true // a child of the holder's family (families.go)
	}
	if namingKeys[lk] && utf8.RuneCountInString(v) >= minNearValueNamed && prose.AllCJK(k.foldRunes(v)) {
		return true // after a naming verb, one character changed (nearvalue.go)
	}
	if _, ok := parseService(v); ok {
		return true // the same post under another name (service.go)
	}
	if formerSelfKeys[normKey(lk)] && prose.HasCJK(v) {
		return true // what came down to be born (本是…臨凡, cjkformerself.go)
	}
	if weaponKeys[lk] && prose.HasCJK(v) {
		return true // a weapon of another kind borne by the holder (weapons.go)
	}
	if callingKey(key) && slices.ContainsFunc(strings.Fields(strings.ToLower(v)), func(x string) bool { return callingGroups[strings.Trim(x, ",.;()")] != "" }) {
		return true // a calling predicated of the holder (occupations.go)
	}
	if surnameKeys[normKey(string(k.foldRunes(lk)))] {
		return true // a family name given with 姓 (surnames.go)
	}
	if k.namedInBookFrame(lk, v) {
		return true // after a name and a naming verb, as the book says it (namedframes.go)
	}
	if fv := k.foldRunes(v); ordinalPlaceAt(fv, 0) == len(fv) {
		return true // 第七名賈寶玉 (ordinals.go)
	}
	if keyOfReadable(normKey(lk), v) && k.placeNamed(v) {
		return true // "the living of Hunsford" (keyof.go)
	}
	if _, _, ok := eventYear(key, v); ok {
		return true // a year in a sentence naming the holder and the event (years.go)
	}
	if birthInValue.MatchString(strings.ToLower(v)) || birthRank[strings.TrimPrefix(strings.ToLower(v), "the ")] != "" {
		return true // a birth order in apposition (birthorder.go)
	}
	if (containerKeys[lk] || regimentKeys[lk]) && setMember(v) != "" {
		return true // a county or a regiment the files list (keysets.go)
	}
	if len(countedParts(v)) > 0 {
		return true // one of the counts a value lists
	}
	if _, _, rest, ok := parseValue(v); ok {
		// A count of a noun ("daughters: 5"), or a number with a unit the
		// text states alike ("ten thousand a year", "forty miles").
		return countNoun(key) != "" || len(rest) > 0
	}
	if _, _, ok := k.cjkQuantity(v); ok {
		return true
	}
	if k.cjkFacts != nil && k.cjkFacts.offices[string(k.foldRunes(v))] {
		return true
	}
	// A long Chinese value with a numeral or a place name in it: the
	// near-value rule reads those parts of it.
	if rs := k.foldRunes(v); len(rs) >= minNearValueNamed && prose.AllCJK(rs) {
		for j, r := range rs {
			if prose.IsCJKNumeral(r) || isDirection(r) || j+1 < len(rs) && (placeEnding(rs[j+1]) || boardEnding(rs[j+1])) {
				return true
			}
		}
	}
	return false
}

// namingKeys hold what a naming verb (稱為, 號, 現任) gives of someone.
var namingKeys = wordSet("title", "office", "稱號", "称号", "封號", "封号", "尊號", "尊号", "號", "号", "官職", "官职")

func lastWord(s string) string {
	ws := strings.Fields(s)
	if len(ws) == 0 {
		return s
	}
	w := ws[len(ws)-1]
	if utf8.RuneCountInString(w) == 0 {
		return s
	}
	return w
}

// namedInBookFrame reports whether key: v is a title checkNamingFrames
// reads: a naming key and a Chinese value of three characters or more.
func (k *Knowledge) namedInBookFrame(key, v string) bool {
	rs := k.foldRunes(v)
	return namingKeys[key] && len(rs) >= 3 && prose.AllCJK(rs)
}
