package textsearch

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
	"sync"
)

// An index kept in a store is a base and a delta. The base is written
// whole (at a cold build, or when the delta has grown): a table of its
// documents and its postings in blocks of consecutive terms, each block
// stored under its first term, so that a search reads only the blocks
// that hold its query's terms. The delta is what changed since, in one
// small value: the base documents removed and the documents added with
// their postings. A chapter edited rewrites the delta, never the base.
//
// An index opened from a store ([OpenStored]) holds in memory its
// documents table and its delta; the base postings are fetched a query
// at a time and cached.

// BlockTarget is the size a base block is cut at: one block fills about
// one 4 KiB database page.
const BlockTarget = 3900

const (
	docsMagic  = "FCDOC\x02"
	deltaMagic = "FCDLT\x02"
)

// A Block is a run of consecutive terms of a base with their postings;
// First is its first term, the key it is found by.
type Block struct {
	First string
	Data  []byte
}

// A Fetcher finds base blocks: for each of terms (sorted, distinct) it
// calls fn with the block whose first term is the greatest at or before
// the term (nil when there is none). A block may be given for several
// terms; it is valid only during fn.
type Fetcher func(terms []string, fn func(i int, block []byte) error) error

// stored is the part of an index that lives in a store.
type stored struct {
	n     int32 // the base's documents are docs[:n]
	fetch Fetcher
	// unmapped says the base's documents are not in docByID: docOf
	// finds them by their ids, which are in order.
	unmapped bool

	mu     sync.Mutex
	cache  map[string][]posting // live base postings by term
	cached int                  // postings in cache
	err    error                // the first fetch error
}

// maxCached bounds the base postings an opened index keeps in memory
// (16 bytes a posting with the map's share): beyond it the cache starts
// again.
const maxCached = 4 << 20

// Stored reports whether the index's base postings live in a store.
func (x *Index) Stored() bool { return x.st != nil }

// Err returns the first error met fetching base postings, if any: the
// searches since then missed the postings it could not read.
func (x *Index) Err() error {
	if x.st == nil {
		return nil
	}
	x.st.mu.Lock()
	defer x.st.mu.Unlock()
	return x.st.err
}

// DeltaDocs returns the number of live documents added since the base
// was written (all of them for an index not opened from a store).
func (x *Index) DeltaDocs() int {
	if x.st == nil {
		return x.live
	}
	n := 0
	for _, d := range x.docs[x.st.n:] {
		if d.live {
			n++
		}
	}
	return n
}

// DeadBase returns the number of base documents removed since the base
// was written.
func (x *Index) DeadBase() int {
	if x.st == nil {
		return 0
	}
	n := 0
	for _, d := range x.docs[:x.st.n] {
		if !d.live {
			n++
		}
	}
	return n
}

// EncodeBase returns the index's live documents as a base: the
// documents table (in id order) and the postings in blocks of about
// [BlockTarget] bytes, terms in byte order. An index opened from a store
// must be [Index.Load]ed first.
func (x *Index) EncodeBase() (docs []byte, blocks []Block, err error) {
	if x.st != nil {
		return nil, nil, errors.New("encode base: the index's postings are in a store")
	}
	ids, newNum := x.renumberLive()
	docs = []byte(docsMagic)
	docs = binary.LittleEndian.AppendUint64(docs, math.Float64bits(x.k1))
	docs = binary.LittleEndian.AppendUint64(docs, math.Float64bits(x.b))
	docs = binary.AppendUvarint(docs, uint64(len(ids)))
	prev := ""
	for _, id := range ids {
		docs = appendShared(docs, prev, id)
		docs = binary.AppendUvarint(docs, uint64(x.docs[x.docByID[id]].len))
		prev = id
	}
	type termID struct {
		t   string
		tid int32
	}
	terms := make([]termID, 0, x.nterms())
	for tid := range x.nterms() {
		if len(x.plist(int32(tid))) > 0 {
			terms = append(terms, termID{x.dict.term(int32(tid)), int32(tid)})
		}
	}
	slices.SortFunc(terms, func(a, b termID) int {
		switch {
		case a.t < b.t:
			return -1
		case a.t > b.t:
			return 1
		}
		return 0
	})
	var cur []byte
	var first, prevTerm string
	count := 0
	var ps []posting
	flush := func() {
		if count == 0 {
			return
		}
		data := binary.AppendUvarint(make([]byte, 0, len(cur)+4), uint64(count))
		blocks = append(blocks, Block{First: first, Data: append(data, cur...)})
		cur, count = nil, 0
	}
	for _, t := range terms {
		ps = append(ps[:0], x.plist(t.tid)...)
		for i := range ps {
			ps[i].doc = newNum[ps[i].doc]
		}
		slices.SortFunc(ps, func(a, b posting) int { return int(a.doc - b.doc) })
		if count == 0 {
			first, prevTerm = t.t, ""
		}
		cur = appendShared(cur, prevTerm, t.t)
		cur = appendPostings(cur, ps, 0)
		prevTerm = t.t
		count++
		if len(cur) >= BlockTarget {
			flush()
		}
	}
	flush()
	return docs, blocks, nil
}

