package factcheck

import (
	"fmt"
	"strings"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// A place in a list of names (an examination's, a contest's) is an
// ordinal and 名, a closed kind of value: 第七名. A list sets it right
// before the name (第七名賈寶玉是金陵籍貫) or after the name and a verb of
// passing (寶玉中了第七名). Another ordinal there contradicts a declared
// value of that shape, whatever the key is called.

// ordinalPlaceAt returns the end (a rune index of rs) of 第, numerals and
// 名 starting at i, or -1.
func ordinalPlaceAt(rs []rune, i int) int {
	if i >= len(rs) || rs[i] != '第' {
		return -1
	}
	j := i + 1
	for j < len(rs) && prose.IsCJKNumeral(rs[j]) {
		j++
	}
	if j == i+1 || j >= len(rs) || rs[j] != '名' {
		return -1
	}
	return j + 1
}

// ordinalPlaceVerbs stand between a name and its place (folded).
var ordinalPlaceVerbs = []string{"中了", "中", "考了", "取了", "取中", "列"}

// checkOrdinalPlaces finds a place in a list given to a holder whose
// declared place is another.
func (k *Knowledge) checkOrdinalPlaces(d *doc) []Finding {
	if !d.cjk || !strings.Contains(d.text, "名") {
		return nil
	}
	var eff []effMention
	var out []Finding
	rs := d.frunes
	for i := range rs {
		end := ordinalPlaceAt(rs, i)
		if end < 0 {
			continue
		}
		if eff == nil {
			eff = k.effMentions(d)
		}
		start, stop := d.roff[i], d.roff[end]
		var h *entInfo
		for _, m := range eff {
			if !m.ent.person {
				continue
			}
			if m.start == stop {
				h = m.ent
				break
			}
			if m.end < start && start-m.end <= 6 {
				between := string(k.foldRunes(d.text[m.end:start]))
				for _, v := range ordinalPlaceVerbs {
					if between == v {
						h = m.ent
					}
				}
			}
		}
		if h == nil {
			continue
		}
		got := string(rs[i:end])
		for key, v := range d.factsOf(h) {
			fv := []rune(string(k.foldRunes(strings.TrimSpace(v))))
			ve := ordinalPlaceAt(fv, 0)
			if ve < 0 || string(fv[:ve]) == got {
				continue
			}
			f := k.cjkFactFinding(d, h, start, stop, key, v, 0.7)
			f.Message = fmt.Sprintf("the text gives %s the place “%s”, but %s's %s is “%s” as of chapter %d", h.e.Name, d.text[start:stop], h.e.Name, key, v, d.chapter)
			f.Suggestion = v
			out = append(out, f)
			break
		}
	}
	return out
}
