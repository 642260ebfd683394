package assemble

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/summarize"
	"github.com/flowcabal/flowcabal/textsearch"
)

// ArcSpan is the number of chapters in an arc when the project declares
// no arcs of its own.
const ArcSpan = 30

// A Builder makes in-memory snapshots. It remembers what it derived from
// each text (terms, passages, summaries, token counts) by content hash,
// so building many snapshots of nearly the same project is cheap. Safe
// for concurrent use.
type Builder struct {
	an  *textsearch.Analyzer
	tc  *textsearch.Counter
	sum *summarize.Summarizer

	// Levels, when not nil, is asked for the stored L0 and L1 of each
	// resource by path and content hash (hex SHA-256 of its text); when
	// it has none, the builder summarises the text itself. Set it before
	// the first Build.
	Levels func(path, hash string) (StoredLevels, bool)

	// Forget, when set, drops the term lists of the texts once a Build
	// has indexed them: a later Build analyses the texts again, and the
	// builder keeps only their summaries, passages and token counts. A
	// long-lived snapshot wants it (on a million-character work the term
	// lists are a third of the memory); a builder that makes many
	// snapshots of nearly the same project (the evaluation) does not.
	Forget bool

	// Keep, when set, holds what the builder derived across processes:
	// each chapter's passages and summary by content hash, and the
	// encoded indexes over the manuscript. Build reads them and analyses
	// only the chapters that changed since; [MemSnapshot.Keep] writes back
	// what changed. Set it before the first Build.
	Keep Keeper

	// Progress, when set, is told how many of the chapters Build has
	// read (from the kept indexes or by analysing them) so far.
	Progress func(done, total int)

	mu      sync.Mutex
	derived map[string]*derived
	counts  sync.Map // sha256(text) -> int
	// summarised counts the texts the builder summarised itself.
	summarised atomic.Int64
	// inflight holds the counts being made (key -> *counting), counted
	// how many texts the snapshots' Tokens counted.
	inflight sync.Map
	counted  atomic.Int64
}

// Counted returns how many texts the snapshots of the builder counted
// the tokens of when asked ([MemSnapshot.Tokens]), each at most once.
func (b *Builder) Counted() int { return int(b.counted.Load()) }

// Summarised returns how many texts the builder summarised itself (those
// its Keeper and Levels had no summary for).
func (b *Builder) Summarised() int { return int(b.summarised.Load()) }

type derived struct {
	summarized bool // summary is set
	terms      []string
	passages   []textsearch.Passage
	pterms     [][]string
	summary    summarize.Summary
	kept       bool // the Keeper holds its record
}

// NewBuilder returns a Builder that analyses with an and counts with tc.
func NewBuilder(an *textsearch.Analyzer, tc *textsearch.Counter) *Builder {
	return &Builder{an: an, tc: tc, sum: summarize.New(an, tc), derived: map[string]*derived{}}
}

// Analyzer returns the builder's analyzer.
func (b *Builder) Analyzer() *textsearch.Analyzer { return b.an }

// A Doc is a file given to [Builder.Build]: its project path and text
// (front matter removed for knowledge files).
type Doc struct {
	Path string
	Text string
}

// A ChapterDoc is a manuscript chapter given to [Builder.Build].
type ChapterDoc struct {
	Number int
	Path   string
	Text   string
	// Hash, when set, is the hex SHA-256 of the text. With Load set and
	// Text empty, Hash and Load stand for Text: Load reads it. A Builder with a
	// Keeper reads only the chapters its kept indexes do not hold as they
	// are (and those an arc that changed must analyse again), so that
	// bringing the kept indexes up to date after one chapter changed does
	// not read the book. The snapshot's chapters read this way have no
	// L2: such a snapshot is for [MemSnapshot.Keep], not for assembling.
	Hash string
	Load func() (string, error)
}

