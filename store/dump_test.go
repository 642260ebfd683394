package store

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/textsearch"
	bolt "go.etcd.io/bbolt"
)

// dumpDerived renders what indexing derives from the files — resources,
// content hashes, relations, arcs, queued content and the search index —
// as text, so that two stores can be compared.
func dumpDerived(t testing.TB, s *Store) string {
	t.Helper()
	if err := s.loadSearch(context.Background()); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	err := s.view(func(tx *bolt.Tx) error {
		for _, name := range [][]byte{bResources, bByHash, bRelations, bRelationsTo, bArcs} {
			fmt.Fprintf(&b, "[%s]\n", name)
			tx.Bucket(name).ForEach(func(k, v []byte) error {
				fmt.Fprintf(&b, "%q = %s\n", k, v)
				return nil
			})
		}
		var q []string
		tx.Bucket(bQueue).ForEach(func(k, v []byte) error { q = append(q, string(k)); return nil })
		sort.Strings(q)
		fmt.Fprintf(&b, "[queue]\n%s\n", strings.Join(q, "\n"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s.search.mu.RLock()
	defer s.search.mu.RUnlock()
	if s.search.loaded {
		data, err := searchBytes(s)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "[search]\n%x\n", sha256.Sum256(data))
		var docs []string
		for p, h := range s.search.docs {
			docs = append(docs, p+" "+h)
		}
		sort.Strings(docs)
		b.WriteString(strings.Join(docs, "\n"))
	}
	return b.String()
}

// firstDiff shows the first differing line of two dumps.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) || i < len(lb); i++ {
		var x, y string
		if i < len(la) {
			x = la[i]
		}
		if i < len(lb) {
			y = lb[i]
		}
		if x != y {
			return fmt.Sprintf("line %d:\n got  %.300s\n want %.300s", i+1, x, y)
		}
	}
	return "(equal)"
}

// searchBytes encodes the search index whole (textsearch's canonical
// encoding), its stored base read in full: two indexes that hold the
// same give the same bytes however they are kept. s.search.mu is held.
func searchBytes(s *Store) ([]byte, error) {
	x := s.search.idx
	if !x.Stored() {
		return x.MarshalBinary()
	}
	delta, err := x.EncodeDelta()
	if err != nil {
		return nil, err
	}
	var table []byte
	err = s.view(func(tx *bolt.Tx) error {
		table = bytes.Clone(tx.Bucket(bSearch).Get(searchBase(s.search.gen, "d")))
		return nil
	})
	if err != nil {
		return nil, err
	}
	y, err := textsearch.OpenStored(table, delta, nil, textsearch.NewDict())
	if err != nil {
		return nil, err
	}
	prefix := searchBase(s.search.gen, "t/")
	err = y.Load(func(fn func([]byte) error) error {
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
		return nil, err
	}
	return y.MarshalBinary()
}
