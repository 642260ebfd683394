package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// The transport probe answers the question the documentSymbol ratio
// raises: how much of an answer's time is the size of the answer alone?
// A child process (this program with -echo-server) answers each request
// with a result of the size asked, built in advance, in one write, so
// its round trip is the pipes', the scheduler's and this client's cost,
// with no server work at all. Its ratio to its own floor is the best any
// stdio server can do for that size on this machine.

// probeRequest is the request the echo server reads.
type probeRequest struct {
	ID     json.RawMessage `json:"id"`
	Params struct {
		Bytes int `json:"bytes"`
	} `json:"params"`
}

// echoServer serves probe requests on stdin/stdout until stdin ends.
func echoServer(in io.Reader, out io.Writer) error {
	r := bufio.NewReaderSize(in, 1<<16)
	results := map[int][]byte{} // result by size, built once
	var frame []byte
	for {
		body, err := readFrame(r)
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
		var req probeRequest
		if err := json.Unmarshal(body, &req); err != nil {
			return fmt.Errorf("probe request: %w", err)
		}
		n := max(req.Params.Bytes, 2)
		res, ok := results[n]
		if !ok {
			// A JSON string of n bytes, quotes included.
			res = append(append([]byte{'"'}, bytes.Repeat([]byte{'x'}, n-2)...), '"')
			results[n] = res
		}
		length := len(`{"jsonrpc":"2.0","id":,"result":}`) + len(req.ID) + len(res)
		frame = fmt.Appendf(frame[:0], "Content-Length: %d\r\n\r\n", length)
		frame = append(frame, `{"jsonrpc":"2.0","id":`...)
		frame = append(frame, req.ID...)
		frame = append(frame, `,"result":`...)
		frame = append(frame, res...)
		frame = append(frame, '}')
		if _, err := out.Write(frame); err != nil {
			return err
		}
	}
}

// readFrame reads one Content-Length frame's body.
func readFrame(r *bufio.Reader) ([]byte, error) {
	n := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
			n, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	if n < 0 {
		return nil, fmt.Errorf("frame without Content-Length")
	}
	b := make([]byte, n)
	_, err := io.ReadFull(r, b)
	return b, err
}

// probeTransport times n round trips with the echo server for each size
// and returns their p50s, in the order of sizes.
func probeTransport(ctx context.Context, n int, sizes []int) ([]time.Duration, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, self, "-echo-server")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if f, ok := stdout.(*os.File); ok {
		growPipe(f) // as flowcabal serve grows its stdout
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := newClient(stdout, stdin)
	defer func() {
		stdin.Close()
		_ = cmd.Wait()
	}()
	// Each size in its own loop, as the server's requests are measured,
	// after a warm-up of the process and the pipes.
	for i := 0; i < n/2; i++ {
		if _, err := c.Timed(ctx, "probe", map[string]int{"bytes": 0}, nil); err != nil {
			return nil, fmt.Errorf("probe warm-up: %w", err)
		}
	}
	out := make([]time.Duration, len(sizes))
	for j, size := range sizes {
		var d []time.Duration
		for i := 0; i < n+n/10; i++ {
			w, err := c.Timed(ctx, "probe", map[string]int{"bytes": size}, nil)
			if err != nil {
				return nil, fmt.Errorf("probe %d B: %w", size, err)
			}
			if i >= n/10 { // the first tenth warms up
				d = append(d, w)
			}
		}
		out[j] = pct(d, 50)
	}
	return out, nil
}
