package factcheck

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// A weapon held by a named character in Chinese prose ("沙僧橫擔著月牙鏟")
// against the one declared (兵器: 降妖寶杖). The book calls a weapon by
// many names (金箍棒, 鐵棒, 棒), so a held weapon agrees with the declared
// one when it ends with the same kind (棒) or shares a character with it
// (寶劍 and 降妖寶杖 may be one thing); only a weapon of another kind
// with nothing in common is a finding.

// weaponKeys are the fact keys (lower case) that declare a weapon.
var weaponKeys = wordSet("weapon", "weapons", "兵器", "武器", "兵刃")

// weaponKinds end the name of a weapon.
const weaponKinds = "刀劍剑槍枪棍棒杖鈀钯耙鏟铲斧鉞钺戟鞭鐧锏錘锤叉矛弓戈杵"

// wieldChars say the weapon is in hand to fight: swung, raised, drawn.
// carryChars say something is carried, which may be anyone's (悟能拿了錫杖
// carries his master's staff): they count only as the marching order's
// progressive (沙僧橫擔著降妖杖).
const (
	wieldChars = "使掄抡輪轮舉举執执擎綽绰挺掣揝"
	carryChars = "擔担扛挑捧提拿持"
	holdChars  = wieldChars + carryChars
)

// staffKinds are one kind of weapon under several names (金箍棒 is a 棍
// and a 杖 in the same book).
const staffKinds = "棍棒杖杵"

// checkWeapons finds a weapon of another kind in the hands of a
// character whose weapon is declared.
func (k *Knowledge) checkWeapons(d *doc) []Finding {
	var out []Finding
	for _, m := range d.mentions {
		if m.firstWord >= 0 || len(m.ents) != 1 || !m.ents[0].person {
			continue
		}
		e := m.ents[0]
		facts := d.factsOf(e)
		key, declared := "", ""
		for kk, v := range facts {
			if weaponKeys[strings.ToLower(kk)] && (key == "" || kk < key) {
				key, declared = kk, v
			}
		}
		if key == "" || !prose.HasCJK(declared) {
			continue
		}
		start, end, ok := d.heldAfter(m.end)
		if !ok {
			start, end, ok = d.ownedAfter(m.end)
		}
		next := false
		if !ok {
			start, end, ok = d.heldNextClause(m.start, m.end)
			next = ok
		}
		if !ok {
			start, end, ok = d.heldLaterClause(m.start, m.end)
			next = ok
		}
		if !ok {
			continue
		}
		// "八戒、沙僧使釘鈀、寶杖": the last of a list of names wields the
		// weapons of the list after it, each his own, in order.
		if prev, _ := utf8.DecodeLastRuneInString(d.text[:m.start]); prev == '、' {
			continue
		}
		named := d.text[start:end]
		// In the clause after the name's own the subject is only likely
		// the name's, and a monk's knife (八戒發起性來，掣出戒刀) is no
		// weapon of his file's: only another's declared weapon counts.
		if next || weaponAgrees(string(k.foldRunes(named)), string(k.foldRunes(declared))) {
			// 沙僧橫擔著如意金箍棒: a staff like his own, but by the full
			// name another's file gives it, and nothing of his own in it.
			os, ok := k.othersWeapon(d, e, start, end, declared)
			if !ok {
				continue
			}
			start, named = os, d.text[os:end]
		}
		line, since := e.e.FactSource(key, d.chapter)
		out = append(out, Finding{
			Type:       TypeFact,
			Start:      start,
			End:        end,
			Message:    fmt.Sprintf("the text puts “%s” in %s's hands, but %s's %s is “%s” as of chapter %d", named, d.text[m.start:m.end], e.e.Name, key, declared, d.chapter),
			Evidence:   Evidence{Path: e.e.Path, Resource: e.e.Resource, Key: key, Value: declared, Line: line, Since: since},
			Suggestion: declared,
			Confidence: 0.6,
		})
	}
	return out
}

// heldAfter finds the weapon the name ending at byte p holds in the
// clause right after it: the verb of holding at most two adverbs (急, 橫)
// after the name, since further on the clause is about something else
// (行者見大的個使一條齊眉棍). A clause that names someone stops it.
func (d *doc) heldAfter(p int) (start, end int, ok bool) {
	clause := d.text[p:]
	if i := strings.IndexAny(clause, "，。；：！？、「」“”\n,."); i >= 0 {
		clause = clause[:i]
	}
	if utf8.RuneCountInString(clause) > 12 || len(d.mentionsIn(p, p+len(clause))) > 0 {
		return 0, 0, false
	}
	held := holdingVerb(clause)
	if held < 0 || utf8.RuneCountInString(clause[:held]) > 2 {
		return 0, 0, false
	}
	ws, we, ok := weaponIn(clause[held:])
	if !ok {
		return 0, 0, false
	}
	return p + held + ws, p + held + we, true
}

