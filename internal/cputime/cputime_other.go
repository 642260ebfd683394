//go:build !unix

package cputime

import "time"

// Used returns 0: the process's CPU time is not read on this system.
func Used() time.Duration { return 0 }
