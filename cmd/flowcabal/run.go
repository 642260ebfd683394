package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"golang.org/x/term"

	"github.com/flowcabal/flowcabal/agent/core"
	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/agent/monitor"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/runner"
	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/workflowlang"
)

const runUsage = `usage: flowcabal run FILE.flow [flags]

Runs a workflow (or one node and what it needs) against the models of
flowcabal.toml, streaming to the terminal. Unchanged nodes come from the
cache; every output is kept in the project's history.

A node the fact checks flag stops its own branch; decide on it later in
the editor or here with --approve, --edit or --retry, which continue the
latest waiting run of the workflow. With an agent model ([models.agent])
the checks are the editor's: the deterministic ones cross-checked by the
agent model.

Exit status: 0 when every node finished, 1 when a node failed or waits for
you, 2 for a bad command line, 3 when the run could not start.

Flags:
`

func runRun(ctx context.Context, env *cliEnv, args []string) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	fs.Usage = func() { fmt.Fprint(env.stderr, runUsage); fs.PrintDefaults() }
	node := fs.String("node", "", "run this node (and what it needs) instead of the whole workflow")
	from := fs.Bool("from", false, "with -node: also run everything downstream of it")
	resume := fs.Bool("resume", false, "resume the latest unfinished run of this workflow (after a crash or a kill)")
	runID := fs.String("run", "", "with -resume or a decision: the run's id instead of the latest")
	force := fs.Bool("force", false, "run the requested nodes even when the cache has their output")
	approve := fs.String("approve", "", "approve the flagged `node`'s output and continue the run")
	retry := fs.String("retry", "", "run the flagged `node` again (with -feedback) and continue the run")
	edit := fs.String("edit", "", "replace the flagged `node`'s output with the text of -text-file and continue")
	sel := fs.String("select", "", "keep candidate -version of the `node` that waits for your choice, and continue")
	version := fs.String("version", "", "with -select: the candidate's output version (v3 or 3)")
	skipNode := fs.String("skip", "", "let the failed or flagged `node`'s dependents go on without its output")
	feedback := fs.String("feedback", "", "with -retry: what to change")
	textFile := fs.String("text-file", "", "with -edit: the file holding the edited text")
	maxCost := fs.Float64("max-cost", 0, "stop before a call that would take the run past this cost (overrides max_cost; e.g. to resume a stopped run)")
	concurrency := fs.Int("concurrency", 0, fmt.Sprintf("nodes run at once (default: flowcabal.toml's concurrency, else %d)", runner.DefaultConcurrency))
	if err := parseFlags(fs, args); err != nil {
		return exitUsage
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	lw, err := loadWorkflow(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal run: %v\n", err)
		return exitFailure
	}
	file, root, cfg, wenv, wf := lw.File, lw.Root, lw.Config, lw.Env, lw.Result
	// A node runs when its own chain is valid; errors elsewhere in the
	// file are printed but do not stop it.
	if printed := printErrors(env.stderr, root, wf); printed > 0 {
		if _, err := runner.NewPlan(wf, runner.Target{Node: *node, From: *from}); err != nil {
			fmt.Fprintf(env.stderr, "flowcabal run: %v; fix it first (flowcabal check)\n", err)
			return exitFindings
		}
		fmt.Fprintf(env.stderr, "flowcabal run: %s has %d error(s) outside what -node %s needs; running it\n", fs.Arg(0), printed, *node)
	}

	st, err := store.Open(ctx, root, store.Options{Getenv: env.getenv})
	if err != nil {
		var le *store.LockedError
		if errors.As(err, &le) {
			fmt.Fprintf(env.stderr, "flowcabal run: %v\n", err)
			return exitFailure
		}
		fmt.Fprintf(env.stderr, "flowcabal run: open the project store: %v\n", err)
		return exitFailure
	}
	defer st.Close()
	if _, err := st.Index(ctx, nil); err != nil {
		fmt.Fprintf(env.stderr, "flowcabal run: index the project: %v\n", err)
		return exitFailure
	}
	logger := slog.New(slog.NewTextHandler(env.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	gate, agents, err := agentGate(root, cfg, st, env.getenv, logger)
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal run: Role C: %v\n", err)
		return exitFailure
	}
	if agents != nil {
		defer agents.Close()
	}
	r, err := runner.ForProject(ctx, root, cfg, st, runner.ProjectOptions{Getenv: env.getenv, Concurrency: *concurrency, Log: logger, Env: wenv, Gate: gate})
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal run: %v\n", err)
		return exitFailure
	}

	wid := runner.WorkflowID(root, file)
	opts := runner.Options{Target: runner.Target{Node: *node, From: *from}, Force: *force}
	decision, decided := "", ""
	switch {
	case *approve != "":
		decision, decided = runner.DecideApprove, *approve
	case *retry != "":
		decision, decided = runner.DecideRetry, *retry
	case *edit != "":
		decision, decided = runner.DecideEdit, *edit
	case *sel != "":
		decision, decided = runner.DecideSelect, *sel
	case *skipNode != "":
		decision, decided = runner.DecideSkip, *skipNode
	}
	if *resume || decision != "" {
		id := *runID
		if id == "" {
			runs, err := st.Runs(wid, decision == "")
			if err != nil || len(runs) == 0 {
				fmt.Fprintf(env.stderr, "flowcabal run: no unfinished run of %s to continue\n", wid)
				return exitFailure
			}
			id = runs[0].RunID
		}
		opts = runner.Options{Resume: id}
		if decision != "" {
			text := *feedback
			if decision == runner.DecideSelect {
				text = *version
			}
			if decision == runner.DecideEdit {
				data, err := os.ReadFile(*textFile)
				if err != nil {
					fmt.Fprintf(env.stderr, "flowcabal run: -edit needs -text-file: %v\n", err)
					return exitUsage
				}
				text = string(data)
			}
			opts, err = r.Decide(ctx, id, decided, decision, text)
			if err != nil {
				fmt.Fprintf(env.stderr, "flowcabal run: %v\n", err)
				return exitFailure
			}
		}
	}

	opts.MaxCost = *maxCost
	show := newRunDisplay(env.stdout, isTerminal(env.stdout))
	opts.Observer = show.observer()
	res, err := r.Run(ctx, wf, opts)
	if err != nil && res == nil {
		fmt.Fprintf(env.stderr, "flowcabal run: %v\n", err)
		return exitFailure
	}
	show.summary(res, wid)
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal run: %v\n", err)
	}
	if res.Status == store.RunDone {
		return exitOK
	}
	return exitFindings
}

