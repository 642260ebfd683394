package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sameSizeEdit rewrites rel with text of the same length in bytes (one
// CJK character for another) and puts its modification time back, as a
// tool that keeps times does.
func sameSizeEdit(t *testing.T, root, rel, from, to string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(from) != len(to) || !strings.Contains(string(data), from) {
		t.Fatalf("%s: cannot replace %q with %q", rel, from, to)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(data), from, to, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.Stat(p); after.Size() != fi.Size() || !after.ModTime().Equal(fi.ModTime()) {
		t.Fatalf("%s: size or time moved", rel)
	}
}

// Index reads only the files whose stat signature moved since they were
// read; an edit that keeps the size and the modification time is still
// noticed (the inode's change time moves), and so is one made too soon
// after the file was read for its times to be trusted. Reindex (the
// editor's reports) and Rehash read the files whatever their signature.
func TestIndexReadsOnlyWhatStatSaysChanged(t *testing.T) {
	ctx := context.Background()
	const ch = "manuscript/chapter-001/content.md"
	for _, tc := range []struct {
		name string
		// later says the files' times are old enough to be trusted (the
		// clock is moved on); otherwise they were just written.
		later bool
	}{{"times trusted", true}, {"times too recent", false}} {
		t.Run(tc.name, func(t *testing.T) {
			root := copyProject(t, filepath.Join("..", "testdata", "store", "project"))
			s := openStore(t, root, Options{})
			if tc.later {
				s.clock = func() time.Time { return time.Now().Add(time.Hour) }
			}
			rep, err := s.Index(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			files := int64(rep.Scanned)
			if files < 10 || s.reads.Load() != files {
				t.Fatalf("first index read %d of %d files", s.reads.Load(), files)
			}
			s.reads.Store(0)
			rep, err = s.Index(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			want := int64(0)
			if !tc.later {
				want = files // nothing recorded: every file read again
			}
			if got := s.reads.Load(); got != want || rep.Changed != 0 || rep.Unchanged != int(files) {
				t.Fatalf("index with nothing changed read %d files (want %d): %+v", got, want, rep)
			}

			before, err := s.Resource(ch)
			if err != nil {
				t.Fatal(err)
			}
			sameSizeEdit(t, root, ch, "夢幻", "瀟湘")
			s.reads.Store(0)
			rep, err = s.Index(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			after, err := s.Resource(ch)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Changed != 1 || after.Hash == before.Hash {
				t.Fatalf("a same-size edit with its time kept was not noticed: %+v", rep)
			}
			if tc.later && s.reads.Load() != 1 {
				t.Fatalf("read %d files after one edit; want 1", s.reads.Load())
			}
			hits, err := s.Search(ctx, SearchQuery{Text: "瀟湘識通靈", K: 20})
			if err != nil {
				t.Fatal(err)
			}
			if len(hits) == 0 || hits[0].Path != after.Path {
				t.Fatalf("the search index does not hold the edit: %v", hits)
			}

			// The editor's reports and --rehash read whatever the signature.
			s.reads.Store(0)
			if _, err := s.Reindex(ctx, ch); err != nil {
				t.Fatal(err)
			}
			if s.reads.Load() != 1 {
				t.Fatalf("Reindex read %d files; want 1", s.reads.Load())
			}
			s.reads.Store(0)
			if rep, err = s.Rehash(ctx, nil); err != nil {
				t.Fatal(err)
			}
			if s.reads.Load() != files || rep.Unchanged != int(files) {
				t.Fatalf("Rehash read %d of %d files: %+v", s.reads.Load(), files, rep)
			}
		})
	}
}

// A file's signature is not trusted while its times are within
// racyWindow of the reading, and it names the size, both times and the
// inode where the system has them.
func TestStatSig(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.md")
	if err := os.WriteFile(p, []byte("林黛玉𝄞"), 0o644); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if sig := statSig(fi, time.Now()); sig != "" {
		t.Fatalf("a file just written has the signature %q; want none", sig)
	}
	later := time.Now().Add(racyWindow + time.Second)
	sig := statSig(fi, later)
	if sig == "" || !strings.HasPrefix(sig, "13:") {
		t.Fatalf("signature %q; want one starting with the size", sig)
	}
	if err := os.Chtimes(p, fi.ModTime().Add(-time.Hour), fi.ModTime().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	fi2, _ := os.Stat(p)
	if sig2 := statSig(fi2, later); sig2 == sig || sig2 == "" {
		t.Fatalf("signature %q after the time moved; was %q", sig2, sig)
	}
}
