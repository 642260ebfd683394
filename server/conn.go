package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime/debug"
	"strconv"

	fastjson "github.com/segmentio/encoding/json"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// JSON-RPC and LSP error codes the server answers with.
const (
	codeServerNotInitialized jsonrpc2.Code = -32002
	codeRequestFailed        jsonrpc2.Code = -32803 // LSP 3.17: a request failed for a valid reason
	codeRequestCancelled                   = protocol.CodeRequestCancelled
	codeContentModified                    = protocol.CodeContentModified
)

// A route handles one method. Requests run on their own goroutine;
// notifications run in arrival order on the connection's goroutine, which
// keeps document state consistent with the requests that follow them.
type route struct {
	call   func(ctx context.Context, s *Server, params json.RawMessage) (any, error)
	notify func(ctx context.Context, s *Server, params json.RawMessage) error
}

// req adapts a typed request handler.
func req[P, R any](fn func(s *Server, ctx context.Context, p *P) (R, error)) route {
	return route{call: func(ctx context.Context, s *Server, raw json.RawMessage) (any, error) {
		var p P
		if err := decode(raw, &p); err != nil {
			return nil, err
		}
		return fn(s, ctx, &p)
	}}
}

// note adapts a typed notification handler.
func note[P any](fn func(s *Server, ctx context.Context, p *P) error) route {
	return route{notify: func(ctx context.Context, s *Server, raw json.RawMessage) error {
		var p P
		if err := decode(raw, &p); err != nil {
			return err
		}
		return fn(s, ctx, &p)
	}}
}

// handle is the connection's handler: the middleware that stands between
// jsonrpc2 and the routes.
func (s *Server) handle(ctx context.Context, reply jsonrpc2.Replier, r jsonrpc2.Request) error {
	method := r.Method()
	call, isCall := r.(*jsonrpc2.Call)
	if !isCall {
		s.handleNotification(ctx, method, r.Params())
		return nil
	}
	rt, ok := s.lookup(method)
	if !ok || rt.call == nil {
		return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.MethodNotFound, fmt.Sprintf("method not found: %s", method)))
	}
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	switch {
	case state == stateNew && method != protocol.MethodInitialize:
		return reply(ctx, nil, jsonrpc2.NewError(codeServerNotInitialized, "server not initialized"))
	case state != stateNew && method == protocol.MethodInitialize:
		return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "initialize sent twice"))
	case state == stateShutdown:
		return reply(ctx, nil, jsonrpc2.NewError(jsonrpc2.InvalidRequest, "server is shut down"))
	}

	if method == protocol.MethodShutdown {
		// Answered in order, so that its answer is queued before an exit
		// that follows it closes the stream (which flushes the queue).
		res, err := s.run(ctx, method, rt, r.Params())
		return s.respond(call.ID(), res, wireError(err))
	}
	key := idKey(call.ID())
	rctx, cancel := context.WithCancel(s.bg)
	s.mu.Lock()
	s.inflight[key] = cancel
	s.mu.Unlock()
	s.handlers.Add(1)
	// Every request runs on its own goroutine, so one slow handler never
	// delays the ones behind it (jsonrpc2.AsyncHandler serialises them).
	go func() {
		defer s.handlers.Done()
		res, err := s.run(rctx, method, rt, r.Params())
		s.mu.Lock()
		delete(s.inflight, key)
		s.mu.Unlock()
		if rctx.Err() != nil && err == nil {
			// Cancelled while finishing: the client has stopped waiting
			// for this result, and says so with RequestCancelled.
			err = context.Canceled
		}
		cancel()
		if err := s.respond(call.ID(), res, wireError(err)); err != nil {
			s.log.Debug("reply failed", "method", method, "err", err)
		}
	}()
	return nil
}

// run calls a route, turning a panic into an InternalError.
func (s *Server) run(ctx context.Context, method string, rt route, params json.RawMessage) (res any, err error) {
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("handler panicked", "method", method, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
			res, err = nil, jsonrpc2.NewError(jsonrpc2.InternalError, fmt.Sprintf("internal error in %s: %v", method, r))
		}
	}()
	return rt.call(ctx, s, params)
}

func (s *Server) handleNotification(ctx context.Context, method string, params json.RawMessage) {
	if method == protocol.MethodCancelRequest {
		s.cancelRequest(params)
		return
	}
	rt, ok := s.lookup(method)
	if !ok || rt.notify == nil {
		s.log.Debug("ignoring notification", "method", method)
		return
	}
	s.mu.Lock()
	state := s.state
	s.mu.Unlock()
	if state == stateNew && method != protocol.MethodExit {
		s.log.Debug("notification before initialize dropped", "method", method)
		return
	}
	defer func() {
		if r := recover(); r != nil {
			s.log.Error("notification handler panicked", "method", method, "panic", fmt.Sprint(r), "stack", string(debug.Stack()))
		}
	}()
	if err := rt.notify(ctx, s, params); err != nil {
		s.log.Warn("notification failed", "method", method, "err", err)
	}
}

