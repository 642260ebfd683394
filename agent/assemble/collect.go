package assemble

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/textsearch"
)

// Candidate counts for the manuscript search.
const (
	coreChapters   = 4   // chapters in the breadth pass: the best at L1, the others at L0
	maxChapters    = 16  // chapters considered at all
	corePassages   = 10  // passages in the breadth pass
	bestChapters   = 2   // the chapters whose own best passages join the breadth pass
	bestPassages   = 3   // how many of each best chapter's passages join it
	maxPassages    = 40  // passages considered at all
	passagesRanked = 400 // passages ranked by the lexical search
	neighbourOf    = 3   // the best passages also bring their neighbours
	arcFirstAbove  = 300
	arcsScanned    = 4 // arcs read after the arc-first scan
	maxUpstreamLen = 400

	// expansionWeight is what a described entity's name terms weigh, in
	// both languages. (Chinese names once weighed twice as much, as a
	// Chinese prompt has about two pair terms for each English word; but a
	// Chinese description is found through character pairs that are often
	// common words, 徒弟 or 當年, and at full weight a wrong entity's name
	// led the chapter search: 西遊記's queries written apart from the code
	// found their answer chapter first 13 times of 30 against 16 at half.)
	expansionWeight = 0.5
	upstreamWeight  = 0.3 // each upstream term occurrence

	instructionWeight    = 0.2 // words that address the writer, not the story
	passageChapterWeight = 0.5 // a passage gains from its chapter's score
)

func (a *assembly) collectMeta() {
	rank := func(p string) int {
		switch {
		case strings.Contains(p, "outline"):
			return 3
		case strings.Contains(p, "style"):
			return 2
		case strings.Contains(p, "world"):
			return 1
		}
		return 0
	}
	for _, r := range a.snap.Meta() {
		a.add(&item{cat: catMeta, path: r.Path, reason: "meta: always injected", prio: float64(rank(r.Path)),
			text: [3]string{r.L0, r.L1, r.L2}, def: 2, stale: r.Stale, core: true, hash: r.Hash})
	}
	// Profiles of the whole work (world state, style, themes) come with
	// the meta documents, at L0 first.
	for _, pr := range a.snap.Profiles() {
		if pr.About != "" {
			continue
		}
		if pr.Reveal > a.chapter {
			a.dropped = append(a.dropped, Source{Path: pr.Path, Level: "L0", Reason: "profile of the work",
				Why: fmt.Sprintf("not revealed until chapter %d (reveal: %d)", pr.Reveal, pr.Reveal)})
			continue
		}
		a.add(&item{cat: catMeta, path: pr.Path, reason: "profile of the work", prio: -1,
			text: [3]string{pr.L0, pr.L1, pr.L2}, def: 0, stale: pr.Stale, core: true, hash: pr.Hash})
	}
}

