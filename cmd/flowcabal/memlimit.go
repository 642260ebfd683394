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
// snapshot holds ~25 MB, the peak reached ~150 MB. The heap then fills
// to about the limit between collections, so the limit sets the resident
// memory of the whole session: in cmd/lspbench the resident set is the
// limit plus ~26 MB of the binary's own pages (text, read-only data and
// pclntab, touched mostly by the packages' initialisation). 72 MiB held
// it at 95-102 MB; 60 MiB, with summaries that no longer keep their
// chapters' text alive (2.6 MB less live heap, which gives back part of
// the room between collections), is measured in cmd/lspbench/README.md
// (2026-11-27, the rename's kept answer).
const defaultMemoryLimitMiB = 60

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
