package textsearch

import (
	"cmp"
	"hash/maphash"
	"math"
	"slices"
	"strings"
	"sync"
)

// Default Okapi BM25 parameters.
const (
	DefaultK1 = 1.2
	DefaultB  = 0.75
)

// An Index is an inverted index scored with Okapi BM25. Documents are
// identified by strings (a project path, "path#p3" for a passage) and can
// be added, replaced and removed one at a time. An Index is not safe for
// concurrent writes; concurrent Search calls on an index nobody writes are
// safe.
type Index struct {
	k1, b float64

	dict *Dict
	post [][]posting // by term id (of dict), sorted by doc; may be shorter than dict
	// After Compact, post is nil and the postings of term id t are
	// pool[off[t]:off[t+1]]: one array and 4 bytes a term instead of a
	// slice header (24 bytes) a term. The first write undoes it.
	off  []int32
	pool []posting

	docs     []docEntry
	docByID  map[string]int32
	totalLen int64
	live     int
	// termsStale says docs[].terms are not filled in (after decoding);
	// Remove fills them first.
	termsStale bool
	// st, for an index opened from a store, holds its base: post and
	// pool hold only the postings added since (see stored.go).
	st *stored
}

type posting struct {
	doc int32
	tf  int32
}

type docEntry struct {
	id    string
	len   int32
	live  bool
	terms []int32 // distinct term ids, for removal
}

// NewIndex returns an empty index with parameters k1 and b; zero values
// select [DefaultK1] and [DefaultB].
func NewIndex(k1, b float64) *Index {
	if k1 == 0 {
		k1 = DefaultK1
	}
	if b == 0 {
		b = DefaultB
	}
	x := NewIndexDict(k1, b, NewDict())
	x.termsStale = false
	return x
}

// A Dict numbers terms. Indexes built over the same texts (a work's
// chapters, its passages, its arcs) can share one, so that each distinct
// term is stored once rather than once per index: on a million-character
// Chinese work most of an index's memory was its term dictionary. A Dict
// is written by Index.Add; like the indexes, it is not safe for
// concurrent writes.
//
// It is an open-addressing table of term ids rather than a Go map: 8
// bytes a term instead of about 50, which matters while a snapshot of a
// long work is being built.
type Dict struct {
	// The terms are kept end to end in one byte array, so that the
	// dictionary holds no pointers for the garbage collector to follow:
	// term id i is text[ends[i-1]:ends[i]] (from 0 for the first).
	text  []byte
	ends  []int32
	slots []int32 // id+1, or 0 for an empty slot; len is a power of two, at most half full
	seed  maphash.Seed
}

// NewDict returns an empty dictionary.
func NewDict() *Dict { return &Dict{seed: maphash.MakeSeed(), slots: make([]int32, 64)} }

// Len returns the number of distinct terms.
func (d *Dict) Len() int { return len(d.ends) }

// bytes returns term id's bytes.
func (d *Dict) bytes(id int32) []byte {
	start := int32(0)
	if id > 0 {
		start = d.ends[id-1]
	}
	return d.text[start:d.ends[id]]
}

// term returns term id.
func (d *Dict) term(id int32) string { return string(d.bytes(id)) }

// slot returns the index of t's slot, or of the empty slot where t
// would go.
func (d *Dict) slot(t string) int {
	mask := len(d.slots) - 1
	i := int(maphash.String(d.seed, t)) & mask
	for d.slots[i] != 0 && string(d.bytes(d.slots[i]-1)) != t {
		i = (i + 1) & mask
	}
	return i
}

func (d *Dict) add(t string) int32 {
	i := d.slot(t)
	if d.slots[i] != 0 {
		return d.slots[i] - 1
	}
	id := int32(len(d.ends))
	d.text = append(d.text, t...)
	d.ends = append(d.ends, int32(len(d.text)))
	d.slots[i] = id + 1
	if 2*len(d.ends) > len(d.slots) {
		old := d.slots
		d.slots = make([]int32, 2*len(old))
		mask := len(d.slots) - 1
		for _, v := range old {
			if v != 0 {
				j := int(maphash.Bytes(d.seed, d.bytes(v-1))) & mask
				for d.slots[j] != 0 {
					j = (j + 1) & mask
				}
				d.slots[j] = v
			}
		}
	}
	return id
}

