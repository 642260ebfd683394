//go:build ignore

// gen_unihan writes the character tables of this package from Unicode's
// Unihan database as Debian's unicode-data package installs it
// (/usr/share/unicode/Unihan_*.txt.bz2):
//
//   - data/phonetic.txt.gz: for each phonetic class of Unihan's kPhonetic
//     field (Casey's classes of characters built on one phonetic element),
//     the characters of the class and their simplified forms
//     (kSimplifiedVariant), one class a line, each character followed by
//     its total stroke count (kTotalStrokes, the first value).
//
//   - data/shape.txt.gz: one line per character of the basic plane that
//     Unihan gives a four-corner code or a Mandarin reading,
//
//     字 FOUR TOTAL RADICAL.RESIDUAL READING CANGJIE
//
//     FOUR is the first four digits of kFourCornerCode ("-" when absent):
//     the shapes of the character's four corners, a lookup code made for
//     telling characters apart by their look. TOTAL is kTotalStrokes (first
//     value), RADICAL.RESIDUAL the Kangxi radical and the strokes beside it
//     (kRSUnicode, first value), and READING the first kMandarin reading
//     with its tone mark ("-" when absent). CANGJIE is kCangjie, the
//     character's Cangjie input code: its first and last parts by shape
//     ("-" when absent).
//
//     apt-get install unicode-data && go run gen_unihan.go
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

// fields calls f for every value of field in a Unihan file.
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

// create opens a gzip writer on path; done closes both.
func create(path string) (w *gzip.Writer, done func()) {
	out, err := os.Create(path)
	if err != nil {
		log.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(out, gzip.BestCompression)
	return zw, func() {
		if err := zw.Close(); err != nil {
			log.Fatal(err)
		}
		if err := out.Close(); err != nil {
			log.Fatal(err)
		}
	}
}

func main() {
	writePhonetic()
	writeShapes()
}

func writePhonetic() {
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
	zw, done := create("data/phonetic.txt.gz")
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
	done()
}

type char struct {
	four          string
	total         int
	radicalStroke string
	reading       string
	cangjie       string
}

func writeShapes() {
	chars := map[rune]*char{}
	// Only the basic plane: the names authors write are there.
	get := func(r rune) *char {
		if r > 0xFFFF {
			return &char{}
		}
		c := chars[r]
		if c == nil {
			c = &char{four: "-", radicalStroke: "0.0", reading: "-", cangjie: "-"}
			chars[r] = c
		}
		return c
	}
	fields("Unihan_DictionaryLikeData.txt.bz2", "kFourCornerCode", func(r rune, v string) {
		if code := strings.Fields(v)[0]; len(code) >= 4 {
			get(r).four = code[:4]
		}
	})
	fields("Unihan_DictionaryLikeData.txt.bz2", "kCangjie", func(r rune, v string) {
		if c := chars[r]; c != nil {
			c.cangjie = strings.Fields(v)[0]
		}
	})
	fields("Unihan_Readings.txt.bz2", "kMandarin", func(r rune, v string) {
		get(r).reading = strings.Fields(v)[0]
	})
	fields("Unihan_IRGSources.txt.bz2", "kTotalStrokes", func(r rune, v string) {
		if c := chars[r]; c != nil {
			c.total, _ = strconv.Atoi(strings.Fields(v)[0])
		}
	})
	fields("Unihan_IRGSources.txt.bz2", "kRSUnicode", func(r rune, v string) {
		if c := chars[r]; c != nil {
			c.radicalStroke = strings.Fields(v)[0]
		}
	})
	var rs []rune
	for r := range chars {
		rs = append(rs, r)
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i] < rs[j] })
	zw, done := create("data/shape.txt.gz")
	for _, r := range rs {
		c := chars[r]
		fmt.Fprintf(zw, "%c %s %d %s %s %s\n", r, c.four, c.total, c.radicalStroke, c.reading, c.cangjie)
	}
	done()
}
