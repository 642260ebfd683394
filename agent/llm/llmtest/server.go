// Package llmtest is a scripted OpenAI-compatible HTTP server: a stand-in
// for a model in tests and for trying the editor flow by hand. It answers
// /v1/chat/completions (streaming or not, text, structured output, tool
// calls), /v1/embeddings (deterministic hashed bag-of-words vectors) and
// /v1/models, follows a [Script], acts out faults, and records every
// request it receives.
//
// It is never a model: the default reply says so ("[scripted stand-in]").
package llmtest

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// StandInPrefix starts every default reply.
const StandInPrefix = "[scripted stand-in]"

// StandInModel is the model id /v1/models lists.
const StandInModel = "scripted-stand-in"

// Request is a request the server received.
type Request struct {
	Seq      int // from 1, in arrival order
	Method   string
	Path     string
	Header   http.Header
	Body     []byte
	Endpoint string // "chat", "embeddings", "models"
	Model    string
	Stream   bool
	Messages []Message
	Tools    []string // names of the tools offered
	// Schema is response_format.json_schema.schema, when given.
	Schema json.RawMessage
	// Fault is what the server did instead of a normal reply.
	Fault Fault
	// PromptTokens is what the server counted in the messages it
	// received, with the real tokeniser of the requested model (see
	// textsearch.Counter.CountChat): what an estimate is checked against.
	PromptTokens int
	// Billed is the usage the reply reported once it was delivered whole
	// (the usage chunk of a stream sent); nil when the reply failed or was
	// cut before it: what an endpoint bills.
	Billed *Usage
}

// Message is a chat message as received.
type Message struct {
	Role       string `json:"role"`
	Content    string `json:"content"`
	ToolCallID string `json:"tool_call_id,omitempty"`
}

// LastUser returns the text of the last user message.
func (r *Request) LastUser() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		if r.Messages[i].Role == "user" {
			return r.Messages[i].Content
		}
	}
	return ""
}

// Server is a running scripted server.
type Server struct {
	// URL is the base URL clients use, ending in /v1.
	URL string

	srv     *http.Server
	ln      net.Listener
	closing chan struct{}
	once    sync.Once
	served  chan struct{}

	mu     sync.Mutex
	script Script
	used   []int
	reqs   []Request
	seq    int // requests received, kept or not
	keep   int // how many requests reqs keeps; 0: all
	rng    *rand.Rand
	// Log, when set, gets one line per request (the CLI uses it).
	log func(Request)
}

// Start serves script on addr, which must be a loopback address; "" picks
// a free port on 127.0.0.1.
func Start(addr string, script Script) (*Server, error) {
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	if err := checkLoopback(addr); err != nil {
		return nil, err
	}
	if err := script.validate(); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	s := &Server{
		URL:     "http://" + ln.Addr().String() + "/v1",
		ln:      ln,
		closing: make(chan struct{}),
		served:  make(chan struct{}),
	}
	s.setScript(script)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", s.chat)
	mux.HandleFunc("POST /v1/embeddings", s.embeddings)
	mux.HandleFunc("GET /v1/models", s.models)
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not_found", "scripted stand-in: no such endpoint "+r.Method+" "+r.URL.Path)
	})
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		defer close(s.served)
		_ = s.srv.Serve(ln)
	}()
	return s, nil
}

// TB is the part of testing.TB that New needs.
type TB interface {
	Helper()
	Fatalf(format string, args ...any)
	Cleanup(func())
}

// New starts a server on a free loopback port for a test and closes it
// when the test ends.
func New(t TB, script Script) *Server {
	t.Helper()
	s, err := Start("", script)
	if err != nil {
		t.Fatalf("llmtest: %v", err)
	}
	t.Cleanup(s.Close)
	return s
}

func checkLoopback(addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("address %q: %w", addr, err)
	}
	if host == "localhost" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return fmt.Errorf("address %q: the scripted server listens on loopback only (127.0.0.1, ::1, localhost)", addr)
	}
	return nil
}

// Close stops the server, releasing requests that hang.
func (s *Server) Close() {
	s.once.Do(func() {
		close(s.closing)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := s.srv.Shutdown(ctx); err != nil {
			_ = s.srv.Close()
		}
		<-s.served
	})
}

