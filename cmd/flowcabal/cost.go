package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/flowcabal/flowcabal/cost"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/runner"
	"github.com/flowcabal/flowcabal/store"
)

const costUsage = `usage: flowcabal cost [flags] [PROJECT-DIR]
       flowcabal cost -estimate FILE.flow [-node NODE] [-json]

Reports what the project's model calls cost: every call of a run and of
the agent roles (Role B's builds, Role C's checks, profiles, embeddings),
as the agent log recorded it when the call returned, in tokens and, with
[prices.<model>] in flowcabal.toml, in money.

With -estimate, says instead what running a workflow (or one node) now
would send and cost, node by node, calling no model.

Flags:
`

func runCost(ctx context.Context, env *cliEnv, args []string) int {
	fs := flag.NewFlagSet("cost", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	fs.Usage = func() { fmt.Fprint(env.stderr, costUsage); fs.PrintDefaults() }
	since := fs.String("since", "", "only calls made since `DATE` (2026-11-01, or an RFC 3339 time)")
	by := fs.String("by", "workflow", "group by node, workflow, chapter, model, run or role")
	asJSON := fs.Bool("json", false, "print JSON instead of a table")
	estimate := fs.String("estimate", "", "estimate a run of this workflow `FILE.flow` instead")
	node := fs.String("node", "", "with -estimate: the node to run (and what it needs)")
	force := fs.Bool("force", false, "with -estimate: as if run with -force (no node from the cache)")
	if err := parseFlags(fs, args); err != nil {
		return exitUsage
	}
	if *estimate != "" {
		if fs.NArg() > 0 {
			fs.Usage()
			return exitUsage
		}
		return costEstimate(ctx, env, *estimate, runner.Options{Target: runner.Target{Node: *node}, Force: *force}, *asJSON)
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return exitUsage
	}
	var q cost.Query
	q.By = *by
	if *since != "" {
		t, err := parseSince(*since)
		if err != nil {
			fmt.Fprintf(env.stderr, "flowcabal cost: -since: %v\n", err)
			return exitUsage
		}
		q.Since = t
	}
	root, err := projectRoot(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal cost: %v\n", err)
		return exitFailure
	}
	cfg, err := project.LoadConfig(root)
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal cost: %v\n", err)
		return exitFailure
	}
	st, err := store.Open(ctx, root, store.Options{ReadOnly: true, ReadOnlyIfLocked: true, LockWait: 500 * time.Millisecond, Command: "flowcabal cost", Getenv: env.getenv})
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal cost: open the project store: %v\n", err)
		return exitFailure
	}
	defer st.Close()
	rep, err := cost.Build(st, cfg, q)
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal cost: %v\n", err)
		if strings.Contains(err.Error(), "grouping") {
			return exitUsage
		}
		return exitFailure
	}
	if *asJSON {
		return writeJSONOut(env, rep)
	}
	printCostReport(env.stdout, rep)
	return exitOK
}

func parseSince(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a date: write 2026-11-01 or 2026-11-01T09:30:00Z", s)
}

func writeJSONOut(env *cliEnv, v any) int {
	enc := json.NewEncoder(env.stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(env.stderr, "flowcabal cost: %v\n", err)
		return exitFailure
	}
	return exitOK
}

func costCell(c float64, unpriced, calls int, priced bool) string {
	switch {
	case !priced:
		return "-"
	case unpriced == calls:
		return "no price"
	case unpriced > 0:
		return runner.FormatCost(c) + "+"
	}
	return runner.FormatCost(c)
}

func printCostReport(w io.Writer, rep *cost.Report) {
	if len(rep.Rows) == 0 {
		fmt.Fprintln(w, "no model calls recorded")
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\tcalls\tinput tok\toutput tok\tcost\t\n", strings.ToUpper(rep.By[:1])+rep.By[1:])
	for _, r := range append(rep.Rows, rep.Total) {
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t\n", r.Key, r.Calls, groupDigits(r.Input), groupDigits(r.Output), costCell(r.Cost, r.Unpriced, r.Calls, rep.Priced))
	}
	tw.Flush()
	switch {
	case !rep.Priced:
		fmt.Fprintln(w, "tokens only: set [prices.<model>] input/output per million tokens in flowcabal.toml for costs")
	case rep.Total.Unpriced > 0:
		fmt.Fprintf(w, "%d call(s) have no price in flowcabal.toml: their tokens are counted, not their cost (+)\n", rep.Total.Unpriced)
	}
}

func groupDigits(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// costEstimate prints what a run would send and cost.
func costEstimate(ctx context.Context, env *cliEnv, path string, opts runner.Options, asJSON bool) int {
	lw, err := loadWorkflow(path)
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal cost: %v\n", err)
		return exitFailure
	}
	st, err := store.Open(ctx, lw.Root, store.Options{Getenv: env.getenv, Command: "flowcabal cost -estimate"})
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal cost: open the project store: %v\n", err)
		return exitFailure
	}
	defer st.Close()
	if _, err := st.Index(ctx, nil); err != nil {
		fmt.Fprintf(env.stderr, "flowcabal cost: index the project: %v\n", err)
		return exitFailure
	}
	r, err := runner.ForProject(ctx, lw.Root, lw.Config, st, runner.ProjectOptions{Getenv: env.getenv, Env: lw.Env, Offline: true})
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal cost: %v\n", err)
		return exitFailure
	}
	est, err := r.Estimate(ctx, lw.Result, opts)
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal cost: %v\n", err)
		if errors.Is(err, runner.ErrNotRunnable) {
			return exitFindings
		}
		return exitFailure
	}
	if asJSON {
		return writeJSONOut(env, est)
	}
	tw := tabwriter.NewWriter(env.stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "Node\tcalls\tinput tok\tmax output tok\tcost\t\n")
	var notes []string
	for _, n := range est.Nodes {
		c := costCell(n.Cost, 0, len(n.Calls), n.Priced)
		switch {
		case n.Err != nil:
			c = "error: " + n.Err.Error()
		case n.Reuse != "":
			c = n.Reuse + ": no call"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t\n", n.Node, len(n.Calls), groupDigits(n.TotalInput), groupDigits(n.TotalOutput), c)
		for _, note := range n.Notes {
			notes = append(notes, n.Node+": "+note)
		}
	}
	fmt.Fprintf(tw, "run\t\t%s\t%s\t%s\t\n", groupDigits(est.Input), groupDigits(est.Output), costCell(est.Cost, 0, 1, est.Priced))
	tw.Flush()
	if est.MaxCost > 0 {
		fmt.Fprintf(env.stdout, "max_cost %s\n", runner.FormatCost(est.MaxCost))
	}
	for _, n := range notes {
		fmt.Fprintln(env.stdout, "  "+n)
	}
	return exitOK
}