// lazy reports whether the chapter's text is still to be read.
func (c *ChapterDoc) lazy() bool { return c.Load != nil && c.Text == "" }

// text returns the chapter's text, reading it if need be.
func (c *ChapterDoc) text() (string, error) {
	if !c.lazy() {
		return c.Text, nil
	}
	t, err := c.Load()
	if err != nil {
		return "", fmt.Errorf("read %s: %w", c.Path, err)
	}
	return t, nil
}

// Input is everything a snapshot is built from.
type Input struct {
	Meta      []Doc
	Entities  []*knowledge.Entity
	Chapters  []ChapterDoc
	Summaries []Doc
	Profiles  []ProfileDoc
	// Arcs are declared spans; when empty, chapters are grouped by ArcSpan.
	Arcs []ArcSpec
}

// A ProfileDoc is a profile given to [Builder.Build].
type ProfileDoc struct {
	Path   string
	About  string // entity resource, or ""
	Reveal int
	Text   string
}

// ArcSpec declares an arc.
type ArcSpec struct {
	Path        string
	First, Last int
	Text        string // the arc summary file's body, if any
}

func hashOf(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// need says what derive must make of a text.
type need struct {
	terms    bool // the whole text's terms
	passages bool // the passage spans
	pterms   bool // each passage's terms
	summary  bool
}

func (b *Builder) derive(text string, w need) (*derived, string, error) {
	return b.deriveHashed(text, hashOf(text), w)
}

func (b *Builder) deriveHashed(text, h string, w need) (*derived, string, error) {
	b.mu.Lock()
	d := b.derived[h]
	b.mu.Unlock()
	has := func(d *derived) bool {
		return (!w.terms || d.terms != nil || text == "") &&
			(!w.passages || d.passages != nil || text == "") &&
			(!w.pterms || (d.passages != nil && len(d.pterms) == len(d.passages)) || text == "") &&
			(!w.summary || d.summarized)
	}
	if d != nil && has(d) {
		return d, h, nil
	}
	nd := &derived{}
	if d != nil {
		*nd = *d
	}
	if w.summary && !nd.summarized {
		sum, err := b.sum.Summarize(text)
		if err != nil {
			return nil, "", err
		}
		b.summarised.Add(1)
		nd.summary, nd.summarized, nd.kept = sum, true, false
	}
	if (w.passages || w.pterms) && nd.passages == nil {
		nd.passages, nd.pterms, nd.kept = textsearch.Passages(text, 0), nil, false
	}
	if w.pterms && len(nd.pterms) != len(nd.passages) {
		nd.pterms = nil
		for _, p := range nd.passages {
			nd.pterms = append(nd.pterms, b.an.Terms(text[p.Start:p.End]))
		}
	}
	if w.terms && nd.terms == nil {
		if len(nd.pterms) == len(nd.passages) && nd.passages != nil && b.an.Separates(text, nd.passages) {
			// The passages' terms are the text's (every chapter of the
			// corpus): no second reading of the whole text.
			n := 0
			for _, ts := range nd.pterms {
				n += len(ts)
			}
			nd.terms = make([]string, 0, n)
			for _, ts := range nd.pterms {
				nd.terms = append(nd.terms, ts...)
			}
		} else {
			nd.terms = b.an.Terms(text)
		}
	}
	keep := nd
	if b.Forget {
		// The caller indexes nd's terms once; the cache keeps the rest.
		lean := *nd
		lean.terms, lean.pterms = nil, nil
		keep = &lean
	}
	b.mu.Lock()
	b.derived[h] = keep
	b.mu.Unlock()
	return nd, h, nil
}

func (b *Builder) hasCount(key string) bool {
	_, ok := b.counts.Load(key)
	return ok
}

// StoredLevels are the levels a store already holds for a resource.
type StoredLevels struct {
	L0, L1     string
	Extractive bool // made without a model
	Stale      bool // made from an older text; being regenerated
}

func (b *Builder) resource(p, text string, w need) (Resource, *derived, error) {
	return b.resourceHashed(p, text, hashOf(text), w)
}

func (b *Builder) resourceHashed(p, text, h string, w need) (Resource, *derived, error) {
	var stored StoredLevels
	have := false
	if b.Levels != nil {
		stored, have = b.Levels(p, h)
	}
	w.summary = !have
	d, h, err := b.deriveHashed(text, h, w)
	if err != nil {
		return Resource{}, nil, fmt.Errorf("summarise %s: %w", p, err)
	}
	if b.Keep == nil {
		// A builder without a Keeper reads every text anyway: it counts
		// each one's tokens as it goes (on every core), so the first
		// assembly does not. With one, a process reads a book it did not
		// analyse, and counts only what an assembly weighs.
		if k := CountKey(h, "L2", ""); !b.hasCount(k) {
			b.counts.Store(k, b.tc.MustCount(InjectedText(text)))
		}
	}
	if have {
		return Resource{Path: p, Hash: h, L2: text, L1: stored.L1, L0: stored.L0, Extractive: stored.Extractive, Stale: stored.Stale}, d, nil
	}
	return Resource{Path: p, Hash: h, L2: text, L1: d.summary.L1, L0: d.summary.L0, Extractive: d.summary.Extractive()}, d, nil
}

// Build makes a snapshot of in.
func (b *Builder) Build(in Input) (*MemSnapshot, error) {
	// The indexes cover the same texts: one dictionary holds their terms.
	dict := textsearch.NewDict()
	s := &MemSnapshot{
		b:        b,
		chapterX: textsearch.NewIndexDict(0, 0, dict),
		passageX: textsearch.NewIndexDict(0, 0, dict),
		entityX:  textsearch.NewIndexDict(0, 0, dict),
	}
	if b.Keep != nil && b.Levels == nil {
		// The summaries of the other files are kept by their texts'
		// hashes too: summarising 64 entity files again cost every
		// process's first snapshot 30 ms of CPU.
		var hashes []string
		for _, d := range slices.Concat(in.Meta, in.Summaries) {
			hashes = append(hashes, hashOf(d.Text))
		}
		for _, pd := range in.Profiles {
			hashes = append(hashes, hashOf(pd.Text))
		}
		for _, e := range in.Entities {
			hashes = append(hashes, hashOf(e.Description))
		}
		b.readRecords(hashes)
	}
	for _, m := range in.Meta {
		r, _, err := b.resource(m.Path, m.Text, need{})
		if err != nil {
			return nil, err
		}
		s.meta = append(s.meta, &r)
	}
	slices.SortFunc(s.meta, func(a, c *Resource) int { return cmp.Compare(a.Path, c.Path) })
	for _, m := range in.Summaries {
		r, _, err := b.resource(m.Path, m.Text, need{})
		if err != nil {
			return nil, err
		}
		s.summaries = append(s.summaries, &r)
	}
	for _, pd := range in.Profiles {
		r, _, err := b.resource(pd.Path, pd.Text, need{})
		if err != nil {
			return nil, err
		}
		s.profiles = append(s.profiles, &Profile{Resource: r, About: strings.TrimSuffix(pd.About, ".md"), Reveal: pd.Reveal})
	}
	slices.SortFunc(s.profiles, func(a, c *Profile) int { return cmp.Compare(a.Path, c.Path) })
	var entries []textsearch.MatchEntry
	for _, e := range in.Entities {
		r, _, err := b.resource(e.Path, e.Description, need{})
		if err != nil {
			return nil, err
		}
		s.entities = append(s.entities, &Entity{Decl: e, Resource: r})
		entries = append(entries, textsearch.MatchEntry{Key: e.Path, Names: append(e.Names(), givenNames(e)...), Exclude: e.Exclude})
	}
	slices.SortFunc(s.entities, func(a, c *Entity) int { return cmp.Compare(a.Path, c.Path) })
	byRes := map[string]*Entity{}
	for _, e := range s.entities {
		byRes[e.Decl.Resource] = e
	}
	for _, e := range s.entities {
		s.entityX.Add(e.Path, b.an.Terms(entityProfileText(e, byRes)))
	}
	s.matcher = textsearch.NewMatcher(b.an.Folder(), entries)

	chs := slices.Clone(in.Chapters)
	slices.SortFunc(chs, func(a, c ChapterDoc) int { return cmp.Compare(a.Number, c.Number) })
	if b.Keep == nil {
		// Without kept indexes every chapter is analysed: read them all.
		for i := range chs {
			t, err := chs[i].text()
			if err != nil {
				return nil, err
			}
			chs[i].Text = t
		}
	}
	kx := b.loadKept(chs)
	if kx != nil {
		s.chapterX, s.passageX = kx.chapters, kx.passages
	}
	// The chapters are analysed and their terms counted on every core, a
	// batch at a time (their terms are dropped once counted); the indexes
	// take them in order, one batch while the next is analysed.
	type done struct {
		r        Resource
		passages []textsearch.Passage
		// The terms counted, when analysed: of the chapter and of its
		// passages (the term lists themselves are not kept, so that the
		// batches in flight hold what the indexes need and no more).
		tc  textsearch.TermCounts
		ptc []textsearch.TermCounts
		err error
	}
	if b.Progress != nil {
		b.Progress(0, len(chs))
	}
	// Whether the kept indexes hold each chapter as it is, asked before
	// the indexes start changing under the workers.
	held := make([]bool, len(chs))
	if kx != nil {
		for i, c := range chs {
			held[i] = kx.holds(c.Path, kx.hashes[i])
		}
	}
	workers := max(1, runtime.GOMAXPROCS(0))
	// Small batches: two are alive at once (one indexed, the next
	// analysed), and a server's peak memory is what they hold (32
	// chapters of a million-character work, three at a time, raised
	// lspbench's peak by 17 MB).
	size := 4 * workers
	analyse := func(lo, hi int) []done {
		batch := make([]done, hi-lo)
		var wg sync.WaitGroup
		next := make(chan int)
		for range min(workers, hi-lo) {
			wg.Go(func() {
				for i := range next {
					c := &chs[i]
					var h string
					switch {
					case kx != nil:
						h = kx.hashes[i]
					case c.Hash != "":
						h = c.Hash
					default:
						h = hashOf(c.Text)
					}
					fresh := !held[i]
					text := c.Text
					if c.lazy() && (fresh || b.cached(h) == nil) {
						// Not held, or its record is missing: read.
						t, err := c.text()
						if err != nil {
							batch[i-lo] = done{err: err}
							continue
						}
						if hashOf(t) != h {
							// Changed since it was hashed: its record
							// and the indexes must follow the text read
							// (analysed: whether the indexes hold this
							// text is asked again when it is indexed).
							h = hashOf(t)
							kx.hashes[i] = h
							fresh = true
						}
						c.Text, text = t, t
						s.read.Add(1)
					}
					r, d, err := b.resourceHashed(c.Path, text, h, need{terms: fresh, passages: true, pterms: fresh})
					dn := done{r: r, err: err}
					if err == nil {
						dn.passages = d.passages
					}
					if err == nil && fresh {
						dn.tc = textsearch.CountTerms(d.terms)
						dn.ptc = make([]textsearch.TermCounts, len(d.pterms))
						for j, pt := range d.pterms {
							dn.ptc[j] = textsearch.CountTerms(pt)
						}
					}
					batch[i-lo] = dn
				}
			})
		}
		for i := lo; i < hi; i++ {
			next <- i
		}
		close(next)
		wg.Wait()
		return batch
	}
	batches := make(chan []done)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		defer close(batches)
		for lo := 0; lo < len(chs); lo += size {
			select {
			case batches <- analyse(lo, min(len(chs), lo+size)):
			case <-stop:
				return
			}
		}
	}()
	lo := 0
	for batch := range batches {
		for i, dn := range batch {
			c := chs[lo+i]
			if dn.err != nil {
				return nil, dn.err
			}
			r := dn.r
			s.chapters = append(s.chapters, &Chapter{Resource: r, Number: c.Number, Passages: dn.passages})
			batch[i] = done{}
			if kx != nil && kx.holds(c.Path, r.Hash) {
				continue
			}
			if kx != nil {
				kx.drop(c.Path)
				kx.changed = true
			}
			s.analysed++
			s.chapterX.AddCounted(c.Path, dn.tc)
			for i, p := range dn.passages {
				s.passageX.AddCounted(PassageID(c.Path, p.Start, p.End), dn.ptc[i])
			}
		}
		lo += len(batch)
		if b.Progress != nil {
			b.Progress(lo, len(chs))
		}
	}
	if kx != nil {
		kx.dropGone(chs)
	}
	s.kept = kx

	// Arcs: declared, or fixed spans.
	specs := slices.Clone(in.Arcs)
	if len(specs) == 0 && len(s.chapters) > 0 {
		last := s.chapters[len(s.chapters)-1].Number
		for first, n := 1, 1; first <= last; first, n = first+ArcSpan, n+1 {
			specs = append(specs, ArcSpec{Path: fmt.Sprintf("summaries/arc-%d.md", n), First: first, Last: first + ArcSpan - 1})
		}
	}
	if kx != nil {
		// The arcs' summaries are kept by their texts' hashes too.
		var hashes []string
		for _, a := range specs {
			if t := arcText(a, s.chapters); t != "" {
				hashes = append(hashes, hashOf(t))
			}
		}
		b.readRecords(hashes)
	}
	var groups []textsearch.Group
	for i, a := range specs {
		arc := &Arc{Number: i + 1, First: a.First, Last: a.Last}
		var l0s, paths []string
		for _, c := range s.chapters {
			if c.Number >= a.First && c.Number <= a.Last {
				l0s = append(l0s, c.L0)
				paths = append(paths, c.Path)
			}
		}
		if len(l0s) == 0 {
			continue
		}
		text := a.Text
		if text == "" {
			text = strings.Join(l0s, "\n")
		}
		r, _, err := b.resource(a.Path, text, need{})
		if err != nil {
			return nil, err
		}
		if a.Text == "" {
			// The arc has no file: its levels are its chapters' L0s.
			r.L1 = text
			r.L0 = l0s[0]
			r.Extractive = true
			arc.Derived = true
		}
		arc.Resource = r
		s.arcs = append(s.arcs, arc)
		// An arc is searched as the union of its chapters, from the
		// chapter index (SearchArcs): nothing is indexed or kept per
		// arc, so a chapter changed changes nothing else.
		groups = append(groups, textsearch.Group{ID: arc.Path, Docs: paths})
	}
	for _, x := range []*textsearch.Index{s.chapterX, s.passageX, s.entityX} {
		x.Compact()
	}
	// Resolved once: every search of the arcs reads the chapters' places.
	s.arcGroups = s.chapterX.Grouping(groups)
	return s, nil
}

