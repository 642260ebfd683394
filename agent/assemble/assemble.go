// Package assemble is Role A: it decides what of the project a node's
// model must see, within a token budget, and says why. Assemble is a pure
// function of a node and a project [Snapshot]: the same inputs give
// byte-identical context, sources and hash. It never writes.
//
// The assembly analyses the node's intent (the chapter being written, the
// entities named, aliased or described in its text and upstream outputs),
// collects candidates in four categories (meta documents; entities with
// their facts as of the chapter and their one-hop relations; the
// manuscript: the previous chapter and the chapters and passages a
// lexical search finds; arc and full-work summaries), fills the budget
// breadth-first with per-category shares, deepens the best items with
// what is left, and steps an item down a level (L2 → L1 → L0) rather than
// cutting it mid-text.
//
// When the project configures an embedding model, similarity of meaning
// joins the lexical search of the manuscript by reciprocal-rank fusion
// (embed.go). The vectors are an input like the snapshot: computed ahead,
// cached by model and content hash ([Embedding]), and given in
// [Options.Semantic], so Assemble stays pure; without them, or when the
// endpoint failed, the search is lexical and [Context.Notes] says so.
// Likewise the agent model's reading of the prompt ([Refiner], refine.go)
// may add entities, threads and locations to the deterministic intent,
// given in [Options.Refinement] and cached by the hash of its input.
package assemble

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// A Node is what Role A needs to know of a workflow node.
type Node struct {
	// ID names the node, for messages.
	ID string
	// Text is the node's own prompt text.
	Text string
	// Upstream are the resolved outputs of the nodes it references.
	Upstream []string
	// Chapter is the chapter the node writes, when the workflow says so.
	Chapter int
	// PersistTarget is the node's persist target, if any
	// ("manuscript/chapter-12").
	PersistTarget string
	// Budget is the node's token budget; 0 uses Options.Budget.
	Budget int
}

// Shares are the parts of the budget each category may fill before the
// others have had their turn. They need not sum to one: what a category
// leaves unused goes to the others.
type Shares struct {
	Meta, Entities, Manuscript, Summaries float64
}

// DefaultShares suit a prose chapter: the manuscript matters most.
var DefaultShares = Shares{Meta: 0.10, Entities: 0.20, Manuscript: 0.60, Summaries: 0.10}

// wideBudget is the budget step that reads one more chapter whole.
const wideBudget = 8000

// DefaultBudget is the budget when neither the node nor the options set one.
const DefaultBudget = 8000

// Options tune an assembly. The zero value uses the defaults.
type Options struct {
	// Budget applies when the node has none (the workflow's, else the
	// project's budget).
	Budget int
	// Shares override DefaultShares; a zero share takes the default.
	Shares Shares
	// Semantic, when set, blends similarity of meaning into the
	// manuscript search (see embed.go); nil searches lexically.
	Semantic *Semantic
	// Refinement, when set, is the agent model's reading of the prompt
	// (see refine.go): entities, threads and locations it adds to the
	// deterministic analysis.
	Refinement *Refinement
	// ThreadWindow is how many chapters ahead an open plot thread's due
	// chapter brings it into the context; 0 means
	// knowledge.DefaultThreadWindow.
	ThreadWindow int
}

// A Source is one item of the context, or one considered and dropped.
type Source struct {
	// Path is the project file the text comes from.
	Path string `json:"path"`
	// Level is "L0", "L1" or "L2".
	Level string `json:"level"`
	// Part narrows an L2 to a passage: "bytes 1200-2450" of the file's body.
	Part string `json:"part,omitempty"`
	// Reason says why it was chosen.
	Reason string `json:"reason"`
	// Tokens is what it costs, heading included.
	Tokens int `json:"tokens"`
	// Stale says the level is out of date with the text.
	Stale bool `json:"stale,omitempty"`
	// Why says why a dropped item was left out.
	Why string `json:"why,omitempty"`
}

