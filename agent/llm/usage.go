package llm

import (
	"context"
	"time"
)

// Usage is one model call for the agent log.
type Usage struct {
	Op        string // "chat", "stream", "embed"
	Config    string // "writer", "agent", "embedding"
	Role      string // the caller's label ("writer", "role-c", …)
	Node      string
	Model     string
	TokensIn  int
	TokensOut int
	Duration  time.Duration
	Attempts  int
	// Status is "ok" or the failure's Kind ("rate-limited", "timeout", …).
	Status string
	// Error is the failure's text (scrubbed of the key); empty when ok.
	Error string
}

// Recorder keeps usage records; the store's agent log implements it. It
// must be safe for concurrent use and must not block for long.
type Recorder interface {
	RecordUsage(ctx context.Context, u Usage)
}

// RecorderFunc adapts a function to a Recorder.
type RecorderFunc func(ctx context.Context, u Usage)

// RecordUsage calls f.
func (f RecorderFunc) RecordUsage(ctx context.Context, u Usage) { f(ctx, u) }
