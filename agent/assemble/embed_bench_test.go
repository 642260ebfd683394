package assemble

import (
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"

	"github.com/flowcabal/flowcabal/internal/cputime"
)

// benchDims is the vector size of the embedding benchmarks: that of
// common embedding models (bge-m3, text-embedding-3-small at 1024).
const benchDims = 1024

// benchVectors embeds every passage of snap with the stand-in, offline:
// the benchmarks measure the assembly, not the endpoint.
func benchVectors(snap Snapshot) *Vectors {
	m := map[string][]float32{}
	for _, c := range snap.Chapters() {
		for _, p := range c.Passages {
			t := c.L2[p.Start:p.End]
			m[TextHash(t)] = llmtest.Embed(t, benchDims)
		}
	}
	return NewVectors("stand-in", snap, m)
}

func benchSemantic(b *testing.B, copies int) {
	snap, err := newBuilder().Build(hlmInput(b, copies))
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	vecs := benchVectors(snap)
	vms := float64(time.Since(start).Milliseconds())
	sem := &Semantic{Vectors: vecs, Query: llmtest.Embed(QueryText(benchNode), benchDims)}
	opt := Options{Semantic: sem}
	c, _ := Assemble(benchNode, snap, opt)
	if len(c.Notes) != 1 || c.Notes[0][:11] != "embeddings:" {
		b.Fatalf("embeddings not used: %v", c.Notes)
	}
	var ds []time.Duration
	b.ResetTimer()
	cpu := cputime.Used()
	for b.Loop() {
		t := time.Now()
		Assemble(benchNode, snap, opt)
		ds = append(ds, time.Since(t))
	}
	b.ReportMetric(float64((cputime.Used()-cpu).Microseconds())/1000/float64(len(ds)), "cpu-ms/op")
	b.ReportMetric(p50(ds), "p50-ms")
	b.ReportMetric(vms, "vectors-ms")
	b.ReportMetric(float64(vecs.Passages), "passages")
}

// BenchmarkAssembleHongloumengEmbeddings is BenchmarkAssembleHongloumeng
// with 1024-dimensional vectors for every passage: warm assemblies that
// rank all the passages by meaning too.
func BenchmarkAssembleHongloumengEmbeddings(b *testing.B) { benchSemantic(b, 1) }

// BenchmarkAssemble600ChaptersEmbeddings is the 600-chapter work with
// vectors: the arc-first scan compares chapter means, then the passages
// of the arcs kept.
func BenchmarkAssemble600ChaptersEmbeddings(b *testing.B) { benchSemantic(b, 5) }
