package store

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestPersist(t *testing.T) {
	ctx := context.Background()
	s, root := indexed(t)
	chapter := "# Chapter 11\n\nElizabeth walked to Netherfield again.\n"
	res, err := s.Persist(ctx, chapter, "manuscript/chapter-11", []string{"draft"})
	if err != nil {
		t.Fatal(err)
	}
	if res.File != "manuscript/chapter-11/content.md" || res.Version != 1 || res.Unchanged || res.Hash != hashOf([]byte(chapter)) {
		t.Fatalf("persist = %+v", res)
	}
	data, err := os.ReadFile(filepath.Join(root, res.File))
	if err != nil || string(data) != chapter {
		t.Fatalf("file = %q, %v", data, err)
	}
	// Indexed and queued at once.
	r, err := s.Resource("manuscript/chapter-11")
	if err != nil || r.Chapter != 11 || r.Hash != res.Hash {
		t.Fatalf("resource after persist = %+v, %v", r, err)
	}
	if lv, _ := s.Level("manuscript/chapter-11", 1); !lv.Pending {
		t.Errorf("levels of a new chapter not pending: %+v", lv)
	}
	q, _ := s.Queue()
	queued := false
	for _, j := range q {
		queued = queued || j.Hash == res.Hash
	}
	if !queued {
		t.Error("persist queued no summary")
	}

	// Same content again: a no-op.
	again, err := s.Persist(ctx, chapter, "manuscript/chapter-11", []string{"draft"})
	if err != nil || !again.Unchanged || again.Version != 1 {
		t.Errorf("second persist = %+v, %v", again, err)
	}
	if vs, _ := s.CuratedVersions("manuscript/chapter-11"); len(vs) != 1 {
		t.Errorf("versions after a no-op = %d", len(vs))
	}

	// New content keeps the old in history.
	v2 := chapter + "\nShe found Jane better.\n"
	res2, err := s.Persist(ctx, v2, "manuscript/chapter-11", []string{"final"})
	if err != nil || res2.Version != 2 {
		t.Fatalf("persist v2 = %+v, %v", res2, err)
	}
	vs, _ := s.CuratedVersions("manuscript/chapter-11")
	if len(vs) != 2 || vs[0].Content != chapter || vs[1].Content != v2 || vs[1].Tags[0] != "final" || vs[0].Origin != "persist" {
		t.Errorf("versions = %+v", vs)
	}

	// The author edits the file, then a persist replaces it: the author's
	// text is kept as a version of its own.
	writeFile(t, root, res.File, "the author's own words\n")
	res3, err := s.Persist(ctx, "a third text\n", "manuscript/chapter-11", nil)
	if err != nil || res3.Version != 4 {
		t.Fatalf("persist over an author edit = %+v, %v", res3, err)
	}
	vs, _ = s.CuratedVersions("manuscript/chapter-11")
	if len(vs) != 4 || vs[2].Origin != "file" || vs[2].Content != "the author's own words\n" {
		t.Errorf("versions after an author edit = %+v", vs)
	}

	// Restoring version 1 persists it as the newest.
	back, err := s.RestoreCurated(ctx, "manuscript/chapter-11", 1)
	if err != nil || back.Version != 5 {
		t.Fatalf("restore = %+v, %v", back, err)
	}
	if data, _ := os.ReadFile(filepath.Join(root, res.File)); string(data) != chapter {
		t.Errorf("after restore file = %q", data)
	}

	// Check results attach to the content they are about.
	checks := []CheckResult{{Checker: "continuity", Severity: "warning", Message: "Jane was in London", Line: 3}}
	if err := s.AttachChecks(ctx, "manuscript/chapter-11", back.Hash, checks); err != nil {
		t.Fatal(err)
	}
	if err := s.AttachChecks(ctx, "manuscript/chapter-11", back.Hash, []CheckResult{{Checker: "timeline", Severity: "info", Message: "ok"}}); err != nil {
		t.Fatal(err)
	}
	rec, _ := s.CuratedTarget("manuscript/chapter-11")
	if len(rec.Checks) != 2 || rec.Checks[0].Checker != "continuity" || !rec.Written {
		t.Errorf("curated record = %+v", rec)
	}
	if err := s.AttachChecks(ctx, "manuscript/chapter-11", "0000", checks); !errors.Is(err, ErrNotFound) {
		t.Errorf("checks for unknown content: %v", err)
	}

	// Other targets: a profile, a path with .md; bad targets refused.
	if r, err := s.Persist(ctx, "Darcy is proud.\n", "profiles/characters/darcy", nil); err != nil || r.File != "profiles/characters/darcy.md" {
		t.Errorf("profile persist = %+v, %v", r, err)
	}
	for _, bad := range []string{"../escape", "/etc/passwd", ".flowcabal/project.db", "", "a\x00b"} {
		if _, err := s.Persist(ctx, "x", bad, nil); err == nil {
			t.Errorf("Persist to %q accepted", bad)
		}
	}
	if _, err := s.Persist(ctx, "nul\x00byte", "meta/x", nil); err == nil {
		t.Error("content with NUL accepted")
	}
	// Leaves no temporary files behind.
	entries, _ := os.ReadDir(filepath.Join(root, "manuscript/chapter-11"))
	if len(entries) != 1 {
		t.Errorf("chapter folder holds %d entries", len(entries))
	}
}

