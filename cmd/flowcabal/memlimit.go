package main

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
)

// defaultMemoryLimitMiB is the floor of the server's soft heap limit.
// Building Role A's snapshot of a long work makes a burst of short-lived
// data, and with the collector's default pacing (the heap may grow to
// twice what is live) the process would keep that peak as resident
// memory for the rest of the session: on a million-character work the
// snapshot holds ~25 MB, the peak reached ~150 MB. Measured with
// cmd/lspbench: 72 MiB keeps the peak at ~94 MB with didChange's p99
// under 4 ms; 64 MiB gave 85 MB but a p99 near 6 ms. Measured again on
// 2026-11-27 (cmd/lspbench/README.md): the resident set is about this
// limit plus ~26 MB of the binary's own pages. 60 MiB held it at 93-94
// MB, but didChange -> publishDiagnostics took 1.20-1.43 ms (p50) against
// 1.12-1.17 ms with 72 MiB in the runs taken in turns with it, and at 64
// MiB the collector ran 25 times against 19 during 550 didChanges: 72
// stays.
const defaultMemoryLimitMiB = 72

// headroom is how far above the live heap the limit stays: a larger
// work whose live data nears the floor raises the limit rather than
// leaving the collector to run without pause.
const headroom = 1.5

// limitMemory sets the soft heap limit to floor bytes, or headroom times
// the live heap when that is more, and keeps it so after every
// collection. It returns a function that stops the tuning.
func limitMemory(floor int64) (stop func()) {
	var stopped atomic.Bool
	samples := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	tune := func() {
		metrics.Read(samples)
		limit := floor
		if samples[0].Value.Kind() == metrics.KindUint64 {
			limit = max(floor, int64(float64(samples[0].Value.Uint64())*headroom))
		}
		debug.SetMemoryLimit(limit)
	}
	tune()
	// A finalizer runs after each collection that finds its object
	// unreachable: re-armed every time, it is a hook on every cycle.
	type sentinel struct{ _ *int } // has a pointer: never tiny-allocated
	var arm func()
	arm = func() {
		runtime.SetFinalizer(&sentinel{}, func(*sentinel) {
			if stopped.Load() {
				return
			}
			tune()
			arm()
		})
	}
	arm()
	return func() { stopped.Store(true) }
}
