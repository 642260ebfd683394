package factcheck

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// Kinship stated of a named character: whose wife, husband, son or
// daughter the text makes them, against the declared spouse or parents
// (facts or relations). The value is another entity, so it is compared by
// entity, not by words: "young Kurágin’s wife" of Lise, declared the
// wife of Prince Andrew, names a Kurágin, who is not her husband. Only a
// construction that predicates the kinship of the name counts (apposition,
// copula, 的/之 before a name with 名喚 or not); two names that merely
// share a sentence say nothing.

// kinRole is what a kinship word says of the named character: the fact
// keys (lower case; Chinese as written) that hold the other person.
type kinRole struct {
	keys []string
	// relations are the kinds of declared relations that hold them too.
	relations []string
	// inverse are the kinds of relation the other person's file may
	// declare of the named character for the same tie (a parent's son).
	inverse []string
	// sibling marks a brother or sister: nothing declares one to compare
	// with, but a declared spouse, parent or child is no sibling.
	sibling bool
	// former are the keys of a tie that changes hands (a servant is given
	// to another master): where the file gives none of them, the text may
	// speak of an earlier holder (servants.go).
	former []string
}

var (
	roleSpouseOfMan   = kinRole{keys: []string{"spouse", "husband", "丈夫", "夫", "夫君", "原聘", "未婚夫", "配偶"}, relations: []string{"spouse", "husband"}, inverse: []string{"spouse", "wife"}}
	roleSpouseOfWoman = kinRole{keys: []string{"spouse", "wife", "妻子", "妻", "夫人", "配偶"}, relations: []string{"spouse", "wife"}, inverse: []string{"spouse", "husband"}}
	// A betrothal is not a marriage: 未娶之妻, 指腹為婚 compare with the
	// declared betrothed only.
	roleBetrothed = kinRole{keys: []string{"原聘", "未婚夫", "聘", "betrothed", "fiance", "fiancé"}, relations: []string{"betrothed", "fiance"}, inverse: []string{"betrothed", "fianc"}}
	roleSpouse    = kinRole{keys: []string{"spouse", "husband", "wife"}, relations: []string{"spouse", "husband", "wife"}, inverse: []string{"spouse", "husband", "wife"}}
	// A disciple's master or teacher (唐僧的徒弟孫悟空).
	roleDisciple = kinRole{keys: []string{"master", "teacher", "師父", "师父", "師傅", "师傅", "師尊", "师尊", "老師", "老师"}, relations: []string{"master", "teacher"}, inverse: []string{"disciple", "pupil", "student", "apprentice"}}
	// A servant's master or mistress, now or before (王夫人之婢, Lady
	// Catherine’s maid): the file may give either.
	roleServant = kinRole{keys: []string{"master", "mistress", "employer", "former_master", "former_mistress", "主人", "主子", "舊主", "旧主", "原主"},
		relations: []string{"master", "mistress", "employer"}, inverse: []string{"servant", "maid", "valet", "丫頭", "丫鬟", "婢"},
		former: []string{"former_master", "former_mistress", "舊主", "旧主", "原主"}}
	roleChild = kinRole{keys: []string{"father", "mother", "parent", "parents", "父親", "父亲", "父", "母親", "母亲", "母", "父母"}, relations: []string{"father", "mother", "parent"}, inverse: []string{"son", "daughter", "child"}}
	// A child of a man or of a woman: only the one parent is compared.
	roleChildOfMan   = kinRole{keys: []string{"father", "parent", "parents", "父親", "父亲", "父", "父母"}, relations: []string{"father", "parent"}, inverse: []string{"son", "daughter", "child"}}
	roleChildOfWoman = kinRole{keys: []string{"mother", "parent", "parents", "母親", "母亲", "母", "父母"}, relations: []string{"mother", "parent"}, inverse: []string{"son", "daughter", "child"}}
	// roleSibling's keys and relations are those a sibling cannot hold.
	roleSibling = kinRole{keys: []string{"spouse", "husband", "wife", "father", "mother", "丈夫", "妻子", "妻", "夫人", "父親", "父亲", "母親", "母亲"},
		relations: []string{"spouse", "husband", "wife", "father", "mother"}, sibling: true}
)

// latinKin maps an English kinship noun after a possessive ("X’s wife")
// to what it makes the named character.
var latinKin = map[string]kinRole{
	"wife": roleSpouseOfMan, "husband": roleSpouseOfWoman, "son": roleChild, "daughter": roleChild,
	"sister": roleSibling, "brother": roleSibling, "maid": roleServant, "servant": roleServant, "valet": roleServant,
}

