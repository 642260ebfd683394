package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/flowcabal/flowcabal/agent/factcheck"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/textsearch"
)

// runEvalChecks scores the deterministic Role C checkers on a file of
// planted contradictions: each modified excerpt is checked as text of its
// chapter against the project's entities and world rules, a finding
// counts when its type matches the case's and its range overlaps the
// planted span, and each original excerpt is checked for false positives.
func runEvalChecks(ctx context.Context, env *cliEnv, args []string) int {
	fs := flag.NewFlagSet("eval checks", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	dir := fs.String("project", "", "project folder with entities/ and meta/ (manuscript/ optional, for the previous chapter)")
	casesPath := fs.String("cases", "", "case file (JSON lines, shared/eval/README.md part B)")
	chapters := fs.String("chapters", "", "folder of chapter files NNN.txt (a corpus book) giving the previous chapter, for a project without manuscript/")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if *dir == "" || *casesPath == "" || fs.NArg() > 0 {
		fmt.Fprintln(env.stderr, "usage: flowcabal eval checks --project DIR --cases FILE [--chapters DIR]")
		return exitUsage
	}
	if fi, err := os.Stat(*dir); err != nil || !fi.IsDir() {
		fmt.Fprintf(env.stderr, "flowcabal eval checks: %s is not a folder\n", *dir)
		return exitFailure
	}
	f, err := os.Open(*casesPath)
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal eval checks: %v\n", err)
		return exitFailure
	}
	cases, err := factcheck.ReadCases(f)
	f.Close()
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal eval checks: %s: %v\n", *casesPath, err)
		return exitFailure
	}
	proj, errs := knowledge.LoadProject(*dir)
	for _, e := range errs {
		fmt.Fprintf(env.stderr, "warning: %v\n", e)
	}
	if *chapters != "" {
		if fi, err := os.Stat(*chapters); err != nil || !fi.IsDir() {
			fmt.Fprintf(env.stderr, "flowcabal eval checks: %s is not a folder\n", *chapters)
			return exitFailure
		}
	}
	if len(proj.Entities) == 0 && len(proj.WorldRules.Forbidden) == 0 && *chapters == "" {
		fmt.Fprintf(env.stderr, "flowcabal eval checks: %s has no entities and no world rules\n", *dir)
		return exitFailure
	}
	k := factcheck.FromProject(proj, textsearch.NewFolder())
	for _, e := range k.Errs() {
		fmt.Fprintf(env.stderr, "warning: %v\n", e)
	}
	if err := ctx.Err(); err != nil {
		return exitFailure
	}
	if len(proj.Chapters) == 0 && *chapters != "" {
		// The book is the manuscript an author would have: its forms
		// are the dictionary the name and world checks consult.
		if bk, err := readBook(*chapters); err == nil {
			var texts []string
			for _, n := range bk.nums {
				texts = append(texts, bk.text[n])
			}
			k.UseManuscriptChapters(bk.nums, texts)
		}
	}
	prev := func(ch int) string {
		if d := proj.Chapter(ch - 1); d != nil {
			return d.Body
		}
		if *chapters == "" || ch < 2 {
			return ""
		}
		// A corpus file is the chapter as it is, heading line and all.
		b, err := os.ReadFile(filepath.Join(*chapters, fmt.Sprintf("%03d.txt", ch-1)))
		if err != nil {
			return ""
		}
		return string(b)
	}
	// Which declared facts the checkers can read at all, and which only
	// the model angles can judge; the report's last line stays its own.
	cov := k.FactCoverage()
	fmt.Fprintf(env.stdout, "fact keys checked deterministically (%d): %s\n", len(cov.Checked), strings.Join(factcheck.Keys(cov.Checked), ", "))
	fmt.Fprintf(env.stdout, "fact keys left to the model angles (%d): %s\n", len(cov.Left), strings.Join(factcheck.Keys(cov.Left), ", "))
	rep := factcheck.Evaluate(cases, k, prev)
	rep.Write(env.stdout)
	return exitOK
}
