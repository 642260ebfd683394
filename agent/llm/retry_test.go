package llm

import (
	"net/http"
	"testing"
	"time"
)

func TestRetryAfterParsing(t *testing.T) {
	now := time.Date(2026, 11, 25, 23, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		h    http.Header
		want time.Duration
		ok   bool
	}{
		{http.Header{"Retry-After": {"7"}}, 7 * time.Second, true},
		{http.Header{"Retry-After": {"1.5"}}, 1500 * time.Millisecond, true},
		{http.Header{"Retry-After": {now.Add(30 * time.Second).Format(http.TimeFormat)}}, 30 * time.Second, true},
		{http.Header{"Retry-After": {now.Add(-time.Minute).Format(http.TimeFormat)}}, 0, true},
		{http.Header{"Retry-After-Ms": {"250"}, "Retry-After": {"9"}}, 250 * time.Millisecond, true},
		{http.Header{"Retry-After": {"soon"}}, 0, false},
		{http.Header{"Retry-After": {"-3"}}, 0, false},
		{http.Header{}, 0, false},
		{nil, 0, false},
	} {
		got, ok := retryAfter(tt.h, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%v: got %v %v, want %v %v", tt.h, got, ok, tt.want, tt.ok)
		}
	}
}

func TestPolicyDefaults(t *testing.T) {
	if p := (RetryPolicy{}).withDefaults(); p != DefaultRetryPolicy {
		t.Errorf("zero policy = %+v", p)
	}
	if p := NoRetries.withDefaults(); p.MaxRetries != 0 {
		t.Errorf("NoRetries = %+v", p)
	}
	p := RetryPolicy{MaxRetries: 3, BaseDelay: 2 * time.Second, Jitter: -1}.withDefaults()
	for n, want := range []time.Duration{2 * time.Second, 4 * time.Second, 8 * time.Second} {
		if got := p.backoff(n, func() float64 { return 0.99 }); got != want {
			t.Errorf("no jitter, retry %d: %v", n, got)
		}
	}
	j := RetryPolicy{MaxRetries: 3}.withDefaults()
	if j.Jitter != 0.25 || j.BaseDelay != 2*time.Second {
		t.Errorf("defaults not filled: %+v", j)
	}
	if got := j.backoff(1, func() float64 { return 0.5 }); got != 4*time.Second+500*time.Millisecond {
		t.Errorf("jittered 4 s = %v", got)
	}
}
