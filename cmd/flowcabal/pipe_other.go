//go:build !linux

package main

import "os"

// growStdoutPipe is a no-op where pipes cannot be resized.
func growStdoutPipe(*os.File) {}