func (d *Dict) lookup(t string) (int32, bool) {
	i := d.slot(t)
	return d.slots[i] - 1, d.slots[i] != 0
}

// NewIndexDict is NewIndex with a shared term dictionary.
func NewIndexDict(k1, b float64, d *Dict) *Index {
	if k1 == 0 {
		k1 = DefaultK1
	}
	if b == 0 {
		b = DefaultB
	}
	// The per-document term lists serve only Remove: an index made
	// over a shared dictionary (a snapshot's) is rarely edited, so they
	// are built on the first Remove rather than kept from the start.
	return &Index{k1: k1, b: b, dict: d, docByID: map[string]int32{}, termsStale: true}
}

// postings returns the postings of term, nil when no document holds it.
func (x *Index) postings(term string) []posting {
	base, own := x.parts(term)
	if len(own) == 0 {
		return base
	}
	if len(base) == 0 {
		return own
	}
	return append(slices.Clip(base), own...)
}

// parts returns the postings of term in two runs sorted by document:
// the stored base's (nil for an index not opened from a store) and the
// ones held in memory, all of whose documents come after the base's.
func (x *Index) parts(term string) (base, own []posting) {
	if tid, ok := x.dict.lookup(term); ok && int(tid) < x.nterms() {
		own = x.plist(tid)
	}
	if x.st != nil {
		base = x.basePostings(term)
	}
	return base, own
}

// findDoc reports whether postings runs hold document d.
func findDoc(d int32, runs ...[]posting) bool {
	for _, p := range runs {
		if _, found := slices.BinarySearchFunc(p, d, func(p posting, d int32) int { return cmp.Compare(p.doc, d) }); found {
			return true
		}
	}
	return false
}

// nterms is the number of term ids that have a postings list (some may
// be empty).
func (x *Index) nterms() int {
	if x.off != nil {
		return len(x.off) - 1
	}
	return len(x.post)
}

// plist returns the postings of term id tid < nterms().
func (x *Index) plist(tid int32) []posting {
	if x.off != nil {
		return x.pool[x.off[tid]:x.off[tid+1]:x.off[tid+1]]
	}
	return x.post[tid]
}

// thaw undoes Compact's layout before a write.
func (x *Index) thaw() {
	if x.off == nil {
		return
	}
	x.post = make([][]posting, len(x.off)-1)
	for tid := range x.post {
		x.post[tid] = x.plist(int32(tid)) // full capacity: appends copy
	}
	x.off, x.pool = nil, nil
}

// Compact trims the index's memory for an index that will only be
// searched from now on: postings lists move into one exactly sized
// array, and the per-document term lists kept for Remove are dropped.
// A later Add or Remove undoes it, at the cost of a rebuild.
func (x *Index) Compact() {
	if x.off != nil {
		return
	}
	n := 0
	for _, p := range x.post {
		n += len(p)
	}
	x.pool = make([]posting, 0, n)
	x.off = make([]int32, 0, len(x.post)+1)
	for _, p := range x.post {
		x.off = append(x.off, int32(len(x.pool)))
		x.pool = append(x.pool, p...)
	}
	x.off = append(x.off, int32(len(x.pool)))
	x.post = nil
	for i := range x.docs {
		x.docs[i].terms = nil
	}
	x.docs = slices.Clip(x.docs)
	x.termsStale = true
}

// Len returns the number of documents in the index.
func (x *Index) Len() int { return x.live }

// Has reports whether the index holds document id.
func (x *Index) Has(id string) bool {
	_, ok := x.docOf(id)
	return ok
}

