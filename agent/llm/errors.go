package llm

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Kind classifies a failure so that callers can decide what to offer the
// author (retry, skip, stop) without reading error text.
type Kind int

// The kinds of failure.
const (
	KindUnknown     Kind = iota
	KindRateLimited      // 429
	KindServer           // 5xx
	KindTimeout          // no answer (or no chunk) within the timeout
	KindStreamCut        // the stream ended before the model finished
	KindMalformed        // the endpoint's reply was not the JSON it should be
	KindNetwork          // connection refused, reset, DNS…
	KindClient           // 4xx other than 429: the request or the key is wrong
	KindSchema           // structured output that does not match the schema
	KindCanceled         // the caller canceled
	KindConfig           // the configuration is incomplete
	KindCallback         // the caller's stream callback returned an error
)

var kindNames = [...]string{"unknown", "rate-limited", "server-error", "timeout", "stream-cut",
	"malformed-reply", "network", "request-rejected", "schema-mismatch", "canceled", "config", "callback"}

// String returns a short stable name ("rate-limited", "timeout", …).
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// transient reports whether the client retries this kind by itself.
func (k Kind) transient() bool {
	switch k {
	case KindRateLimited, KindServer, KindTimeout, KindStreamCut, KindMalformed, KindNetwork:
		return true
	}
	return false
}

// Error is the failure of one client call after its retries. Its text names
// the endpoint and the last error, never the key.
type Error struct {
	Op       string // "chat", "stream", "embed", "models"
	Config   string // configuration name
	Endpoint string // base URL and model
	Kind     Kind
	Status   int // last HTTP status; 0 when none came
	Attempts int
	// Retryable says whether trying again later may succeed (the runner
	// offers "retry"); false for rejected requests and schema mismatches.
	Retryable bool
	// RetryAfter is the wait the endpoint asked for last, if any.
	RetryAfter time.Duration
	// Content is the reply's text for KindSchema, so that the agent can
	// send it back with the validation error for a repair round.
	Content string
	Err     error // the last underlying error, already scrubbed of the key
}

// Error says which call failed, at which endpoint, how, after how many
// attempts, and the last underlying error.
func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "llm %s %s: %s", e.Config, e.Op, e.Endpoint)
	switch {
	case e.Kind == KindCanceled:
		b.WriteString(": canceled")
	case e.Attempts > 1:
		fmt.Fprintf(&b, ": %s, gave up after %d attempts", e.Kind, e.Attempts)
	default:
		fmt.Fprintf(&b, ": %s", e.Kind)
	}
	if e.Err != nil {
		fmt.Fprintf(&b, ": %v", e.Err)
	}
	return b.String()
}

// Unwrap returns the last underlying error (scrubbed of the key).
func (e *Error) Unwrap() error { return e.Err }

// ErrSchema is matched by errors.Is for structured output that does not
// match its schema.
var ErrSchema = errors.New("reply does not match the schema")

// Is makes errors.Is(err, ErrSchema) and errors.Is(err, context.Canceled)
// work on the kind even when the underlying error is something else.
func (e *Error) Is(target error) bool {
	switch target {
	case ErrSchema:
		return e.Kind == KindSchema
	case context.Canceled:
		return e.Kind == KindCanceled
	}
	return false
}

// scrubbed wraps an error so that its text, and the text of every error
// it wraps, has the key replaced by "[redacted]". The openai-go errors do
// not print keys, but URLs and proxies' replies might echo one.
type scrubbed struct {
	err error
	key string
}

func scrub(err error, key Secret) error {
	if err == nil || key.Empty() {
		return err
	}
	return &scrubbed{err: err, key: key.Reveal()}
}

func (s *scrubbed) Error() string { return strings.ReplaceAll(s.err.Error(), s.key, redacted) }

func (s *scrubbed) Unwrap() error {
	if inner := errors.Unwrap(s.err); inner != nil {
		return &scrubbed{err: inner, key: s.key}
	}
	return nil
}

// Is lets errors.Is see through the wrapper (context.Canceled,
// io.ErrUnexpectedEOF…) without exposing unscrubbed text.
func (s *scrubbed) Is(target error) bool { return errors.Is(s.err, target) }