// appendShared front-codes s after prev: the length of their common
// prefix, then the rest of s.
func appendShared(b []byte, prev, s string) []byte {
	n := 0
	for n < len(prev) && n < len(s) && prev[n] == s[n] {
		n++
	}
	b = binary.AppendUvarint(b, uint64(n))
	return appendString(b, s[n:])
}

// appendPostings writes ps (sorted by doc) with doc numbers less base.
// A posting is one varint when its term occurs once in the document, as
// most do: the gap to the previous document shifted left, with the low
// bit set; otherwise the gap shifted, then the frequency.
func appendPostings(b []byte, ps []posting, base int32) []byte {
	b = binary.AppendUvarint(b, uint64(len(ps)))
	prev := base
	for _, p := range ps {
		gap := uint64(p.doc-prev) << 1
		if p.tf == 1 {
			b = binary.AppendUvarint(b, gap|1)
		} else {
			b = binary.AppendUvarint(b, gap)
			b = binary.AppendUvarint(b, uint64(p.tf))
		}
		prev = p.doc
	}
	return b
}

// posting reads one posting appendPostings wrote: the gap and frequency.
func (r *reader) posting() (uint64, int) {
	v := r.uvarint()
	if v&1 == 1 {
		return v >> 1, 1
	}
	tf := r.count(math.MaxInt32)
	if tf <= 1 {
		r.err = errCorrupt // a frequency of 1 is written in the gap
	}
	return v >> 1, tf
}

// sharedString reads what appendShared wrote, after prev.
func (r *reader) sharedString(prev []byte) []byte {
	n := r.uvarint()
	rest := r.bytes()
	if r.err != nil || n > uint64(len(prev)) {
		r.err = errCorrupt
		return nil
	}
	out := make([]byte, 0, int(n)+len(rest))
	return append(append(out, prev[:n]...), rest...)
}

// postingsOf reads what appendPostings wrote into dst; docs must stay
// below limit.
func (r *reader) postingsOf(dst []posting, base, limit int32) []posting {
	np := r.count(len(r.b))
	doc := int64(base)
	for j := 0; j < np && r.err == nil; j++ {
		delta, tf := r.posting()
		if j > 0 && delta == 0 {
			r.err = errCorrupt
			break
		}
		doc += int64(delta)
		if doc >= int64(limit) || doc < int64(base) {
			r.err = errCorrupt
			break
		}
		dst = append(dst, posting{doc: int32(doc), tf: int32(tf)})
	}
	return dst
}

// skipPostings passes over what appendPostings wrote.
func (r *reader) skipPostings() {
	np := r.count(len(r.b))
	for j := 0; j < np && r.err == nil; j++ {
		r.posting()
	}
}