// Context is the result of an assembly.
type Context struct {
	// Hash identifies the context: equal hashes, equal bytes.
	Hash string `json:"hash"`
	// Budget is the budget the assembly respected; Tokens what it used.
	Budget int `json:"budget"`
	Tokens int `json:"tokens"`
	// Chapter is the chapter the node was taken to write.
	Chapter int `json:"chapter"`
	// SystemPrefix goes before the node's system text; UserSuffix after
	// its user text.
	SystemPrefix string `json:"system_prefix"`
	UserSuffix   string `json:"user_suffix"`
	// Sources are the items injected, in the order they appear.
	Sources []Source `json:"sources"`
	// Dropped are items considered and left out, with why.
	Dropped []Source `json:"dropped"`
	// Notes say how the context was assembled where it matters to the
	// author: embeddings used, or unavailable and the search lexical.
	Notes []string `json:"notes,omitempty"`
	// Intent is what the assembly understood of the node.
	Intent Intent `json:"-"`
}

type category int

const (
	catMeta category = iota
	catEntity
	catManuscript
	catSummary
)

var levelNames = [3]string{"L0", "L1", "L2"}

// An item is a candidate for the context.
type item struct {
	cat    category
	path   string
	part   string // passage span
	reason string
	prio   float64
	text   [3]string // by level; "" when the level does not exist
	def    int       // level it enters at
	level  int       // chosen level, -1 when out
	stale  bool
	hash   string // content hash of the resource, "" when text is rendered per node
	core   bool   // filled before deepening; the others after
	why    string

	chapter    int // manuscript order
	start      int
	parentPath string // a passage's chapter
	cost       [3]int
}

func (it *item) maxLevel() int {
	for l := 2; l >= 0; l-- {
		if it.text[l] != "" {
			return l
		}
	}
	return -1
}

// Assemble builds the context for node n from snap.
func Assemble(n Node, snap Snapshot, opt Options) (*Context, error) {
	budget := n.Budget
	if budget <= 0 {
		budget = opt.Budget
	}
	if budget <= 0 {
		budget = DefaultBudget
	}
	// A share the project leaves unset takes its default.
	shares := opt.Shares
	for _, f := range []struct{ v, d *float64 }{{&shares.Meta, &DefaultShares.Meta}, {&shares.Entities, &DefaultShares.Entities},
		{&shares.Manuscript, &DefaultShares.Manuscript}, {&shares.Summaries, &DefaultShares.Summaries}} {
		if *f.v <= 0 {
			*f.v = *f.d
		}
	}
	chapter, from := chapterOf(n, snap)
	in := analyze(n, snap, chapter)
	in.ChapterFrom = from

	a := &assembly{snap: snap, budget: budget, chapter: chapter, intent: in, threadWindow: opt.ThreadWindow}
	if sem, note := semanticOf(opt.Semantic); sem != nil {
		a.sem = sem
		a.notes = append(a.notes, sem.note())
	} else if note != "" {
		a.notes = append(a.notes, note)
	}
	if rf, note := refinedOf(opt.Refinement, snap); note != "" {
		a.refined = rf
		a.notes = append(a.notes, note)
	}
	a.collectMeta()
	a.collectEntities()
	a.collectManuscript(n)
	a.collectSummaries()
	a.fill(shares)
	return a.render(), nil
}

type assembly struct {
	snap    Snapshot
	budget  int
	chapter int
	intent  Intent
	items   []*item
	dropped []Source
	used    int
	sem     *semantic // nil: lexical search only
	refined *refined  // nil: no model's reading
	notes   []string
	// threadWindow is Options.ThreadWindow.
	threadWindow int
}

func (a *assembly) add(it *item) {
	if it.maxLevel() < 0 {
		return // nothing to show at any level
	}
	it.level = -1
	a.items = append(a.items, it)
}

const (
	knowledgeTitle  = "# Project knowledge\n\n"
	manuscriptTitle = "# Story so far\n\n"
)

func (it *item) header(level int) string {
	h := "## " + it.path + " · " + levelNames[level]
	if it.part != "" {
		h += " · " + it.part
	}
	return h + "\n"
}

