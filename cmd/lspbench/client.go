package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/flowcabal/flowcabal/server/lsptest"
	"go.lsp.dev/protocol"
)

// client is a lean LSP client for measuring: it frames and parses with
// encoding/json and keeps results raw, so that what is timed is the
// server and the transport rather than a heavy client-side decoder (an
// editor parses JSON natively: VS Code's JSON.parse reads hundreds of MB/s).
type client struct {
	in  *bufio.Reader
	out io.WriteCloser

	wmu sync.Mutex

	mu      sync.Mutex
	seq     int
	pending map[string]chan envelope
	diags   map[protocol.DocumentURI]lsptest.Published
	changed chan struct{}
	err     error
}

type envelope struct {
	ID     json.RawMessage `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`

	// received is when the message's last byte was read, before it was
	// decoded: what the server and the transport cost, without this
	// client's decoder.
	received time.Time
}

func newClient(in io.Reader, out io.WriteCloser) *client {
	c := &client{in: bufio.NewReaderSize(in, 1<<16), out: out, pending: map[string]chan envelope{},
		diags: map[protocol.DocumentURI]lsptest.Published{}, changed: make(chan struct{})}
	go c.read()
	return c
}

func (c *client) write(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return c.writeRaw(b)
}

func (c *client) writeRaw(b []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, err := fmt.Fprintf(c.out, "Content-Length: %d\r\n\r\n%s", len(b), b)
	return err
}

func (c *client) read() {
	for {
		body, err := c.frame()
		received := time.Now()
		if err != nil {
			c.mu.Lock()
			c.err = err
			for _, ch := range c.pending {
				close(ch)
			}
			c.pending = map[string]chan envelope{}
			close(c.changed)
			c.changed = make(chan struct{})
			c.mu.Unlock()
			return
		}
		m := envelope{received: received}
		if err := json.Unmarshal(body, &m); err != nil {
			continue
		}
		switch {
		case m.Method == "" && len(m.ID) > 0:
			c.mu.Lock()
			ch := c.pending[string(m.ID)]
			delete(c.pending, string(m.ID))
			c.mu.Unlock()
			if ch != nil {
				ch <- m
			}
		case m.Method == protocol.MethodTextDocumentPublishDiagnostics:
			var p lsptest.Published
			if json.Unmarshal(m.Params, &p) == nil {
				c.mu.Lock()
				c.diags[p.URI] = p
				close(c.changed)
				c.changed = make(chan struct{})
				c.mu.Unlock()
			}
		case len(m.ID) > 0: // a request from the server: accept it
			_ = c.write(map[string]any{"jsonrpc": "2.0", "id": m.ID, "result": nil})
		}
	}
}

func (c *client) frame() ([]byte, error) { return readFrame(c.in) }

// Call sends a request and waits for its answer; result may be nil or a
// *json.RawMessage.
func (c *client) Call(ctx context.Context, method string, params any, result *json.RawMessage) error {
	_, err := c.Timed(ctx, method, params, result)
	return err
}

// Timed is Call that also returns the time from sending the request to
// reading the last byte of its answer.
func (c *client) Timed(ctx context.Context, method string, params any, result *json.RawMessage) (time.Duration, error) {
	c.mu.Lock()
	if c.err != nil {
		c.mu.Unlock()
		return 0, c.err
	}
	c.seq++
	id := strconv.Itoa(c.seq)
	ch := make(chan envelope, 1)
	c.pending[id] = ch
	c.mu.Unlock()
	req, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.seq, "method": method, "params": params})
	if err != nil {
		return 0, err
	}
	sent := time.Now()
	if err := c.writeRaw(req); err != nil {
		return 0, err
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return 0, fmt.Errorf("%s: connection closed", method)
		}
		if m.Error != nil {
			return 0, fmt.Errorf("%s: %s (%d)", method, m.Error.Message, m.Error.Code)
		}
		if result != nil {
			*result = m.Result
		}
		return m.received.Sub(sent), nil
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// Notify sends a notification.
func (c *client) Notify(ctx context.Context, method string, params any) error {
	return c.write(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// Diagnostics waits for the publication of uri at version.
func (c *client) Diagnostics(ctx context.Context, uri protocol.DocumentURI, version int32) (lsptest.Published, error) {
	for {
		c.mu.Lock()
		p, ok := c.diags[uri]
		ch, err := c.changed, c.err
		c.mu.Unlock()
		if ok && p.Version != nil && *p.Version == version {
			return p, nil
		}
		if err != nil {
			return p, err
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return p, fmt.Errorf("diagnostics of %s v%d: %w", uri, version, ctx.Err())
		}
	}
}

// Close closes the server's stdin.
func (c *client) Close() error { return c.out.Close() }