// docOf returns the number of live document id.
func (x *Index) docOf(id string) (int32, bool) {
	if d, ok := x.docByID[id]; ok && x.docs[d].live {
		return d, true
	}
	if x.st == nil || !x.st.unmapped {
		return 0, false
	}
	base := x.docs[:x.st.n]
	d, found := slices.BinarySearchFunc(base, id, func(e docEntry, id string) int { return strings.Compare(e.id, id) })
	if !found || !base[d].live {
		return 0, false
	}
	return int32(d), true
}

// Holding returns the terms of terms that document id holds, in the
// order given, without repeats: which words of a query a hit matched,
// read from the postings rather than by analysing the text again.
func (x *Index) Holding(id string, terms []string) []string {
	d, ok := x.docOf(id)
	if !ok {
		return nil
	}
	x.prefetch(terms)
	var out []string
	for _, t := range terms {
		if slices.Contains(out, t) {
			continue
		}
		if base, own := x.parts(t); findDoc(d, base, own) {
			out = append(out, t)
		}
	}
	return out
}

// Add indexes document id with the given terms (as an [Analyzer] produces
// them), replacing any earlier document with the same id.
func (x *Index) Add(id string, terms []string) {
	x.Remove(id)
	tf := make(map[int32]int32, len(terms)/2+1)
	for _, t := range terms {
		tf[x.dict.add(t)]++
	}
	x.addMap(id, tf, int32(len(terms)))
}

// TermCounts are a document's terms counted: each distinct term once, in
// the order of its first occurrence, with how often it occurs, and the
// document's length in terms. Counting needs no index, so it can be done
// on every core while one goroutine adds the counted documents
// ([Index.AddCounted]), which then touches each distinct term once
// rather than each occurrence.
type TermCounts struct {
	Terms  []string
	Counts []int32
	Len    int32
}

// CountTerms counts terms (as an [Analyzer] produces them).
func CountTerms(terms []string) TermCounts {
	at := make(map[string]int32, len(terms)/2+1)
	tc := TermCounts{Len: int32(len(terms))}
	for _, t := range terms {
		if i, ok := at[t]; ok {
			tc.Counts[i]++
			continue
		}
		at[t] = int32(len(tc.Terms))
		tc.Terms = append(tc.Terms, t)
		tc.Counts = append(tc.Counts, 1)
	}
	return tc
}

// MergeCounts counts the terms of documents joined in order, from their
// own counts: CountTerms of their terms joined gives the same.
func MergeCounts(parts []TermCounts) TermCounts {
	n := 0
	for _, p := range parts {
		n += len(p.Terms)
	}
	at := make(map[string]int32, n/2+1)
	var tc TermCounts
	for _, p := range parts {
		tc.Len += p.Len
		for i, t := range p.Terms {
			if j, ok := at[t]; ok {
				tc.Counts[j] += p.Counts[i]
				continue
			}
			at[t] = int32(len(tc.Terms))
			tc.Terms = append(tc.Terms, t)
			tc.Counts = append(tc.Counts, p.Counts[i])
		}
	}
	return tc
}

// AddCounted is [Index.Add] with the terms counted by [CountTerms] (each
// term once): the index is the same as Add of the terms gives.
func (x *Index) AddCounted(id string, tc TermCounts) {
	x.Remove(id)
	tids := make([]int32, len(tc.Terms))
	for i, t := range tc.Terms {
		tids[i] = x.dict.add(t)
	}
	x.addCounts(id, tids, tc.Counts, tc.Len)
}

// addMap is addCounts with the frequencies in a map.
func (x *Index) addMap(id string, tf map[int32]int32, length int32) {
	tids := make([]int32, 0, len(tf))
	counts := make([]int32, 0, len(tf))
	for tid, n := range tf {
		tids = append(tids, tid)
		counts = append(counts, n)
	}
	x.addCounts(id, tids, counts, length)
}

