//go:build !unix

package workflowlang

import "time"

// cpuTime is unavailable here: benchmarks report wall-clock figures only.
func cpuTime() time.Duration { return 0 }
