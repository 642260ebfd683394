package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/flowcabal/flowcabal/agent/assemble"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/textsearch"
)

// evalQuery is one line of a Role A query file.
type evalQuery struct {
	ID             string `json:"id"`
	Book           string `json:"book"`
	WritingChapter int    `json:"writing_chapter"`
	Query          string `json:"query"`
	AnswerChapters []int  `json:"answer_chapters"`
	Evidence       string `json:"evidence"`
}

// runEvalContext answers every query of a query file as Role A would for
// a node writing chapter W of a project that holds chapters 1..W-1 of the
// book, and scores, the same way for Role A and the baseline: recall (an
// answer chapter injected whole, or a passage of one that holds the
// evidence quote), evidence (the quote verbatim anywhere in the injected
// text) and, under its own name, reach (an answer chapter injected at L1,
// L2 or as any passage: the looser measure the shared README calls
// recall).
func runEvalContext(ctx context.Context, env *cliEnv, args []string) int {
	fs := flag.NewFlagSet("eval context", flag.ContinueOnError)
	fs.SetOutput(env.stderr)
	book := fs.String("book", "", "folder with one file per chapter (001.txt, …)")
	queries := fs.String("queries", "", "query file (JSON lines)")
	budget := fs.Int("budget", 0, "token budget of each context")
	entities := fs.String("entities", "", "folder with entities/ and meta/ in the project layout")
	baseline := fs.Bool("baseline", false, "also score plain BM25 over whole chapters at the same budget")
	model := fs.String("model", "", "model whose tokenizer counts the budget (default cl100k_base)")
	verbose := fs.Bool("v", false, "list the injected sources of each query")
	useEmb := fs.Bool("embeddings", false, "blend similarity of meaning into the search, with the [models.embedding] of --project's flowcabal.toml")
	projDir := fs.String("project", "", "project whose flowcabal.toml configures the embedding model (default: the project holding the current directory)")
	useRefine := fs.Bool("refine", false, "have the [models.agent] of --project's flowcabal.toml read each query for what names miss")
	semWeight := fs.Float64("semantic-weight", 0, "with --embeddings: how much the ranking by meaning counts against the lexical one (default 0.2)")
	generated := fs.String("generated", "", "a project made by flowcabal bench genproject --distinct and indexed by flowcabal index: the queries' answer chapters (in their book's numbering) are mapped into it and asked from --writing")
	writing := fs.Int("writing", 0, "with --generated: the chapter every query is asked from (default: the one after the last)")
	minBackFlag := fs.Int("min-back", 1000, "with --generated: fail unless every answer chapter is at least this many chapters before --writing")
	if err := fs.Parse(args); err != nil {
		return exitUsage
	}
	if *generated != "" {
		if *book != "" || *entities != "" || *useEmb || *useRefine || *queries == "" || *budget <= 0 || fs.NArg() > 0 {
			fmt.Fprintln(env.stderr, "usage: flowcabal eval context --generated PROJECT --queries FILE --budget N [--writing W] [--min-back N] [--baseline] [--model M] [-v]")
			return exitUsage
		}
		return runEvalGenerated(ctx, env, generatedOptions{root: *generated, queries: *queries, budget: *budget, writing: *writing,
			minBack: *minBackFlag, baseline: *baseline, verbose: *verbose, model: *model})
	}
	if *book == "" || *queries == "" || *budget <= 0 || fs.NArg() > 0 {
		fmt.Fprintln(env.stderr, "usage: flowcabal eval context --book DIR --queries FILE --budget N [--entities DIR] [--baseline] [--embeddings] [--refine] [--project DIR]")
		return exitUsage
	}
	chapters, err := readBook(*book)
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal eval context: %v\n", err)
		return exitFailure
	}
	qs, err := readQueries(*queries)
	if err != nil {
		fmt.Fprintf(env.stderr, "flowcabal eval context: %v\n", err)
		return exitFailure
	}
	folder := textsearch.NewFolder()
	an := textsearch.NewAnalyzer(folder)
	tc := textsearch.NewCounter(*model)
	b := assemble.NewBuilder(an, tc)
	var base assemble.Input
	if *entities != "" {
		p, errs := knowledge.LoadProject(*entities)
		for _, e := range errs {
			fmt.Fprintf(env.stderr, "flowcabal eval context: %v\n", e)
		}
		if p == nil {
			return exitFailure
		}
		base = assemble.InputFromProject(p)
		base.Chapters = nil
	}
	var sem *evalSemantic
	if *useEmb {
		var done func()
		sem, done, err = newEvalSemantic(env, *projDir)
		if err != nil {
			fmt.Fprintf(env.stderr, "flowcabal eval context: %v\n", err)
			return exitUsage
		}
		defer done()
	}
	var refine *evalRefiner
	if *useRefine {
		var done func()
		refine, done, err = newEvalRefiner(env, *projDir)
		if err != nil {
			fmt.Fprintf(env.stderr, "flowcabal eval context: %v\n", err)
			return exitUsage
		}
		defer done()
	}
	var rec, reach, evi, brec, bevi, droppedForBudget int
	var strict float64
	var ranks, baseRanks []int
	bl := &chapterBaseline{an: an, tc: tc, chapters: chapters}
	for _, q := range qs {
		if err := ctx.Err(); err != nil {
			fmt.Fprintf(env.stderr, "flowcabal eval context: %v\n", err)
			return exitFailure
		}
		in := base
		in.Chapters = nil
		for _, n := range chapters.before(q.WritingChapter) {
			in.Chapters = append(in.Chapters, assemble.ChapterDoc{Number: n, Path: chapterPath(n), Text: chapters.text[n]})
		}
		snap, err := b.Build(in)
		if err != nil {
			fmt.Fprintf(env.stderr, "flowcabal eval context: %s: %v\n", q.ID, err)
			return exitFailure
		}
		node := assemble.Node{ID: q.ID, Text: q.Query, Chapter: q.WritingChapter, Budget: *budget}
		var opt assemble.Options
		if sem != nil {
			opt.Semantic = sem.semantic(ctx, snap, node)
			opt.Semantic.Weight = *semWeight
		}
		if refine != nil {
			opt.Refinement = refine.refinement(ctx, snap, node)
		}
		c, err := assemble.Assemble(node, snap, opt)
		if err != nil {
			fmt.Fprintf(env.stderr, "flowcabal eval context: %s: %v\n", q.ID, err)
			return exitFailure
		}
		hit, reached, found, injected, err := score(c, q, chapters, folder)
		if err != nil {
			// The score would be wrong: say so rather than count.
			fmt.Fprintf(env.stderr, "flowcabal eval context: %s: %v\n", q.ID, err)
			return exitFailure
		}
		if len(q.AnswerChapters) > 0 {
			strict += float64(found) / float64(len(q.AnswerChapters))
		}
		rank, dropped := answerRank(c, q)
		ranks = append(ranks, rank)
		if dropped && !reached {
			droppedForBudget++
		}
		ev := containsEvidence(folder, c.SystemPrefix+c.UserSuffix, q.Evidence)
		if hit {
			rec++
		}
		if reached {
			reach++
		}
		if ev {
			evi++
		}
		line := fmt.Sprintf("%s W=%d answer=%v hit=%s reach=%s evidence=%s tokens=%d/%d rank=%s injected=%s",
			q.ID, q.WritingChapter, q.AnswerChapters, yesNo(hit), yesNo(reached), yesNo(ev), c.Tokens, c.Budget, rankText(rank), describeInjected(injected))
		if *baseline {
			// The baseline injects whole chapters only: its hit and its
			// reach are the same thing.
			bh, be, br := bl.answer(q, *budget)
			baseRanks = append(baseRanks, br)
			if bh {
				brec++
			}
			if be {
				bevi++
			}
			line += fmt.Sprintf(" baseline_hit=%s baseline_evidence=%s baseline_rank=%s", yesNo(bh), yesNo(be), rankText(br))
		}
		fmt.Fprintln(env.stdout, line)
		if *verbose {
			for _, s := range c.Sources {
				fmt.Fprintf(env.stdout, "\t%s %s %s %d %s\n", s.Path, s.Level, s.Part, s.Tokens, s.Reason)
			}
			for _, s := range c.Dropped {
				fmt.Fprintf(env.stdout, "\tdropped %s %s %s %d %s: %s\n", s.Path, s.Level, s.Part, s.Tokens, s.Reason, s.Why)
			}
			for _, n := range c.Notes {
				fmt.Fprintf(env.stdout, "\tnote: %s\n", n)
			}
		}
	}
	total := len(qs)
	printRanks(env.stdout, ranks, droppedForBudget, strict)
	// Recall and evidence are defined alike for both systems; reach, the
	// looser measure, gets its own name.
	fmt.Fprintf(env.stdout, "reach (an answer chapter at L1, L2 or as any passage): %s (%d/%d)\n", ratio(reach, total), reach, total)
	if sem != nil {
		sem.print(env.stdout)
	}
	if refine != nil {
		refine.print(env.stdout)
	}
	if *baseline {
		fmt.Fprintf(env.stdout, "baseline answer chapter rank: %s\n", rankSummary(baseRanks))
		fmt.Fprintf(env.stdout, "baseline reach: %s (%d/%d)\n", ratio(brec, total), brec, total)
		fmt.Fprintf(env.stdout, "baseline recall: %s (%d/%d) evidence: %s (%d/%d)\n", ratio(brec, total), brec, total, ratio(bevi, total), bevi, total)
	}
	fmt.Fprintf(env.stdout, "recall: %s (%d/%d) evidence: %s (%d/%d)\n", ratio(rec, total), rec, total, ratio(evi, total), evi, total)
	return exitOK
}

