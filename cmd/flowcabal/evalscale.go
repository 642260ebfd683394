package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"

	"github.com/flowcabal/flowcabal/agent/assemble"
	"github.com/flowcabal/flowcabal/internal/webnovel"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/textsearch"
)

// scaleQuery is a query written on a source book, carried into the
// generated book's numbering.
type scaleQuery struct {
	evalQuery
	book   string
	source []int         // the answer chapters in the source book
	parts  map[int][]int // source answer chapter -> its answer chapters in the generated book
	copies map[int]bool  // chapters of the disguised passes holding an answer chapter's text
}

// generatedOptions are the flags of `flowcabal eval context --generated`.
type generatedOptions struct {
	root              string
	queries           string
	budget            int
	writing, minBack  int
	baseline, verbose bool
	model             string
}

// runEvalGenerated scores Role A on a book made by `flowcabal bench
// genproject --distinct`, with queries written on its source books: each
// answer chapter is mapped to the chapters of the undisguised pass that
// hold its text (all of them: the event may run across them, and the
// evidence quote marks one line of it, not its extent), and every query
// is asked from chapter W (by default the chapter after the last), so
// every answer lies far back.
// Role A is built as `flowcabal context` builds it, from the indexes
// `flowcabal index` kept in the project's store; the baseline is plain
// BM25 over whole chapters 1..W-1. Both are scored alike: recall (an
// answer chapter injected whole, or a passage of one holding the quote),
// strict recall (the share of the source answer chapters of which some
// part was injected at all), evidence (the quote in what was injected of
// the answer chapters) and, beside it, evidence anywhere (the quote
// anywhere in the context, which a disguised copy may supply when the
// quote holds no declared name).
func runEvalGenerated(ctx context.Context, env *cliEnv, o generatedOptions) int {
	fail := func(err error) int {
		fmt.Fprintf(env.stderr, "flowcabal eval context: %v\n", err)
		return exitFailure
	}
	man, err := webnovel.ReadManifest(o.root)
	if err != nil {
		return fail(err)
	}
	cfg, err := project.LoadConfig(o.root)
	if err != nil {
		return fail(err)
	}
	model := o.model
	if model == "" {
		model = cfg.Models["writer"].Model
	}
	folder := textsearch.NewFolder()
	an := textsearch.NewAnalyzer(folder)
	tc := textsearch.NewCounter(model)
	b := assemble.NewBuilder(an, tc)
	b.Forget = true
	st := openKept(ctx, o.root, env)
	if st == nil {
		return fail(fmt.Errorf("%s has no store Role A's indexes can be read from (run flowcabal index %s first, and let no other process hold it)", o.root, o.root))
	}
	defer st.Close()
	b.Keep = st
	snap, errs := b.LoadProject(o.root)
	for _, e := range errs {
		fmt.Fprintf(env.stderr, "flowcabal eval context: %v\n", e)
	}
	if snap == nil {
		return exitFailure
	}
	if n := snap.Analysed(); n > 0 {
		// The figures stand, but they are not those of the kept indexes
		// alone: say so.
		fmt.Fprintf(env.stdout, "note: %d of %d chapters were not in the kept indexes and were analysed again\n", n, len(snap.Chapters()))
	}
	bk := &book{text: map[int]string{}}
	for _, c := range snap.Chapters() {
		bk.nums = append(bk.nums, c.Number)
		bk.text[c.Number] = c.L2
	}
	if len(bk.nums) == 0 {
		return fail(fmt.Errorf("%s has no chapters", o.root))
	}
	w := o.writing
	if w == 0 {
		w = bk.nums[len(bk.nums)-1] + 1
	}
	raw, err := readQueries(o.queries)
	if err != nil {
		return fail(err)
	}
	var qs []scaleQuery
	for _, q := range raw {
		sq, err := mapQuery(q, man, w)
		if err != nil {
			return fail(err)
		}
		if back := w - slices.Max(sq.AnswerChapters); back < o.minBack {
			return fail(fmt.Errorf("%s: an answer chapter is %d chapters before chapter %d, fewer than --min-back %d", q.ID, back, w, o.minBack))
		}
		qs = append(qs, sq)
	}
	opt := assemble.Options{Budget: cfg.Budget, ThreadWindow: cfg.ThreadWindow, Shares: assemble.Shares{Meta: cfg.Shares["meta"],
		Entities: cfg.Shares["entities"], Manuscript: cfg.Shares["manuscript"], Summaries: cfg.Shares["summaries"]}}
	bl := &chapterBaseline{an: an, tc: tc, chapters: bk, lean: true}
	var a, base scaleTally
	for _, q := range qs {
		if err := ctx.Err(); err != nil {
			return fail(err)
		}
		node := assemble.Node{ID: q.ID, Text: q.Query, Chapter: w, Budget: o.budget}
		c, err := assemble.Assemble(node, snap, opt)
		if err != nil {
			return fail(fmt.Errorf("%s: %w", q.ID, err))
		}
		hit, reached, _, injected, err := score(c, q.evalQuery, bk, folder)
		if err != nil {
			return fail(fmt.Errorf("%s: %w", q.ID, err))
		}
		rank, _ := answerRank(c, q.evalQuery)
		var answerText strings.Builder
		var chapters []int
		byNum := map[int]*assemble.Chapter{}
		for _, ch := range snap.Chapters() {
			byNum[ch.Number] = ch
		}
		for _, s := range c.Sources {
			n, ok := knowledge.ChapterNumber(s.Path)
			if !ok || !strings.HasPrefix(s.Path, "manuscript/") {
				continue
			}
			chapters = append(chapters, n)
			if !slices.Contains(q.AnswerChapters, n) || byNum[n] == nil {
				continue
			}
			switch {
			case s.Part != "":
				answerText.WriteString(passageText(bk.text[n], s.Part))
			case s.Level == "L2":
				answerText.WriteString(bk.text[n])
			case s.Level == "L1":
				answerText.WriteString(byNum[n].L1)
			default:
				answerText.WriteString(byNum[n].L0)
			}
			answerText.WriteString("\n")
		}
		ar := a.add(q, hit, reached, chapters, injected,
			containsEvidence(folder, answerText.String(), q.Evidence),
			containsEvidence(folder, c.SystemPrefix+c.UserSuffix, q.Evidence), rank)
		line := fmt.Sprintf("%s W=%d source=%s:%v answer=%v back=%d hit=%s reach=%s evidence=%s evidence_anywhere=%s copies=%d tokens=%d/%d rank=%s injected=%s",
			q.ID, w, q.book, q.source, q.AnswerChapters, w-slices.Max(q.AnswerChapters), yesNo(hit), yesNo(reached), yesNo(ar.evidence), yesNo(ar.anywhere), ar.copies,
			c.Tokens, c.Budget, rankText(rank), describeInjected(injected))
		if o.baseline {
			res := bl.run(q.evalQuery, o.budget)
			var text strings.Builder
			bhit := false
			binj := map[int]string{}
			for _, n := range res.injected {
				binj[n] = "L2"
				if slices.Contains(q.AnswerChapters, n) {
					bhit = true
					text.WriteString(bk.text[n])
					text.WriteString("\n")
				}
			}
			br := base.add(q, bhit, bhit, res.injected, binj, containsEvidence(folder, text.String(), q.Evidence), res.evidenceAnywhere(folder, q.Evidence), res.rank)
			line += fmt.Sprintf(" baseline_hit=%s baseline_evidence=%s baseline_copies=%d baseline_rank=%s", yesNo(bhit), yesNo(br.evidence), br.copies, rankText(res.rank))
		}
		fmt.Fprintln(env.stdout, line)
		if o.verbose {
			for _, s := range c.Sources {
				fmt.Fprintf(env.stdout, "\t%s %s %s %d %s\n", s.Path, s.Level, s.Part, s.Tokens, s.Reason)
			}
			for _, s := range c.Dropped {
				fmt.Fprintf(env.stdout, "\tdropped %s %s %s %d %s: %s\n", s.Path, s.Level, s.Part, s.Tokens, s.Reason, s.Why)
			}
		}
	}
	total := len(qs)
	fmt.Fprintf(env.stdout, "book: %s, %d chapters; queries asked from chapter %d, answers %d to %d chapters back\n",
		o.root, len(bk.nums), w, minBack(qs, w), maxBack(qs, w))
	a.print(env.stdout, "", total)
	if o.baseline {
		base.print(env.stdout, "baseline ", total)
		fmt.Fprintf(env.stdout, "baseline recall: %s (%d/%d) evidence: %s (%d/%d)\n", ratio(base.recall, total), base.recall, total, ratio(base.evidence, total), base.evidence, total)
	}
	fmt.Fprintf(env.stdout, "recall: %s (%d/%d) evidence: %s (%d/%d)\n", ratio(a.recall, total), a.recall, total, ratio(a.evidence, total), a.evidence, total)
	return exitOK
}