// addCounts adds document id (not in the index) with the frequencies
// counts of its distinct term ids tids and its length in terms.
func (x *Index) addCounts(id string, tids, counts []int32, length int32) {
	x.thaw()
	d := int32(len(x.docs))
	var distinct []int32
	if !x.termsStale {
		distinct = make([]int32, 0, len(tids))
	}
	top := int32(-1)
	for _, tid := range tids {
		top = max(top, tid)
	}
	if int(top) >= len(x.post) {
		x.post = append(x.post, make([][]posting, int(top)+1-len(x.post))...)
	}
	for i, tid := range tids {
		x.post[tid] = append(x.post[tid], posting{doc: d, tf: counts[i]})
		if !x.termsStale {
			distinct = append(distinct, tid)
		}
	}
	slices.Sort(distinct)
	x.docs = append(x.docs, docEntry{id: id, len: length, live: true, terms: distinct})
	x.docByID[id] = d
	x.totalLen += int64(length)
	x.live++
}

// AddUnion indexes document id as the concatenation of documents docs of
// from (unknown ones are ignored): the same as Add with their terms
// joined, without needing the term lists again. from must hold its
// postings in memory (not [Index.Stored]).
func (x *Index) AddUnion(id string, from *Index, docs []string) {
	x.Remove(id)
	from.fillTerms()
	tids, counts, length := from.union(docs, make([]int32, from.nterms()))
	if from.dict != x.dict {
		for i, tid := range tids {
			tids[i] = x.dict.add(from.dict.term(tid))
		}
	}
	x.addCounts(id, tids, counts, length)
}

// AddUnions is AddUnion of each ids[i] with docs[i], in that order, the
// unions made on up to workers goroutines when the two indexes share
// their dictionary (each union is a search of from's postings; a
// hundred arcs of 3,000 chapters took two seconds on one core).
func (x *Index) AddUnions(ids []string, from *Index, docs [][]string, workers int) {
	if from.dict != x.dict {
		for i, id := range ids {
			x.AddUnion(id, from, docs[i])
		}
		return
	}
	workers = max(1, workers)
	from.fillTerms() // from is only read from here on
	type union struct {
		tids, counts []int32
		length       int32
	}
	// One union a goroutine at a time: their counts are not all held at
	// once (a server's peak memory is made while it builds).
	chunk := workers
	us := make([]union, chunk)
	scratch := make([][]int32, workers)
	for w := range scratch {
		scratch[w] = make([]int32, from.nterms())
	}
	for lo := 0; lo < len(ids); lo += chunk {
		hi := min(len(ids), lo+chunk)
		var wg sync.WaitGroup
		next := make(chan int)
		for w := range min(workers, hi-lo) {
			wg.Go(func() {
				for i := range next {
					u := &us[i-lo]
					u.tids, u.counts, u.length = from.union(docs[i], scratch[w])
				}
			})
		}
		for i := lo; i < hi; i++ {
			next <- i
		}
		close(next)
		wg.Wait()
		for i := lo; i < hi; i++ {
			u := us[i-lo]
			x.Remove(ids[i])
			x.addCounts(ids[i], u.tids, u.counts, u.length)
			us[i-lo] = union{}
		}
	}
}

// union returns the distinct term ids of documents docs of x (unknown
// ones ignored) in the order first met, with their summed frequencies,
// and the documents' summed length. It only reads x, whose term lists
// must be filled (fillTerms). at, of x.nterms() zeros, is where each
// term id's place in tids is noted (plus one) meanwhile: an array
// rather than a map, given back zeroed.
func (x *Index) union(docs []string, at []int32) (tids, counts []int32, length int32) {
	defer func() {
		for _, tid := range tids {
			at[tid] = 0
		}
	}()
	for _, doc := range docs {
		fd, ok := x.docOf(doc)
		if !ok {
			continue
		}
		length += x.docs[fd].len
		for _, tid := range x.docs[fd].terms {
			p := x.plist(tid)
			i, found := slices.BinarySearchFunc(p, fd, func(p posting, d int32) int { return cmp.Compare(p.doc, d) })
			if !found {
				continue
			}
			if j := at[tid]; j > 0 {
				counts[j-1] += p[i].tf
				continue
			}
			tids = append(tids, tid)
			counts = append(counts, p[i].tf)
			at[tid] = int32(len(tids))
		}
	}
	return tids, counts, length
}