// cjkKin are the Chinese kinship words after 的 or 之, longest first.
var cjkKin = []struct {
	word string
	role kinRole
}{
	{"未婚妻", roleSpouseOfMan}, {"未娶之妻", roleSpouseOfMan}, {"女兒", roleChild}, {"女儿", roleChild}, {"小姐", roleChild},
	{"兒子", roleChild}, {"儿子", roleChild}, {"公子", roleChild}, {"妻子", roleSpouseOfMan}, {"夫人", roleSpouseOfMan},
	{"媳婦", roleSpouseOfMan}, {"媳妇", roleSpouseOfMan}, {"娘子", roleSpouseOfMan}, {"丈夫", roleSpouseOfWoman},
	{"夫君", roleSpouseOfWoman}, {"兄弟", roleSibling}, {"哥哥", roleSibling}, {"弟弟", roleSibling}, {"姐姐", roleSibling}, {"妹妹", roleSibling},
	// A first wife, dead or put away (賈蓉的先妻秦氏), is still the wife
	// the files declare.
	{"先妻", roleSpouseOfMan}, {"前妻", roleSpouseOfMan},
	{"妻", roleSpouseOfMan}, {"女", roleChild}, {"子", roleChild},
	// After 之 only, as the one-character words above (襲人之兄).
	{"兄", roleSibling}, {"弟", roleSibling}, {"姐", roleSibling}, {"姊", roleSibling}, {"妹", roleSibling}, {"兒", roleChild}, {"儿", roleChild},
	{"徒弟", roleDisciple}, {"徒兒", roleDisciple}, {"徒儿", roleDisciple}, {"弟子", roleDisciple},
	{"丫頭", roleServant}, {"丫头", roleServant}, {"丫鬟", roleServant}, {"丫环", roleServant}, {"侍女", roleServant}, {"使女", roleServant},
	{"小廝", roleServant}, {"小厮", roleServant}, {"婢", roleServant},
}

// kinCopulas join a name to what it is (尤二姐實系…之妻, 李氏即賈珠之妻),
// an adverb before the copula included (襲人亦是…之婢).
var kinCopulas = []string{"實系", "實係", "实系", "原是", "本是", "乃是", "就是", "便是", "亦是", "也是", "卻是", "却是", "又是", "即是", "是", "乃", "即", "係", "系", "為", "为"}

// cjkNaming introduce the name after a kinship word (…的小姐，名喚英蓮).
var cjkNaming = []string{"名喚", "名唤", "喚名", "唤名", "名叫", "叫做", "喚做", "唤做", "名", ""}

// cjkHouseTitles after a family name stand for the head of that house
// (封老爺: Mr. Feng).
var cjkHouseTitles = []string{"老爺", "老爷", "大爺", "大爷", "員外", "员外", "先生", "老先生", "家"}

// checkKinship finds kinship predicated of a name that contradicts what is
// declared.
func (k *Knowledge) checkKinship(d *doc) []Finding {
	var out []Finding
	for mi, m := range d.mentions {
		if len(m.ents) != 1 || !m.ents[0].person {
			continue
		}
		var (
			ostart, oend int
			other        *entInfo
			surname      rune
			role         kinRole
			ok           bool
		)
		if m.firstWord >= 0 {
			ostart, oend, other, role, ok = k.latinKinOf(d, mi)
		} else {
			ostart, oend, other, surname, role, ok = k.cjkKinOf(d, mi)
		}
		if !ok && m.firstWord >= 0 {
			if f, bad := k.undeclaredSpouse(d, mi); bad {
				out = append(out, f)
			} else if f, bad := k.undeclaredKin(d, mi); bad {
				out = append(out, f)
			}
			continue
		}
		if !ok || other == m.ents[0] {
			continue
		}
		// Whose child: a man (by the entity's gender, or a house title
		// such as 老爺) has the child's father compared, not the mother
		// (封老爺's daughter against 母親: 封氏).
		role = childRole(d, role, other, ostart, oend)
		if f, bad := k.judgeKin(d, m.ents[0], ostart, oend, other, surname, role); bad {
			out = append(out, f)
		} else if role.sibling {
			if f, bad := k.judgeSiblingFamily(d, m, ostart, oend, other); bad {
				out = append(out, f)
			}
		} else if slices.Equal(role.inverse, roleChild.inverse) {
			if f, bad := k.judgeChildFamily(d, m, ostart, oend, other); bad {
				out = append(out, f)
			}
		}
	}
	// 他是牛魔王的兒子，…乳名叫做紅孩兒: a reference holders.go resolves
	// stands for its person.
	if d.cjk {
		for _, r := range k.references(d) {
			ostart, oend, other, surname, role, ok := d.cjkKinAfter(k, r.end)
			if !ok || other == r.ent {
				continue
			}
			role = childRole(d, role, other, ostart, oend)
			if f, bad := k.judgeKin(d, r.ent, ostart, oend, other, surname, role); bad {
				out = append(out, f)
			}
			// …的兒子，玉面公主養的: the next clause goes on about the
			// same child and names who bore them.
			if bs, be, bother, bsur, brole, ok := d.bornOfAfter(k, oend); ok && bother != r.ent {
				if f, bad := k.judgeKin(d, r.ent, bs, be, bother, bsur, brole); bad {
					out = append(out, f)
				}
			}
		}
	}
	// "his wife, Hélène" (kinpronoun.go).
	out = append(out, k.checkPronounKin(d)...)
	// "Pierre’s father, Prince Vasíli", judged by Pierre's file (kinholder.go).
	out = append(out, k.checkHolderKin(d)...)
	// 玄奘道：「我是陳光蕊的兒子」 (kinself.go).
	out = append(out, k.checkSelfKin(d)...)
	// "This stout young man was an illegitimate son of …" (kindescribed.go);
	// 狗儿遂將岳母劉姥姥接來 (cjkinlaws.go).
	out = append(out, k.checkDescribedKin(d)...)
	return append(out, k.checkCJKInLaws(d)...)
}

