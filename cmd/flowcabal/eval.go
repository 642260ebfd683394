package main

import (
	"context"
	"fmt"
)

// runEval dispatches "flowcabal eval context|checks|entities|import".
func runEval(ctx context.Context, env *cliEnv, args []string) int {
	if len(args) > 0 {
		switch args[0] {
		case "context":
			return runEvalContext(ctx, env, args[1:])
		case "checks":
			return runEvalChecks(ctx, env, args[1:])
		case "entities":
			return runEvalEntities(ctx, env, args[1:])
		case "import":
			return runEvalImport(ctx, env, args[1:])
		}
	}
	fmt.Fprintf(env.stderr, "usage:\n\tflowcabal eval context --book DIR --queries FILE --budget N [--entities DIR] [--baseline]\n\tflowcabal eval checks --project DIR --cases FILE\n\tflowcabal eval entities --book DIR --entities DIR\n\tflowcabal eval import CASEDIR...\n")
	return exitUsage
}
