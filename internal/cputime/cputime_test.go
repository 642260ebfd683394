package cputime

import (
	"runtime"
	"testing"
)

// TestUsedGrowsWithWork: busy work adds CPU time where the system can
// say (every unix); the figure never goes back.
func TestUsedGrowsWithWork(t *testing.T) {
	before := Used()
	x := 0
	for i := 0; i < 50_000_000; i++ {
		x += i % 7
	}
	after := Used()
	if after < before {
		t.Fatalf("CPU time went back: %v then %v (%d)", before, after, x)
	}
	if runtime.GOOS == "linux" && after == before {
		t.Errorf("50M iterations used no CPU time: %v", after)
	}
}
