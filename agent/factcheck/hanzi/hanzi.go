// Package hanzi says which Chinese characters a writer may put for one
// another: characters that share a reading (what a pinyin input method
// offers side by side) and characters that look alike (what a brush, a
// scan or a hurried eye confuses). Its data come from Unicode's Unihan
// database and from go-pinyin's dictionary, itself made from Unihan
// (see data/NOTICE and gen_unihan.go); the tables are decoded on
// first use, once per process, and read-only after that.
package hanzi

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

//go:embed data/pinyin.txt.gz
var pinyinGz []byte

// readings maps a CJK character to the ids of its toneless pinyin
// syllables. It is decoded once per process and read-only after that.
var readings = sync.OnceValue(decodeReadings)

func decodeReadings() map[rune][]uint16 {
	m := make(map[rune][]uint16, 40000)
	zr, err := gzip.NewReader(bytes.NewReader(pinyinGz))
	if err != nil {
		return m
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	id := uint16(0)
	for sc.Scan() {
		_, chars, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		id++
		for _, r := range chars {
			m[r] = append(m[r], id)
		}
	}
	return m
}

//go:embed data/phonetic.txt.gz
var phoneticGz []byte

// phonetic is what Unihan says of a character's shape (gen_unihan.go):
// the kPhonetic classes it belongs to and its stroke count.
type phonetic struct {
	classes []uint16
	strokes int
}

// phoneticOf maps CJK characters to their phonetic data. Characters built
// on one phonetic element with nearly as many strokes (僧 增, 賬 帳) look
// alike; a class alone is too wide (者 都 賭 share one).
var phoneticOf = sync.OnceValue(decodePhonetic)

func decodePhonetic() map[rune]*phonetic {
	m := make(map[rune]*phonetic, 20000)
	zr, err := gzip.NewReader(bytes.NewReader(phoneticGz))
	if err != nil {
		return m
	}
	sc := bufio.NewScanner(zr)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 {
			continue
		}
		id, err := strconv.Atoi(f[0])
		if err != nil {
			continue
		}
		for _, cs := range f[1:] {
			r, size := utf8.DecodeRuneInString(cs)
			n, _ := strconv.Atoi(cs[size:])
			p := m[r]
			if p == nil {
				p = &phonetic{strokes: n}
				m[r] = p
			}
			p.classes = append(p.classes, uint16(id))
		}
	}
	return m
}

// maxStrokeGap is how far apart in strokes two characters of one
// phonetic class may be and still look alike.
const maxStrokeGap = 1

// confusableGroups are characters that look alike: a slip of the brush or
// of character recognition turns one into another.
var confusableGroups = []string{
	"王玉主", "己已巳", "未末", "土士", "日曰", "人入八", "大太犬天夭", "戊戌戍", "贝见", "鸟乌",
	"刀力", "千干于", "木本术", "目自白", "甲由申田", "毛手", "今令", "候侯", "拔拨", "ㄦ儿几",
	"壶壸", "裸祼", "祟崇", "赢嬴羸", "汩汨", "冶治", "史吏", "免兔", "析折", "炙灸", "茶荼", "钓钩",
	"徒徙", "锡赐", "辩辨辫瓣", "溃愦", "衷哀衰", "书韦", "午牛", "勿匆", "母毋", "爪瓜", "凡丸",
	"己巳", "子孑孓", "问间", "晴睛", "清请情", "旦且", "丐丏", "兵乒乓", "宇字", "官宫", "享亨",
}

var confusable = sync.OnceValue(func() map[[2]rune]bool {
	m := map[[2]rune]bool{}
	for _, g := range confusableGroups {
		rs := []rune(g)
		for _, a := range rs {
			for _, b := range rs {
				if a != b {
					m[[2]rune{a, b}] = true
				}
			}
		}
	}
	return m
})

// Similar reports whether a typist could put b for a: they sound
// alike (an input-method slip, tones aside) or look alike. It is wide, for
// comparing text against declared names, where the manuscript's counts
// then judge; [Near] is the narrow measure.
func Similar(a, b rune) bool {
	return Near(a, b) || LookAlike(a, b)
}

// Near reports whether b is a's sound-alike, a well-known confusion, or
// built on a's phonetic element with nearly as many strokes (僧 增). It
// compares names of the text with names of the text (continuity), where
// no declared entity or count says which form is right: the four-corner
// neighbours are too many there (贾蔷 贾蓉 are two people).
func Near(a, b rune) bool {
	if SoundAlike(a, b) || confusable()[[2]rune{a, b}] {
		return true
	}
	pa, pb := phoneticOf()[a], phoneticOf()[b]
	return pa != nil && pb != nil && abs(pa.strokes-pb.strokes) <= maxStrokeGap && sharesClass(pa, pb)
}

