package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/flowcabal/flowcabal/agent/assemble"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/runner"
	"github.com/flowcabal/flowcabal/store"
	"github.com/flowcabal/flowcabal/textsearch"
)

// runContext prints the context Role A assembles for one node of a
// workflow, computed live from the project's files, with the provenance
// table; with --json, one object (hash, budget, tokens, system_prefix,
// user_suffix, sources, dropped).
func runContext(ctx context.Context, env *cliEnv, args []string) int {
	fs := flag.NewFlagSet("context", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	asJSON := fs.Bool("json", false, "print one JSON object")
	budget := fs.Int("budget", 0, "override the token budget")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: flowcabal context FILE.flow NODE [--json] [--budget N]\n")
	}
	if err := parseFlags(fs, args); err != nil {
		return exitUsage
	}
	if fs.NArg() != 2 {
		fs.Usage()
		return exitUsage
	}
	lw, err := loadWorkflow(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal context: %v\n", err)
		return exitFailure
	}
	root, cfg, wf := lw.Root, lw.Config, lw.Result
	n := wf.File.Node(fs.Arg(1))
	if n == nil {
		fmt.Fprintf(env.stderr, "flowcabal context: no node %q in %s\n", fs.Arg(1), fs.Arg(0))
		return exitFailure
	}
	if err := ctx.Err(); err != nil {
		fmt.Fprintf(env.stderr, "flowcabal context: %v\n", err)
		return exitFailure
	}
	b := assemble.NewBuilder(textsearch.NewAnalyzer(textsearch.NewFolder()), textsearch.NewCounter(cfg.Models["writer"].Model))
	b.Forget = true
	// What flowcabal index kept is read rather than the book analysed
	// again; a project never indexed is read from its files alone.
	// With an embedding model the store is opened for its vectors too:
	// one handle serves both (a second would wait for the first's lock).
	var st *store.Store
	var embNote string
	m, embed := cfg.Models["embedding"]
	embed = embed && m.Configured()
	if embed {
		st, embNote = openForEmbeddings(ctx, root, env)
	} else {
		st = openKept(ctx, root, env)
	}
	if st != nil {
		defer st.Close()
		b.Keep = st
	}
	snap, errs := b.LoadProject(root)
	for _, e := range errs {
		fmt.Fprintf(env.stderr, "flowcabal context: %v\n", e)
	}
	if snap == nil {
		return exitFailure
	}
	node := runner.AssembleNode(wf, n, nil)
	if *budget > 0 {
		node.Budget = *budget
	}
	opt := assemble.Options{Budget: cfg.Budget, ThreadWindow: cfg.ThreadWindow, Shares: assemble.Shares{Meta: cfg.Shares["meta"],
		Entities: cfg.Shares["entities"], Manuscript: cfg.Shares["manuscript"], Summaries: cfg.Shares["summaries"]}}
	var notes []string
	if embed {
		// As a run does: the store's cached vectors, and at most a few
		// calls for what is missing. The store is not created here.
		if st != nil {
			if e := runner.Embedding(cfg, st, runner.ProjectOptions{Getenv: env.getenv}); e != nil {
				e.MaxCalls = contextEmbedCalls
				vecs, _ := e.EmbedChapters(ctx, snap)
				opt.Semantic = e.Semantic(ctx, vecs, node)
			}
		} else {
			notes = append(notes, embNote)
		}
	}
	c, err := assemble.Assemble(node, snap, opt)
	if err == nil {
		c.Notes = append(c.Notes, notes...)
	}
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal context: %v\n", err)
		return exitFailure
	}
	if *asJSON {
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(c); err != nil {
			fmt.Fprintf(env.stderr, "flowcabal context: %v\n", err)
			return exitFailure
		}
		return exitOK
	}
	fmt.Fprintf(env.stdout, "=== system prefix\n%s=== user suffix\n%s", c.SystemPrefix, c.UserSuffix)
	fmt.Fprintf(env.stdout, "=== context %s: %d of %d tokens, chapter %d\n", c.Hash[:12], c.Tokens, c.Budget, c.Chapter)
	tw := tabwriter.NewWriter(env.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "PATH\tLEVEL\tTOKENS\tREASON")
	for _, s := range c.Sources {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\n", pathPart(s), levelStale(s), s.Tokens, s.Reason)
	}
	tw.Flush()
	if len(c.Dropped) > 0 {
		fmt.Fprintf(env.stdout, "=== dropped\n")
		tw = tabwriter.NewWriter(env.stdout, 0, 0, 2, ' ', 0)
		for _, s := range c.Dropped {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\n", pathPart(s), s.Level, s.Tokens, s.Reason, s.Why)
		}
		tw.Flush()
	}
	for _, n := range c.Notes {
		fmt.Fprintf(env.stdout, "note: %s\n", n)
	}
	return exitOK
}

// contextEmbedCalls bounds the embedding calls of one context preview,
// as a run's start is bounded.
const contextEmbedCalls = 8

// openForEmbeddings opens the project's store for its cached vectors,
// or says why the preview searches lexically: the store does not exist
// yet (flowcabal index makes it and embeds the manuscript), or another
// process holds it.
func openForEmbeddings(ctx context.Context, root string, env *cliEnv) (*store.Store, string) {
	if _, err := os.Stat(filepath.Join(root, project.DBFile)); err != nil {
		return nil, "embeddings unavailable: the project has no store yet (flowcabal index embeds the manuscript); the manuscript was searched lexically only"
	}
	st, err := store.Open(ctx, root, store.Options{Getenv: env.getenv, Command: "flowcabal context"})
	if err != nil {
		return nil, fmt.Sprintf("embeddings unavailable: %v; the manuscript was searched lexically only", err)
	}
	return st, ""
}

func pathPart(s assemble.Source) string {
	if s.Part != "" {
		return s.Path + " (" + s.Part + ")"
	}
	return s.Path
}

func levelStale(s assemble.Source) string {
	if s.Stale {
		return s.Level + " (stale)"
	}
	return strings.TrimSpace(s.Level)
}

// openKept opens the project's store read-only for Role A's kept
// indexes, or returns nil when there is none (or it cannot be opened
// now): the snapshot is then built from the files.
func openKept(ctx context.Context, root string, env *cliEnv) *store.Store {
	if _, err := os.Stat(filepath.Join(root, project.DBFile)); err != nil {
		return nil
	}
	st, err := store.Open(ctx, root, store.Options{ReadOnly: true, LockWait: 200 * time.Millisecond, Getenv: env.getenv, Command: "flowcabal context"})
	if err != nil {
		return nil
	}
	return st
}
