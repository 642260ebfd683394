package store

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/flowcabal/flowcabal/textsearch"
	bolt "go.etcd.io/bbolt"
)

// Keys of the search bucket. The index is kept as a base (written whole
// when it is first made and when the changes since have grown) and a
// delta rewritten at each flush, as Role A's are (textsearch/stored.go):
// "gen" names the base, "b/GEN/d" is its documents table and "b/GEN/t/"
// and a term a block of its postings; a search reads only its terms'
// blocks.
var (
	keySearchIndex = []byte("index") // textsearch.Index.MarshalBinary, before the base and delta
	keySearchDocs  = []byte("docs")  // JSON: resource path → content hash in the index
	keySearchGen   = []byte("gen")
	keySearchDelta = []byte("delta")
)

func searchBase(gen, part string) []byte { return []byte("b/" + gen + "/" + part) }

// searchRebase says when a flush writes a new base: when the documents
// changed since the last one are more than a tenth of the index (and
// more than a few).
func searchRebase(x *textsearch.Index) bool {
	if !x.Stored() {
		return true
	}
	grown := x.DeltaDocs() + x.DeadBase()
	return grown > 32 && grown*10 > x.Len()
}

// searchState is the in-memory BM25 index over every resource's text and
// the mention matcher over entity names. The index is loaded from its
// snapshot in bbolt on first use and repaired there from the resources'
// hashes, so a snapshot older than the resources (after a crash) costs
// only the re-analysis of what changed since.
type searchState struct {
	mu      sync.RWMutex
	once    sync.Once
	folder  *textsearch.Folder
	an      *textsearch.Analyzer
	loaded  bool
	idx     *textsearch.Index
	gen     string             // the base idx was opened from, "" for none
	docs    map[string]string  // path → hash indexed
	meta    map[string]docMeta // path → what filters need
	dirty   bool
	matcher *textsearch.Matcher // nil when it must be rebuilt
}

type docMeta struct {
	dir, kind string
	chapter   int
	names     []string
	exclude   []string
}

func metaOf(r Resource) docMeta {
	return docMeta{dir: r.Dir, kind: r.Kind, chapter: r.Chapter, names: r.Names, exclude: r.Exclude}
}

func (ss *searchState) analyzer() *textsearch.Analyzer {
	ss.once.Do(func() {
		ss.folder = textsearch.NewFolder()
		ss.an = textsearch.NewAnalyzer(ss.folder)
	})
	return ss.an
}

// LoadSearch loads the search index and the mention matcher now rather
// than on the first query; the server calls it in the background after
// Open.
func (s *Store) LoadSearch(ctx context.Context) error {
	_, err := s.mentionMatcher(ctx)
	return err
}

// loadSearch makes the in-memory index match the resources.
func (s *Store) loadSearch(ctx context.Context) error {
	ss := &s.search
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.loaded && ss.idx.Err() == nil {
		return nil
	}
	// Not loaded yet, or the base it was read from was replaced by
	// another process since: read again.
	// The folding tables load while the snapshot decodes: every query
	// needs both.
	var warm sync.WaitGroup
	warm.Go(func() { ss.analyzer().Terms("預熱") })
	defer warm.Wait()
	idx := textsearch.NewIndex(0, 0)
	docs := map[string]string{}
	meta := map[string]docMeta{}
	var stale []Resource
	err := s.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bSearch)
		ss.gen = ""
		if gen := string(b.Get(keySearchGen)); gen != "" {
			table, delta := b.Get(searchBase(gen, "d")), b.Get(keySearchDelta)
			x, err := textsearch.OpenStored(table, delta, s.searchFetcher(gen), textsearch.NewDict())
			if err != nil {
				// A damaged index is rebuilt, not fatal: it is derived.
				s.log.Warn("search index unreadable; rebuilding", "err", err)
			} else if d := b.Get(keySearchDocs); d != nil {
				if err := json.Unmarshal(d, &docs); err != nil {
					docs = map[string]string{}
				} else {
					idx, ss.gen = x, gen
				}
			}
		}
		return tx.Bucket(bResources).ForEach(func(k, v []byte) error {
			var r Resource
			if err := unmarshal(v, &r); err != nil {
				return err
			}
			meta[r.Path] = metaOf(r)
			if docs[r.Path] != r.Hash || !idx.Has(r.Path) {
				stale = append(stale, r)
			}
			return nil
		})
	})
	if err != nil {
		return fmt.Errorf("load search index: %w", err)
	}
	for p := range docs {
		if _, ok := meta[p]; !ok {
			idx.Remove(p)
			delete(docs, p)
			ss.dirty = true
		}
	}
	for _, r := range stale {
		if err := ctx.Err(); err != nil {
			return err
		}
		terms, h := s.termsOf(r)
		idx.AddCounted(r.Path, terms)
		docs[r.Path] = h
		ss.dirty = true
	}
	ss.idx, ss.docs, ss.meta, ss.loaded, ss.matcher = idx, docs, meta, true, nil
	return nil
}

