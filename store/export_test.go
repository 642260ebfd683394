package store

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
)

func exportBytes(t testing.TB, root string) []byte {
	t.Helper()
	s := openStore(t, root, Options{})
	defer s.Close()
	var buf bytes.Buffer
	if err := s.Export(context.Background(), &buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestExportImportRoundTrip(t *testing.T) {
	ctx := context.Background()
	s, root := indexed(t)
	s.Drain(ctx)
	s.RecordOutput(ctx, Output{Workflow: "w.flow", Node: "a", Text: "out 1"})
	s.Freeze(ctx, "w.flow", "a", 1)
	s.SaveCheckpoint(ctx, Checkpoint{RunID: "r1", Status: RunRunning})
	s.AppendLog(ctx, LogEntry{Role: "C", Status: "ok"})
	s.Persist(ctx, "# Chapter 11\n\nText.\n", "manuscript/chapter-11", []string{"t"})
	s.AddRelation(ctx, Relation{From: "manuscript/chapter-11", To: "entities/characters/jane-bennet", Kind: "features"})
	s.Close()
	data := exportBytes(t, root)

	// Readable with a plain JSON parser.
	var doc Export
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatalf("export is not JSON: %v", err)
	}
	if doc.Format != ExportFormat || doc.Schema != SchemaVersion || len(doc.Buckets["resources"]) == 0 || len(doc.Buckets["outputs"]) != 1 {
		t.Fatalf("export = format %q schema %d, %d resources", doc.Format, doc.Schema, len(doc.Buckets["resources"]))
	}
	if _, ok := doc.Buckets["search"]; ok {
		t.Error("search index exported")
	}

	// Import into a fresh project with the same files: everything back.
	root2 := copyProject(t, root)
	s2 := openStore(t, root2, Options{})
	rep, err := s2.Import(ctx, bytes.NewReader(data), true)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Records["resources"] != len(doc.Buckets["resources"]) {
		t.Errorf("import report = %+v", rep)
	}
	cur, ok, _ := s2.CurrentOutput("w.flow", "a")
	if !ok || cur.Text != "out 1" {
		t.Errorf("output after import = %+v", cur)
	}
	if st, _ := s2.Node("w.flow", "a"); st.Frozen != 1 {
		t.Errorf("freeze lost: %+v", st)
	}
	if vs, _ := s2.CuratedVersions("manuscript/chapter-11"); len(vs) != 1 {
		t.Errorf("versions after import = %d", len(vs))
	}
	if out, _ := s2.Relations("manuscript/chapter-11"); len(out) != 1 {
		t.Errorf("relations after import = %+v", out)
	}
	hits, err := s2.Search(ctx, SearchQuery{Text: "Netherfield", K: 1})
	if err != nil || len(hits) != 1 {
		t.Errorf("search after import (rebuilt) = %+v, %v", hits, err)
	}
	// Nothing to re-index: the files match the imported hashes.
	if r, _ := s2.Index(ctx, nil); r.Changed+r.Added+r.Removed != 0 {
		t.Errorf("index after import = %+v", r)
	}
	// Export of the imported store equals the original but for the stamp.
	var buf bytes.Buffer
	s2.Export(ctx, &buf)
	strip := func(b []byte) string { _, rest, _ := strings.Cut(string(b), `"buckets"`); return rest }
	if strip(buf.Bytes()) != strip(data) {
		t.Error("export → import → export differs")
	}

	for _, bad := range []string{"", "{}", `{"format":"x"}`, `{"format":"flowcabal-store-export","schema":99}`,
		`{"format":"flowcabal-store-export","schema":1,"buckets":{"nope":{}}}`} {
		if _, err := s2.Import(ctx, strings.NewReader(bad), false); err == nil {
			t.Errorf("Import(%q) accepted", bad)
		}
	}
}
