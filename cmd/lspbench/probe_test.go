package main

import (
	"context"
	"encoding/json"
	"io"
	"testing"
	"time"
)

// TestEchoServer checks that the transport probe's echo server answers
// each request with a result of exactly the size asked.
func TestEchoServer(t *testing.T) {
	reqR, reqW := io.Pipe()
	resR, resW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- echoServer(reqR, resW)
		resW.Close()
	}()
	c := newClient(resR, reqW)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, size := range []int{0, 2, 149, 256641} {
		var res json.RawMessage
		if _, err := c.Timed(ctx, "probe", map[string]int{"bytes": size}, &res); err != nil {
			t.Fatalf("%d B: %v", size, err)
		}
		if want := max(size, 2); len(res) != want || !json.Valid(res) {
			t.Errorf("%d B: got a %d B result (valid JSON %v)", size, len(res), json.Valid(res))
		}
	}
	reqW.Close()
	if err := <-done; err != nil {
		t.Errorf("echo server: %v", err)
	}
}
