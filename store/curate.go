package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/project"
	bolt "go.etcd.io/bbolt"
)

// Curated is what the store knows of a curation target: the file an
// author-approved output was written to.
type Curated struct {
	// Target is the resource path ("manuscript/chapter-12").
	Target string `json:"target"`
	// File is the file written, relative to the root.
	File string `json:"file"`
	// Hash is the hex SHA-256 of the content last persisted.
	Hash string `json:"hash"`
	// Version is the number of that content in Versions(Target).
	Version int      `json:"version"`
	Tags    []string `json:"tags,omitempty"`
	// Written is false between the record of a new version and the end of
	// its file write; Open finishes such a write after a crash.
	Written bool      `json:"written"`
	At      time.Time `json:"at"`
	// Checks are the consistency-check results attached to this content.
	Checks []CheckResult `json:"checks,omitempty"`
}

// Version is one content a target has had, oldest first.
type Version struct {
	Target string `json:"target"`
	N      int    `json:"n"`
	Hash   string `json:"hash"`
	// Content is the whole file as written.
	Content string   `json:"content"`
	Tags    []string `json:"tags,omitempty"`
	// Origin is "persist" for curated output, "file" for what the author
	// had in the file before a persist replaced it.
	Origin string        `json:"origin"`
	At     time.Time     `json:"at"`
	Checks []CheckResult `json:"checks,omitempty"`
}

// CheckResult is one finding of a consistency checker (Role C) about a
// curated content.
type CheckResult struct {
	Checker  string `json:"checker"`
	Severity string `json:"severity"` // "error", "warning", "info"
	Message  string `json:"message"`
	// Line is the 1-based line in the content, 0 when not tied to one.
	Line   int             `json:"line,omitempty"`
	Detail json.RawMessage `json:"detail,omitempty"`
}

// PersistResult says what Persist did.
type PersistResult struct {
	Target  string `json:"target"`
	File    string `json:"file"`
	Hash    string `json:"hash"`
	Version int    `json:"version"`
	// Unchanged is set when the target already held this content: nothing
	// was written.
	Unchanged bool `json:"unchanged"`
}

// targetFile maps a persist target to its file: "manuscript/chapter-12"
// → "manuscript/chapter-12/content.md", "profiles/x" → "profiles/x.md",
// a path ending in ".md" stays.
func targetFile(target string) (file, res string, err error) {
	c, err := project.CleanRel(target)
	if err != nil {
		return "", "", fmt.Errorf("persist target: %w", err)
	}
	if c == "." || strings.HasPrefix(c, project.DataDir+"/") || c == project.DataDir {
		return "", "", fmt.Errorf("persist target %q is not a project file", target)
	}
	switch {
	case strings.HasSuffix(c, ".md"):
		file = c
	case strings.HasPrefix(c, "manuscript/"):
		if _, ok := knowledge.ChapterNumber(c); ok {
			file = c + "/content.md"
		} else {
			file = c + ".md"
		}
	default:
		file = c + ".md"
	}
	return file, project.ResourcePath(file), nil
}