// SoundAlike reports whether a and b share a toneless reading.
func SoundAlike(a, b rune) bool {
	ra, rb := readings()[a], readings()[b]
	for _, x := range ra {
		for _, y := range rb {
			if x == y {
				return true
			}
		}
	}
	return false
}

// Reading returns a's usual Mandarin reading with its tone ("" when
// unknown): two words that read alike syllable by syllable are what a
// pinyin input method offers for one another (巴界 for 八戒).
func Reading(a rune) string {
	if s := shapeOf()[a]; s != nil {
		return s.reading
	}
	return ""
}

// Homophone reports whether a and b have the same usual reading, tone
// included: what a pinyin input method offers side by side (紅 洪).
func Homophone(a, b rune) bool {
	sa, sb := shapeOf()[a], shapeOf()[b]
	return sa != nil && sb != nil && sa.reading != "" && sa.reading == sb.reading
}

// LookAlike reports whether b could be misread or miswritten for a:
// the same four corners and nearly as many strokes (王 玉, 空 室), one
// phonetic element and nearly as many strokes (僧 增), b is a without its
// radical (藏 臧), or the pair is a well-known confusion.
func LookAlike(a, b rune) bool {
	if confusable()[[2]rune{a, b}] {
		return true
	}
	sa, sb := shapeOf()[a], shapeOf()[b]
	// The same four corners (王 玉). Three of four with the same radical
	// (怡 恰) was tried: after folding to simplified it also pairs 李 and
	// 杀, 宝 and 宋, and the false alarms outweighed the finds.
	if sa != nil && sb != nil && sa.four != "" && sa.four == sb.four && abs(int(sa.total)-int(sb.total)) <= maxStrokeGap {
		return true
	}
	if sa != nil && sb != nil {
		// One Cangjie frame with nearly as many strokes; with one part
		// changed, two strokes more or less (勒 勤).
		gap := abs(int(sa.total) - int(sb.total))
		if dist := frameDistance(sa.cangjie, sb.cangjie); dist == 1 && gap <= maxStrokeGap+1 || dist == 2 && gap <= maxStrokeGap {
			return true
		}
		// One component put for another beside the same three-part
		// phonetic (蟠 LIHDW, 幡 LBHDW): the radicals may differ in
		// strokes more than a changed part inside a frame does.
		if radicalSwap(sa.cangjie, sb.cangjie) && gap <= maxStrokeGap+2 {
			return true
		}
	}
	pa, pb := phoneticOf()[a], phoneticOf()[b]
	if pa == nil || pb == nil || !sharesClass(pa, pb) {
		return false
	}
	if abs(pa.strokes-pb.strokes) <= maxStrokeGap {
		return true
	}
	// a's phonetic element written alone, its radical dropped (藏 臧): the
	// strokes beside a's radical are all of b's. Not the other way: a
	// radical added to a name's character makes a word of its own too
	// often (王 匡, 山 仙).
	return sa != nil && int(sa.residual) == pb.strokes
}

// RadicalAdded reports whether b is a with a radical written beside it
// (孫 遜, 王 汪, 戒 誡) or below it (能 熊): the strokes beside b's
// radical are all of a's, and b's Cangjie code is one or two parts for
// the radical (言 is YR there) before a's code as Cangjie writes a
// component (whole, or its first and last parts, or its first two and
// last), or one part for a radical below after a's shortened code. Unihan's phonetic
// classes miss most such pairs (遜 is not in 孫's class).
func RadicalAdded(a, b rune) bool {
	sa, sb := shapeOf()[a], shapeOf()[b]
	if sa == nil || sb == nil || sa.cangjie == "" || sb.cangjie == "" || sb.residual != sa.total {
		return false
	}
	c, cb := sa.cangjie, sb.cangjie
	forms := []string{c}
	if len(c) > 2 {
		forms = append(forms, c[:1]+c[len(c)-1:])
	}
	if len(c) > 3 {
		forms = append(forms, c[:2]+c[len(c)-1:])
	}
	for _, f := range forms {
		if len(f) < 2 {
			continue
		}
		// The radical's parts: one (氵 E), or two when the code has room
		// for them (言 YR, 讠 IV); Cangjie codes run to five parts.
		for radical := 1; radical <= 2; radical++ {
			if len(cb) == len(f)+radical && cb[radical:] == f {
				return true
			}
		}
		// A radical below, one part at the end of the code, after the
		// component written short (熊 IPF: 能 IP over 灬 F).
		if len(f) >= 2 && len(cb) == len(f)+1 && cb[:len(f)] == f && f != c {
			return true
		}
	}
	return false
}