// score says how c answers q, by the same definitions as the baseline's:
// hit when an answer chapter is injected whole or as a passage that holds
// the evidence quote; reached, the looser measure, when an answer chapter
// is injected at all (L1, L2 or any passage); found counts the answer
// chapters reached; injected maps each chapter to how it was injected.
func score(c *assemble.Context, q evalQuery, chapters *book, folder *textsearch.Folder) (hit, reached bool, found int, injected map[int]string, err error) {
	injected = map[int]string{}
	for _, s := range c.Sources {
		n, ok := knowledge.ChapterNumber(s.Path)
		if !ok || (s.Level != "L1" && s.Level != "L2") {
			continue
		}
		l := s.Level
		if s.Part != "" {
			l = "passage"
		}
		if !strings.Contains(injected[n], l) {
			if injected[n] != "" {
				injected[n] += "+"
			}
			injected[n] += l
		}
		text, ok := chapters.text[n]
		if !slices.Contains(q.AnswerChapters, n) || !ok {
			continue
		}
		passage := ""
		if s.Part != "" {
			passage = passageText(text, s.Part)
			if t := strings.TrimSpace(passage); t == "" || !strings.Contains(c.SystemPrefix+c.UserSuffix, t) {
				return false, false, 0, nil, fmt.Errorf("%s %s is not the passage injected", s.Path, s.Part)
			}
		}
		hit = hit || (s.Level == "L2" && s.Part == "") || containsEvidence(folder, passage, q.Evidence)
	}
	for _, n := range q.AnswerChapters {
		if injected[n] != "" {
			reached = true
			found++
		}
	}
	return hit, reached, found, injected, nil
}