// termsOf re-reads a resource's file for the index. A file that changed
// since it was indexed is indexed as it is now and under its new hash, so
// the next indexing pass, which will see the change, re-adds it anyway.
func (s *Store) termsOf(r Resource) (textsearch.TermCounts, string) {
	if strings.HasPrefix(r.Hash, "oversize:") {
		return textsearch.TermCounts{}, r.Hash
	}
	data, err := os.ReadFile(filepath.Join(s.root, filepath.FromSlash(r.File)))
	if err != nil {
		return textsearch.TermCounts{}, r.Hash
	}
	sc := &scanned{file: r.File}
	s.parse(sc, data, hashOf(data))
	return sc.terms, r.Hash
}

// apply updates the in-memory index after a commit.
func (ss *searchState) apply(changes []*scanned, known map[string]Resource) {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	for _, sc := range changes {
		if old, ok := known[sc.file]; ok {
			ss.idx.Remove(old.Path)
			delete(ss.docs, old.Path)
			if len(ss.meta[old.Path].names) > 0 {
				ss.matcher = nil
			}
			delete(ss.meta, old.Path)
		}
	}
	for _, sc := range changes {
		if sc.missing {
			continue
		}
		ss.idx.AddCounted(sc.res.Path, sc.terms)
		ss.docs[sc.res.Path] = sc.res.Hash
		ss.meta[sc.res.Path] = metaOf(sc.res)
		if len(sc.res.Names) > 0 {
			ss.matcher = nil
		}
	}
	ss.dirty = true
}

// flushSearch writes the index snapshot when it changed.
func (s *Store) flushSearch() error {
	ss := &s.search
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if !ss.loaded || !ss.dirty || s.readOnly {
		return nil
	}
	kv := map[string][]byte{}
	gen := ss.gen
	if searchRebase(ss.idx) {
		if ss.idx.Stored() {
			prefix := searchBase(ss.gen, "t/")
			err := ss.idx.Load(func(fn func([]byte) error) error {
				return s.view(func(tx *bolt.Tx) error {
					c := tx.Bucket(bSearch).Cursor()
					for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
						if err := fn(v); err != nil {
							return err
						}
					}
					return nil
				})
			})
			if err != nil {
				return fmt.Errorf("save search index: %w", err)
			}
		}
		table, blocks, err := ss.idx.EncodeBase()
		if err != nil {
			return fmt.Errorf("save search index: %w", err)
		}
		gen = newGen()
		kv[string(searchBase(gen, "d"))] = table
		for _, bl := range blocks {
			kv[string(searchBase(gen, "t/"))+bl.First] = bl.Data
		}
		kv[string(keySearchDelta)] = textsearch.EmptyDelta(ss.idx.Len())
	} else {
		delta, err := ss.idx.EncodeDelta()
		if err != nil {
			return fmt.Errorf("save search index: %w", err)
		}
		kv[string(keySearchDelta)] = delta
	}
	kv[string(keySearchGen)] = []byte(gen)
	kv[string(keySearchDocs)], _ = json.Marshal(ss.docs)
	err := s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bSearch)
		b.FillPercent = 0.95
		if gen != ss.gen {
			// The old base (and the whole index of older versions) go.
			var old [][]byte
			c := b.Cursor()
			for k, _ := c.Seek([]byte("b/")); k != nil && bytes.HasPrefix(k, []byte("b/")); k, _ = c.Next() {
				old = append(old, slices.Clone(k))
			}
			old = append(old, keySearchIndex)
			for _, k := range old {
				if err := b.Delete(k); err != nil {
					return err
				}
			}
		}
		keys := make([]string, 0, len(kv))
		for k := range kv {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if err := b.Put([]byte(k), kv[k]); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("save search index: %w", err)
	}
	ss.dirty = false
	if gen != ss.gen {
		// The index in memory is the new base's, whole: searches need no
		// reads, and the next flush writes a delta over it.
		ss.gen = gen
		if x, err := s.reopenSearch(gen); err == nil {
			ss.idx = x
		}
	}
	return nil
}