// childRole is role made the child of a man or of a woman by the gender
// of the parent: the entity's, or a house title's (老爺, 夫人).
func childRole(d *doc, role kinRole, other *entInfo, start, end int) kinRole {
	if !role.sibling && role.keys[0] == roleChild.keys[0] {
		switch {
		case other != nil && other.gender == 'm', other == nil && maleHouseTitle(d.text[start:end]):
			return roleChildOfMan
		case other != nil && other.gender == 'f':
			return roleChildOfWoman
		}
	}
	return role
}

// judgeKin compares the other person a kinship construction names (an
// entity, or only a family name) with e's declared values for the role.
func (k *Knowledge) judgeKin(d *doc, e *entInfo, start, end int, other *entInfo, surname rune, role kinRole) (Finding, bool) {
	facts := d.factsOf(e)
	if role.sibling {
		return k.judgeSibling(d, e, start, end, other, role)
	}
	if len(role.former) > 0 && !slices.ContainsFunc(role.former, func(fk string) bool {
		for k := range facts {
			if strings.ToLower(k) == fk {
				return true
			}
		}
		return false
	}) && k.earlierServant(d, e, other, start) {
		return Finding{}, false
	}
	var key, val string
	full := other == nil && surname == 0 // a full name no file declares
	for _, want := range role.keys {
		for fk, fv := range facts {
			if strings.ToLower(fk) != want || strings.TrimSpace(fv) == "" {
				continue
			}
			if full && k.fullNameMatches(fv, d.text[start:end]) || !full && k.kinMatches(fv, other, surname) {
				return Finding{}, false
			}
			if key == "" {
				key, val = fk, fv
			}
		}
	}
	if r := k.related(e, role.relations); r != nil {
		if other != nil && r == other || full && k.fullNameMatches(r.e.Name, d.text[start:end]) ||
			other == nil && !full && k.kinMatches(r.e.Name, nil, surname) {
			return Finding{}, false
		}
		if key == "" {
			key, val = "relations", r.e.Name
		}
	}
	if key == "" {
		return Finding{}, false // nothing declared: nothing to contradict
	}
	if k.relatesTo(e, other, d.text[start:end], full, role.inverse) {
		return Finding{}, false
	}
	conf := 0.7
	if other == nil {
		conf = 0.6 // a family name only
	}
	f := k.cjkFactFinding(d, e, start, end, key, val, conf)
	if key == "relations" {
		f.Message = fmt.Sprintf("the text says %q, but %s's declared relation is %s as of chapter %d", d.text[start:end], e.e.Name, val, d.chapter)
	}
	return f, true
}

// relatesTo reports whether the other person of a kinship construction
// is an entity that declares the tie to e from its own side, as a
// relation of one of the kinds inverse (the mother's file names the son;
// the son's file names only his father):
// other itself, or, for a full name no file declares as written, an
// entity one of whose names holds it or is held by it (羅剎 of 羅剎女).
// What one side of a family declares does not make the other side's
// silence a contradiction.
func (k *Knowledge) relatesTo(e, other *entInfo, name string, full bool, inverse []string) bool {
	if other == nil && !full || len(inverse) == 0 {
		return false
	}
	fname := string(k.foldRunes(name))
	for _, x := range k.ents {
		if x == e || other != nil && x != other {
			continue
		}
		declares := false
		for _, r := range x.e.Relations {
			kind := strings.ToLower(r.Kind)
			if slices.ContainsFunc(inverse, func(w string) bool { return strings.Contains(kind, w) }) && k.byResource(r.To) == e {
				declares = true
				break
			}
		}
		if !declares {
			continue
		}
		if other != nil {
			return true
		}
		for _, n := range append([]string{x.e.Name}, x.e.Aliases...) {
			fn := string(k.foldRunes(strings.TrimSpace(n)))
			if len([]rune(fn)) >= 2 && len([]rune(fname)) >= 2 && (strings.Contains(fn, fname) || strings.Contains(fname, fn)) {
				return true
			}
		}
	}
	return false
}

// judgeSibling finds a brother or sister who is declared e's spouse or
// parent ("the Countess Bezúkhova, Pierre’s sister", of Pierre's wife).
// Only an entity is judged: a family name is shared by siblings and
// spouses alike.
func (k *Knowledge) judgeSibling(d *doc, e *entInfo, start, end int, other *entInfo, role kinRole) (Finding, bool) {
	if other == nil {
		return Finding{}, false
	}
	facts := d.factsOf(e)
	for _, want := range role.keys {
		for _, fk := range slices.Sorted(maps.Keys(facts)) {
			if strings.ToLower(fk) == want && namesEntity(facts[fk], other) {
				return k.cjkFactFinding(d, e, start, end, fk, facts[fk], 0.7), true
			}
		}
	}
	if r := k.related(e, role.relations); r == other {
		f := k.cjkFactFinding(d, e, start, end, "relations", r.e.Name, 0.7)
		f.Message = fmt.Sprintf("the text says %q, but %s's declared relation is %s as of chapter %d", d.text[start:end], e.e.Name, r.e.Name, d.chapter)
		return f, true
	}
	return Finding{}, false
}

