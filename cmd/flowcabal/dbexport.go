package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/flowcabal/flowcabal/store"
)

// runDBExport writes the derived data of a project as JSON.
func runDBExport(ctx context.Context, env *cliEnv, args []string) int {
	fs := flag.NewFlagSet("db export", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	out := fs.String("o", "", "write to this file instead of standard output")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: flowcabal db export [-o FILE] [project]\n\nWrites the project store (index, levels, relations, curated versions, node\noutputs, freezes, runs, agent log) as one JSON document. Works while another\nflowcabal holds the store, from a consistent copy.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return exitUsage
	}
	root, err := projectRoot(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal db export: %v\n", err)
		return exitFailure
	}
	if _, err := os.Stat(filepath.Join(root, ".flowcabal", "project.db")); err != nil {
		fmt.Fprintf(env.stderr, "flowcabal db export: %s has no project store (run flowcabal index first)\n", root)
		return exitFailure
	}
	s, err := store.Open(ctx, root, store.Options{ReadOnly: true, ReadOnlyIfLocked: true, LockWait: 500 * time.Millisecond, Command: "flowcabal db export", Getenv: env.getenv})
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal db export: %v\n", err)
		return exitFailure
	}
	defer s.Close()
	w := env.stdout
	var f *os.File
	if *out != "" {
		// Through a temporary file, so a failed export leaves no half file.
		f, err = os.CreateTemp(filepath.Dir(*out), ".export-*.json")
		if err != nil {
			fmt.Fprintf(env.stderr, "flowcabal db export: %v\n", err)
			return exitFailure
		}
		defer os.Remove(f.Name())
		w = f
	}
	if err := s.Export(ctx, w); err != nil {
		fmt.Fprintf(env.stderr, "flowcabal db export: %v\n", err)
		return exitFailure
	}
	if f != nil {
		if err := f.Close(); err != nil {
			fmt.Fprintf(env.stderr, "flowcabal db export: %v\n", err)
			return exitFailure
		}
		if err := os.Rename(f.Name(), *out); err != nil {
			fmt.Fprintf(env.stderr, "flowcabal db export: %v\n", err)
			return exitFailure
		}
	}
	return exitOK
}

// runDB dispatches the derived-data pair: db export and db import.
func runDB(ctx context.Context, env *cliEnv, args []string) int {
	if len(args) > 0 {
		switch args[0] {
		case "export":
			return runDBExport(ctx, env, args[1:])
		case "import":
			return runDBImport(ctx, env, args[1:])
		}
	}
	fmt.Fprintf(env.stderr, "usage: flowcabal db export [-o FILE] [project]\n       flowcabal db import [-replace] FILE|- [project]\n\nThe project store's derived data as one JSON document, and back.\n")
	return exitUsage
}
