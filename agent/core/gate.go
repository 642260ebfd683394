package core

import (
	"context"

	"github.com/flowcabal/flowcabal/workflowlang"
)

// Decision is Role C's verdict on one node's output.
type Decision string

// The gate's decisions.
const (
	Approve Decision = "approve"
	Retry   Decision = "retry"
	Flag    Decision = "flag"
)

// Verdict is Role C's answer for one output.
type Verdict struct {
	Decision Decision
	// Feedback is appended to the prompt on a retry and shown to the
	// author on a flag.
	Feedback string
	Reasons  []string
}

// Gate is Role C's decision after each node: approve, retry with
// feedback, or flag for the author. Attempt counts from 1. It is declared
// here, below the runner that calls it, so that the agents implementing
// it need not import the runner.
type Gate interface {
	Review(ctx context.Context, node *workflowlang.Node, output string, attempt int) (Verdict, error)
}