// fullNameMatches reports whether a declared value may be the person a
// text names by an undeclared full name: the same name, or a value that is
// no short Chinese name (秦業之女 cannot be told apart from it by the
// words alone).
func (k *Knowledge) fullNameMatches(declared, name string) bool {
	dv, nv := string(k.foldRunes(strings.TrimSpace(declared))), string(k.foldRunes(name))
	if strings.Contains(dv, nv) || strings.Contains(nv, dv) {
		return true
	}
	if otherTitled(dv, nv) {
		return false
	}
	// Two names of one title with other names before it (鐵扇公主 and
	// 玉面公主, 王夫人 and 邢夫人) are two people.
	for _, t := range cjkFemaleTitles {
		ds, dok := strings.CutSuffix(dv, t)
		ns, nok := strings.CutSuffix(nv, t)
		if dok && nok && utf8.RuneCountInString(ds) >= 2 && utf8.RuneCountInString(ns) >= 2 && prose.AllCJK([]rune(ds+ns)) {
			return false
		}
	}
	drs, nrs := []rune(dv), []rune(nv)
	if len(drs) < 2 || len(drs) > 3 || !prose.IsCJK(drs[0]) || strings.ContainsFunc(dv, func(r rune) bool { return !prose.IsCJK(r) }) {
		return true
	}
	if drs[0] != nrs[0] {
		return false
	}
	// Another name the declared person bears (蓉哥兒 of 賈蓉) shares a
	// character of the given name; 賈蓉 and 賈薔 share only the family.
	for _, r := range drs[1:] {
		if strings.ContainsRune(string(nrs[1:]), r) {
			return true
		}
	}
	return false
}

// namesEntity reports whether a declared value holds one of e's names
// (four letters or two characters at least).
func namesEntity(declared string, e *entInfo) bool {
	dv := prose.Unaccented(declared)
	for _, n := range e.e.Names() {
		nv := prose.Unaccented(n)
		if utf8.RuneCountInString(nv) >= 4 || prose.HasCJK(nv) && utf8.RuneCountInString(nv) >= 2 {
			if strings.Contains(dv, nv) {
				return true
			}
		}
	}
	return false
}

// kinMatches reports whether a declared value names the other person: it
// holds one of the other entity's names (西海龍王敖閏 holds 敖閏), or, when
// the text gives only a family name, it starts with it.
func (k *Knowledge) kinMatches(declared string, other *entInfo, surname rune) bool {
	dv := prose.Unaccented(declared)
	if other == nil {
		first, _ := utf8.DecodeRuneInString(declared)
		return k.foldRune(first) == k.foldRune(surname)
	}
	for _, n := range other.e.Names() {
		if nv := prose.Unaccented(n); strings.Contains(dv, nv) || strings.Contains(nv, dv) {
			return true
		}
	}
	// A declared value that names an entity by a name this one does not
	// bear is another person; one that names no entity cannot be judged.
	for _, w := range prose.LatinWords(declared) {
		for _, n := range other.e.Names() {
			for _, nw := range prose.LatinWords(n) {
				if len(nw) > 3 && prose.Unaccented(nw) == prose.Unaccented(w) && unicode.IsUpper([]rune(nw)[0]) && !titleWords[nw] && !peerTitles[nw] && rankClass[nw] == "" {
					return true // a surname both share: one family, not judged
				}
			}
		}
	}
	if prose.HasCJK(declared) {
		// A short Chinese value is a name (張華); a long one is prose
		// that cannot be judged.
		return utf8.RuneCountInString(declared) > 8
	}
	return !k.namesSomeone(declared)
}

// namesSomeone reports whether a declared value holds a declared name.
func (k *Knowledge) namesSomeone(v string) bool {
	dv := prose.Unaccented(v)
	for _, e := range k.ents {
		for _, n := range e.e.Names() {
			if nv := prose.Unaccented(n); len(nv) >= 4 && strings.Contains(dv, nv) {
				return true
			}
		}
	}
	return false
}

// latinKinOf reads "NAME, X’s wife", "X’s wife, NAME", "NAME, the wife of
// X" and "NAME was X’s wife / the wife of X". It returns X's span and
// entity.
func (k *Knowledge) latinKinOf(d *doc, mi int) (int, int, *entInfo, kinRole, bool) {
	m := d.mentions[mi]
	after := d.text[m.end:]
	// NAME married X | NAME had married X | NAME was married to X.
	for _, v := range []string{" married ", " had married ", " was married to ", " is married to "} {
		if strings.HasPrefix(after, v) {
			xs := m.end + len(v)
			if om, ok := d.personMentionAt(xs, 0); ok {
				return om.start, om.end, om.ents[0], roleSpouse, true
			}
		}
	}
	// NAME, X’s wife | NAME was X’s wife
	for _, lead := range []string{", ", " was ", " is "} {
		if !strings.HasPrefix(after, lead) {
			continue
		}
		at := m.end + len(lead)
		rest := d.text[at:]
		// …the wife of X
		if xs, xe, other, role, ok := d.kinNounOf(at, 2); ok {
			return xs, xe, other, role, true
		}
		// …X’s wife: X is a name, maybe after young/old/the late.
		xs := at
		for _, w := range []string{"young ", "old ", "the late ", "the "} {
			if strings.HasPrefix(d.text[xs:], w) {
				xs += len(w)
				break
			}
		}
		om, ok := d.personMentionAt(xs, 0)
		if !ok || !om.possessive {
			continue
		}
		rest = d.text[om.end:]
		for _, p := range []string{"’s ", "'s "} {
			if r, cut := strings.CutPrefix(rest, p); cut {
				noun := strings.TrimRight(strings.SplitN(r, " ", 2)[0], ",.;:!?”\"")
				if role, ok := latinKin[noun]; ok {
					return at, om.end + len(p) + len(noun), om.ents[0], role, true
				}
			}
		}
	}
	// X’s wife, NAME
	before := d.text[:m.start]
	if b, cut := strings.CutSuffix(before, ", "); cut {
		for noun, role := range latinKin {
			b2, cut := strings.CutSuffix(b, " "+noun)
			if !cut {
				continue
			}
			for _, p := range []string{"’s", "'s"} {
				if b3, cut := strings.CutSuffix(b2, p); cut {
					for _, i := range d.mentionsIn(len(b3)-64, len(b3)) {
						if om := d.mentions[i]; om.end == len(b3) && len(om.ents) == 1 && om.ents[0].person {
							return om.start, len(b2) + len(" "+noun), om.ents[0], role, true
						}
					}
				}
			}
		}
	}
	return 0, 0, nil, kinRole{}, false
}