// parallel calls fn(i) for i in [0, n) on up to workers goroutines.
func parallel(n, workers int, fn func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range min(workers, n) {
		wg.Go(func() {
			for i := range next {
				fn(i)
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}

// arcText is the text an arc is summarised from: its file's body, or
// its chapters' L0s; "" when it has no chapters.
func arcText(a ArcSpec, chs []*Chapter) string {
	var l0s []string
	for _, c := range chs {
		if c.Number >= a.First && c.Number <= a.Last {
			l0s = append(l0s, c.L0)
		}
	}
	if len(l0s) == 0 {
		return ""
	}
	if a.Text != "" {
		return a.Text
	}
	return strings.Join(l0s, "\n")
}

// titles are forms of address that never stand alone for one person.
var titles = map[string]bool{"mr": true, "mr.": true, "mrs": true, "mrs.": true, "miss": true, "ms": true,
	"ms.": true, "lady": true, "lord": true, "sir": true, "colonel": true, "captain": true, "dr": true, "dr.": true,
	"the": true, "king": true, "queen": true, "prince": true, "princess": true, "st": true, "st.": true}

// givenNames are the short forms a text uses for a character without the
// author having to list them: the first word of a name of two or more
// words ("Elizabeth" of "Elizabeth Bennet", unless it is a title such as
// "Mr."), and the given name of a three-character Chinese name ("宝玉" of
// "贾宝玉"). A given name shared by several characters matches them all.
func givenNames(e *knowledge.Entity) []string {
	if e.Kind != "character" {
		return nil
	}
	name := strings.TrimSpace(e.Name)
	var out []string
	if f := strings.Fields(name); len(f) >= 2 && !titles[strings.ToLower(f[0])] && len(f[0]) > 1 {
		out = append(out, f[0])
	}
	if rs := []rune(name); len(rs) == 3 && textsearch.IsCJK(rs[0]) && textsearch.IsCJK(rs[1]) && textsearch.IsCJK(rs[2]) {
		out = append(out, string(rs[1:]))
	}
	for _, n := range out {
		for _, have := range e.Names() {
			if strings.EqualFold(have, n) {
				return nil
			}
		}
	}
	return out
}

// entityProfileText is what the entity index holds for e: names, kind,
// base fact values (not progressions, which may lie ahead of the chapter
// being written), relations with the related entity's name, and the
// description.
func entityProfileText(e *Entity, byRes map[string]*Entity) string {
	var b strings.Builder
	d := e.Decl
	b.WriteString(strings.Join(d.Names(), ", "))
	b.WriteString("\n")
	b.WriteString(d.Kind)
	b.WriteString("\n")
	keys := make([]string, 0, len(d.Facts))
	for k := range d.Facts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if d.FactReveals[k] > 0 {
			continue // not searchable before its reveal; the index is not per chapter
		}
		fmt.Fprintf(&b, "%s: %s\n", strings.ReplaceAll(k, "_", " "), d.Facts[k])
	}
	for _, r := range d.Relations {
		name := path.Base(r.To)
		if t := byRes[strings.TrimSuffix(r.To, ".md")]; t != nil {
			name = t.Decl.Name
		}
		fmt.Fprintf(&b, "%s %s\n", strings.ReplaceAll(r.Kind, "-", " "), name)
	}
	b.WriteString(d.Description)
	return b.String()
}

// A MemSnapshot is a [Snapshot] held in memory, built by a [Builder].
type MemSnapshot struct {
	b         *Builder
	meta      []*Resource
	entities  []*Entity
	chapters  []*Chapter
	arcs      []*Arc
	summaries []*Resource
	profiles  []*Profile

	chapterX, passageX, entityX *textsearch.Index
	// arcGroups are the arcs as groups of the chapter index's documents.
	arcGroups *textsearch.Grouping
	matcher   *textsearch.Matcher
	// kept is what was read from the builder's Keeper and changed since,
	// nil without one.
	kept      *keptIndexes
	analysed  int
	wroteBase bool
	// read counts the chapters given by hash (ChapterDoc.Load) that
	// Build read.
	read atomic.Int64

	// byPath holds the chapters by path, made on first use: every
	// assembly looks its search hits up, and a map of 3,000 chapters
	// made anew for each hover cost a millisecond and its garbage.
	byPathOnce sync.Once
	byPath     map[string]*Chapter
}

// Meta implements [Snapshot].
func (s *MemSnapshot) Meta() []*Resource { return s.meta }

// ChapterByPath implements [Snapshot].
func (s *MemSnapshot) ChapterByPath(p string) *Chapter {
	s.byPathOnce.Do(func() {
		s.byPath = make(map[string]*Chapter, len(s.chapters))
		for _, c := range s.chapters {
			s.byPath[c.Path] = c
		}
	})
	return s.byPath[p]
}

// Entities implements [Snapshot].
func (s *MemSnapshot) Entities() []*Entity { return s.entities }

// Chapters implements [Snapshot].
func (s *MemSnapshot) Chapters() []*Chapter { return s.chapters }

// Arcs implements [Snapshot].
func (s *MemSnapshot) Arcs() []*Arc { return s.arcs }

// Summaries implements [Snapshot].
func (s *MemSnapshot) Summaries() []*Resource { return s.summaries }

// Profiles implements [Snapshot].
func (s *MemSnapshot) Profiles() []*Profile { return s.profiles }

// ChapterIndex implements [Snapshot].
func (s *MemSnapshot) ChapterIndex() *textsearch.Index { return s.chapterX }

// PassageIndex implements [Snapshot].
func (s *MemSnapshot) PassageIndex() *textsearch.Index { return s.passageX }

// SearchArcs implements [Snapshot].
func (s *MemSnapshot) SearchArcs(weights map[string]float64, k int) []textsearch.Hit {
	return s.chapterX.SearchGroups(weights, k, s.arcGroups)
}

// EntityIndex implements [Snapshot].
func (s *MemSnapshot) EntityIndex() *textsearch.Index { return s.entityX }

// Analysed returns how many chapters Build analysed (all of them without
// a Keeper; with one, those the kept indexes did not hold as they are).
func (s *MemSnapshot) Analysed() int { return s.analysed }

// Read returns how many of the chapters given by their hash
// ([ChapterDoc.Load]) Build read: those the kept indexes did not hold as
// they are, and those of an arc that changed.
func (s *MemSnapshot) Read() int { return int(s.read.Load()) }

// Matcher implements [Snapshot].
func (s *MemSnapshot) Matcher() *textsearch.Matcher { return s.matcher }

// Analyzer implements [Snapshot].
func (s *MemSnapshot) Analyzer() *textsearch.Analyzer { return s.b.an }

// Tokens counts text exactly, memoised by key (or by content when key is
// empty) across every snapshot of the builder; the levels of every
// resource are counted when the snapshot is built. A text the tokenizer
// cannot count costs one token per byte, which never under-counts a
// budget.
func (s *MemSnapshot) Tokens(key, text string) int {
	k := key
	if k == "" {
		h := sha256.Sum256([]byte(text))
		k = string(h[:])
	}
	if v, ok := s.b.counts.Load(k); ok {
		return v.(int)
	}
	// One count of a text at a time: two assemblies made at once (a
	// hover's and the workflow's estimate, started when it was opened)
	// mostly weigh the same chapters, and the second waits for the
	// first's count rather than make it again.
	c := &counting{done: make(chan struct{})}
	if v, busy := s.b.inflight.LoadOrStore(k, c); busy {
		c = v.(*counting)
		<-c.done
		return c.n
	}
	defer func() {
		s.b.inflight.Delete(k)
		close(c.done)
	}()
	c.n = s.b.tc.MustCount(text)
	s.b.counted.Add(1)
	s.b.counts.Store(k, c.n)
	return c.n
}

// counting is a count being made by [MemSnapshot.Tokens].
type counting struct {
	done chan struct{}
	n    int
}

// CachedTokens returns the count memoised under key by [MemSnapshot.Tokens],
// if there is one.
func (s *MemSnapshot) CachedTokens(key string) (int, bool) {
	if key == "" {
		return 0, false
	}
	v, ok := s.b.counts.Load(key)
	if !ok {
		return 0, false
	}
	return v.(int), true
}

// LoadProject builds a snapshot of the project at root from its files.
// Files that could not be read are reported in errs; the rest is used.
func (b *Builder) LoadProject(root string) (*MemSnapshot, []error) {
	p, errs := knowledge.LoadProject(root)
	if p == nil {
		return nil, errs
	}
	in := InputFromProject(p)
	s, err := b.Build(in)
	if err != nil {
		return nil, append(errs, err)
	}
	return s, errs
}

func frontInt(m map[string]any, key string) (int, bool) {
	switch v := m[key].(type) {
	case int:
		return v, true
	case int64:
		return int(v), true
	case float64:
		return int(v), true
	}
	return 0, false
}

// InputFromProject turns what knowledge.LoadProject read into an Input:
// meta documents (front matter shown as "key: value" lines, since world
// rules live there), entities, chapters, arcs declared by
// summaries/arc-N.md front matter (chapters: [first, last], or first and
// last), profiles and other summaries.
func InputFromProject(p *knowledge.Project) Input {
	var in Input
	for _, d := range p.Documents {
		switch {
		case strings.HasPrefix(d.Path, "meta/"):
			in.Meta = append(in.Meta, Doc{Path: d.Path, Text: frontText(d.Front) + d.Body})
		case strings.HasPrefix(d.Path, "summaries/arc-"):
			if a, ok := ArcSpecOf(d); ok {
				in.Arcs = append(in.Arcs, a)
			}
		case strings.HasPrefix(d.Path, "summaries/"):
			in.Summaries = append(in.Summaries, Doc{Path: d.Path, Text: d.Body})
		case strings.HasPrefix(d.Path, "profiles/"):
			about, _ := d.Front["about"].(string)
			if about == "" {
				// profiles/characters/x.md is about entities/characters/x.
				rest := strings.TrimPrefix(d.Resource, "profiles/")
				if p.Entity("entities/"+rest) != nil {
					about = "entities/" + rest
				}
			}
			reveal, _ := frontInt(d.Front, "reveal")
			in.Profiles = append(in.Profiles, ProfileDoc{Path: d.Path, About: about, Reveal: reveal, Text: d.Body})
		}
	}
	in.Entities = p.Entities
	for _, c := range p.Chapters {
		cd := ChapterDoc{Number: c.Number, Path: c.Document.Path, Text: c.Document.Body}
		if d := c.Document; d.BodyOffset == 0 && d.Hash != "" && len(d.Body) > 0 {
			// The body is the whole file, whose hash the reading made:
			// hashing it again cost a server's first hover 40 ms of CPU
			// at 3,000 chapters.
			cd.Hash = d.Hash
		}
		in.Chapters = append(in.Chapters, cd)
	}
	return in
}

// ArcSpecOf reads the arc a summaries/arc-N.md file declares (chapters:
// [first, last], or first and last); false when it declares none.
func ArcSpecOf(d *knowledge.Document) (ArcSpec, bool) {
	first, _ := frontInt(d.Front, "first")
	last, _ := frontInt(d.Front, "last")
	if l, ok := d.Front["chapters"].([]any); ok && len(l) == 2 { // chapters: [1, 10]
		first, _ = frontInt(map[string]any{"v": l[0]}, "v")
		last, _ = frontInt(map[string]any{"v": l[1]}, "v")
	}
	if first > 0 && last >= first {
		return ArcSpec{Path: d.Path, First: first, Last: last, Text: d.Body}, true
	}
	return ArcSpec{}, false
}

// frontText renders front matter as sorted "key: value" lines.
func frontText(m map[string]any) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		switch k {
		case "name", "kind":
			continue
		}
		v := m[k]
		if l, ok := v.([]any); ok {
			parts := make([]string, len(l))
			for i, x := range l {
				parts[i] = fmt.Sprint(x)
			}
			fmt.Fprintf(&b, "%s: %s\n", k, strings.Join(parts, ", "))
			continue
		}
		fmt.Fprintf(&b, "%s: %v\n", k, v)
	}
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	return b.String()
}