func (a *assembly) collectEntities() {
	w := a.chapter
	ents := a.snap.Entities()
	byPath := map[string]*Entity{}
	byRes := map[string]*Entity{}
	for _, e := range ents {
		byPath[e.Path] = e
		byRes[e.Decl.Resource] = e
	}
	type why struct {
		prio   float64
		reason string
	}
	chosen := map[string]why{}
	consider := func(path string, prio float64, reason string) {
		e := byPath[path]
		if e == nil {
			return
		}
		if _, ok := chosen[path]; ok {
			return
		}
		switch {
		case e.Decl.Context == knowledge.ContextNever:
			a.dropped = append(a.dropped, Source{Path: path, Level: "L1", Reason: reason, Why: "context: never"})
			chosen[path] = why{-1, ""}
			return
		case !e.Decl.Visible(w):
			a.dropped = append(a.dropped, Source{Path: path, Level: "L1", Reason: reason,
				Why: fmt.Sprintf("not revealed until chapter %d (reveal: %d)", e.Decl.Reveal, e.Decl.Reveal)})
			chosen[path] = why{-1, ""}
			return
		}
		chosen[path] = why{prio, reason}
	}
	for _, e := range ents {
		if e.Decl.Context == knowledge.ContextAlways {
			consider(e.Path, 300, "context: always")
		}
	}
	for _, t := range a.dueThreads(ents) {
		consider(t.path, t.prio, t.reason)
	}
	for i, r := range a.intent.Named {
		consider(r.Path, 200+float64(r.Count)-float64(i)/100, fmt.Sprintf("named in the prompt as %q", r.Found))
	}
	for i, r := range a.intent.Described {
		consider(r.Path, 150-float64(i), fmt.Sprintf("described in the prompt (%s)", r.Found))
	}
	for i, r := range a.refinedEntities() {
		consider(r.Path, 120-float64(i)/100, fmt.Sprintf("named by the model's reading of the prompt (%q)", r.Found))
	}
	for i, r := range a.intent.Upstream {
		consider(r.Path, 100-float64(i)/100, fmt.Sprintf("named in an upstream output as %q", r.Found))
	}
	var direct []string
	for p, c := range chosen {
		if c.prio >= 0 {
			direct = append(direct, p)
		}
	}
	slices.Sort(direct)
	profiles := map[string][]*Profile{}
	for _, pr := range a.snap.Profiles() {
		if pr.About != "" {
			profiles[pr.About] = append(profiles[pr.About], pr)
		}
	}
	for _, p := range direct {
		c := chosen[p]
		e := byPath[p]
		a.add(&item{cat: catEntity, path: p, reason: c.reason, prio: c.prio, text: entityLevels(e, w, byRes),
			def: 1, stale: e.Stale, core: true})
		for _, pr := range profiles[e.Decl.Resource] {
			if pr.Reveal > w {
				a.dropped = append(a.dropped, Source{Path: pr.Path, Level: "L1", Reason: "profile of " + e.Decl.Name,
					Why: fmt.Sprintf("not revealed until chapter %d (reveal: %d)", pr.Reveal, pr.Reveal)})
				continue
			}
			a.add(&item{cat: catEntity, path: pr.Path, reason: "profile of " + e.Decl.Name, prio: c.prio - 0.5,
				text: [3]string{pr.L0, pr.L1, pr.L2}, def: 1, stale: pr.Stale, core: true, hash: pr.Hash})
		}
	}
	// One-hop relations at L0.
	type rel struct {
		to     string
		reason string
		prio   float64
	}
	var rels []rel
	for _, p := range direct {
		e := byPath[p]
		for _, r := range e.Decl.Relations {
			t := byRes[strings.TrimSuffix(r.To, ".md")]
			if t == nil {
				continue
			}
			if _, ok := chosen[t.Path]; ok {
				continue
			}
			rels = append(rels, rel{t.Path, fmt.Sprintf("%s of %s", r.Kind, e.Decl.Name), chosen[p].prio / 10})
		}
	}
	slices.SortStableFunc(rels, func(x, y rel) int { return cmp.Compare(y.prio, x.prio) })
	for _, r := range rels {
		if _, ok := chosen[r.to]; ok {
			continue
		}
		e := byPath[r.to]
		if e.Decl.Context == knowledge.ContextNever || !e.Decl.Visible(w) {
			chosen[r.to] = why{-1, ""}
			continue
		}
		chosen[r.to] = why{r.prio, r.reason}
		// Relations come after the best chapters are deepened: who is
		// whose aunt matters less than the scene the prompt asks about.
		a.add(&item{cat: catEntity, path: r.to, reason: "related: " + r.reason, prio: r.prio,
			text: entityLevels(e, w, byRes), def: 0, stale: e.Stale})
	}
}