// undeclaredSpouse reads "NAME, X’s wife" and "NAME was X’s husband"
// where X is a name no entity holds ("the Countess Bezúkhova, Prince
// Vasíli’s wife"). When NAME's declared spouse is an entity none of whose
// names shares a word with X, X is someone else.
func (k *Knowledge) undeclaredSpouse(d *doc, mi int) (Finding, bool) {
	m := d.mentions[mi]
	e := m.ents[0]
	at := -1
	for _, lead := range []string{", ", " was ", " is "} {
		if strings.HasPrefix(d.text[m.end:], lead) {
			at = m.end + len(lead)
		}
	}
	if at < 0 {
		return Finding{}, false
	}
	xs := at
	if strings.HasPrefix(d.text[xs:], "the ") {
		xs += len("the ")
	}
	// X: one to three capitalised words, the last with a possessive,
	// then the kinship noun.
	var words []string
	end, noun := xs, ""
	for n := 0; n < 3 && noun == ""; n++ {
		i := strings.IndexAny(d.text[end:], " \n")
		if i <= 0 {
			return Finding{}, false
		}
		w := d.text[end : end+i]
		if !unicode.IsUpper([]rune(w)[0]) {
			return Finding{}, false
		}
		end += i + 1
		base, possessive := strings.CutSuffix(w, "’s")
		if !possessive {
			base, possessive = strings.CutSuffix(w, "'s")
		}
		words = append(words, base)
		if possessive {
			j := strings.IndexFunc(d.text[end:], func(r rune) bool { return !unicode.IsLetter(r) })
			if j < 0 {
				j = len(d.text) - end
			}
			if j == 0 {
				return Finding{}, false
			}
			noun, end = d.text[end:end+j], end+j
		}
	}
	role, ok := latinKin[noun]
	if !ok || role.sibling || role.keys[0] == roleChild.keys[0] || d.overlapsMention(xs, end) {
		return Finding{}, false
	}
	// The declared spouse, an entity.
	var spouse *entInfo
	var key, val string
	facts := d.factsOf(e)
	for _, fk := range slices.Sorted(maps.Keys(facts)) {
		if fv := facts[fk]; slices.Contains(roleSpouse.keys, strings.ToLower(fk)) {
			for _, o := range k.ents {
				if o != e && o.person && namesEntity(fv, o) {
					spouse, key, val = o, fk, fv
				}
			}
		}
	}
	if spouse == nil {
		if r := k.related(e, roleSpouse.relations); r != nil {
			spouse, key, val = r, "relations", r.e.Name
		}
	}
	if spouse == nil {
		return Finding{}, false
	}
	for _, n := range spouse.e.Names() {
		for _, nw := range prose.LatinWords(n) {
			for _, w := range words {
				if prose.Unaccented(nw) == prose.Unaccented(w) && !titleWords[w] {
					return Finding{}, false
				}
			}
		}
	}
	f := k.cjkFactFinding(d, e, xs, end, key, val, 0.6)
	if key == "relations" {
		f.Message = fmt.Sprintf("the text says %q, but %s's declared relation is %s as of chapter %d", d.text[xs:end], e.e.Name, val, d.chapter)
	}
	return f, true
}

// personMentionAt returns the one-person mention that starts at byte
// offset at (after at most skip bytes).
func (d *doc) personMentionAt(at, skip int) (mention, bool) {
	for _, i := range d.mentionsIn(at, at+skip+1) {
		if om := d.mentions[i]; om.start >= at && om.start <= at+skip && len(om.ents) == 1 && om.ents[0].person {
			return om, true
		}
	}
	return mention{}, false
}

// cjkKinOf reads "X的小姐，名喚NAME", "X之女NAME" and "NAME是X的女兒",
// "NAME實系X…之妻". X is a person's name, or a family name with a title
// of the house head (封老爺), for which surname is set and the entity is
// nil.
func (k *Knowledge) cjkKinOf(d *doc, mi int) (int, int, *entInfo, rune, kinRole, bool) {
	m := d.mentions[mi]
	// X的REL[，][名喚]NAME
	before := d.text[:m.start]
	for _, nm := range cjkNaming {
		b, cut := strings.CutSuffix(before, nm)
		if !cut {
			continue
		}
		b, comma := strings.CutSuffix(b, "，")
		for _, kw := range cjkKin {
			// "牛魔王的兄弟，羅剎女養的": after a comma with no naming
			// verb, the next name starts another clause.
			if kw.role.sibling && comma && nm == "" {
				continue
			}
			b2, cut := strings.CutSuffix(b, kw.word)
			if !cut {
				continue
			}
			var b3 string
			if x, cut := strings.CutSuffix(b2, "的"); cut {
				b3 = x
			} else if x, cut := strings.CutSuffix(b2, "之"); cut {
				b3 = x
			} else {
				continue
			}
			if nm == "" && utf8.RuneCountInString(kw.word) == 1 && !strings.HasSuffix(b2, "之") {
				continue // 的女 / 的子 run on into other words
			}
			if s, e, other, sur, ok := d.kinHolderEndingAt(k, len(b3)); ok {
				return s, e, other, sur, kw.role, true
			}
		}
	}
	return d.cjkKinAfter(k, m.end)
}

