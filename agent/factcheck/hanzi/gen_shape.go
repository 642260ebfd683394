//go:build ignore

// gen_shape writes data/shape.txt.gz from Unicode's Unihan database as
// Debian's unicode-data package installs it: one line per character of the
// basic plane that Unihan gives a four-corner code or a Mandarin reading,
//
//	字 FOUR TOTAL RADICAL.RESIDUAL READING
//
// FOUR is the first four digits of kFourCornerCode ("-" when absent): the
// shapes of the character's four corners, a lookup code made for telling
// characters apart by their look. TOTAL is kTotalStrokes (first value),
// RADICAL.RESIDUAL the Kangxi radical and the strokes beside it (kRSUnicode,
// first value), and
// READING the first kMandarin reading with its tone mark ("-" when absent).
//
//	apt-get install unicode-data && go run gen_shape.go
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
		if cp > 0xFFFF {
			continue // the names authors write are in the basic plane
		}
		f(rune(cp), parts[2])
	}
	if err := sc.Err(); err != nil {
		log.Fatal(err)
	}
}

type char struct {
	four          string
	total         int
	radicalStroke string
	reading       string
}

func main() {
	chars := map[rune]*char{}
	get := func(r rune) *char {
		c := chars[r]
		if c == nil {
			c = &char{four: "-", radicalStroke: "0.0", reading: "-"}
			chars[r] = c
		}
		return c
	}
	fields("Unihan_DictionaryLikeData.txt.bz2", "kFourCornerCode", func(r rune, v string) {
		if code := strings.Fields(v)[0]; len(code) >= 4 {
			get(r).four = code[:4]
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
	out, err := os.Create("data/shape.txt.gz")
	if err != nil {
		log.Fatal(err)
	}
	zw, _ := gzip.NewWriterLevel(out, gzip.BestCompression)
	for _, r := range rs {
		c := chars[r]
		fmt.Fprintf(zw, "%c %s %d %s %s\n", r, c.four, c.total, c.radicalStroke, c.reading)
	}
	if err := zw.Close(); err != nil {
		log.Fatal(err)
	}
	if err := out.Close(); err != nil {
		log.Fatal(err)
	}
}