// entityLevels renders an entity as of chapter w: L0 one line, L1 facts,
// relations and the first paragraph of the description, L2 all of it.
func entityLevels(e *Entity, w int, byRes map[string]*Entity) [3]string {
	d := e.Decl
	var head strings.Builder
	head.WriteString(d.Name)
	if len(d.Aliases) > 0 {
		head.WriteString(" (also " + strings.Join(d.Aliases, ", ") + ")")
	}
	if d.Kind != "" {
		head.WriteString(" — " + d.Kind)
	}
	facts := d.FactsAsOf(w)
	keys := make([]string, 0, len(facts))
	for k := range facts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var fb strings.Builder
	if len(keys) > 0 {
		fmt.Fprintf(&fb, "\nFacts as of chapter %d: ", w)
		for i, k := range keys {
			if i > 0 {
				fb.WriteString("; ")
			}
			fb.WriteString(strings.ReplaceAll(k, "_", " ") + ": " + facts[k])
		}
		fb.WriteString(".")
	}
	var rb strings.Builder
	for _, r := range d.Relations {
		name := r.To
		if t := byRes[strings.TrimSuffix(r.To, ".md")]; t != nil {
			if !t.Decl.Visible(w) {
				continue
			}
			name = t.Decl.Name
		}
		if rb.Len() == 0 {
			rb.WriteString("\nRelations: ")
		} else {
			rb.WriteString("; ")
		}
		rb.WriteString(r.Kind + ": " + name)
	}
	desc := strings.TrimSpace(d.Description)
	first, _, _ := strings.Cut(desc, "\n\n")
	l0 := head.String()
	if s := firstSentence(first); s != "" {
		l0 += ". " + s
	}
	l1 := head.String() + fb.String() + rb.String()
	l2 := l1
	if first != "" {
		l1 += "\n" + strings.TrimSpace(first)
	}
	if desc != "" {
		l2 += "\n" + desc
	}
	return [3]string{l0, l1, l2}
}

func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	for i, r := range s {
		if strings.ContainsRune(".!?。！？", r) {
			// "Mr." and the like are not sentence ends.
			if r == '.' && i >= 2 && (strings.HasSuffix(s[:i], "Mr") || strings.HasSuffix(s[:i], "Mrs") || strings.HasSuffix(s[:i], "St")) {
				continue
			}
			return s[:i+len(string(r))]
		}
	}
	return s
}

