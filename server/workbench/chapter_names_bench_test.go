package workbench

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"go.lsp.dev/protocol"

	"github.com/flowcabal/flowcabal/internal/projecttest"
)

// BenchmarkChapterNames: what the chapter's "Add <name> as a character"
// costs when the chapter's text changed since the last code action (the
// names are found again) and when it did not (the cache), on a chapter of
// 紅樓夢 and one of Pride and Prejudice.
//
//	go test -run '^$' -bench ChapterNames ./server/workbench/
func BenchmarkChapterNames(b *testing.B) {
	for _, c := range []struct{ name, file string }{
		{"hongloumeng-003", "corpus/hongloumeng/003.txt"},
		{"pride-and-prejudice-003", "corpus/pride-and-prejudice/003.txt"},
	} {
		data, err := os.ReadFile(filepath.Join(projecttest.Shared(b), filepath.FromSlash(c.file)))
		if err != nil {
			b.Fatal(err)
		}
		text := string(data)
		p := (&Workbench{}).Prose()
		uri := protocol.DocumentURI("file:///p/manuscript/chapter-03/content.md")
		b.Run(c.name+"/changed", func(b *testing.B) {
			b.ReportMetric(float64(utf8.RuneCountInString(text)), "chars")
			for i := 0; i < b.N; i++ {
				p.mu.Lock()
				delete(p.names, uri)
				p.mu.Unlock()
				if p.namesOf(context.Background(), uri, 3, text) == nil {
					b.Fatal("no names")
				}
			}
		})
		b.Run(c.name+"/cached", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				p.namesOf(context.Background(), uri, 3, text)
			}
		})
	}
}
