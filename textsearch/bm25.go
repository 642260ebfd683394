package textsearch

import (
	"cmp"
	"math"
	"slices"
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

	termID map[string]int32
	terms  []string
	post   [][]posting // by term id, sorted by doc

	docs     []docEntry
	docByID  map[string]int32
	totalLen int64
	live     int
	// termsStale says docs[].terms are not filled in (after decoding);
	// Remove fills them first.
	termsStale bool
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
	return &Index{k1: k1, b: b, termID: map[string]int32{}, docByID: map[string]int32{}}
}

// Len returns the number of documents in the index.
func (x *Index) Len() int { return x.live }

// Has reports whether the index holds document id.
func (x *Index) Has(id string) bool {
	d, ok := x.docByID[id]
	return ok && x.docs[d].live
}

// Add indexes document id with the given terms (as an [Analyzer] produces
// them), replacing any earlier document with the same id.
func (x *Index) Add(id string, terms []string) {
	x.Remove(id)
	d := int32(len(x.docs))
	tf := make(map[int32]int32, len(terms)/2+1)
	for _, t := range terms {
		tid, ok := x.termID[t]
		if !ok {
			tid = int32(len(x.terms))
			x.termID[t] = tid
			x.terms = append(x.terms, t)
			x.post = append(x.post, nil)
		}
		tf[tid]++
	}
	distinct := make([]int32, 0, len(tf))
	for tid, n := range tf {
		x.post[tid] = append(x.post[tid], posting{doc: d, tf: n})
		distinct = append(distinct, tid)
	}
	slices.Sort(distinct)
	x.docs = append(x.docs, docEntry{id: id, len: int32(len(terms)), live: true, terms: distinct})
	x.docByID[id] = d
	x.totalLen += int64(len(terms))
	x.live++
}

// Remove deletes document id; it is a no-op for an unknown id.
func (x *Index) Remove(id string) {
	d, ok := x.docByID[id]
	if !ok || !x.docs[d].live {
		return
	}
	if x.termsStale {
		for tid, p := range x.post {
			for _, e := range p {
				x.docs[e.doc].terms = append(x.docs[e.doc].terms, int32(tid))
			}
		}
		x.termsStale = false
	}
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
	qtf := map[int32]float64{}
	var order []int32
	for t, wt := range weights {
		if tid, ok := x.termID[t]; ok && wt > 0 {
			order = append(order, tid)
			qtf[tid] = wt
		}
	}
	if len(order) == 0 {
		return nil
	}
	// Sum in a fixed order so equal inputs give bit-identical scores.
	slices.Sort(order)
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
	for _, tid := range order {
		p := x.post[tid]
		df := 0
		if allowed == nil {
			df = len(p)
		} else {
			for _, e := range p {
				if allowed[e.doc] {
					df++
				}
			}
		}
		if df == 0 {
			continue
		}
		idf := math.Log(1 + (n-float64(df)+0.5)/(float64(df)+0.5))
		w := idf * qtf[tid]
		for _, e := range p {
			if allowed != nil && !allowed[e.doc] {
				continue
			}
			tf := float64(e.tf)
			dl := float64(x.docs[e.doc].len)
			scores[e.doc] += w * tf * (x.k1 + 1) / (tf + x.k1*(1-x.b+x.b*dl/avg))
		}
	}
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
			hit := Hit{ID: x.docs[d].id, Score: sc}
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
				hits = append(hits, Hit{ID: x.docs[d].id, Score: sc})
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

// DocFreq returns how many documents hold term.
func (x *Index) DocFreq(term string) int {
	if tid, ok := x.termID[term]; ok {
		return len(x.post[tid])
	}
	return 0
}

// IDF returns the BM25 inverse document frequency of term in this index.
func (x *Index) IDF(term string) float64 {
	n := float64(x.live)
	df := float64(x.DocFreq(term))
	return math.Log(1 + (n-df+0.5)/(df+0.5))
}