// Ranks of the best answer chapter among the manuscript chapters the
// assembler considered: rankPrevious for the previous chapter (taken
// before any search), rankNone when none was considered.
const (
	rankPrevious = 0
	rankNone     = -1
)

var searchRank = regexp.MustCompile(`search rank (\d+) in chapters before`)

// answerRank returns the best rank of q's answer chapters among the
// chapters c considered (injected or dropped), and whether one of them
// was considered but dropped for the budget.
func answerRank(c *assemble.Context, q evalQuery) (rank int, dropped bool) {
	answer := map[int]bool{}
	for _, n := range q.AnswerChapters {
		answer[n] = true
	}
	rank = rankNone
	consider := func(s assemble.Source, wasDropped bool) {
		n, ok := knowledge.ChapterNumber(s.Path)
		if !ok || !answer[n] {
			return
		}
		if wasDropped && strings.HasPrefix(s.Why, "over budget") {
			dropped = true
		}
		if s.Part != "" {
			return
		}
		r := rankNone
		if m := searchRank.FindStringSubmatch(s.Reason); m != nil {
			r, _ = strconv.Atoi(m[1])
		} else if strings.HasPrefix(s.Reason, "previous chapter") {
			r = rankPrevious
		}
		if r != rankNone && (rank == rankNone || r < rank) {
			rank = r
		}
	}
	for _, s := range c.Sources {
		consider(s, false)
	}
	for _, s := range c.Dropped {
		consider(s, true)
	}
	return rank, dropped
}

