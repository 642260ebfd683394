//go:build !linux

package main

import "os"

// growPipe leaves the pipe as it is where its size cannot be set.
func growPipe(*os.File) {}
