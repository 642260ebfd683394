package factcheck

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

// phonetic is what Unihan says of a character's shape (gen_phonetic.go):
// the kPhonetic classes it belongs to and its stroke count.
type phonetic struct {
	classes []uint16
	strokes int
}

// phoneticOf maps CJK characters to their phonetic data. Characters built
// on one phonetic element with nearly as many strokes (僧 增, 賬 帳) look
// alike; a class alone is too wide (者 都 賭 share one).
var phoneticOf = sync.OnceValue(func() map[rune]*phonetic {
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
})

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

// similarCJK reports whether a typist could put b for a: they sound the
// same (an input-method slip) or look alike.
func similarCJK(a, b rune) bool {
	if confusable()[[2]rune{a, b}] {
		return true
	}
	ra, rb := readings()[a], readings()[b]
	for _, x := range ra {
		for _, y := range rb {
			if x == y {
				return true
			}
		}
	}
	pa, pb := phoneticOf()[a], phoneticOf()[b]
	if pa == nil || pb == nil || abs(pa.strokes-pb.strokes) > maxStrokeGap {
		return false
	}
	for _, x := range pa.classes {
		for _, y := range pb.classes {
			if x == y {
				return true
			}
		}
	}
	return false
}

// kinshipChars are characters of forms of address and kinship: a name
// that differs from another only in one of these ("宝二爷", "宝二叔")
// addresses someone else, it is not a misspelling.
const kinshipChars = "姐妹哥弟兄叔伯姑姨娘爷爺奶嫂婶嬸母父公婆老太大小二三四五六七八九十儿兒夫氏姥舅妈媽爹奴丫头頭君妃后侯相爵少"