// findInBlock returns the postings of term in block (nil when the block
// does not hold it); docs must be below limit.
func findInBlock(block []byte, term string, limit int32) ([]posting, error) {
	r := &reader{b: block}
	nt := r.count(len(r.b))
	var prev []byte
	for i := 0; i < nt && r.err == nil; i++ {
		t := r.sharedString(prev)
		if r.err != nil {
			break
		}
		if i > 0 && string(t) <= string(prev) {
			return nil, fmt.Errorf("decode block: %w", errCorrupt)
		}
		prev = t
		switch {
		case string(t) == term:
			ps := r.postingsOf(nil, 0, limit)
			if r.err != nil {
				break
			}
			return ps, nil
		case string(t) > term:
			return nil, nil
		}
		r.skipPostings()
	}
	if r.err != nil {
		return nil, fmt.Errorf("decode block: %w", r.err)
	}
	return nil, nil
}

// OpenStored returns the index whose base has documents table docs and
// whose postings fetch reads, with delta (nil for none) applied. Its
// terms go into dict (shared with other indexes, as [NewIndexDict]).
func OpenStored(docs, delta []byte, fetch Fetcher, dict *Dict) (*Index, error) {
	if len(docs) < len(docsMagic)+16 || string(docs[:len(docsMagic)]) != docsMagic {
		return nil, fmt.Errorf("open index: bad documents table: %w", errCorrupt)
	}
	k1 := math.Float64frombits(binary.LittleEndian.Uint64(docs[len(docsMagic):]))
	bb := math.Float64frombits(binary.LittleEndian.Uint64(docs[len(docsMagic)+8:]))
	if !(k1 > 0 && k1 < 100) || !(bb >= 0 && bb <= 1) {
		return nil, fmt.Errorf("open index: bad parameters: %w", errCorrupt)
	}
	x := NewIndexDict(k1, bb, dict)
	r := &reader{b: docs[len(docsMagic)+16:]}
	nd := r.count(len(r.b))
	// The ids are decoded end to end into one string, and the base's
	// documents are found by a binary search of their sorted ids
	// (docOf) rather than put in docByID: an index of 60,000 passages
	// opened at every start cost a string and a map insert each.
	// Sized ahead (bounded, against damaged lengths): the ids decode to
	// several times the table's bytes.
	buf := make([]byte, 0, min(idsLen(*r, nd), 16*len(docs)))
	ends := make([]int32, 0, nd)
	lens := make([]int32, 0, nd)
	prevStart := 0
	for i := 0; i < nd && r.err == nil; i++ {
		shared := r.uvarint()
		rest := r.bytes()
		l := r.count(math.MaxInt32)
		if r.err != nil {
			break
		}
		start := len(buf)
		if shared > uint64(start-prevStart) {
			r.err = errCorrupt
			break
		}
		buf = append(buf, buf[prevStart:prevStart+int(shared)]...)
		buf = append(buf, rest...)
		if i > 0 && string(buf[start:]) <= string(buf[prevStart:start]) {
			r.err = errCorrupt
			break
		}
		prevStart = start
		ends = append(ends, int32(len(buf)))
		lens = append(lens, int32(l))
		x.totalLen += int64(l)
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = errCorrupt
	}
	if r.err != nil {
		return nil, fmt.Errorf("open index: documents table: %w", r.err)
	}
	all := string(buf)
	x.docs = make([]docEntry, len(ends))
	start := int32(0)
	for i, end := range ends {
		x.docs[i] = docEntry{id: all[start:end], len: lens[i], live: true}
		start = end
	}
	x.live = len(x.docs)
	x.st = &stored{n: int32(len(x.docs)), fetch: fetch, cache: map[string][]posting{}, unmapped: true}
	if delta != nil {
		if err := x.applyDelta(delta); err != nil {
			return nil, err
		}
	}
	x.Compact()
	return x, nil
}

// idsLen returns the bytes the n front-coded ids r starts with take
// decoded (0 when they cannot be read: the decoding says why).
func idsLen(r reader, n int) int {
	total := 0
	for range n {
		shared := r.uvarint()
		rest := r.bytes()
		r.uvarint()
		if r.err != nil || shared > math.MaxInt32 {
			return 0
		}
		total += int(shared) + len(rest)
	}
	return total
}

