package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"text/tabwriter"

	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/session"
)

func runThreads(ctx context.Context, env *cliEnv, args []string) int {
	fs := flag.NewFlagSet("threads", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	chapter := fs.Int("chapter", 0, "the chapter to take stock at (default: the next one to write)")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: flowcabal threads [DIR] [-chapter N]\n\nPrints the ledger of the plot threads (entities with kind: plot-thread and\nopened, due, resolved chapters) as of a chapter: overdue, due soon, open,\nresolved.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 1 || *chapter < 0 {
		fs.Usage()
		return exitUsage
	}
	dir := "."
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal threads: %v\n", err)
		return exitFailure
	}
	root, err := project.FindRoot(abs)
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal threads: %v\n", err)
		return exitFailure
	}
	ch := *chapter
	if ch == 0 {
		ch = lastChapter(root) + 1
	}
	ss := session.New(root, session.Options{})
	defer ss.Close()
	threads, window := ss.Threads()
	printLedger(env, threads, ch, window)
	return exitOK
}

// lastChapter is the highest chapter number under manuscript/ (0: none).
func lastChapter(root string) int {
	entries, err := os.ReadDir(filepath.Join(root, "manuscript"))
	if err != nil {
		return 0
	}
	last := 0
	for _, e := range entries {
		if n, ok := knowledge.ChapterNumber("manuscript/" + e.Name()); ok && n > last {
			last = n
		}
	}
	return last
}

// printLedger prints the threads grouped by their state as of ch.
func printLedger(env *cliEnv, threads []*knowledge.Entity, ch, window int) {
	fmt.Fprintf(env.stdout, "Plot threads as of chapter %d (due soon: within %d chapters)\n", ch, window)
	if len(threads) == 0 {
		fmt.Fprintln(env.stdout, "\nNo plot threads: add entities/plot-threads/NAME.md with kind: plot-thread, opened: N, due: N.")
		return
	}
	groups := []knowledge.ThreadState{knowledge.ThreadOverdue, knowledge.ThreadDueSoon, knowledge.ThreadOpen, knowledge.ThreadResolved, knowledge.ThreadPlanned}
	by := map[knowledge.ThreadState][]*knowledge.Entity{}
	for _, t := range threads {
		st := t.ThreadStateAt(ch, window)
		by[st] = append(by[st], t)
	}
	num := func(n int) string {
		if n == 0 {
			return "-"
		}
		return fmt.Sprint(n)
	}
	for _, g := range groups {
		if len(by[g]) == 0 {
			continue
		}
		fmt.Fprintf(env.stdout, "\n%s (%d)\n", g, len(by[g]))
		tw := tabwriter.NewWriter(env.stdout, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  thread\topened\tdue\tresolved\tfile")
		for _, t := range by[g] {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", clip(t.Name, 40), num(t.Opened), num(t.Due), num(t.Resolved), t.Path)
		}
		tw.Flush()
	}
}
