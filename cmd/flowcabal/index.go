package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"time"

	"github.com/flowcabal/flowcabal/agent/assemble"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/store"
	"golang.org/x/term"

	"github.com/flowcabal/flowcabal/internal/cputime"
)

// runIndex indexes a project's knowledge into .flowcabal/project.db.
func runIndex(ctx context.Context, env *cliEnv, args []string) int {
	fs := flag.NewFlagSet("index", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	summarize := fs.Bool("summarize", false, "also produce the pending L0/L1 summaries (extractive) before returning")
	wait := fs.Duration("wait", store.DefaultLockWait, "how long to wait for another flowcabal holding the store")
	noEmbed := fs.Bool("no-embed", false, "do not embed the manuscript's passages even when [models.embedding] is configured")
	rehash := fs.Bool("rehash", false, "read and hash every file, even those whose size, times and inode say they are unchanged since the last index")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the command to this file (for go tool pprof)")
	fs.Usage = func() {
		fmt.Fprintf(env.stderr, "usage: flowcabal index [-json] [-summarize] [-no-embed] [-rehash] [-wait 2s] [project]\n\nIndexes meta/, entities/, profiles/, manuscript/ and summaries/ of the project\n(default: the project holding the current directory) and reports what it holds.\nWhen flowcabal.toml configures [models.embedding], the manuscript's passages are\nembedded too (text embedded before is never sent again). A file whose size,\ntimes and inode are those recorded when it was last read is not read again\n(-rehash reads every file).\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if fs.NArg() > 1 {
		fs.Usage()
		return exitUsage
	}
	root, err := projectRoot(fs.Arg(0))
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal index: %v\n", err)
		return exitFailure
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fmt.Fprintf(env.stderr, "flowcabal index: cpuprofile: %v\n", err)
			return exitUsage
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintf(env.stderr, "flowcabal index: cpuprofile: %v\n", err)
			return exitFailure
		}
		defer pprof.StopCPUProfile()
	}
	s, err := store.Open(ctx, root, store.Options{LockWait: *wait, Command: "flowcabal index", Getenv: env.getenv})
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal index: %v\n", err)
		return exitFailure
	}
	defer s.Close()

	bar := newProgressBar(env.stderr)
	rep, elapsed, err := indexWithBar(ctx, s, bar, *rehash)
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal index: %v\n", err)
		return exitFailure
	}
	// Role A's indexes: only the chapters that changed are analysed, so
	// that a hover or `flowcabal context` reads them instead of the book.
	stop := bar.spin("Role A's indexes")
	t := time.Now()
	kept, err := keepRoleA(root, s)
	stop()
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal index: %v\n", err)
		return exitFailure
	}
	elapsed += time.Since(t)
	var summarized int
	if *summarize && rep.PendingSummaries > 0 {
		stop := bar.spin("summaries")
		summarized, err = s.Drain(ctx)
		stop()
		if err != nil {
			fmt.Fprintf(env.stderr, "flowcabal index: summaries: %v\n", err)
			return exitFailure
		}
		if rep.Stats, err = s.Stats(); err != nil {
			fmt.Fprintf(env.stderr, "flowcabal index: %v\n", err)
			return exitFailure
		}
	}
	var emb *embedSummary
	if !*noEmbed {
		// Embeddings are an aid: a missing key or a dead endpoint is
		// reported, never a failed index.
		stop := bar.spin("embeddings")
		emb, err = indexEmbeddings(ctx, env, root, s)
		stop()
		if err != nil {
			fmt.Fprintf(env.stderr, "flowcabal index: embeddings: %v\n", err)
		}
	}
	if *asJSON {
		enc := json.NewEncoder(env.stdout)
		enc.SetIndent("", "  ")
		enc.Encode(struct {
			Root string `json:"root"`
			store.IndexReport
			Summarized int           `json:"summarized"`
			RoleA      *roleAReport  `json:"role_a"`
			Embeddings *embedSummary `json:"embeddings,omitempty"`
			Seconds    float64       `json:"seconds"`
		}{root, rep, summarized, kept, emb, elapsed.Seconds()})
		return exitOK
	}
	w := env.stdout
	fmt.Fprintf(w, "indexed %s in %s\n", root, elapsed.Round(time.Millisecond))
	fmt.Fprintf(w, "  files:      %d scanned, %d added, %d changed, %d removed, %d unchanged\n", rep.Scanned, rep.Added, rep.Changed, rep.Removed, rep.Unchanged)
	fmt.Fprintf(w, "  resources:  %d (%d characters of text)\n", rep.Resources, rep.TextChars)
	fmt.Fprintf(w, "  chapters:   %d in %d arcs\n", rep.Chapters, rep.Arcs)
	fmt.Fprintf(w, "  characters: %d (of %d entities)\n", rep.Characters, rep.Entities)
	if *summarize {
		fmt.Fprintf(w, "  summaries:  %d made, %d pending\n", summarized, rep.PendingSummaries)
	} else {
		fmt.Fprintf(w, "  summaries:  %d pending (run with -summarize, or let the server make them)\n", rep.PendingSummaries)
	}
	fmt.Fprintf(w, "  Role A:     %d chapters kept, %d analysed, %d read in %s\n", kept.Chapters, kept.Analysed, kept.Read, time.Duration(kept.Seconds*float64(time.Second)).Round(time.Millisecond))
	if emb != nil {
		emb.print(w)
	}
	for _, d := range rep.Diagnostics {
		fmt.Fprintf(w, "%s\n", d)
	}
	return exitOK
}

