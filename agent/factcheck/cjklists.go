package factcheck

import (
	"strings"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// maxLooseItem is the longest item, in characters, of a list
// cjkLooseList walks over.
const maxLooseItem = 5

// cjkLooseJoiners join the items of a list of people.
const cjkLooseJoiners = "、和與与及同"

// cjkLooseList reports whether m is an item of a list of people whose
// other items the files need not declare (火德、紅孩兒與哪吒答應一聲,
// 晴雯和丫鬟們見寶玉來了), when the list opens its clause and a group word
// or a verb of acting closes it: the list is one subject, all of it in
// the scene. cjkListed reads such lists when every item is a declared
// name.
func (d *doc) cjkLooseList(m mention) bool {
	// The list's start: items joined before m, back to a break.
	start := m.start
	for {
		r, size := utf8.DecodeLastRuneInString(d.text[:start])
		if !strings.ContainsRune(cjkLooseJoiners, r) {
			break
		}
		at, n := start-size, 0
		for ; n < maxLooseItem && at > 0; n++ {
			q, qs := utf8.DecodeLastRuneInString(d.text[:at])
			if !prose.IsCJK(q) || strings.ContainsRune(cjkLooseJoiners, q) {
				break
			}
			at -= qs
		}
		if n == 0 || n == maxLooseItem {
			return false
		}
		start = at
	}
	open, _ := utf8.DecodeLastRuneInString(d.text[:start])
	if start > 0 && !prose.NameBreak(open) {
		return false
	}
	// Its end: items joined after m.
	end, items := m.end, 1
	if start < m.start {
		items++
	}
	for {
		r, size := utf8.DecodeRuneInString(d.text[end:])
		if !strings.ContainsRune(cjkLooseJoiners, r) {
			break
		}
		at, n := end+size, 0
		for ; n < maxLooseItem && at < len(d.text); n++ {
			q, qs := utf8.DecodeRuneInString(d.text[at:])
			if !prose.IsCJK(q) || strings.ContainsRune(cjkLooseJoiners, q) || q == '等' {
				break
			}
			// The item ends where a verb of acting starts.
			if n > 0 && actsNext(d.text[at:]) {
				break
			}
			at += qs
		}
		if n == 0 {
			break
		}
		end, items = at, items+1
	}
	if items < 2 {
		return false
	}
	rest := d.text[end:]
	for _, g := range []string{"等人", "等", "們", "们", "二人", "三人", "兩個", "两个", "兩人", "两人", "都", "俱", "一齊", "一齐"} {
		if t, ok := strings.CutPrefix(rest, g); ok {
			rest = t
			break
		}
	}
	return actsNext(rest)
}
