package factcheck

import (
	"fmt"
	"sort"
	"strings"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// The manuscript is the dictionary of what a character is called. A
// Chinese text gives a title right after a name and a naming verb (紅孩兒
// 妖精，號聖嬰大王; 有一個紅孩兒妖精，喚作聖嬰大王): when the book's other
// chapters call a character by the declared title in that frame, the
// frame is the book's way of stating it, and another title there (喚作
// 覆海大聖, which the book gives 蛟魔王) contradicts it, unless the
// other chapters also call the character that (孫悟空, 號美猴王, and 號齊天
// 大聖 both). The chapter checked is never its own witness.

// namingFrameVerbs name what follows them (folded), longest first.
var namingFrameVerbs = []string{"唤作", "唤做", "叫做", "叫作", "号称", "称为", "称做", "号"}

// maxNamingLead is how many characters may stand between the name and
// the naming verb (妖精，).
const maxNamingLead = 3

// namedInFrame reads the frame at rune index i of rs, right after a name:
// up to maxNamingLead characters and a comma, a naming verb, and the
// name it gives, to the end of its clause (two to six characters). It
// returns the name's rune span, or ok false.
func namedInFrame(rs []rune, i int) (int, int, bool) {
	j := i
	for n := 0; n <= maxNamingLead+1 && j < len(rs); n++ {
		for _, v := range namingFrameVerbs {
			vr := []rune(v)
			if j+len(vr) <= len(rs) && string(rs[j:j+len(vr)]) == v {
				s := j + len(vr)
				e := s
				for e < len(rs) && e-s <= 6 && prose.IsCJK(rs[e]) && !strings.ContainsRune("的了是也", rs[e]) {
					e++
				}
				if e-s < 2 || e-s > 6 || e < len(rs) && prose.IsCJK(rs[e]) {
					return 0, 0, false
				}
				return s, e, true
			}
		}
		// The lead is a noun of the named (妖精) and a comma at its end:
		// a comma first starts another clause (悟空，你叫做悟能), and a
		// pronoun brings in someone else.
		if n > 0 && (rs[j-1] == '，' || rs[j-1] == ',') || n == maxNamingLead+1 && prose.IsCJK(rs[j]) ||
			!prose.IsCJK(rs[j]) && rs[j] != '，' && rs[j] != ',' || strings.ContainsRune("你他她我汝", rs[j]) {
			return 0, 0, false
		}
		j++
	}
	return 0, 0, false
}

// namingFrames are the names the book's chapters give one entity in the
// frame, by chapter.
type namingFrames map[string][]int

// bookNamingFrames returns, made once per entity, what the manuscript
// calls e in the frame after any of its names.
func (k *Knowledge) bookNamingFrames(e *entInfo) namingFrames {
	b := k.book
	if b == nil || b.nums == nil {
		return nil
	}
	if v, ok := k.namingFrames.Load(e); ok {
		return v.(namingFrames)
	}
	b.once.Do(b.build)
	out := namingFrames{}
	for _, n := range e.e.Names() {
		fn := string(k.foldRunes(strings.TrimSpace(n)))
		if len([]rune(fn)) < 2 {
			continue
		}
		for i := 0; ; {
			j := strings.Index(b.cjk[i:], fn)
			if j < 0 {
				break
			}
			at := i + j
			i = at + len(fn)
			tail := []rune(b.cjk[i:min(len(b.cjk), i+40)])
			s, t, ok := namedInFrame(tail, 0)
			if !ok {
				continue
			}
			ci := sort.SearchInts(b.cjkStarts, at+1) - 1
			if ci < 0 {
				continue
			}
			out[string(tail[s:t])] = append(out[string(tail[s:t])], b.cjkNums[ci])
		}
	}
	k.namingFrames.Store(e, out)
	return out
}

// usedElsewhere reports whether the book gives name in the frame in a
// chapter other than ch.
func (f namingFrames) usedElsewhere(name string, ch int) bool {
	for _, c := range f[name] {
		if c != ch {
			return true
		}
	}
	return false
}

// checkNamingFrames finds a title given a character in the frame the
// book uses for its declared title, that the book never gives it there.
func (k *Knowledge) checkNamingFrames(d *doc) []Finding {
	if !d.cjk || k.book == nil {
		return nil
	}
	var out []Finding
	rs := d.frunes
	for _, m := range k.effMentions(d) {
		if !m.ent.person {
			continue
		}
		var key, val string
		for fk, fv := range d.factsOf(m.ent) {
			if namingKeys[strings.ToLower(fk)] && prose.AllCJK([]rune(strings.TrimSpace(fv))) {
				key, val = fk, strings.TrimSpace(fv)
				break
			}
		}
		if key == "" {
			continue
		}
		ri := sort.SearchInts(d.roff, m.end)
		if ri >= len(rs) || d.roff[ri] != m.end {
			continue
		}
		s, e, ok := namedInFrame(rs, ri)
		if !ok {
			continue
		}
		// A title has three characters or more; two are as often a form
		// of address (稱為大哥, 叫做師兄).
		if e-s < 3 {
			continue
		}
		w := string(rs[s:e])
		fval := string(k.foldRunes(val))
		if k.namesOwn(m.ent, w) {
			continue
		}
		frames := k.bookNamingFrames(m.ent)
		if !frames.usedElsewhere(fval, d.chapter) || frames.usedElsewhere(w, d.chapter) {
			continue
		}
		f := k.cjkFactFinding(d, m.ent, d.roff[s], d.roff[e], key, val, 0.7)
		f.Message = fmt.Sprintf("the text calls %s “%s”, but %s's %s is “%s” as of chapter %d, as the book's other chapters call them there", m.ent.e.Name, d.text[d.roff[s]:d.roff[e]], m.ent.e.Name, key, val, d.chapter)
		f.Suggestion = val
		out = append(out, f)
	}
	return out
}

// namesOwn reports whether w (folded) is one of e's names or fact values,
// or holds one or is held by one.
func (k *Knowledge) namesOwn(e *entInfo, w string) bool {
	vals := e.e.Names()
	for _, v := range e.e.Facts {
		vals = append(vals, v)
	}
	for _, p := range e.e.Progressions {
		for _, v := range p.Facts {
			vals = append(vals, v)
		}
	}
	for _, n := range vals {
		fn := string(k.foldRunes(strings.TrimSpace(n)))
		if fn != "" && (strings.Contains(fn, w) || strings.Contains(w, fn)) {
			return true
		}
	}
	return false
}
