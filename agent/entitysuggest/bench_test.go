package entitysuggest

import (
	"context"
	"testing"
	"unicode/utf8"
)

// booksOf reads the shared books and takes whole chapters, in turn and
// again from the first book if need be, until they hold n characters.
func booksOf(b *testing.B, n int, books ...string) []Chapter {
	var all []Chapter
	for _, bk := range books {
		chs, err := ReadBook(sharedDir(b, "corpus/"+bk))
		if err != nil {
			b.Fatal(err)
		}
		all = append(all, chs...)
	}
	var out []Chapter
	for size := 0; size < n; {
		c := all[len(out)%len(all)]
		c.Number = len(out) + 1
		out = append(out, c)
		size += utf8.RuneCountInString(c.Text)
	}
	return out
}

// BenchmarkSuggest3M: suggestions for a manuscript of 3 million
// characters, English (War and Peace) and Chinese (紅樓夢 and 西遊記,
// 1.6 million characters, then again from the start).
// Target: under 5 s on 2 cores.
func BenchmarkSuggest3M(b *testing.B) {
	for _, c := range []struct {
		name  string
		books []string
	}{
		{"english", []string{"war-and-peace"}},
		{"chinese", []string{"hongloumeng", "xiyouji"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			chs := booksOf(b, 3_000_000, c.books...)
			bytes := 0
			for _, ch := range chs {
				bytes += len(ch.Text)
			}
			b.SetBytes(int64(bytes))
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Suggest(context.Background(), chs, Options{Top: 40, Folder: testFolder}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