func TestPersistSymlinkEscapeRefused(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, "manuscript")); err != nil {
		t.Fatal(err)
	}
	s := openStore(t, root, Options{})
	if _, err := s.Persist(context.Background(), "x", "manuscript/chapter-1", nil); err == nil {
		t.Fatal("persist through a symlink leaving the project accepted")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("wrote outside the project: %v", entries)
	}
}

func TestNoSecretInDatabase(t *testing.T) {
	ctx := context.Background()
	root := copyProject(t, sampleProject)
	const key = "sk-test-DO-NOT-STORE-4242424242424242"
	t.Setenv("OPENAI_API_KEY", key) // the sample's flowcabal.toml names it
	s := openStore(t, root, Options{Summarizer: &echoSummarizer{}})
	if _, err := s.Index(ctx, nil); err != nil {
		t.Fatal(err)
	}
	leak := "the request was sent with Authorization: Bearer " + key
	s.RecordOutput(ctx, Output{Workflow: "w.flow", Node: "n", Text: leak, Model: "gpt"})
	s.AppendLog(ctx, LogEntry{Role: "C", Input: leak, Output: leak, Error: leak, Status: "error"})
	s.SaveCheckpoint(ctx, Checkpoint{RunID: "r", Nodes: map[string]NodeRun{"n": {Output: leak, Error: leak}}, Pending: []Decision{{Node: "n", Kind: "flag", Detail: leak}}, Data: []byte(`{"x":"` + key + `"}`)})
	res, err := s.Persist(ctx, "# Chapter 12\n\n"+leak+"\n", "manuscript/chapter-12", nil)
	if err != nil {
		t.Fatal(err)
	}
	s.AttachChecks(ctx, "manuscript/chapter-12", res.Hash, []CheckResult{{Checker: "c", Message: leak}})
	if _, err := s.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	out, _, _ := s.CurrentOutput("w.flow", "n")
	if !strings.Contains(out.Text, "[redacted]") {
		t.Errorf("output not redacted: %q", out.Text)
	}
	s.Close()
	for _, f := range []string{".flowcabal/project.db", "manuscript/chapter-12/content.md"} {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte(key)) {
			t.Errorf("%s contains the API key", f)
		}
	}
	exported := exportBytes(t, root)
	if bytes.Contains(exported, []byte(key)) {
		t.Error("the export contains the API key")
	}
}

// echoSummarizer returns the text it gets, as a model that leaks its
// input would.
type echoSummarizer struct{}

func (echoSummarizer) Summarize(ctx context.Context, req SummaryRequest) (Summary, error) {
	return Summary{L0: req.Text, L1: req.Text, Model: "echo"}, nil
}

func TestSecretsFromTheEnvironmentAndABrokenConfig(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	writeFile(t, root, "flowcabal.toml", "this is = = not toml [")
	const key = "tok-ENV-ONLY-9876543210"
	t.Setenv("SOME_SERVICE_API_KEY", key)
	s := openStore(t, root, Options{})
	o, err := s.RecordOutput(ctx, Output{Workflow: "w", Node: "n", Text: "key " + key})
	if err != nil || strings.Contains(o.Text, key) {
		t.Fatalf("output = %q, %v", o.Text, err)
	}
	if r := s.Redact("key " + key); r != o.Text {
		t.Errorf("Redact = %q, want what the history holds, %q", r, o.Text)
	}
	s.Close()
	data, _ := os.ReadFile(filepath.Join(root, ".flowcabal", "project.db"))
	if bytes.Contains(data, []byte(key)) {
		t.Error("the database contains the key")
	}
}

func TestPersistIntoTheIndexedFormOfAResource(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	writeFile(t, root, "manuscript/chapter-07.md", "old seven\n")
	s := openStore(t, root, Options{})
	s.Index(ctx, nil)
	res, err := s.Persist(ctx, "new seven\n", "manuscript/chapter-07", nil)
	if err != nil || res.File != "manuscript/chapter-07.md" {
		t.Fatalf("persist = %+v, %v", res, err)
	}
	if body, _, _ := s.ReadBody("manuscript/chapter-07"); body != "new seven\n" {
		t.Errorf("indexed body = %q", body)
	}
	if _, err := os.Stat(filepath.Join(root, "manuscript/chapter-07/content.md")); err == nil {
		t.Error("a second file was made for the resource")
	}
}
