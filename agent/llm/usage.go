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
}

// Recorder keeps usage records; the store's agent log implements it. It
// must be safe for concurrent use and must not block for long.
type Recorder interface {
	RecordUsage(ctx context.Context, u Usage)
}
