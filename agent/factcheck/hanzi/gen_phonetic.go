//go:build ignore

// gen_phonetic writes data/phonetic.txt.gz from Unicode's Unihan database
// as Debian's unicode-data package installs it: for each phonetic class of
// Unihan's kPhonetic field (Casey's classes of characters built on one
// phonetic element), the characters of the class and their simplified
// forms (kSimplifiedVariant), one class a line, each character followed
// by its total stroke count (kTotalStrokes, the first value).
//
//	apt-get install unicode-data && go run gen_phonetic.go
package main

import (
	"bufio"
	"compress/bzip2"
	"compress/gzip"
	"fmt"
	"log"
	"os"
	"sort"
	"strconv"
	"strings"
)

const dir = "/usr/share/unicode/"

func fields(file, field string, f func(r rune, value string)) {
	fh, err := os.Open(dir + file)
	if err != nil {
		log.Fatal(err)
	}
	defer fh.Close()
	sc := bufio.NewScanner(bzip2.NewReader(fh))
	for sc.Scan() {
		parts := strings.Split(sc.Text(), "\t")
		if len(parts) != 3 || parts[1] != field {
			continue
		}
		cp, err := strconv.ParseUint(strings.TrimPrefix(parts[0], "U+"), 16, 32)
		if err != nil {
			log.Fatal(err)
		}
		f(rune(cp), parts[2])
	}
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
}

func main() {
	simplified := map[rune][]rune{}
	fields("Unihan_Variants.txt.bz2", "kSimplifiedVariant", func(r rune, v string) {
		for _, u := range strings.Fields(v) {
			cp, _ := strconv.ParseUint(strings.TrimPrefix(u, "U+"), 16, 32)
			if rune(cp) != r {
				simplified[r] = append(simplified[r], rune(cp))
			}
		}
	})
	strokes := map[rune]int{}
	fields("Unihan_IRGSources.txt.bz2", "kTotalStrokes", func(r rune, v string) {
		n, _ := strconv.Atoi(strings.Fields(v)[0])
		strokes[r] = n
	})
	classes := map[int]map[rune]bool{}
	fields("Unihan_DictionaryLikeData.txt.bz2", "kPhonetic", func(r rune, v string) {
		if r > 0xFFFF {
			return // the names authors write are in the basic plane
		}
		for _, c := range strings.Fields(v) {
			// "1234*" and "1234x" mark uncertain members: kept.
			n, err := strconv.Atoi(strings.TrimRight(c, "*x"))
			if err != nil {
				continue
			}
			if classes[n] == nil {
				classes[n] = map[rune]bool{}
			}
			classes[n][r] = true
			for _, s := range simplified[r] {
				classes[n][s] = true
			}
		}
	})
	var ids []int
	for n := range classes {
		ids = append(ids, n)
	}
	sort.Ints(ids)
	out, err := os.Create("data/phonetic.txt.gz")
	if err != nil {
		log.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(out, gzip.BestCompression)
	for _, n := range ids {
		var rs []rune
		for r := range classes[n] {
			rs = append(rs, r)
		}
		if len(rs) < 2 {
			continue
		}
		sort.Slice(rs, func(i, j int) bool { return rs[i] < rs[j] })
		fmt.Fprintf(zw, "%d", n)
		for _, r := range rs {
			fmt.Fprintf(zw, " %c%d", r, strokes[r])
		}
		fmt.Fprintln(zw)
	}
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	if err := out.Close(); err != nil {
		log.Fatal(err)
	}
}
