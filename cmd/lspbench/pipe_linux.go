//go:build linux

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// growPipe gives the pipe behind f a 1 MiB buffer, as `flowcabal serve`
// does for its stdout, so that the probe's pipes match the server's.
func growPipe(f *os.File) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) {
		_, _ = unix.FcntlInt(fd, unix.F_SETPIPE_SZ, 1<<20)
	})
}
