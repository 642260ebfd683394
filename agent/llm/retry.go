package llm

import (
	"context"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// RetryPolicy bounds the client's own retries of transient failures.
type RetryPolicy struct {
	// MaxRetries after the first attempt; the delays are BaseDelay,
	// 2×BaseDelay, 4×BaseDelay… (default 3: 2 s, 4 s, 8 s).
	MaxRetries int
	// BaseDelay is the first delay (default 2 s). Tests shorten it.
	BaseDelay time.Duration
	// Jitter is the fraction of the delay added at random, in [0, Jitter)
	// (0 means the default 0.25; negative means none), so that parallel
	// nodes do not retry in lockstep.
	Jitter float64
	// MaxRetryAfter is the longest Retry-After the client waits; an
	// endpoint asking for more ends the call with a clear error instead
	// (default 60 s).
	MaxRetryAfter time.Duration
}

// DefaultRetryPolicy is 3 retries after 2 s, 4 s and 8 s, with 25% jitter.
var DefaultRetryPolicy = RetryPolicy{MaxRetries: 3, BaseDelay: 2 * time.Second, Jitter: 0.25, MaxRetryAfter: time.Minute}

func (p RetryPolicy) withDefaults() RetryPolicy {
	d := DefaultRetryPolicy
	if p.MaxRetries < 0 {
		p.MaxRetries = 0
	} else if p.MaxRetries == 0 && p.BaseDelay == 0 && p.Jitter == 0 && p.MaxRetryAfter == 0 {
		return d
	}
	if p.BaseDelay <= 0 {
		p.BaseDelay = d.BaseDelay
	}
	if p.Jitter == 0 {
		p.Jitter = d.Jitter
	} else if p.Jitter < 0 {
		p.Jitter = 0
	}
	if p.MaxRetryAfter <= 0 {
		p.MaxRetryAfter = d.MaxRetryAfter
	}
	return p
}

// NoRetries is a policy for callers that handle retries themselves.
var NoRetries = RetryPolicy{MaxRetries: -1}

// backoff is the delay before retry number n (0-based): BaseDelay·2ⁿ plus
// jitter.
func (p RetryPolicy) backoff(n int, rnd func() float64) time.Duration {
	d := p.BaseDelay << n
	if p.Jitter > 0 {
		d += time.Duration(float64(d) * p.Jitter * rnd())
	}
	return d
}

// RetryEvent tells an observer that the client is about to wait and retry.
type RetryEvent struct {
	Op      string
	Attempt int // the attempt that failed, from 1
	Delay   time.Duration
	// FromServer is true when Delay is the endpoint's Retry-After.
	FromServer bool
	Kind       Kind
	Status     int
	Err        error // scrubbed
}

// retryAfter reads Retry-After (seconds or an HTTP date) or the
// retry-after-ms header some OpenAI-compatible servers send.
func retryAfter(h http.Header, now time.Time) (time.Duration, bool) {
	if h == nil {
		return 0, false
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms >= 0 {
			return time.Duration(ms * float64(time.Millisecond)), true
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0, false
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil && s >= 0 {
		return time.Duration(s * float64(time.Second)), true
	}
	if t, err := http.ParseTime(v); err == nil {
		d := t.Sub(now)
		if d < 0 {
			d = 0
		}
		return d, true
	}
	return 0, false
}

// sleepContext waits d or until ctx is done.
func sleepContext(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func defaultRand() float64 { return rand.Float64() }