// fillTerms rebuilds the documents' term lists after Compact or decoding.
func (x *Index) fillTerms() {
	if !x.termsStale {
		return
	}
	for tid := range x.nterms() {
		for _, e := range x.plist(int32(tid)) {
			x.docs[e.doc].terms = append(x.docs[e.doc].terms, int32(tid))
		}
	}
	x.termsStale = false
}

// Remove deletes document id; it is a no-op for an unknown id.
func (x *Index) Remove(id string) {
	d, ok := x.docOf(id)
	if !ok {
		return
	}
	if x.st != nil && d < x.st.n {
		// A base document stays in the stored postings, which skip it
		// from now on.
		e := &x.docs[d]
		x.totalLen -= int64(e.len)
		x.live--
		e.live = false
		delete(x.docByID, id)
		x.st.mu.Lock()
		x.st.cache, x.st.cached = map[string][]posting{}, 0
		x.st.mu.Unlock()
		return
	}
	x.fillTerms()
	x.thaw()
	e := &x.docs[d]
	for _, tid := range e.terms {
		p := x.post[tid]
		i, found := slices.BinarySearchFunc(p, d, func(p posting, d int32) int { return cmp.Compare(p.doc, d) })
		if found {
			x.post[tid] = slices.Delete(p, i, i+1)
		}
	}
	x.totalLen -= int64(e.len)
	x.live--
	e.live = false
	e.terms = nil
	delete(x.docByID, id)
}

// A Hit is one scored document.
type Hit struct {
	ID    string
	Score float64
}

// Search scores the documents that allow accepts (nil accepts all)
// against the query terms and returns the best k (k <= 0: all with a
// positive score), best first, ties by id. The BM25 statistics are those
// of the accepted documents, as if the index held only them. A term repeated in the query
// counts as often as it is repeated.
func (x *Index) Search(query []string, k int, allow func(id string) bool) []Hit {
	w := map[string]float64{}
	for _, t := range query {
		w[t]++
	}
	return x.SearchWeighted(w, k, allow)
}

// SearchWeighted is Search with a weight per query term: a term's BM25
// contribution is multiplied by its weight, so expansion terms (names
// found through a description, words of upstream outputs) can count for
// less than the author's own words. Terms with weight <= 0 are ignored.
func (x *Index) SearchWeighted(weights map[string]float64, k int, allow func(id string) bool) []Hit {
	if x.live == 0 || len(weights) == 0 {
		return nil
	}
	type qterm struct {
		t        string
		w        float64
		base, ps []posting
	}
	terms := make([]string, 0, len(weights))
	for t, wt := range weights {
		if wt > 0 {
			terms = append(terms, t)
		}
	}
	// Sum in a fixed order so equal inputs give bit-identical scores:
	// the terms' own order, not their ids, which depend on the order the
	// texts were added in (an index read from the store and updated
	// scores exactly as one built afresh).
	slices.Sort(terms)
	x.prefetch(terms)
	var order []qterm
	for _, t := range terms {
		if base, own := x.parts(t); len(base)+len(own) > 0 {
			order = append(order, qterm{t, weights[t], base, own})
		}
	}
	if len(order) == 0 {
		return nil
	}
	// With a filter, the collection statistics (document count, average
	// length, document frequencies) are those of the accepted documents
	// alone, so a search is exactly what it would be on an index that
	// held only them: documents outside the filter cannot change it.
	n := float64(x.live)
	avg := float64(x.totalLen) / float64(x.live)
	var allowed []bool
	if allow != nil {
		allowed = make([]bool, len(x.docs))
		live, total := 0, int64(0)
		for d := range x.docs {
			if x.docs[d].live && allow(x.docs[d].id) {
				allowed[d] = true
				live++
				total += int64(x.docs[d].len)
			}
		}
		if live == 0 {
			return nil
		}
		n, avg = float64(live), float64(total)/float64(live)
	}
	if avg == 0 {
		avg = 1
	}
	scores := make([]float64, len(x.docs))
	for _, q := range order {
		df := 0
		if allowed == nil {
			df = len(q.base) + len(q.ps)
		} else {
			for _, p := range [2][]posting{q.base, q.ps} {
				for _, e := range p {
					if allowed[e.doc] {
						df++
					}
				}
			}
		}
		if df == 0 {
			continue
		}
		idf := math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
		w := idf * q.w
		for _, p := range [2][]posting{q.base, q.ps} {
			for _, e := range p {
				if allowed != nil && !allowed[e.doc] {
					continue
				}
				tf := float64(e.tf)
				dl := float64(x.docs[e.doc].len)
				scores[e.doc] += w * tf * (x.k1 + 1) / (tf + x.k1*(1-x.b+x.b*dl/avg))
			}
		}
	}
	return best(k, scores, func(d int) string { return x.docs[d].id })
}

