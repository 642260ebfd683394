package assemble

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/flowcabal/flowcabal/internal/projecttest"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/textsearch"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/assemble")

// repoRoot is the repository root (the folder holding go.mod).
func repoRoot(t testing.TB) string {
	t.Helper()
	dir, _ := os.Getwd()
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, "go.mod")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			t.Fatal("no go.mod above the test")
		}
	}
}

// sharedDir finds ../shared beside the repository by walking up.
func sharedDir(t testing.TB) string {
	t.Helper()
	return projecttest.Shared(t)
}

func newBuilder() *Builder {
	f := textsearch.NewFolder()
	return NewBuilder(textsearch.NewAnalyzer(f), textsearch.NewCounter(""))
}

// copyTree copies the sample project into a temp dir so tests can edit it.
func copyTree(t testing.TB, src string) string {
	t.Helper()
	dst := t.TempDir()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func load(t testing.TB, b *Builder, root string) *MemSnapshot {
	t.Helper()
	s, errs := b.LoadProject(root)
	if s == nil {
		t.Fatalf("load %s: %v", root, errs)
	}
	return s
}

func sampleProject(t testing.TB) string {
	return copyTree(t, filepath.Join(repoRoot(t), "testdata", "projects", "pride-and-prejudice"))
}

func mustJSON(t testing.TB, c *Context) []byte {
	t.Helper()
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// exactTokens counts what the model will see, independently of the
// assembler's own accounting.
func exactTokens(t testing.TB, c *Context) int {
	tc := textsearch.NewCounter("")
	a, err := tc.Count(c.SystemPrefix)
	if err != nil {
		t.Fatal(err)
	}
	b, err := tc.Count(c.UserSuffix)
	if err != nil {
		t.Fatal(err)
	}
	return a + b
}

func TestDeterminism(t *testing.T) {
	root := sampleProject(t)
	node := Node{ID: "draft", Text: "Elizabeth walks to Netherfield through the mud to nurse Jane; Miss Bingley sneers.", Chapter: 9, Budget: 6000}
	snap := load(t, newBuilder(), root)
	first, err := Assemble(node, snap, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := mustJSON(t, first)
	for i := 0; i < 25; i++ {
		c, _ := Assemble(node, snap, Options{})
		if got := mustJSON(t, c); !bytes.Equal(got, want) {
			t.Fatalf("run %d differs", i)
		}
	}
	// A fresh builder and snapshot of the same files: same bytes.
	again, _ := Assemble(node, load(t, newBuilder(), root), Options{})
	if got := mustJSON(t, again); !bytes.Equal(got, want) {
		t.Fatal("a fresh snapshot of the same files gives a different context")
	}

	injected := map[string]bool{}
	for _, s := range first.Sources {
		injected[s.Path] = true
	}
	// An unrelated file: a plot thread the node does not touch.
	unrelated := "entities/plot-threads/the-entail.md"
	if injected[unrelated] {
		t.Fatalf("%s is injected; pick another unrelated file", unrelated)
	}
	p := filepath.Join(root, unrelated)
	data, _ := os.ReadFile(p)
	os.WriteFile(p, append(data, []byte("\nThe lawyers argue for a season more.\n")...), 0o644)
	c, _ := Assemble(node, load(t, newBuilder(), root), Options{})
	if c.Hash != first.Hash {
		t.Errorf("changing unrelated %s changed the hash", unrelated)
	}
	// A later chapter is no part of the story so far: adding one leaves
	// the context of chapter 9 as it was (search statistics included).
	later := filepath.Join(root, "manuscript", "chapter-11", "content.md")
	os.MkdirAll(filepath.Dir(later), 0o755)
	os.WriteFile(later, []byte("# Chapter XI\n\nElizabeth and Jane walk to Netherfield again; the mud is deep and Miss Bingley sneers.\n"), 0o644)
	c, _ = Assemble(node, load(t, newBuilder(), root), Options{})
	if c.Hash != first.Hash {
		t.Errorf("adding chapter 11 changed the context of chapter 9")
	}
	// An injected file: the hash must change.
	target := "entities/characters/jane-bennet.md"
	if !injected[target] {
		t.Fatalf("%s is not injected: %v", target, first.Sources)
	}
	p = filepath.Join(root, target)
	data, _ = os.ReadFile(p)
	os.WriteFile(p, bytes.Replace(data, []byte("\n---\n"), []byte("\n---\nShe has caught a bad cold.\n\n"), 1), 0o644)
	c, _ = Assemble(node, load(t, newBuilder(), root), Options{})
	if c.Hash == first.Hash {
		t.Errorf("changing injected %s left the hash unchanged", target)
	}
}

func TestBudgetsNeverExceeded(t *testing.T) {
	sh := sharedDir(t)
	b := newBuilder()
	en := load(t, b, sampleProject(t))
	var zh Input
	for n := 1; n <= 30; n++ {
		data, err := os.ReadFile(filepath.Join(sh, "corpus", "hongloumeng", fmt.Sprintf("%03d.txt", n)))
		if err != nil {
			t.Fatal(err)
		}
		zh.Chapters = append(zh.Chapters, ChapterDoc{Number: n, Path: fmt.Sprintf("manuscript/chapter-%02d/content.md", n), Text: string(data)})
	}
	zh.Entities = chineseEntities(t)
	zhSnap, err := b.Build(zh)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		snap Snapshot
		node Node
	}{
		{"english", en, Node{Text: "Mr. Collins arrives at Longbourn and reads Fordyce's sermons to the girls.", Chapter: 11}},
		{"english-next", en, Node{Text: "Jane recovers; Darcy and Elizabeth argue about pride.", PersistTarget: "manuscript/chapter-11"}},
		{"chinese-simplified", zhSnap, Node{Text: "黛玉葬花之后，宝玉在山坡上听见哭声。", Chapter: 31}},
		{"chinese-traditional", zhSnap, Node{Text: "賈雨村與甄士隱中秋夜飲酒", Chapter: 31}},
	}
	for _, tc := range cases {
		for _, budget := range []int{500, 1000, 2000, 4000, 8000, 16000, 32000, 64000, 128000} {
			tc.node.Budget = budget
			c, err := Assemble(tc.node, tc.snap, Options{})
			if err != nil {
				t.Fatal(err)
			}
			exact := exactTokens(t, c)
			if c.Tokens != exact {
				t.Errorf("%s at %d: reports %d tokens, the text has %d", tc.name, budget, c.Tokens, exact)
			}
			if exact > budget {
				t.Errorf("%s at %d: %d tokens, over budget", tc.name, budget, exact)
			}
			if budget >= 8000 && budget <= 16000 && exact < budget/4 { // small projects cannot fill more
				t.Errorf("%s at %d: only %d tokens used", tc.name, budget, exact)
			}
			sum := 0
			for _, s := range c.Sources {
				sum += s.Tokens
				if s.Path == "" || s.Reason == "" || (s.Level != "L0" && s.Level != "L1" && s.Level != "L2") {
					t.Errorf("%s at %d: bad source %+v", tc.name, budget, s)
				}
			}
			if sum > c.Tokens {
				t.Errorf("%s at %d: sources sum to %d > %d", tc.name, budget, sum, c.Tokens)
			}
			for _, d := range c.Dropped {
				if d.Why == "" {
					t.Errorf("%s at %d: dropped without why: %+v", tc.name, budget, d)
				}
			}
		}
	}
}

// chineseEntities declares a few characters of 红楼梦 in simplified
// Chinese (the text is traditional), with the author's controls.
func chineseEntities(t testing.TB) []*knowledge.Entity {
	files := map[string]string{
		"entities/characters/jia-baoyu.md":   "---\nname: 贾宝玉\naliases: [宝二爷]\nkind: character\nfacts: { home: 怡红院 }\nrelations:\n  - { to: entities/characters/lin-daiyu, kind: cousin }\n---\n荣国府贾政之子，衔玉而生。\n",
		"entities/characters/lin-daiyu.md":   "---\nname: 林黛玉\naliases: [林姑娘, 颦儿]\nkind: character\nfacts: { home: 潇湘馆 }\n---\n贾母的外孙女，寄居荣国府，多愁善感。\n",
		"entities/characters/xue-baochai.md": "---\nname: 薛宝钗\nkind: character\nreveal: 40\n---\n薛姨妈之女。\n",
		"entities/characters/zhen-shiyin.md": "---\nname: 甄士隐\nkind: character\ncontext: never\n---\n姑苏乡宦。\n",
		"entities/characters/jia-yucun.md":   "---\nname: 贾雨村\nkind: character\ncontext: always\n---\n湖州人氏，寄居葫芦庙。\n",
	}
	var out []*knowledge.Entity
	for _, p := range []string{"entities/characters/jia-baoyu.md", "entities/characters/lin-daiyu.md", "entities/characters/xue-baochai.md", "entities/characters/zhen-shiyin.md", "entities/characters/jia-yucun.md"} {
		d, err := knowledge.ParseDocument(p, []byte(files[p]))
		if err != nil {
			t.Fatal(err)
		}
		e, err := knowledge.EntityFromDocument(d)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, e)
	}
	return out
}

func TestChineseControlsAndFolding(t *testing.T) {
	sh := sharedDir(t)
	var in Input
	for n := 1; n <= 30; n++ {
		data, _ := os.ReadFile(filepath.Join(sh, "corpus", "hongloumeng", fmt.Sprintf("%03d.txt", n)))
		in.Chapters = append(in.Chapters, ChapterDoc{Number: n, Path: fmt.Sprintf("manuscript/chapter-%02d/content.md", n), Text: string(data)})
	}
	in.Entities = chineseEntities(t)
	snap, err := newBuilder().Build(in)
	if err != nil {
		t.Fatal(err)
	}
	// Simplified query, traditional text: 黛玉葬花 is chapter 27 (埋香冢飛燕泣殘紅).
	c, err := Assemble(Node{Text: "写黛玉葬花，宝钗扑蝶，甄士隐不必出场。", Chapter: 31, Budget: 8000}, snap, Options{})
	if err != nil {
		t.Fatal(err)
	}
	has := func(list []Source, path string) *Source {
		for i := range list {
			if list[i].Path == path {
				return &list[i]
			}
		}
		return nil
	}
	if s := has(c.Sources, "manuscript/chapter-27/content.md"); s == nil || s.Level == "L0" {
		t.Errorf("chapter 27 not injected at L1/L2: %+v", c.Sources)
	}
	if has(c.Sources, "entities/characters/lin-daiyu.md") == nil {
		t.Error("黛玉 (given name of 林黛玉) not injected")
	}
	if has(c.Sources, "entities/characters/jia-yucun.md") == nil {
		t.Error("context: always entity not injected")
	}
	if s := has(c.Sources, "entities/characters/zhen-shiyin.md"); s != nil {
		t.Error("context: never entity injected")
	}
	if d := has(c.Dropped, "entities/characters/zhen-shiyin.md"); d == nil || !strings.Contains(d.Why, "never") {
		t.Errorf("context: never not reported as dropped: %+v", d)
	}
	if has(c.Sources, "entities/characters/xue-baochai.md") != nil {
		t.Error("entity with reveal: 40 injected for chapter 31")
	}
	if d := has(c.Dropped, "entities/characters/xue-baochai.md"); d == nil || !strings.Contains(d.Why, "revealed") {
		t.Errorf("reveal not reported as dropped: %+v", d)
	}
	for _, s := range c.Sources {
		if n, ok := knowledge.ChapterNumber(s.Path); ok && n >= 31 {
			t.Errorf("chapter %d injected while writing 31", n)
		}
	}
}

func TestEnglishIntentAndFacts(t *testing.T) {
	root := sampleProject(t)
	snap := load(t, newBuilder(), root)
	c, err := Assemble(Node{Text: "Elizabeth's closest friend visits Longbourn.", Chapter: 30, Budget: 8000}, snap, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var charlotte *Source
	for i, s := range c.Sources {
		if s.Path == "entities/characters/charlotte-lucas.md" {
			charlotte = &c.Sources[i]
		}
	}
	if charlotte == nil {
		t.Fatalf("Charlotte not found from \"Elizabeth's closest friend\": %+v", c.Sources)
	}
	if !strings.Contains(charlotte.Reason, "friend") {
		t.Errorf("reason %q does not say why", charlotte.Reason)
	}
	// Facts as of chapter 30: Charlotte is married (progression at 26).
	if !strings.Contains(c.SystemPrefix, "Facts as of chapter 30") || !strings.Contains(c.SystemPrefix, "status: married") {
		t.Errorf("facts as of chapter 30 missing:\n%s", c.SystemPrefix)
	}
	c, _ = Assemble(Node{Text: "Elizabeth's closest friend visits Longbourn.", Chapter: 10, Budget: 8000}, snap, Options{})
	if strings.Contains(c.SystemPrefix, "status: married") && strings.Contains(c.SystemPrefix, "Charlotte Lucas (") {
		t.Errorf("chapter 10 shows a later progression")
	}
	if c.Intent.Chapter != 10 || c.Chapter != 10 {
		t.Errorf("chapter %d", c.Chapter)
	}
	// Chapter from the persist target and from the text.
	for _, tt := range []struct {
		n    Node
		want int
	}{
		{Node{Text: "x", PersistTarget: "manuscript/chapter-07"}, 7},
		{Node{Text: "Write chapter 12 now."}, 12},
		{Node{Text: "写第十二回"}, 12},
		{Node{Text: "the next one"}, 11},
	} {
		c, _ := Assemble(tt.n, snap, Options{Budget: 2000})
		if c.Chapter != tt.want {
			t.Errorf("%+v: chapter %d, want %d", tt.n, c.Chapter, tt.want)
		}
	}
}

func TestExclusionPhrases(t *testing.T) {
	root := sampleProject(t)
	p := filepath.Join(root, "entities/locations/longbourn.md")
	data, _ := os.ReadFile(p)
	data = bytes.Replace(data, []byte("kind: location"), []byte("kind: location\nexclude: [Longbourn road]"), 1)
	os.WriteFile(p, data, 0o644)
	snap := load(t, newBuilder(), root)
	c, _ := Assemble(Node{Text: "They walk along the Longbourn road to Meryton.", Chapter: 11, Budget: 4000}, snap, Options{})
	for _, s := range c.Sources {
		if s.Path == "entities/locations/longbourn.md" && strings.Contains(s.Reason, "named") {
			t.Errorf("excluded phrase counted as a mention: %+v", s)
		}
	}
	c, _ = Assemble(Node{Text: "They walk back to Longbourn.", Chapter: 11, Budget: 4000}, snap, Options{})
	found := false
	for _, s := range c.Sources {
		found = found || (s.Path == "entities/locations/longbourn.md" && strings.Contains(s.Reason, "named"))
	}
	if !found {
		t.Error("plain mention of Longbourn not detected")
	}
}

func TestStaleProvenance(t *testing.T) {
	snap := load(t, newBuilder(), sampleProject(t))
	snap.chapters[len(snap.chapters)-1].Stale = true
	c, _ := Assemble(Node{Text: "Continue.", Chapter: 11, Budget: 3000}, snap, Options{})
	for _, s := range c.Sources {
		if s.Reason == "previous chapter" {
			if want := s.Level != "L2"; s.Stale != want {
				t.Errorf("previous chapter at %s: stale %v", s.Level, s.Stale)
			}
			return
		}
	}
	t.Error("previous chapter not injected")
}

func TestGolden(t *testing.T) {
	snap := load(t, newBuilder(), sampleProject(t))
	c, err := Assemble(Node{Text: "Mr. Collins proposes to Elizabeth after the Netherfield ball.", Chapter: 11, Budget: 3000}, snap, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.MarshalIndent(struct {
		Hash    string   `json:"hash"`
		Tokens  int      `json:"tokens"`
		Sources []Source `json:"sources"`
		Dropped []Source `json:"dropped"`
	}{c.Hash, c.Tokens, c.Sources, c.Dropped}, "", "  ")
	golden := filepath.Join(repoRoot(t), "testdata", "assemble", "collins-proposal.json")
	if *update {
		os.MkdirAll(filepath.Dir(golden), 0o755)
		if err := os.WriteFile(golden, append(got, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if !bytes.Equal(append(got, '\n'), want) {
		t.Errorf("context differs from %s (run with -update if intended):\n%s", golden, got)
	}
}

func TestOddInputs(t *testing.T) {
	empty, err := newBuilder().Build(Input{})
	if err != nil {
		t.Fatal(err)
	}
	snap := load(t, newBuilder(), sampleProject(t))
	for _, tc := range []struct {
		name string
		snap Snapshot
		node Node
	}{
		{"empty project", empty, Node{Text: "Write the first chapter."}},
		{"empty text", snap, Node{}},
		{"invalid UTF-8", snap, Node{Text: "Eliz\xffabeth \xfe\xfd Darcy", Budget: 3000}},
		{"one token", snap, Node{Text: "Darcy", Budget: 1}},
		{"huge upstream", snap, Node{Text: "Go on.", Upstream: []string{strings.Repeat("Jane Bingley Netherfield ", 20000)}, Budget: 5000}},
		{"chapter zero target", snap, Node{Text: "x", PersistTarget: "manuscript/chapter-00"}},
		{"non-BMP", snap, Node{Text: "𠀀 Lizzy 😀 walks", Budget: 2000}},
	} {
		c, err := Assemble(tc.node, tc.snap, Options{})
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if exact := exactTokens(t, c); exact > c.Budget || exact != c.Tokens {
			t.Errorf("%s: %d tokens (reported %d) for budget %d", tc.name, exact, c.Tokens, c.Budget)
		}
		if len(c.Hash) != 64 {
			t.Errorf("%s: hash %q", tc.name, c.Hash)
		}
	}
}

func TestStoredLevels(t *testing.T) {
	b := newBuilder()
	asked := 0
	b.Levels = func(path, hash string) (StoredLevels, bool) {
		if !strings.HasPrefix(path, "manuscript/") {
			return StoredLevels{}, false
		}
		asked++
		if len(hash) != 64 {
			t.Errorf("hash %q", hash)
		}
		return StoredLevels{L0: "Stored one-line summary of " + path + ".", L1: "Stored overview of " + path + ".", Stale: strings.Contains(path, "chapter-10")}, true
	}
	snap := load(t, b, sampleProject(t))
	if asked == 0 {
		t.Fatal("Levels never asked")
	}
	c, _ := Assemble(Node{Text: "Continue the story.", Chapter: 11, Budget: 1200}, snap, Options{})
	var prev *Source
	for i := range c.Sources {
		if c.Sources[i].Reason == "previous chapter" {
			prev = &c.Sources[i]
		}
	}
	if prev == nil || prev.Level != "L1" || !prev.Stale {
		t.Fatalf("previous chapter source: %+v", prev)
	}
	if !strings.Contains(c.UserSuffix, "Stored overview of manuscript/chapter-10/content.md.") {
		t.Errorf("stored L1 not used:\n%s", c.UserSuffix)
	}
	if exact := exactTokens(t, c); exact != c.Tokens || exact > 1200 {
		t.Errorf("tokens %d (reported %d)", exact, c.Tokens)
	}
}

// TestLeftoverReadsChaptersWhole checks that budget left after the
// breadth pass goes to the chapters the search found, all of them, not
// only those placed first: at a budget that holds every chapter of the
// sample project, no chapter stays a summary.
func TestLeftoverReadsChaptersWhole(t *testing.T) {
	snap := load(t, newBuilder(), sampleProject(t))
	for _, budget := range []int{64000, 128000} {
		n := Node{Text: "Elizabeth walks to Netherfield through the mud to nurse Jane; Miss Bingley mocks her petticoat.", Chapter: 11, Budget: budget}
		c, err := Assemble(n, snap, Options{})
		if err != nil {
			t.Fatal(err)
		}
		whole := 0
		for _, s := range c.Sources {
			if !strings.HasPrefix(s.Path, "manuscript/") || s.Part != "" {
				continue
			}
			if s.Level != "L2" {
				t.Errorf("at %d: %s at %s with %d of %d tokens used", budget, s.Path, s.Level, c.Tokens, budget)
			}
			whole++
		}
		if whole < 5 {
			t.Errorf("at %d: only %d chapters read whole", budget, whole)
		}
	}
}

// TestWidenReadsTheScene checks that a best chapter too large to read
// whole brings the passages around its best match, so that a line two
// passages away from the words the prompt shares with the text is seen.
func TestWidenReadsTheScene(t *testing.T) {
	filler := func(n int) string {
		return fmt.Sprintf("Paragraph %d. The rain fell on the fields of the parish while the bells rang for evening service, "+
			"and nobody in the village spoke of anything but the harvest, the price of corn and the state of the roads.", n)
	}
	var ch2 []string
	for i := range 60 {
		switch i {
		case 30:
			ch2 = append(ch2, "Anne knelt and buried the silver locket beneath the garden wall, where the ivy grew thickest.")
		case 40:
			ch2 = append(ch2, "She never forgave him, not in twenty years.")
		default:
			ch2 = append(ch2, filler(i))
		}
	}
	var in Input
	for n := 1; n <= 4; n++ {
		text := filler(100*n) + "\n\n" + filler(100*n+1)
		if n == 2 {
			text = strings.Join(ch2, "\n\n")
		}
		in.Chapters = append(in.Chapters, ChapterDoc{Number: n, Path: fmt.Sprintf("manuscript/chapter-%02d/content.md", n), Text: text})
	}
	snap, err := newBuilder().Build(in)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Assemble(Node{Text: "Anne remembers the silver locket beneath the garden wall.", Chapter: 5, Budget: 2500}, snap, Options{})
	if err != nil {
		t.Fatal(err)
	}
	whole, scene := false, 0
	for _, s := range c.Sources {
		if s.Path != "manuscript/chapter-02/content.md" {
			continue
		}
		if s.Part == "" && s.Level == "L2" {
			whole = true
		}
		if strings.Contains(s.Reason, "scene around") {
			scene++
		}
	}
	if whole {
		t.Fatalf("chapter 2 read whole at this budget: the test needs it too large")
	}
	if scene == 0 {
		t.Errorf("no passage taken for the scene around the match: %+v", c.Sources)
	}
	if !strings.Contains(c.UserSuffix+c.SystemPrefix, "She never forgave him") {
		t.Errorf("the line two passages after the match is not in the context")
	}
}

// TestPreviousChapterOrder checks where the previous chapter stands among
// the chapters read whole: behind the two best search results when none
// of its passages matches the prompt, ahead of them when its own passage
// is the best match.
func TestPreviousChapterOrder(t *testing.T) {
	para := func(n int, s string) string {
		return fmt.Sprintf("Paragraph %d. %s The rain fell on the fields of the parish while the bells rang for evening service.", n, s)
	}
	chapter := func(n int, match string) string {
		var ps []string
		for i := range 24 * (1 + n/4) { // the previous chapter is twice as long

			s := ""
			if i == 12 {
				s = match
			}
			ps = append(ps, para(100*n+i, s))
		}
		return strings.Join(ps, "\n\n")
	}
	build := func(matches map[int]string) Snapshot {
		var in Input
		for n := 1; n <= 4; n++ {
			in.Chapters = append(in.Chapters, ChapterDoc{Number: n, Path: fmt.Sprintf("manuscript/chapter-%02d/content.md", n), Text: chapter(n, matches[n])})
		}
		snap, err := newBuilder().Build(in)
		if err != nil {
			t.Fatal(err)
		}
		return snap
	}
	wholeOf := func(snap Snapshot, budget int) map[int]bool {
		c, err := Assemble(Node{Text: "The captain sells the grey mare at the autumn fair.", Chapter: 5, Budget: budget}, snap, Options{})
		if err != nil {
			t.Fatal(err)
		}
		out := map[int]bool{}
		for _, s := range c.Sources {
			var n int
			if _, err := fmt.Sscanf(s.Path, "manuscript/chapter-%02d/content.md", &n); err == nil && s.Part == "" && s.Level == "L2" {
				out[n] = true
			}
		}
		return out
	}
	const budget = 1800 // two of the short chapters whole, or one and the long previous one
	quiet := build(map[int]string{1: "The captain sold the grey mare at the autumn fair.", 2: "The captain rode the grey mare to the fair."})
	if w := wholeOf(quiet, budget); !w[1] || !w[2] || w[4] {
		t.Errorf("previous chapter without a match: read whole %v, want 1 and 2 before 4", w)
	}
	loud := build(map[int]string{1: "The captain sold the grey mare at the autumn fair.", 2: "The captain rode the grey mare to the fair.",
		4: "At the autumn fair the captain sells the grey mare to a farmer."})
	if w := wholeOf(loud, budget); !w[4] {
		t.Errorf("previous chapter with the best match: read whole %v, want 4 among them", w)
	}
}

// TestBreadthPass checks what the breadth pass reads when the budget is
// too small to read a chapter whole: the scene around the best passage
// (its neighbours), the best passages of each of the two best chapters,
// and only then the one-hop relations, which a larger budget still
// brings.
func TestBreadthPass(t *testing.T) {
	snap := load(t, newBuilder(), sampleProject(t))
	n := Node{Text: "Mr. Collins proposes to Elizabeth after the Netherfield ball.", Chapter: 11}
	for _, budget := range []int{3000, 5000} {
		n.Budget = budget
		c, err := Assemble(n, snap, Options{})
		if err != nil {
			t.Fatal(err)
		}
		var best Source
		neighbours, related := 0, 0
		passages := map[string]int{} // injected ranked passages by chapter
		rankOf := map[string]string{}
		for _, s := range c.Sources {
			switch {
			case strings.HasPrefix(s.Reason, "passage rank 1:"):
				best = s
			case strings.HasPrefix(s.Reason, "next to a matched passage"):
				neighbours++
			case strings.HasPrefix(s.Reason, "related: "):
				related++
			case strings.HasPrefix(s.Reason, "search rank "):
				rankOf[strings.Fields(s.Reason)[2]] = s.Path
			}
			if strings.HasPrefix(s.Reason, "passage rank ") {
				passages[s.Path]++
			}
		}
		if best.Path == "" {
			t.Fatalf("at %d: the best passage is not injected: %+v", budget, c.Sources)
		}
		if neighbours < 2 {
			t.Errorf("at %d: %d neighbours of the best passage (%s %s) injected, want 2", budget, neighbours, best.Path, best.Part)
		}
		if related > 0 {
			t.Errorf("at %d: %d relations injected before the scene and the best chapters' passages", budget, related)
		}
		// The previous chapter may be one of the two best; the others
		// are named by their search rank. At 3000 not all fit.
		for _, r := range []string{"1", "2"} {
			if p := rankOf[r]; p != "" && budget >= 5000 && passages[p] < bestPassages {
				t.Errorf("at %d: chapter of search rank %s (%s) has %d ranked passages injected, want %d", budget, r, p, passages[p], bestPassages)
			}
		}
	}
	n.Budget = 24000
	c, err := Assemble(n, snap, Options{})
	if err != nil {
		t.Fatal(err)
	}
	related := 0
	for _, s := range c.Sources {
		if strings.HasPrefix(s.Reason, "related: ") {
			related++
		}
	}
	if related == 0 {
		t.Errorf("at 24000 no relation is injected: %+v", c.Sources)
	}
}

// An alias two entity files share ("Miss Bennet", the eldest daughter's
// title, also declared by a sister here) is one mention per entity at the
// same span: finding the entities a prompt describes must step over both.
func TestSharedAliasInADescribedPrompt(t *testing.T) {
	root := sampleProject(t)
	p := filepath.Join(root, "entities", "characters", "elizabeth-bennet.md")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(data), "aliases: [", "aliases: [Miss Bennet, ", 1)
	if text == string(data) {
		t.Fatal("elizabeth-bennet.md has no aliases line to extend")
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	snap := load(t, newBuilder(), root)
	c, err := Assemble(Node{Text: "Miss Bennet and her closest friend walk to Meryton.", Chapter: 30, Budget: 8000}, snap, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Sources) == 0 {
		t.Fatal("nothing injected")
	}
}
