package textsearch

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// blockStore is a sorted key-value map standing in for the database: the
// fetcher finds each term's block by the greatest first term at or
// before it, as the store's cursor does.
type blockStore struct {
	firsts []string
	data   map[string][]byte
	reads  int // blocks handed out
	gone   bool
}

func newBlockStore(blocks []Block) *blockStore {
	s := &blockStore{data: map[string][]byte{}}
	for _, b := range blocks {
		s.firsts = append(s.firsts, b.First)
		s.data[b.First] = b.Data
	}
	slices.Sort(s.firsts)
	return s
}

func (s *blockStore) fetch(terms []string, fn func(int, []byte) error) error {
	if s.gone {
		return errors.New("base replaced")
	}
	for i, t := range terms {
		j, found := slices.BinarySearch(s.firsts, t)
		if !found {
			j--
		}
		if j < 0 {
			if err := fn(i, nil); err != nil {
				return err
			}
			continue
		}
		s.reads++
		if err := fn(i, s.data[s.firsts[j]]); err != nil {
			return err
		}
	}
	return nil
}

func (s *blockStore) scan(fn func([]byte) error) error {
	for _, f := range s.firsts {
		if err := fn(s.data[f]); err != nil {
			return err
		}
	}
	return nil
}

// A stored index (a base in blocks plus a delta of removed and added
// documents) searches exactly as an index built afresh from the same
// documents: same hits, bit-identical scores, same document
// frequencies and matched terms; and loading it whole gives the base a
// fresh build would write.
func TestStoredIndexSearchesAsAFreshOne(t *testing.T) {
	an := NewAnalyzer(NewFolder())
	chs := readChapters(t, "hongloumeng")[:12]
	docs := map[string][]string{}
	for i, c := range chs {
		// Passages make many small documents, and many blocks.
		for j, p := range Passages(c, 0) {
			docs[fmt.Sprintf("ch%02d#%d", i, j)] = an.Terms(c[p.Start:p.End])
		}
	}
	ids := make([]string, 0, len(docs))
	for id := range docs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	built := NewIndex(0, 0)
	for _, id := range ids {
		built.Add(id, docs[id])
	}
	docTable, blocks, err := built.EncodeBase()
	if err != nil {
		t.Fatal(err)
	}
	if len(blocks) < 10 {
		t.Fatalf("%d blocks; want many for this test", len(blocks))
	}
	for i, b := range blocks {
		if i > 0 && b.First <= blocks[i-1].First {
			t.Fatalf("blocks out of order: %q after %q", b.First, blocks[i-1].First)
		}
	}
	bs := newBlockStore(blocks)
	x, err := OpenStored(docTable, EmptyDelta(built.Len()), bs.fetch, NewDict())
	if err != nil {
		t.Fatal(err)
	}
	// Edit: remove the documents of chapter 3, replace those of chapter
	// 5 with chapter 0's text, add a new chapter's worth.
	extra := readChapters(t, "xiyouji")[0]
	for _, id := range ids {
		switch {
		case strings.HasPrefix(id, "ch03#"):
			x.Remove(id)
			delete(docs, id)
		case strings.HasPrefix(id, "ch05#"):
			docs[id] = an.Terms(chs[0])
			x.Add(id, docs[id])
		}
	}
	for j, p := range Passages(extra, 0) {
		id := fmt.Sprintf("new#%d", j)
		docs[id] = an.Terms(extra[p.Start:p.End])
		x.Add(id, docs[id])
	}
	delta, err := x.EncodeDelta()
	if err != nil {
		t.Fatal(err)
	}
	// A new process: the documents table, the delta, and the blocks.
	y, err := OpenStored(docTable, delta, bs.fetch, NewDict())
	if err != nil {
		t.Fatal(err)
	}
	fresh := NewIndex(0, 0)
	for id, terms := range docs {
		fresh.Add(id, terms)
	}
	if y.Len() != fresh.Len() || y.DeltaDocs() == 0 || y.DeadBase() == 0 {
		t.Fatalf("len %d (delta %d, dead %d); want %d with a delta", y.Len(), y.DeltaDocs(), y.DeadBase(), fresh.Len())
	}
	// The base's documents are found by their ids (not a map): those
	// kept, those replaced by the delta, and not those removed.
	holds := func(what string, x *Index) {
		t.Helper()
		for id := range docs {
			if !x.Has(id) {
				t.Errorf("%s: %s missing", what, id)
			}
		}
		for _, id := range []string{"ch03#0", "ch03#1", "ch", "ch99#0", "new#999", ""} {
			if x.Has(id) {
				t.Errorf("%s: holds %q", what, id)
			}
		}
	}
	holds("opened", y)
	queries := []string{"賈寶玉 林黛玉 大觀園", "孫悟空 花果山 石猴", "的 了 是", "不存在的詞語ｘｙｚ", chs[0][:300]}
	for _, q := range queries {
		terms := an.Terms(q)
		allow := func(id string) bool { return !strings.HasPrefix(id, "ch01") }
		for _, f := range []func(string) bool{nil, allow} {
			got, want := y.Search(terms, 20, f), fresh.Search(terms, 20, f)
			if !reflect.DeepEqual(got, want) {
				t.Errorf("query %.30q: stored\n%v\nfresh\n%v", q, got, want)
			}
		}
		for _, term := range terms {
			if y.DocFreq(term) != fresh.DocFreq(term) {
				t.Errorf("DocFreq(%q) = %d; fresh %d", term, y.DocFreq(term), fresh.DocFreq(term))
			}
		}
		for _, id := range []string{"ch00#1", "ch05#0", "new#0", "ch03#0"} {
			if got, want := y.Holding(id, terms), fresh.Holding(id, terms); !reflect.DeepEqual(got, want) {
				t.Errorf("Holding(%s) = %v; fresh %v", id, got, want)
			}
		}
	}
	if bs.reads == 0 || y.Err() != nil {
		t.Fatalf("reads %d, err %v", bs.reads, y.Err())
	}
	// Loaded whole, it is the base a fresh build writes.
	if err := y.Load(bs.scan); err != nil {
		t.Fatal(err)
	}
	holds("loaded", y)
	gd, gb, err := y.EncodeBase()
	if err != nil {
		t.Fatal(err)
	}
	fd, fb, _ := fresh.EncodeBase()
	if !reflect.DeepEqual(gd, fd) || !reflect.DeepEqual(gb, fb) {
		t.Fatalf("loaded index encodes another base than a fresh build (%d/%d blocks)", len(gb), len(fb))
	}
	// A base replaced under an open index is an error it reports.
	z, _ := OpenStored(docTable, delta, bs.fetch, NewDict())
	bs.gone = true
	z.Search(an.Terms("寶玉"), 5, nil)
	if z.Err() == nil {
		t.Fatal("no error after the base went")
	}
}

// Damaged stored data is refused with an error, never a panic.
func TestStoredIndexCorrupt(t *testing.T) {
	x := NewIndex(0, 0)
	x.Add("a", []string{"x", "y"})
	x.Add("b", []string{"y", "z"})
	docs, blocks, _ := x.EncodeBase()
	delta := EmptyDelta(2)
	for i := range docs {
		_, _ = OpenStored(docs[:i], delta, nil, NewDict())
	}
	for i := range delta {
		if _, err := OpenStored(docs, delta[:i], nil, NewDict()); err == nil {
			t.Errorf("delta cut at %d accepted", i)
		}
	}
	if _, err := OpenStored(docs, EmptyDelta(3), nil, NewDict()); err == nil {
		t.Error("a delta of another base accepted")
	}
	for i := range blocks[0].Data {
		_, _ = findInBlock(blocks[0].Data[:i], "y", 2)
	}
}