// reopenSearch opens base gen just written, to keep only its documents
// table in memory.
func (s *Store) reopenSearch(gen string) (*textsearch.Index, error) {
	var x *textsearch.Index
	err := s.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bSearch)
		var err error
		x, err = textsearch.OpenStored(b.Get(searchBase(gen, "d")), b.Get(keySearchDelta), s.searchFetcher(gen), textsearch.NewDict())
		return err
	})
	return x, err
}

// searchFetcher reads the blocks of base gen.
func (s *Store) searchFetcher(gen string) textsearch.Fetcher {
	guard, prefix := searchBase(gen, "d"), searchBase(gen, "t/")
	return func(terms []string, fn func(int, []byte) error) error {
		return s.view(func(tx *bolt.Tx) error {
			b := tx.Bucket(bSearch)
			if b.Get(guard) == nil {
				return ErrRoleAGone
			}
			c := b.Cursor()
			key := make([]byte, 0, len(prefix)+16)
			for i, t := range terms {
				key = append(append(key[:0], prefix...), t...)
				k, v := c.Seek(key)
				switch {
				case k == nil:
					k, v = c.Last()
				case !bytes.Equal(k, key):
					k, v = c.Prev()
				}
				if k == nil || !bytes.HasPrefix(k, prefix) {
					v = nil
				}
				if err := fn(i, v); err != nil {
					return err
				}
			}
			return nil
		})
	}
}

// newGen names a new base.
func newGen() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// FlushSearch writes the search index snapshot if it changed since the
// last one. Reindex leaves it to the caller (the server calls this when
// idle and Close calls it), since writing it costs more than a change.
func (s *Store) FlushSearch() error { return s.flushSearch() }

// SearchQuery is a lexical query over the resources' text.
type SearchQuery struct {
	Text string
	// K is the number of hits wanted; 0 means 10, negative means all.
	K int
	// Dir and Kind keep resources of one folder or kind.
	Dir, Kind string
	// MaxChapter, when positive, drops chapters after it (what the author
	// has not written yet, for a node writing chapter MaxChapter+1).
	MaxChapter int
	// Exclude drops these resource paths.
	Exclude []string
}

// Hit is one ranked resource.
type Hit struct {
	Path  string  `json:"path"`
	Score float64 `json:"score"`
}

