package factcheck

import (
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// A brother or sister named in Chinese after the one whose they are
// (襲人的哥哥花自芳, 鳳姐之兄王仁) against the brother or sister that one's file
// declares. A character may have more siblings than the file lists, so a
// name is not compared with the declared one as a whole: brothers and
// sisters born of one father bear one family name, and only a name of
// another family (襲人的哥哥薛蟠, where the file gives 花自芳) is no brother
// of the declared family. A cousin is told by other words (表兄, 姑表
// 妹妹), which are left alone.

// cjkSiblingWords name a brother or a sister after 的 or 之; a word of
// one character only after 之.
var cjkSiblingWords = []struct {
	word string
	keys []string
}{
	{"哥哥", brotherKeys}, {"大哥", brotherKeys}, {"兄弟", brotherKeys}, {"弟弟", brotherKeys}, {"兄長", brotherKeys}, {"兄长", brotherKeys},
	{"胞兄", brotherKeys}, {"胞弟", brotherKeys}, {"姐姐", sisterKeys}, {"妹妹", sisterKeys}, {"姊姊", sisterKeys},
	{"兄", brotherKeys}, {"弟", brotherKeys}, {"姊", sisterKeys}, {"姐", sisterKeys}, {"妹", sisterKeys},
}

// brotherKeys and sisterKeys are the fact keys (lower case) of a sibling.
var (
	brotherKeys = []string{"brother", "brothers", "elder brother", "younger brother", "哥哥", "兄", "兄長", "兄长", "弟", "弟弟", "兄弟"}
	sisterKeys  = []string{"sister", "sisters", "elder sister", "younger sister", "姐姐", "姊", "姐", "妹", "妹妹", "姊妹"}
)

// checkCJKSiblings finds a sibling of another family named after the one
// whose sibling the file declares.
func (k *Knowledge) checkCJKSiblings(d *doc) []Finding {
	if !d.cjk {
		return nil
	}
	var out []Finding
	for _, m := range d.mentions {
		if len(m.ents) != 1 || !m.ents[0].person {
			continue
		}
		e := m.ents[0]
		xs, x, keys, ok := d.siblingOfBefore(k, m.start)
		if !ok || x == e {
			continue
		}
		if f, bad := k.judgeCJKSibling(d, e, m, xs, x, keys); bad {
			out = append(out, f)
		}
	}
	return out
}

// siblingOfBefore reads "X的哥哥", "X之兄" (and a naming word, 名喚, after
// it) ending at byte offset end: X's entity and where X starts.
func (d *doc) siblingOfBefore(k *Knowledge, end int) (int, *entInfo, []string, bool) {
	before := d.text[:end]
	for _, nm := range cjkNaming {
		b, cut := strings.CutSuffix(before, nm)
		if !cut {
			continue
		}
		if nm != "" {
			b = strings.TrimSuffix(b, "，")
		}
		for _, sw := range cjkSiblingWords {
			b2, cut := strings.CutSuffix(b, sw.word)
			if !cut {
				continue
			}
			b3, of := strings.CutSuffix(b2, "之")
			if !of {
				if utf8.RuneCountInString(sw.word) == 1 {
					continue
				}
				if b3, of = strings.CutSuffix(b2, "的"); !of {
					continue
				}
			}
			for _, i := range d.mentionsIn(len(b3)-64, len(b3)) {
				if om := d.mentions[i]; om.end == len(b3) && len(om.ents) == 1 && om.ents[0].person {
					return om.start, om.ents[0], sw.keys, true
				}
			}
			return 0, nil, nil, false
		}
	}
	return 0, nil, nil, false
}

// judgeCJKSibling compares the sibling e named after x with x's declared
// siblings of keys: a finding when every declared one is of another
// family than e, and neither file ties the two otherwise.
func (k *Knowledge) judgeCJKSibling(d *doc, e *entInfo, m mention, xs int, x *entInfo, keys []string) (Finding, bool) {
	family := func(name string) (rune, bool) {
		rs := k.foldRunes(strings.TrimSpace(name))
		if len(rs) < 2 || len(rs) > 4 || !prose.AllCJK(rs) || !k.isFamilyName(rs[0]) {
			return 0, false
		}
		return rs[0], true
	}
	ef, ok := family(e.e.Name)
	if !ok {
		return Finding{}, false
	}
	// Either file naming the other (a sister-in-law, a cousin called
	// so) ties them.
	ties := false
	k.eachFact(e, func(_, v string) { ties = ties || namesEntity(v, x) })
	if ties {
		return Finding{}, false
	}
	facts := d.factsOf(x)
	var key, val string
	for _, fk := range slices.Sorted(maps.Keys(facts)) {
		if !slices.Contains(keys, normKey(fk)) {
			continue
		}
		v := facts[fk]
		if namesEntity(v, e) || namesSomeoneOf(k, v, e) {
			return Finding{}, false
		}
		vf, ok := family(v)
		if !ok || vf == ef {
			return Finding{}, false // a value of no family, or e's: maybe another sibling
		}
		if key == "" {
			key, val = fk, v
		}
	}
	if key == "" {
		return Finding{}, false
	}
	f := k.cjkFactFinding(d, x, m.start, m.end, key, val, 0.6)
	f.Suggestion = val
	return f, true
}

// namesSomeoneOf reports whether v holds one of e's names of two
// characters or more.
func namesSomeoneOf(k *Knowledge, v string, e *entInfo) bool {
	fv := string(k.foldRunes(v))
	for _, n := range e.e.Names() {
		if fn := string(k.foldRunes(n)); utf8.RuneCountInString(fn) >= 2 && strings.Contains(fv, fn) {
			return true
		}
	}
	return false
}
