package store

import (
	"fmt"
	"io/fs"
	"time"

	bolt "go.etcd.io/bbolt"
)

// A file's stat signature stands for its content between two indexing
// passes: [Store.Index] reads and hashes again only the files whose
// signature differs from the one recorded when they were last read, so
// that a process started on a book of 3,000 chapters does not read them
// all to find the one that changed.
//
// The signature is the size, the modification time and, where the system
// has them, the inode's change time and number. The change time is the
// kernel's: a tool that restores a file's modification time after
// editing it (touch -r, an rsync -t, an editor keeping times) still moves
// it, so such an edit is noticed. A file whose times are within
// racyWindow of the moment it was read might be written again within the
// same clock tick without its signature moving; its signature is not
// recorded, and it is read again next time (git's "racily clean" rule).
//
// What the editor reports (didChange, didSave, a watched-file event)
// never relies on the signature: [Store.Reindex] always reads the files
// it is given, and `flowcabal index --rehash` ([Store.Rehash]) reads
// every file.

// racyWindow is how recent a file's times may be for its signature to be
// trusted: well above any file system's time granularity.
const racyWindow = 2 * time.Second

// statSig returns fi's signature as read at now, or "" when the file is
// too recently changed for it to be trusted.
func statSig(fi fs.FileInfo, now time.Time) string {
	mtime := fi.ModTime()
	ctime, ino, ok := changeTime(fi)
	if !ok {
		ctime = mtime
	}
	if now.Sub(mtime) < racyWindow || now.Sub(ctime) < racyWindow {
		return ""
	}
	return fmt.Sprintf("%d:%d:%d:%d", fi.Size(), mtime.UnixNano(), ctime.UnixNano(), ino)
}

// statSigs reads the recorded signatures, by file.
func (s *Store) statSigs() (map[string]string, error) {
	out := map[string]string{}
	err := s.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bStat)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, v []byte) error {
			out[string(k)] = string(v)
			return nil
		})
	})
	if err != nil {
		return nil, fmt.Errorf("index: read the files' signatures: %w", err)
	}
	return out, nil
}

// putStatSigs records the signatures that changed: sigs maps a file to
// its new signature, "" to forget it.
func putStatSigs(tx *bolt.Tx, sigs map[string]string) error {
	b := tx.Bucket(bStat)
	for f, sig := range sigs {
		var err error
		if sig == "" {
			err = b.Delete([]byte(f))
		} else {
			err = b.Put([]byte(f), []byte(sig))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// clearBucket empties bucket name.
func clearBucket(tx *bolt.Tx, name []byte) error {
	if tx.Bucket(name) == nil {
		return nil
	}
	if err := tx.DeleteBucket(name); err != nil {
		return err
	}
	_, err := tx.CreateBucket(name)
	return err
}