// Persist curates output into target: the file is written atomically and
// a new version recorded, both durable when Persist returns; summaries,
// relations and the search index are brought up to date by the indexer
// and the queue. Persisting the content the target already holds is a
// no-op; new content keeps the previous one in Versions. Secrets are
// removed from output first.
func (s *Store) Persist(ctx context.Context, output, target string, tags []string) (PersistResult, error) {
	if s.readOnly {
		return PersistResult{}, ErrReadOnly
	}
	if err := ctx.Err(); err != nil {
		return PersistResult{}, err
	}
	file, res, err := targetFile(target)
	if err != nil {
		return PersistResult{}, err
	}
	if r, err := s.Resource(res); err == nil && r.File != file && !strings.HasSuffix(target, ".md") {
		// The resource already lives in the other form ("x.md" for
		// "x/content.md"): curate into the file that is indexed.
		file = r.File
	}
	full, err := project.Resolve(s.root, file)
	if err != nil {
		return PersistResult{}, fmt.Errorf("persist %s: %w", target, err)
	}
	content := s.clean(output)
	if strings.ContainsRune(content, 0) {
		return PersistResult{}, fmt.Errorf("persist %s: output contains NUL bytes", target)
	}
	h := hashOf([]byte(content))
	out := PersistResult{Target: res, File: file, Hash: h}

	s.indexMu.Lock()
	defer s.indexMu.Unlock()

	onDisk, err := os.ReadFile(full)
	exists := err == nil
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return out, fmt.Errorf("persist %s: %w", target, err)
	}
	diskHash := ""
	if exists {
		diskHash = hashOf(onDisk)
	}
	var rec Curated
	if err := s.view(func(tx *bolt.Tx) error {
		_, err := getJSON(tx.Bucket(bCurated), res, &rec)
		return err
	}); err != nil {
		return out, fmt.Errorf("persist %s: %w", target, err)
	}
	if rec.Hash == h && rec.Written && diskHash == h {
		out.Version, out.Unchanged = rec.Version, true
		return out, nil
	}

	now := time.Now().UTC()
	err = s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bCurated)
		if _, err := getJSON(b, res, &rec); err != nil {
			return err
		}
		vb := tx.Bucket(bVersions)
		n := lastVersion(vb, res)
		if exists && diskHash != h && diskHash != rec.Hash {
			// The author's own text is about to be replaced: keep it.
			n++
			if err := putJSON(vb, joinKey(res, seqKey(uint64(n))), Version{Target: res, N: n, Hash: diskHash, Content: string(onDisk), Origin: "file", At: now}); err != nil {
				return err
			}
		}
		n++
		if err := putJSON(vb, joinKey(res, seqKey(uint64(n))), Version{Target: res, N: n, Hash: h, Content: content, Tags: tags, Origin: "persist", At: now}); err != nil {
			return err
		}
		rec = Curated{Target: res, File: file, Hash: h, Version: n, Tags: tags, Written: diskHash == h, At: now}
		if err := putJSON(b, res, rec); err != nil {
			return err
		}
		// The semantic work that follows, durable with the version.
		payload, _ := json.Marshal(CuratedTask{Target: res, File: file, Hash: h, Version: n})
		return putTask(tx, TaskCurated, res, payload)
	})
	if err != nil {
		return out, fmt.Errorf("persist %s: %w", target, err)
	}
	out.Version = rec.Version
	if diskHash != h {
		if err := writeFileAtomic(full, []byte(content), 0o644); err != nil {
			return out, fmt.Errorf("persist %s: write %s: %w", target, file, err)
		}
		if err := s.markWritten(res, h); err != nil {
			return out, err
		}
	}
	// The file is safe; the rest is derived and recoverable by indexing.
	if rel, ok := s.knowledgeFile(file); ok {
		known, err := s.resourceFiles()
		if err == nil {
			_, err = s.indexFiles(ctx, []string{rel}, known, nil, true)
		}
		if err != nil {
			s.log.Warn("persist: indexing deferred", "file", file, "err", err)
		}
	}
	return out, nil
}

func (s *Store) markWritten(res, h string) error {
	err := s.update(func(tx *bolt.Tx) error {
		b := tx.Bucket(bCurated)
		var rec Curated
		if ok, err := getJSON(b, res, &rec); err != nil || !ok || rec.Hash != h {
			return err
		}
		rec.Written = true
		return putJSON(b, res, rec)
	})
	if err != nil {
		return fmt.Errorf("persist %s: %w", res, err)
	}
	return nil
}

// lastVersion returns the highest version number of target.
func lastVersion(vb *bolt.Bucket, target string) int {
	prefix := target + "\x00"
	c := vb.Cursor()
	// Seek past the last possible key of the target, then step back.
	k, _ := c.Seek([]byte(target + "\x01"))
	if k == nil {
		k, _ = c.Last()
	} else {
		k, _ = c.Prev()
	}
	if k == nil || !strings.HasPrefix(string(k), prefix) {
		return 0
	}
	var n int
	fmt.Sscanf(strings.TrimPrefix(string(k), prefix), "%d", &n)
	return n
}

// recoverCurations finishes the file writes a crash interrupted.
func (s *Store) recoverCurations(ctx context.Context) error {
	var todo []Curated
	if err := s.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bCurated).ForEach(func(k, v []byte) error {
			var rec Curated
			if err := unmarshal(v, &rec); err != nil {
				return err
			}
			if !rec.Written {
				todo = append(todo, rec)
			}
			return nil
		})
	}); err != nil {
		return fmt.Errorf("recover curations: %w", err)
	}
	for _, rec := range todo {
		if err := ctx.Err(); err != nil {
			return err
		}
		v, err := s.CuratedVersion(rec.Target, rec.Version)
		if err != nil {
			return fmt.Errorf("recover curation of %s: %w", rec.Target, err)
		}
		full, err := project.Resolve(s.root, rec.File)
		if err != nil {
			return fmt.Errorf("recover curation of %s: %w", rec.Target, err)
		}
		if data, err := os.ReadFile(full); err != nil || hashOf(data) != rec.Hash {
			if err := writeFileAtomic(full, []byte(v.Content), 0o644); err != nil {
				return fmt.Errorf("recover curation of %s: %w", rec.Target, err)
			}
		}
		if err := s.markWritten(rec.Target, rec.Hash); err != nil {
			return err
		}
		s.log.Info("finished an interrupted curation", "target", rec.Target, "version", rec.Version)
	}
	return nil
}

