package store

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

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
		// The kept indexes are written in blocks of about a page, mostly
		// in key order: full pages keep the file near its data's size.
		b.FillPercent = 0.95
		keys := make([]string, 0, len(kv))
		for k := range kv {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			v := kv[k]
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

// ErrRoleAGone is returned by [Store.SeekRoleA] when its guard key is not
// in Role A's bucket: what the caller read before was replaced since.
var ErrRoleAGone = errors.New("Role A's kept index was replaced")

// SeekRoleA calls fn, for each of keys (each appended to prefix), with
// the value of the greatest key of Role A's bucket at or before it that
// starts with prefix (nil when there is none), in one read transaction.
// The call fails with [ErrRoleAGone] when guard is not in the bucket.
// The values are the database's own memory, valid only during fn.
func (s *Store) SeekRoleA(guard, prefix string, keys []string, fn func(i int, value []byte) error) error {
	err := s.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bRoleA)
		if b == nil || b.Get([]byte(guard)) == nil {
			return ErrRoleAGone
		}
		c := b.Cursor()
		p := []byte(prefix)
		key := make([]byte, 0, len(prefix)+16)
		for i, k := range keys {
			key = append(append(key[:0], p...), k...)
			ck, v := c.Seek(key)
			switch {
			case ck == nil:
				ck, v = c.Last()
			case !bytes.Equal(ck, key):
				ck, v = c.Prev()
			}
			if ck == nil || !bytes.HasPrefix(ck, p) {
				v = nil
			}
			if err := fn(i, v); err != nil {
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
