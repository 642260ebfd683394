package factcheck

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/agent/factcheck/prose"
)

// What a Chinese text says of the past or in verse puts nobody in the
// scene: the poem that retells a battle (觀音推薦二郎來) and the narrator's
// flashback (只因他鬧了天宮，此山被二郎神…燒壞了) name the absent as
// actors of what happened before. Both are told apart from the scene by
// their form, not by the names in them.

// retold reports whether the byte offset p of a CJK text lies in a line of
// verse or in a sentence that opens as a flashback.
func (d *doc) retold(p int) bool {
	if !d.cjk {
		return false
	}
	return prose.InVerse(d.text, p) || prose.InFlashback(d.text, p)
}

// bareTitle reports whether mention mi names its entity only by a title
// that ends one of the entity's longer names (祖師 of 須菩提祖師, 真君 of
// 二郎真君) with no fuller name of the same entity in the lines before:
// such a title is shared by every master or immortal of a book, and the
// one it means is the last one named. What stands before the title is
// two characters or more; after one character (a surname: 林 of 林黛玉)
// the tail is a given name, which names one person.
func (d *doc) bareTitle(mi int) bool {
	m := d.mentions[mi]
	if m.firstWord >= 0 || len(m.ents) != 1 {
		return false
	}
	e := m.ents[0]
	form := d.text[m.start:m.end]
	if form == e.e.Name {
		return false // 二郎神 is the name; 顯聖二郎神 only adds an epithet
	}
	tail := false
	for _, n := range e.e.Names() {
		if strings.HasSuffix(n, form) && utf8.RuneCountInString(n)-utf8.RuneCountInString(form) >= 2 {
			tail = true
			break
		}
	}
	if !tail {
		return false
	}
	// A fuller name of the same entity within about 300 characters back.
	const window = 900 // bytes: CJK runes are three
	for i := mi - 1; i >= 0 && d.mentions[i].end > m.start-window; i-- {
		pm := d.mentions[i]
		if !containsEnt(pm.ents, e) {
			continue
		}
		if pf := d.text[pm.start:pm.end]; pf != form && !strings.HasSuffix(form, pf) {
			return false
		}
	}
	return true
}

// visionWords mark a dream, a trance or a ghost: there the dead are seen
// and speak (寶玉's soul in 真如福地, Prince Andrew's delirium, the demons
// that come to a dying woman: 邪魔悉至). 恍惚 (dazed) is not one: the
// sick are dazed in the scene itself.
var visionWords = []string{"夢", "梦", "魂魄", "幻境", "鬼魂", "陰魂", "阴魂", "dream", "vision", "delirium", "ghost", "apparition", "phantom", "hallucination", "邪魔", "邪祟",
	// A soul leaving its body (香魂出竅) sees the dead.
	"出竅", "出窍"}

// wakeWords end a dream.
var wakeWords = []string{"醒", "woke", "awoke", "awake", "waking"}

// visionWindow is how far back (in bytes) a mark of a dream reaches: a
// dream is told at length, three thousand characters or so.
const visionWindow = 9000

// inVision reports whether p lies in a dream: a word of dream or vision
// stands before it, no waking after that word. Talking in one's sleep
// (說夢話) is not a dream told.
func (d *doc) inVision(p int) bool {
	from := max(0, p-visionWindow)
	for from > 0 && !utf8.RuneStart(d.text[from]) {
		from--
	}
	marks := d.visionMarks()
	if marks == nil {
		return d.inVisionSlow(from, p)
	}
	// The last mark of a dream between from and p, as the slow path
	// finds it: the whole word before p, and 話 after it only if before
	// p too.
	at := -1
	for _, o := range marks.vision {
		if o.start >= p {
			break
		}
		if o.start >= from && o.end <= p && !(o.talk && o.end+len("話") <= p) {
			at = o.start
		}
	}
	if at < 0 {
		return false
	}
	for _, o := range marks.wake {
		if o.start >= at && o.end <= p {
			return false
		}
	}
	return true
}

// inVisionSlow is inVision for a text whose lower case is not as long,
// character by character, as the text: it reads the window from..p.
func (d *doc) inVisionSlow(from, p int) bool {
	before := strings.ToLower(d.text[from:p])
	at := -1
	for _, w := range visionWords {
		for i := strings.LastIndex(before, w); i >= 0; i = strings.LastIndex(before[:i], w) {
			if rest := before[i+len(w):]; strings.HasPrefix(rest, "話") || strings.HasPrefix(rest, "话") || inBookTitle(d.text, from+i) {
				continue
			}
			at = max(at, i)
			break
		}
	}
	if at < 0 {
		return false
	}
	after := before[at:]
	for _, w := range wakeWords {
		if strings.Contains(after, w) {
			return false
		}
	}
	return true
}

// maxTitle is the longest title between 《 and 》, in bytes.
const maxTitle = 90

// inBookTitle reports whether byte offset p of text lies inside the
// title of a book or a play (《黃伯央大擺陰魂陣》): a word of dream there
// names the play, it tells of no dream.
func inBookTitle(text string, p int) bool {
	open := strings.LastIndex(text[max(0, p-maxTitle):p], "《")
	if open < 0 {
		return false
	}
	if strings.Contains(text[max(0, p-maxTitle)+open:p], "》") {
		return false
	}
	end := strings.Index(text[p:min(len(text), p+maxTitle)], "》")
	return end >= 0 && !strings.Contains(text[p:p+end], "《")
}

// A markAt is where a word of visionWords or wakeWords stands in a text:
// talk marks a dream word followed by 話 (說夢話).
type markAt struct {
	start, end int
	talk       bool
}

// visionMarks are the words of dream and of waking in the text, by
// start, found once per check: inVision is asked at every mention of
// the dead, and reading 9,000 bytes back for each cost a whole book's
// check seconds. They are nil when lower case changes the length of a
// character of the text (offsets in it would not be the text's).
type visionMarks struct {
	vision, wake []markAt
}

func (d *doc) visionMarks() *visionMarks {
	if d.marksDone {
		return d.marks
	}
	d.marksDone = true
	for _, r := range d.text {
		if lr := unicode.ToLower(r); lr != r && utf8.RuneLen(lr) != utf8.RuneLen(r) {
			return nil
		}
	}
	lower := strings.ToLower(d.text)
	if len(lower) != len(d.text) { // invalid UTF-8, written as U+FFFD
		return nil
	}
	m := &visionMarks{}
	find := func(words []string, dream bool) []markAt {
		var out []markAt
		for _, w := range words {
			for i := 0; ; {
				j := strings.Index(lower[i:], w)
				if j < 0 {
					break
				}
				o := markAt{start: i + j, end: i + j + len(w)}
				if dream && inBookTitle(d.text, o.start) {
					i = o.start + 1
					continue
				}
				rest := lower[o.end:]
				o.talk = dream && (strings.HasPrefix(rest, "話") || strings.HasPrefix(rest, "话"))
				out = append(out, o)
				i = o.start + 1
			}
		}
		slices.SortFunc(out, func(a, b markAt) int { return a.start - b.start })
		return out
	}
	m.vision, m.wake = find(visionWords, true), find(wakeWords, false)
	d.marks = m
	return m
}
