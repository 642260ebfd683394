package main

import (
	"os"
	"slices"

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

// WriteBuffers writes bufs to stdout in one writev when stdout is a file
// (a pipe from the editor): a large answer and its envelope go out
// together without being copied into one buffer first.
func (s stdio) WriteBuffers(bufs [][]byte) (int64, error) {
	f, ok := s.out.(*os.File)
	if !ok {
		return writeEach(s.out, bufs)
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return writeEach(s.out, bufs)
	}
	bufs = slices.Clone(bufs) // advanced below; the caller's stays whole
	var total int64
	var werr error
	err = rc.Write(func(fd uintptr) bool {
		for len(bufs) > 0 {
			n, e := unix.Writev(int(fd), bufs)
			switch {
			case e == unix.EINTR:
				continue
			case e == unix.EAGAIN:
				return false // wait until the pipe has room
			case e != nil:
				werr = e
				return true
			}
			total += int64(n)
			bufs = advance(bufs, n)
		}
		return true
	})
	if err != nil {
		return total, err
	}
	return total, werr
}

// advance drops the first n bytes of bufs.
func advance(bufs [][]byte, n int) [][]byte {
	for len(bufs) > 0 && n >= len(bufs[0]) {
		n -= len(bufs[0])
		bufs = bufs[1:]
	}
	if len(bufs) > 0 {
		bufs[0] = bufs[0][n:]
	}
	return bufs
}
