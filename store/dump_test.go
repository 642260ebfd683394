package store

import (
	"context"
	"crypto/sha256"
	"fmt"
	"sort"
	"strings"
	"testing"

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
		data, err := s.search.idx.MarshalBinary()
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
