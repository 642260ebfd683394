//go:build !linux

package main

import "os"

// growStdoutPipe is a no-op where pipes cannot be resized.
func growStdoutPipe(*os.File) {}

// WriteBuffers writes bufs to stdout one after the other.
func (s stdio) WriteBuffers(bufs [][]byte) (int64, error) { return writeEach(s.out, bufs) }
