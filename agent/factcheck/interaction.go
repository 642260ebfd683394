package factcheck

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// Presence by interaction: whom one tells something face to face, and
// whom a subject's companion acts on with them. Each reads the
// construction of the language; a message sent, a telling denied or
// wished, and talk in a memory are left out.

// cjkInformVerbs tell someone something: 告訴了賈母和寶釵.
var cjkInformVerbs = []string{"告訴", "告诉"}

// cjkMessageWords in the clause before a verb of telling make it a
// message sent or a telling not done: 打發人去告訴, 遣人告訴, 叫小丫頭
// 告訴, 寫信告訴, 不敢告訴, 要告訴.
var cjkMessageWords = []string{"打發", "打发", "派", "遣", "差", "命", "叫", "使", "讓", "让", "託", "托", "信", "書", "书", "寫", "写",
	"不", "沒", "没", "未", "別", "别", "莫", "休", "要", "想", "欲", "該", "该", "應", "应", "須", "须", "肯", "敢", "若", "如"}

// cjkTold reports whether m, alone or in the list of names it belongs
// to, is whom someone tells something in the scene: "寶玉回到自己房中，告
// 訴了賈母和寶釵". Going to tell (去告訴), a message sent, and a telling
// denied, wished or supposed are no meeting.
func (d *doc) cjkTold(m mention) bool {
	first := d.listStart(m)
	before := strings.TrimSuffix(d.text[:first.start], "了")
	told := false
	for _, v := range cjkInformVerbs {
		if b, ok := strings.CutSuffix(before, v); ok {
			before, told = b, true
			break
		}
	}
	if !told || d.recalledBefore(first.start) || strings.HasSuffix(before, "去") {
		return false
	}
	clause := before[max(0, len(before)-60):]
	if i := strings.LastIndexAny(clause, "。，；：！？」“”「\n"); i >= 0 {
		clause = clause[i:]
	}
	for _, w := range cjkMessageWords {
		if strings.Contains(clause, w) {
			return false
		}
	}
	rest := d.text[m.end:]
	r, _ := utf8.DecodeRuneInString(rest)
	if r == '的' || r == '之' || diesNext(rest) || funeralNear(rest) {
		return false
	}
	// "告訴羅剎女與孫行者奪扇子之事": a later item joined to the first
	// may open what is told; the list told ends its clause, or a group
	// word or a verb of speech closes it (告訴了賈母和寶釵，說是).
	if first.start != m.start {
		end := m.end
		for {
			next, ok := d.personStartingAt(end)
			if !ok {
				break
			}
			end = next.end
		}
		after, _ := utf8.DecodeRuneInString(d.text[end:])
		return unicode.IsPunct(after) || strings.ContainsRune("等道說说", after)
	}
	return true
}

// cjkNotDone in a verb after a companion make it a likeness, a state or
// talk, not an act on someone: 和晴雯一樣了, 同黛玉是了.
const cjkNotDone = "的之是有在像似樣样般比如若不沒没未要會会能"

// actsOnPerson reports whether the text at offset at opens with a verb of
// one to three characters, an aspect (了, 著) and a person it is done to,
// named or a pronoun: "搶白了寶玉", "拉著他". A companion joined to the
// subject before such a verb does it with them: "香菱同晴雯搶白了寶玉".
func (d *doc) actsOnPerson(at int) bool {
	for n := 1; n <= 3 && at < len(d.text); n++ {
		r, size := utf8.DecodeRuneInString(d.text[at:])
		if !prose.IsCJK(r) || strings.ContainsRune(cjkNotDone, r) {
			return false
		}
		at += size
		a, asize := utf8.DecodeRuneInString(d.text[at:])
		if a != '了' && a != '著' && a != '着' {
			continue
		}
		obj := at + asize
		if p, ok := d.personStartingAt(obj); ok && p.start == obj {
			return true
		}
		for _, p := range []string{"他們", "他们", "她們", "她们", "他", "她"} {
			if strings.HasPrefix(d.text[obj:], p) {
				return true
			}
		}
		return false
	}
	return false
}

// groupComma skips the comma after a list closed by 等 (秦叔寶、徐茂公
// 等，將著…): the group is the subject of what follows.
func groupComma(text string, at int) int {
	if strings.HasSuffix(text[:at], "等") || strings.HasSuffix(text[:at], "等人") {
		if r, size := utf8.DecodeRuneInString(text[at:]); r == '，' || r == ',' {
			return at + size
		}
	}
	return at
}

// groupEnd returns where a group of names the files need not declare,
// starting at offset at, ends after its 等: items of one to four
// characters joined by 、 (秦叔寶、徐茂公等), or one item of two to four
// (秦叔寶等).
func groupEnd(text string, at int) (int, bool) {
	for items := 0; items < 8; items++ {
		n := 0
		for ; n < 4 && at < len(text); n++ {
			r, size := utf8.DecodeRuneInString(text[at:])
			if !prose.IsCJK(r) || strings.ContainsRune("等、的之，。", r) {
				break
			}
			at += size
		}
		if n == 0 || items == 0 && n < 2 {
			return 0, false
		}
		if t, ok := strings.CutPrefix(text[at:], "等"); ok {
			t = strings.TrimPrefix(t, "人")
			return len(text) - len(t), true
		}
		if !strings.HasPrefix(text[at:], "、") {
			return 0, false
		}
		at += len("、")
	}
	return 0, false
}