// ownedAfter finds the weapon the name ending at byte p is said to have,
// right after it (羅剎女有一柄芭蕉扇, 他也有一條…): 有, at most two adverbs
// before it, and one weapon counted by its measure word.
func (d *doc) ownedAfter(p int) (start, end int, ok bool) {
	clause := d.text[p:]
	if i := strings.IndexAny(clause, "，。；：！？、「」“”\n,."); i >= 0 {
		clause = clause[:i]
	}
	h := strings.Index(clause, "有")
	if h < 0 || utf8.RuneCountInString(clause[:h]) > 2 || strings.ContainsAny(clause[:h], "沒没無无未") || len(d.mentionsIn(p, p+len(clause))) > 0 {
		return 0, 0, false
	}
	rest, ok := cutAnyPrefix(clause[h+len("有"):], "一柄", "一條", "一条", "一根", "一把", "一口", "一桿", "一杆", "一張", "一张")
	if !ok {
		return 0, 0, false
	}
	at := len(clause) - len(rest)
	// weaponIn reads its first rune as the verb: the measure's last
	// character stands in for it.
	_, size := utf8.DecodeLastRuneInString(clause[:at])
	ws, we, ok := weaponIn(clause[at-size:])
	if !ok {
		return 0, 0, false
	}
	return p + at - size + ws, p + at - size + we, true
}

// holdingVerb is the byte offset of the first verb of holding in clause,
// or -1: a verb of carrying only as a progressive (橫擔著), 取 only as
// taking out (取出).
func holdingVerb(clause string) int {
	for i, r := range clause {
		if !strings.ContainsRune(holdChars, r) && r != '取' {
			continue
		}
		next, _ := utf8.DecodeRuneInString(clause[i+utf8.RuneLen(r):])
		switch {
		case r == '取':
			if next != '出' {
				continue
			}
		case strings.ContainsRune(carryChars, r):
			if next != '著' && next != '着' {
				return -1
			}
		}
		return i
	}
	return -1
}

// weaponIn finds the first weapon's name in s: a run of two to four CJK
// characters (after 著, 了 or 起) that ends with a weapon kind.
func weaponIn(s string) (start, end int, ok bool) {
	rs := []rune(s)
	for i, r := range rs {
		if !strings.ContainsRune(weaponKinds, r) {
			continue
		}
		from := max(i-3, 1) // rs[0] is the verb of holding
		for j := from; j < i; j++ {
			// Aspect, direction and measure words (掣出棍, 拿條棍) are
			// no part of the name.
			if strings.ContainsRune("著着了起住出一條条根把柄口", rs[j]) || strings.ContainsRune(holdChars, rs[j]) {
				from = j + 1
			}
		}
		if i-from < 1 {
			return 0, 0, false // a bare kind (棒) says nothing of which
		}
		return len(string(rs[:from])), len(string(rs[:i+1])), true
	}
	return 0, 0, false
}

// weaponAgrees reports whether a weapon named in the text may be the
// declared one (or one of a declared list): the same kind, or a shared
// character.
func weaponAgrees(named, declared string) bool {
	nr := []rune(named)
	for _, item := range strings.FieldsFunc(declared, func(r rune) bool { return strings.ContainsRune("、，,;；/ ", r) }) {
		ir := []rune(item)
		if len(ir) == 0 {
			continue
		}
		a, b := ir[len(ir)-1], nr[len(nr)-1]
		if a == b || strings.ContainsRune(staffKinds, a) && strings.ContainsRune(staffKinds, b) {
			return true
		}
		for _, r := range nr[:len(nr)-1] {
			if strings.ContainsRune(item, r) {
				return true
			}
		}
	}
	return false
}

