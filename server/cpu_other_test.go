//go:build !unix

package server

import (
	"testing"
	"time"
)

// cpuTime is not measured here: benchmarks report wall-clock time only.
func cpuTime() time.Duration { return 0 }

func reportCPU(*testing.B, time.Duration) {}