// costAt is the exact token cost of the item's block at level.
func (a *assembly) costAt(it *item, level int) int {
	if it.cost[level] == 0 {
		key := ""
		if it.hash != "" && level == 2 { // L0/L1 may come from a model: hash their text
			key = CountKey(it.hash, levelNames[level], it.part)
		}
		body, ok := 0, false
		if cc, can := a.snap.(cachedCounter); can && key != "" {
			body, ok = cc.CachedTokens(key)
		}
		if !ok {
			body = a.snap.Tokens(key, InjectedText(it.text[level]))
		}
		it.cost[level] = a.snap.Tokens("", it.header(level)) + body
	}
	return it.cost[level]
}

// cachedCounter is a Snapshot that can give a count it memoised by key
// without the text: costAt then need not copy a whole chapter to look
// its count up.
type cachedCounter interface {
	CachedTokens(key string) (int, bool)
}

// fill chooses the level of every item.
func (a *assembly) fill(sh Shares) {
	titleCost := a.snap.Tokens("", knowledgeTitle) + a.snap.Tokens("", manuscriptTitle)
	remaining := a.budget - titleCost
	if remaining < 0 {
		remaining = 0
	}
	share := map[category]int{
		catMeta:       int(sh.Meta * float64(a.budget)),
		catEntity:     int(sh.Entities * float64(a.budget)),
		catManuscript: int(sh.Manuscript * float64(a.budget)),
		catSummary:    int(sh.Summaries * float64(a.budget)),
	}
	usedBy := map[category]int{}
	// Order: category, then priority, then path: deterministic.
	slices.SortStableFunc(a.items, func(x, y *item) int {
		if c := cmp.Compare(x.cat, y.cat); c != 0 {
			return c
		}
		if c := cmp.Compare(y.prio, x.prio); c != 0 {
			return c
		}
		if c := cmp.Compare(x.path, y.path); c != 0 {
			return c
		}
		return cmp.Compare(x.start, y.start)
	})
	place := func(it *item, top, allow int) bool {
		for l := top; l >= 0; l-- {
			if it.text[l] == "" {
				continue
			}
			if c := a.costAt(it, l); c <= allow {
				it.level = l
				remaining -= c
				usedBy[it.cat] += c
				return true
			}
		}
		return false
	}
	// 1. Breadth: core items at their default level, within shares.
	for _, it := range a.items {
		if !it.core {
			continue
		}
		allow := min(share[it.cat]-usedBy[it.cat], remaining)
		place(it, it.def, allow)
	}
	// 2. Core items that did not fit their share, from what is left.
	for _, it := range a.items {
		if it.core && it.level < 0 {
			place(it, it.def, remaining)
		}
	}
	// 3. Deepen: the best chapters go up a level while the budget lasts.
	// It returns the manuscript chapters that stayed below L2.
	deepen := func(its []*item, keep int) (short []*item) {
		for _, it := range its {
			if it.level < 0 {
				continue
			}
			for l := it.maxLevel(); l > it.level; l-- {
				if it.text[l] == "" {
					continue
				}
				extra := a.costAt(it, l) - a.costAt(it, it.level)
				refund := 0
				if l == 2 && it.cat == catManuscript && it.part == "" {
					refund = a.passageCost(it.path)
				}
				room := remaining
				if l == 2 {
					room -= keep
				}
				if extra-refund <= room {
					remaining -= extra
					usedBy[it.cat] += extra
					it.level = l
					if refund > 0 {
						remaining += a.dropPassages(it.path)
					}
					break
				}
			}
			if it.cat == catManuscript && it.part == "" && it.level < 2 {
				short = append(short, it)
			}
		}
		return short
	}
	// The best chapters that cannot be read whole have the scene around
	// their best passage read instead: a passage on each side of each in
	// turn, so that one does not take what the other needed.
	widen := func(its []*item) {
		var scenes []*scene
		for _, it := range its {
			if sc := a.sceneOf(it); sc != nil {
				scenes = append(scenes, sc)
			}
		}
		for range widenRounds {
			for _, sc := range scenes {
				n := sc.grow(remaining)
				remaining -= n
				usedBy[catManuscript] += n
			}
		}
	}
	// The chapters read whole beyond the best two leave part of the
	// budget to the passages and summaries of the others: where chapters
	// are long, reading one more whole would otherwise take what a dozen
	// of the others' summaries need.
	keep := int(breadthReserve * float64(a.budget))
	first, more, later := a.deepenOrder()
	short := deepen(first, 0)
	widen(append(short, deepen(more, keep)...))
	// 4. The rest, in priority order, while anything fits.
	for _, it := range a.items {
		if !it.core && it.level < 0 && !a.coveredByChapter(it) {
			place(it, it.def, remaining)
		}
	}
	// 5. Then the knowledge and the other chapters go up a level. The
	// order is taken again: chapters placed in step 4 are candidates too.
	first, more, later = a.deepenOrder()
	deepen(first, 0)
	deepen(more, keep)
	deepen(later, 0)
	for _, it := range a.items {
		if it.level < 0 && it.why == "" {
			l := it.maxLevel()
			if it.def < l {
				l = it.def
			}
			lo := l
			for k := 0; k <= l; k++ {
				if it.text[k] != "" {
					lo = k
					break
				}
			}
			if a.coveredByChapter(it) {
				it.why = "its chapter is injected whole"
			} else {
				it.why = fmt.Sprintf("over budget: needs %d tokens at %s, %d left", a.costAt(it, lo), levelNames[lo], remaining)
			}
		}
	}
	a.used = a.budget - titleCost - remaining
}

