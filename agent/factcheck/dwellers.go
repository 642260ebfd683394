package factcheck

import (
	"maps"
	"slices"
	"strings"
)

// Dwellers declared by the place. An author often says who lives where in
// the place's file (蘅蕪苑: resident 薛寶釵; Netherfield: tenant Mr.
// Bingley) and not in the person's. For the readings of residence, which
// ask the person's facts, the place's word stands for the person's own: a
// person with no residence of their own gets as residence the one place
// that names them as its dweller as of the chapter. Two places naming
// them at once tell nothing; a residence the person declares wins.

// dwellerKeys are the keys of a place's file that name who lives there.
var dwellerKeys = wordSet("resident", "residents", "occupant", "occupants", "inhabitant", "inhabitants", "tenant", "tenants",
	"dweller", "dwellers", "住客", "住户", "居住者", "住的人")

// dwellingPlaces are the places whose file names a dweller, as declared
// or in a progression, computed once.
func (k *Knowledge) dwellingPlaces() []*entInfo {
	k.dwellingsOnce.Do(func() {
		for _, e := range k.ents {
			if e.person {
				continue
			}
			found := false
			k.eachFact(e, func(key, _ string) {
				found = found || dwellerKeys[normKey(string(k.foldRunes(key)))]
			})
			if found {
				k.dwellings = append(k.dwellings, e)
			}
		}
	})
	return k.dwellings
}

// withDwelling returns f, e's facts as of the doc's chapter, with the
// residence the places give e where f gives none.
func (d *doc) withDwelling(e *entInfo, f map[string]string) map[string]string {
	if d.know == nil || !e.person || len(d.know.dwellingPlaces()) == 0 {
		return f
	}
	for key := range f {
		if residenceKeys[normKey(string(d.know.foldRunes(key)))] {
			return f
		}
	}
	place := d.dwellings()[e]
	if place == nil {
		return f
	}
	f = maps.Clone(f)
	if f == nil {
		f = map[string]string{}
	}
	f["residence"] = place.e.Name
	return f
}

// dwellings maps each person the places name as dweller, as of the doc's
// chapter, to that place; a person two places name maps to nil. Made once
// per doc: every factsOf of a person asks it.
func (d *doc) dwellings() map[*entInfo]*entInfo {
	if d.dwelt != nil {
		return d.dwelt
	}
	d.dwelt = map[*entInfo]*entInfo{}
	named := map[*entInfo]bool{}
	for _, l := range d.know.dwellingPlaces() {
		for key, v := range d.factsOf(l) {
			if !dwellerKeys[normKey(string(d.know.foldRunes(key)))] {
				continue
			}
			for _, p := range d.know.ents {
				if !p.person || !listsPerson(v, p) {
					continue
				}
				if named[p] && d.dwelt[p] != l {
					d.dwelt[p] = nil // two places at once
					continue
				}
				named[p] = true
				d.dwelt[p] = l
			}
		}
	}
	return d.dwelt
}

// listsPerson reports whether a value listing people (李紈、探春; "Mr.
// Bingley and his sisters") names e.
func listsPerson(v string, e *entInfo) bool {
	for _, part := range strings.FieldsFunc(v, func(r rune) bool { return strings.ContainsRune("、，,;；/", r) }) {
		if namesEntity(strings.TrimSpace(part), e) {
			return true
		}
	}
	return false
}

// citeDwellings points the evidence of a residence finding that rests on
// a place's dweller at the place's file: the declaration the author has
// to open, or correct, is there, not in the person's file, which says
// nothing of a residence.
func (d *doc) citeDwellings(out []Finding) {
	if d.know == nil || len(d.know.dwellingPlaces()) == 0 {
		return
	}
	for i := range out {
		ev := &out[i].Evidence
		if out[i].Type != TypeFact || !residenceKeys[normKey(string(d.know.foldRunes(ev.Key)))] {
			continue
		}
		for _, p := range d.know.ents {
			if !p.person || p.e.Resource != ev.Resource {
				continue
			}
			place := d.dwellings()[p]
			if place == nil || ev.Value != place.e.Name || d.declaresResidence(p) {
				break
			}
			for _, key := range slices.Sorted(maps.Keys(d.factsOf(place))) {
				v := d.factsOf(place)[key]
				if dwellerKeys[normKey(string(d.know.foldRunes(key)))] && listsPerson(v, p) {
					line, since := place.e.FactSource(key, d.chapter)
					*ev = Evidence{Path: place.e.Path, Resource: place.e.Resource, Key: key, Value: v, Line: line, Since: since}
					break
				}
			}
			break
		}
	}
}

// declaresResidence reports whether e's own file gives a residence as of
// the doc's chapter.
func (d *doc) declaresResidence(e *entInfo) bool {
	for key := range e.e.FactsAsOf(d.chapter) {
		if residenceKeys[normKey(string(d.know.foldRunes(key)))] {
			return true
		}
	}
	return false
}
