package server

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// logHandler sends records to the process's own handler (stderr) and, from
// Info up, to the client as window/logMessage. The library's own logger is
// never used: it silently drops everything (LSP-NOTES pitfall 8), and it
// would need zap.
type logHandler struct {
	inner slog.Handler
	conn  jsonrpc2.Conn
	attrs []slog.Attr
	group string
}

func newLogHandler(inner slog.Handler, conn jsonrpc2.Conn) *logHandler {
	return &logHandler{inner: inner, conn: conn}
}

func (h *logHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= slog.LevelInfo || h.inner.Enabled(ctx, l)
}

func (h *logHandler) Handle(ctx context.Context, r slog.Record) error {
	var err error
	if h.inner.Enabled(ctx, r.Level) {
		err = h.inner.Handle(ctx, r)
	}
	if r.Level < slog.LevelInfo {
		return err
	}
	var b strings.Builder
	b.WriteString(r.Message)
	for _, a := range h.attrs {
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
	}
	r.Attrs(func(a slog.Attr) bool {
		if a.Key != "stack" {
			fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
		}
		return true
	})
	typ := protocol.MessageTypeInfo
	switch {
	case r.Level >= slog.LevelError:
		typ = protocol.MessageTypeError
	case r.Level >= slog.LevelWarn:
		typ = protocol.MessageTypeWarning
	}
	// A failed notification means the connection is gone; stderr has it.
	_ = h.conn.Notify(context.WithoutCancel(ctx), protocol.MethodWindowLogMessage,
		&protocol.LogMessageParams{Type: typ, Message: b.String()})
	return err
}

func (h *logHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	c := *h
	c.inner = h.inner.WithAttrs(attrs)
	c.attrs = append(append([]slog.Attr(nil), h.attrs...), attrs...)
	return &c
}

func (h *logHandler) WithGroup(name string) slog.Handler {
	c := *h
	c.inner = h.inner.WithGroup(name)
	c.group = name
	return &c
}
