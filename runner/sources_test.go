package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/summarize"
	"github.com/flowcabal/flowcabal/textsearch"
	"github.com/flowcabal/flowcabal/workflowlang"
)

// A node that reads an entity at L0: one sentence, which an edit further
// down the file leaves as it was. The prompt is then byte for byte the
// same, and only the source hashes tell the cache that the output was
// built from an older file.
const entityFlow = `
workflow "stale" {}
node portrait { user """Paint {{@entities/characters/lin-daiyu:L0}} in one line.""" }
`

const linDaiyu = `---
name: 林黛玉
kind: character
facts:
  home: 瀟湘館
---
林黛玉 is a poet of the Jia household.

She plays the qin.
`

func writeFile(t *testing.T, root, rel, text string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func TestCacheNeverServesAnOutputWhoseSourcesChanged(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, entityFlow, llmtest.Script{Default: &llmtest.Reply{Echo: true}})
	const entity = "entities/characters/lin-daiyu.md"
	writeFile(t, f.root, entity, linDaiyu)
	if _, err := f.store.Index(ctx, nil); err != nil {
		t.Fatal(err)
	}
	an := textsearch.NewAnalyzer(textsearch.NewFolder())
	f.run.cfg.Knowledge = StoreKnowledge{Store: f.store, Summarizer: summarize.New(an, textsearch.NewCounter(""))}

	res, err := f.run.Run(ctx, f.checked(), Options{})
	if err != nil || res.Nodes["portrait"].Status != "done" {
		t.Fatalf("first run: %v %+v", err, res)
	}
	o, err := f.store.OutputVersion("workflows/w.flow", "portrait", 1)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{entity: sha(linDaiyu)}; !reflect.DeepEqual(o.Sources, want) {
		t.Fatalf("the output keeps sources %v, want %v", o.Sources, want)
	}
	firstPrompt := f.requests()[0].Body

	// Unchanged: served from the cache.
	res, err = f.run.Run(ctx, f.checked(), Options{})
	if err != nil || res.Nodes["portrait"].Status != "cached" || len(f.requests()) != 1 {
		t.Fatalf("unchanged sources: %v, status %s, %d calls", err, res.Nodes["portrait"].Status, len(f.requests()))
	}

	// The author edits the file below its first sentence and the store
	// re-indexes it, as the editor's file watch does.
	edited := linDaiyu + "\nShe buries fallen flowers.\n"
	writeFile(t, f.root, entity, edited)
	if _, err := f.store.Reindex(ctx, filepath.Join(f.root, entity)); err != nil {
		t.Fatal(err)
	}
	if got := ChangedSources(f.root, o.Sources); len(got) != 1 || got[0].String() != entity+" changed" {
		t.Fatalf("ChangedSources = %v", got)
	}
	res, err = f.run.Run(ctx, f.checked(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Nodes["portrait"].Status != "done" || len(f.requests()) != 2 {
		t.Fatalf("after the edit: status %s, %d calls; the cache served an output whose source changed",
			res.Nodes["portrait"].Status, len(f.requests()))
	}
	if string(f.requests()[1].Body) != string(firstPrompt) {
		// Not a failure of the feature, but the test would no longer
		// test what it says: the prompt must be the same.
		t.Fatalf("the L0 changed with the edit: the test needs an edit that keeps the prompt")
	}
	o2, err := f.store.OutputVersion("workflows/w.flow", "portrait", 2)
	if err != nil {
		t.Fatal(err)
	}
	if o2.Sources[entity] != sha(edited) {
		t.Errorf("the new output keeps hash %s, want the edited file's", o2.Sources[entity])
	}
	// The new output is served again while the file stays.
	res, err = f.run.Run(ctx, f.checked(), Options{})
	if err != nil || res.Nodes["portrait"].Status != "cached" || res.Nodes["portrait"].Version != 2 {
		t.Fatalf("after re-running: %v %+v", err, res.Nodes["portrait"])
	}
}

func TestFrozenOutputWithChangedSourcesIsNotRerun(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, entityFlow, llmtest.Script{Default: &llmtest.Reply{Echo: true}})
	const entity = "entities/characters/lin-daiyu.md"
	writeFile(t, f.root, entity, linDaiyu)
	if _, err := f.store.Index(ctx, nil); err != nil {
		t.Fatal(err)
	}
	an := textsearch.NewAnalyzer(textsearch.NewFolder())
	f.run.cfg.Knowledge = StoreKnowledge{Store: f.store, Summarizer: summarize.New(an, textsearch.NewCounter(""))}
	if _, err := f.run.Run(ctx, f.checked(), Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := f.store.Freeze(ctx, "workflows/w.flow", "portrait", 1); err != nil {
		t.Fatal(err)
	}
	writeFile(t, f.root, entity, "---\nname: 林黛玉\n---\nrewritten\n")
	res, err := f.run.Run(ctx, f.checked(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Nodes["portrait"].Status != "frozen" || len(f.requests()) != 1 {
		t.Fatalf("a frozen node with a changed source: status %s, %d calls", res.Nodes["portrait"].Status, len(f.requests()))
	}
}

func TestSourcePaths(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"entities/characters/x.md", "manuscript/chapter-03/content.md", "manuscript/chapter-04/content.md", "meta/style.md"} {
		writeFile(t, root, p, "text of "+p)
	}
	src := `node n {
  persist = "manuscript/chapter-04"
  user """{{@meta/style:L1}} {{@entities/characters/x.md}} {{@entities/gone.md}}"""
}`
	n := workflowlang.Parse("w.flow", []byte(src)).Node("n")
	prov := []byte(`{"sources":[{"path":"manuscript/chapter-03/content.md"},{"path":"manuscript/chapter-04/content.md"},{"path":"summaries/arc-1.md"},{"path":"entities/characters/x.md"}]}`)
	got := SourcePaths(root, n, prov)
	// The persist target is left out (curating the output is no change to
	// what it was built from), and so are paths that name no file.
	want := []string{"entities/characters/x.md", "manuscript/chapter-03/content.md", "meta/style.md"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("SourcePaths = %q, want %q", got, want)
	}
	hashes := HashSources(root, got)
	if err := os.Remove(filepath.Join(root, "meta/style.md")); err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "entities/characters/x.md", "edited 𝄞")
	ch := ChangedSources(root, hashes)
	if len(ch) != 2 || ch[0].String() != "entities/characters/x.md changed" || ch[1].String() != "meta/style.md deleted" {
		t.Fatalf("ChangedSources = %v", ch)
	}
	if s := StaleSummary(ch); s != "entities/characters/x.md changed (+1 more)" {
		t.Errorf("StaleSummary = %q", s)
	}
}

// BenchmarkChangedSources measures the stale check of one output built
// from every knowledge file of the English sample (chapters whole): what
// the cache check costs a node (fresh hashes), and what a lens redraw
// costs through a FileHasher (sizes and times unchanged).
func BenchmarkChangedSources(b *testing.B) {
	root := filepath.Join("..", "testdata", "projects", "pride-and-prejudice")
	var paths []string
	for _, dir := range []string{"entities", "manuscript", "meta", "summaries"} {
		_ = filepath.WalkDir(filepath.Join(root, dir), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(root, p)
				paths = append(paths, filepath.ToSlash(rel))
			}
			return nil
		})
	}
	hashes := HashSources(root, paths)
	var bytes int64
	for _, p := range paths {
		if fi, err := os.Stat(filepath.Join(root, p)); err == nil {
			bytes += fi.Size()
		}
	}
	b.Run("fresh", func(b *testing.B) {
		b.SetBytes(bytes)
		for range b.N {
			if len(ChangedSources(root, hashes)) != 0 {
				b.Fatal("a source changed")
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		var h FileHasher
		for range b.N {
			if len(h.Changed(root, hashes)) != 0 {
				b.Fatal("a source changed")
			}
		}
	})
}