// scaleTally sums one system's answers up.
type scaleTally struct {
	recall, reach, evidence, anywhere, withCopies int
	strict                                        float64
	ranks                                         []int
}

type scaleAnswer struct {
	evidence, anywhere bool
	copies             int
}

func (t *scaleTally) add(q scaleQuery, hit, reached bool, chapters []int, injected map[int]string, evidence, anywhere bool, rank int) scaleAnswer {
	if hit {
		t.recall++
	}
	if reached {
		t.reach++
	}
	if evidence {
		t.evidence++
	}
	if anywhere {
		t.anywhere++
	}
	// Strict recall counts source chapters: one is found when any of
	// its parts was injected.
	found := 0
	for _, s := range q.source {
		for _, n := range q.parts[s] {
			if injected[n] != "" {
				found++
				break
			}
		}
	}
	t.strict += float64(found) / float64(len(q.source))
	copies := map[int]bool{}
	for _, n := range chapters {
		if q.copies[n] {
			copies[n] = true
		}
	}
	if len(copies) > 0 {
		t.withCopies++
	}
	t.ranks = append(t.ranks, rank)
	return scaleAnswer{evidence: evidence, anywhere: anywhere, copies: len(copies)}
}

func (t *scaleTally) print(w io.Writer, who string, total int) {
	fmt.Fprintf(w, "%sanswer chapter rank: %s\n", who, rankSummary(t.ranks))
	fmt.Fprintf(w, "%sstrict recall: %s\n", who, ratioF(t.strict, total))
	fmt.Fprintf(w, "%sreach: %s (%d/%d)\n", who, ratio(t.reach, total), t.reach, total)
	fmt.Fprintf(w, "%sevidence anywhere in the context: %s (%d/%d)\n", who, ratio(t.anywhere, total), t.anywhere, total)
	fmt.Fprintf(w, "%squeries with a disguised copy of an answer chapter injected: %d/%d\n", who, t.withCopies, total)
}

