//go:build ignore

// gen_readings writes data/readings.txt.gz from Unicode's Unihan
// database as Debian's unicode-data package installs it
// (/usr/share/unicode/Unihan_Readings.txt.bz2): every Mandarin reading,
// tones aside, that a modern dictionary gives a character, one character
// a line,
//
//	字 SYLLABLE SYLLABLE…
//
// from kXHC1983 (现代汉语词典), kTGHZ2013 (通用规范汉字字典) and
// kMandarin. data/pinyin.txt.gz holds a character's first reading only:
// a name's character read another way (藏 zàng of 三藏, not cáng) is
// missing there. ü is written v.
//
//	apt-get install unicode-data && go run gen_readings.go
package main

import (
	"bufio"
	"compress/bzip2"
	"compress/gzip"
	"fmt"
	"log"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
)

const file = "/usr/share/unicode/Unihan_Readings.txt.bz2"

// toneless writes a pinyin syllable without its tone mark, ü as v.
var toneless = strings.NewReplacer(
	"ā", "a", "á", "a", "ǎ", "a", "à", "a",
	"ē", "e", "é", "e", "ě", "e", "è", "e", "ê̄", "e", "ế", "e", "ê̌", "e", "ề", "e", "ê", "e",
	"ī", "i", "í", "i", "ǐ", "i", "ì", "i",
	"ō", "o", "ó", "o", "ǒ", "o", "ò", "o",
	"ū", "u", "ú", "u", "ǔ", "u", "ù", "u",
	"ǖ", "v", "ǘ", "v", "ǚ", "v", "ǜ", "v", "ü", "v",
	"ń", "n", "ň", "n", "ǹ", "n", "ḿ", "m", "m̀", "m",
)

func main() {
	fh, err := os.Open(file)
	if err != nil {
		log.Fatal(err)
	}
	defer fh.Close()
	readings := map[rune][]string{}
	sc := bufio.NewScanner(bzip2.NewReader(fh))
	for sc.Scan() {
		parts := strings.Split(sc.Text(), "\t")
		if len(parts) != 3 {
			continue
		}
		switch parts[1] {
		case "kXHC1983", "kTGHZ2013", "kMandarin":
		default:
			continue
		}
		cp, err := strconv.ParseUint(strings.TrimPrefix(parts[0], "U+"), 16, 32)
		if err != nil || cp > 0xFFFF {
			continue
		}
		r := rune(cp)
		for _, v := range strings.Fields(parts[2]) {
			// kXHC1983 and kTGHZ2013 write "page.position:reading".
			if _, after, ok := strings.Cut(v, ":"); ok {
				v = after
			}
			for _, s := range strings.Split(v, ",") {
				s = toneless.Replace(s)
				if s != "" && !slices.Contains(readings[r], s) {
					readings[r] = append(readings[r], s)
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
	chars := make([]rune, 0, len(readings))
	for r := range readings {
		chars = append(chars, r)
	}
	sort.Slice(chars, func(i, j int) bool { return chars[i] < chars[j] })
	out, err := os.Create("data/readings.txt.gz")
	if err != nil {
		log.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(out, gzip.BestCompression)
	w := bufio.NewWriter(zw)
	for _, r := range chars {
		fmt.Fprintf(w, "%c %s\n", r, strings.Join(readings[r], " "))
	}
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	if err := out.Close(); err != nil {
		log.Fatal(err)
	}
}
