package factcheck

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// Going home in Chinese narration: 寶玉聽了，…，因回到怡紅院來. Where a
// character goes back to (回, 回到, 回至, then 來, 去 or 中) is home when
// the place is a home at all: one the files give as someone's residence
// (瀟湘館 is 黛玉's). Another's home there, told of a character whose
// own home is declared, contradicts it; a place that is no one's home
// (高老莊, a temple on the road) may be any stop and says nothing. The
// one who goes is the subject of the clause, or of the clauses before it
// in the sentence while no one else opens one and no one is bidden,
// escorted or followed.

// homeOf is e's declared residence as of d's chapter, a Chinese value.
func (k *Knowledge) homeOf(d *doc, e *entInfo) (key, val string) {
	for kk, v := range d.factsOf(e) {
		if residenceKeys[normKey(string(k.foldRunes(kk)))] && prose.HasCJK(v) && (key == "" || kk < key) {
			key, val = kk, v
		}
	}
	return key, val
}

// returnCompanions in the clause of going back make it another's way
// home (送黛玉回瀟湘館, 同寶釵回蘅蕪苑) or a bidding (叫他回…).
const returnCompanions = "送同跟陪和与與随隨携攜拉扶搀攙叫教请請命令让讓差遣找寻尋看望接"

// checkCJKReturns finds a character going back to another's home.
func (k *Knowledge) checkCJKReturns(d *doc) []Finding {
	if !d.cjk || len(k.ents) == 0 || !strings.ContainsRune(d.text, '回') {
		return nil
	}
	// Whose home each home is, folded.
	homes := map[string]*entInfo{}
	for _, e := range k.ents {
		if !e.person {
			continue
		}
		if _, v := k.homeOf(d, e); v != "" {
			if fv := string(k.foldRunes(strings.TrimSpace(v))); utf8.RuneCountInString(fv) >= 2 {
				homes[fv] = e
			}
		}
	}
	if len(homes) == 0 {
		return nil
	}
	var eff []effMention
	var out []Finding
	rs := d.frunes
	for i := 0; i+2 < len(rs); i++ {
		if rs[i] != '回' || d.inQuote(d.roff[i]) {
			continue
		}
		start := i + 1
		if strings.ContainsRune("到至", rs[start]) {
			start++
		}
		var place string
		var owner *entInfo
		for h, e := range homes {
			hr := []rune(h)
			if start+len(hr) <= len(rs) && string(rs[start:start+len(hr)]) == h && len(hr) > utf8.RuneCountInString(place) {
				place, owner = h, e
			}
		}
		if owner == nil {
			continue
		}
		end := start + utf8.RuneCountInString(place)
		// 回到瀟湘館來, 回怡紅院去, 回到蘅蕪苑中: the place is where one goes,
		// not the first part of a longer name or a place beside it.
		if end < len(rs) && !strings.ContainsRune("来去中内里，。；！？", rs[end]) {
			continue
		}
		if eff == nil {
			eff = k.effMentions(d)
		}
		h := k.returner(d, eff, d.roff[i])
		if h == nil || h == owner {
			continue
		}
		key, decl := k.homeOf(d, h)
		own := string(k.foldRunes(strings.TrimSpace(decl)))
		if key == "" || strings.Contains(own, place) || strings.Contains(place, own) || k.placeWithin(own, place) {
			continue
		}
		// A household (薛家) is no dwelling to set against a lodge: a
		// guest of the lodge (香菱 with 寶釵) goes back there too.
		if ol, pl := lastRune(own), lastRune(place); dwellingEnding(ol) != dwellingEnding(pl) || placeEnding(ol) != placeEnding(pl) {
			continue
		}
		s, e := d.roff[start], d.roff[end]
		f := k.cjkFactFinding(d, h, s, e, key, decl, 0.6)
		f.Message = fmt.Sprintf("the text has %s go back home to “%s”, %s's %s, but %s's %s is “%s” as of chapter %d", h.e.Name, d.text[s:e], owner.e.Name, key, h.e.Name, key, decl, d.chapter)
		f.Suggestion = strings.TrimSpace(decl)
		out = append(out, f)
	}
	return out
}

// returner is the person who goes back at byte p: the name opening p's
// clause, or the one opening the latest clause before it in the sentence
// that a person's name opens, when no clause from there to p opens with
// a pronoun or holds a companion or a bidding (returnCompanions).
func (k *Knowledge) returner(d *doc, eff []effMention, p int) *entInfo {
	sent := d.sents[d.sentenceAt(p)]
	to := p
	for n := 0; n < 5; n++ {
		from := sent.start
		if i := strings.LastIndexAny(d.text[sent.start:to], "，；：、"); i >= 0 {
			_, size := utf8.DecodeRuneInString(d.text[sent.start+i:])
			from = sent.start + i + size
		}
		clause := d.text[from:to]
		if strings.ContainsAny(clause, returnCompanions+"「」“”") {
			return nil
		}
		lead, _ := cutAnyPrefix(clause, "且說", "卻說", "却说", "只見", "那", "這", "这", "因", "便", "又", "也")
		if r, _ := utf8.DecodeRuneInString(lead); strings.ContainsRune(personPronouns, r) {
			return nil
		}
		at := from + len(clause) - len(lead)
		for _, m := range eff {
			if m.start == at && m.ent.person && !m.possessive {
				return m.ent
			}
		}
		if from == sent.start {
			return nil
		}
		_, size := utf8.DecodeLastRuneInString(d.text[:from])
		to = from - size // before the break
	}
	return nil
}

// lastRune is the last rune of s, or utf8.RuneError when s is empty.
func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}