// cjkKinAfter reads NAME是X…的REL where NAME (a name or a resolved
// reference) ends at end: X, and the relation REL is of NAME to X.
func (d *doc) cjkKinAfter(k *Knowledge, end int) (int, int, *entInfo, rune, kinRole, bool) {
	after := d.text[end:]
	for _, c := range kinCopulas {
		if !strings.HasPrefix(after, c) {
			continue
		}
		xs := end + len(c)
		s, e, other, sur, ok := d.kinHolderStartingAt(k, xs)
		if !ok {
			continue
		}
		// NAME是X所生: born of X, whose child NAME is; a woman's title
		// (姨娘, 夫人) makes X the mother.
		if strings.HasPrefix(d.text[e:], "所生") {
			role := roleChild
			if other == nil && femaleHouseTitle(d.text[s:e]) {
				role = roleChildOfWoman
			}
			return s, e, other, sur, role, true
		}
		// Up to eight characters between X and 的/之 REL (指腹為婚未娶之妻).
		rest := d.text[e:]
		for n := 0; n <= 8 && rest != ""; n++ {
			for _, mark := range []string{"的", "之"} {
				if r, cut := strings.CutPrefix(rest, mark); cut {
					for _, kw := range cjkKin {
						if strings.HasPrefix(r, kw.word) {
							// 的兒媳婦, 之兒孫: 兒 alone is a child only
							// after 之 and before no other kinship word.
							if (kw.word == "兒" || kw.word == "儿") && (mark != "之" || strings.ContainsRune("媳女孫孙子", firstRune(r[len(kw.word):]))) {
								continue
							}
							role := kw.role
							between := d.text[e : len(d.text)-len(rest)]
							if !role.sibling && (role.keys[0] == roleSpouseOfMan.keys[0] && strings.ContainsAny(between, "聘") ||
								strings.Contains(between, "未娶") || strings.Contains(between, "未婚") || strings.Contains(between, "指腹")) {
								role = roleBetrothed
							}
							return s, e, other, sur, role, true
						}
					}
				}
			}
			r, size := utf8.DecodeRuneInString(rest)
			if !prose.IsCJK(r) || strings.ContainsRune("，。；！？", r) {
				break
			}
			rest = rest[size:]
		}
		break
	}
	return 0, 0, nil, 0, kinRole{}, false
}

// bornOfVerbs say whom a child was born of, after the parent (玉面公主養的,
// 趙姨娘所生).
var bornOfVerbs = []string{"養的", "养的", "生的", "所生"}

// cjkFemaleTitles end a woman's name or title that no file declares
// (玉面公主, 趙姨娘).
var cjkFemaleTitles = []string{"公主", "娘娘", "姨娘", "夫人", "太太", "奶奶", "氏"}

// bornOfAfter reads the clause after a kinship construction that ends at
// from (是牛魔王的兒子，玉面公主養的): a comma, the parent, and a verb of
// bearing. The parent is a declared person, a family name with a house
// title, or a name ending in a woman's title; the role is the child's of
// a man or of a woman by the parent's gender or title.
func (d *doc) bornOfAfter(k *Knowledge, from int) (int, int, *entInfo, rune, kinRole, bool) {
	rest := d.text[from:]
	comma := strings.Index(rest, "，")
	if comma < 0 || utf8.RuneCountInString(rest[:comma]) > 4 || strings.ContainsAny(rest[:comma], "。！？；「」“”") {
		return 0, 0, nil, 0, kinRole{}, false
	}
	at := from + comma + len("，")
	bornOf := func(e int) bool {
		return slices.ContainsFunc(bornOfVerbs, func(v string) bool { return strings.HasPrefix(d.text[e:], v) })
	}
	if s, e, other, sur, ok := d.kinHolderStartingAt(k, at); ok && bornOf(e) {
		// Whose child by the parent's gender or title: a parent of
		// neither (羅剎女 in a project without her) may be the mother
		// as well as the father, and is not compared.
		switch {
		case other != nil && other.gender == 'f', other == nil && femaleHouseTitle(d.text[s:e]):
			return s, e, other, sur, roleChildOfWoman, true
		case other != nil && other.gender == 'm', other == nil && maleHouseTitle(d.text[s:e]):
			return s, e, other, sur, roleChildOfMan, true
		}
	}
	// A woman no file declares: up to five characters ending in a
	// woman's title.
	end := at
	for n := 0; n < 5 && end < len(d.text); n++ {
		r, size := utf8.DecodeRuneInString(d.text[end:])
		if !prose.IsCJK(r) {
			break
		}
		end += size
		if slices.ContainsFunc(cjkFemaleTitles, func(t string) bool { return strings.HasSuffix(d.text[at:end], t) }) && bornOf(end) {
			return at, end, nil, 0, roleChildOfWoman, true
		}
	}
	return 0, 0, nil, 0, kinRole{}, false
}

