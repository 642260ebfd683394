package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/flowcabal/flowcabal/agent/entitysuggest"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/textsearch"
)

// runEntities dispatches "flowcabal entities suggest" and "flowcabal
// entities facts" (also spelled "entities suggest --facts", as issue 20
// names it).
func runEntities(ctx context.Context, env *cliEnv, args []string) int {
	if len(args) > 0 && args[0] == "facts" {
		return runEntitiesFacts(ctx, env, args[1:])
	}
	if len(args) > 0 && args[0] == "suggest" {
		rest := args[1:]
		if i := slices.IndexFunc(rest, func(a string) bool {
			return a == "--facts" || a == "-facts" || a == "--facts=true" || a == "-facts=true"
		}); i >= 0 {
			return runEntitiesFacts(ctx, env, slices.Delete(slices.Clone(rest), i, i+1))
		}
		return runEntitiesSuggest(ctx, env, rest)
	}
	fmt.Fprintf(env.stderr, "usage:\n\tflowcabal entities suggest [--project DIR] [--json] [--write] [--top N]\n\tflowcabal entities facts [--project DIR] [--json] [--write] [--budget N] [NAME...]   (or: entities suggest --facts …)\n")
	return exitUsage
}

// runEntitiesSuggest prints the characters and places the manuscript is
// about and, with --write, drafts entity files for those that have none.
func runEntitiesSuggest(ctx context.Context, env *cliEnv, args []string) int {
	fs := flag.NewFlagSet("entities suggest", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	dir := fs.String("project", "", "the project (default: the project holding the current directory)")
	asJSON := fs.Bool("json", false, "print the suggestions as a JSON array")
	write := fs.Bool("write", false, "write draft entity files (draft: true) for suggestions no entity file declares; never overwrites")
	top := fs.Int("top", 40, "how many suggestions, most important first (0: all)")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: flowcabal entities suggest [--project DIR] [--json] [--write] [--top N]\n\nSuggests the characters and places the manuscript (manuscript/chapter-NN/content.md)\nis about, with their aliases, kind, mentions, chapter span and related entries.\nNothing is written without --write.\n\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 0 || *top < 0 {
		fs.Usage()
		return exitUsage
	}
	root, err := projectRoot(*dir)
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal entities suggest: %v\n", err)
		return exitFailure
	}
	p, errs := knowledge.LoadProject(root)
	for _, e := range errs {
		fmt.Fprintf(env.stderr, "flowcabal entities suggest: warning: %v\n", e)
	}
	if len(p.Chapters) == 0 {
		fmt.Fprintf(env.stderr, "flowcabal entities suggest: %s has no manuscript chapters (manuscript/chapter-NN/content.md)\n", root)
		return exitFailure
	}
	folder := textsearch.NewFolder()
	sugg, err := entitysuggest.FromProject(ctx, p, entitysuggest.Options{Top: *top, Folder: folder})
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal entities suggest: %v\n", err)
		return exitFailure
	}
	existing := entitysuggest.Existing(sugg, p.Entities, folder)
	var written []string
	if *write {
		written, err = entitysuggest.WriteDrafts(root, sugg, existing)
		for _, w := range written {
			fmt.Fprintf(env.stderr, "wrote %s\n", w)
		}
		if err != nil {
			fmt.Fprintf(env.stderr, "flowcabal entities suggest: %v\n", err)
			return exitFailure
		}
	}
	if *asJSON {
		out := make([]entitysuggest.Suggestion, len(sugg))
		for i, s := range sugg {
			out[i] = s
			out[i].Aliases, out[i].Related = nonNilStrings(s.Aliases), nonNilStrings(s.Related)
		}
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(out); err != nil {
			fmt.Fprintf(env.stderr, "flowcabal entities suggest: %v\n", err)
			return exitFailure
		}
		return exitOK
	}
	tw := tabwriter.NewWriter(env.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tname\tkind\tmentions\tchapters\taliases\trelated\tentity file")
	for i, s := range sugg {
		file := "(none)"
		if existing[i] != nil {
			file = existing[i].Path
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%d-%d\t%s\t%s\t%s\n", i+1, s.Name, s.Kind, s.Mentions, s.FirstChapter, s.LastChapter,
			clip(strings.Join(s.Aliases, ", "), 60), clip(strings.Join(s.Related, ", "), 60), file)
	}
	tw.Flush()
	if !*write {
		fmt.Fprintf(env.stdout, "\n%d suggestions; run with --write to draft entity files for those marked (none).\n", len(sugg))
	}
	return exitOK
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
