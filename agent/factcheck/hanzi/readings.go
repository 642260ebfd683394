package hanzi

import (
	"bufio"
	"bytes"
	"compress/gzip"
	_ "embed"
	"strings"
	"sync"
	"unicode/utf8"
)

//go:embed data/readings.txt.gz
var readingsGz []byte

// allReadings maps a CJK character to every toneless reading a modern
// dictionary gives it (gen_readings.go). It is decoded on first use,
// once per process, and read-only after that.
var allReadings = sync.OnceValue(decodeAllReadings)

func decodeAllReadings() map[rune][]string {
	m := make(map[rune][]string, 27000)
	zr, err := gzip.NewReader(bytes.NewReader(readingsGz))
	if err != nil {
		return m
	}
	sc := bufio.NewScanner(zr)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 {
			continue
		}
		r, _ := utf8.DecodeRuneInString(f[0])
		m[r] = f[1:]
	}
	return m
}

// ReadAlike reports whether a and b share a reading, tones aside, among
// all a dictionary gives them, or [SoundAlike] says so: a character of a
// name read otherwise than usual (藏 is zàng in 三藏, cáng in 收藏) is
// typed by the name's reading, and a pinyin input method offers what
// reads so (葬). SoundAlike knows each character's first reading only.
func ReadAlike(a, b rune) bool {
	if SoundAlike(a, b) {
		return true
	}
	ra, rb := allReadings()[a], allReadings()[b]
	for _, x := range ra {
		for _, y := range rb {
			if x == y {
				return true
			}
		}
	}
	return false
}
