package factcheck

import (
	"strings"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// A lifespan is not an age: 該壽三百四十二歲 is how long someone is to
// live, not how old they are, and a file declares it under a key of its
// own (lifespan, 壽命). The text marks it by 壽 right before the number
// (該壽, 享壽, 壽數); the holder is the name before it in its sentence.

// lifespanKeys are the keys (normKey'd) of a lifespan.
var lifespanKeys = wordSet("lifespan", "life span", "life", "壽", "寿", "壽命", "寿命", "壽數", "寿数", "壽限", "寿限", "陽壽", "阳寿", "天年")

// lifespanWindow is how many characters before a number 壽 may stand.
const lifespanWindow = 2

// checkCJKLifespans finds a number of years marked a lifespan that
// differs from the holder's declared lifespan.
func (k *Knowledge) checkCJKLifespans(d *doc, eff []effMention) []Finding {
	var out []Finding
	rs := d.frunes
	for i := 0; i < len(rs); i++ {
		if rs[i] != '寿' && rs[i] != '壽' {
			continue
		}
		// The number after 壽 and at most one character (該壽三百…, 壽享八十).
		j := i + 1
		for j < len(rs) && j <= i+lifespanWindow && !prose.IsCJKNumeral(rs[j]) {
			j++
		}
		if j >= len(rs) || !prose.IsCJKNumeral(rs[j]) {
			continue
		}
		e := j
		for e < len(rs) && prose.IsCJKNumeral(rs[e]) {
			e++
		}
		if e >= len(rs) || rs[e] != '岁' && rs[e] != '歲' {
			continue
		}
		v, ok := prose.ParseCJKNumber(string(rs[j:e]))
		if !ok {
			continue
		}
		start, end := d.roff[j], d.roff[e+1]
		var key, val string
		has := func(x *entInfo) bool {
			for fk, fv := range d.factsOf(x) {
				if lifespanKeys[normKey(fk)] {
					key, val = fk, fv
					return true
				}
			}
			return false
		}
		h := k.cjkHolder(d, eff, d.roff[i], 90, has)
		if h == nil {
			continue
		}
		has(h)
		dr := k.foldRunes(strings.TrimSpace(val))
		n := 0
		for n < len(dr) && prose.IsCJKNumeral(dr[n]) {
			n++
		}
		dv, ok := prose.ParseCJKNumber(string(dr[:n]))
		if n == 0 || !ok || dv == v {
			continue
		}
		f := k.cjkFactFinding(d, h, start, end, key, val, 0.7)
		f.Suggestion = strings.TrimSpace(val)
		out = append(out, f)
		i = e
	}
	return out
}
