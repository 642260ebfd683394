package workflowlang

import (
	"runtime"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/internal/cputime"
)

// benchEnv knows the one resource the generated workflows reference.
var benchEnv = Env{
	Resource:  func(p string) bool { return p == "meta/style-guide" },
	Resources: func() []string { return []string{"meta/style-guide"} },
	Tokens:    func(p, level string) (int, bool) { return 1200, true },
}

// BenchmarkParseCheck measures parse + resolve + DAG check throughput on
// a generated 20,000-node workflow (about 4 MB).
func BenchmarkParseCheck(b *testing.B) {
	src := genNodes(20_000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	cpu := cputime.Used()
	for b.Loop() {
		res := Check(Parse("big.flow", src), benchEnv)
		if len(res.Diagnostics) != 0 {
			b.Fatal(res.Diagnostics[0].Message)
		}
	}
	reportCPU(b, cpu, len(src))
}

// reportCPU reports MB per CPU second (all threads, the GC's included):
// on a shared machine wall-clock MB/s mostly measures the neighbours.
func reportCPU(b *testing.B, start time.Duration, size int) {
	if used := cputime.Used() - start; used > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/1e6/used.Seconds(), "MB/cpu-s")
		b.ReportMetric(float64(used.Microseconds())/1e3/float64(b.N), "cpu-ms/op")
	}
}

// BenchmarkTwoThousandNodes is the time to parse and check a 2,000-node file.
func BenchmarkTwoThousandNodes(b *testing.B) {
	src := genNodes(2_000)
	b.SetBytes(int64(len(src)))
	cpu := cputime.Used()
	for b.Loop() {
		Check(Parse("2k.flow", src), benchEnv)
	}
	reportCPU(b, cpu, len(src))
}

// BenchmarkFormat measures the formatter on the 2,000-node file.
func BenchmarkFormat(b *testing.B) {
	f := Parse("2k.flow", genNodes(2_000))
	b.SetBytes(int64(len(f.Src)))
	for b.Loop() {
		if _, err := Format(f); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkASTMemory reports the live heap the AST of a generated file
// holds, per byte of source (target: under 10).
func BenchmarkASTMemory(b *testing.B) {
	src := genNodes(20_000)
	var ratio float64
	for b.Loop() {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		f := Parse("big.flow", src)
		runtime.GC()
		runtime.ReadMemStats(&after)
		ratio = float64(after.HeapAlloc-before.HeapAlloc) / float64(len(src))
		runtime.KeepAlive(f)
	}
	b.ReportMetric(ratio, "ast-bytes/src-byte")
}

// BenchmarkParse measures the parser alone on the 20,000-node workflow.
func BenchmarkParse(b *testing.B) {
	src := genNodes(20_000)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		Parse("big.flow", src)
	}
}

// BenchmarkCheckOnly measures Check alone on the 20,000-node workflow.
func BenchmarkCheckOnly(b *testing.B) {
	f := Parse("big.flow", genNodes(20_000))
	b.SetBytes(int64(len(f.Src)))
	b.ReportAllocs()
	for b.Loop() {
		Check(f, benchEnv)
	}
}