// collectManuscript adds the previous chapter and what the lexical search
// finds among the chapters before the one being written.
func (a *assembly) collectManuscript(n Node) {
	w := a.chapter
	// The chapters before w: a prefix of the chapters, which are sorted
	// by number (capped: nothing appends to the snapshot's array).
	all := a.snap.Chapters()
	nBefore := sort.Search(len(all), func(i int) bool { return all[i].Number >= w })
	chs := all[:nBefore:nBefore]
	if len(chs) == 0 {
		return
	}
	// before looks a chapter before w up by its path.
	before := func(p string) *Chapter {
		if c := a.snap.ChapterByPath(p); c != nil && c.Number < w {
			return c
		}
		return nil
	}
	// The latest chapter before the one being written is its previous
	// chapter, across a gap in the numbering too (a chapter cut, or not
	// yet imported).
	prev := chs[len(chs)-1]
	{
		a.add(&item{cat: catManuscript, path: prev.Path, reason: "previous chapter", prio: 1000,
			text: [3]string{prev.L0, prev.L1, prev.L2}, def: 1, stale: prev.Stale, core: true, chapter: prev.Number, hash: prev.Hash})
	}

	an := a.snap.Analyzer()
	// The author's words count fully; names of entities found through a
	// description, and words of upstream outputs, count for less.
	var q []string
	surface := map[string]string{} // a term's first spelling in the prompt, for reasons
	for _, t := range an.Tokens(n.Text) {
		if textsearch.IsGrammaticalPair(t.Term) {
			continue
		}
		q = append(q, t.Term)
		if _, ok := surface[t.Term]; !ok {
			surface[t.Term] = n.Text[t.Start:t.End]
		}
	}
	weights := map[string]float64{}
	instr := instructionTerms(an)
	for _, t := range q {
		if instr[t] {
			weights[t] += instructionWeight
			continue
		}
		weights[t]++
	}
	for _, r := range a.intent.Described {
		for _, e := range a.snap.Entities() {
			if e.Path == r.Path {
				for _, t := range nameTerms(an, e.Decl) {
					weights[t] = max(weights[t], expansionWeight)
				}
			}
		}
	}
	q = a.addRefinedTerms(weights, q)
	var up []string
	for _, u := range n.Upstream {
		up = an.AppendTerms(up, u)
		if len(up) > maxUpstreamLen {
			up = up[:maxUpstreamLen]
			break
		}
	}
	up = slices.DeleteFunc(up, textsearch.IsGrammaticalPair)
	for _, t := range up {
		weights[t] += upstreamWeight
	}
	q = append(q, up...)
	if len(weights) == 0 && a.sem == nil {
		return
	}

	// Arc-first: in a long work, rank the arcs first and search
	// only the chapters of the best arcs (and of the latest one), and
	// the chapters the search of the whole book ranks best. An arc is
	// thirty chapters read as one text, where a scene asked for from far
	// ahead weighs little: War and Peace (365 chapters) lost to plain
	// search over whole chapters on scenes of its first arcs asked from
	// its last (queries written apart from the code: 25 against 29 of
	// 30 at 24k; 28 with these chapters in scope).
	var inScope map[string]*Chapter
	if len(chs) <= arcFirstAbove {
		inScope = make(map[string]*Chapter, len(chs))
		for _, c := range chs {
			inScope[c.Path] = c
		}
	} else {
		keep := map[int]bool{}
		for _, h := range a.snap.SearchArcs(weights, arcsScanned) {
			for _, arc := range a.snap.Arcs() {
				if arc.Path == h.ID {
					keep[arc.Number] = true
				}
			}
		}
		for _, arc := range a.snap.Arcs() {
			if prev.Number >= arc.First && prev.Number <= arc.Last {
				keep[arc.Number] = true
			}
		}
		if a.sem != nil {
			// The arcs of the chapters closest in meaning are read too.
			for _, p := range a.sem.scopeChapters(chs, arcsScanned) {
				for _, arc := range a.snap.Arcs() {
					if n := before(p).Number; n >= arc.First && n <= arc.Last {
						keep[arc.Number] = true
					}
				}
			}
		}
		inScope = map[string]*Chapter{}
		for _, h := range a.snap.ChapterIndex().SearchWeighted(weights, maxChapters, func(id string) bool {
			return before(id) != nil
		}) {
			inScope[h.ID] = before(h.ID)
		}
		for _, arc := range a.snap.Arcs() {
			if !keep[arc.Number] {
				continue
			}
			for _, c := range chs {
				if c.Number >= arc.First && c.Number <= arc.Last {
					inScope[c.Path] = c
				}
			}
		}
	}
	chHits := a.snap.ChapterIndex().SearchWeighted(weights, 0, func(id string) bool {
		return inScope[id] != nil
	})
	psHits := a.snap.PassageIndex().SearchWeighted(weights, passagesRanked, func(id string) bool {
		i := strings.LastIndexByte(id, '#')
		return i > 0 && inScope[id[:i]] != nil
	})
	if len(chHits) == 0 && len(psHits) == 0 && a.sem == nil {
		return
	}
	norm := func(hs []textsearch.Hit) map[string]float64 {
		m := map[string]float64{}
		if len(hs) == 0 {
			return m
		}
		top := hs[0].Score
		for _, h := range hs {
			m[h.ID] = h.Score / top
		}
		return m
	}
	cs := norm(chHits)
	ps := norm(psHits)
	bestP := map[string]float64{}
	for _, h := range psHits {
		p, _, _, _ := ParsePassageID(h.ID)
		bestP[p] = math.Max(bestP[p], ps[h.ID])
	}
	// The chapters with a score: those of a hit, each once.
	var chRank []scored
	for p := range cs {
		if s := cs[p] + bestP[p]; s > 0 {
			chRank = append(chRank, scored{p, s})
		}
	}
	for p := range bestP {
		if _, ok := cs[p]; !ok && bestP[p] > 0 {
			chRank = append(chRank, scored{p, bestP[p]})
		}
	}
	slices.SortFunc(chRank, func(x, y scored) int {
		if c := cmp.Compare(y.score, x.score); c != 0 {
			return c
		}
		return cmp.Compare(x.id, y.id)
	})
	var pRank []scored
	for _, h := range psHits {
		p, _, _, _ := ParsePassageID(h.ID)
		pRank = append(pRank, scored{h.ID, ps[h.ID] + passageChapterWeight*cs[p]})
	}
	slices.SortFunc(pRank, func(x, y scored) int {
		if c := cmp.Compare(y.score, x.score); c != 0 {
			return c
		}
		return cmp.Compare(x.id, y.id)
	})
	var sr *semanticRanks
	if a.sem != nil {
		chRank, pRank, sr = a.sem.fuse(inScope, chRank, pRank)
	}

	for r, s := range chRank {
		if r == maxChapters {
			break
		}
		c := before(s.id)
		if c == prev {
			continue
		}
		// Only the best chapter enters at L1: the others' L0 says what
		// they hold, and the tokens an L1 would take buy their passages.
		def := 0
		if r == 0 {
			def = 1
		}
		a.add(&item{cat: catManuscript, path: c.Path, prio: 900 - 10*float64(r) - 5,
			reason: sr.chapterReason(c.Path, fmt.Sprintf("search rank %d in chapters before %d", r+1, w)),
			text:   [3]string{c.L0, c.L1, c.L2}, def: def, stale: c.Stale, core: r < coreChapters, chapter: c.Number, hash: c.Hash})
	}
	added := map[string]bool{}
	addPassage := func(id string, rank int, prio float64, core bool, reason string) {
		if added[id] {
			return
		}
		p, s, e, ok := ParsePassageID(id)
		c := before(p)
		if !ok || c == nil || e > len(c.L2) {
			return
		}
		added[id] = true
		text := c.L2[s:e]
		if reason == "" {
			reason = sr.passageReason(id, rank, c.Number, func() string {
				return fmt.Sprintf("passage rank %d: matched %s in chapter %d", rank, matchedWords(q, surface, id, a.snap.PassageIndex()), c.Number)
			})
		}
		a.add(&item{cat: catManuscript, path: c.Path, part: fmt.Sprintf("bytes %d-%d", s, e), prio: prio,
			reason: reason, text: [3]string{"", "", text}, def: 2, core: core,
			chapter: c.Number, start: s, parentPath: c.Path, hash: c.Hash})
	}
	// What a prompt asks about is mostly in the best chapters, and within
	// them often in a passage that matched less well than another
	// chapter's best: each best chapter's own best passages are read in
	// the breadth pass, besides the best passages overall.
	own := map[string]int{}
	for _, s := range chRank[:min(bestChapters, len(chRank))] {
		own[s.id] = bestPassages
	}
	for r, s := range pRank {
		if r == maxPassages {
			break
		}
		prio := 900 - 10*float64(r)
		p, _, _, _ := ParsePassageID(s.id)
		core := r < corePassages || own[p] > 0
		if own[p] > 0 {
			own[p]--
		}
		addPassage(s.id, r+1, prio, core, "")
		if r < neighbourOf {
			_, st, _, _ := ParsePassageID(s.id)
			c := before(p)
			for i, ps := range c.Passages {
				if ps.Start != st {
					continue
				}
				for _, j := range []int{i - 1, i + 1} {
					if j >= 0 && j < len(c.Passages) {
						nb := c.Passages[j]
						// The best passage's neighbours are its scene: read
						// with the breadth pass.
						addPassage(PassageID(c.Path, nb.Start, nb.End), 0, prio-0.5, r == 0,
							fmt.Sprintf("next to a matched passage in chapter %d", c.Number))
					}
				}
			}
		}
	}
}