// SetScript replaces the script and forgets which replies were used.
func (s *Server) SetScript(script Script) error {
	if err := script.validate(); err != nil {
		return err
	}
	s.setScript(script)
	return nil
}

func (s *Server) setScript(script Script) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = script
	s.used = make([]int, len(script.Replies))
	s.rng = rand.New(rand.NewPCG(script.Seed, script.Seed^0x9e3779b97f4a7c15))
}

// OnRequest sets a function told about every request after it is answered.
func (s *Server) OnRequest(f func(Request)) {
	s.mu.Lock()
	s.log = f
	s.mu.Unlock()
}

// KeepRequests bounds the record to the last n requests (0: keep all,
// the default for tests). A server started by hand keeps few, so that a
// long session does not grow without bound.
func (s *Server) KeepRequests(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.keep = n
	s.trim()
}

func (s *Server) trim() {
	if s.keep > 0 && len(s.reqs) > s.keep {
		s.reqs = append(s.reqs[:0:0], s.reqs[len(s.reqs)-s.keep:]...)
	}
}

// Requests returns a copy of the requests received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.reqs...)
}

// Count returns how many requests the server has received.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seq
}

// chatBody is the part of a chat request the server reads.
type chatBody struct {
	Model    string `json:"model"`
	Stream   bool   `json:"stream"`
	Messages []json.RawMessage
	Tools    []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
	ResponseFormat *struct {
		Type       string `json:"type"`
		JSONSchema *struct {
			Name   string          `json:"name"`
			Schema json.RawMessage `json:"schema"`
		} `json:"json_schema"`
	} `json:"response_format"`
	StreamOptions *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
}

// decodeMessage reads a message whose content is a string or an array of
// text parts.
func decodeMessage(raw json.RawMessage) Message {
	var m struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
	}
	_ = json.Unmarshal(raw, &m)
	out := Message{Role: m.Role, ToolCallID: m.ToolCallID}
	var s string
	if json.Unmarshal(m.Content, &s) == nil {
		out.Content = s
		return out
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(m.Content, &parts) == nil {
		var b strings.Builder
		for _, p := range parts {
			b.WriteString(p.Text)
		}
		out.Content = b.String()
	}
	return out
}

// record stores the request and picks its reply and fault.
func (s *Server) record(req Request, accept func(*Reply) bool) (Reply, Fault, Script, Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seq++
	req.Seq = s.seq
	sc := s.script
	var reply Reply
	found := false
	var fault Fault
	if sc.FaultRate > 0 && s.rng.Float64() < sc.FaultRate {
		faults := sc.Faults
		if len(faults) == 0 {
			faults = DefaultFaults
		}
		fault = faults[s.rng.IntN(len(faults))]
		reply = Reply{Fault: fault, RetryAfter: sc.RetryAfter}
		if reply.RetryAfter == "" {
			reply.RetryAfter = "1"
		}
		found = true
	}
	for i := range sc.Replies {
		if found {
			break
		}
		r := &sc.Replies[i]
		limit := r.Times
		if limit == 0 {
			limit = 1
		}
		if limit > 0 && s.used[i] >= limit {
			continue
		}
		if !accept(r) || (r.When != nil && !r.When(&req)) {
			continue
		}
		s.used[i]++
		reply, found = *r, true
		fault = r.Fault
	}
	if !found {
		if sc.Default != nil {
			reply = *sc.Default
		} else {
			reply = Reply{Echo: true}
		}
		fault = reply.Fault
	}
	req.Fault = fault
	s.reqs = append(s.reqs, req)
	s.trim()
	return reply, fault, sc, req
}

// bill marks request seq as delivered with usage u.
func (s *Server) bill(seq int, u Usage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.reqs) - 1; i >= 0; i-- {
		if s.reqs[i].Seq == seq {
			s.reqs[i].Billed = &u
			return
		}
	}
}

// notify tells the OnRequest function about req once it is answered.
func (s *Server) notify(req Request) {
	s.mu.Lock()
	f := s.log
	s.mu.Unlock()
	if f != nil {
		f(req)
	}
}

func readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 64<<20))
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "scripted stand-in: cannot read the body: "+err.Error())
		return nil, false
	}
	return body, true
}

func (m *Match) accepts(req *Request, endpoint string, hasSchema bool) bool {
	ep := "chat"
	if m != nil && m.Endpoint != "" {
		ep = m.Endpoint
	}
	if ep != endpoint {
		return false
	}
	if m == nil {
		return true
	}
	if m.Model != "" && m.Model != req.Model {
		return false
	}
	if m.Contains != "" && !strings.Contains(req.LastUser(), m.Contains) {
		return false
	}
	if m.System != "" && !anyMessage(req, "system", m.System) {
		return false
	}
	if m.ToolResult != "" && !anyMessage(req, "tool", m.ToolResult) {
		return false
	}
	if m.Stream != nil && *m.Stream != req.Stream {
		return false
	}
	if m.Tools != nil && *m.Tools != (len(req.Tools) > 0) {
		return false
	}
	if m.Schema != nil && *m.Schema != hasSchema {
		return false
	}
	return true
}

func anyMessage(req *Request, role, text string) bool {
	for _, msg := range req.Messages {
		if msg.Role == role && strings.Contains(msg.Content, text) {
			return true
		}
	}
	return false
}

// wait sleeps d, or returns false when the client left or the server closes.
func (s *Server) wait(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
	case <-s.closing:
	}
	return false
}

// hang blocks until the client gives up or the server closes.
func (s *Server) hang(ctx context.Context) {
	select {
	case <-ctx.Done():
	case <-s.closing:
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, typ, msg string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": msg, "type": typ, "code": nil, "param": nil}})
}

// writeFault acts out the faults that need no reply body. It reports
// whether it answered.
func (s *Server) writeFault(w http.ResponseWriter, r *http.Request, reply Reply, fault Fault) bool {
	switch fault {
	case Fault429:
		if reply.RetryAfter != "" {
			w.Header().Set("Retry-After", reply.RetryAfter)
		}
		writeError(w, http.StatusTooManyRequests, "rate_limit_exceeded", "scripted stand-in: rate limited")
	case Fault500:
		writeError(w, http.StatusInternalServerError, "server_error", "scripted stand-in: internal error")
	case Fault401:
		writeError(w, http.StatusUnauthorized, "invalid_request_error", "scripted stand-in: the key was rejected")
	case Fault503:
		if reply.RetryAfter != "" {
			w.Header().Set("Retry-After", reply.RetryAfter)
		}
		writeError(w, http.StatusServiceUnavailable, "server_error", "scripted stand-in: overloaded")
	case Fault400:
		writeError(w, http.StatusBadRequest, "invalid_request_error", "scripted stand-in: this model's maximum context length is exceeded")
	case FaultHang:
		s.hang(r.Context())
	default:
		return false
	}
	return true
}

func (s *Server) models(w http.ResponseWriter, r *http.Request) {
	req := Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Endpoint: "models"}
	s.mu.Lock()
	s.seq++
	req.Seq = s.seq
	s.reqs = append(s.reqs, req)
	s.trim()
	ids := []string{StandInModel}
	for _, rep := range s.script.Replies {
		if rep.Match != nil && rep.Match.Model != "" {
			ids = append(ids, rep.Match.Model)
		}
	}
	s.mu.Unlock()
	defer s.notify(req)
	data := make([]map[string]any, 0, len(ids))
	seen := map[string]bool{}
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			data = append(data, map[string]any{"id": id, "object": "model", "created": 0, "owned_by": "flowcabal-scripted-stand-in"})
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data})
}

// abort drops the connection without finishing the response.
func abort(w http.ResponseWriter) {
	if f, ok := w.(http.Flusher); ok {
		f.Flush()
	}
	panic(http.ErrAbortHandler)
}

// DeadURL returns the base URL of a loopback port nothing listens on: an
// endpoint that refuses every connection.
func DeadURL(t TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("llmtest: %v", err)
	}
	addr := l.Addr().String()
	l.Close()
	return "http://" + addr + "/v1"
}