// EncodeDelta returns what changed since the base of an index opened
// from a store: the base documents removed and the documents added.
func (x *Index) EncodeDelta() ([]byte, error) {
	if x.st == nil {
		return nil, errors.New("encode delta: the index has no base")
	}
	n := x.st.n
	b := []byte(deltaMagic)
	b = binary.AppendUvarint(b, uint64(n))
	var dead []int32
	for d := range x.docs[:n] {
		if !x.docs[d].live {
			dead = append(dead, int32(d))
		}
	}
	b = binary.AppendUvarint(b, uint64(len(dead)))
	prev := int32(0)
	for _, d := range dead {
		b = binary.AppendUvarint(b, uint64(d-prev))
		prev = d
	}
	// The added documents, renumbered densely after the base in the
	// order they were added.
	newNum := make([]int32, len(x.docs))
	var added []int32
	for d := int(n); d < len(x.docs); d++ {
		if x.docs[d].live {
			newNum[d] = n + int32(len(added))
			added = append(added, int32(d))
		}
	}
	b = binary.AppendUvarint(b, uint64(len(added)))
	for _, d := range added {
		b = appendString(b, x.docs[d].id)
		b = binary.AppendUvarint(b, uint64(x.docs[d].len))
	}
	var terms []string
	for tid := range x.nterms() {
		if len(x.plist(int32(tid))) > 0 {
			terms = append(terms, x.dict.term(int32(tid)))
		}
	}
	slices.Sort(terms)
	b = binary.AppendUvarint(b, uint64(len(terms)))
	var ps []posting
	for _, t := range terms {
		tid, _ := x.dict.lookup(t)
		ps = append(ps[:0], x.plist(tid)...)
		for i := range ps {
			ps[i].doc = newNum[ps[i].doc]
		}
		slices.SortFunc(ps, func(a, b posting) int { return int(a.doc - b.doc) })
		b = appendString(b, t)
		b = appendPostings(b, ps, n)
	}
	return b, nil
}

// EmptyDelta is the delta of a base of n documents just written.
func EmptyDelta(n int) []byte {
	b := binary.AppendUvarint([]byte(deltaMagic), uint64(n))
	return append(b, 0, 0, 0)
}

// applyDelta applies an encoded delta to an index just opened.
func (x *Index) applyDelta(data []byte) error {
	if len(data) < len(deltaMagic) || string(data[:len(deltaMagic)]) != deltaMagic {
		return fmt.Errorf("open index: bad delta: %w", errCorrupt)
	}
	n := x.st.n
	r := &reader{b: data[len(deltaMagic):]}
	if r.uvarint() != uint64(n) {
		return fmt.Errorf("open index: the delta is of another base: %w", errCorrupt)
	}
	nd := r.count(int(n))
	d := int64(0)
	for i := 0; i < nd && r.err == nil; i++ {
		d += int64(r.uvarint())
		if d >= int64(n) || (i > 0 && d == 0) || !x.docs[d].live {
			r.err = errCorrupt
			break
		}
		e := &x.docs[d]
		e.live = false
		x.live--
		x.totalLen -= int64(e.len)
		delete(x.docByID, e.id)
	}
	na := r.count(len(r.b))
	for i := 0; i < na && r.err == nil; i++ {
		id := string(r.bytes())
		l := r.count(math.MaxInt32)
		if _, dup := x.docOf(id); dup || r.err != nil {
			r.err = errCorrupt
			break
		}
		x.docByID[id] = int32(len(x.docs))
		x.docs = append(x.docs, docEntry{id: id, len: int32(l), live: true})
		x.totalLen += int64(l)
		x.live++
	}
	nt := r.count(len(r.b))
	var prev []byte
	limit := int32(len(x.docs))
	for i := 0; i < nt && r.err == nil; i++ {
		t := r.bytes()
		if i > 0 && string(t) <= string(prev) {
			r.err = errCorrupt
			break
		}
		prev = t
		tid := x.dict.add(string(t))
		if int(tid) >= len(x.post) {
			x.post = append(x.post, make([][]posting, int(tid)+1-len(x.post))...)
		}
		x.post[tid] = r.postingsOf(x.post[tid][:0], n, limit)
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = errCorrupt
	}
	if r.err != nil {
		return fmt.Errorf("open index: delta: %w", r.err)
	}
	return nil
}