// matchedWords quotes the prompt's rarest words that passage id holds,
// as the prompt writes them (surface maps a term to its first spelling
// there). The passage index says which terms a passage holds: the text
// is not analysed again for each passage.
func matchedWords(q []string, surface map[string]string, id string, x *textsearch.Index) string {
	terms := x.Holding(id, q)
	slices.SortStableFunc(terms, func(a, b string) int { return cmp.Compare(x.IDF(b), x.IDF(a)) })
	var out []string
	for i, t := range terms {
		if i == 3 {
			break
		}
		out = append(out, fmt.Sprintf("%q", surface[t]))
	}
	if len(out) == 0 {
		return "the prompt"
	}
	return strings.Join(out, ", ")
}

// collectSummaries adds the arcs before the chapter being written and the
// full-work summaries, never anything that covers later chapters.
func (a *assembly) collectSummaries() {
	w := a.chapter
	chs := a.snap.Chapters()
	// In a long work the earlier arcs would crowd their share: all but
	// the latest recentArcs are read as volumes of volumeArcs arcs.
	var earlier []*Arc
	for _, arc := range a.snap.Arcs() {
		if arc.Last < w && (w-1 < arc.First || w-1 > arc.Last) {
			earlier = append(earlier, arc)
		}
	}
	inVolume := map[*Arc]bool{}
	if len(earlier) > recentArcs {
		old := earlier[:len(earlier)-recentArcs]
		for i := 0; i < len(old); i += volumeArcs {
			vol := old[i:min(len(old), i+volumeArcs)]
			a.addVolume(i/volumeArcs+1, vol)
			for _, arc := range vol {
				inVolume[arc] = true
			}
		}
	}
	for _, arc := range a.snap.Arcs() {
		if inVolume[arc] {
			continue
		}
		if arc.First >= w {
			continue
		}
		l0, l1 := arc.L0, arc.L1
		if arc.Last >= w {
			if !arc.Extractive {
				continue // a written arc summary may tell what happens next
			}
			// An extractive arc is its chapters' L0s: keep those before w.
			var parts []string
			for _, c := range chs {
				if c.Number >= arc.First && c.Number < w && c.Number <= arc.Last {
					parts = append(parts, c.L0)
				}
			}
			if len(parts) == 0 {
				continue
			}
			l0, l1 = parts[0], strings.Join(parts, "\n")
		}
		cur := w-1 >= arc.First && w-1 <= arc.Last
		it := &item{cat: catSummary, path: arc.Path, text: [3]string{l0, l1, ""}, stale: arc.Stale, core: true,
			chapter: arc.First}
		if cur {
			it.def, it.prio, it.reason = 1, 100, "arc of the previous chapter"
		} else {
			it.def, it.prio, it.reason = 0, 50-float64(arc.Number)/100, fmt.Sprintf("earlier arc (chapters %d-%d)", arc.First, arc.Last)
		}
		if arc.Derived {
			it.reason += " (no arc file: its chapters' L0)"
		}
		a.add(it)
	}
	last := 0
	if len(chs) > 0 {
		last = chs[len(chs)-1].Number
	}
	if last < w {
		for _, r := range a.snap.Summaries() {
			a.add(&item{cat: catSummary, path: r.Path, reason: "full-work summary", prio: 80,
				text: [3]string{r.L0, r.L1, r.L2}, def: 1, stale: r.Stale, core: true, hash: r.Hash})
		}
	}
}

