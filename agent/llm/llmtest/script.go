package llmtest

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// A Fault is a failure the server acts out instead of a normal reply.
type Fault string

// The faults.
const (
	NoFault      Fault = ""
	Fault429     Fault = "429"          // 429 with Retry-After
	Fault500     Fault = "500"          // 500 with an error body
	Fault401     Fault = "401"          // 401: a rejected key (not transient)
	Fault400     Fault = "400"          // 400: a rejected request, e.g. context too long (not transient)
	Fault503     Fault = "503"          // 503 with Retry-After if given
	FaultHang    Fault = "hang"         // no reply at all until the client gives up
	FaultStall   Fault = "stall"        // streams a few chunks, then hangs
	FaultCut     Fault = "cut"          // the connection drops mid-reply
	FaultTrunc   Fault = "truncate"     // a stream that ends cleanly but early (no finish_reason, no [DONE])
	FaultBadJSON Fault = "malformed"    // a 200 reply whose JSON is broken
	FaultSchema  Fault = "wrong-schema" // valid JSON that matches no object schema
)

// DefaultFaults are drawn from when a fault rate is set and the script
// names none: the transient ones a client must survive.
var DefaultFaults = []Fault{Fault429, Fault500, FaultCut, FaultBadJSON}

// Script is what the server answers. See README.md beside this file for
// the JSON form.
type Script struct {
	// Replies are taken in order: each request gets the first reply that
	// is not used up and whose Match (and When) accepts it.
	Replies []Reply `json:"replies,omitempty"`
	// Default answers chat requests no reply accepts. Nil means the
	// stand-in echo ("[scripted stand-in] …").
	Default *Reply `json:"default,omitempty"`
	// Latency delays every reply before its first byte.
	Latency Duration `json:"latency,omitempty"`
	// FaultRate is the chance, per request, of a fault drawn from Faults
	// (DefaultFaults when empty), from a RNG seeded with Seed. A request
	// hit by a random fault does not use up a scripted reply.
	FaultRate float64 `json:"fault_rate,omitempty"`
	Seed      uint64  `json:"seed,omitempty"`
	Faults    []Fault `json:"faults,omitempty"`
	// RetryAfter is sent with random 429s (seconds, or an HTTP date);
	// default "1".
	RetryAfter string `json:"retry_after,omitempty"`
	// Dimensions of embedding vectors when the request sets none; default 64.
	Dimensions int `json:"dimensions,omitempty"`
	// Synonyms are words (or CJK phrases) the embeddings endpoint embeds
	// as other words, so that texts in different words come out close:
	// see [EmbedWith].
	Synonyms map[string]string `json:"synonyms,omitempty"`
	// ChunkRunes is the size of stream chunks when a reply gives no
	// Chunks; default 8 runes.
	ChunkRunes int `json:"chunk_runes,omitempty"`
	// ChunkDelay waits between stream chunks.
	ChunkDelay Duration `json:"chunk_delay,omitempty"`
}

// Match accepts requests by their content. Empty fields accept anything.
type Match struct {
	// Endpoint is "chat" (the default) or "embeddings".
	Endpoint string `json:"endpoint,omitempty"`
	Model    string `json:"model,omitempty"`
	// Contains must occur in the last user message.
	Contains string `json:"contains,omitempty"`
	// System must occur in a system message.
	System string `json:"system,omitempty"`
	Stream *bool  `json:"stream,omitempty"`
	// Tools: true accepts only requests offering tools, false only those
	// without.
	Tools *bool `json:"tools,omitempty"`
	// Schema: true accepts only structured-output requests.
	Schema *bool `json:"schema,omitempty"`
	// ToolResult must occur in a tool message (a reply to a tool call).
	ToolResult string `json:"tool_result,omitempty"`
}

// Reply is one scripted answer.
type Reply struct {
	Match *Match `json:"match,omitempty"`
	// When is a Go predicate for tests, checked after Match.
	When func(*Request) bool `json:"-"`
	// Times is how many requests this reply answers: 0 means once, -1
	// means every matching request.
	Times int `json:"times,omitempty"`

	// Content is the reply's text.
	Content string `json:"content,omitempty"`
	// JSON, when set, is the reply's text (structured output).
	JSON json.RawMessage `json:"json,omitempty"`
	// Refusal makes the model decline, as structured outputs report it.
	Refusal string `json:"refusal,omitempty"`
	// Echo answers with the stand-in echo of the last user message.
	Echo bool `json:"echo,omitempty"`
	// Chunks splits a streamed Content explicitly.
	Chunks []string `json:"chunks,omitempty"`
	// ToolCalls makes the reply a request to call tools.
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// Usage overrides the token counts the server computes.
	Usage *Usage `json:"usage,omitempty"`

	Fault Fault `json:"fault,omitempty"`
	// RetryAfter goes with Fault 429 and 503; empty sends none.
	RetryAfter string `json:"retry_after,omitempty"`
	// CutAfter is how many chunks a cut, truncated or stalled stream
	// sends first (default: half of them).
	CutAfter int `json:"cut_after,omitempty"`
	// Latency replaces the script's latency for this reply.
	Latency *Duration `json:"latency,omitempty"`
}

// ToolCall is a scripted tool call.
type ToolCall struct {
	ID        string `json:"id,omitempty"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Usage is a reply's token counts.
type Usage struct {
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// Duration is a time.Duration written "50ms" or as milliseconds in JSON.
type Duration time.Duration

// UnmarshalJSON accepts "1.5s" or a number of milliseconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("duration %q: %w", s, err)
		}
		*d = Duration(v)
		return nil
	}
	ms, err := strconv.ParseFloat(strings.TrimSpace(string(b)), 64)
	if err != nil {
		return fmt.Errorf("duration %s: want \"50ms\" or milliseconds", b)
	}
	*d = Duration(ms * float64(time.Millisecond))
	return nil
}

// MarshalJSON writes the duration as "50ms".
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// LoadScript reads a script file (JSON). Unknown fields are errors, so a
// misspelt key does not silently do nothing.
func LoadScript(path string) (Script, error) {
	var s Script
	f, err := os.Open(path)
	if err != nil {
		return s, err
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return s, fmt.Errorf("%s: %w", path, err)
	}
	return s, s.validate()
}

func (s Script) validate() error {
	known := map[Fault]bool{NoFault: true, Fault429: true, Fault500: true, Fault401: true, Fault400: true, Fault503: true, FaultHang: true,
		FaultStall: true, FaultCut: true, FaultTrunc: true, FaultBadJSON: true, FaultSchema: true}
	check := func(where string, f Fault) error {
		if !known[f] {
			return fmt.Errorf("%s: unknown fault %q", where, f)
		}
		return nil
	}
	for i, r := range s.Replies {
		if err := check(fmt.Sprintf("replies[%d]", i), r.Fault); err != nil {
			return err
		}
		if r.Match != nil && r.Match.Endpoint != "" && r.Match.Endpoint != "chat" && r.Match.Endpoint != "embeddings" {
			return fmt.Errorf("replies[%d]: match.endpoint must be \"chat\" or \"embeddings\"", i)
		}
	}
	for i, f := range s.Faults {
		if err := check(fmt.Sprintf("faults[%d]", i), f); err != nil {
			return err
		}
	}
	if s.FaultRate < 0 || s.FaultRate > 1 {
		return fmt.Errorf("fault_rate %v: want 0..1", s.FaultRate)
	}
	return nil
}