// CuratedTarget returns the curation record of a target.
func (s *Store) CuratedTarget(target string) (Curated, error) {
	_, res, err := targetFile(target)
	if err != nil {
		return Curated{}, err
	}
	var rec Curated
	err = s.view(func(tx *bolt.Tx) error {
		ok, err := getJSON(tx.Bucket(bCurated), res, &rec)
		if err == nil && !ok {
			err = fmt.Errorf("curated %s: %w", res, ErrNotFound)
		}
		return err
	})
	return rec, err
}

// CuratedVersions returns every version of a target, oldest first.
func (s *Store) CuratedVersions(target string) ([]Version, error) {
	_, res, err := targetFile(target)
	if err != nil {
		return nil, err
	}
	var out []Version
	prefix := res + "\x00"
	err = s.view(func(tx *bolt.Tx) error {
		c := tx.Bucket(bVersions).Cursor()
		for k, v := c.Seek([]byte(prefix)); k != nil && strings.HasPrefix(string(k), prefix); k, v = c.Next() {
			var ver Version
			if err := unmarshal(v, &ver); err != nil {
				return err
			}
			out = append(out, ver)
		}
		return nil
	})
	return out, err
}

// CuratedVersion returns version n of a target.
func (s *Store) CuratedVersion(target string, n int) (Version, error) {
	_, res, err := targetFile(target)
	if err != nil {
		return Version{}, err
	}
	var v Version
	err = s.view(func(tx *bolt.Tx) error {
		ok, err := getJSON(tx.Bucket(bVersions), joinKey(res, seqKey(uint64(n))), &v)
		if err == nil && !ok {
			err = fmt.Errorf("version %d of %s: %w", n, res, ErrNotFound)
		}
		return err
	})
	return v, err
}

// RestoreCurated persists version n of a target again, as its newest
// version.
func (s *Store) RestoreCurated(ctx context.Context, target string, n int) (PersistResult, error) {
	v, err := s.CuratedVersion(target, n)
	if err != nil {
		return PersistResult{}, err
	}
	return s.Persist(ctx, v.Content, target, v.Tags)
}

// AttachChecks records consistency-check results for the content with
// hash h of a target (as PersistResult.Hash gave it), replacing earlier
// results from the same checkers. Results for a content the target no
// longer holds go to that content's version only.
func (s *Store) AttachChecks(ctx context.Context, target, h string, checks []CheckResult) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	_, res, err := targetFile(target)
	if err != nil {
		return err
	}
	for i := range checks {
		checks[i].Message = s.clean(checks[i].Message)
	}
	merge := func(have []CheckResult) []CheckResult {
		from := map[string]bool{}
		for _, c := range checks {
			from[c.Checker] = true
		}
		var out []CheckResult
		for _, c := range have {
			if !from[c.Checker] {
				out = append(out, c)
			}
		}
		return append(out, checks...)
	}
	return s.update(func(tx *bolt.Tx) error {
		found := false
		vb := tx.Bucket(bVersions)
		prefix := res + "\x00"
		// Collect first: bbolt cursors are invalidated by writes.
		hits := map[string]Version{}
		c := vb.Cursor()
		for k, v := c.Seek([]byte(prefix)); k != nil && strings.HasPrefix(string(k), prefix); k, v = c.Next() {
			var ver Version
			if err := unmarshal(v, &ver); err != nil {
				return err
			}
			if ver.Hash == h {
				hits[string(k)] = ver
			}
		}
		for k, ver := range hits {
			found = true
			ver.Checks = merge(ver.Checks)
			if err := putJSON(vb, k, ver); err != nil {
				return err
			}
		}
		b := tx.Bucket(bCurated)
		var rec Curated
		ok, err := getJSON(b, res, &rec)
		if err != nil {
			return err
		}
		if ok && rec.Hash == h {
			found = true
			rec.Checks = merge(rec.Checks)
			if err := putJSON(b, res, rec); err != nil {
				return err
			}
		}
		if !found {
			return fmt.Errorf("attach checks: %s has no content %.12s: %w", res, h, ErrNotFound)
		}
		return nil
	})
}