// kinHolderEndingAt finds a person's name, or a family name and a house
// title, that ends at byte offset end.
func (d *doc) kinHolderEndingAt(k *Knowledge, end int) (int, int, *entInfo, rune, bool) {
	// A family name and a title first: 甄老爺 is Mr. Zhen, though 老爺
	// alone is an alias of the master of the house.
	for _, t := range cjkHouseTitles {
		b, cut := strings.CutSuffix(d.text[:end], t)
		if !cut || b == "" {
			continue
		}
		r, size := utf8.DecodeLastRuneInString(b)
		if k.isFamilyName(r) && !d.overlapsMention(len(b)-size, len(b)) {
			return len(b) - size, end, nil, r, true
		}
	}
	for _, i := range d.mentionsIn(end-64, end) {
		if om := d.mentions[i]; om.end == end && len(om.ents) == 1 && om.ents[0].person {
			return om.start, om.end, om.ents[0], 0, true
		}
	}
	if s, ok := d.titledEndingAt(k, end); ok {
		return s, end, nil, 0, true
	}
	if s, ok := d.bookNameEndingAt(k, end); ok {
		return s, end, nil, 0, true
	}
	return 0, 0, nil, 0, false
}

// minBookNameUses is how often the manuscript must write an undeclared
// full name before a kinship construction may judge it by the whole name.
const minBookNameUses = 5

// bookNameEndingAt finds a full name no file declares that ends at byte
// offset end: a family name and one or two characters that the manuscript
// writes often (賈薔 in 賈薔之妻), so that it is a person of the book and
// not a word or a slip. Its start is returned; the whole name is what
// judgeKin compares then, with no family name alone (other nil,
// surname 0).
func (d *doc) bookNameEndingAt(k *Knowledge, end int) (int, bool) {
	if k.book == nil {
		return 0, false
	}
	for _, n := range []int{3, 2} {
		start, ok := end, true
		for i := 0; i < n && ok; i++ {
			r, size := utf8.DecodeLastRuneInString(d.text[:start])
			ok = prose.IsCJK(r) && !strings.ContainsRune("的之是乃和与與及同", r)
			start -= size
		}
		if !ok || start < 0 || d.overlapsMention(start, end) {
			continue
		}
		first, _ := utf8.DecodeRuneInString(d.text[start:])
		given := d.text[start+utf8.RuneLen(first) : end]
		// 柳二郎, 蓉哥兒: a rank or a familiar ending names someone by
		// another name than the full one, who may be the declared person.
		if !k.isFamilyName(first) || strings.ContainsFunc(given, func(r rune) bool {
			return prose.IsCJKNumeral(r) || strings.ContainsRune("郎哥兒儿爺爷姐娘氏家", r)
		}) {
			continue
		}
		if k.book.countCJK(string(k.foldRunes(d.text[start:end]))) >= minBookNameUses {
			return start, true
		}
	}
	return 0, false
}

// kinHolderStartingAt finds a person's name, or a family name and a house
// title, that starts at byte offset at.
func (d *doc) kinHolderStartingAt(k *Knowledge, at int) (int, int, *entInfo, rune, bool) {
	r, size := utf8.DecodeRuneInString(d.text[at:])
	if k.isFamilyName(r) && !d.overlapsMention(at, at+size) {
		for _, t := range cjkHouseTitles {
			if strings.HasPrefix(d.text[at+size:], t) {
				return at, at + size + len(t), nil, r, true
			}
		}
	}
	if om, ok := d.personMentionAt(at, 0); ok {
		return om.start, om.end, om.ents[0], 0, true
	}
	if e, ok := d.titledStartingAt(k, at); ok && !d.overlapsMention(at, e) {
		return at, e, nil, 0, true
	}
	if !k.isFamilyName(r) {
		return 0, 0, nil, 0, false
	}
	// A name the files do not declare (柳湘蓮 in a project without him):
	// a family name and two characters, or one when 的 or 之 and a
	// kinship word follow at once (劉洪的兒子). Only the family name is
	// judged.
	end := at + size
	for n := 0; n < 2; n++ {
		r, size := utf8.DecodeRuneInString(d.text[end:])
		if n == 1 && kinWordAfterMark(d.text[end:]) {
			break
		}
		if !prose.IsCJK(r) || strings.ContainsRune("的之是乃", r) {
			return 0, 0, nil, 0, false
		}
		end += size
	}
	if d.overlapsMention(at, end) {
		return 0, 0, nil, 0, false
	}
	return at, end, nil, r, true
}

// isFamilyName reports whether r is a common family name or the first
// character of a declared person's Chinese name or of a name a kinship
// fact gives (封 of 母親: 封氏).
func (k *Knowledge) isFamilyName(r rune) bool {
	f := k.foldRune(r)
	if surnameSet.has(f) {
		return true
	}
	k.familiesOnce.Do(func() {
		k.families = map[rune]bool{}
		add := func(n string) {
			if rs := []rune(n); len(rs) >= 2 && len(rs) <= 4 && prose.IsCJK(rs[0]) {
				k.families[k.foldRune(rs[0])] = true
			}
		}
		for _, e := range k.ents {
			if !e.person {
				continue
			}
			for _, n := range e.e.Names() {
				add(n)
			}
			// The people named in kinship facts (母親: 封氏) have
			// families too, though no file of their own.
			k.eachFact(e, func(key, val string) {
				for _, role := range []kinRole{roleSpouseOfMan, roleSpouseOfWoman, roleChild} {
					if slices.Contains(role.keys, strings.ToLower(key)) {
						add(strings.TrimSpace(val))
					}
				}
			})
		}
	})
	return k.families[f]
}