// breadthReserve is the part of the budget that reading more chapters
// whole, beyond the best two, must leave unspent.
const breadthReserve = 0.15

// widenRounds bounds how far a scene grows: this many passages on each
// side of the best matched passage's run.
const widenRounds = 2

// A scene is the run of injected passages around the best passage of a
// chapter too large to read whole. What a prompt asks about is often
// said just before or after the words it shares with the text: the whole
// scene of a best chapter serves the model better than more scattered
// matches elsewhere.
type scene struct {
	a      *assembly
	it     *item // the chapter
	c      *Chapter
	at     map[int]*item // passage items by index in c.Passages
	lo, hi int           // the run, inclusive
}

// sceneOf returns the scene of chapter it, or nil when none of its
// passages is injected.
func (a *assembly) sceneOf(it *item) *scene {
	var c *Chapter
	for _, x := range a.snap.Chapters() {
		if x.Path == it.path {
			c = x
			break
		}
	}
	if c == nil || len(c.Passages) == 0 {
		return nil
	}
	index := make(map[int]int, len(c.Passages)) // passage start -> index
	for i, p := range c.Passages {
		index[p.Start] = i
	}
	sc := &scene{a: a, it: it, c: c, at: map[int]*item{}}
	var best *item
	for _, x := range a.items {
		i, ok := index[x.start]
		if x.parentPath != c.Path || x.part == "" || !ok {
			continue
		}
		sc.at[i] = x
		if x.level >= 0 && (best == nil || x.prio > best.prio || x.prio == best.prio && x.start < best.start) {
			best = x
		}
	}
	if best == nil {
		return nil
	}
	sc.lo, sc.hi = index[best.start], index[best.start]
	sc.extend()
	return sc
}

func (sc *scene) in(i int) bool { x := sc.at[i]; return x != nil && x.level >= 0 }

// extend takes in the injected passages next to the run.
func (sc *scene) extend() {
	for sc.lo > 0 && sc.in(sc.lo-1) {
		sc.lo--
	}
	for sc.hi+1 < len(sc.c.Passages) && sc.in(sc.hi+1) {
		sc.hi++
	}
}

// grow adds the passage on each side of the run while it fits in room
// and returns the tokens taken.
func (sc *scene) grow(room int) int {
	used := 0
	take := func(i int) bool {
		p := sc.c.Passages[i]
		if p.End > len(sc.c.L2) {
			return false
		}
		x := sc.at[i]
		if x == nil {
			x = &item{cat: catManuscript, path: sc.c.Path, part: fmt.Sprintf("bytes %d-%d", p.Start, p.End), prio: sc.it.prio - 1,
				reason: fmt.Sprintf("the scene around a matched passage in chapter %d", sc.c.Number),
				text:   [3]string{"", "", sc.c.L2[p.Start:p.End]}, def: 2, chapter: sc.c.Number, start: p.Start,
				parentPath: sc.c.Path, hash: sc.c.Hash}
			sc.a.add(x)
			sc.at[i] = x
		}
		cost := sc.a.costAt(x, 2)
		if used+cost > room {
			return false
		}
		x.level, x.why = 2, ""
		used += cost
		return true
	}
	if sc.lo > 0 && take(sc.lo-1) {
		sc.lo--
	}
	if sc.hi+1 < len(sc.c.Passages) && take(sc.hi+1) {
		sc.hi++
	}
	sc.extend()
	return used
}

