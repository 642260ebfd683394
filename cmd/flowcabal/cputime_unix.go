//go:build unix

package main

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time the process has used so far (user and
// system, every thread), or 0 when the system cannot say.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
