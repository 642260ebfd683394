package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"

	"github.com/flowcabal/flowcabal/workflowlang"
)

const fmtUsage = `usage: flowcabal fmt [-w] [-l] [paths]

Format .flow workflows in canonical form (comments kept, prompt text
unchanged). Paths are files or directories (searched recursively for
*.flow); the default is the current directory. Without -w or -l a single
file is printed to standard output, several are printed one after another.
Files with syntax errors are reported and left alone (exit status 1).
`

func runFmt(ctx context.Context, env *cliEnv, args []string) int {
	fl := flag.NewFlagSet("fmt", flag.ContinueOnError)
	fl.SetOutput(env.stderr)
	write := fl.Bool("w", false, "write the result back to the files")
	list := fl.Bool("l", false, "list the files whose formatting differs")
	fl.Usage = func() {
		fmt.Fprint(env.stderr, fmtUsage)
		fl.PrintDefaults()
	}
	if err := fl.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	files, err := flowFiles(fl.Args())
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal fmt: %v\n", err)
		return exitFailure
	}
	code := exitOK
	for _, name := range files {
		if err := ctx.Err(); err != nil {
			fmt.Fprintf(env.stderr, "flowcabal fmt: %v\n", err)
			return exitFailure
		}
		src, err := os.ReadFile(name)
		if err != nil {
			fmt.Fprintf(env.stderr, "flowcabal fmt: %v\n", err)
			code = exitFailure
			continue
		}
		out, err := workflowlang.Format(workflowlang.Parse(name, src))
		if err != nil {
			fmt.Fprintf(env.stderr, "flowcabal fmt: %v\n", err)
			if code == exitOK {
				code = exitFindings
			}
			continue
		}
		changed := !bytes.Equal(src, out)
		if *list && changed {
			fmt.Fprintln(env.stdout, name)
		}
		if *write {
			if changed {
				fi, err := os.Stat(name)
				if err != nil {
					fmt.Fprintf(env.stderr, "flowcabal fmt: %v\n", err)
					return exitFailure
				}
				if err := os.WriteFile(name, out, fi.Mode().Perm()); err != nil {
					fmt.Fprintf(env.stderr, "flowcabal fmt: %v\n", err)
					return exitFailure
				}
			}
			continue
		}
		if !*list {
			env.stdout.Write(out)
		}
	}
	return code
}
