package entityfacts

import (
	"testing"

	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/textsearch"
)

// BenchmarkGather: the passages of the most mentioned character of a
// whole book (紅樓夢, 120 chapters), at the default budget: what one
// entity of `entities facts` costs before the model is asked.
func BenchmarkGather(b *testing.B) {
	book := NewBook(sharedCorpus(b, "hongloumeng", 120))
	e := &knowledge.Entity{Name: "賈寶玉", Aliases: []string{"寶玉", "寶二爺"}, Resource: "entities/characters/jia-baoyu"}
	folder := textsearch.NewFolder()
	var ev Evidence
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ev = Gather(e, book, folder, DefaultBudget)
	}
	b.ReportMetric(float64(len(ev.Passages)), "passages")
	b.ReportMetric(float64(ev.Chapters), "chapters")
	w := 0
	for _, p := range ev.Passages {
		w += weight(p.Text)
	}
	b.ReportMetric(float64(w), "weight")
}