// Search ranks the resources against q.Text with BM25 over CJK bigrams
// and stemmed words (textsearch), best first.
func (s *Store) Search(ctx context.Context, q SearchQuery) ([]Hit, error) {
	if err := s.loadSearch(ctx); err != nil {
		return nil, err
	}
	ss := &s.search
	terms := ss.analyzer().Terms(q.Text)
	k := q.K
	if k == 0 {
		k = 10
	}
	excluded := map[string]bool{}
	for _, p := range q.Exclude {
		excluded[p] = true
	}
	ss.mu.RLock()
	defer ss.mu.RUnlock()
	var allow func(string) bool
	if q.Dir != "" || q.Kind != "" || q.MaxChapter > 0 || len(excluded) > 0 {
		allow = func(id string) bool {
			m := ss.meta[id]
			return (q.Dir == "" || m.dir == q.Dir) && (q.Kind == "" || m.kind == q.Kind) &&
				(q.MaxChapter <= 0 || m.chapter <= q.MaxChapter) && !excluded[id]
		}
	}
	hits := ss.idx.Search(terms, k, allow)
	if err := ss.idx.Err(); err != nil {
		// Another process wrote a new base since this one was read: the
		// next search reads it.
		return nil, fmt.Errorf("search: %w; search again", err)
	}
	out := make([]Hit, len(hits))
	for i, h := range hits {
		out[i] = Hit{Path: h.ID, Score: h.Score}
	}
	return out, nil
}

// PassageHit is a ranked passage of a resource's body.
type PassageHit struct {
	Path  string  `json:"path"`
	Start int     `json:"start"` // byte span in the body (Level 2 text)
	End   int     `json:"end"`
	Score float64 `json:"score"`
	Text  string  `json:"text"`
}

// SearchPassages ranks the passages (textsearch.Passages) of the given
// resources against text, best first, k at most (0 means 10).
func (s *Store) SearchPassages(ctx context.Context, text string, paths []string, k int) ([]PassageHit, error) {
	if k == 0 {
		k = 10
	}
	an := s.search.analyzer()
	idx := textsearch.NewIndex(0, 0)
	byID := map[string]PassageHit{}
	for _, p := range paths {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		body, _, err := s.ReadBody(p)
		if err != nil {
			return nil, err
		}
		for _, ps := range textsearch.Passages(body, 0) {
			id := fmt.Sprintf("%s#%d-%d", p, ps.Start, ps.End)
			idx.Add(id, an.Terms(body[ps.Start:ps.End]))
			byID[id] = PassageHit{Path: p, Start: ps.Start, End: ps.End, Text: body[ps.Start:ps.End]}
		}
	}
	var out []PassageHit
	for _, h := range idx.Search(an.Terms(text), k, nil) {
		ph := byID[h.ID]
		ph.Score = h.Score
		out = append(out, ph)
	}
	return out, nil
}

// Mention is an occurrence of an entity's name or alias in a text.
type Mention struct {
	// Entity is the entity's resource path.
	Entity string `json:"entity"`
	Name   string `json:"name"`
	Start  int    `json:"start"` // byte span in the text
	End    int    `json:"end"`
}

// Mentions finds the indexed entities named in text (names and aliases,
// traditional and simplified Chinese alike, whole words in spaced
// scripts), in order of position.
func (s *Store) Mentions(ctx context.Context, text string) ([]Mention, error) {
	m, err := s.mentionMatcher(ctx)
	if err != nil {
		return nil, err
	}
	var out []Mention
	for _, f := range m.Find(text) {
		out = append(out, Mention{Entity: f.Key, Name: f.Name, Start: f.Start, End: f.End})
	}
	return out, nil
}

func (s *Store) mentionMatcher(ctx context.Context) (*textsearch.Matcher, error) {
	if err := s.loadSearch(ctx); err != nil {
		return nil, err
	}
	ss := &s.search
	ss.mu.RLock()
	m := ss.matcher
	ss.mu.RUnlock()
	if m != nil {
		return m, nil
	}
	ss.analyzer()
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.matcher != nil {
		return ss.matcher, nil
	}
	paths := make([]string, 0, len(ss.meta))
	for p, dm := range ss.meta {
		if len(dm.names) > 0 {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	entries := make([]textsearch.MatchEntry, 0, len(paths))
	for _, p := range paths {
		dm := ss.meta[p]
		entries = append(entries, textsearch.MatchEntry{Key: p, Names: dm.names, Exclude: dm.exclude})
	}
	ss.matcher = textsearch.NewMatcher(ss.folder, entries)
	return ss.matcher, nil
}