// best returns the hits of the documents with a positive score (scores
// by document number, id naming them), the best k of them (k <= 0: all),
// best first, ties by id.
func best(k int, scores []float64, id func(d int) string) []Hit {
	better := func(a, b Hit) bool { // a ranks before b
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		return a.ID < b.ID
	}
	var hits []Hit
	if k > 0 {
		// Keep the best k in a min-heap (worst on top): no full sort of
		// every document that shares a term with the query.
		h := make([]Hit, 0, k)
		for d, sc := range scores {
			if sc <= 0 {
				continue
			}
			hit := Hit{ID: id(d), Score: sc}
			if len(h) < k {
				h = append(h, hit)
				for i := len(h) - 1; i > 0; {
					p := (i - 1) / 2
					if !better(h[p], h[i]) {
						break
					}
					h[p], h[i] = h[i], h[p]
					i = p
				}
				continue
			}
			if !better(hit, h[0]) {
				continue
			}
			h[0] = hit
			for i := 0; ; {
				l, r, m := 2*i+1, 2*i+2, i
				if l < len(h) && better(h[m], h[l]) {
					m = l
				}
				if r < len(h) && better(h[m], h[r]) {
					m = r
				}
				if m == i {
					break
				}
				h[i], h[m] = h[m], h[i]
				i = m
			}
		}
		hits = h
	} else {
		for d, sc := range scores {
			if sc > 0 {
				hits = append(hits, Hit{ID: id(d), Score: sc})
			}
		}
	}
	slices.SortFunc(hits, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return cmp.Compare(a.ID, b.ID)
	})
	return hits
}

// A Group is a document made of other documents of an index: its terms
// are theirs, joined.
type Group struct {
	ID   string
	Docs []string
}

// A Grouping is a set of groups resolved against one index's
// documents, for [Index.SearchGroups]; it is valid while the index is
// not changed.
type Grouping struct {
	x      *Index
	groups []Group
	// first is, by document, the first group it belongs to plus one (0:
	// none); more its other groups, for the rare document in several.
	first []int32
	more  map[int32][]int32
	lens  []int64 // each group's length: the sum of its documents'
	total int64

	// mu guards cache: each term's postings by group (doc: the group's
	// number, tf: its documents' summed), made from x's postings when a
	// search first asks for the term. A term's grouped postings are few
	// (a hundred arcs) where x's are many (3,000 chapters): the next
	// searches read those.
	mu     sync.Mutex
	cache  map[string][]posting
	cached int
}