// indexWithBar indexes the store, drawing its progress on bar (a terminal
// only), and reports how long it took.
func indexWithBar(ctx context.Context, s *store.Store, bar *progressBar, rehash bool) (store.IndexReport, time.Duration, error) {
	start := time.Now()
	index := s.Index
	if rehash {
		index = s.Rehash
	}
	rep, err := index(ctx, bar.update)
	bar.finish()
	return rep, time.Since(start), err
}

// projectRoot finds the project of dir ("" for the current directory).
func projectRoot(dir string) (string, error) {
	if dir == "" {
		dir = "."
	}
	if _, err := os.Stat(dir); err != nil {
		return "", err
	}
	return project.FindRoot(dir)
}

// progressBar draws on a terminal and stays silent elsewhere, so that
// redirected output is clean.
type progressBar struct {
	w     io.Writer
	on    bool
	width int
	last  time.Time
	drawn bool
}

func newProgressBar(w io.Writer) *progressBar {
	p := &progressBar{w: w, width: 80}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.on = true
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 20 {
			p.width = cols
		}
	}
	return p
}

func (p *progressBar) update(done, total int, file string) {
	if !p.on || total == 0 {
		return
	}
	if done < total && time.Since(p.last) < 50*time.Millisecond {
		return
	}
	p.last = time.Now()
	barW := max(10, min(40, p.width-40))
	filled := barW * done / total
	line := fmt.Sprintf("\r[%s%s] %d/%d %s", strings.Repeat("#", filled), strings.Repeat(".", barW-filled), done, total, file)
	if r := []rune(line); len(r) > p.width-1 {
		line = string(r[:p.width-1])
	}
	fmt.Fprintf(p.w, "%s\x1b[K", line)
	p.drawn = true
}

func (p *progressBar) finish() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
}

