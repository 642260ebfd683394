package store

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"time"

	bolt "go.etcd.io/bbolt"
)

// ExportFormat names the export document.
const ExportFormat = "flowcabal-store-export"

// Export is the JSON document Export writes: every bucket except the
// search index (rebuilt from the files), as key → record. Reading it
// needs nothing but a JSON parser.
type Export struct {
	Format   string                                `json:"format"`
	Schema   int                                   `json:"schema"`
	Exported time.Time                             `json:"exported"`
	Buckets  map[string]map[string]json.RawMessage `json:"buckets"`
}

// exported lists the buckets export writes, in order.
func exported() [][]byte {
	var out [][]byte
	for _, b := range allBuckets() {
		if !bytes.Equal(b, bSearch) && !bytes.Equal(b, bMeta) && !bytes.Equal(b, bRoleA) && !bytes.Equal(b, bStat) {
			out = append(out, b)
		}
	}
	return out
}

// Export writes the store as one JSON document (see Export), buckets and
// keys in order, so that equal stores give equal documents but for the
// time stamp.
func (s *Store) Export(ctx context.Context, w io.Writer) error {
	bw := bufio.NewWriter(w)
	err := s.view(func(tx *bolt.Tx) error {
		schema, err := schemaOf(tx)
		if err != nil {
			return err
		}
		fmt.Fprintf(bw, "{\"format\":%q,\"schema\":%d,\"exported\":%q,\"buckets\":{", ExportFormat, schema, time.Now().UTC().Format(time.RFC3339))
		for i, name := range exported() {
			if err := ctx.Err(); err != nil {
				return err
			}
			if i > 0 {
				bw.WriteString(",")
			}
			fmt.Fprintf(bw, "\n%q:{", name)
			first := true
			b := tx.Bucket(name)
			if b == nil {
				bw.WriteString("}")
				continue
			}
			if err := b.ForEach(func(k, v []byte) error {
				if !first {
					bw.WriteString(",")
				}
				first = false
				key, _ := json.Marshal(string(k))
				bw.WriteString("\n")
				bw.Write(key)
				bw.WriteString(":")
				if !json.Valid(v) {
					return fmt.Errorf("bucket %s key %q holds a value that is not JSON", name, k)
				}
				bw.Write(v)
				return nil
			}); err != nil {
				return err
			}
			bw.WriteString("}")
		}
		bw.WriteString("\n}}\n")
		return nil
	})
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

// ImportReport counts what Import wrote.
type ImportReport struct {
	Records map[string]int `json:"records"`
}

// Import reads a document written by Export. With replace, the buckets it
// holds are emptied first; otherwise its records are added over the
// existing ones. The search index is rebuilt on next use. Secrets are
// removed from the records as from anything else written.
func (s *Store) Import(ctx context.Context, r io.Reader, replace bool) (ImportReport, error) {
	rep := ImportReport{Records: map[string]int{}}
	if s.readOnly {
		return rep, ErrReadOnly
	}
	var doc Export
	dec := json.NewDecoder(r)
	if err := dec.Decode(&doc); err != nil {
		return rep, fmt.Errorf("import: not an export document: %w", err)
	}
	if doc.Format != ExportFormat {
		return rep, fmt.Errorf("import: format %q is not %q", doc.Format, ExportFormat)
	}
	// Versions so far only added buckets, so an older export reads as is.
	if doc.Schema < 1 || doc.Schema > SchemaVersion {
		return rep, fmt.Errorf("import: the export has schema version %d; this flowcabal reads 1 to %d", doc.Schema, SchemaVersion)
	}
	known := map[string]bool{}
	for _, b := range exported() {
		known[string(b)] = true
	}
	for name, recs := range doc.Buckets {
		if !known[name] {
			return rep, fmt.Errorf("import: unknown bucket %q", name)
		}
		for k, v := range recs {
			if len(k) == 0 || !json.Valid(v) {
				return rep, fmt.Errorf("import: bucket %s: bad record %q", name, k)
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return rep, err
	}
	s.indexMu.Lock()
	defer s.indexMu.Unlock()
	names := make([]string, 0, len(doc.Buckets))
	for name := range doc.Buckets {
		names = append(names, name)
	}
	slices.Sort(names)
	err := s.update(func(tx *bolt.Tx) error {
		for _, name := range names {
			if replace {
				if err := tx.DeleteBucket([]byte(name)); err != nil && tx.Bucket([]byte(name)) != nil {
					return err
				}
			}
			b, err := tx.CreateBucketIfNotExists([]byte(name))
			if err != nil {
				return err
			}
			for k, v := range doc.Buckets[name] {
				if err := b.Put([]byte(k), []byte(s.clean(string(v)))); err != nil {
					return err
				}
				rep.Records[name]++
			}
		}
		// The stat signatures vouch for the resources as they were
		// indexed here: the imported ones must be read again.
		if _, ok := doc.Buckets[string(bResources)]; ok {
			if err := clearBucket(tx, bStat); err != nil {
				return err
			}
		}
		// The search snapshot describes other resources now.
		sb := tx.Bucket(bSearch)
		for _, k := range [][]byte{keySearchIndex, keySearchGen, keySearchDocs} {
			if err := sb.Delete(k); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return rep, fmt.Errorf("import: %w", err)
	}
	s.search.mu.Lock()
	s.search.loaded, s.search.dirty, s.search.matcher = false, false, nil
	s.search.mu.Unlock()
	s.gen.Add(1)
	s.notify()
	return rep, nil
}
