package factcheck

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/flowcabal/flowcabal/internal/projecttest"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/textsearch"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata/factcheck/cases")

const testdataDir = "../../testdata/factcheck"

// One Folder for all tests: its table takes a moment to derive.
var testFolder = textsearch.NewFolder()

var (
	projMu    sync.Mutex
	projCache = map[string]*Knowledge{}
)

// testKnowledge loads a project of testdata/factcheck once.
func testKnowledge(t testing.TB, name string) *Knowledge {
	t.Helper()
	projMu.Lock()
	defer projMu.Unlock()
	if k := projCache[name]; k != nil {
		return k
	}
	p, errs := knowledge.LoadProject(filepath.Join(testdataDir, name))
	if len(errs) > 0 {
		t.Fatalf("load %s: %v", name, errs)
	}
	k := FromProject(p, testFolder)
	if len(k.Errs()) > 0 {
		t.Fatalf("knowledge of %s: %v", name, k.Errs())
	}
	projCache[name] = k
	return k
}

// caseFile is a text to check with its header: project, chapter, prev.
type caseFile struct {
	project string
	chapter int
	prev    string
	text    string
}

func readCaseFile(t *testing.T, path string) caseFile {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	head, text, ok := strings.Cut(string(b), "\n\n")
	if !ok {
		t.Fatalf("%s: no blank line after the header", path)
	}
	var c caseFile
	c.text = text
	for _, line := range strings.Split(head, "\n") {
		k, v, _ := strings.Cut(line, ":")
		v = strings.TrimSpace(v)
		switch k {
		case "project":
			c.project = v
		case "chapter":
			c.chapter, err = strconv.Atoi(v)
			if err != nil {
				t.Fatalf("%s: chapter %q", path, v)
			}
		case "prev":
			pb, err := os.ReadFile(filepath.Join(filepath.Dir(path), v))
			if err != nil {
				t.Fatal(err)
			}
			c.prev = string(pb)
		}
	}
	return c
}

// formatFindings renders findings for a golden file, offsets in code points.
func formatFindings(text string, fs []Finding) string {
	var b strings.Builder
	for _, f := range fs {
		s, e := RuneOffsets(text, f.Start, f.End)
		fmt.Fprintf(&b, "%s [%d,%d) %q conf=%.2f", f.Type, s, e, text[f.Start:f.End], f.Confidence)
		if f.Suggestion != "" {
			fmt.Fprintf(&b, " fix=%q", f.Suggestion)
		}
		ev := f.Evidence
		fmt.Fprintf(&b, " evidence=%s#%s=%q", ev.Path, ev.Key, ev.Value)
		if ev.Line > 0 {
			fmt.Fprintf(&b, " line=%d", ev.Line)
		}
		if ev.Since > 0 {
			fmt.Fprintf(&b, " since=%d", ev.Since)
		}
		if ev.Quote != "" {
			fmt.Fprintf(&b, " quote=%q", ev.Quote)
		}
		fmt.Fprintf(&b, "\n\t%s\n", f.Message)
	}
	return b.String()
}

func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(testdataDir, "cases", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no case files: %v", err)
	}
	for _, path := range files {
		if strings.HasSuffix(path, ".prev.txt") {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(path), ".txt")
		t.Run(name, func(t *testing.T) {
			c := readCaseFile(t, path)
			k := testKnowledge(t, c.project)
			got := formatFindings(c.text, Check(c.text, c.chapter, k, c.prev))
			golden := strings.TrimSuffix(path, ".txt") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("findings differ from %s:\n--- got\n%s--- want\n%s", golden, got, want)
			}
		})
	}
}

