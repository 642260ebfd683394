//go:build unix

package server

import (
	"syscall"
	"testing"
	"time"
)

// cpuTime returns the CPU time (user and system, every thread's, the
// collector's included) the process used so far: on a machine shared
// with other work, wall-clock ns/op mostly measures the neighbours.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per iteration since start.
func reportCPU(b *testing.B, start time.Duration) {
	if used := cpuTime() - start; used > 0 && b.N > 0 {
		b.ReportMetric(float64(used.Nanoseconds())/float64(b.N), "cpu-ns/op")
	}
}