// agentGate returns the gate the editor runs with when an agent model is
// configured: Role C's monitor, the deterministic checkers cross-checked
// by the agent model's angles, with the agents it runs them through (to
// close). Without an agent model it returns nil, and the runner keeps its
// deterministic fact checks.
func agentGate(root string, cfg *project.Config, st *store.Store, getenv func(string) string, log *slog.Logger) (runner.Gate, *core.Manager, error) {
	ac := llm.FromProject(cfg, "agent")
	if ac.Validate() != nil {
		return nil, nil, nil
	}
	client, err := llm.New(ac, llm.Options{Getenv: getenv, Logger: log})
	if err != nil {
		return nil, nil, err
	}
	agents, err := core.NewManager(core.Options{Client: client, Store: st, Logger: log, Width: monitor.Widths()})
	if err != nil {
		return nil, nil, err
	}
	mon, err := monitor.ForProject(root, st, agents, monitor.Options{})
	if mon == nil {
		agents.Close()
		return nil, nil, err
	}
	if err != nil {
		// Some knowledge files could not be read: the checks go on
		// without them, as in the editor.
		log.Warn("Role C", "err", err)
	}
	return mon, agents, nil
}

func printErrors(w io.Writer, root string, wf *workflowlang.Result) int {
	n := 0
	m := wf.File.Mapper()
	for _, d := range wf.Diagnostics {
		if d.Severity != workflowlang.SeverityError {
			continue
		}
		n++
		p := m.Position(d.Span.Start, workflowlang.UTF8)
		name := wf.File.Path
		if rel, err := filepath.Rel(root, name); err == nil {
			name = rel
		}
		fmt.Fprintf(w, "%s:%d:%d: error: %s [%s]\n", name, p.Line+1, p.Col+1, d.Message, d.Code)
	}
	return n
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// runDisplay prints a run's progress: the text of a node as it streams
// while it is the only one running, and one line per finished node.
type runDisplay struct {
	w   io.Writer
	tty bool

	mu        sync.Mutex
	running   map[string]bool
	streaming string // the node whose text is being printed
}

func newRunDisplay(w io.Writer, tty bool) *runDisplay {
	return &runDisplay{w: w, tty: tty, running: map[string]bool{}}
}

func (d *runDisplay) observer() runner.Observer {
	return runner.Observer{
		NodeStarted: func(node string, k, n int) {
			d.mu.Lock()
			defer d.mu.Unlock()
			d.running[node] = true
			d.endStream()
			fmt.Fprintf(d.w, "▶ [%d/%d] %s\n", k, n, node)
		},
		Delta: func(node string, delta runner.Delta) {
			d.mu.Lock()
			defer d.mu.Unlock()
			if len(d.running) != 1 || (d.streaming != "" && d.streaming != node) {
				return // several nodes at once: progress lines only
			}
			if delta.Restart && d.streaming == node {
				fmt.Fprint(d.w, "\n… (the stream was cut; starting again)\n")
			}
			d.streaming = node
			fmt.Fprint(d.w, delta.Text)
		},
		NodeFinished: func(node string, r runner.NodeResult) {
			d.mu.Lock()
			defer d.mu.Unlock()
			delete(d.running, node)
			d.endStream()
			fmt.Fprintf(d.w, "%s %s%s\n", statusMark(r.Status), node, detail(r))
		},
	}
}

func (d *runDisplay) endStream() {
	if d.streaming != "" {
		fmt.Fprintln(d.w)
		d.streaming = ""
	}
}

func statusMark(s string) string {
	switch s {
	case "done":
		return "✓"
	case "cached":
		return "≡"
	case "frozen":
		return "❄"
	case "flagged":
		return "⚠"
	case "skipped", "cancelled":
		return "·"
	case "stopped":
		return "$"
	default:
		return "✗"
	}
}

func detail(r runner.NodeResult) string {
	var parts []string
	if r.Status != "done" {
		parts = append(parts, r.Status)
	}
	if r.Version > 0 {
		parts = append(parts, fmt.Sprintf("v%d", r.Version))
	}
	if r.Tokens > 0 {
		parts = append(parts, fmt.Sprintf("%d tok", r.Tokens))
	}
	if r.Attempts > 1 {
		parts = append(parts, fmt.Sprintf("%d attempts", r.Attempts))
	}
	s := ""
	if len(parts) > 0 {
		s = " (" + strings.Join(parts, ", ") + ")"
	}
	if r.Err != nil {
		s += ": " + r.Err.Error()
	}
	if r.Status == "flagged" && r.Verdict != nil && r.Verdict.Feedback != "" {
		s += "\n    " + strings.ReplaceAll(r.Verdict.Feedback, "\n", "\n    ")
	}
	return s
}

func (d *runDisplay) summary(res *runner.Result, wid string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.endStream()
	var waiting []string
	for n, r := range res.Nodes {
		if r.Status == "flagged" {
			waiting = append(waiting, n)
		}
	}
	sort.Strings(waiting)
	fmt.Fprintf(d.w, "run %s: %s\n", res.RunID, res.Status)
	for _, n := range waiting {
		if sel := res.Nodes[n].Select; len(sel) > 0 {
			fmt.Fprintf(d.w, "  %s waits for your choice among %s: decide in the editor, or run again with -select %s -version %s\n", n, strings.Join(sel, ", "), n, sel[0])
			continue
		}
		fmt.Fprintf(d.w, "  %s needs you: decide in the editor, or run again with -approve %s, -retry %s -feedback \"…\", or -edit %s -text-file FILE\n", n, n, n, n)
	}
	for n, r := range res.Nodes {
		if r.Status == "stopped" && r.Err != nil && !strings.HasPrefix(r.Err.Error(), "not started") {
			fmt.Fprintf(d.w, "  %s stopped at max_cost: raise max_cost in flowcabal.toml or the workflow, or continue with: flowcabal run -resume -max-cost N %s\n", n, wid)
		}
		if r.Status == "failed" {
			fmt.Fprintf(d.w, "  %s failed: run again with -retry %s, go on without it with -skip %s, or stop here\n", n, n, n)
		}
	}
	if res.Status == store.RunFailed || res.Status == store.RunCancelled {
		fmt.Fprintf(d.w, "  continue later with: flowcabal run -resume %s\n", wid)
	}
}