// maleHouseTitle reports whether a family name's title is a man's (老爺,
// 先生), not the house's (家).
// femaleHouseTitle reports whether s ends with a title that names a woman
// of a house (趙姨娘, 王夫人, 周氏).
func femaleHouseTitle(s string) bool {
	for _, t := range []string{"姨娘", "夫人", "太太", "奶奶", "氏"} {
		if strings.HasSuffix(s, t) {
			return true
		}
	}
	return false
}

func maleHouseTitle(s string) bool {
	for _, t := range cjkHouseTitles {
		if t != "家" && strings.HasSuffix(s, t) {
			return true
		}
	}
	return false
}

// undeclaredKin finds "NAME, Title X’s daughter" where Title X is no
// entity (Prince Hippolyte, whom no file describes) but a name the book
// writes, and NAME's declared parent or spouse bears none of X's names
// (Prince Vasíli, whose file also calls him Prince Vasíli Kurágin): the
// text gives NAME another father. A title alone never judges.
func (k *Knowledge) undeclaredKin(d *doc, mi int) (Finding, bool) {
	m := d.mentions[mi]
	if len(m.ents) != 1 || !m.ents[0].person {
		return Finding{}, false
	}
	e := m.ents[0]
	i := m.lastWord + 1
	if i >= len(d.words) || (d.between(m.lastWord, i) != ", " && !(d.between(m.lastWord, i) == " " && (d.words[i].s == "was" || d.words[i].s == "is"))) {
		return Finding{}, false
	}
	if d.words[i].s == "was" || d.words[i].s == "is" {
		i++
	}
	if i+1 < len(d.words) && (d.words[i].s == "the" || d.words[i].s == "old" || d.words[i].s == "young") && d.between(i, i+1) == " " {
		i++
	}
	// Title, one or two capitalised words, ’s, a kinship noun.
	if i+3 >= len(d.words) || !titleWords[d.words[i].s] || !nameGap(d.between(i, i+1)) {
		return Finding{}, false
	}
	last := i + 1
	if last+1 < len(d.words) && capitalised(d.words[last+1].s) && d.between(last, last+1) == " " {
		last++
	}
	if last+2 >= len(d.words) || d.words[last+1].s != "s" || (d.between(last, last+1) != "’" && d.between(last, last+1) != "'") || d.between(last+1, last+2) != " " {
		return Finding{}, false
	}
	role, ok := latinKin[strings.ToLower(d.words[last+2].s)]
	if !ok || role.sibling {
		return Finding{}, false
	}
	start, end := d.words[i].start, d.words[last].end
	if d.overlapsMention(start, end) || k.book == nil || k.book.usesExactly(d.text[start:end]) < minBookUses {
		return Finding{}, false
	}
	var given []string
	for _, w := range d.words[i+1 : last+1] {
		given = append(given, prose.Unaccented(w.s))
	}
	facts := d.factsOf(e)
	keys := role.keys
	if keys[0] == roleChild.keys[0] {
		// Whose child: a father's title or a mother's.
		keys = roleChildOfMan.keys
		if femaleTitles[d.words[i].s] {
			keys = roleChildOfWoman.keys
		}
	}
	for _, want := range keys {
		for fk, fv := range facts {
			if strings.ToLower(fk) != want || strings.TrimSpace(fv) == "" {
				continue
			}
			names := []string{fv}
			for _, o := range k.ents {
				if o.person && namesEntity(fv, o) {
					names = append(names, o.e.Names()...)
				}
			}
			shared := false
			for _, n := range names {
				for _, w := range prose.LatinWords(n) {
					if slices.Contains(given, prose.Unaccented(w)) {
						shared = true
					}
				}
			}
			if shared || !slices.ContainsFunc(prose.LatinWords(fv), func(w string) bool { return capitalised(w) && !titleWords[w] }) {
				return Finding{}, false
			}
			return k.cjkFactFinding(d, e, start, end, fk, fv, 0.6), true
		}
	}
	return Finding{}, false
}

// femaleTitles name a woman.
var femaleTitles = wordSet("Princess", "Countess", "Mrs", "Lady", "Miss", "Madame", "Baroness", "Duchess", "Queen", "Empress")

// kinWordAfterMark reports whether s opens with 的 or 之 and a kinship
// word of two characters or more (的兒子, 之妻子): what ends a name
// there is the mark, not a character of the name.
func kinWordAfterMark(s string) bool {
	for _, mark := range []string{"的", "之"} {
		if r, ok := strings.CutPrefix(s, mark); ok {
			for _, kw := range cjkKin {
				if utf8.RuneCountInString(kw.word) >= 2 && strings.HasPrefix(r, kw.word) {
					return true
				}
			}
		}
	}
	return false
}

// firstRune is the first rune of s, or utf8.RuneError when s is empty.
func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}