// spin shows that work without a known total is going on, until stop.
func (p *progressBar) spin(what string) (stop func()) {
	if !p.on {
		return func() {}
	}
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		frames := `|/-\`
		for i := 0; ; i++ {
			fmt.Fprintf(p.w, "\r%c %s\x1b[K", frames[i%4], what)
			select {
			case <-done:
				fmt.Fprint(p.w, "\r\x1b[K")
				return
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	return func() { close(done); <-finished }
}

// roleAReport says what indexing did to Role A's kept indexes.
type roleAReport struct {
	Chapters int `json:"chapters"`
	Analysed int `json:"analysed"` // chapters whose text was analysed again
	// Read is the chapters whose text was read: the analysed ones and
	// those of an arc that changed (the rest are known by the hash the
	// store recorded). All of them when the store could not say.
	Read    int  `json:"read"`
	Written bool `json:"written"`
	// Base says the indexes were written whole (a cold index, or the
	// changes since the last whole write grew past a share of the book)
	// rather than as a delta.
	Base    bool    `json:"base,omitempty"`
	Seconds float64 `json:"seconds"`
	// CPUSeconds is the CPU time the process used meanwhile (every
	// thread, the garbage collector's too; 0 where it cannot be read):
	// on a loaded machine it says what Seconds cannot.
	CPUSeconds float64 `json:"cpu_seconds,omitempty"`
}

// keptInput is what Role A's kept indexes are made of (the chapters and
// the declared arcs), from the store just brought up to date: each
// chapter by its body's hash, read only when the kept indexes do not hold
// it as it is, so that one chapter changed does not cost reading the
// book. False when the store cannot say what the files would (a chapter
// indexed without its body's hash, two files for one chapter): the
// project's files are read instead.
func keptInput(root string, s *store.Store) (assemble.Input, bool) {
	var in assemble.Input
	rs, err := s.ChapterFiles()
	if err != nil {
		return in, false
	}
	// The files the index just walked say whether a chapter has a
	// second file (3,000 stat calls otherwise).
	walked := s.Walked()
	exists := func(file string) bool {
		if walked != nil {
			_, found := slices.BinarySearch(walked, file)
			return found
		}
		_, err := os.Lstat(filepath.Join(root, filepath.FromSlash(file)))
		return err == nil
	}
	for _, r := range rs {
		if r.BodyHash == "" {
			if len(r.Diagnostics) == 0 {
				return in, false // indexed by an older flowcabal
			}
			continue // unreadable: a reading of the files leaves it out too
		}
		// The store keeps one of chapter-N.md and chapter-N/content.md;
		// a reading of the files would have both.
		alt := r.Path + ".md"
		if r.File == alt {
			alt = r.Path + "/content.md"
		}
		if exists(alt) {
			return in, false
		}
		file := r.File
		in.Chapters = append(in.Chapters, assemble.ChapterDoc{Number: r.Chapter, Path: file, Hash: r.BodyHash,
			Load: func() (string, error) {
				data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(file)))
				if err != nil {
					return "", err
				}
				doc, _ := knowledge.ParseDocument(file, data)
				if doc == nil {
					return "", fmt.Errorf("%s is no longer readable", file)
				}
				return doc.Body, nil
			}})
	}
	// The other knowledge files (a few, beside the book) are read: their
	// summaries are kept with the chapters', so that the next process
	// that reads them (a server's first hover) does not make them again.
	var others []string
	for _, d := range project.KnowledgeDirs {
		if d != "manuscript" {
			others = append(others, d)
		}
	}
	kp, _ := knowledge.LoadProjectDirs(root, others...)
	if kp == nil {
		return in, false
	}
	rest := assemble.InputFromProject(kp)
	in.Meta, in.Entities, in.Summaries, in.Profiles, in.Arcs = rest.Meta, rest.Entities, rest.Summaries, rest.Profiles, rest.Arcs
	return in, true
}

// keepRoleA brings Role A's indexes in the store up to date with the
// project's files.
func keepRoleA(root string, s *store.Store) (*roleAReport, error) {
	start, cpu := time.Now(), cputime.Used()
	cfg, err := project.LoadConfig(root)
	if err != nil {
		return nil, err
	}
	b := newSnapshotBuilder(cfg)
	b.Keep = s
	b.Forget = true
	var snap *assemble.MemSnapshot
	in, lazy := keptInput(root, s)
	if lazy {
		if snap, err = b.Build(in); err != nil {
			return nil, fmt.Errorf("Role A's indexes: %w", err)
		}
	} else {
		var errs []error
		if snap, errs = b.LoadProject(root); snap == nil {
			return nil, fmt.Errorf("Role A's indexes: %v", errs)
		}
	}
	wrote, err := snap.Keep()
	if err != nil {
		return nil, fmt.Errorf("Role A's indexes: %w", err)
	}
	read := len(snap.Chapters())
	if lazy {
		read = snap.Read()
	}
	return &roleAReport{Chapters: len(snap.Chapters()), Analysed: snap.Analysed(), Read: read, Written: wrote, Base: snap.WroteBase(), Seconds: time.Since(start).Seconds(),
		CPUSeconds: (cputime.Used() - cpu).Seconds()}, nil
}
