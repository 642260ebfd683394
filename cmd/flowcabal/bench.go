package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/flowcabal/flowcabal/internal/webnovel"
)

// runBench dispatches "flowcabal bench genproject".
func runBench(ctx context.Context, env *cliEnv, args []string) int {
	if len(args) > 0 && args[0] == "genproject" {
		return runGenProject(ctx, env, args[1:])
	}
	fmt.Fprintf(env.stderr, "usage:\n\tflowcabal bench genproject [--chapters N] [--chapter-chars C] [--seed S] [--corpus DIR] [--entities DIR]... [--distinct [--original-pass P]] OUT\n")
	return exitUsage
}

type stringList []string

func (l *stringList) String() string     { return strings.Join(*l, ",") }
func (l *stringList) Set(s string) error { *l = append(*l, s); return nil }

// runGenProject writes a web-novel-size project for the scale benchmarks
// (scripts/bench-scale.sh).
func runGenProject(ctx context.Context, env *cliEnv, args []string) int {
	fs := flag.NewFlagSet("bench genproject", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	chapters := fs.Int("chapters", 3000, "number of chapters")
	size := fs.Int("chapter-chars", 3300, "mean chapter size in characters (each within ±15%)")
	seed := fs.Uint64("seed", 1, "seed of the chapter sizes")
	corpus := fs.String("corpus", "", "the shared corpus folder (default: ../shared/corpus beside the repository, or $FLOWCABAL_CORPUS)")
	distinct := fs.Bool("distinct", false, "deal one pass of the books as they are (each source chapter into chapters of its own) and disguise the names in every other pass; write generated.json mapping source chapters to chapters")
	origPass := fs.Int("original-pass", 0, "with --distinct: the pass dealt undisguised (default 2)")
	var ents stringList
	fs.Var(&ents, "entities", "a folder holding entities/ (and meta/) to copy in; repeatable (default: the 紅樓夢 and 西遊記 entity files of testdata/)")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: flowcabal bench genproject [flags] OUT\n\nWrites a project of N chapters cut from the Chinese books of the shared corpus\n(repeated as needed), deterministic from the seed, with entity files and one workflow.\n\n")
		fs.PrintDefaults()
	}
	if err := parseFlags(fs, args); err != nil {
		return exitUsage
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return exitUsage
	}
	repo := repoRoot()
	if *corpus == "" {
		*corpus = env.getenv("FLOWCABAL_CORPUS")
	}
	if *corpus == "" && repo != "" {
		*corpus = filepath.Join(repo, "..", "shared", "corpus")
	}
	if len(ents) == 0 && repo != "" {
		ents = stringList{filepath.Join(repo, "testdata", "assemble", "hongloumeng-entities"), filepath.Join(repo, "testdata", "eval", "xiyouji")}
	}
	rep, err := webnovel.Generate(fs.Arg(0), webnovel.Options{Corpus: *corpus, Chapters: *chapters, ChapterChars: *size, Seed: *seed, Entities: ents,
		Distinct: *distinct, OriginalPass: *origPass})
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal bench genproject: %v\n", err)
		return exitFailure
	}
	fmt.Fprintf(env.stdout, "%s: %d chapters, %d characters (%d bytes), books dealt %d times, %d entity files, %s writes chapter %d\n",
		fs.Arg(0), rep.Chapters, rep.Chars, rep.Bytes, rep.Passes, rep.Entities, rep.Workflow, rep.NextNumber)
	return exitOK
}

// repoRoot returns the FlowCabal repository holding the working
// directory, or "".
func repoRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if b, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && strings.Contains(string(b), "module github.com/flowcabal/flowcabal\n") {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}