// cancelRequest honours $/cancelRequest whatever the id's JSON type:
// go.lsp.dev/protocol's cancel handler ignores numeric ids, which are
// what VS Code and Neovim send.
func (s *Server) cancelRequest(params json.RawMessage) {
	var p struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.Unmarshal(params, &p); err != nil || len(p.ID) == 0 {
		s.log.Warn("malformed $/cancelRequest", "params", string(params))
		return
	}
	key, ok := rawIDKey(p.ID)
	if !ok {
		s.log.Warn("malformed $/cancelRequest id", "id", string(p.ID))
		return
	}
	s.mu.Lock()
	cancel := s.inflight[key]
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// idKey and rawIDKey give a request id one spelling whether it came from
// jsonrpc2 or from raw JSON: numbers as "#7", strings quoted.
func idKey(id jsonrpc2.ID) string { return fmt.Sprintf("%q", id) }

func rawIDKey(raw json.RawMessage) (string, bool) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", false
	}
	switch v := v.(type) {
	case float64:
		return "#" + strconv.FormatInt(int64(v), 10), true
	case string:
		return idKey(jsonrpc2.NewStringID(v)), true
	}
	return "", false
}

// wireError gives an error its JSON-RPC code: the library sends plain Go
// errors with code 0.
func wireError(err error) error {
	if err == nil {
		return nil
	}
	var we *jsonrpc2.Error
	if errors.As(err, &we) {
		return we
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return jsonrpc2.NewError(codeRequestCancelled, "request cancelled")
	}
	return jsonrpc2.NewError(codeRequestFailed, err.Error())
}

func (s *Server) lookup(method string) (route, bool) {
	if rt, ok := routes[method]; ok {
		return rt, true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	rt, ok := s.extra[method]
	return rt, ok
}

// A jsonAppender is a result that writes its own JSON, valid and as
// encodeTo would write it, appended to dst; JSONSize is about how many
// bytes that takes, so that the frame is allocated once.
type jsonAppender interface {
	AppendJSON(dst []byte) []byte
	JSONSize() int
}

// largeResult is the size from which a marshalled result is written
// in place rather than copied into its frame.
const largeResult = 16 << 10

// respond writes the response to a call straight to the stream. jsonrpc2's
// replier marshals a result twice with segmentio/encoding (once into the
// response, once more when the response is written), validating and
// escaping it each time: for a large outline that costs milliseconds. A
// result the server marshalled itself (json.RawMessage) is written as is.
func (s *Server) respond(id jsonrpc2.ID, result any, err error) error {
	idJSON, e := id.MarshalJSON()
	if e != nil {
		return fmt.Errorf("marshal id: %w", e)
	}
	// A large result the server marshalled itself (an outline is a few
	// hundred KB) is not copied at all: the envelope is written around it
	// in one writev.
	if r, ok := result.(json.RawMessage); ok && err == nil && len(r) >= largeResult {
		head := make([]byte, frameHeaderRoom, frameHeaderRoom+64)
		head = append(head, `{"jsonrpc":"2.0","id":`...)
		head = append(head, idJSON...)
		head = append(head, `,"result":`...)
		return s.stream.enqueueParts(head, r, []byte{'}'})
	}
	// A result that writes its own JSON does so into the frame, whatever
	// its size: no reflection, and no copy of what it writes.
	// Its frame's buffer is reused once written (see framePool).
	if a, ok := result.(jsonAppender); ok && err == nil {
		p := getFrame(frameHeaderRoom + 64 + len(idJSON) + a.JSONSize())
		b := append((*p)[:0], make([]byte, frameHeaderRoom)...)
		b = append(b, `{"jsonrpc":"2.0","id":`...)
		b = append(b, idJSON...)
		b = append(b, `,"result":`...)
		b = a.AppendJSON(b)
		*p = append(b, '}')
		return s.stream.enqueuePooled(p)
	}
	// Otherwise the frame is built in one buffer, its header written last
	// into room kept in front.
	var buf bytes.Buffer
	size := 256
	if r, ok := result.(json.RawMessage); ok && err == nil {
		size += len(r)
	}
	buf.Grow(frameHeaderRoom + size)
	buf.Write(make([]byte, frameHeaderRoom))
	buf.WriteString(`{"jsonrpc":"2.0","id":`)
	buf.Write(idJSON)
	if err != nil {
		var we *jsonrpc2.Error
		if !errors.As(err, &we) {
			we = jsonrpc2.NewError(jsonrpc2.InternalError, err.Error())
		}
		buf.WriteString(`,"error":`)
		if e := encodeTo(&buf, we); e != nil {
			return e
		}
	} else {
		buf.WriteString(`,"result":`)
		switch r := result.(type) {
		case json.RawMessage:
			buf.Write(r)
		default:
			if e := encodeTo(&buf, result); e != nil {
				// The client must still get an answer.
				return s.respond(id, nil, jsonrpc2.NewError(jsonrpc2.InternalError, "marshal result: "+e.Error()))
			}
		}
	}
	buf.WriteByte('}')
	return s.stream.enqueueFrame(buf.Bytes())
}

// encodeTo appends v as JSON without HTML escaping (prompts are full of
// '<', '>' and '&' that need none), with the codec decode uses, for the
// same reason: encoding/json's reflection was another quarter of a small
// request's cost. The output is encoding/json's, byte for byte, on the
// cases tested (invalid UTF-8, U+2028, floats, nil slices).
func encodeTo(buf *bytes.Buffer, v any) error {
	enc := fastjson.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	buf.Truncate(buf.Len() - 1) // Encode's newline
	return nil
}
