//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Used returns the CPU time the process has used so far (user and
// system, every thread's, the garbage collector's included), or 0 when
// the system cannot say.
func Used() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