func minBack(qs []scaleQuery, w int) int {
	m := 0
	for i, q := range qs {
		if b := w - slices.Max(q.AnswerChapters); i == 0 || b < m {
			m = b
		}
	}
	return m
}

func maxBack(qs []scaleQuery, w int) int {
	m := 0
	for _, q := range qs {
		m = max(m, w-slices.Min(q.AnswerChapters))
	}
	return m
}

// mapQuery carries q into the generated book's numbering and asks it
// from chapter w.
func mapQuery(q evalQuery, man *webnovel.Manifest, w int) (scaleQuery, error) {
	sq := scaleQuery{evalQuery: q, book: q.Book, source: slices.Clone(q.AnswerChapters), parts: map[int][]int{}, copies: map[int]bool{}}
	if q.Book == "" {
		return sq, fmt.Errorf("%s: the query names no book", q.ID)
	}
	if len(q.AnswerChapters) == 0 {
		return sq, fmt.Errorf("%s: the query has no answer chapters", q.ID)
	}
	var all []int
	for _, n := range q.AnswerChapters {
		sm := man.Source(q.Book, n)
		if sm == nil || len(sm.Original) == 0 {
			return sq, fmt.Errorf("%s: chapter %d of %s is not in the undisguised pass of the generated book", q.ID, n, q.Book)
		}
		parts := slices.Clone(sm.Original)
		sq.parts[n] = parts
		all = append(all, parts...)
		for _, c := range sm.Copies {
			for _, ch := range c.Chapters {
				sq.copies[ch] = true
			}
		}
	}
	sort.Ints(all)
	sq.AnswerChapters = slices.Compact(all)
	sq.WritingChapter = w
	for _, n := range sq.AnswerChapters {
		if n >= w {
			return sq, fmt.Errorf("%s: answer chapter %d is not before chapter %d", q.ID, n, w)
		}
	}
	return sq, nil
}
