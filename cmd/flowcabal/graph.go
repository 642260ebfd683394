package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/flowcabal/flowcabal/agent/assemble"
	"github.com/flowcabal/flowcabal/flowgraph"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/runner"
	"github.com/flowcabal/flowcabal/session"
	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/workflowlang"
)

func runGraph(ctx context.Context, env *cliEnv, args []string) int {
	fs := flag.NewFlagSet("graph", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	format := fs.String("format", "svg", "svg, dot or mermaid")
	out := fs.String("o", "", "write to this file instead of standard output")
	open := fs.Bool("open", false, "write an SVG to a temporary file and open it in the browser")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: flowcabal graph FILE.flow [-format svg|dot|mermaid] [-o FILE] [-open]\n\nDraws the workflow's DAG with each node's state after the latest run and how\nRole A splits its budget.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return exitUsage
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	g, err := workflowGraph(ctx, fs.Arg(0))
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal graph: %v\n", err)
		return exitFailure
	}
	var text string
	switch *format {
	case "svg":
		text = g.SVG()
	case "dot":
		text = g.DOT()
	case "mermaid":
		text = g.Mermaid()
	default:
		fmt.Fprintf(env.stderr, "flowcabal graph: unknown format %q (svg, dot or mermaid)\n", *format)
		return exitUsage
	}
	if *open {
		f, err := os.CreateTemp("", "flowcabal-graph-*.svg")
		if err != nil {
			fmt.Fprintf(env.stderr, "flowcabal graph: %v\n", err)
			return exitFailure
		}
		*out = f.Name()
		f.Close()
		text = g.SVG()
	}
	if *out == "" {
		fmt.Fprint(env.stdout, text)
		return exitOK
	}
	if err := os.WriteFile(*out, []byte(text), 0o644); err != nil {
		fmt.Fprintf(env.stderr, "flowcabal graph: %v\n", err)
		return exitFailure
	}
	fmt.Fprintln(env.stdout, *out)
	if *open {
		if err := openInBrowser(*out); err != nil {
			fmt.Fprintf(env.stderr, "flowcabal graph: open %s yourself: %v\n", *out, err)
		}
	}
	return exitOK
}

// workflowGraph builds the picture of a workflow: its DAG, each node's
// state in the latest run (read-only, so a running editor is not
// disturbed) and Role A's split of each node's budget, computed now.
func workflowGraph(ctx context.Context, path string) (*flowgraph.Graph, error) {
	lw, err := loadWorkflow(path)
	if err != nil {
		return nil, err
	}
	file, root, wf := lw.File, lw.Root, lw.Result
	g := flowgraph.FromResult(wf)

	wid := runner.WorkflowID(root, file)
	if _, err := os.Stat(filepath.Join(root, project.DBFile)); err == nil {
		st, err := store.Open(ctx, root, store.Options{ReadOnly: true, ReadOnlyIfLocked: true})
		if err == nil {
			markStates(g, st, wid)
			markStale(g, st, root, wid)
			st.Close()
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}

	// Role A's split, as a run would compute it now (the session reads
	// files only until the author acts).
	ss := session.New(root, session.Options{})
	defer ss.Close()
	for i := range g.Nodes {
		n := wf.File.Node(g.Nodes[i].Name)
		if n == nil || contextOff(n) {
			continue
		}
		c, err := ss.Context(wf, n.Name.Name)
		if err != nil {
			continue
		}
		g.Nodes[i].Budget = c.Budget
		g.Nodes[i].Shares = sharesOf(c)
	}
	return g, nil
}

// sharesOf sums a context's tokens by category, in a fixed order.
func sharesOf(c *assemble.Context) []flowgraph.Share {
	order := []string{"meta", "entities", "profiles", "manuscript", "summaries"}
	sum := map[string]int{}
	for _, s := range c.Sources {
		cat := strings.SplitN(s.Path, "/", 2)[0]
		sum[cat] += s.Tokens
	}
	var out []flowgraph.Share
	for _, cat := range order {
		if sum[cat] > 0 {
			out = append(out, flowgraph.Share{Category: cat, Tokens: sum[cat]})
		}
	}
	return out
}

func markStates(g *flowgraph.Graph, st *store.Store, wid string) {
	runs, err := st.Runs(wid, false)
	if err != nil {
		return
	}
	var last store.Checkpoint
	if len(runs) > 0 {
		last = runs[0]
	}
	for _, n := range g.Nodes {
		ns, _ := st.Node(wid, n.Name)
		if ns.Frozen > 0 {
			g.SetState(n.Name, flowgraph.StateFrozen, fmt.Sprintf("v%d", ns.Frozen))
			continue
		}
		nr, ok := last.Nodes[n.Name]
		if !ok {
			continue
		}
		detail := ""
		if nr.Version > 0 {
			detail = fmt.Sprintf("v%d", nr.Version)
		}
		switch nr.Status {
		case "done":
			g.SetState(n.Name, flowgraph.StateDone, detail)
		case "cached":
			g.SetState(n.Name, flowgraph.StateCached, detail)
		case "frozen":
			g.SetState(n.Name, flowgraph.StateFrozen, detail)
		case "flagged":
			g.SetState(n.Name, flowgraph.StateNeedsYou, detail)
		case "failed":
			g.SetState(n.Name, flowgraph.StateFailed, detail)
		case "running":
			if last.Status == store.RunRunning {
				g.SetState(n.Name, flowgraph.StateRunning, detail)
			}
		}
	}
}

func openInBrowser(path string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", path)
	case "windows":
		cmd = exec.Command("cmd", "/c", "start", "", path)
	default:
		cmd = exec.Command("xdg-open", path)
	}
	return cmd.Start()
}

func contextOff(n *workflowlang.Node) bool {
	a := n.Attr("context")
	if a == nil {
		return false
	}
	switch v := a.Value.(type) {
	case *workflowlang.WordValue:
		return v.Name == "off"
	case *workflowlang.StringValue:
		return v.Value == "off"
	}
	return false
}

// markStale marks the nodes whose current (or frozen) output was built
// from files that changed since.
func markStale(g *flowgraph.Graph, st *store.Store, root, wid string) {
	for i, n := range g.Nodes {
		o, ok, err := st.CurrentOutput(wid, n.Name)
		if err != nil || !ok {
			continue
		}
		g.Nodes[i].Stale = runner.StaleSummary(runner.ChangedSources(root, o.Sources))
	}
}