// TestCheckers states what each checker must and must not find, so the
// golden files cannot drift into accepting a wrong answer.
func TestCheckers(t *testing.T) {
	type want struct{ typ, text, fix string }
	tests := []struct {
		file string
		must []want
		not  []string // texts no finding may cover
	}{
		{"en-names", []want{{"name", "Margret", "Margaret"}, {"name", "Brandan", "Brandon"}},
			[]string{"June", "Hales", "Hall", "Meg", "Miss Hale", "Cape", "Bengal", "Janet"}},
		{"en-facts", []want{{"fact", "seventeen", ""}, {"fact", "blue", ""}, {"fact", "Captain", "Colonel"}, {"fact", "six thousand a year", ""}, {"fact", "wife", ""}, {"fact", "four miles", ""}, {"fact", "five daughters", ""}, {"fact", "ten thousand pounds a year", ""}, {"fact", "Captain", "Lieutenant"}, {"fact", "sixteen", ""}, {"fact", "five thousand a year", ""}, {"fact", "Mrs. Thornton", "Margaret Hale"}},
			[]string{"three daughters", "three hundred a year", "five-and-thirty", "green", "two thousand pounds a year", "Lieutenant"}},
		{"en-state", []want{{"state", "Margaret", ""}, {"state", "Frederick", ""}},
			[]string{"Mr. Hale"}},
		{"en-world", []want{{"world", "telephoned", ""}, {"world", "policemen", ""}, {"world", "motor-car", ""}, {"world", "aeroplane", ""}, {"world", "wireless", ""}},
			[]string{"telegraph", "telephonist", "electric"}},
		{"en-continuity", []want{{"continuity", "Captain", "Colonel"}, {"continuity", "Penrosse", "Penrose"}}, nil},
		{"zh-continuity", []want{{"continuity", "张如桂", "张如圭"}, {"continuity", "冷子星", "冷子兴"}, {"continuity", "老爷", "姑娘"}},
			[]string{"张如圭坐", "冷子兴便", "老先生"}},
		{"zh-continuity-trad", []want{{"continuity", "張如桂", "張如圭"}, {"continuity", "冷子星", "冷子興"}, {"continuity", "老爺", "姑娘"}},
			[]string{"張如圭坐", "冷子興便", "老先生"}},
		{"zh-continuity-mixed", []want{{"continuity", "張如桂", "張如圭"}, {"continuity", "冷子星", "冷子興"}, {"continuity", "老爺", "姑娘"}},
			[]string{"張如圭坐", "冷子興便", "老先生"}},
		{"zh-names", []want{{"name", "林黛王", "林黛玉"}, {"name", "林代玉", "林黛玉"}},
			[]string{"林姑妈", "宝二叔", "贾迎春", "薛宝钗"}},
		{"zh-names-short", []want{{"name", "黛王", "黛玉"}},
			[]string{"可亲", "宝玉"}},
		{"zh-names-trad", []want{{"name", "林黛王", "林黛玉"}, {"name", "薛寶柴", "薛寶釵"}},
			[]string{"林黛玉"}},
		{"zh-state", []want{{"state", "黛玉", ""}},
			[]string{"凤姐"}},
		{"zh-world", []want{{"world", "手机", ""}, {"world", "電話", ""}, {"world", "汽车", ""}},
			[]string{"香烟"}},
		{"zh-facts-more", []want{{"fact", "知县", "知府"}, {"fact", "碧绿", ""}, {"fact", "五里", ""}},
			[]string{"原任", "三百里", "真黑"}},
		{"zh-facts", []want{{"fact", "两个女儿", ""}},
			[]string{"一个女儿"}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			c := readCaseFile(t, filepath.Join(testdataDir, "cases", tt.file+".txt"))
			fs := Check(c.text, c.chapter, testKnowledge(t, c.project), c.prev)
			for _, w := range tt.must {
				found := slices.ContainsFunc(fs, func(f Finding) bool {
					return f.Type == w.typ && c.text[f.Start:f.End] == w.text && (w.fix == "" || f.Suggestion == w.fix)
				})
				if !found {
					t.Errorf("no %s finding on %q (fix %q); got:\n%s", w.typ, w.text, w.fix, formatFindings(c.text, fs))
				}
			}
			for _, f := range fs {
				for _, n := range tt.not {
					if strings.Contains(n, c.text[f.Start:f.End]) || strings.Contains(c.text[f.Start:f.End], n) {
						t.Errorf("unexpected %s finding on %q: %s", f.Type, c.text[f.Start:f.End], f.Message)
					}
				}
			}
			// Only the acting mentions count, not the recalled, quoted,
			// buried or remembered ones.
			if want, ok := map[string]int{"zh-state": 1, "en-state": 2}[tt.file]; ok {
				count := 0
				for _, f := range fs {
					if f.Type == TypeState {
						count++
					}
				}
				if count != want {
					t.Errorf("%s: %d state findings, want %d:\n%s", tt.file, count, want, formatFindings(c.text, fs))
				}
			}
		})
	}
}

