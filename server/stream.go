package server

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// maxFrame bounds one message body. A larger Content-Length is treated as
// a malformed frame: its body is skipped, not allocated.
const maxFrame = 64 << 20

// stream is jsonrpc2's Content-Length framing made tolerant: jsonrpc2's own
// stream reports every undecodable message as a read error, and the
// connection closes on the first one (LSP-NOTES pitfall 10). This stream
// answers a frame whose body is not a JSON-RPC message with a ParseError
// response and reads on; only the end of the input ends it.
//
// Writes are queued and written by one goroutine, so that the connection's
// reader never blocks on a peer that is itself busy writing (jsonrpc2
// replies to some messages from its read loop; over a synchronous pipe,
// both ends would wait for each other forever).
type stream struct {
	rwc io.ReadWriteCloser
	in  *bufio.Reader
	log *slog.Logger

	mu      sync.Mutex
	cond    *sync.Cond
	queue   []message // in the order they are written
	closing bool      // Close was called: write what is queued, then stop
	closed  bool
	werr    error
	written chan struct{} // closed when the writer goroutine ends
}

func newStream(rwc io.ReadWriteCloser, log *slog.Logger) *stream {
	s := &stream{rwc: rwc, in: bufio.NewReaderSize(rwc, 64<<10), log: log, written: make(chan struct{})}
	s.cond = sync.NewCond(&s.mu)
	go s.writer()
	return s
}

func (s *stream) writer() {
	defer close(s.written)
	for {
		s.mu.Lock()
		for len(s.queue) == 0 && !s.closing && !s.closed {
			s.cond.Wait()
		}
		if s.closed || len(s.queue) == 0 {
			s.mu.Unlock()
			return
		}
		batch := s.queue
		s.queue = nil
		s.mu.Unlock()
		for _, m := range batch {
			if err := s.writeParts(m.parts); err != nil {
				s.mu.Lock()
				s.werr = err
				s.closed = true
				s.mu.Unlock()
				return
			}
			if m.pooled != nil {
				putFrame(m.pooled)
			}
		}
	}
}

// A message is one frame to write, in one or more parts written in
// order. pooled, when set, is the buffer behind parts[0], from getFrame:
// it goes back to the pool once written.
type message struct {
	parts  [][]byte
	pooled *[]byte
}

// framePool holds frame buffers for answers that write their own JSON
// (jsonAppender), such as a rename's 9 KB workspace edit: a frame that
// is written and then dropped need not be a new allocation, and garbage,
// each time.
var framePool sync.Pool

// maxPooledFrame is the largest buffer kept for reuse: a rare huge answer
// does not pin its buffer.
const maxPooledFrame = 64 << 10

// getFrame returns an empty buffer of at least size bytes of capacity,
// from the pool when one there is large enough.
func getFrame(size int) *[]byte {
	if p, ok := framePool.Get().(*[]byte); ok {
		if cap(*p) >= size {
			*p = (*p)[:0]
			return p
		}
		framePool.Put(p)
	}
	b := make([]byte, 0, size)
	return &b
}

// putFrame gives a written frame's buffer back.
func putFrame(p *[]byte) {
	if cap(*p) <= maxPooledFrame {
		framePool.Put(p)
	}
}

// A buffersWriter writes several buffers as one, in order (writev):
// a large result goes out without being copied behind its envelope.
// The stdio of `flowcabal serve` is one.
type buffersWriter interface {
	WriteBuffers(bufs [][]byte) (int64, error)
}

