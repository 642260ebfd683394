// Package rpcconn makes go.lsp.dev/jsonrpc2 connections that survive
// failing twice.
//
// A jsonrpc2 connection (v0.10.0) keeps its failure in an atomic.Value and
// stores every failure there: the error of a handler, then the error that
// ends reading the stream. atomic.Value panics when a value of another
// concrete type follows the first, so a handler's write error
// (*fmt.wrapError) followed by the end of the input (*errors.errorString)
// crashed the process. A connection made here hands jsonrpc2 every such
// error as one type, *Error, which unwraps to the original.
package rpcconn

import (
	"context"

	"go.lsp.dev/jsonrpc2"
)

// New returns a connection on stream whose read errors and handler errors
// reach jsonrpc2 as *Error.
func New(stream jsonrpc2.Stream) jsonrpc2.Conn {
	return &conn{Conn: jsonrpc2.NewConn(&errStream{Stream: stream})}
}

// Error is the one type of error a connection made by New fails with.
type Error struct{ Err error }

func (e *Error) Error() string { return e.Err.Error() }

// Unwrap returns the error as the stream or the handler gave it.
func (e *Error) Unwrap() error { return e.Err }

func wrap(err error) error {
	if err == nil {
		return nil
	}
	if e, ok := err.(*Error); ok {
		return e
	}
	return &Error{Err: err}
}

type conn struct{ jsonrpc2.Conn }

// Go runs handler as jsonrpc2.Conn.Go does, its errors wrapped.
func (c *conn) Go(ctx context.Context, handler jsonrpc2.Handler) {
	c.Conn.Go(ctx, func(ctx context.Context, reply jsonrpc2.Replier, req jsonrpc2.Request) error {
		return wrap(handler(ctx, reply, req))
	})
}

type errStream struct{ jsonrpc2.Stream }

func (s *errStream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	msg, n, err := s.Stream.Read(ctx)
	return msg, n, wrap(err)
}