func TestRuneOffsets(t *testing.T) {
	text := "a林𠀀b😀c"
	tests := []struct{ bs, be, rs, re int }{
		{0, 1, 0, 1},
		{1, 4, 1, 2},
		{4, 8, 2, 3},
		{8, 9, 3, 4},
		{9, 13, 4, 5},
		{0, len(text), 0, 6},
		{-3, 100, 0, 6},
	}
	for _, tt := range tests {
		rs, re := RuneOffsets(text, tt.bs, tt.be)
		if rs != tt.rs || re != tt.re {
			t.Errorf("RuneOffsets(%d,%d) = %d,%d want %d,%d", tt.bs, tt.be, rs, re, tt.rs, tt.re)
		}
		if tt.bs >= 0 && tt.be <= len(text) {
			if b := ByteOffset(text, rs); b != tt.bs {
				t.Errorf("ByteOffset(%d) = %d want %d", rs, b, tt.bs)
			}
		}
	}
}

func TestBadInput(t *testing.T) {
	k := testKnowledge(t, "english")
	if fs := Check("", 1, k, ""); fs != nil {
		t.Errorf("empty text: %v", fs)
	}
	if fs := Check("Margret", 1, nil, ""); fs != nil {
		t.Errorf("nil knowledge: %v", fs)
	}
	// Invalid UTF-8 keeps offsets: the finding still points at Margret.
	text := "\xff\xfe Margret came in. \xc3"
	fs := Check(text, 2, k, "")
	if len(fs) != 1 || text[fs[0].Start:fs[0].End] != "Margret" {
		t.Errorf("invalid UTF-8: %v", fs)
	}
	// Pathological inputs do not panic and stay cheap.
	for _, s := range []string{strings.Repeat("“", 5000), strings.Repeat("Mr. ", 5000), strings.Repeat("林", 5000), strings.Repeat("one ", 3000), "\x00\x00", strings.Repeat("a-", 4000)} {
		Check(s, 3, k, s)
		Check(s, 3, testKnowledge(t, "hongloumeng"), "")
	}
	// An empty knowledge finds nothing.
	if fs := Check("Margret telephoned.", 1, NewKnowledge(nil, nil, testFolder), ""); len(fs) != 0 {
		t.Errorf("empty knowledge: %v", fs)
	}
}

func TestForbiddenPatternsAndErrors(t *testing.T) {
	w := &knowledge.WorldRules{Path: "meta/world-rules.md", Forbidden: []string{"railway station"}, ForbiddenPatterns: []string{`\bO\.?K\.?\b`, `(`}}
	k := NewKnowledge(nil, w, testFolder)
	if len(k.Errs()) != 1 || !strings.Contains(k.Errs()[0].Error(), "forbidden pattern") {
		t.Errorf("errs %v", k.Errs())
	}
	text := "It was OK at the railway-stations; the railways stationed nobody."
	var got []string
	for _, f := range Check(text, 1, k, "") {
		got = append(got, text[f.Start:f.End])
	}
	if want := []string{"OK", "railway-stations"}; !slices.Equal(got, want) {
		t.Errorf("got %q want %q", got, want)
	}
}

