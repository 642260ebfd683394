package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/manuscript"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/store"
)

const importUsage = `usage: flowcabal import FILE|DIR... [--project DIR] [--dry-run] [--encoding E] [--force]

Brings a manuscript into the project: one whole-book text or Markdown file, a
folder of chapter files (read in natural order: 2 before 10), or several files.
The encoding is detected (UTF-8 with or without BOM, UTF-16, GB18030/GBK, Big5)
unless --encoding names it; CRLF and CR line endings are read, hard-wrapped
paragraphs are joined. Chapters are found at their headings (Chapter 12, CHAPTER
XII., Chapter Twelve, 12., Book One, Chapter I, 第十二章, 第12章, 第一百零一回,
第十二節, or a number alone on its line when those count up through the book);
Part/Volume/卷 headings become arcs (summaries/arc-N.md); a prologue (Prologue,
楔子, 序章, 引子, or text before the first chapter, a table of contents included)
is chapter 0; an epilogue (Epilogue, 尾聲, 後記) follows the last chapter;
extras (番外, Extra, Interlude) go to manuscript/extras/ and never renumber the
chapters. A chapter file that opens with prose is a chapter without a heading.

Each chapter is written atomically as manuscript/chapter-NN/content.md, its
heading as the first line. Importing again updates the chapters whose source
changed and leaves the others; a chapter you edited in the project since the
last import is kept, and reported, unless --force. The store then indexes what
was imported.

Flags:
`

// runImport brings an author's manuscript into a project.
func runImport(ctx context.Context, env *cliEnv, args []string) int {
	fs := flag.NewFlagSet("import", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	fs.Usage = func() { fmt.Fprint(env.stderr, importUsage); fs.PrintDefaults() }
	projDir := fs.String("project", "", "the project to import into (default: the project holding the current folder)")
	dryRun := fs.Bool("dry-run", false, "print the chapters found and what would be written; change nothing")
	encName := fs.String("encoding", "", "the input's encoding instead of detecting it: "+strings.Join(manuscript.Encodings, ", "))
	force := fs.Bool("force", false, "overwrite chapters edited in the project since the last import")
	if err := parseFlags(fs, args); err != nil {
		return exitUsage
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return exitUsage
	}
	root, err := importRoot(*projDir)
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal import: %v\n", err)
		return exitFailure
	}
	srcs, encs, err := manuscript.ReadSources(fs.Args(), *encName)
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal import: %v\n", err)
		return exitFailure
	}
	book, err := manuscript.Split(srcs...)
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal import: %v\n", err)
		return exitFailure
	}
	plan, err := manuscript.PlanImport(root, book, *force)
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal import: %v\n", err)
		return exitFailure
	}
	printBook(env, book, plan, encs)
	if *dryRun {
		fmt.Fprintf(env.stdout, "\ndry run: nothing was written (%s)\n", planSummary(plan))
		return exitOK
	}
	if err := plan.Apply(); err != nil {
		fmt.Fprintf(env.stderr, "flowcabal import: %v\n", err)
		return exitFailure
	}
	fmt.Fprintf(env.stdout, "\nimported into %s: %s\n", root, planSummary(plan))
	for _, a := range plan.Actions {
		if a.Op == manuscript.OpKept {
			fmt.Fprintf(env.stdout, "  kept %s: changed in the project since the last import (--force to overwrite)\n", a.Path)
		}
	}
	s, err := store.Open(ctx, root, store.Options{Command: "flowcabal import", Getenv: env.getenv})
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal import: the chapters are written; indexing them failed: %v (run flowcabal index)\n", err)
		return exitFailure
	}
	defer s.Close()
	rep, took, err := indexWithBar(ctx, s, newProgressBar(env.stderr), true)
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal import: the chapters are written; indexing them failed: %v (run flowcabal index)\n", err)
		return exitFailure
	}
	fmt.Fprintf(env.stdout, "indexed in %s: %d chapters in %d arcs\n", took.Round(time.Millisecond), rep.Chapters, rep.Arcs)
	return exitOK
}

// importRoot is the project to import into: it must exist and look like a
// project, so that a mistyped path does not scatter chapters.
func importRoot(dir string) (string, error) {
	if dir == "" {
		dir = "."
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if st, err := os.Stat(abs); err != nil || !st.IsDir() {
		return "", fmt.Errorf("no project folder %s (make one with flowcabal init %s)", dir, dir)
	}
	root, err := project.FindRoot(abs)
	if err != nil {
		return "", err
	}
	for _, marker := range []string{project.ConfigFile, "manuscript", "workflows"} {
		if _, err := os.Stat(filepath.Join(root, marker)); err == nil {
			return root, nil
		}
	}
	return "", fmt.Errorf("%s is not a FlowCabal project (make it one with flowcabal init %s)", root, dir)
}

func printBook(env *cliEnv, b *manuscript.Book, plan *manuscript.Plan, encs []string) {
	w := env.stdout
	fmt.Fprintf(w, "read as %s", strings.Join(encs, ", "))
	if b.Unwrapped {
		fmt.Fprint(w, "; hard-wrapped paragraphs joined")
	}
	if b.Renumbered {
		fmt.Fprint(w, "; the headings' numbers restart or repeat, so chapters are numbered in order")
	}
	fmt.Fprintf(w, "\n%d chapters, %d extras, %d arcs\n\n", len(b.Chapters), len(b.Extras), len(b.Arcs))
	fmt.Fprintf(w, "%6s  %-9s  %-32s  %-30s  %8s  %s\n", "number", "kind", "heading", "first words", "chars", "file")
	for _, a := range plan.Actions {
		if a.Chapter == nil {
			continue
		}
		c := a.Chapter
		num := strconv.Itoa(c.Number)
		if c.Kind == manuscript.KindExtra {
			num = "+" + num
		}
		fmt.Fprintf(w, "%6s  %-9s  %-32s  %-30s  %8d  %s (%s)\n", num, c.Kind, clip(c.Heading, 32), clip(firstWords(c.Text, c.Heading), 30),
			utf8.RuneCountInString(c.Text), a.Path, a.Op)
	}
	for _, a := range plan.Actions {
		if a.Arc != nil {
			fmt.Fprintf(w, "arc %q: chapters %d–%d → %s (%s)\n", strings.ReplaceAll(a.Arc.Heading, "\n", " / "), a.Arc.First, a.Arc.Last, a.Path, a.Op)
		}
	}
}

func planSummary(p *manuscript.Plan) string {
	return fmt.Sprintf("%d new, %d updated, %d unchanged, %d kept, %d overwritten",
		p.Count(manuscript.OpCreate), p.Count(manuscript.OpUpdate), p.Count(manuscript.OpSame), p.Count(manuscript.OpKept), p.Count(manuscript.OpForce))
}

// firstWords is the start of a chapter's text after its heading.
func firstWords(text, heading string) string {
	t := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(text), heading))
	return strings.Join(strings.Fields(t), " ")
}

// clip shortens s to n columns (wide characters count two).
func clip(s string, n int) string {
	w := 0
	for i, r := range s {
		cw := 1
		if r >= 0x1100 && (unicode.Is(unicode.Han, r) || r >= 0x3000 && r <= 0x30FF || r >= 0xFF00 && r <= 0xFFEF) {
			cw = 2
		}
		if w+cw > n-1 {
			return s[:i] + "…"
		}
		w += cw
	}
	return s
}

func sortNatural(names []string) { slices.SortFunc(names, manuscript.NaturalCompare) }
