package factcheck

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A servant changes hands (襲人 was 賈母's maid before she was 寶玉's), and
// a file often gives only the present master. Such a tie is compared all
// the same, except where the text puts it in the past (原是賈母之婢, 當日
// 是…的丫頭) or the rest of the manuscript writes the same servant as the
// other's elsewhere: the author's own book then knows the earlier tie the
// file leaves out. The chapter checked is left out of that count, so that
// the slip being checked never vouches for itself.

// servantWords are the words that make a name after them the servant of
// the name before them.
var servantWords = []string{"的丫頭", "的丫鬟", "之婢", "的侍女", "的使女", "的小廝", "房里的", "屋里的", "跟前的"}

// pastMarkers put a tie before them in the past.
var pastMarkers = []string{"原是", "原係", "原系", "本是", "舊", "當日", "先前", "原來", "從前", "曾是", "原", "former", "formerly", "once", "used to"}

// earlierServant reports whether the servant tie between e and other that
// the text at [start, end) states may be an earlier one: the clause before
// marks the past, or the manuscript names e as other's servant outside
// this chapter.
func (k *Knowledge) earlierServant(d *doc, e, other *entInfo, start int) bool {
	from := max(0, start-36)
	for from > 0 && !utf8.RuneStart(d.text[from]) {
		from++
	}
	clause := d.text[from:start]
	if i := strings.LastIndexAny(clause, "。！？；.!?;\n"); i >= 0 {
		clause = clause[i+1:]
	}
	for _, m := range pastMarkers {
		if strings.Contains(strings.ToLower(clause), m) {
			return true
		}
	}
	// 賈母的舊丫頭, 王夫人原先的丫頭: the past between the master and the
	// servant word.
	after := d.text[start:min(len(d.text), start+30)]
	if i := strings.IndexAny(after, "，。！？；,.!?;\n"); i >= 0 {
		after = after[:i]
	}
	if strings.ContainsAny(after, "舊旧原昔") {
		return true
	}
	if k.book == nil || other == nil {
		return false
	}
	here := d.foldedChapter(k)
	for _, on := range other.e.Names() {
		for _, w := range servantWords {
			for _, en := range e.e.Names() {
				form := string(k.foldRunes(strings.TrimSpace(on) + w + strings.TrimSpace(en)))
				if k.book.countCJK(form) > strings.Count(here, form) {
					return true
				}
			}
		}
	}
	return false
}

// foldedChapter is the doc's chapter as the manuscript holds it, folded:
// the text checked itself when the manuscript has no such chapter or
// holds the same text. Made once per doc.
func (d *doc) foldedChapter(k *Knowledge) string {
	if !d.chapterFoldedDone {
		d.chapterFoldedDone = true
		if ch, ok := k.book.byNumber[d.chapter]; ok && ch != d.text {
			d.chapterFolded = string(k.foldRunes(ch))
		} else {
			// As foldRunes makes it: the folded runes, spaces left out.
			var b strings.Builder
			for _, r := range d.frunes {
				if !unicode.IsSpace(r) {
					b.WriteRune(r)
				}
			}
			d.chapterFolded = b.String()
		}
	}
	return d.chapterFolded
}
