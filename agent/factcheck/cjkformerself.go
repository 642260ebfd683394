package factcheck

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// A former self told as what came down to be born (他本是巡海夜叉臨凡,
// 原是天蓬元帥轉世): the words between the copula and the verb of coming
// down are the one the holder was before, a value the files give under a
// key of a former office. Another than the declared one, where
// neither holds the other, contradicts it; the title need be no one's in
// the files, since the construction itself says what it is.

// formerSelfKeys hold a former office (normKey form): a post or title,
// a closed kind of value. A 前身 is as often told in free words (佛祖的二
// 弟子) and stays the model's.
var formerSelfKeys = wordSet("former office", "former post", "former title", "原职", "原職", "旧职", "舊職")

// descentVerbs follow a former self: came down to the world, was reborn.
var descentVerbs = []string{"临凡", "下凡", "转世", "托生", "投胎", "降世", "临世", "转生"}

// selfCopulas stand before a former self (folded), longest first.
var selfCopulas = []string{"本是", "原是", "乃是", "就是", "便是", "原来是", "是", "乃", "系"}

// checkCJKFormerSelf finds a former self told of a character against the
// declared one.
func (k *Knowledge) checkCJKFormerSelf(d *doc) []Finding {
	if !d.cjk || len(k.ents) == 0 {
		return nil
	}
	ft := d.foldedText()
	var eff []effMention
	var out []Finding
	for _, verb := range descentVerbs {
		if !strings.Contains(ft, verb) {
			continue
		}
		for i := 0; ; {
			j := strings.Index(ft[i:], verb)
			if j < 0 {
				break
			}
			at := i + j
			i = at + len(verb)
			// The copula nearest before, two to six characters back.
			lead := []rune(ft[:at])
			vs, cs := -1, -1
			for n := 2; n <= 6 && n < len(lead); n++ {
				if cop := endingOf(string(lead[:len(lead)-n]), selfCopulas); cop != "" {
					vs, cs = len(lead)-n, len(lead)-n-utf8.RuneCountInString(cop)
					break
				}
			}
			if vs < 0 || !prose.AllCJK(lead[vs:]) || strings.ContainsAny(string(lead[vs:]), "的之一个個") {
				continue
			}
			if eff == nil {
				eff = k.effMentions(d)
			}
			start, end, copStart := d.roff[vs], d.roff[len(lead)], d.roff[cs]
			key, decl := "", ""
			has := func(e *entInfo) bool {
				for kk, v := range d.factsOf(e) {
					if formerSelfKeys[normKey(kk)] && prose.HasCJK(v) {
						key, decl = kk, v
						return true
					}
				}
				return false
			}
			h := k.cjkHolder(d, eff, copStart, 9, func(e *entInfo) bool { return e.person })
			if h == nil {
				h = k.refBefore(d, eff, copStart, 9)
			}
			if h == nil || !has(h) {
				continue
			}
			said := string(k.foldRunes(d.text[start:end]))
			own := string(k.foldRunes(strings.TrimSpace(decl)))
			// A post told in a phrase (靈霄殿下侍鑾輿) is no title to set
			// another against.
			if n := utf8.RuneCountInString(own); n < 2 || n > 5 || !prose.AllCJK([]rune(own)) {
				continue
			}
			// 天蓬大元帥 of 天蓬元帥: one told with a word more or less.
			if subsequence(own, said) || subsequence(said, own) {
				continue
			}
			f := k.cjkFactFinding(d, h, start, end, key, decl, 0.65)
			f.Message = fmt.Sprintf("the text makes %s “%s” before coming down, but %s's %s is “%s” as of chapter %d", h.e.Name, d.text[start:end], h.e.Name, key, decl, d.chapter)
			f.Suggestion = strings.TrimSpace(decl)
			out = append(out, f)
		}
	}
	return out
}

// subsequence reports whether the runes of a stand in b in their order,
// others between them or not.
func subsequence(a, b string) bool {
	rb := []rune(b)
	j := 0
	for _, r := range a {
		for j < len(rb) && rb[j] != r {
			j++
		}
		if j == len(rb) {
			return false
		}
		j++
	}
	return true
}
