package rpcconn

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
)

// handlerFailed is an error of a type no stream returns.
type handlerFailed struct{}

func (handlerFailed) Error() string { return "handler failed" }

// TestFailingTwice: a handler's error, then the end of the stream, end the
// connection without a panic. A plain jsonrpc2.NewConn panics here (two
// failures of different types).
func TestFailingTwice(t *testing.T) {
	ctx := context.Background()
	a, b := net.Pipe()
	c := New(jsonrpc2.NewStream(a))
	c.Go(ctx, func(context.Context, jsonrpc2.Replier, jsonrpc2.Request) error {
		return handlerFailed{}
	})
	peer := jsonrpc2.NewConn(jsonrpc2.NewStream(b))
	peer.Go(ctx, jsonrpc2.MethodNotFoundHandler)
	if err := peer.Notify(ctx, "ping", nil); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("the connection did not end")
	}
	_ = b.Close()
	var e *Error
	if err := c.Err(); !errors.As(err, &e) {
		t.Errorf("Err() = %T %v, want *Error", err, err)
	}
}
