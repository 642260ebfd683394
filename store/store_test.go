package store

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/flowcabal/flowcabal/internal/projecttest"
)

// copyProject copies a sample project into a temporary directory.
func copyProject(t testing.TB, src string) string {
	t.Helper()
	return projecttest.CopyDir(t, src)
}

func writeFile(t testing.TB, root, rel, content string) {
	t.Helper()
	projecttest.WriteFile(t, root, rel, content)
}

func openStore(t testing.TB, root string, opts Options) *Store {
	t.Helper()
	s, err := Open(context.Background(), root, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestOpenCreatesSchemaAndSidecar(t *testing.T) {
	root := t.TempDir()
	s := openStore(t, root, Options{Command: "flowcabal test"})
	v, err := s.Schema()
	if err != nil || v != SchemaVersion {
		t.Fatalf("Schema() = %d, %v; want %d", v, err, SchemaVersion)
	}
	h := readLockSidecar(root)
	if h == nil || h.PID != os.Getpid() || h.Command != "flowcabal test" {
		t.Fatalf("lock sidecar = %+v", h)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if readLockSidecar(root) != nil {
		t.Error("lock sidecar left behind after Close")
	}
}

func TestSecondOpenFailsNamingHolder(t *testing.T) {
	root := t.TempDir()
	s := openStore(t, root, Options{Command: "flowcabal serve"})
	if _, err := s.RecordOutput(context.Background(), Output{Workflow: "w.flow", Node: "a", Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_, err := Open(context.Background(), root, Options{LockWait: 200 * time.Millisecond})
	var le *LockedError
	if !errors.As(err, &le) {
		t.Fatalf("second Open: err = %v, want *LockedError", err)
	}
	if waited := time.Since(start); waited > 10*time.Second {
		t.Errorf("second Open waited %s", waited)
	}
	if le.Holder == nil || le.Holder.PID != os.Getpid() || !strings.Contains(err.Error(), "flowcabal serve") {
		t.Errorf("error does not name the holder: %v", err)
	}

	// Read-only fallback: a copy, readable, refusing writes.
	ro, err := Open(context.Background(), root, Options{LockWait: 200 * time.Millisecond, ReadOnlyIfLocked: true})
	if err != nil {
		t.Fatalf("read-only fallback: %v", err)
	}
	defer ro.Close()
	if !ro.ReadOnly() || !ro.Snapshot() {
		t.Errorf("fallback store: ReadOnly=%v Snapshot=%v", ro.ReadOnly(), ro.Snapshot())
	}
	outs, err := ro.Outputs("w.flow", "a")
	if err != nil || len(outs) != 1 || outs[0].Text != "hello" {
		t.Errorf("read through fallback: %v, %v", outs, err)
	}
	if _, err := ro.RecordOutput(context.Background(), Output{Workflow: "w.flow", Node: "a"}); !errors.Is(err, ErrReadOnly) {
		t.Errorf("write on read-only store: err = %v, want ErrReadOnly", err)
	}
	if _, err := ro.Persist(context.Background(), "x", "manuscript/chapter-1", nil); !errors.Is(err, ErrReadOnly) {
		t.Errorf("persist on read-only store: err = %v, want ErrReadOnly", err)
	}
}

func TestReadOnlyOpenOfMissingStore(t *testing.T) {
	_, err := Open(context.Background(), t.TempDir(), Options{ReadOnly: true})
	if err == nil || !strings.Contains(err.Error(), "does not exist") {
		t.Fatalf("err = %v", err)
	}
}

func TestMigrations(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	// A version-1 database (before embeddings) with one output.
	v1 := builtinMigrations()[:1]
	s, err := Open(ctx, root, Options{migrations: v1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.RecordOutput(ctx, Output{Workflow: "w", Node: "n", Text: "v1"}); err != nil {
		t.Fatal(err)
	}
	s.view(func(tx *bolt.Tx) error {
		if tx.Bucket(bEmbeddings) != nil {
			t.Error("version 1 has an embeddings bucket")
		}
		return nil
	})
	s.Close()

	// The built-in list brings it to the current version.
	s = openStore(t, root, Options{})
	if v, _ := s.Schema(); v != SchemaVersion {
		t.Errorf("schema after migrating = %d", v)
	}
	if err := s.PutEmbedding(ctx, Embedding{Path: "meta/x", Model: "m", Hash: "h", Vector: []float32{1}}); err != nil {
		t.Errorf("embeddings after migration: %v", err)
	}
	s.Close()

	var ran []int
	migs := append(builtinMigrations(),
		migration{to: SchemaVersion + 1, name: "add a bucket", apply: func(tx *bolt.Tx) error {
			ran = append(ran, SchemaVersion+1)
			_, err := tx.CreateBucket([]byte("extra"))
			return err
		}},
		migration{to: SchemaVersion + 2, name: "rewrite outputs", apply: func(tx *bolt.Tx) error {
			ran = append(ran, SchemaVersion+2)
			return nil
		}})
	s2, err := Open(ctx, root, Options{migrations: migs})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := s2.Schema(); v != SchemaVersion+2 || len(ran) != 2 || ran[0] != SchemaVersion+1 || ran[1] != SchemaVersion+2 {
		t.Errorf("after migrating: schema %d, ran %v", v, ran)
	}
	outs, _ := s2.Outputs("w", "n")
	if len(outs) != 1 {
		t.Errorf("migration lost data: %v", outs)
	}
	s2.Close()

	// This build knows only SchemaVersion: a newer database is refused.
	_, err = Open(ctx, root, Options{})
	if err == nil || !strings.Contains(err.Error(), "newer") {
		t.Fatalf("opening a newer schema: err = %v", err)
	}

	// A failing migration leaves the database at its old version.
	root2 := t.TempDir()
	s3 := openStore(t, root2, Options{})
	s3.Close()
	bad := append(builtinMigrations(), migration{to: SchemaVersion + 1, name: "fails", apply: func(tx *bolt.Tx) error {
		if _, err := tx.CreateBucket([]byte("half")); err != nil {
			return err
		}
		return errors.New("boom")
	}})
	if _, err := Open(ctx, root2, Options{migrations: bad}); err == nil || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("failing migration: err = %v", err)
	}
	s4 := openStore(t, root2, Options{})
	if v, _ := s4.Schema(); v != SchemaVersion {
		t.Errorf("after failed migration schema = %d, want %d", v, SchemaVersion)
	}
	s4.view(func(tx *bolt.Tx) error {
		if tx.Bucket([]byte("half")) != nil {
			t.Error("failed migration left a bucket")
		}
		return nil
	})
	s4.Close()

	// A read-only open refuses an old schema instead of migrating it.
	root3 := t.TempDir()
	s5, _ := Open(ctx, root3, Options{migrations: v1})
	s5.Close()
	if _, err := Open(ctx, root3, Options{ReadOnly: true}); err == nil || !strings.Contains(err.Error(), "needs migrating") {
		t.Errorf("read-only open of an old schema: %v", err)
	}
}

func TestEmbeddings(t *testing.T) {
	ctx := context.Background()
	s, root := indexed(t)
	r1, _ := s.Resource("manuscript/chapter-01")
	r2, _ := s.Resource("manuscript/chapter-02")
	r3, _ := s.Resource("entities/characters/jane-bennet")
	for _, e := range []Embedding{
		{Path: r1.Path, Model: "emb", Hash: r1.Hash, Vector: []float32{1, 0, 0}},
		{Path: r2.Path, Model: "emb", Hash: r2.Hash, Vector: []float32{0.8, 0.6, 0}},
		{Path: r3.Path, Model: "emb", Hash: r3.Hash, Vector: []float32{0, 0, 1}},
		{Path: r3.Path, Model: "other", Hash: r3.Hash, Vector: []float32{1, 0, 0}},
	} {
		if err := s.PutEmbedding(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	hits, err := s.Nearest(ctx, "emb", []float32{1, 0.1, 0}, 2)
	if err != nil || len(hits) != 2 || hits[0].Path != r1.Path || hits[1].Path != r2.Path {
		t.Fatalf("nearest = %+v, %v", hits, err)
	}
	// A changed chapter's vector is stale and not served.
	writeFile(t, root, "manuscript/chapter-01/content.md", "changed\n")
	s.Reindex(ctx, "manuscript/chapter-01/content.md")
	hits, _ = s.Nearest(ctx, "emb", []float32{1, 0.1, 0}, 3)
	for _, h := range hits {
		if h.Path == r1.Path {
			t.Errorf("stale vector served: %+v", hits)
		}
	}
	for _, bad := range []Embedding{{Path: "a", Model: "m", Hash: "h"}, {Path: "../a", Model: "m", Hash: "h", Vector: []float32{1}}} {
		if err := s.PutEmbedding(ctx, bad); err == nil {
			t.Errorf("PutEmbedding(%+v) accepted", bad)
		}
	}
	if _, err := s.Nearest(ctx, "emb", []float32{0, 0, 0}, 1); err == nil {
		t.Error("zero query accepted")
	}
}

func TestOutputHistoryAndFreeze(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir(), Options{})
	for i, text := range []string{"first", "second", "third"} {
		o, err := s.RecordOutput(ctx, Output{Workflow: "workflows/book.flow", Node: "draft", Text: text, PromptHash: "p" + text, Model: "m", Usage: Usage{PromptTokens: 10, CompletionTokens: i}})
		if err != nil {
			t.Fatal(err)
		}
		if o.Version != i+1 || o.At.IsZero() {
			t.Fatalf("version %d: %+v", i+1, o)
		}
	}
	// A node with a name that is a prefix of the first must not mix in.
	if _, err := s.RecordOutput(ctx, Output{Workflow: "workflows/book.flow", Node: "dra", Text: "other"}); err != nil {
		t.Fatal(err)
	}
	outs, err := s.Outputs("workflows/book.flow", "draft")
	if err != nil || len(outs) != 3 || outs[0].Text != "first" || outs[2].Usage.CompletionTokens != 2 || outs[1].PromptHash != "psecond" {
		t.Fatalf("Outputs = %+v, %v", outs, err)
	}
	cur, ok, _ := s.CurrentOutput("workflows/book.flow", "draft")
	if !ok || cur.Text != "third" {
		t.Fatalf("current = %+v", cur)
	}
	if _, err := s.RestoreOutput(ctx, "workflows/book.flow", "draft", 1); err != nil {
		t.Fatal(err)
	}
	cur, _, _ = s.CurrentOutput("workflows/book.flow", "draft")
	if cur.Text != "first" {
		t.Errorf("after restore current = %q", cur.Text)
	}
	if _, err := s.Freeze(ctx, "workflows/book.flow", "draft", 2); err != nil {
		t.Fatal(err)
	}
	st, _ := s.Node("workflows/book.flow", "draft")
	cur, _, _ = s.CurrentOutput("workflows/book.flow", "draft")
	if st.Frozen != 2 || cur.Text != "second" {
		t.Errorf("frozen: state %+v current %q", st, cur.Text)
	}
	// A new output while frozen is kept but the frozen one stays served.
	s.RecordOutput(ctx, Output{Workflow: "workflows/book.flow", Node: "draft", Text: "fourth"})
	cur, _, _ = s.CurrentOutput("workflows/book.flow", "draft")
	if cur.Text != "second" {
		t.Errorf("frozen node served %q", cur.Text)
	}
	if err := s.Unfreeze(ctx, "workflows/book.flow", "draft"); err != nil {
		t.Fatal(err)
	}
	cur, _, _ = s.CurrentOutput("workflows/book.flow", "draft")
	if cur.Text != "fourth" {
		t.Errorf("after unfreeze current = %q", cur.Text)
	}
	if _, err := s.Freeze(ctx, "workflows/book.flow", "draft", 99); !errors.Is(err, ErrNotFound) {
		t.Errorf("freeze to a missing version: %v", err)
	}
	if _, err := s.RecordOutput(ctx, Output{Node: "x"}); err == nil {
		t.Error("output without a workflow accepted")
	}
}

func TestCheckpoints(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	s := openStore(t, root, Options{})
	cp := Checkpoint{RunID: "run-1", Workflow: "workflows/book.flow", Status: RunRunning, Nodes: map[string]NodeRun{"a": {Status: "done", Version: 1, Output: "A"}}}
	cp, err := s.SaveCheckpoint(ctx, cp)
	if err != nil || cp.Step != 1 {
		t.Fatalf("save: %+v %v", cp, err)
	}
	cp.Nodes["b"] = NodeRun{Status: "done", Version: 1, Output: "B"}
	cp.Pending = []Decision{{Node: "b", Kind: "approve"}}
	cp.Status = RunWaiting
	cp.Data = []byte(`{"cursor":2}`)
	if cp, err = s.SaveCheckpoint(ctx, cp); err != nil || cp.Step != 2 {
		t.Fatalf("save 2: %+v %v", cp, err)
	}
	s.SaveCheckpoint(ctx, Checkpoint{RunID: "run-2", Workflow: "workflows/other.flow", Status: RunDone})
	s.Close()

	s = openStore(t, root, Options{})
	got, err := s.Checkpoint("run-1")
	if err != nil || got.Step != 2 || got.Nodes["b"].Output != "B" || len(got.Pending) != 1 || string(got.Data) != `{"cursor":2}` {
		t.Fatalf("reloaded checkpoint = %+v, %v", got, err)
	}
	unfinished, _ := s.Runs("", true)
	if len(unfinished) != 1 || unfinished[0].RunID != "run-1" {
		t.Errorf("unfinished runs = %+v", unfinished)
	}
	all, _ := s.Runs("workflows/other.flow", false)
	if len(all) != 1 || all[0].RunID != "run-2" {
		t.Errorf("runs of other.flow = %+v", all)
	}
	if _, err := s.SaveCheckpoint(ctx, Checkpoint{RunID: "x", Data: []byte("{not json")}); err == nil {
		t.Error("invalid data accepted")
	}
	if err := s.DeleteRun(ctx, "run-1"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Checkpoint("run-1"); !errors.Is(err, ErrNotFound) {
		t.Errorf("deleted run: %v", err)
	}
}

func TestAgentLog(t *testing.T) {
	ctx := context.Background()
	s := openStore(t, t.TempDir(), Options{})
	long := strings.Repeat("紅樓夢", 3000) // 27000 bytes
	entries := []LogEntry{
		{Role: "C", Agent: "continuity", Node: "draft", Model: "m", TokensIn: 100, TokensOut: 20, Duration: time.Second, Status: "ok", Input: long, Output: "fine"},
		{Role: "B", Node: "plan", Status: "error", Error: "timeout"},
		{Role: "C", Agent: "timeline", Node: "draft", Status: "ok"},
	}
	for _, e := range entries {
		if _, err := s.AppendLog(ctx, e); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		q    LogQuery
		want int
	}{
		{LogQuery{}, 3},
		{LogQuery{Role: "C"}, 2},
		{LogQuery{Role: "C", Agent: "timeline"}, 1},
		{LogQuery{Status: "error"}, 1},
		{LogQuery{Node: "draft", Limit: 1}, 1},
		{LogQuery{Since: time.Now().Add(time.Hour)}, 0},
	}
	for _, tt := range tests {
		got, err := s.Log(tt.q)
		if err != nil || len(got) != tt.want {
			t.Errorf("Log(%+v) = %d entries, %v; want %d", tt.q, len(got), err, tt.want)
		}
	}
	got, _ := s.Log(LogQuery{Role: "C", Agent: "continuity"})
	e := got[0]
	if !e.Truncated || len(e.Input) > MaxLogText+64 || !strings.HasPrefix(long, strings.Split(e.Input, "…")[0]) || e.Seq != 1 || e.TokensIn != 100 {
		t.Errorf("entry not truncated on a rune boundary: len %d truncated %v seq %d", len(e.Input), e.Truncated, e.Seq)
	}
	last, _ := s.Log(LogQuery{Node: "draft", Limit: 1})
	if last[0].Agent != "timeline" {
		t.Errorf("Limit keeps the last entries; got %+v", last[0])
	}
}
