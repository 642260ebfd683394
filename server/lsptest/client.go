// Package lsptest is a small LSP client for tests: it drives a language
// server over the real jsonrpc2 transport (an in-memory pipe or a child
// process's stdio), answers the server's requests as an editor would, and
// records what the server pushes so that tests can wait on the server's
// own signals (a publishDiagnostics for a version, a log message) instead
// of sleeping.
package lsptest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/flowcabal/flowcabal/internal/rpcconn"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// Published is one textDocument/publishDiagnostics notification.
type Published struct {
	URI         protocol.DocumentURI  `json:"uri"`
	Version     *int32                `json:"version,omitempty"`
	Diagnostics []protocol.Diagnostic `json:"diagnostics"`
}

// ServerRequest is a request the server sent to the client.
type ServerRequest struct {
	Method string
	Params json.RawMessage
}

// Client is the editor side of a session.
type Client struct {
	Conn jsonrpc2.Conn

	// ApplyEditResult is the answer to workspace/applyEdit (default:
	// applied). Set it before the request that triggers the edit.
	ApplyEditResult protocol.ApplyWorkspaceEditResponse

	mu        sync.Mutex
	changed   chan struct{} // closed and replaced on every recorded event
	published []Published
	logs      []protocol.LogMessageParams
	requests  []ServerRequest
}

// Connect starts a client on rwc.
func Connect(ctx context.Context, rwc io.ReadWriteCloser) *Client {
	c := &Client{Conn: rpcconn.New(jsonrpc2.NewStream(rwc)), changed: make(chan struct{}),
		ApplyEditResult: protocol.ApplyWorkspaceEditResponse{Applied: true}}
	c.Conn.Go(ctx, c.handle)
	return c
}

func (c *Client) handle(ctx context.Context, reply jsonrpc2.Replier, r jsonrpc2.Request) error {
	switch r.Method() {
	case protocol.MethodTextDocumentPublishDiagnostics:
		var p Published
		if err := json.Unmarshal(r.Params(), &p); err == nil {
			c.record(func() { c.published = append(c.published, p) })
		}
		return reply(ctx, nil, nil)
	case protocol.MethodWindowLogMessage:
		var p protocol.LogMessageParams
		if err := json.Unmarshal(r.Params(), &p); err == nil {
			c.record(func() { c.logs = append(c.logs, p) })
		}
		return reply(ctx, nil, nil)
	}
	c.record(func() {
		c.requests = append(c.requests, ServerRequest{r.Method(), append(json.RawMessage(nil), r.Params()...)})
	})
	switch r.Method() {
	case protocol.MethodWorkspaceApplyEdit:
		c.mu.Lock()
		res := c.ApplyEditResult
		c.mu.Unlock()
		return reply(ctx, res, nil)
	case protocol.MethodShowDocument:
		return reply(ctx, protocol.ShowDocumentResult{Success: true}, nil)
	case protocol.MethodClientRegisterCapability, protocol.MethodCodeLensRefresh, protocol.MethodSemanticTokensRefresh, "workspace/inlayHint/refresh":
		return reply(ctx, nil, nil)
	}
	if _, ok := r.(*jsonrpc2.Call); ok {
		return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, r.Method()))
	}
	return nil
}

func (c *Client) record(f func()) {
	c.mu.Lock()
	f()
	close(c.changed)
	c.changed = make(chan struct{})
	c.mu.Unlock()
}

// Call sends a request and decodes its result.
func (c *Client) Call(ctx context.Context, method string, params, result any) error {
	_, err := c.Conn.Call(ctx, method, params, result)
	return err
}

// Notify sends a notification.
func (c *Client) Notify(ctx context.Context, method string, params any) error {
	return c.Conn.Notify(ctx, method, params)
}

// Close ends the connection.
func (c *Client) Close() error { return c.Conn.Close() }

// View is what the client has recorded at one moment.
type View struct {
	Published []Published
	Logs      []protocol.LogMessageParams
	Requests  []ServerRequest
}

// Count counts the server's requests of one method.
func (v *View) Count(method string) int {
	n := 0
	for _, r := range v.Requests {
		if r.Method == method {
			n++
		}
	}
	return n
}

// recheck is how often WaitFor re-checks a condition with no event.
const recheck = 100 * time.Millisecond

// WaitFor blocks until cond is true of what the client has recorded,
// re-checking on every event it records, or until ctx ends. It also
// re-checks every recheck: a cond that asks the server (a code action
// that should go once a notification is handled) may turn true with no
// event, since the server answers a notification with nothing.
func (c *Client) WaitFor(ctx context.Context, what string, cond func(v *View) bool) error {
	tick := time.NewTicker(recheck)
	defer tick.Stop()
	for {
		c.mu.Lock()
		v := &View{Published: c.published, Logs: c.logs, Requests: c.requests}
		ch := c.changed
		c.mu.Unlock()
		if cond(v) {
			return nil
		}
		select {
		case <-ch:
		case <-tick.C:
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", what, ctx.Err())
		}
	}
}

// Diagnostics waits for a publication for uri with the given version (for
// an open document) or, with version < 0, for any publication after the
// first `after` ones, and returns it.
func (c *Client) Diagnostics(ctx context.Context, uri protocol.DocumentURI, version int32) (Published, error) {
	var got Published
	err := c.WaitFor(ctx, fmt.Sprintf("diagnostics of %s v%d", uri, version), func(v *View) bool {
		for i := len(v.Published) - 1; i >= 0; i-- {
			p := v.Published[i]
			if p.URI != uri {
				continue
			}
			if version < 0 || (p.Version != nil && *p.Version == version) {
				got = p
				return true
			}
		}
		return false
	})
	return got, err
}

// Published returns every publication so far.
func (c *Client) Published() []Published {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]Published(nil), c.published...)
}

// PublishedFor returns the publications for uri so far.
func (c *Client) PublishedFor(uri protocol.DocumentURI) []Published {
	var out []Published
	for _, p := range c.Published() {
		if p.URI == uri {
			out = append(out, p)
		}
	}
	return out
}

// Logs returns the window/logMessage notifications so far.
func (c *Client) Logs() []protocol.LogMessageParams {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]protocol.LogMessageParams(nil), c.logs...)
}

// Requests returns the server's requests so far.
func (c *Client) Requests() []ServerRequest {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]ServerRequest(nil), c.requests...)
}
