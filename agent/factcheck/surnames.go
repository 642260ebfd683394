package factcheck

import (
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// Family names stated with 姓: "襲人本姓柳" of a maid whose file says her
// family name is 花.

// surnameKeys hold a family name (folded, lower case).
var surnameKeys = wordSet("姓", "姓氏", "本姓", "surname", "family name", "family_name", "last name", "last_name")

// checkCJKSurnames compares a family name given with 姓 with the one the
// holder's file declares.
func (k *Knowledge) checkCJKSurnames(d *doc, eff []effMention) []Finding {
	var out []Finding
	for from := 0; ; {
		i := strings.Index(d.text[from:], "姓")
		if i < 0 {
			break
		}
		at := from + i
		from = at + len("姓")
		x, size := utf8.DecodeRuneInString(d.text[from:])
		if !prose.IsCJK(x) || strings.ContainsRune("名甚什麼么的氏", x) {
			continue
		}
		// One character, then the end of the clause or 名 (姓賈名化).
		if nx, _ := utf8.DecodeRuneInString(d.text[from+size:]); prose.IsCJK(nx) && nx != '名' && nx != '的' {
			continue
		}
		var key, val string
		has := func(e *entInfo) bool {
			var ok bool
			key, val, ok = d.firstFact(e, func(fk, fv string) bool {
				return surnameKeys[normKey(string(k.foldRunes(fk)))] && strings.TrimSpace(fv) != ""
			})
			return ok
		}
		// The holder is the name right before 姓, with at most an
		// adverb between (襲人本姓花): a name further back is often not
		// whose family name is asked or told (唐僧 asking 你姓甚).
		var e *entInfo
		for j := len(eff) - 1; j >= 0; j-- {
			m := eff[j]
			if m.end > at {
				continue
			}
			if gap := d.text[m.end:at]; m.ent.person && !m.possessive && strings.Trim(gap, "本原也乃却卻倒") == "" && has(m.ent) {
				e = m.ent
			}
			break
		}
		// “姓白。”, “小的姓王”: a speech that opens with it, after a
		// word for oneself at most, gives the speaker's own (寶玉問…，鶯兒
		// 道：“姓白。”).
		if e == nil {
			if sp := k.speakerOfOpening(d, eff, at); sp != nil && has(sp) {
				e = sp
			}
		}
		if e == nil {
			continue
		}
		has(e)
		if dv := k.foldRunes(strings.TrimSpace(val)); len(dv) > 0 && dv[0] == k.foldRune(x) {
			continue
		}
		f := k.cjkFactFinding(d, e, at, from+size, key, val, 0.6)
		f.Suggestion = "姓" + strings.TrimSpace(val)
		out = append(out, f)
	}
	return out
}

// speakerOfOpening is the speaker of the quotation whose words open with
// p, after a word for oneself (我, 小的) or an adverb (本, 原) at most: the
// person named right before the quotation with a verb of saying (鶯兒道：).
// Nil when anything else stands before p in the quotation, or the lead
// names no one.
func (k *Knowledge) speakerOfOpening(d *doc, eff []effMention, p int) *entInfo {
	qi := d.quoteAt(p)
	if qi == 0 {
		return nil
	}
	q := d.quoted[qi-1]
	_, size := utf8.DecodeRuneInString(d.text[q.start:])
	lead := d.text[q.start+size : p]
	for _, w := range selfWords {
		if l, ok := strings.CutPrefix(lead, w); ok {
			lead = l
			break
		}
	}
	if strings.Trim(lead, "本原也") != "" {
		return nil
	}
	return taggedSpeaker(d, eff, q)
}
