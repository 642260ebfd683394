package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// stdoutPipeSize is the pipe buffer asked for on stdout. An editor
// starts the server with pipes, and Linux gives a pipe 64 KiB: a large
// answer (the outline of a long workflow is a few hundred KiB) then
// goes through in 64 KiB steps, each waiting for the editor to read.
// With room for the whole answer the server writes it at once.
const stdoutPipeSize = 1 << 20

// growStdoutPipe enlarges stdout's buffer when stdout is a pipe. It is
// best effort: an unprivileged process may be refused beyond
// /proc/sys/fs/pipe-max-size, and then the default stays.
func growStdoutPipe(f *os.File) {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		return
	}
	rc, err := f.SyscallConn() // not Fd(), which would make f blocking
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) {
		_, _ = unix.FcntlInt(fd, unix.F_SETPIPE_SZ, stdoutPipeSize)
	})
}