// SharedBottom reports whether a and b are the same radical below, or at
// the foot, under a different top of nearly as many strokes (賈 買: 貝
// under 覀 and under 罒): one Kangxi radical, Cangjie codes of at least
// four parts that close on the same three, the same two lower corners,
// and strokes at most one apart. It is [SharedTop]'s mirror, as wide,
// for where the manuscript's counts judge.
func SharedBottom(a, b rune) bool {
	sa, sb := shapeOf()[a], shapeOf()[b]
	return a != b && sa != nil && sb != nil && sa.radical != "" && sa.radical == sb.radical &&
		abs(int(sa.total)-int(sb.total)) <= maxStrokeGap &&
		len(sa.cangjie) >= 4 && len(sb.cangjie) >= 4 && sa.cangjie[len(sa.cangjie)-3:] == sb.cangjie[len(sb.cangjie)-3:] &&
		len(sa.four) == 4 && len(sb.four) == 4 && sa.four[2:] == sb.four[2:]
}

// SameSeries reports whether a and b read alike (tones aside) and are
// built on one phonetic element: one Unihan phonetic class, or one is the
// other with a radical added (媽 嗎, 戒 誡). Such a pair is the commonest
// wrong character of all, what a writer puts who hears the word and
// half-remembers its shape, and what a pinyin input method offers side
// by side.
func SameSeries(a, b rune) bool {
	if a == b || !SoundAlike(a, b) {
		return false
	}
	if RadicalAdded(a, b) || RadicalAdded(b, a) {
		return true
	}
	pa, pb := phoneticOf()[a], phoneticOf()[b]
	return pa != nil && pb != nil && sharesClass(pa, pb)
}

// SharedTop reports whether a and b are built on one top or left part
// with the same number of strokes, differing in what stands below or
// beside it (襲 龔: 龍 over 衣 and over 共): their Cangjie codes open
// with the same two parts and run to at least four, and their four-corner
// codes agree in the two upper corners. It is wider than [LookAlike]
// (猴 and 猾 are such a pair), for where the manuscript's counts judge.
func SharedTop(a, b rune) bool {
	sa, sb := shapeOf()[a], shapeOf()[b]
	return a != b && sa != nil && sb != nil && sa.total == sb.total &&
		len(sa.cangjie) >= 4 && len(sb.cangjie) >= 4 && sa.cangjie[:2] == sb.cangjie[:2] &&
		len(sa.four) == 4 && len(sb.four) == 4 && sa.four[:2] == sb.four[:2]
}

// frameDistance is the edit distance of two Cangjie codes that describe
// one frame with a part changed inside it: the same first and last parts
// (the radical and what closes the character), at least three parts each
// (怡 PIR, 恰 POMR: 忄 and 口 kept, 台 become 合). It is -1 for codes of
// different frames.
func frameDistance(a, b string) int {
	if len(a) < 3 || len(b) < 3 || a == b || a[0] != b[0] || a[len(a)-1] != b[len(b)-1] {
		return -1
	}
	return editDistance(a, b)
}

// radicalSwap reports whether two Cangjie codes keep the last three
// parts (the phonetic) and differ only in one part before them.
func radicalSwap(a, b string) bool {
	const keep = 3
	if len(a) != len(b) || len(a) < keep+1 || len(a) > keep+2 || a[len(a)-keep:] != b[len(b)-keep:] {
		return false
	}
	return editDistance(a[:len(a)-keep], b[:len(b)-keep]) == 1
}

// editDistance is the Levenshtein distance of two short ASCII codes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

func sharesClass(pa, pb *phonetic) bool {
	for _, x := range pa.classes {
		for _, y := range pb.classes {
			if x == y {
				return true
			}
		}
	}
	return false
}

//go:embed data/shape.txt.gz
var shapeGz []byte

// shape is what Unihan says of a character's look and usual reading
// (gen_unihan.go).
type shape struct {
	four            string // four-corner code, 4 digits; "" when unknown
	total, residual int16  // strokes in all and beside the radical
	radical         string // Kangxi radical number, "'" for its simplified form
	reading         string // first Mandarin reading with its tone; "" when unknown
	cangjie         string // Cangjie code: the parts by shape; "" when unknown
}

// shapeOf maps CJK characters of the basic plane to their shape data.
var shapeOf = sync.OnceValue(decodeShapes)

func decodeShapes() map[rune]*shape {
	m := make(map[rune]*shape, 27000)
	zr, err := gzip.NewReader(bytes.NewReader(shapeGz))
	if err != nil {
		return m
	}
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 6 {
			continue
		}
		r, _ := utf8.DecodeRuneInString(f[0])
		total, _ := strconv.Atoi(f[2])
		radical, residual, _ := strings.Cut(f[3], ".")
		rr, _ := strconv.Atoi(residual)
		s := &shape{four: f[1], total: int16(total), residual: int16(rr), radical: radical, reading: f[4], cangjie: f[5]}
		if s.cangjie == "-" {
			s.cangjie = ""
		}
		if s.four == "-" {
			s.four = ""
		}
		if s.reading == "-" {
			s.reading = ""
		}
		m[r] = s
	}
	return m
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