// othersWeapon reports whether the weapon held at text[start:end] is
// another character's declared weapon by its full name (如意金箍棒, of
// which weaponIn keeps the last four characters), three characters at
// least, sharing no character with the holder's own declared one. It
// returns where the full name starts. A shorter name (金箍棒, 鐵棒) or
// one of the holder's own characters may be the holder's weapon told in
// other words.
func (k *Knowledge) othersWeapon(d *doc, holder *entInfo, start, end int, declared string) (int, bool) {
	named := string(k.foldRunes(d.text[start:end]))
	own := string(k.foldRunes(declared))
	for _, o := range k.ents {
		if o == holder || !o.person {
			continue
		}
		for kk, v := range d.factsOf(o) {
			if !weaponKeys[strings.ToLower(kk)] {
				continue
			}
			full := string(k.foldRunes(strings.TrimSpace(v)))
			if utf8.RuneCountInString(full) < 3 || !strings.HasSuffix(full, named) {
				continue
			}
			// The full name must stand in the text, not only its tail.
			s := start - (len(full) - len(named))
			if s < 0 || string(k.foldRunes(d.text[s:end])) != full {
				continue
			}
			if strings.ContainsFunc(full, func(r rune) bool { return strings.ContainsRune(own, r) }) {
				continue
			}
			return s, true
		}
	}
	return 0, false
}

// heldNextClause finds the weapon a name takes up in the clause after its
// own (沙僧放下吊桶，取出寶杖): the name opens its clause, that clause is
// short and names no one else nor turns to another person (叫, 對, 見),
// and the next clause opens with the verb of holding.
func (d *doc) heldNextClause(ns, ne int) (start, end int, ok bool) {
	if prev, _ := utf8.DecodeLastRuneInString(d.text[:ns]); ns > 0 && !strings.ContainsRune("，。；：！？「」“”\n　", prev) {
		return 0, 0, false
	}
	rest := d.text[ne:]
	comma := strings.Index(rest, "，")
	if comma <= 0 || strings.ContainsAny(rest[:comma], "。；：！？、「」“”\n") || utf8.RuneCountInString(rest[:comma]) > 8 ||
		strings.ContainsAny(rest[:comma], turnsToOther) || len(d.mentionsIn(ne, ne+comma)) > 0 {
		return 0, 0, false
	}
	return d.heldAfter(ne + comma + len("，"))
}

// turnsToOther are verbs and prepositions after which the next clause may
// be someone else's doing (行者叫沙僧，取出…; 沙僧見行者來了，掣出…).
const turnsToOther = "叫教請请對对與与和同見见向道說说問问將将把被讓让令命差遣望看聽听"

// heldLaterClause finds the weapon a name takes up further on in its
// sentence, while it stays the subject (卻說那沙僧久坐林間，盼望行者不到，
// 將行李捎在馬上，一隻手執著…): the name opens its clause, no later clause
// opens with another person or a pronoun or follows a bidding (叫, 命,
// 請) or a passive (被), and the clause of holding opens with the verb,
// or with the hand that holds (一隻手, 手中). Up to five clauses on.
func (d *doc) heldLaterClause(ns, ne int) (start, end int, ok bool) {
	lead := d.text[:ns]
	if i := strings.LastIndexAny(lead, "，。；：！？「」“”\n　"); i >= 0 {
		lead = lead[i:]
		_, size := utf8.DecodeRuneInString(lead)
		lead = lead[size:]
	}
	if utf8.RuneCountInString(lead) > 3 || strings.ContainsFunc(lead, func(r rune) bool { return !strings.ContainsRune("這这那卻却說说且", r) }) {
		return 0, 0, false
	}
	p := ne
	for n := 0; n < 6; n++ {
		rest := d.text[p:]
		i := strings.IndexAny(rest, "，。；：！？、「」“”\n")
		if i < 0 || !strings.HasPrefix(rest[i:], "，") || strings.ContainsAny(rest[:i], subjectTurns) {
			return 0, 0, false
		}
		at := p + i + len("，")
		clause := d.text[at:]
		if r, _ := utf8.DecodeRuneInString(clause); strings.ContainsRune("他她它你我", r) {
			return 0, 0, false
		}
		if _, named := d.personMentionAt(at, 0); named {
			return 0, 0, false
		}
		h := at
		if c, cut := cutAnyPrefix(clause, "一隻手", "一只手", "手中", "手裏", "手里"); cut {
			h = len(d.text) - len(c)
		}
		if s, e, ok := d.heldAfter(h); ok {
			return s, e, true
		}
		p = at
	}
	return 0, 0, false
}

// subjectTurns are the words of a clause after which the next clause may
// be another's doing: a bidding (叫他取出…) or a passive (被他…).
const subjectTurns = "叫教請请命令差遣讓让被"
