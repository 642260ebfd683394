package source

import (
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/internal/cputime"
)

// reportCPU reports the CPU time per iteration since start (see
// cputime): on a machine shared with other work, wall-clock ns/op mostly
// measures the neighbours.
func reportCPU(b *testing.B, start time.Duration) {
	if used := cputime.Used() - start; used > 0 && b.N > 0 {
		b.ReportMetric(float64(used.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}
