package main

import (
	"context"
	"flag"
	"fmt"
	"strings"

	"github.com/flowcabal/flowcabal/agent/entitysuggest"
	"github.com/flowcabal/flowcabal/knowledge"
)

// runEvalEntities measures entity suggestions on a book against the
// author's entity files: how many of the book's most important
// characters are among the top suggestions, the share of their aliases
// merged into their entry, and the entries merging two people.
func runEvalEntities(ctx context.Context, env *cliEnv, args []string) int {
	fs := flag.NewFlagSet("eval entities", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	book := fs.String("book", "", "folder with one file per chapter (001.txt, …)")
	ents := fs.String("entities", "", "folder holding entities/ in the project layout")
	top := fs.Int("top", 40, "how many suggestions are looked at")
	important := fs.Int("important", 15, "how many of the most mentioned characters of the entity files count")
	minAlias := fs.Int("min-alias", 3, "how often the book must use a declared alias for it to count")
	verbose := fs.Bool("v", false, "also list the top suggestions")
	if err := parseFlags(fs, args); err != nil {
		return exitUsage
	}
	if *book == "" || *ents == "" || fs.NArg() > 0 || *top <= 0 || *important <= 0 {
		fmt.Fprintln(env.stderr, "usage: flowcabal eval entities --book DIR --entities DIR [--top 40] [--important 15] [--min-alias 3] [-v]")
		return exitUsage
	}
	chapters, err := entitysuggest.ReadBook(*book)
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal eval entities: %v\n", err)
		return exitFailure
	}
	p, errs := knowledge.LoadProject(*ents)
	for _, e := range errs {
		fmt.Fprintf(env.stderr, "flowcabal eval entities: warning: %v\n", e)
	}
	if len(p.Entities) == 0 {
		fmt.Fprintf(env.stderr, "flowcabal eval entities: no entity files under %s/entities\n", *ents)
		return exitFailure
	}
	rep, err := entitysuggest.Evaluate(ctx, chapters, p.Entities, entitysuggest.EvalOptions{Top: *top, Important: *important, MinAliasMentions: *minAlias})
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal eval entities: %v\n", err)
		return exitFailure
	}
	var b strings.Builder
	rep.Format(&b, *top)
	if *verbose {
		for i, s := range rep.Suggestions {
			fmt.Fprintf(&b, "%3d %-9s %-24s %6d  %d-%d  %s\n", i+1, s.Kind, s.Name, s.Mentions, s.FirstChapter, s.LastChapter, strings.Join(s.Aliases, ", "))
		}
	}
	fmt.Fprint(env.stdout, b.String())
	return exitOK
}