// passageCost is the cost of the injected passages of chapter path.
func (a *assembly) passageCost(path string) int {
	n := 0
	for _, it := range a.items {
		if it.parentPath == path && it.level >= 0 {
			n += a.costAt(it, it.level)
		}
	}
	return n
}

// dropPassages takes out the passages of chapter path (now injected
// whole) and returns the tokens freed.
func (a *assembly) dropPassages(path string) int {
	n := 0
	for _, it := range a.items {
		if it.parentPath == path && it.level >= 0 {
			n += a.costAt(it, it.level)
			it.level = -1
			it.why = "its chapter is injected whole"
		}
	}
	return n
}

func (a *assembly) coveredByChapter(it *item) bool {
	if it.parentPath == "" {
		return false
	}
	for _, c := range a.items {
		if c.path == it.parentPath && c.part == "" && c.level == 2 {
			return true
		}
	}
	return false
}

// deepenOrder lists the items worth a higher level, best first: first
// the two best chapters, then the previous chapter unless it is one of
// them; more: the next best chapters at larger budgets (deepened before
// the extra passages, within breadthReserve); later the named entities,
// the meta documents and the other chapters (after them). A chapter is the better for reading
// whole when both it and one of its passages rank well: the chapters go
// by the sum of the two ranks, the previous chapter's taken as first
// among chapters.
func (a *assembly) deepenOrder() (first, more, later []*item) {
	var prev, search, ents, meta, rest []*item
	for _, it := range a.items {
		if it.level < 0 || it.level >= it.maxLevel() || it.part != "" {
			continue
		}
		switch {
		case it.cat == catManuscript && it.chapter == a.chapter-1 && strings.HasPrefix(it.reason, "previous"):
			prev = append(prev, it)
		case it.cat == catManuscript:
			search = append(search, it)
		case it.cat == catEntity && it.def >= 1:
			ents = append(ents, it)
		case it.cat == catMeta:
			meta = append(meta, it)
		default:
			rest = append(rest, it)
		}
	}
	slices.SortStableFunc(search, func(x, y *item) int { return cmp.Compare(y.prio, x.prio) })
	// A chapter is read whole first when both it and one of its passages
	// rank well: the sum of its rank among chapters and its best passage's
	// rank among passages orders them (ties keep the chapters' order).
	pRank := map[string]int{}
	var passages []*item
	for _, it := range a.items {
		if it.cat == catManuscript && it.part != "" && it.parentPath != "" && strings.HasPrefix(it.reason, "passage rank") {
			passages = append(passages, it)
		}
	}
	slices.SortStableFunc(passages, func(x, y *item) int { return cmp.Compare(y.prio, x.prio) })
	for r, it := range passages {
		if _, ok := pRank[it.parentPath]; !ok {
			pRank[it.parentPath] = r + 1
		}
	}
	key := func(r int, it *item) int {
		p, ok := pRank[it.path]
		if !ok {
			p = len(passages) + 1
		}
		return r + 1 + p
	}
	keys := map[*item]int{}
	for r, it := range search {
		keys[it] = key(r, it)
	}
	slices.SortStableFunc(search, func(x, y *item) int { return cmp.Compare(keys[x], keys[y]) })
	// The previous chapter ranks as if first among chapters: when its
	// passages match the prompt too, it is among the two read whole
	// first; otherwise it follows them.
	best := search[:min(2, len(search))]
	if len(prev) > 0 {
		pk := key(0, prev[0])
		i := 0
		for i < len(best) && keys[best[i]] < pk {
			i++
		}
		best = slices.Insert(slices.Clone(best), i, prev[0])
		if len(best) > 2 {
			best = best[:2]
		}
	}
	first = append(first, best...)
	for _, p := range prev {
		if !slices.Contains(first, p) {
			first = append(first, p)
		}
	}
	for _, it := range search[:min(2, len(search))] {
		if !slices.Contains(first, it) {
			first = append(first, it)
		}
	}
	// A larger budget reads more of the best chapters whole before the
	// extra passages: two up to 8k tokens, one more for every 8k above.
	k := min(2, len(search))
	if a.budget > 8000 {
		k = min(len(search), 2+(a.budget-8000)/wideBudget)
	}
	more = search[min(2, len(search)):k]
	later = append(later, ents...)
	later = append(later, meta...)
	if len(search) > k {
		later = append(later, search[k:]...)
	}
	return first, more, append(later, rest...)
}

