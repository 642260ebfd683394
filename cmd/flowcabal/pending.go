package main

import (
	"context"
	"fmt"
)

// TEMPORARY: each of these moves to its own file when its issue lands.

func notYet(name string) func(context.Context, *cliEnv, []string) int {
	return func(ctx context.Context, env *cliEnv, args []string) int {
		fmt.Fprintf(env.stderr, "flowcabal %s: not available yet\n", name)
		return exitFailure
	}
}

var ()
