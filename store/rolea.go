package store

import (
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// Role A's indexes (agent/assemble) are kept in their own bucket: what
// it derived from each text by content hash (passages, summaries) and the
// encoded indexes over the manuscript, with the list of chapter versions
// they hold. The store keeps the bytes; the assembler owns their meaning.
// They are derived data: left out of exports, rebuilt when missing.

// ReadRoleA calls fn with the values of keys in Role A's bucket, nil for
// a missing key, in one read transaction. The values are the database's
// own memory: valid only during fn, never to be written.
func (s *Store) ReadRoleA(keys []string, fn func(values [][]byte) error) error {
	out := make([][]byte, len(keys))
	err := s.view(func(tx *bolt.Tx) error {
		if b := tx.Bucket(bRoleA); b != nil { // nil: an older database opened read-only
			for i, k := range keys {
				out[i] = b.Get([]byte(k))
			}
		}
		return fn(out)
	})
	if err != nil {
		return fmt.Errorf("read Role A's indexes: %w", err)
	}
	return nil
}

// ScanRoleA calls fn with the keys of Role A's bucket that start with
// prefix and their values, in key order; the value is valid only during
// the call.
func (s *Store) ScanRoleA(prefix string, fn func(key string, value []byte) error) error {
	err := s.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bRoleA)
		if b == nil {
			return nil
		}
		c := b.Cursor()
		p := []byte(prefix)
		for k, v := c.Seek(p); k != nil && len(k) >= len(p) && string(k[:len(p)]) == prefix; k, v = c.Next() {
			if err := fn(string(k), v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("read Role A's indexes: %w", err)
	}
	return nil
}

// PutRoleA writes kv into Role A's bucket in one transaction; a nil value
// deletes its key.
func (s *Store) PutRoleA(kv map[string][]byte) error {
	if s.readOnly {
		return ErrReadOnly
	}
	err := s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bRoleA)
		for k, v := range kv {
			var err error
			if v == nil {
				err = b.Delete([]byte(k))
			} else {
				err = b.Put([]byte(k), v)
			}
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("save Role A's indexes: %w", err)
	}
	return nil
}
