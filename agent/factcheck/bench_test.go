package factcheck

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/textsearch"
)

var syllables = []string{"ar", "bel", "cor", "dan", "el", "fin", "gar", "hal", "is", "jor", "ken", "lor", "mar", "nel", "or", "per", "quin", "ros", "sel", "tor", "ul", "ver", "wen", "yor"}

// syntheticEntities makes n characters with names, aliases, facts and
// progressions, deterministic.
func syntheticEntities(n int, cjk bool) []*knowledge.Entity {
	const surnames = "赵钱孙李周吴郑王冯陈褚卫蒋沈韩杨朱秦尤许何吕施张孔曹严华金魏陶姜"
	const given = "春夏秋冬梅兰竹菊云霞玉珠明月清风山水琴棋书画"
	sr, gr := []rune(surnames), []rune(given)
	var out []*knowledge.Entity
	for i := range n {
		var name string
		var aliases []string
		if cjk {
			g := string(gr[i%len(gr)]) + string(gr[(i*7+3)%len(gr)])
			name = string(sr[i%len(sr)]) + g
			aliases = []string{g}
		} else {
			first := strings.ToUpper(syllables[i%24][:1]) + syllables[i%24][1:] + syllables[(i/24+5)%24]
			last := strings.ToUpper(syllables[(i*7)%24][:1]) + syllables[(i*7)%24][1:] + syllables[(i*3+1)%24] + "son"
			name = first + " " + last
			aliases = []string{first, "Mr. " + last}
		}
		out = append(out, &knowledge.Entity{
			Resource: fmt.Sprintf("entities/characters/p%d", i), Path: fmt.Sprintf("entities/characters/p%d.md", i),
			Name: name, Aliases: aliases, Kind: "character", Context: knowledge.ContextAuto,
			Facts: map[string]string{"age": fmt.Sprint(20 + i%40), "eyes": []string{"blue", "dark", "grey"}[i%3], "income": fmt.Sprintf("%d hundred a year", 1+i%9), "status": "unmarried", "location": "Town"},
			Progressions: []knowledge.Progression{
				{Chapter: 5 + i%20, Facts: map[string]string{"status": "away", "location": "London"}},
				{Chapter: 30 + i%20, Facts: map[string]string{"status": "dead"}},
			},
			Description: "He is a person of the story.",
			KeyLines:    map[string]int{"name": 2},
		})
	}
	return out
}

// chapterText returns the first n code points of chapters of a corpus
// book, from chapter first on.
func chapterText(b *testing.B, book string, first, n int) string {
	dir := sharedDir(b, "corpus/"+book)
	var sb strings.Builder
	for ch := first; utf8.RuneCountInString(sb.String()) < n; ch++ {
		data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("%03d.txt", ch)))
		if err != nil {
			b.Fatal(err)
		}
		sb.Write(data)
	}
	rs := []rune(sb.String())
	return string(rs[:n])
}

// BenchmarkCheck10kEnglish: a 10,000-character chapter of Pride and
// Prejudice against 100 entities (the 20 of the evaluation set and 80
// synthetic ones). Target: under 10 ms.
func BenchmarkCheck10kEnglish(b *testing.B) {
	p, errs := knowledge.LoadProject(sharedDir(b, "eval/pride-and-prejudice"))
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	ents := append(p.Entities, syntheticEntities(80, false)...)
	k := NewKnowledge(ents, p.WorldRules, testFolder)
	text := chapterText(b, "pride-and-prejudice", 42, 10000)
	Check(text, 42, k, "")
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		Check(text, 42, k, "")
	}
}

// BenchmarkCheck10kChinese: 10,000 characters of 红楼梦 (traditional)
// against 100 entities written in simplified characters.
func BenchmarkCheck10kChinese(b *testing.B) {
	p, errs := knowledge.LoadProject(filepath.Join(testdataDir, "hongloumeng"))
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	ents := append(p.Entities, syntheticEntities(84, true)...)
	k := NewKnowledge(ents, p.WorldRules, testFolder)
	text := chapterText(b, "hongloumeng", 40, 10000)
	Check(text, 40, k, "")
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		Check(text, 40, k, "")
	}
}

// BenchmarkCheck10kChinesePrev: as BenchmarkCheck10kChinese, with the
// 10,000 characters before it as the previous chapter, so that the
// continuity checker runs too. Target: under 10 ms.
func BenchmarkCheck10kChinesePrev(b *testing.B) {
	p, errs := knowledge.LoadProject(filepath.Join(testdataDir, "hongloumeng"))
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	ents := append(p.Entities, syntheticEntities(84, true)...)
	k := NewKnowledge(ents, p.WorldRules, testFolder)
	both := []rune(chapterText(b, "hongloumeng", 38, 20000))
	prev, text := string(both[:10000]), string(both[10000:])
	Check(text, 40, k, prev)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		Check(text, 40, k, prev)
	}
}

// BenchmarkHongloumeng120: every chapter of 红楼梦 checked as itself, with
// the 红楼梦 test entities and the chapter before it for continuity.
// Target: under 1 s for all 120.
func BenchmarkHongloumeng120(b *testing.B) {
	p, errs := knowledge.LoadProject(filepath.Join(testdataDir, "hongloumeng"))
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	k := FromProject(p, testFolder)
	chapters, _, total := hongloumeng120(b)
	Check(chapters[0], 1, k, "")
	b.SetBytes(int64(total))
	b.ResetTimer()
	for b.Loop() {
		for i, text := range chapters {
			Check(text, i+1, k, chapters[max(0, i-1)])
		}
	}
}

// BenchmarkHongloumeng120Book: as BenchmarkHongloumeng120, with the 120
// chapters as the manuscript, as `flowcabal check manuscript/` has them:
// the readings that ask the book's counts run too. Target: under 1 s.
func BenchmarkHongloumeng120Book(b *testing.B) {
	p, errs := knowledge.LoadProject(filepath.Join(testdataDir, "hongloumeng"))
	if len(errs) > 0 {
		b.Fatal(errs)
	}
	chapters, nums, total := hongloumeng120(b)
	b.SetBytes(int64(total))
	for b.Loop() {
		// A fresh Knowledge each time: the book's counts are cached in
		// it, and a check of the whole book pays for them once.
		k := FromProject(p, testFolder)
		k.UseManuscriptChapters(nums, chapters)
		for i, text := range chapters {
			Check(text, i+1, k, chapters[max(0, i-1)])
		}
	}
}

// BenchmarkLoadTables measures the one-time costs: the traditional-to-
// simplified fold table (OpenCC) and the tables of 100 entities. The
// character tables are measured in package hanzi, the English word lists
// in package lexicon.
func BenchmarkLoadTables(b *testing.B) {
	b.Run("fold", func(b *testing.B) {
		for b.Loop() {
			textsearch.NewFolder().FoldRune('寶')
		}
	})
	b.Run("knowledge100", func(b *testing.B) {
		ents := syntheticEntities(100, false)
		for b.Loop() {
			NewKnowledge(ents, nil, testFolder)
		}
	})
}

// hongloumeng120 reads the 120 chapters of 紅樓夢 from the shared corpus,
// with their numbers and their total size in bytes.
func hongloumeng120(b *testing.B) (chapters []string, nums []int, total int) {
	dir := sharedDir(b, "corpus/hongloumeng")
	for ch := 1; ch <= 120; ch++ {
		data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("%03d.txt", ch)))
		if err != nil {
			b.Fatal(err)
		}
		chapters = append(chapters, string(data))
		nums = append(nums, ch)
		total += len(data)
	}
	return chapters, nums, total
}
