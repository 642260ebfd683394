package store

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// dumpIndex renders what indexing derives from the files alone: the
// resources and arcs without their level progress (which depends on when
// the queue ran), hashes, relations and the search index.
func dumpIndex(t *testing.T, s *Store) string {
	t.Helper()
	if err := s.loadSearch(context.Background()); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	s.view(func(tx *bolt.Tx) error {
		tx.Bucket(bResources).ForEach(func(k, v []byte) error {
			var r Resource
			json.Unmarshal(v, &r)
			r.LevelHash = ""
			data, _ := json.Marshal(r)
			fmt.Fprintf(&b, "res %s %s\n", k, data)
			return nil
		})
		tx.Bucket(bArcs).ForEach(func(k, v []byte) error {
			var a Arc
			json.Unmarshal(v, &a)
			a.LevelHash = ""
			data, _ := json.Marshal(a)
			fmt.Fprintf(&b, "arc %s %s\n", k, data)
			return nil
		})
		for _, name := range [][]byte{bByHash, bRelations, bRelationsTo} {
			tx.Bucket(name).ForEach(func(k, v []byte) error {
				fmt.Fprintf(&b, "%s %q\n", name, k)
				return nil
			})
		}
		return nil
	})
	s.search.mu.RLock()
	data, _ := searchBytes(s)
	fmt.Fprintf(&b, "search %x\n", data)
	var docs []string
	for p, h := range s.search.docs {
		docs = append(docs, p+"="+h)
	}
	s.search.mu.RUnlock()
	sort.Strings(docs)
	b.WriteString(strings.Join(docs, "\n"))
	return b.String()
}

// checkQueueInvariant: every content a resource or arc holds has its
// levels or a job in the queue.
func checkQueueInvariant(t *testing.T, s *Store) {
	t.Helper()
	s.view(func(tx *bolt.Tx) error {
		check := func(what, h string) {
			if tx.Bucket(bLevels).Get([]byte(h)) == nil && tx.Bucket(bQueue).Get([]byte(h)) == nil {
				t.Errorf("%s: content %.12s has neither levels nor a job", what, h)
			}
		}
		tx.Bucket(bResources).ForEach(func(k, v []byte) error {
			var r Resource
			json.Unmarshal(v, &r)
			if summarizable(r) {
				check(r.Path, r.Hash)
			}
			return nil
		})
		tx.Bucket(bArcs).ForEach(func(k, v []byte) error {
			var a Arc
			json.Unmarshal(v, &a)
			check("arc "+string(k), a.Hash)
			return nil
		})
		return nil
	})
}

// TestIncrementalEqualsFromScratch applies random edit sequences to a
// project, telling the store as the server would (Reindex of the changed
// files, sometimes a full Index, sometimes a Persist, sometimes running
// the queue), and after every step compares the store with one built
// from scratch on a copy of the files.
func TestIncrementalEqualsFromScratch(t *testing.T) {
	steps := 25
	seeds := []uint64{1, 2, 3, 4}
	if testing.Short() {
		steps, seeds = 10, seeds[:1]
	}
	for _, seed := range seeds {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			runEditSequence(t, seed, steps)
		})
	}
}

