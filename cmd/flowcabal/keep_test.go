package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/assemble"
	"github.com/flowcabal/flowcabal/internal/projecttest"
	"github.com/flowcabal/flowcabal/internal/webnovel"
	"github.com/flowcabal/flowcabal/project"
	"github.com/flowcabal/flowcabal/store"
)

// nodeContexts returns `flowcabal context --json` of every node of every
// workflow of the project, by "file node".
func nodeContexts(t *testing.T, root string) map[string]string {
	t.Helper()
	flows, _ := filepath.Glob(filepath.Join(root, "workflows", "*.flow"))
	out := map[string]string{}
	for _, f := range flows {
		lw, err := loadWorkflow(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range lw.Result.File.Nodes {
			code, stdout, stderr := runCmd(t, runContext, f, n.Name.Name, "--json")
			if code != exitOK {
				t.Fatalf("context %s %s: exit %d: %s", f, n.Name.Name, code, stderr)
			}
			out[filepath.Base(f)+" "+n.Name.Name] = stdout
		}
	}
	if len(out) == 0 {
		t.Fatalf("no nodes in %s", root)
	}
	return out
}

// indexRoleA runs flowcabal index and returns its Role A report.
func indexRoleA(t *testing.T, root string) roleAReport {
	t.Helper()
	code, out, errs := runCLI(t, "", "index", "--json", "--no-embed", root)
	if code != exitOK {
		t.Fatalf("index: exit %d: %s", code, errs)
	}
	var rep struct {
		RoleA roleAReport `json:"role_a"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	return rep.RoleA
}

// analysedFromStore is how many chapters a new process analyses when it
// builds Role A's snapshot with the project's store at hand.
func analysedFromStore(t *testing.T, root string) int {
	t.Helper()
	n, _ := keptBuild(t, root)
	return n
}

// keptBuild is how many chapters a new process analyses, and how many
// texts it summarises, when it builds Role A's snapshot with the
// project's store at hand.
func keptBuild(t *testing.T, root string) (analysed, summarised int) {
	t.Helper()
	st, err := store.Open(context.Background(), root, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	cfg, err := project.LoadConfig(root)
	if err != nil {
		t.Fatal(err)
	}
	b := newSnapshotBuilder(cfg)
	b.Keep = st
	snap, errs := b.LoadProject(root)
	if snap == nil {
		t.Fatal(errs)
	}
	return snap.Analysed(), b.Summarised()
}

func sameContexts(t *testing.T, what string, got, want map[string]string) {
	t.Helper()
	keys := make([]string, 0, len(want))
	for k := range want {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if got[k] != want[k] {
			t.Errorf("%s: context of %s differs from a fresh build's\n got: %.400s\nwant: %.400s", what, k, got[k], want[k])
		}
	}
}

// Role A's indexes kept in the store give, for every node of the sample
// workflows, the context a build from the files gives, byte for byte:
// after a cold index, and after chapters were changed, added and removed
// and only those were analysed again. The web-novel project has more
// chapters than the arc-first search starts at, so the arcs are
// searched too.
func TestKeptIndexesGiveTheFreshContext(t *testing.T) {
	repo := filepath.Join("..", "..")
	big := filepath.Join(t.TempDir(), "webnovel")
	_, err := webnovel.Generate(big, webnovel.Options{Corpus: filepath.Join(projecttest.Shared(t), "corpus"), Chapters: 320, ChapterChars: 400, Seed: 7,
		Entities: []string{filepath.Join(repo, "testdata", "assemble", "hongloumeng-entities"), filepath.Join(repo, "testdata", "eval", "xiyouji")}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, root     string
		change, remove string // a chapter edited, a chapter removed
		add            string // a chapter added
	}{
		{"hongloumeng", projecttest.Copy(t, "hongloumeng"), "manuscript/chapter-03/content.md", "manuscript/chapter-02", "manuscript/chapter-09/content.md"},
		{"pride-and-prejudice", projecttest.Copy(t, "pride-and-prejudice"), "manuscript/chapter-05/content.md", "manuscript/chapter-07", "manuscript/chapter-40/content.md"},
		{"webnovel", big, webnovel.ChapterDir(150) + "/content.md", webnovel.ChapterDir(12), webnovel.ChapterDir(400) + "/content.md"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := tc.root
			fresh := nodeContexts(t, root)
			rep := indexRoleA(t, root)
			if rep.Chapters == 0 || rep.Analysed != rep.Chapters || !rep.Written || !rep.Base {
				t.Fatalf("cold index: %+v", rep)
			}
			if runtime.GOOS == "linux" && rep.CPUSeconds <= 0 {
				t.Fatalf("cold index: no CPU time reported: %+v", rep)
			}
			// Nothing is analysed or summarised again: the chapters', the
			// arcs' and the other files' (entities, meta) summaries are
			// kept.
			if n, sums := keptBuild(t, root); n != 0 || sums != 0 {
				t.Fatalf("a new process analysed %d chapters and summarised %d texts; want 0 and 0 (all kept)", n, sums)
			}
			sameContexts(t, "after a cold index", nodeContexts(t, root), fresh)

			// An entity file edited is summarised again by the next process
			// until an index keeps its new summary.
			ents, _ := filepath.Glob(filepath.Join(root, "entities", "*", "*.md"))
			if len(ents) == 0 {
				t.Fatal("no entity files")
			}
			edata, err := os.ReadFile(ents[0])
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(ents[0], append(edata, "\n\n後來搬到瀟湘館住。She moved to Netherfield.\n"...), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, sums := keptBuild(t, root); sums != 1 {
				t.Fatalf("after an entity file was edited a new process summarised %d texts; want 1", sums)
			}
			indexRoleA(t, root)
			if n, sums := keptBuild(t, root); n != 0 || sums != 0 {
				t.Fatalf("after the edited entity file was indexed a new process analysed %d chapters and summarised %d texts; want 0 and 0", n, sums)
			}
			sameContexts(t, "after an entity file was edited", nodeContexts(t, root), withoutStore(t, root))

			// Edit one chapter, remove one, add one: only two are analysed.
			p := filepath.Join(root, filepath.FromSlash(tc.change))
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			// Enough of the workflows' words that the edited chapter's arc
			// ranks first: a stale arc search would leave it out of scope.
			edit := strings.Repeat("孫悟空大鬧大觀園，林黛玉與賈寶玉在瀟湘館談起取經之事。Elizabeth heard Darcy at Netherfield.\n\n", 12)
			if err := os.WriteFile(p, append(data, "\n\n"+edit...), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.RemoveAll(filepath.Join(root, filepath.FromSlash(tc.remove))); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Dir(filepath.Join(root, tc.add)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, tc.add), []byte("# 新章\n\n孫悟空與賈寶玉在大觀園裡相見。Mr. Collins proposed again.\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			rep = indexRoleA(t, root)
			if rep.Analysed != 2 || !rep.Written {
				t.Fatalf("index after a change: %+v; want 2 chapters analysed", rep)
			}
			if n := analysedFromStore(t, root); n != 0 {
				t.Fatalf("a new process analysed %d chapters after the change; want 0", n)
			}
			if rep.Base {
				t.Fatalf("index after a change rewrote the whole base: %+v", rep)
			}
			sameContexts(t, "after a change", nodeContexts(t, root), withoutStore(t, root))
			if tc.name != "webnovel" {
				return
			}
			// One chapter edited at a time: each index analyses that one
			// and writes only the delta; then enough chapters for the
			// delta to be folded into a new base.
			// Only the edited chapter is read: the rest are known by the
			// hashes the store recorded, and the arcs are searched from the
			// chapter index, so its arc's other chapters are not read again.
			for i, n := range []int{30, 31, 290} {
				editChapter(t, root, n, fmt.Sprintf("第%d次修改：賈寶玉與孫悟空在大觀園說話。", i))
				rep = indexRoleA(t, root)
				if rep.Analysed != 1 || !rep.Written || rep.Base {
					t.Fatalf("index after one chapter edited: %+v; want 1 analysed, the delta written", rep)
				}
				if rep.Read != 1 {
					t.Fatalf("index after one chapter edited read %d chapters; want 1 (the edited one)", rep.Read)
				}
				sameContexts(t, fmt.Sprintf("after one chapter edited (%d)", n), nodeContexts(t, root), withoutStore(t, root))
			}
			// An edit that keeps the chapter's size and modification time
			// (one character for another, the time put back) is noticed.
			sameSizeEdit(t, root, 200)
			rep = indexRoleA(t, root)
			if rep.Analysed != 1 || !rep.Written {
				t.Fatalf("index after a same-size edit with its time kept: %+v; want 1 analysed", rep)
			}
			sameContexts(t, "after a same-size edit", nodeContexts(t, root), withoutStore(t, root))
			for n := 100; n < 140; n++ {
				editChapter(t, root, n, "林黛玉在瀟湘館讀書。")
			}
			rep = indexRoleA(t, root)
			if rep.Analysed != 40 || !rep.Base {
				t.Fatalf("index after 40 chapters edited: %+v; want 40 analysed and a new base", rep)
			}
			if n := analysedFromStore(t, root); n != 0 {
				t.Fatalf("a new process analysed %d chapters after the new base; want 0", n)
			}
			sameContexts(t, "after a new base", nodeContexts(t, root), withoutStore(t, root))
		})
	}
}

// withoutStore returns the node contexts of the project built from its
// files alone: its store is moved away meanwhile.
func withoutStore(t *testing.T, root string) map[string]string {
	t.Helper()
	data, away := filepath.Join(root, project.DataDir), filepath.Join(root, "away")
	if err := os.Rename(data, away); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := os.Rename(away, data); err != nil {
			t.Fatal(err)
		}
	}()
	return nodeContexts(t, root)
}

// editChapter appends a line to chapter n of a web-novel project.
func editChapter(t *testing.T, root string, n int, line string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(webnovel.ChapterDir(n)), "content.md")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, append(data, "\n\n"+line+"\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sameSizeEdit changes one CJK character of chapter n of a web-novel
// project for another and puts the file's modification time back.
func sameSizeEdit(t *testing.T, root string, n int) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(webnovel.ChapterDir(n)), "content.md")
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	rs := []rune(string(data))
	i := len(rs) / 2
	for i < len(rs) && (rs[i] < 0x4E00 || rs[i] > 0x9FFF || rs[i] == '龍') {
		i++
	}
	if i == len(rs) {
		t.Fatalf("no CJK character in the second half of chapter %d", n)
	}
	rs[i] = '龍'
	if err := os.WriteFile(p, []byte(string(rs)), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if after, _ := os.Stat(p); after.Size() != fi.Size() || !after.ModTime().Equal(fi.ModTime()) {
		t.Fatal("the edit moved the size or the time")
	}
}

// A snapshot made from the store's kept indexes is a snapshot of the
// files as they are now, even when they changed since the last index and
// the store cannot be written (a read-only reader).
func TestKeptIndexesBehindTheFiles(t *testing.T) {
	root := projecttest.Copy(t, "pride-and-prejudice")
	indexRoleA(t, root)
	p := filepath.Join(root, "manuscript", "chapter-03", "content.md")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, append(data, "\n\nMr. Darcy walked to Pemberley with Georgiana.\n"...), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := analysedFromStore(t, root); n != 1 {
		t.Fatalf("analysed %d chapters; want the one changed", n)
	}
	kept := nodeContexts(t, root)
	if err := os.Rename(filepath.Join(root, project.DataDir), filepath.Join(root, "away")); err != nil {
		t.Fatal(err)
	}
	sameContexts(t, "files changed since the index", kept, nodeContexts(t, root))
	var _ assemble.Keeper = (*store.Store)(nil)
}

// A snapshot whose kept indexes another process replaced with a new base
// says so (its searches could not read their postings), so that the
// session builds a new one rather than answer from a partial index.
func TestKeptSnapshotKnowsItsBaseWasReplaced(t *testing.T) {
	root := filepath.Join(t.TempDir(), "webnovel")
	if _, err := webnovel.Generate(root, webnovel.Options{Corpus: filepath.Join(projecttest.Shared(t), "corpus"), Chapters: 60, ChapterChars: 300, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	indexRoleA(t, root)
	cfg, err := project.LoadConfig(root)
	if err != nil {
		t.Fatal(err)
	}
	open := func() *assemble.MemSnapshot {
		b := newSnapshotBuilder(cfg)
		b.Keep = perRead{root}
		snap, errs := b.LoadProject(root)
		if snap == nil {
			t.Fatal(errs)
		}
		return snap
	}
	query := snapshotQuery(t, root)
	old := open()
	if hits := old.ChapterIndex().Search(old.Analyzer().Terms(query), 3, nil); len(hits) == 0 || old.Err() != nil {
		t.Fatalf("kept snapshot: hits %v, err %v", hits, old.Err())
	}
	// A delta written since does not touch the base the snapshot reads.
	editChapter(t, root, 5, "賈寶玉。")
	if rep := indexRoleA(t, root); rep.Base {
		t.Fatalf("one chapter rewrote the base: %+v", rep)
	}
	if old.PassageIndex().Search(old.Analyzer().Terms("大觀園 悟空 師父"), 3, nil); old.Err() != nil {
		t.Fatalf("after a delta: %v", old.Err())
	}
	for n := 10; n < 50; n++ {
		editChapter(t, root, n, "林黛玉。")
	}
	if rep := indexRoleA(t, root); !rep.Base {
		t.Fatalf("40 chapters of 60 edited did not write a new base: %+v", rep)
	}
	old.PassageIndex().Search(old.Analyzer().Terms("大觀園 悟空 師父 寶釵"), 3, nil)
	if old.Err() == nil {
		t.Fatal("a snapshot of the replaced base reports no error")
	}
	if fresh := open(); fresh.Err() != nil || len(fresh.ChapterIndex().Search(fresh.Analyzer().Terms(query), 3, nil)) == 0 {
		t.Fatalf("a new snapshot: %v", fresh.Err())
	}
}

// snapshotQuery is some words of the project's first chapter.
func snapshotQuery(t *testing.T, root string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(webnovel.ChapterDir(1)), "content.md"))
	if err != nil {
		t.Fatal(err)
	}
	r := []rune(string(data))
	return string(r[len(r)/2 : min(len(r), len(r)/2+40)])
}

// perRead opens the store read-only for each read, as the editor's
// session does, so that flowcabal index can write between reads.
type perRead struct{ root string }

func (k perRead) with(fn func(*store.Store) error) error {
	st, err := store.Open(context.Background(), k.root, store.Options{ReadOnly: true, LockWait: 5 * time.Second})
	if err != nil {
		return err
	}
	defer st.Close()
	return fn(st)
}

func (k perRead) ReadRoleA(keys []string, fn func([][]byte) error) error {
	return k.with(func(st *store.Store) error { return st.ReadRoleA(keys, fn) })
}

func (k perRead) SeekRoleA(guard, prefix string, keys []string, fn func(int, []byte) error) error {
	return k.with(func(st *store.Store) error { return st.SeekRoleA(guard, prefix, keys, fn) })
}

func (k perRead) ScanRoleA(prefix string, fn func(string, []byte) error) error {
	return k.with(func(st *store.Store) error { return st.ScanRoleA(prefix, fn) })
}

func (perRead) PutRoleA(map[string][]byte) error { return store.ErrReadOnly }

// A chapter with two files (chapter-N.md beside chapter-N/content.md)
// makes Role A's update read the project's files rather than trust the
// store's hashes; whether it has them is what the index just walked
// said, not a stat call per chapter.
func TestKeptInputWithTwoFilesForAChapter(t *testing.T) {
	ctx := context.Background()
	root := projecttest.Copy(t, "hongloumeng")
	s, err := store.Open(ctx, root, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.Walked() != nil {
		t.Fatalf("walked %v before any index", s.Walked())
	}
	index := func() {
		t.Helper()
		if _, err := s.Index(ctx, nil); err != nil {
			t.Fatal(err)
		}
	}
	index()
	in, ok := keptInput(root, s)
	if !ok || len(in.Chapters) == 0 {
		t.Fatalf("one file a chapter: lazy %v, %d chapters", ok, len(in.Chapters))
	}
	const alt = "manuscript/chapter-03.md"
	projecttest.WriteFile(t, root, alt, "# 第三回\n\n另一份。\n")
	in, ok = keptInput(root, s)
	if !ok {
		t.Fatal("a file added after the index (not walked) was stat'ed")
	}
	index()
	if !slices.Contains(s.Walked(), alt) || !slices.IsSorted(s.Walked()) {
		t.Fatalf("walked %v; want %s among them, in order", s.Walked(), alt)
	}
	if _, ok = keptInput(root, s); ok {
		t.Fatal("two files for chapter 3: the store's hashes were trusted")
	}
	if err := os.Remove(filepath.Join(root, alt)); err != nil {
		t.Fatal(err)
	}
	index()
	if in, ok = keptInput(root, s); !ok || len(in.Chapters) == 0 {
		t.Fatalf("the second file removed: lazy %v", ok)
	}
}

// Kept indexes of the format before (4, which kept an arc index beside
// the chapter and passage indexes) are rebuilt by the next index, with
// their arc index's keys deleted, and then give the fresh context.
func TestKeptIndexesOfTheFormerFormatAreRebuilt(t *testing.T) {
	root := projecttest.Copy(t, "hongloumeng")
	indexRoleA(t, root)
	st, err := store.Open(context.Background(), root, store.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	err = st.ReadRoleA([]string{"x/manifest"}, func(vals [][]byte) error { return json.Unmarshal(vals[0], &m) })
	if err != nil {
		t.Fatal(err)
	}
	gen, _ := m["gen"].(string)
	if gen == "" {
		t.Fatalf("no base in the manifest: %v", m)
	}
	// What format 4 wrote: its number, an arc index's base and delta.
	m["format"] = 4
	data, _ := json.Marshal(m)
	old := map[string][]byte{"x/manifest": data, "x/delta/a": []byte("FCDLT\x02\x00\x00\x00\x00"),
		"b/" + gen + "/a/d": []byte("old"), "b/" + gen + "/a/t/寶玉": []byte("old")}
	if err := st.PutRoleA(old); err != nil {
		t.Fatal(err)
	}
	st.Close()

	rep := indexRoleA(t, root)
	if !rep.Base || rep.Analysed != rep.Chapters || rep.Chapters == 0 {
		t.Fatalf("index over format 4's indexes: %+v; want every chapter analysed and a new base", rep)
	}
	st, err = store.Open(context.Background(), root, store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	err = st.ScanRoleA("", func(k string, _ []byte) error {
		if k == "x/delta/a" || strings.Contains(k, "/a/") {
			left = append(left, k)
		}
		return nil
	})
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	if len(left) > 0 {
		t.Errorf("format 4's arc index is still kept: %q", left)
	}
	if n, sums := keptBuild(t, root); n != 0 || sums != 0 {
		t.Fatalf("after the rebuild a new process analysed %d chapters and summarised %d texts; want 0 and 0", n, sums)
	}
	sameContexts(t, "after the rebuild", nodeContexts(t, root), withoutStore(t, root))
}