func rankText(r int) string {
	switch r {
	case rankPrevious:
		return "previous"
	case rankNone:
		return "-"
	}
	return strconv.Itoa(r)
}

// printRanks prints what the evaluation notes ask to report
// beside recall: where the answer chapters ranked, how often one was
// considered and dropped for the budget, and strict recall (the share of
// all answer chapters injected).
func printRanks(w io.Writer, ranks []int, droppedForBudget int, strict float64) {
	total := len(ranks)
	fmt.Fprintf(w, "answer chapter rank: %s\n", rankSummary(ranks))
	fmt.Fprintf(w, "answer chapter considered but dropped for the budget: %d/%d\n", droppedForBudget, total)
	fmt.Fprintf(w, "strict recall: %s\n", ratioF(strict, total))
}

// rankSummary sums ranks up: the median, how many are first (or the
// previous chapter), in the top 5, and not ranked at all.
func rankSummary(ranks []int) string {
	total := len(ranks)
	top1, top5, none := 0, 0, 0
	var ranked []int
	for _, r := range ranks {
		switch {
		case r == rankNone:
			none++
			continue
		case r <= 1:
			top1++
		}
		if r <= 5 {
			top5++
		}
		ranked = append(ranked, r)
	}
	median := "-"
	if len(ranked) > 0 {
		slices.Sort(ranked)
		median = rankText(ranked[len(ranked)/2])
	}
	return fmt.Sprintf("median %s, first or previous %d/%d, top 5 %d/%d, not considered %d/%d",
		median, top1, total, top5, total, none, total)
}

