package textsearch

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"slices"
)

const indexMagic = "FCBM25\x02"

// MarshalBinary encodes the index: parameters, live documents and
// postings, with terms in sorted order so equal indexes give equal bytes.
func (x *Index) MarshalBinary() ([]byte, error) {
	if x.st != nil {
		return nil, errors.New("encode index: its postings are in a store")
	}
	ids, newNum := x.renumberLive()
	b := []byte(indexMagic)
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x.k1))
	b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x.b))
	b = binary.AppendUvarint(b, uint64(len(ids)))
	for _, id := range ids {
		b = appendString(b, id)
		b = binary.AppendUvarint(b, uint64(x.docs[x.docByID[id]].len))
	}
	terms := make([]string, 0, x.nterms())
	for tid := range x.nterms() {
		if len(x.plist(int32(tid))) > 0 {
			terms = append(terms, x.dict.term(int32(tid)))
		}
	}
	slices.Sort(terms)
	b = binary.AppendUvarint(b, uint64(len(terms)))
	var ps []posting
	for _, t := range terms {
		ps = append(ps[:0], x.postings(t)...)
		for i := range ps {
			ps[i].doc = newNum[ps[i].doc]
		}
		slices.SortFunc(ps, func(a, b posting) int { return int(a.doc - b.doc) })
		b = appendString(b, t)
		b = appendPostings(b, ps, 0)
	}
	return b, nil
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// errCorrupt is wrapped by every decoding error.
var errCorrupt = errors.New("corrupt BM25 index")

type reader struct {
	b   []byte
	err error
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errCorrupt
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) count(max int) int {
	v := r.uvarint()
	if v > uint64(max) {
		r.err = errCorrupt
		return 0
	}
	return int(v)
}

// bytes reads a length-prefixed string; the result aliases the input.
func (r *reader) bytes() []byte {
	v := r.uvarint()
	if r.err != nil || v > uint64(len(r.b)) {
		r.err = errCorrupt
		return nil
	}
	n := int(v)
	b := r.b[:n:n]
	r.b = r.b[n:]
	return b
}

// UnmarshalBinary replaces x with the index encoded in data. The index
// comes out compact (see [Index.Compact]): its postings in one array
// sized by a first pass over data, and nothing of data kept, so a large
// index decodes at the memory it will use.
func (x *Index) UnmarshalBinary(data []byte) error {
	if len(data) < len(indexMagic)+16 || string(data[:len(indexMagic)]) != indexMagic {
		return fmt.Errorf("decode index: bad header: %w", errCorrupt)
	}
	k1 := math.Float64frombits(binary.LittleEndian.Uint64(data[len(indexMagic):]))
	bb := math.Float64frombits(binary.LittleEndian.Uint64(data[len(indexMagic)+8:]))
	if !(k1 > 0 && k1 < 100) || !(bb >= 0 && bb <= 1) {
		return fmt.Errorf("decode index: bad parameters: %w", errCorrupt)
	}
	body := data[len(indexMagic)+16:]
	total, err := countPostings(body)
	if err != nil {
		return err
	}
	r := &reader{b: body}
	y := NewIndex(k1, bb)
	nd := r.count(len(r.b))
	for i := 0; i < nd && r.err == nil; i++ {
		id := string(r.bytes())
		l := r.count(math.MaxInt32)
		if _, dup := y.docByID[id]; dup {
			r.err = errCorrupt
			break
		}
		y.docByID[id] = int32(i)
		y.docs = append(y.docs, docEntry{id: id, len: int32(l), live: true})
		y.totalLen += int64(l)
	}
	y.live = len(y.docs)
	nt := r.count(len(r.b))
	y.dict.ends = make([]int32, 0, nt)
	y.off = make([]int32, 0, nt+1)
	y.pool = make([]posting, 0, total)
	var prevTerm []byte
	for i := 0; i < nt && r.err == nil; i++ {
		t := r.bytes()
		np := r.count(len(r.b))
		// Terms are encoded in increasing order: a repeat is corrupt.
		if i > 0 && string(t) <= string(prevTerm) {
			r.err = errCorrupt
			break
		}
		prevTerm = t
		y.dict.add(string(t))
		if np > total-len(y.pool) {
			r.err = errCorrupt
			break
		}
		y.off = append(y.off, int32(len(y.pool)))
		doc := int64(0)
		for j := 0; j < np && r.err == nil; j++ {
			delta, tf := r.posting()
			if delta > uint64(len(y.docs)) || (j > 0 && delta == 0) {
				r.err = errCorrupt
				break
			}
			doc += int64(delta)
			if doc >= int64(len(y.docs)) {
				r.err = errCorrupt
				break
			}
			y.pool = append(y.pool, posting{doc: int32(doc), tf: int32(tf)})
		}
	}
	y.off = append(y.off, int32(len(y.pool)))
	if r.err == nil && len(r.b) != 0 {
		r.err = errCorrupt
	}
	if r.err != nil {
		return fmt.Errorf("decode index: %w", r.err)
	}
	y.post = nil
	y.termsStale = true // rebuilt on the first Remove
	*x = *y
	return nil
}

// countPostings reads the encoding's structure without keeping anything
// and returns its number of postings.
func countPostings(body []byte) (int, error) {
	r := &reader{b: body}
	nd := r.count(len(r.b))
	for i := 0; i < nd && r.err == nil; i++ {
		r.bytes()
		r.uvarint()
	}
	nt := r.count(len(r.b))
	total := 0
	for i := 0; i < nt && r.err == nil; i++ {
		r.bytes()
		np := r.count(len(r.b))
		total += np
		for j := 0; j < np && r.err == nil; j++ {
			r.posting()
		}
	}
	if r.err != nil {
		return 0, fmt.Errorf("decode index: %w", r.err)
	}
	return total, nil
}

// renumberLive numbers the live documents densely in id order: ids are
// their ids in that order, and newNum maps each old document number to
// its new one (dead documents keep 0 and must not be read).
func (x *Index) renumberLive() (ids []string, newNum []int32) {
	ids = make([]string, 0, x.live)
	for _, d := range x.docs {
		if d.live {
			ids = append(ids, d.id)
		}
	}
	slices.Sort(ids)
	newNum = make([]int32, len(x.docs))
	for i, id := range ids {
		newNum[x.docByID[id]] = int32(i)
	}
	return ids, newNum
}