func runEditSequence(t *testing.T, seed uint64, steps int) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(seed, 99))
	root := t.TempDir()
	entities := []string{"alice", "bob", "carol", "dave"}
	chapterText := func(n int, v int) string {
		names := []string{"Alice", "Bob", "Carol", "Dave", "愛麗絲", "鮑勃"}
		var b strings.Builder
		fmt.Fprintf(&b, "# Chapter %d\n\n", n)
		for i := 0; i < 3+rng.IntN(5); i++ {
			fmt.Fprintf(&b, "%s met %s in the garden, version %d. 他們在園中說話。\n\n", names[rng.IntN(len(names))], names[rng.IntN(len(names))], v)
		}
		return b.String()
	}
	entityText := func(name string, broken bool) string {
		if broken {
			return "---\nname: [" + name + "\n---\nBroken.\n"
		}
		var rels []string
		for i := 0; i < rng.IntN(3); i++ {
			rels = append(rels, fmt.Sprintf("  - { to: entities/characters/%s, kind: %s }", entities[rng.IntN(len(entities))], []string{"friend", "rival"}[rng.IntN(2)]))
		}
		relBlock := ""
		if len(rels) > 0 {
			relBlock = "relations:\n" + strings.Join(rels, "\n") + "\n"
		}
		return fmt.Sprintf("---\nname: %s\naliases: [%s%d]\nkind: character\n%s---\n%s lives here.\n", strings.ToUpper(name[:1])+name[1:], name[:2], rng.IntN(3), relBlock, name)
	}
	for n := 1; n <= 6; n++ {
		writeFile(t, root, fmt.Sprintf("manuscript/chapter-%02d/content.md", n), chapterText(n, 0))
	}
	for _, e := range entities {
		writeFile(t, root, "entities/characters/"+e+".md", entityText(e, false))
	}
	writeFile(t, root, "flowcabal.toml", "arc_span = 3\n")
	s := openStore(t, root, Options{})
	if _, err := s.Index(ctx, nil); err != nil {
		t.Fatal(err)
	}
	history := map[string][]string{} // file → earlier contents, for reverts
	save := func(rel string) {
		if data, err := os.ReadFile(filepath.Join(root, rel)); err == nil {
			history[rel] = append(history[rel], string(data))
		}
	}
	for step := 0; step < steps; step++ {
		var changed []string
		var what string
		switch op := rng.IntN(10); op {
		case 9: // a second file for a chapter's resource path, or its removal
			n := 1 + rng.IntN(8)
			rel := fmt.Sprintf("manuscript/chapter-%02d.md", n)
			if _, err := os.Stat(filepath.Join(root, rel)); err == nil {
				os.Remove(filepath.Join(root, rel))
				what = "remove " + rel
			} else {
				writeFile(t, root, rel, chapterText(n, 300+step))
				what = "add " + rel
			}
			changed = []string{rel}
		case 0, 1: // edit a chapter
			n := 1 + rng.IntN(8)
			rel := fmt.Sprintf("manuscript/chapter-%02d/content.md", n)
			save(rel)
			writeFile(t, root, rel, chapterText(n, step))
			changed, what = []string{rel}, "edit "+rel
		case 2: // delete a chapter
			n := 1 + rng.IntN(8)
			rel := fmt.Sprintf("manuscript/chapter-%02d/content.md", n)
			save(rel)
			os.Remove(filepath.Join(root, rel))
			changed, what = []string{rel}, "delete "+rel
		case 3: // edit an entity, maybe breaking its front matter
			e := entities[rng.IntN(len(entities))]
			rel := "entities/characters/" + e + ".md"
			save(rel)
			writeFile(t, root, rel, entityText(e, rng.IntN(4) == 0))
			changed, what = []string{rel}, "entity "+rel
		case 4: // an arc file with a random span, or none
			rel := "summaries/arc-1.md"
			if rng.IntN(3) == 0 {
				os.Remove(filepath.Join(root, rel))
				what = "remove arc"
			} else {
				a := 1 + rng.IntN(4)
				writeFile(t, root, rel, fmt.Sprintf("---\nchapters: [%d, %d]\n---\nArc.\n", a, a+rng.IntN(4)))
				what = "arc file"
			}
			changed = []string{rel}
		case 5: // revert a file to an earlier content
			var files []string
			for f := range history {
				files = append(files, f)
			}
			if len(files) == 0 {
				continue
			}
			sort.Strings(files)
			rel := files[rng.IntN(len(files))]
			old := history[rel][rng.IntN(len(history[rel]))]
			writeFile(t, root, rel, old)
			changed, what = []string{rel}, "revert "+rel
		case 6: // curation
			n := 1 + rng.IntN(8)
			rel := fmt.Sprintf("manuscript/chapter-%02d/content.md", n)
			save(rel)
			if _, err := s.Persist(ctx, chapterText(n, 100+step), fmt.Sprintf("manuscript/chapter-%02d", n), nil); err != nil {
				t.Fatal(err)
			}
			what = "persist " + rel
		case 7: // run the queue
			if _, err := s.Drain(ctx); err != nil {
				t.Fatal(err)
			}
			what = "drain"
		case 8: // several edits, then one full index (missed notifications)
			for i := 0; i < 3; i++ {
				n := 1 + rng.IntN(8)
				rel := fmt.Sprintf("manuscript/chapter-%02d/content.md", n)
				save(rel)
				writeFile(t, root, rel, chapterText(n, 200+step))
			}
			if _, err := s.Index(ctx, nil); err != nil {
				t.Fatal(err)
			}
			what = "full index"
		}
		if len(changed) > 0 {
			if _, err := s.Reindex(ctx, changed...); err != nil {
				t.Fatal(err)
			}
		}
		fresh := openStore(t, copyProject(t, root), Options{})
		if _, err := fresh.Index(ctx, nil); err != nil {
			t.Fatal(err)
		}
		got, want := dumpIndex(t, s), dumpIndex(t, fresh)
		fresh.Close()
		if got != want {
			t.Fatalf("seed %d step %d (%s): incremental index differs from scratch:\n%s", seed, step, what, firstDiff(got, want))
		}
		checkQueueInvariant(t, s)
	}
	// Re-indexing after the sequence changes nothing.
	if rep, _ := s.Index(ctx, nil); rep.Added+rep.Changed+rep.Removed != 0 {
		t.Errorf("final re-index changed things: %+v", rep)
	}
}
