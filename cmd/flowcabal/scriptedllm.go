package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
)

// runScriptedLLM serves the scripted OpenAI-compatible stand-in until
// interrupted, so that the editor flow can be tried without an endpoint.
func runScriptedLLM(ctx context.Context, env *cliEnv, args []string) int {
	fs := flag.NewFlagSet("scripted-llm", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	addr := fs.String("addr", "127.0.0.1:8089", "loopback `address` to listen on (port 0 picks a free one)")
	scriptPath := fs.String("script", "", "script `file` (JSON, see agent/llm/llmtest/README.md); default: echo every request")
	latency := fs.Duration("latency", 0, "delay before every reply (e.g. 50ms)")
	quiet := fs.Bool("quiet", false, "do not log requests")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: flowcabal scripted-llm [--addr 127.0.0.1:PORT] [--script FILE.json] [--latency 50ms]\n\n"+
			"Serves a SCRIPTED STAND-IN for an OpenAI-compatible endpoint. It is not a model:\n"+
			"it replies with canned or echoed text labelled %q.\n\n", llmtest.StandInPrefix)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return exitUsage
	}
	var script llmtest.Script
	if *scriptPath != "" {
		s, err := llmtest.LoadScript(*scriptPath)
		if err != nil {
			fmt.Fprintf(env.stderr, "flowcabal scripted-llm: %v\n", err)
			return exitUsage
		}
		script = s
	}
	if *latency > 0 {
		script.Latency = llmtest.Duration(*latency)
	}
	srv, err := llmtest.Start(*addr, script)
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal scripted-llm: %v\n", err)
		return exitFailure
	}
	defer srv.Close()
	// A session by hand may run for hours: keep only a few requests.
	srv.KeepRequests(100)
	if !*quiet {
		srv.OnRequest(func(r llmtest.Request) {
			fault := ""
			if r.Fault != "" {
				fault = " fault=" + string(r.Fault)
			}
			fmt.Fprintf(env.stderr, "%s #%d %s %s model=%q stream=%v%s\n",
				time.Now().Format("15:04:05.000"), r.Seq, r.Method, r.Path, r.Model, r.Stream, fault)
		})
	}
	source := "default script: echo every request"
	if *scriptPath != "" {
		source = "script " + *scriptPath
	}
	fmt.Fprintf(env.stdout, "flowcabal scripted-llm: a SCRIPTED STAND-IN, NOT A MODEL.\n"+
		"Replies are canned or echoed text labelled %q (%s).\n"+
		"base_url = %q   model = any (e.g. %q)   no key needed\n"+
		"Press Ctrl-C to stop.\n", llmtest.StandInPrefix, source, srv.URL, llmtest.StandInModel)
	<-ctx.Done()
	fmt.Fprintln(env.stdout, "flowcabal scripted-llm: stopped")
	return exitOK
}