func ratioF(a float64, b int) string {
	if b == 0 {
		return "0.00"
	}
	return strconv.FormatFloat(a/float64(b), 'f', 2, 64)
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func ratio(a, b int) string {
	if b == 0 {
		return "0.00"
	}
	return strconv.FormatFloat(float64(a)/float64(b), 'f', 2, 64)
}

func chapterPath(n int) string { return fmt.Sprintf("manuscript/chapter-%02d/content.md", n) }

func describeInjected(m map[int]string) string {
	var ns []int
	for n := range m {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	var parts []string
	for _, n := range ns {
		parts = append(parts, fmt.Sprintf("%d:%s", n, m[n]))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// containsEvidence reports whether quote is in text verbatim, or once
// both are folded (traditional and simplified Chinese, case) and their
// white space runs made single spaces.
func containsEvidence(f *textsearch.Folder, text, quote string) bool {
	if quote == "" {
		return false
	}
	if strings.Contains(text, quote) {
		return true
	}
	norm := func(s string) string { return strings.Join(strings.Fields(f.Fold(s)), " ") }
	return strings.Contains(norm(text), norm(quote))
}

var partBytes = regexp.MustCompile(`^bytes (\d+)-(\d+)$`)

// passageText is the passage of a chapter a source's part names ("bytes
// 1200-2450"); empty when the part does not name one within the text.
func passageText(chapter, part string) string {
	m := partBytes.FindStringSubmatch(part)
	if m == nil {
		return ""
	}
	start, _ := strconv.Atoi(m[1])
	end, _ := strconv.Atoi(m[2])
	if start < 0 || end > len(chapter) || start > end {
		return ""
	}
	return chapter[start:end]
}

var chapterFile = regexp.MustCompile(`^(\d{1,5})\.(txt|md)$`)

// book is a corpus book: chapter texts by number.
type book struct {
	nums []int // in order
	text map[int]string
}

// before returns the chapter numbers below w, in order.
func (b *book) before(w int) []int {
	i, _ := slices.BinarySearch(b.nums, w)
	return b.nums[:i]
}

// readBook reads DIR/001.txt, 002.txt, … as chapters 1, 2, …; a book may
// start at 000.txt (a prologue) and skip numbers.
func readBook(dir string) (*book, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read book: %w", err)
	}
	byNum := map[int]string{}
	for _, e := range ents {
		m := chapterFile.FindStringSubmatch(e.Name())
		if m == nil || e.IsDir() {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("read book: %w", err)
		}
		if len(data) > knowledge.MaxFileSize {
			return nil, fmt.Errorf("read book: %s is larger than %d bytes", e.Name(), knowledge.MaxFileSize)
		}
		byNum[n] = strings.ToValidUTF8(string(data), "\uFFFD")
	}
	if len(byNum) == 0 {
		return nil, fmt.Errorf("read book: no chapter files (001.txt, …) in %s", dir)
	}
	b := &book{text: byNum}
	for n := range byNum {
		b.nums = append(b.nums, n)
	}
	slices.Sort(b.nums)
	return b, nil
}

func readQueries(path string) ([]evalQuery, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read queries: %w", err)
	}
	defer f.Close()
	var out []evalQuery
	r := bufio.NewReader(f)
	for line := 1; ; line++ {
		s, err := r.ReadString('\n')
		if t := strings.TrimSpace(s); t != "" {
			var q evalQuery
			if jerr := json.Unmarshal([]byte(t), &q); jerr != nil {
				return nil, fmt.Errorf("read queries: %s:%d: %w", path, line, jerr)
			}
			if q.WritingChapter < 1 || q.Query == "" {
				return nil, fmt.Errorf("read queries: %s:%d: need writing_chapter >= 1 and a query", path, line)
			}
			out = append(out, q)
		}
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read queries: %w", err)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("read queries: %s has no queries", path)
	}
	return out, nil
}

// chapterBaseline is plain BM25 over whole chapters 1..W-1, filling the budget
// with whole chapters in rank order (skipping any that no longer fits).
// It remembers each chapter's terms and token count across queries; a
// lean one remembers instead the index of the last W, for a book too
// large to keep every chapter's terms of.
type chapterBaseline struct {
	an       *textsearch.Analyzer
	tc       *textsearch.Counter
	chapters *book
	lean     bool
	terms    map[int][]string
	cost     map[int]int
	lastW    int
	lastX    *textsearch.Index
}

// answer answers q at budget: whether an answer chapter and the evidence
// are in the text, and rank, where the best answer chapter stands in
// BM25's order (1 is first; rankNone when none shares a term with q).
func (bl *chapterBaseline) answer(q evalQuery, budget int) (hit, evidence bool, rank int) {
	r := bl.run(q, budget)
	for _, n := range r.injected {
		if slices.Contains(q.AnswerChapters, n) {
			hit = true
		}
	}
	return hit, r.evidenceAnywhere(bl.an.Folder(), q.Evidence), r.rank
}

// baselineRun is what the baseline injected for one query.
type baselineRun struct {
	injected []int // chapters, in rank order
	text     string
	rank     int
}

func (r baselineRun) evidenceAnywhere(f *textsearch.Folder, quote string) bool {
	return containsEvidence(f, r.text, quote)
}

func (bl *chapterBaseline) run(q evalQuery, budget int) baselineRun {
	res := baselineRun{rank: rankNone}
	if bl.terms == nil {
		bl.terms, bl.cost = map[int][]string{}, map[int]int{}
	}
	x := bl.lastX
	if x == nil || bl.lastW != q.WritingChapter {
		x = textsearch.NewIndex(0, 0)
		for _, n := range bl.chapters.before(q.WritingChapter) {
			terms := bl.terms[n]
			if terms == nil {
				terms = bl.an.Terms(bl.chapters.text[n])
				if !bl.lean {
					bl.terms[n] = terms
				}
			}
			x.Add(strconv.Itoa(n), terms)
		}
		if bl.lean {
			x.Compact()
			bl.lastX, bl.lastW = x, q.WritingChapter
		}
	}
	left := budget
	var text strings.Builder
	for i, h := range x.Search(bl.an.Terms(q.Query), 0, nil) {
		n, _ := strconv.Atoi(h.ID)
		if res.rank == rankNone && slices.Contains(q.AnswerChapters, n) {
			res.rank = i + 1
		}
		block := "## " + chapterPath(n) + " · L2\n" + strings.TrimSpace(bl.chapters.text[n]) + "\n\n"
		c, ok := bl.cost[n]
		if !ok {
			c = bl.tc.MustCount(block)
			bl.cost[n] = c
		}
		if c > left {
			continue
		}
		left -= c
		text.WriteString(block)
		res.injected = append(res.injected, n)
	}
	res.text = text.String()
	return res
}
