package main

import (
	"bytes"
	"io"
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

// TestWriteBuffers writes parts much larger than the pipe's buffer, so
// that writev returns short and waits for the reader, and checks the
// reader gets every byte in order; and a writer that is not a file.
func TestWriteBuffers(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	parts := [][]byte{[]byte("Content-Length: 3000001\r\n\r\n{"), []byte(strings.Repeat("ab", 1_500_000)), []byte("}")}
	var want strings.Builder
	for _, p := range parts {
		want.Write(p)
	}
	got := make(chan []byte)
	go func() {
		b, _ := io.ReadAll(r)
		got <- b
	}()
	n, err := stdio{out: w}.WriteBuffers(parts)
	w.Close()
	if err != nil || n != int64(want.Len()) {
		t.Fatalf("WriteBuffers: %d, %v; want %d bytes", n, err, want.Len())
	}
	if b := <-got; string(b) != want.String() {
		t.Errorf("the reader got %d bytes, not what was written (%d)", len(b), want.Len())
	}
	if len(parts[1]) != 3_000_000 {
		t.Errorf("the caller's buffers were changed")
	}

	var buf bytes.Buffer
	if n, err := (stdio{out: &buf}).WriteBuffers(parts); err != nil || buf.String() != want.String() || n != int64(want.Len()) {
		t.Errorf("to a buffer: %d, %v", n, err)
	}
}