// writeParts writes one message's parts.
func (s *stream) writeParts(parts [][]byte) error {
	if len(parts) == 1 {
		_, err := s.rwc.Write(parts[0])
		return err
	}
	switch w := s.rwc.(type) {
	case buffersWriter:
		_, err := w.WriteBuffers(parts)
		return err
	case net.Conn:
		bufs := net.Buffers(parts) // writev on TCP
		_, err := bufs.WriteTo(w)
		return err
	}
	for _, b := range parts {
		if _, err := s.rwc.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// frameHeaderRoom is the room a message keeps in front of its body for
// enqueueFrame to write the header into ("Content-Length: N\r\n\r\n").
const frameHeaderRoom = 32

// enqueue queues one message, framing it.
func (s *stream) enqueue(data []byte) error {
	frame := make([]byte, frameHeaderRoom, frameHeaderRoom+len(data))
	return s.enqueueFrame(append(frame, data...))
}

// enqueueFrame queues a message whose body follows frameHeaderRoom
// unused bytes, writing its header there: the body is not copied.
func (s *stream) enqueueFrame(b []byte) error {
	return s.enqueueParts(b)
}

// enqueueParts queues a message whose body is the concatenation of
// head[frameHeaderRoom:] and rest, writing its header into head's room:
// neither is copied.
func (s *stream) enqueueParts(head []byte, rest ...[]byte) error {
	return s.enqueueMessage(nil, head, rest...)
}

// enqueuePooled is enqueueFrame of *p, a buffer from getFrame that goes
// back to the pool once written (or dropped).
func (s *stream) enqueuePooled(p *[]byte) error {
	return s.enqueueMessage(p, *p)
}

func (s *stream) enqueueMessage(pooled *[]byte, head []byte, rest ...[]byte) error {
	n := len(head) - frameHeaderRoom
	for _, r := range rest {
		n += len(r)
	}
	var hdr [frameHeaderRoom]byte
	h := fmt.Appendf(hdr[:0], "Content-Length: %d\r\n\r\n", n)
	start := frameHeaderRoom - len(h)
	copy(head[start:], h)
	frame := append([][]byte{head[start:]}, rest...)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed || s.closing {
		if s.werr != nil {
			return fmt.Errorf("write: %w", s.werr)
		}
		return io.ErrClosedPipe
	}
	s.queue = append(s.queue, message{parts: frame, pooled: pooled})
	s.cond.Signal()
	return nil
}

// Read implements jsonrpc2.Stream.
func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		body, n, err := s.frame()
		if err != nil {
			return nil, n, err
		}
		if body == nil {
			continue // a malformed header was reported; look for the next frame
		}
		msg, err := jsonrpc2.DecodeMessage(body)
		if err != nil {
			s.log.Warn("dropping a malformed JSON-RPC message", "err", err, "bytes", len(body))
			s.replyError(body, jsonrpc2.ParseError, fmt.Sprintf("malformed message: %v", err))
			continue
		}
		return msg, n, nil
	}
}

// frame reads one header block and its body. A header block without a
// usable Content-Length gives a nil body and no error; only I/O errors
// (the end of the input among them) are returned.
func (s *stream) frame() ([]byte, int64, error) {
	var total, length int64 = 0, -1
	for {
		line, err := s.in.ReadString('\n')
		total += int64(len(line))
		if err != nil {
			return nil, total, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			if length < 0 && total <= 2 {
				continue // stray blank line between frames
			}
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			s.log.Warn("skipping a malformed header line", "line", truncate(line, 80))
			continue
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			v, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || v < 0 {
				s.log.Warn("bad Content-Length", "value", truncate(value, 40))
				length = -2
				continue
			}
			length = v
		}
	}
	switch {
	case length < 0:
		s.replyError(nil, jsonrpc2.ParseError, "frame without a valid Content-Length header")
		return nil, total, nil
	case length > maxFrame:
		s.log.Warn("skipping an oversized frame", "bytes", length)
		n, err := io.CopyN(io.Discard, s.in, length)
		total += n
		if err != nil {
			return nil, total, err
		}
		s.replyError(nil, jsonrpc2.InvalidRequest, fmt.Sprintf("message of %d bytes exceeds the limit of %d", length, maxFrame))
		return nil, total, nil
	}
	body := make([]byte, length)
	n, err := io.ReadFull(s.in, body)
	total += int64(n)
	if err != nil {
		return nil, total, err
	}
	return body, total, nil
}

// replyError writes an error response. The id is taken from body when it
// holds one, as JSON-RPC asks; otherwise it is null.
func (s *stream) replyError(body []byte, code jsonrpc2.Code, msg string) {
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	id := json.RawMessage("null")
	if body != nil && json.Unmarshal(body, &probe) == nil && len(probe.ID) > 0 {
		id = probe.ID
	}
	resp, _ := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   *jsonrpc2.Error `json:"error"`
	}{"2.0", id, jsonrpc2.NewError(code, msg)})
	if err := s.enqueue(resp); err != nil {
		s.log.Debug("could not write an error reply", "err", err)
	}
}

// Write implements jsonrpc2.Stream.
func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	// The messages marshal themselves; encoding/json would re-scan and
	// compact their output, a cost that grows with large results.
	var data []byte
	var err error
	if m, ok := msg.(json.Marshaler); ok {
		data, err = m.MarshalJSON()
	} else {
		data, err = json.Marshal(msg)
	}
	if err != nil {
		return 0, fmt.Errorf("marshal message: %w", err)
	}
	if err := s.enqueue(data); err != nil {
		return 0, err
	}
	return int64(len(data)), nil
}

// Close implements jsonrpc2.Stream.
// Messages already queued (the answer to shutdown among them) are
// written first, for at most flushTimeout: a peer that no longer reads
// cannot hold the session open.
func (s *stream) Close() error {
	s.mu.Lock()
	s.closing = true
	s.cond.Signal()
	s.mu.Unlock()
	t := time.NewTimer(flushTimeout)
	select {
	case <-s.written:
	case <-t.C:
	}
	t.Stop()
	err := s.rwc.Close()
	<-s.written
	return err
}

// flushTimeout bounds how long Close waits for queued messages.
const flushTimeout = time.Second

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