// postings returns term's postings by group, summed from x's.
func (g *Grouping) postings(term string) []posting {
	g.mu.Lock()
	ps, ok := g.cache[term]
	g.mu.Unlock()
	if ok {
		return ps
	}
	base, own := g.x.parts(term)
	tf := make(map[int32]int64)
	var order []int32
	add := func(gr int32, f int32) {
		if _, seen := tf[gr]; !seen {
			order = append(order, gr)
		}
		tf[gr] += int64(f)
	}
	for _, p := range [2][]posting{base, own} {
		for _, e := range p {
			if gr := g.first[e.doc]; gr > 0 {
				add(gr-1, e.tf)
				for _, gr := range g.more[e.doc] {
					add(gr, e.tf)
				}
			}
		}
	}
	slices.Sort(order)
	ps = make([]posting, len(order))
	for i, gr := range order {
		// int32, as a group's index keeps its frequencies.
		ps[i] = posting{doc: gr, tf: int32(tf[gr])}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cached > maxCached {
		g.cache, g.cached = nil, 0
	}
	if g.cache == nil {
		g.cache = map[string][]posting{}
	}
	g.cache[term] = ps
	g.cached += len(ps) + 1
	return ps
}

// Grouping resolves groups against x's documents (unknown ones are
// ignored): each group counts as a document of the grouped index, even
// when none of its documents is in x.
func (x *Index) Grouping(groups []Group) *Grouping {
	g := &Grouping{x: x, groups: groups, first: make([]int32, len(x.docs)), lens: make([]int64, len(groups))}
	for i, gr := range groups {
		for _, id := range gr.Docs {
			d, ok := x.docOf(id)
			if !ok || !x.docs[d].live {
				continue
			}
			g.lens[i] += int64(x.docs[d].len)
			if g.first[d] == 0 {
				g.first[d] = int32(i) + 1
				continue
			}
			if g.more == nil {
				g.more = map[int32][]int32{}
			}
			g.more[d] = append(g.more[d], int32(i))
		}
		g.total += int64(int32(g.lens[i]))
	}
	return g
}

// SearchGroups is [Index.SearchWeighted] over an index whose documents
// are the groups of g, each the union of some of x's documents (an arc
// of chapters), with x's parameters: the same hits with the same scores,
// bit for bit, as an index to which each group was added with its
// documents' terms joined ([Index.AddUnion]), without such an index
// being made or kept. The group statistics are summed from x's postings
// of the query's terms, so a change to one of x's documents needs
// nothing else brought up to date. g must be x's, made since x last
// changed.
func (x *Index) SearchGroups(weights map[string]float64, k int, g *Grouping) []Hit {
	if g == nil || g.x != x || len(g.groups) == 0 || len(weights) == 0 {
		return nil
	}
	lens, groups := g.lens, g.groups
	terms := make([]string, 0, len(weights))
	for t, wt := range weights {
		if wt > 0 {
			terms = append(terms, t)
		}
	}
	// The terms' own order, as SearchWeighted sums them.
	slices.Sort(terms)
	// x's postings of the terms not grouped yet, in one fetch.
	var miss []string
	g.mu.Lock()
	for _, t := range terms {
		if _, ok := g.cache[t]; !ok {
			miss = append(miss, t)
		}
	}
	g.mu.Unlock()
	x.prefetch(miss)
	n := float64(len(groups))
	avg := float64(g.total) / n
	if avg == 0 {
		avg = 1
	}
	scores := make([]float64, len(groups))
	for _, t := range terms {
		ps := g.postings(t)
		if len(ps) == 0 {
			continue
		}
		w := math.Log(1+(n-float64(len(ps))+0.5)/(float64(len(ps))+0.5)) * weights[t]
		for _, e := range ps {
			f := float64(e.tf)
			dl := float64(int32(lens[e.doc]))
			scores[e.doc] += w * f * (x.k1 + 1) / (f + x.k1*(1-x.b+x.b*dl/avg))
		}
	}
	return best(k, scores, func(g int) string { return groups[g].ID })
}

// DocFreq returns how many documents hold term.
func (x *Index) DocFreq(term string) int {
	base, own := x.parts(term)
	return len(base) + len(own)
}

// IDF returns the BM25 inverse document frequency of term in this index.
func (x *Index) IDF(term string) float64 {
	n := float64(x.live)
	df := float64(x.DocFreq(term))
	return math.Log(1 + (n-df+0.5)/(df+0.5))
}
