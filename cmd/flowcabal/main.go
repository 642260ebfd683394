// Command flowcabal is the FlowCabal language server and command-line tool.
//
// Usage:
//
//	flowcabal <command> [arguments]
//
// Run "flowcabal help" for the list of commands.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/pprof"
	"syscall"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

// A command is one subcommand of the binary. Each lives in its own file.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, env *cliEnv, args []string) int
}

// cliEnv carries the process's streams so that commands are testable
// without touching os.Stdout.
type cliEnv struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
}

// The exit codes scripts can rely on.
const (
	exitOK       = 0
	exitFindings = 1 // errors found (check), a node failed or needs the author (run)
	exitUsage    = 2 // bad command line
	exitFailure  = 3 // the command could not do its work (I/O, locked store, …)
)

func commands() []command {
	return []command{
		{"check", "report diagnostics of .flow files", runCheck},
		{"fmt", "format .flow files", runFmt},
		{"mv", "move a knowledge file, workflow or folder, rewriting the references to it", runMv},
		{"serve", "run the language server on stdio (or --listen 127.0.0.1:PORT)", runServe},
		{"index", "index the project's knowledge into .flowcabal/project.db", runIndex},
		{"context", "show the context Role A assembles for a node", runContext},
		{"run", "run a workflow or one node", runRun},
		{"cost", "what model calls cost (by node, workflow, chapter, model…), or will cost (-estimate)", runCost},
		{"graph", "draw a workflow's DAG (SVG, DOT, Mermaid) with run state and budget split", runGraph},
		{"threads", "print the plot threads' ledger (overdue, due soon, open, resolved) as of a chapter", runThreads},
		{"entities", "suggest the characters and places the manuscript is about (entities suggest), and their facts (entities facts)", runEntities},
		{"eval", "evaluate retrieval (context), fact checks (checks) or entity suggestions (entities)", runEval},
		{"init", "make a project (or add what an existing one lacks)", runInit},
		{"import", "bring a manuscript in: split a book (or chapter files) into manuscript/chapter-NN", runImport},
		{"bench", "make a web-novel-size project for the scale benchmarks (bench genproject)", runBench},
		{"db", "export or import the derived data as JSON (db export, db import)", runDB},
		{"scripted-llm", "start a scripted OpenAI-compatible stand-in server (for trying the editor flow; not a model)", runScriptedLLM},
		{"version", "print the version", runVersion},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	env := &cliEnv{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}
	stopProfile := startProfile(env)
	code := dispatch(ctx, env, os.Args[1:])
	stopProfile()
	stop()
	os.Exit(code)
}

// startProfile writes a CPU profile of the whole command to the file
// FLOWCABAL_CPUPROFILE names, if any (for go tool pprof): the scale
// benchmarks profile `flowcabal index` and `flowcabal context` with it.
func startProfile(env *cliEnv) (stop func()) {
	name := env.getenv("FLOWCABAL_CPUPROFILE")
	if name == "" {
		return func() {}
	}
	f, err := os.Create(name)
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal: cpu profile: %v\n", err)
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		fmt.Fprintf(env.stderr, "flowcabal: cpu profile: %v\n", err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

func dispatch(ctx context.Context, env *cliEnv, args []string) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(env.stdout)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(ctx, env, args[1:])
		}
	}
	fmt.Fprintf(env.stderr, "flowcabal: unknown command %q\n\n", args[0])
	usage(env.stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintf(w, "flowcabal %s: LLM workflows for long fiction, in your editor\n\nUsage:\n\n\tflowcabal <command> [arguments]\n\nCommands:\n\n", version)
	for _, c := range commands() {
		fmt.Fprintf(w, "\t%-13s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun \"flowcabal <command> -h\" for a command's flags.\n")
}

func runVersion(ctx context.Context, env *cliEnv, args []string) int {
	fmt.Fprintf(env.stdout, "flowcabal %s\n", version)
	return exitOK
}
