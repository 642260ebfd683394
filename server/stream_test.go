package server

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/textproto"
	"strconv"
	"strings"
	"sync"
	"testing"

	"go.lsp.dev/jsonrpc2"
)

// TestPooledFramesArriveWhole: answers that write their own JSON have
// frames from a pool; sent at once from several goroutines over a real
// pipe whose reader lags (so frames queue while new ones are made, and
// the pool hands back buffers just written), each arrives whole and as
// sent, Chinese and astral text included: a buffer goes back to the pool
// only once its frame is written.
func TestPooledFramesArriveWhole(t *testing.T) {
	a, b := net.Pipe()
	s := newServer(Options{})
	s.stream = newStream(a, slog.New(slog.DiscardHandler))
	body := func(id int) string {
		// Sizes from a few bytes to ~9 KB, each id its own text.
		return fmt.Sprintf(`{"id":%d,"text":%q}`, id, strings.Repeat("黛玉𝄞a"[id%3*3:], (id*37)%1200))
	}
	const writers, each = 4, 150
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				id := w*each + i
				if err := s.respond(jsonrpc2.NewNumberID(int32(id)), rawJSON(body(id)), nil); err != nil {
					t.Errorf("respond %d: %v", id, err)
					return
				}
			}
		}()
	}
	seen := map[int]bool{}
	r := bufio.NewReader(b)
	for len(seen) < writers*each {
		hdr, err := textproto.NewReader(r).ReadMIMEHeader()
		if err != nil {
			t.Fatalf("header after %d frames: %v", len(seen), err)
		}
		n, err := strconv.Atoi(hdr.Get("Content-Length"))
		if err != nil {
			t.Fatalf("Content-Length %q: %v", hdr.Get("Content-Length"), err)
		}
		frame := make([]byte, n)
		if _, err := io.ReadFull(r, frame); err != nil {
			t.Fatal(err)
		}
		var m struct {
			ID     int             `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(frame, &m); err != nil {
			t.Fatalf("frame %d is not JSON: %v\n%s", len(seen), err, frame)
		}
		if want := body(m.ID); string(m.Result) != want || seen[m.ID] {
			t.Fatalf("answer %d (seen before: %v):\n%s\nwant\n%s", m.ID, seen[m.ID], m.Result, want)
		}
		seen[m.ID] = true
	}
	wg.Wait()
	s.stream.Close()
	b.Close()
}
