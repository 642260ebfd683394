package store

import (
	"time"

	"context"
	"errors"
	"fmt"
	"go.uber.org/goleak"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

const sampleProject = "../testdata/projects/pride-and-prejudice"

func indexed(t *testing.T) (*Store, string) {
	t.Helper()
	root := copyProject(t, sampleProject)
	s := openStore(t, root, Options{})
	rep, err := s.Index(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Added == 0 || rep.Added != rep.Scanned {
		t.Fatalf("cold index report = %+v", rep)
	}
	return s, root
}

func TestIndexSampleProject(t *testing.T) {
	s, _ := indexed(t)
	st, err := s.Stats()
	if err != nil {
		t.Fatal(err)
	}
	if st.Chapters != 10 || st.Characters != 15 || st.Entities < 19 || st.WithDiagnostics != 0 || st.Arcs != 1 {
		t.Errorf("stats = %+v", st)
	}
	if st.PendingSummaries != st.Resources+st.Arcs {
		t.Errorf("pending summaries %d, want one per resource (%d) and arc (%d)", st.PendingSummaries, st.Resources, st.Arcs)
	}
	diags, _ := s.Diagnostics()
	if len(diags) != 0 {
		t.Errorf("diagnostics: %v", diags)
	}

	lizzy, err := s.Resource("entities/characters/elizabeth-bennet.md")
	if err != nil {
		t.Fatal(err)
	}
	if lizzy.Kind != "character" || lizzy.Title != "Elizabeth Bennet" || len(lizzy.Names) < 3 || lizzy.Names[1] != "Lizzy" {
		t.Errorf("elizabeth = %+v", lizzy)
	}
	ch3, err := s.Chapter(3)
	if err != nil || ch3.Path != "manuscript/chapter-03" || ch3.Kind != KindChapter || ch3.Chars == 0 {
		t.Errorf("Chapter(3) = %+v, %v", ch3, err)
	}
	tests := []struct {
		q    ResourceQuery
		want int
	}{
		{ResourceQuery{Kind: "character"}, 15},
		{ResourceQuery{Dir: "manuscript"}, 10},
		{ResourceQuery{FromChapter: 3, ToChapter: 5}, 3},
		{ResourceQuery{Prefix: "entities/locations/"}, 5},
		{ResourceQuery{Kind: KindArc}, 1},
		// A folder is read by its keys alone; with a prefix, both apply.
		{ResourceQuery{Dir: "summaries"}, 2},
		{ResourceQuery{Dir: "entities", Prefix: "entities/locations/"}, 5},
		{ResourceQuery{Dir: "manuscript", Prefix: "entities/"}, 0},
		{ResourceQuery{Dir: "meta"}, 3},
	}
	for _, tt := range tests {
		got, err := s.Resources(tt.q)
		if err != nil || len(got) != tt.want {
			t.Errorf("Resources(%+v) = %d, %v; want %d", tt.q, len(got), err, tt.want)
		}
	}

	// Relations both ways.
	out, _ := s.Relations("entities/characters/elizabeth-bennet")
	found := false
	for _, r := range out {
		if r.To == "entities/characters/fitzwilliam-darcy" && r.Kind == "love-interest" && r.Source == SourceFrontMatter {
			found = true
		}
	}
	if !found {
		t.Errorf("relations of elizabeth = %+v", out)
	}
	in, _ := s.RelationsTo("entities/characters/fitzwilliam-darcy")
	found = false
	for _, r := range in {
		if r.From == "entities/characters/elizabeth-bennet" && r.Kind == "love-interest" {
			found = true
		}
	}
	if !found {
		t.Errorf("relations to darcy = %+v", in)
	}

	arcs, _ := s.Arcs()
	if len(arcs) != 1 || arcs[0].From != 1 || arcs[0].To != 10 || arcs[0].Source != "summaries/arc-1" || len(arcs[0].Chapters) != 10 {
		t.Errorf("arcs = %+v", arcs)
	}

	// Search and mentions.
	hits, err := s.Search(context.Background(), SearchQuery{Text: "Netherfield ball dance", K: 3, Dir: "manuscript"})
	if err != nil || len(hits) == 0 || !strings.HasPrefix(hits[0].Path, "manuscript/") {
		t.Errorf("search = %+v, %v", hits, err)
	}
	hits, _ = s.Search(context.Background(), SearchQuery{Text: "Lizzy", K: 1, Kind: "character"})
	if len(hits) != 1 || hits[0].Path != "entities/characters/elizabeth-bennet" {
		t.Errorf("search Lizzy among characters = %+v", hits)
	}
	hits, _ = s.Search(context.Background(), SearchQuery{Text: "Netherfield", K: -1, MaxChapter: 2, Dir: "manuscript"})
	for _, h := range hits {
		if r, _ := s.Resource(h.Path); r.Chapter > 2 {
			t.Errorf("MaxChapter 2 returned %s", h.Path)
		}
	}
	ms, err := s.Mentions(context.Background(), "Lizzy walked to Netherfield with Mr. Darcy.")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, m := range ms {
		got[m.Entity] = true
	}
	if !got["entities/characters/elizabeth-bennet"] || !got["entities/locations/netherfield"] {
		t.Errorf("mentions = %+v", ms)
	}
	ps, err := s.SearchPassages(context.Background(), "Mr. Bennet's daughters", []string{"manuscript/chapter-01", "manuscript/chapter-02"}, 2)
	if err != nil || len(ps) == 0 || ps[0].Text == "" {
		t.Errorf("passages = %+v, %v", ps, err)
	}
}

func TestReindexIsIdempotent(t *testing.T) {
	s, _ := indexed(t)
	before := dumpDerived(t, s)
	rep, err := s.Index(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Added+rep.Changed+rep.Removed != 0 || rep.Unchanged != rep.Scanned {
		t.Errorf("second index changed things: %+v", rep)
	}
	if after := dumpDerived(t, s); after != before {
		t.Error("second index changed the derived data")
	}
}

func TestBrokenFrontMatterIsADiagnostic(t *testing.T) {
	root := copyProject(t, sampleProject)
	writeFile(t, root, "entities/characters/broken.md", "---\nname: [unclosed\naliases: x\n---\nBody text about Kitty.\n")
	writeFile(t, root, "entities/characters/bad-utf8.md", "---\nname: X\n---\n\xff\xfe bad")
	writeFile(t, root, "meta/notes.md", "---\nopened but never closed\n")
	s := openStore(t, root, Options{})
	rep, err := s.Index(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]Diagnostic{}
	for _, d := range rep.Diagnostics {
		files[d.File] = d
	}
	if d, ok := files["entities/characters/broken.md"]; !ok || d.Line < 2 {
		t.Errorf("broken front matter diagnostic = %+v (all %v)", d, rep.Diagnostics)
	}
	if _, ok := files["entities/characters/bad-utf8.md"]; !ok {
		t.Errorf("no diagnostic for invalid UTF-8: %v", rep.Diagnostics)
	}
	if _, ok := files["meta/notes.md"]; !ok {
		t.Errorf("no diagnostic for unclosed front matter: %v", rep.Diagnostics)
	}
	st, _ := s.Stats()
	if st.Chapters != 10 || st.WithDiagnostics != 3 {
		t.Errorf("the rest of the project was not indexed: %+v", st)
	}
	// The broken file's body is still searchable.
	hits, _ := s.Search(context.Background(), SearchQuery{Text: "Kitty", K: 5, Dir: "entities"})
	ok := false
	for _, h := range hits {
		ok = ok || h.Path == "entities/characters/broken"
	}
	if !ok {
		t.Errorf("broken file not searchable: %+v", hits)
	}
	// Fixing the file clears its diagnostic.
	writeFile(t, root, "entities/characters/broken.md", "---\nname: Kitty\n---\nBody.\n")
	rep, _ = s.Reindex(context.Background(), filepath.Join(root, "entities/characters/broken.md"))
	if rep.Changed != 1 || len(rep.Diagnostics) != 0 {
		t.Errorf("after fix: %+v", rep)
	}
}

func TestChangedChapterAndLevels(t *testing.T) {
	ctx := context.Background()
	s, root := indexed(t)
	n, err := s.Drain(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := s.Stats()
	if n == 0 || st.PendingSummaries != 0 {
		t.Fatalf("drain did %d, pending %d", n, st.PendingSummaries)
	}
	l0, err := s.Level("manuscript/chapter-02", 0)
	if err != nil || l0.Text == "" || !l0.Extractive || l0.Stale || l0.Pending {
		t.Fatalf("L0 = %+v, %v", l0, err)
	}
	l1, _ := s.Level("manuscript/chapter-02", 1)
	if len(l1.Text) <= len(l0.Text) {
		t.Errorf("L1 (%d bytes) not longer than L0 (%d)", len(l1.Text), len(l0.Text))
	}
	arc, err := s.ArcLevel(1, 1)
	if err != nil || arc.Text == "" || arc.Stale {
		t.Errorf("arc L1 = %+v, %v", arc, err)
	}

	// Change chapter 2: only it (and its arc) change; its old levels are
	// served marked stale until the queue catches up.
	body, _, _ := s.ReadBody("manuscript/chapter-02")
	writeFile(t, root, "manuscript/chapter-02/content.md", "# Chapter 2\n\nMr. Bennet visited Mr. Bingley at last. "+body)
	gen := s.Generation()
	rep, err := s.Reindex(ctx, "manuscript/chapter-02/content.md", "manuscript/chapter-03/content.md", "workflows/book.flow", "../outside.md")
	if s.Generation() == gen {
		t.Error("generation did not change with the index")
	}
	gen = s.Generation()
	s.Reindex(ctx, "manuscript/chapter-03/content.md")
	if s.Generation() != gen {
		t.Error("generation changed without a change")
	}
	if err != nil {
		t.Fatal(err)
	}
	if rep.Changed != 1 || rep.Unchanged != 1 || rep.Scanned != 2 {
		t.Errorf("reindex report = %+v", rep)
	}
	if st, _ := s.Stats(); st.PendingSummaries != 2 {
		t.Errorf("pending after one change = %d, want 2 (chapter and arc)", st.PendingSummaries)
	}
	stale, _ := s.Level("manuscript/chapter-02", 0)
	if !stale.Stale || !stale.Pending || stale.Text != l0.Text {
		t.Errorf("level during regeneration = %+v", stale)
	}
	if arc, _ := s.ArcLevel(1, 0); !arc.Stale {
		t.Errorf("arc level not stale after a chapter changed: %+v", arc)
	}
	l2, _ := s.Level("manuscript/chapter-02", 2)
	if !strings.HasPrefix(l2.Text, "# Chapter 2\n\nMr. Bennet visited") || l2.Stale {
		t.Errorf("L2 = %.60q stale=%v", l2.Text, l2.Stale)
	}
	if _, err := s.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	fresh, _ := s.Level("manuscript/chapter-02", 0)
	if fresh.Stale || fresh.Pending {
		t.Errorf("after drain = %+v", fresh)
	}

	// Deleting a file forgets it and its relations.
	os.Remove(filepath.Join(root, "entities/characters/elizabeth-bennet.md"))
	rep, _ = s.Index(ctx, nil)
	if rep.Removed != 1 {
		t.Errorf("removal report = %+v", rep)
	}
	if _, err := s.Resource("entities/characters/elizabeth-bennet"); !errors.Is(err, ErrNotFound) {
		t.Errorf("removed resource still there: %v", err)
	}
	if in, _ := s.RelationsTo("entities/characters/fitzwilliam-darcy"); len(in) > 0 {
		for _, r := range in {
			if r.From == "entities/characters/elizabeth-bennet" {
				t.Errorf("relation of a removed file survives: %+v", r)
			}
		}
	}
}

// scriptedSummarizer stands in for the agent model: it fails the first
// call for a path, then answers; it records what it was asked.
type scriptedSummarizer struct {
	mu     sync.Mutex
	calls  map[string]int
	failOn string
	arcs   []SummaryRequest
}

func (f *scriptedSummarizer) Summarize(ctx context.Context, req SummaryRequest) (Summary, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls[req.Path]++
	if strings.HasPrefix(req.Path, "arc-") {
		f.arcs = append(f.arcs, req)
	}
	if req.Path == f.failOn {
		return Summary{}, errors.New("model unavailable")
	}
	return Summary{L0: "About " + req.Path, L1: "Overview of " + req.Path + ": " + req.Title, Model: "agent-model"}, nil
}

func TestSummarizerDedupAndFallback(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	// Two files with the same content are summarised once.
	writeFile(t, root, "meta/a.md", "# Same\n\nIdentical text about the same thing.\n")
	writeFile(t, root, "meta/b.md", "# Same\n\nIdentical text about the same thing.\n")
	writeFile(t, root, "meta/c.md", "# Other\n\nA different text that the model cannot summarise.\n")
	sum := &scriptedSummarizer{calls: map[string]int{}, failOn: "meta/c"}
	s := openStore(t, root, Options{Summarizer: sum, Concurrency: 3})
	if _, err := s.Index(ctx, nil); err != nil {
		t.Fatal(err)
	}
	q, _ := s.Queue()
	if len(q) != 2 {
		t.Errorf("queue = %d jobs, want 2 (deduplicated by content)", len(q))
	}
	if _, err := s.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	if sum.calls["meta/a"]+sum.calls["meta/b"] != 1 {
		t.Errorf("same content summarised %d times", sum.calls["meta/a"]+sum.calls["meta/b"])
	}
	a, _ := s.Level("meta/a", 0)
	b, _ := s.Level("meta/b", 1)
	if a.Extractive || !strings.HasPrefix(a.Text, "About meta/") || !strings.HasPrefix(b.Text, "Overview of meta/") || a.Stale || b.Pending {
		t.Errorf("model levels: a=%+v b=%+v", a, b)
	}
	c, _ := s.Level("meta/c", 0)
	if !c.Extractive || c.Text == "" || sum.calls["meta/c"] != maxAttempts {
		t.Errorf("fallback after %d failures: %+v", sum.calls["meta/c"], c)
	}
	if _, err := s.Level("meta/c", 3); err == nil {
		t.Error("level 3 accepted")
	}
}

func TestArcsFromFilesAndFixedSpans(t *testing.T) {
	root := t.TempDir()
	for i := 1; i <= 25; i++ {
		writeFile(t, root, "manuscript/chapter-"+twoDigits(i)+"/content.md", "Chapter text "+twoDigits(i)+".\n")
	}
	writeFile(t, root, "summaries/arc-1.md", "---\nchapters: [1, 4]\n---\nThe beginning.\n")
	writeFile(t, root, "flowcabal.toml", "arc_span = 8\n")
	s := openStore(t, root, Options{})
	if _, err := s.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	arcs, _ := s.Arcs()
	var spans []string
	for _, a := range arcs {
		spans = append(spans, twoDigits(a.N)+":"+twoDigits(a.From)+"-"+twoDigits(a.To)+"/"+twoDigits(len(a.Chapters)))
	}
	// The declared arc 1 holds 1-4; the fixed span of 8 that it overlaps
	// keeps 5-8 and takes the next free number; the others follow.
	want := "01:01-04/04 02:05-08/04 03:09-16/08 04:17-24/08 05:25-32/01"
	if got := strings.Join(spans, " "); got != want {
		t.Errorf("arcs = %s, want %s", got, want)
	}
	a, err := s.ArcOf(20)
	if err != nil || a.From != 17 {
		t.Errorf("ArcOf(20) = %+v, %v", a, err)
	}
}

func twoDigits(n int) string {
	return string([]byte{byte('0' + n/10%10), byte('0' + n%10)})
}

func TestRelationsFromCuration(t *testing.T) {
	ctx := context.Background()
	s, _ := indexed(t)
	r := Relation{From: "manuscript/chapter-03", To: "entities/characters/fitzwilliam-darcy", Kind: "introduces"}
	if err := s.AddRelation(ctx, r); err != nil {
		t.Fatal(err)
	}
	in, _ := s.RelationsTo("entities/characters/fitzwilliam-darcy")
	found := false
	for _, x := range in {
		found = found || (x.From == r.From && x.Kind == "introduces" && x.Source == SourceCuration)
	}
	if !found {
		t.Errorf("curation relation not found backwards: %+v", in)
	}
	// Re-indexing keeps curation relations.
	s.Index(ctx, nil)
	out, _ := s.Relations("manuscript/chapter-03")
	if len(out) != 1 {
		t.Errorf("relations after re-index = %+v", out)
	}
	if err := s.RemoveRelation(ctx, r); err != nil {
		t.Fatal(err)
	}
	if out, _ := s.Relations("manuscript/chapter-03"); len(out) != 0 {
		t.Errorf("after remove = %+v", out)
	}
	for _, bad := range []Relation{
		{From: "../x", To: "a", Kind: "k"},
		{From: "a", To: "b"},
		{From: "a", To: "b", Kind: "k", Source: SourceFrontMatter},
	} {
		if err := s.AddRelation(ctx, bad); err == nil {
			t.Errorf("AddRelation(%+v) accepted", bad)
		}
	}
}

func TestIndexHonoursCancellationAndHugeFiles(t *testing.T) {
	root := copyProject(t, sampleProject)
	s := openStore(t, root, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Index(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled index: %v", err)
	}
	if st, _ := s.Stats(); st.Resources != 0 {
		t.Errorf("a cancelled index committed %d resources", st.Resources)
	}
	// A file over the size limit is a diagnostic, not a failure.
	f, err := os.Create(filepath.Join(root, "meta", "huge.md"))
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(65 << 20)
	f.Close()
	rep, err := s.Index(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, d := range rep.Diagnostics {
		found = found || (d.File == "meta/huge.md" && strings.Contains(d.Message, "bytes"))
	}
	if !found || rep.Chapters != 10 {
		t.Errorf("huge file: diagnostics %v, chapters %d", rep.Diagnostics, rep.Chapters)
	}
}

func TestWorkRunsTheQueueInTheBackground(t *testing.T) {
	defer goleak.VerifyNone(t)
	root := copyProject(t, sampleProject)
	s, err := Open(context.Background(), root, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Work(ctx) }()
	if _, err := s.Index(ctx, nil); err != nil {
		t.Fatal(err)
	}
	// The worker is woken by the index; wait for it without a clock.
	for {
		st, err := s.Stats()
		if err != nil {
			t.Fatal(err)
		}
		if st.PendingSummaries == 0 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	lv, _ := s.Level("manuscript/chapter-05", 1)
	if lv.Text == "" || lv.Pending {
		t.Errorf("L1 after background work = %+v", lv)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("Work returned %v", err)
	}
	s.Close()
}

func TestLevelsOfAnEmptyFileAreNotPending(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "meta/empty.md", "---\nname: Empty\n---\n")
	s := openStore(t, root, Options{})
	if _, err := s.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	lv, err := s.Level("meta/empty", 1)
	if err != nil || lv.Pending || lv.Text != "" {
		t.Errorf("L1 of an empty file = %+v, %v", lv, err)
	}
	if q, _ := s.Queue(); len(q) != 0 {
		t.Errorf("queue = %+v", q)
	}
}

func TestReindexFolder(t *testing.T) {
	ctx := context.Background()
	s, root := indexed(t)
	// A folder renamed at once: the editor reports the two folders.
	if err := os.Rename(filepath.Join(root, "entities", "locations"), filepath.Join(root, "entities", "places")); err != nil {
		t.Fatal(err)
	}
	rep, err := s.Reindex(ctx, "entities/locations", filepath.Join(root, "entities", "places"))
	if err != nil {
		t.Fatal(err)
	}
	if rep.Removed != 5 || rep.Added != 5 {
		t.Errorf("folder rename = %+v", rep)
	}
	if _, err := s.Resource("entities/places/pemberley"); err != nil {
		t.Error(err)
	}
	// A whole chapter folder deleted.
	os.RemoveAll(filepath.Join(root, "manuscript", "chapter-10"))
	rep, _ = s.Reindex(ctx, "manuscript/chapter-10")
	if rep.Removed != 1 || rep.Chapters != 9 {
		t.Errorf("folder delete = %+v", rep)
	}
	// Not knowledge: ignored.
	rep, _ = s.Reindex(ctx, "workflows", "flowcabal.toml", ".flowcabal", "meta/.hidden")
	if rep.Scanned != 0 {
		t.Errorf("non-knowledge paths scanned: %+v", rep)
	}
}

func TestArcRequestCarriesChapterOverviews(t *testing.T) {
	ctx := context.Background()
	root := copyProject(t, sampleProject)
	sum := &scriptedSummarizer{calls: map[string]int{}}
	s := openStore(t, root, Options{Summarizer: sum})
	if _, err := s.Index(ctx, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	if len(sum.arcs) != 1 {
		t.Fatalf("arc requests = %d", len(sum.arcs))
	}
	req := sum.arcs[0]
	if len(req.Parts) != 10 || req.Parts[0].Path != "manuscript/chapter-01" || req.Parts[0].L1 != "Overview of manuscript/chapter-01: Chapter I" {
		t.Errorf("arc parts = %+v", req.Parts)
	}
	if !strings.Contains(req.Text, "# Chapter X\n") {
		t.Error("arc text lacks its chapters")
	}
}

// TestChapterZeroAndGaps: a prologue is chapter 0, and numbers may skip.
func TestChapterZeroAndGaps(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "manuscript/chapter-00/content.md", "楔子\n\n顽石。\n")
	writeFile(t, root, "manuscript/chapter-01/content.md", "第一章\n\n一僧一道。\n")
	writeFile(t, root, "manuscript/chapter-04/content.md", "第四章\n\n葫芦案。\n")
	writeFile(t, root, "meta/outline.md", "---\nname: Outline\n---\nA stone.\n")
	s := openStore(t, root, Options{})
	if _, err := s.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	for n, want := range map[int]string{0: "manuscript/chapter-00", 1: "manuscript/chapter-01", 4: "manuscript/chapter-04"} {
		if r, err := s.Chapter(n); err != nil || r.Path != want {
			t.Errorf("Chapter(%d) = %s, %v", n, r.Path, err)
		}
	}
	if _, err := s.Chapter(2); !errors.Is(err, ErrNotFound) {
		t.Errorf("Chapter(2) = %v, want not found", err)
	}
	if rs, err := s.Resources(ResourceQuery{ToChapter: 3}); err != nil || len(rs) != 2 {
		t.Errorf("chapters up to 3: %d, %v (want 0 and 1, and no meta)", len(rs), err)
	}
}

// ChapterFiles (decoded on several goroutines) says of every chapter
// what Resources says, in chapter order, and leaves out manuscript files
// that are not chapters; a broken chapter keeps its diagnostics.
func TestChapterFilesAgreeWithResources(t *testing.T) {
	root := t.TempDir()
	writeFile(t, root, "flowcabal.toml", "")
	for n := 1; n <= 700; n++ {
		writeFile(t, root, fmt.Sprintf("manuscript/chapter-%04d/content.md", n), fmt.Sprintf("# 第%d回\n\n寶玉見了黛玉𝄞，第%d次。\n", n, n))
	}
	writeFile(t, root, "manuscript/notes/ideas.md", "not a chapter\n")
	writeFile(t, root, "manuscript/chapter-0701/content.md", "---\nbroken: [\n---\n\n壞了。\n")
	s := openStore(t, root, Options{})
	if _, err := s.Index(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resources(ResourceQuery{Kind: KindChapter})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := s.ChapterFiles()
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 701 || len(rs) != len(cs) {
		t.Fatalf("%d chapter files, %d resources; want 701", len(cs), len(rs))
	}
	for i, c := range cs {
		r := rs[i]
		if c.Path != r.Path || c.File != r.File || c.Chapter != r.Chapter || c.Chapter != i+1 || c.BodyHash != r.BodyHash || c.Kind != KindChapter {
			t.Fatalf("chapter file %d = %+v; resource %+v", i, c, r)
		}
		if (len(c.Diagnostics) > 0) != (len(r.Diagnostics) > 0) {
			t.Errorf("chapter %d: diagnostics %s; resource has %d", c.Chapter, c.Diagnostics, len(r.Diagnostics))
		}
	}
	if len(cs[700].Diagnostics) == 0 || cs[0].BodyHash == "" {
		t.Errorf("broken chapter's diagnostics %q, first body hash %q", cs[700].Diagnostics, cs[0].BodyHash)
	}
}