// render writes the chosen items and the provenance.
func (a *assembly) render() *Context {
	ctx := &Context{Budget: a.budget, Chapter: a.chapter, Intent: a.intent, Notes: a.notes}
	var know, story, dropped []*item
	for _, it := range a.items {
		if it.level < 0 {
			dropped = append(dropped, it)
			continue
		}
		if it.cat == catMeta || it.cat == catEntity {
			know = append(know, it)
		} else {
			story = append(story, it)
		}
	}
	// Knowledge: meta by path, then entities by priority (already sorted).
	// Story: summaries first, then the manuscript in narrative order.
	slices.SortStableFunc(story, func(x, y *item) int {
		if x.cat != y.cat {
			return cmp.Compare(y.cat, x.cat) // summaries before manuscript
		}
		if c := cmp.Compare(x.chapter, y.chapter); c != 0 {
			return c
		}
		if c := cmp.Compare(x.start, y.start); c != 0 {
			return c
		}
		return cmp.Compare(x.path, y.path)
	})
	tokens := 0
	write := func(b *strings.Builder, title string, its []*item) {
		if len(its) == 0 {
			return
		}
		b.WriteString(title)
		tokens += a.snap.Tokens("", title)
		for _, it := range its {
			b.WriteString(it.header(it.level))
			b.WriteString(strings.TrimSpace(it.text[it.level]))
			b.WriteString("\n\n")
			tokens += a.costAt(it, it.level)
			ctx.Sources = append(ctx.Sources, a.source(it, it.level))
		}
	}
	var sys, user strings.Builder
	write(&sys, knowledgeTitle, know)
	write(&user, manuscriptTitle, story)
	ctx.SystemPrefix, ctx.UserSuffix = sys.String(), user.String()
	ctx.Tokens = tokens
	slices.SortStableFunc(dropped, func(x, y *item) int {
		if c := cmp.Compare(x.path, y.path); c != 0 {
			return c
		}
		return cmp.Compare(x.start, y.start)
	})
	for _, it := range dropped {
		ctx.Dropped = append(ctx.Dropped, a.source(it, it.def))
	}
	ctx.Dropped = append(ctx.Dropped, a.dropped...)
	h := sha256.New()
	fmt.Fprintf(h, "flowcabal-context/1\x00%d\x00%d\x00", a.budget, a.chapter)
	h.Write([]byte(ctx.SystemPrefix))
	h.Write([]byte{0})
	h.Write([]byte(ctx.UserSuffix))
	h.Write([]byte{0})
	src, _ := json.Marshal(ctx.Sources)
	h.Write(src)
	ctx.Hash = hex.EncodeToString(h.Sum(nil))
	if ctx.Sources == nil {
		ctx.Sources = []Source{}
	}
	if ctx.Dropped == nil {
		ctx.Dropped = []Source{}
	}
	return ctx
}

func (a *assembly) source(it *item, level int) Source {
	if level < 0 || it.text[level] == "" {
		level = max(it.maxLevel(), 0)
	}
	s := Source{Path: it.path, Level: levelNames[level], Part: it.part, Reason: it.reason, Stale: it.stale && level < 2, Why: it.why}
	if it.text[level] != "" {
		s.Tokens = a.costAt(it, level)
	}
	return s
}
