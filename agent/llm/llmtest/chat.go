package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/textsearch"
)

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	body, ok := readBody(w, r)
	if !ok {
		return
	}
	var cb chatBody
	if err := json.Unmarshal(body, &cb); err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", "scripted stand-in: the request is not JSON: "+err.Error())
		return
	}
	req := Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body,
		Endpoint: "chat", Model: cb.Model, Stream: cb.Stream}
	for _, m := range cb.Messages {
		req.Messages = append(req.Messages, decodeMessage(m))
	}
	for _, t := range cb.Tools {
		req.Tools = append(req.Tools, t.Function.Name)
	}
	req.PromptTokens = promptTokens(req.Model, req.Messages)
	if rf := cb.ResponseFormat; rf != nil && rf.JSONSchema != nil {
		req.Schema = rf.JSONSchema.Schema
	}
	hasSchema := req.Schema != nil
	reply, fault, sc, rec := s.record(req, func(rep *Reply) bool { return rep.Match.accepts(&req, "chat", hasSchema) })
	seq := rec.Seq
	defer s.notify(rec)

	latency := time.Duration(sc.Latency)
	if reply.Latency != nil {
		latency = time.Duration(*reply.Latency)
	}
	if !s.wait(r.Context(), latency) {
		return
	}
	if s.writeFault(w, r, reply, fault) {
		return
	}

	content := reply.Content
	switch {
	case fault == FaultSchema:
		content = `["scripted stand-in: this is not the object the schema asks for"]`
	case len(reply.JSON) > 0:
		content = string(reply.JSON)
	case reply.Refusal != "":
		content = ""
	case reply.Echo || (content == "" && len(reply.ToolCalls) == 0):
		content = echo(&req)
	}
	calls := make([]map[string]any, len(reply.ToolCalls))
	for i, tc := range reply.ToolCalls {
		id := tc.ID
		if id == "" {
			id = fmt.Sprintf("call_%d_%d", seq, i)
		}
		calls[i] = map[string]any{"id": id, "type": "function",
			"function": map[string]any{"name": tc.Name, "arguments": tc.Arguments}}
	}
	finish := "stop"
	if len(calls) > 0 {
		finish = "tool_calls"
	}
	usage := Usage{PromptTokens: req.PromptTokens, CompletionTokens: countTokens(req.Model, content)}
	if reply.Usage != nil {
		usage = *reply.Usage
	}
	id := fmt.Sprintf("chatcmpl-scripted-%d", seq)
	model := req.Model
	if model == "" {
		model = StandInModel
	}

	if !req.Stream {
		msg := map[string]any{"role": "assistant", "content": content}
		if reply.Refusal != "" {
			msg["content"], msg["refusal"] = nil, reply.Refusal
		}
		if len(calls) > 0 {
			msg["tool_calls"] = calls
			if reply.Content == "" && len(reply.JSON) == 0 && !reply.Echo {
				msg["content"] = nil
			}
		}
		resp := map[string]any{"id": id, "object": "chat.completion", "created": 0, "model": model,
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish, "logprobs": nil}},
			"usage":   usageJSON(usage)}
		switch fault {
		case FaultBadJSON:
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"id": "` + id + `", "object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assist`))
			return
		case FaultCut, FaultTrunc, FaultStall:
			data, _ := json.Marshal(resp)
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", fmt.Sprint(len(data)))
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write(data[:len(data)/2])
			if fault == FaultStall {
				if f, ok := w.(http.Flusher); ok {
					f.Flush()
				}
				s.hang(r.Context())
				return
			}
			abort(w)
		}
		writeJSON(w, http.StatusOK, resp)
		s.bill(seq, usage)
		return
	}

	// Streaming: role chunk, content chunks, tool-call chunks, the
	// finishing chunk, the usage chunk, [DONE].
	// Chunks are assembled from a fixed prefix and suffix around the
	// delta: the stand-in should cost little next to what it tests.
	idJSON, _ := json.Marshal(id)
	modelJSON, _ := json.Marshal(model)
	prefix := `{"id":` + string(idJSON) + `,"object":"chat.completion.chunk","created":0,"model":` + string(modelJSON) +
		`,"choices":[{"index":0,"delta":`
	chunk := func(delta any, finish string) []byte {
		d, _ := json.Marshal(delta)
		f := "null"
		if finish != "" {
			f = `"` + finish + `"`
		}
		b := make([]byte, 0, len(prefix)+len(d)+48)
		b = append(b, prefix...)
		b = append(b, d...)
		b = append(b, `,"finish_reason":`...)
		b = append(b, f...)
		return append(b, `,"logprobs":null}]}`...)
	}
	type contentDelta struct {
		Role    string `json:"role,omitempty"`
		Content string `json:"content"`
	}
	var events [][]byte
	events = append(events, chunk(contentDelta{Role: "assistant"}, ""))
	pieces := reply.Chunks
	if len(pieces) == 0 || content != reply.Content {
		pieces = split(content, sc.ChunkRunes)
	}
	if len(calls) > 0 && reply.Content == "" && len(reply.JSON) == 0 && !reply.Echo {
		pieces = nil
	}
	for _, p := range pieces {
		events = append(events, chunk(contentDelta{Content: p}, ""))
	}
	if reply.Refusal != "" {
		events = append(events, chunk(map[string]string{"refusal": reply.Refusal}, ""))
	}
	for i, tc := range reply.ToolCalls {
		c := calls[i]
		// Each call arrives in pieces, as real endpoints send them: the
		// id and name first, then the arguments in two halves.
		half := len(tc.Arguments) / 2
		events = append(events,
			chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": c["id"], "type": "function",
				"function": map[string]any{"name": tc.Name, "arguments": ""}}}}, ""),
			chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i,
				"function": map[string]any{"arguments": tc.Arguments[:half]}}}}, ""),
			chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i,
				"function": map[string]any{"arguments": tc.Arguments[half:]}}}}, ""))
	}
	events = append(events, chunk(struct{}{}, finish))
	if cb.StreamOptions != nil && cb.StreamOptions.IncludeUsage {
		u, _ := json.Marshal(map[string]any{"id": id, "object": "chat.completion.chunk", "created": 0, "model": model,
			"choices": []any{}, "usage": usageJSON(usage)})
		events = append(events, u)
	}

	cut := len(events)
	switch fault {
	case FaultCut, FaultTrunc, FaultStall, FaultBadJSON:
		cut = reply.CutAfter
		if cut <= 0 || cut >= len(events)-1 {
			cut = len(events) / 2
		}
		if cut < 1 {
			cut = 1
		}
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	for i, ev := range events[:cut] {
		if i > 0 && !s.wait(r.Context(), time.Duration(sc.ChunkDelay)) {
			return
		}
		_, _ = w.Write([]byte("data: "))
		_, _ = w.Write(ev)
		_, _ = w.Write([]byte("\n\n"))
		if flusher != nil {
			flusher.Flush()
		}
	}
	switch fault {
	case FaultCut:
		abort(w)
	case FaultTrunc:
		return
	case FaultStall:
		s.hang(r.Context())
		return
	case FaultBadJSON:
		fmt.Fprintf(w, "data: {\"id\": \"%s\", \"choices\": [{\"delta\": {\"content\": \"bro\n\n", id)
		if flusher != nil {
			flusher.Flush()
		}
		return
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
	if flusher != nil {
		flusher.Flush()
	}
	s.bill(seq, usage)
}

func usageJSON(u Usage) map[string]any {
	return map[string]any{"prompt_tokens": u.PromptTokens, "completion_tokens": u.CompletionTokens,
		"total_tokens": u.PromptTokens + u.CompletionTokens}
}

// echo is the default reply: clearly canned, deterministic, and showing
// what it was sent so that the editor flow can be followed.
func echo(req *Request) string {
	if req.Schema != nil {
		var schema any
		if json.Unmarshal(req.Schema, &schema) == nil {
			data, err := json.Marshal(instance(schema, 0))
			if err == nil {
				return string(data)
			}
		}
	}
	last := strings.Join(strings.Fields(req.LastUser()), " ")
	const max = 120
	if utf8.RuneCountInString(last) > max {
		last = string([]rune(last)[:max]) + "…"
	}
	return fmt.Sprintf("%s This text comes from `flowcabal scripted-llm`, not from a model. "+
		"It received %d message(s) for model %q; the last user message begins: «%s»", StandInPrefix, len(req.Messages), req.Model, last)
}

// instance builds the smallest value a JSON schema accepts, for the echo
// of structured-output requests. It covers the subset structured outputs
// use: type, properties, required, items, enum, const, minItems, minimum.
func instance(schema any, depth int) any {
	m, ok := schema.(map[string]any)
	if !ok || depth > 8 {
		return nil
	}
	if c, ok := m["const"]; ok {
		return c
	}
	if e, ok := m["enum"].([]any); ok && len(e) > 0 {
		return e[0]
	}
	for _, k := range []string{"anyOf", "oneOf"} {
		if alts, ok := m[k].([]any); ok && len(alts) > 0 {
			return instance(alts[0], depth+1)
		}
	}
	typ := m["type"]
	if list, ok := typ.([]any); ok && len(list) > 0 {
		typ = list[0]
	}
	switch typ {
	case "object":
		out := map[string]any{}
		props, _ := m["properties"].(map[string]any)
		req, _ := m["required"].([]any)
		for _, r := range req {
			if name, ok := r.(string); ok {
				out[name] = instance(props[name], depth+1)
			}
		}
		return out
	case "array":
		n := 0
		if f, ok := m["minItems"].(float64); ok {
			n = int(f)
		}
		out := make([]any, n)
		for i := range out {
			out[i] = instance(m["items"], depth+1)
		}
		return out
	case "string":
		s := StandInPrefix
		if f, ok := m["minLength"].(float64); ok && int(f) > len(s) {
			s += strings.Repeat(".", int(f)-len(s))
		}
		return s
	case "integer", "number":
		if f, ok := m["minimum"].(float64); ok {
			return f
		}
		return 0
	case "boolean":
		return false
	case "null":
		return nil
	}
	return nil
}

// split cuts text into chunks of n runes.
func split(text string, n int) []string {
	if n <= 0 {
		n = 8
	}
	var out []string
	r := []rune(text)
	for len(r) > 0 {
		k := min(n, len(r))
		out = append(out, string(r[:k]))
		r = r[k:]
	}
	return out
}

// counters holds one tokeniser per encoding, loaded on first use.
var counters sync.Map // encoding name -> *textsearch.Counter

func counterFor(model string) *textsearch.Counter {
	enc := textsearch.EncodingFor(model)
	if c, ok := counters.Load(enc); ok {
		return c.(*textsearch.Counter)
	}
	c, _ := counters.LoadOrStore(enc, textsearch.NewCounter(model))
	return c.(*textsearch.Counter)
}

// countTokens counts text with the real tokeniser of model's family, as an
// endpoint does (textsearch.Counter).
func countTokens(model, text string) int {
	return counterFor(model).MustCount(text)
}

// promptTokens counts a chat request's messages, framing included, as
// FlowCabal's estimates do (textsearch.Counter.CountChat).
func promptTokens(model string, msgs []Message) int {
	cm := make([]textsearch.ChatMessage, len(msgs))
	for i, m := range msgs {
		cm[i] = textsearch.ChatMessage{Role: m.Role, Content: m.Content}
	}
	n, err := counterFor(model).CountChat(cm)
	if err != nil {
		return 0
	}
	return n
}

func isCJK(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Hangul, r)
}
