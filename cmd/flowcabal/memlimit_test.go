package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// The limit is the floor while little is live, and follows the live heap
// up (with headroom) when the work outgrows the floor.
func TestLimitMemoryFollowsTheLiveHeap(t *testing.T) {
	old := debug.SetMemoryLimit(-1)
	defer debug.SetMemoryLimit(old)
	const floor = 8 << 20
	stop := limitMemory(floor)
	defer stop()
	runtime.GC()
	runtime.GC() // the finalizer of the first cycle runs and re-arms
	if got := debug.SetMemoryLimit(-1); got < floor {
		t.Fatalf("limit %d below the floor %d", got, floor)
	}
	live := make([][]byte, 0, 64)
	for range 64 {
		live = append(live, make([]byte, 1<<20)) // 64 MiB held
	}
	// Finalizers run after the cycle, on their own goroutine: wait a
	// little for the hook.
	got := int64(0)
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		runtime.GC()
		if got = debug.SetMemoryLimit(-1); got >= 64<<20 {
			break
		}
	}
	if got < 64<<20 {
		t.Errorf("limit %d MiB with 64 MiB live: it did not follow the live heap", got>>20)
	}
	runtime.KeepAlive(live)
}
