package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

func pipeSize(t *testing.T, f *os.File) int {
	t.Helper()
	rc, err := f.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	var n int
	var ferr error
	if err := rc.Control(func(fd uintptr) { n, ferr = unix.FcntlInt(fd, unix.F_GETPIPE_SZ, 0) }); err != nil {
		t.Fatal(err)
	}
	if ferr != nil {
		t.Fatal(ferr)
	}
	return n
}

func TestGrowStdoutPipe(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	before := pipeSize(t, w)
	growStdoutPipe(w)
	after := pipeSize(t, w)
	max := 0
	if b, err := os.ReadFile("/proc/sys/fs/pipe-max-size"); err == nil {
		max, _ = strconv.Atoi(strings.TrimSpace(string(b)))
	}
	switch {
	case max >= stdoutPipeSize && after != stdoutPipeSize:
		t.Errorf("pipe buffer %d after growing, want %d (was %d, max %d)", after, stdoutPipeSize, before, max)
	case after < before:
		t.Errorf("pipe buffer shrank from %d to %d", before, after)
	}
	// A regular file is left alone, and nothing fails.
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	growStdoutPipe(f)
	if _, err := f.WriteString("still writable"); err != nil {
		t.Fatal(err)
	}
}