// instructionWords are how authors address the model ("have Elizabeth
// recall…", "remind the reader…", "写…", "回想…"): they say what to do
// with the story, not what happened in it, so they count little in the
// manuscript search.
const instructionWords = `write writing rewrite draft scene chapter reader readers remind reminds recall recalls
remember remembers recollect recollects bring back have let show shows make story narrate narrator describe
describes depict mention mentions earlier later late again once moment time
写 描写 描述 回想 想起 记得 本章 这一章 章节 读者 提醒 场景 重提 回忆`

func instructionTerms(an *textsearch.Analyzer) map[string]bool {
	m := map[string]bool{}
	for _, t := range an.Terms(instructionWords) {
		m[t] = true
	}
	return m
}

// Arcs of arcs: the arcs before the latest recentArcs are read in volumes
// of volumeArcs (300 chapters of ArcSpan), so that at 3,000 chapters the
// earlier arcs are 19 items rather than 100 and stay within their share.
const (
	recentArcs = 10
	volumeArcs = 10
)

// addVolume adds the n-th volume of earlier arcs: at L0 its first arc's
// L0, at L1 the L0s of its arcs, as an arc without a file is its
// chapters' L0s.
func (a *assembly) addVolume(n int, arcs []*Arc) {
	var l0s []string
	stale := false
	for _, arc := range arcs {
		if arc.L0 != "" {
			l0s = append(l0s, arc.L0)
		}
		stale = stale || arc.Stale
	}
	if len(l0s) == 0 {
		return
	}
	first, last := arcs[0], arcs[len(arcs)-1]
	a.add(&item{cat: catSummary, path: fmt.Sprintf("summaries/volume-%d.md", n), text: [3]string{l0s[0], strings.Join(l0s, "\n"), ""},
		stale: stale, core: true, chapter: first.First, def: 0, prio: 50 - float64(first.Number)/100,
		reason: fmt.Sprintf("earlier arcs %d-%d (chapters %d-%d), as one volume: its arcs' L0", first.Number, last.Number, first.First, last.Last)})
}