func TestIsForm(t *testing.T) {
	tests := []struct {
		w, base string
		want    bool
	}{
		{"telephoned", "telephone", true}, {"telephoning", "telephone", true}, {"telephones", "telephone", true},
		{"telephonist", "telephone", false}, {"photographs", "photograph", true}, {"photographer", "photograph", true},
		{"policemen", "policeman", true}, {"bicycles", "bicycle", true}, {"telegrammed", "telegram", true},
		{"gramophones", "gramophone", true}, {"radios", "radio", true}, {"radius", "radio", false},
		{"cinemas", "cinema", true}, {"cinematic", "cinema", false}, {"batteries", "battery", true},
	}
	for _, tt := range tests {
		if got := isForm(tt.w, tt.base); got != tt.want {
			t.Errorf("isForm(%q, %q) = %v", tt.w, tt.base, got)
		}
	}
}

func TestNumbers(t *testing.T) {
	tests := []struct {
		in   string
		want []int
	}{
		{"five-and-thirty", []int{35}}, {"twenty-one", []int{21}}, {"ten thousand a year", []int{10000}},
		{"four or five thousand a year", []int{4000, 5000}}, {"a hundred and ten", []int{110}},
		{"10,000 pounds", []int{10000}}, {"3 thousand", []int{3000}}, {"five and twenty", []int{25}},
		{"two thousand", []int{2000}},
	}
	for _, tt := range tests {
		vals, _, _, ok := parseValue(tt.in)
		if !ok || !slices.Equal(vals, tt.want) {
			t.Errorf("parseValue(%q) = %v, %v; want %v", tt.in, vals, ok, tt.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b  string
		limit int
		want  int
	}{
		{"kity", "kitty", 1, 1}, {"elisabeth", "elizabeth", 2, 1}, {"fitzwiliam", "fitzwilliam", 2, 1},
		{"darcy", "dracy", 1, 1}, {"maria", "mary", 1, 2}, {"abc", "abc", 1, 0}, {"georgina", "georgiana", 2, 1},
	}
	for _, tt := range tests {
		if got := editDistance([]rune(tt.a), []rune(tt.b), tt.limit); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// TestTraditionalNamesSimplifiedText: entity files in traditional
// characters check a simplified text, and the quick-fix keeps the text's
// script.
func TestTraditionalNamesSimplifiedText(t *testing.T) {
	ents := []*knowledge.Entity{{
		Resource: "entities/characters/lin", Path: "entities/characters/lin.md", Name: "林黛玉", Aliases: []string{"顰兒"},
		Kind: "character", Facts: map[string]string{"status": "死"}, KeyLines: map[string]int{"name": 2},
	}, {
		Resource: "entities/characters/bao", Path: "entities/characters/bao.md", Name: "薛寶釵", Aliases: []string{"寶姑娘"},
		Kind: "character", Facts: map[string]string{"status": "alive"}, KeyLines: map[string]int{"name": 2},
	}}
	k := NewKnowledge(ents, &knowledge.WorldRules{Path: "meta/world-rules.md", Forbidden: []string{"電話"}}, testFolder)
	text := "薛宝柴拿起电话，林黛玉笑道：“来了。”"
	fs := Check(text, 1, k, "")
	var got []string
	for _, f := range fs {
		got = append(got, f.Type+":"+text[f.Start:f.End]+">"+f.Suggestion)
	}
	want := []string{"name:薛宝柴>薛宝钗", "world:电话>", "state:林黛玉>"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q want %q", got, want)
	}
}

// TestConcurrentChecks: a Knowledge is shared by concurrent checks (run
// with -race).
func TestConcurrentChecks(t *testing.T) {
	en, zh := testKnowledge(t, "english"), testKnowledge(t, "hongloumeng")
	c1 := readCaseFile(t, filepath.Join(testdataDir, "cases", "en-facts.txt"))
	c2 := readCaseFile(t, filepath.Join(testdataDir, "cases", "zh-names-trad.txt"))
	want1, want2 := formatFindings(c1.text, Check(c1.text, c1.chapter, en, "")), formatFindings(c2.text, Check(c2.text, c2.chapter, zh, ""))
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for range 8 {
		wg.Go(func() {
			if got := formatFindings(c1.text, Check(c1.text, c1.chapter, en, "")); got != want1 {
				errs <- got
			}
			if got := formatFindings(c2.text, Check(c2.text, c2.chapter, zh, "")); got != want2 {
				errs <- got
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Errorf("concurrent check differs: %s", e)
	}
}

// FuzzCheck: any text, valid or not, gives findings whose ranges lie in
// the text on rune boundaries, and never a panic.
func FuzzCheck(f *testing.F) {
	for _, s := range []string{"Margret said Frederick, “telephoned” at sea.", "林黛王笑道：“电话”", "Captain Brandon had six thousand pounds a year.", "\xff林\x00", "Mr. Mr. Mr.", "一二三四五六七八九十岁",
		"Margaret, Prince Vasíli’s", "Margaret was Mr. Hale’s ", "Margaret, the German tutor Hale, married in 1815.", "只見黛玉在屋里說", "轉手遞與黛玉、",
		"原籍金陵的黛玉", "賈薔之妻黛玉", "黛玉是周姨娘所生的", "享年七旬", "黛玉是正月十五日所生", "老孫的觔斗雲，一縱有八萬四千里",
		"Margaret, who sat by", "Margaret, one of Hale’s adjutants", "Margaret, Prince Hale’s daughter", "at the age of two-and-thirty", "Bóris",
		"「他", "他是", "有一個的，", "外有一個帶發修行的，本是揚州人氏．法名黛玉", "“黛玉呢？”“他原籍是", "「貧僧", "「老拙今年", "This girl of eleven", "This girl of",
		"\nThis girl of eleven.\n\nMargaret", "Despite Margaret’s wealth, since she had", "他是牛魔王的兒子。他。乳名叫做"} {
		f.Add(s, 8)
	}
	en := testKnowledge(f, "english")
	zh := testKnowledge(f, "hongloumeng")
	f.Fuzz(func(t *testing.T, text string, chapter int) {
		for _, k := range []*Knowledge{en, zh} {
			for _, fd := range Check(text, chapter, k, text) {
				if fd.Start < 0 || fd.End < fd.Start || fd.End > len(text) {
					t.Fatalf("range [%d,%d) outside %d bytes", fd.Start, fd.End, len(text))
				}
				if utf8.ValidString(text) && (fd.Start < len(text) && !utf8.RuneStart(text[fd.Start]) || fd.End < len(text) && !utf8.RuneStart(text[fd.End])) {
					t.Fatalf("range [%d,%d) splits a rune", fd.Start, fd.End)
				}
				if fd.Type == "" || fd.Message == "" {
					t.Fatalf("empty finding %+v", fd)
				}
			}
		}
	})
}

func TestCheckChapter(t *testing.T) {
	root := t.TempDir()
	write := func(rel, s string) { projecttest.WriteFile(t, root, rel, s) }
	write("entities/characters/meg.md", "---\nname: Margaret Hale\naliases: [Meg]\nfacts: { eyes: green }\n---\nShe.\n")
	write("manuscript/chapter-01/content.md", "Colonel Forster came.\n")
	write("manuscript/chapter-02/content.md", "---\ntitle: Two\n---\nCaptain Forster saw Margaret and her blue eyes. Margret smiled.\n")
	p, errs := knowledge.LoadProject(root)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	k := FromProject(p, testFolder)
	data, err := os.ReadFile(filepath.Join(root, "manuscript", "chapter-02", "content.md"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range CheckChapter(p, k, 2) {
		got = append(got, f.Type+":"+string(data[f.Start:f.End]))
	}
	if want := []string{"continuity:Captain", "fact:blue", "name:Margret"}; !slices.Equal(got, want) {
		t.Errorf("got %q want %q", got, want)
	}
	if CheckChapter(p, k, 3) != nil {
		t.Error("chapter 3 does not exist")
	}
}