// prefetch reads into the cache the base postings of the terms not in
// it yet, in one fetch.
func (x *Index) prefetch(terms []string) {
	st := x.st
	if st == nil {
		return
	}
	st.mu.Lock()
	var miss []string
	for _, t := range terms {
		if _, ok := st.cache[t]; !ok && !slices.Contains(miss, t) {
			miss = append(miss, t)
		}
	}
	st.mu.Unlock()
	if len(miss) == 0 {
		return
	}
	slices.Sort(miss)
	got := make([][]posting, len(miss))
	err := st.fetch(miss, func(i int, block []byte) error {
		if block == nil {
			return nil
		}
		ps, err := findInBlock(block, miss[i], st.n)
		if err != nil {
			return err
		}
		// Removed base documents leave the postings here, once.
		got[i] = slices.DeleteFunc(ps, func(p posting) bool { return !x.docs[p.doc].live })
		return nil
	})
	st.mu.Lock()
	defer st.mu.Unlock()
	if err != nil {
		if st.err == nil {
			st.err = fmt.Errorf("read the index's postings: %w", err)
		}
		return
	}
	if st.cached > maxCached {
		st.cache, st.cached = map[string][]posting{}, 0
	}
	for i, t := range miss {
		st.cache[t] = got[i]
		st.cached += len(got[i]) + 1
	}
}

// basePostings returns the live base postings of term, fetched or not.
func (x *Index) basePostings(term string) []posting {
	st := x.st
	st.mu.Lock()
	ps, ok := st.cache[term]
	st.mu.Unlock()
	if ok {
		return ps
	}
	x.prefetch([]string{term})
	st.mu.Lock()
	defer st.mu.Unlock()
	return st.cache[term]
}

// Load reads the whole base into memory through scan, which calls its
// argument with every block of the base. The index then no longer
// needs its store, and can be encoded as a new base.
func (x *Index) Load(scan func(fn func(block []byte) error) error) error {
	if x.st == nil {
		return nil
	}
	n := x.st.n
	x.thaw()
	delta := x.post
	x.post = nil
	err := scan(func(block []byte) error {
		r := &reader{b: block}
		nt := r.count(len(r.b))
		var prev []byte
		for i := 0; i < nt && r.err == nil; i++ {
			t := r.sharedString(prev)
			prev = t
			ps := r.postingsOf(nil, 0, n)
			if r.err != nil {
				break
			}
			ps = slices.DeleteFunc(ps, func(p posting) bool { return !x.docs[p.doc].live })
			if len(ps) == 0 {
				continue
			}
			tid := x.dict.add(string(t))
			if int(tid) >= len(x.post) {
				x.post = append(x.post, make([][]posting, int(tid)+1-len(x.post))...)
			}
			if len(x.post[tid]) > 0 {
				return fmt.Errorf("load index: term %q in two blocks: %w", t, errCorrupt)
			}
			x.post[tid] = ps
		}
		if r.err != nil {
			return fmt.Errorf("load index: %w", r.err)
		}
		return nil
	})
	if err != nil {
		x.post = delta
		return err
	}
	for tid, ps := range delta {
		if len(ps) == 0 {
			continue
		}
		if tid >= len(x.post) {
			x.post = append(x.post, make([][]posting, tid+1-len(x.post))...)
		}
		x.post[tid] = append(x.post[tid], ps...)
	}
	for i := range x.docs {
		x.docs[i].terms = nil
	}
	x.termsStale = true
	if x.st.unmapped {
		// Without a store, docByID holds every live document.
		for d := range x.docs[:n] {
			if x.docs[d].live {
				x.docByID[x.docs[d].id] = int32(d)
			}
		}
	}
	x.st = nil
	return nil
}
