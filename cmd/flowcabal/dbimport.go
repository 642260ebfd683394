package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/flowcabal/flowcabal/store"
)

// runDBImport reads a document written by export into a project's store.
func runDBImport(ctx context.Context, env *cliEnv, args []string) int {
	fs := flag.NewFlagSet("db import", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	replace := fs.Bool("replace", false, "empty the store's buckets the export holds before importing")
	wait := fs.Duration("wait", store.DefaultLockWait, "how long to wait for another flowcabal holding the store")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: flowcabal db import [-replace] FILE|- [project]\n\nReads a JSON document written by flowcabal db export into the project store.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() < 1 || fs.NArg() > 2 {
		fs.Usage()
		return exitUsage
	}
	var in io.Reader = env.stdin
	if name := fs.Arg(0); name != "-" {
		f, err := os.Open(name)
		if err != nil {
			fmt.Fprintf(env.stderr, "flowcabal db import: %v\n", err)
			return exitFailure
		}
		defer f.Close()
		in = f
	}
	root, err := projectRoot(fs.Arg(1))
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal db import: %v\n", err)
		return exitFailure
	}
	s, err := store.Open(ctx, root, store.Options{LockWait: *wait, Command: "flowcabal db import", Getenv: env.getenv})
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal db import: %v\n", err)
		return exitFailure
	}
	defer s.Close()
	rep, err := s.Import(ctx, in, *replace)
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal db import: %v\n", err)
		return exitFailure
	}
	names := make([]string, 0, len(rep.Records))
	for n := range rep.Records {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(env.stdout, "%-13s %d\n", n, rep.Records[n])
	}
	return exitOK
}
