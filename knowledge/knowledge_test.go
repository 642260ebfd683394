package knowledge

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseDocument(t *testing.T) {
	tests := []struct {
		name       string
		data       string
		wantFront  map[string]any
		wantBody   string
		wantErr    string // substring; "" = no error
		wantLine   int    // FrontMatterError line when wantErr != ""
		bodyOffset int
	}{
		{name: "no front matter", data: "Just text.\n", wantBody: "Just text.\n"},
		{name: "front matter", data: "---\nname: Jane\nage: 22\n---\nBody\n",
			wantFront: map[string]any{"name": "Jane", "age": 22}, wantBody: "Body\n", bodyOffset: 27},
		{name: "crlf", data: "---\r\nname: Jane\r\n---\r\nBody\r\n",
			wantFront: map[string]any{"name": "Jane"}, wantBody: "Body\r\n", bodyOffset: 22},
		{name: "bom", data: "\ufeff---\nname: 林黛玉\n---\n正文",
			wantFront: map[string]any{"name": "林黛玉"}, wantBody: "正文", bodyOffset: 27},
		{name: "dots close", data: "---\nname: X\n...\nB", wantFront: map[string]any{"name": "X"}, wantBody: "B", bodyOffset: 16},
		{name: "empty front", data: "---\n---\nB", wantFront: map[string]any{}, wantBody: "B", bodyOffset: 8},
		{name: "rule later is body", data: "Title\n---\nname: x\n---\n", wantBody: "Title\n---\nname: x\n---\n"},
		{name: "unclosed", data: "---\nname: X\nbody", wantBody: "---\nname: X\nbody", wantErr: "no closing", wantLine: 1},
		{name: "broken yaml", data: "---\nname: X\nfacts: { eyes: [blue\n---\nThe body.\n", wantBody: "The body.\n", wantErr: "front matter", wantLine: 3, bodyOffset: 37},
		{name: "not a mapping", data: "---\n- a\n- b\n---\nB", wantBody: "B", wantErr: "must be a mapping", wantLine: 2, bodyOffset: 16},
		{name: "bad indentation", data: "---\nname: X\n  aliases: [a]\n---\nB", wantBody: "B", wantErr: "front matter", wantLine: 3, bodyOffset: 31},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := ParseDocument("entities/x.md", []byte(tt.data))
			if d == nil {
				t.Fatalf("nil document (err %v)", err)
			}
			if tt.wantErr == "" && err != nil {
				t.Fatalf("unexpected error %v", err)
			}
			if tt.wantErr != "" {
				var fe *FrontMatterError
				if !errors.As(err, &fe) {
					t.Fatalf("error %v is not a *FrontMatterError", err)
				}
				if !strings.Contains(err.Error(), tt.wantErr) || !strings.Contains(err.Error(), "entities/x.md") {
					t.Errorf("error %q does not name the file and %q", err, tt.wantErr)
				}
				if fe.Line != tt.wantLine {
					t.Errorf("error line %d, want %d (%v)", fe.Line, tt.wantLine, err)
				}
			}
			if d.Body != tt.wantBody {
				t.Errorf("body %q, want %q", d.Body, tt.wantBody)
			}
			if tt.data[d.BodyOffset:] != d.Body {
				t.Errorf("BodyOffset %d does not point at the body", d.BodyOffset)
			}
			if tt.bodyOffset != 0 && d.BodyOffset != tt.bodyOffset {
				t.Errorf("BodyOffset %d, want %d", d.BodyOffset, tt.bodyOffset)
			}
			if fmt.Sprint(d.Front) != fmt.Sprint(tt.wantFront) {
				t.Errorf("front %v, want %v", d.Front, tt.wantFront)
			}
			if d.Resource != "entities/x" || len(d.Hash) != 64 {
				t.Errorf("resource %q hash %q", d.Resource, d.Hash)
			}
		})
	}
}

func TestParseDocumentRejectsBadInput(t *testing.T) {
	d, err := ParseDocument("a.md", []byte("---\nname: \xff\n---\n"))
	if d != nil || !errors.Is(err, ErrInvalidUTF8) || !strings.Contains(err.Error(), "a.md:2") {
		t.Errorf("invalid UTF-8: doc %v err %v", d, err)
	}
	// Nothing the parser is given may make it panic.
	for _, s := range []string{"", "---", "---\n", "---\n---", "\ufeff", "---\n: :\n---\n", "---\n*a\n---\n", "---\n[\n---\n"} {
		if _, err := ParseDocument("a.md", []byte(s)); err != nil {
			var fe *FrontMatterError
			if !errors.As(err, &fe) {
				t.Errorf("%q: error %v is not a FrontMatterError", s, err)
			}
		}
	}
}

func TestParseDocumentAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("---\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
	for i := 1; i < 9; i++ {
		fmt.Fprintf(&b, "a%d: &a%d [*a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d, *a%d]\n", i, i, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1, i-1)
	}
	b.WriteString("name: X\n---\nbody\n")
	d, err := ParseDocument("entities/bomb.md", []byte(b.String()))
	var fe *FrontMatterError
	if d == nil || !errors.As(err, &fe) || !strings.Contains(err.Error(), "too many values") {
		t.Fatalf("alias bomb: %v", err)
	}
	if d.Body != "body\n" {
		t.Errorf("body %q", d.Body)
	}
}

func FuzzParseDocument(f *testing.F) {
	f.Add([]byte("---\nname: X\nfacts: {a: 1}\nprogressions: [{chapter: 2, facts: {a: 2}}]\n---\nbody"))
	f.Add([]byte("---\nname: 林\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, err := ParseDocument("entities/f.md", data)
		if d == nil {
			if err == nil {
				t.Fatal("nil document without error")
			}
			return
		}
		if string(data[d.BodyOffset:]) != d.Body {
			t.Fatal("BodyOffset does not point at the body")
		}
		if e, err := EntityFromDocument(d); err == nil && e.Name == "" {
			t.Fatal("entity without name and without error")
		} else if e != nil {
			e.FactsAsOf(10)
		}
	})
}

func evalDir(t testing.TB) string {
	t.Helper()
	dir, _ := os.Getwd()
	for d := dir; ; d = filepath.Dir(d) {
		p := filepath.Join(d, "shared", "eval", "pride-and-prejudice")
		if fi, err := os.Stat(p); err == nil && fi.IsDir() {
			return p
		}
		if filepath.Dir(d) == d {
			t.Fatalf("shared/eval/pride-and-prejudice not found above %s", dir)
		}
	}
}

func loadEntity(t *testing.T, root, rel string) *Entity {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	d, err := ParseDocument(rel, data)
	if err != nil {
		t.Fatal(err)
	}
	e, err := EntityFromDocument(d)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func TestEntityFromEvalFiles(t *testing.T) {
	root := evalDir(t)
	lydia := loadEntity(t, root, "entities/characters/lydia-bennet.md")
	if lydia.Name != "Lydia Bennet" || lydia.Kind != "character" || lydia.Context != ContextAuto {
		t.Errorf("lydia: %+v", lydia)
	}
	if want := []string{"Lydia Bennet", "Lydia", "Miss Lydia Bennet", "Miss Lydia", "Mrs. Wickham"}; !slices.Equal(lydia.Names(), want) {
		t.Errorf("names %v, want %v", lydia.Names(), want)
	}
	if len(lydia.Relations) != 2 || lydia.Relations[0] != (Relation{To: "entities/characters/george-wickham", Kind: "spouse"}) {
		t.Errorf("relations %v", lydia.Relations)
	}
	if !strings.Contains(lydia.Description, "youngest Bennet daughter") {
		t.Errorf("description %q", lydia.Description)
	}
	tests := []struct {
		chapter               int
		status, location, age string
	}{
		{1, "unmarried", "Longbourn", "15"},
		{41, "unmarried", "Longbourn", "16"},
		{42, "away", "Brighton", "16"},
		{45, "away", "Brighton", "16"},
		{46, "away", "London", "16"},
		{51, "married", "Longbourn", "16"},
		{54, "away", "Newcastle", "16"},
		{61, "away", "Newcastle", "16"},
	}
	for _, tt := range tests {
		f := lydia.FactsAsOf(tt.chapter)
		if f["status"] != tt.status || f["location"] != tt.location || f["age"] != tt.age {
			t.Errorf("chapter %d: %v, want status %s location %s age %s", tt.chapter, f, tt.status, tt.location, tt.age)
		}
	}
	if f := lydia.FactsAsOf(51); f["spouse"] != "George Wickham" || f["position"] != "youngest daughter" {
		t.Errorf("chapter 51 keeps base facts and adds spouse: %v", f)
	}
	if _, ok := lydia.FactsAsOf(50)["spouse"]; ok {
		t.Error("spouse before chapter 51")
	}
	if line, from := lydia.FactSource("location", 47); line != 9 || from != 46 {
		t.Errorf("FactSource(location, 47) = %d, %d; want line 9 from chapter 46", line, from)
	}
	if lydia.KeyLines["name"] != 2 || lydia.KeyLines["progressions"] != 6 {
		t.Errorf("key lines %v", lydia.KeyLines)
	}
	if line, from := lydia.FactSource("home", 47); line != 5 || from != 0 {
		t.Errorf("FactSource(home, 47) = %d, %d; want line 5, base", line, from)
	}
	lady := loadEntity(t, root, "entities/characters/lady-catherine-de-bourgh.md")
	if lady.Facts["children"] != "1" || lady.Facts["status"] != "widowed" {
		t.Errorf("lady catherine facts %v", lady.Facts)
	}
	wick := loadEntity(t, root, "entities/characters/george-wickham.md")
	if wick.Facts["regiment"] != "----shire militia" {
		t.Errorf("regiment %q", wick.Facts["regiment"])
	}
	mer := loadEntity(t, root, "entities/locations/meryton.md")
	if mer.Kind != "location" || len(mer.Aliases) != 0 || mer.Facts["distance_to_longbourn"] != "one mile" {
		t.Errorf("meryton %+v", mer)
	}
}

func TestChineseEntityAndReveal(t *testing.T) {
	lin := loadEntity(t, "testdata/project", "entities/characters/lin-daiyu.md")
	if lin.Name != "林黛玉" || !slices.Equal(lin.Aliases, []string{"黛玉", "林姑娘", "颦儿", "林妹妹"}) {
		t.Errorf("lin: %q %v", lin.Name, lin.Aliases)
	}
	if lin.Context != ContextAlways || !slices.Equal(lin.Exclude, []string{"林之孝"}) {
		t.Errorf("context %q exclude %v", lin.Context, lin.Exclude)
	}
	// The progression at 98 is revealed at 98: not before.
	if s := lin.FactsAsOf(97)["status"]; s != "alive" {
		t.Errorf("status as of 97 = %q", s)
	}
	if s := lin.FactsAsOf(98)["status"]; s != "dead" {
		t.Errorf("status as of 98 = %q", s)
	}
	bao := loadEntity(t, "testdata/project", "entities/characters/jia-baoyu.md")
	if bao.Kind != "character" {
		t.Errorf("kind from folder = %q", bao.Kind)
	}
	if _, ok := bao.FactsAsOf(55)["镜像"]; ok {
		t.Error("fact with reveal 56 shown as of 55")
	}
	if v := bao.FactsAsOf(56)["镜像"]; v != "甄宝玉" {
		t.Errorf("fact as of 56 = %q", v)
	}
}

func TestEntityErrors(t *testing.T) {
	tests := []struct {
		name, data, wantErr string
		wantEntity          bool
	}{
		{"no name", "---\nkind: character\n---\n", "no name", false},
		{"no front", "text", "no front matter", false},
		{"bad context", "---\nname: A\ncontext: sometimes\n---\n", "context must be", true},
		{"progression without chapter", "---\nname: A\nprogressions: [{facts: {a: b}}]\n---\n", "no chapter", true},
		{"bad chapter", "---\nname: A\nprogressions:\n  - {chapter: ten, facts: {a: b}}\n---\n", ":4:", true},
		{"facts not a map", "---\nname: A\nfacts: [a, b]\n---\n", "facts must be a mapping", true},
		{"relation without to", "---\nname: A\nrelations: [{kind: x}]\n---\n", "no 'to'", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, _ := ParseDocument("entities/a.md", []byte(tt.data))
			e, err := EntityFromDocument(d)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error %v, want %q", err, tt.wantErr)
			}
			if (e != nil) != tt.wantEntity {
				t.Errorf("entity %v, want entity: %v", e, tt.wantEntity)
			}
		})
	}
}

func TestChapterNumber(t *testing.T) {
	tests := []struct {
		in   string
		want int
		ok   bool
	}{
		{"manuscript/chapter-12", 12, true},
		{"manuscript/chapter-012", 12, true},
		{"manuscript/012", 12, true},
		{"manuscript/chapter-12/content", 12, true},
		{"manuscript/Chapter_7", 7, true},
		{"manuscript/ch3", 3, true},
		{"chapter-5", 5, true},
		{"manuscript/arc-1/chapter-40", 40, true},
		{"manuscript/notes", 0, false},
		{"manuscript/chapter-", 0, false},
		{"manuscript/chapter-1a", 0, false},
		{"entities/chapter-3", 0, false},
		{"manuscript/99999999999999", 0, false},
	}
	for _, tt := range tests {
		got, ok := ChapterNumber(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("ChapterNumber(%q) = %d, %v; want %d, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestLoadProject(t *testing.T) {
	p, errs := LoadProject("testdata/project")
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "entities/characters/broken.md:3") {
		t.Fatalf("errors %v, want one for broken.md line 3", errs)
	}
	var names []string
	for _, e := range p.Entities {
		names = append(names, e.Name)
	}
	if !slices.Equal(names, []string{"贾宝玉", "林黛玉"}) {
		t.Errorf("entities %v", names)
	}
	if d := p.Document("entities/characters/broken"); d == nil || d.Body != "The body survives.\n" {
		t.Errorf("broken document kept with its body: %v", d)
	}
	if p.Entity("entities/characters/lin-daiyu") == nil {
		t.Error("lookup by resource")
	}
	if !slices.Equal(p.WorldRules.Forbidden, []string{"手机", "电话", "telephone"}) || p.WorldRules.Era != "清代" || p.WorldRules.Lines["电话"] != 4 {
		t.Errorf("world rules %+v", p.WorldRules)
	}
	var chapters []string
	for _, c := range p.Chapters {
		chapters = append(chapters, fmt.Sprintf("%d:%s", c.Number, c.Document.Resource))
	}
	if want := []string{"1:manuscript/001", "2:manuscript/chapter-02", "3:manuscript/chapter-3"}; !slices.Equal(chapters, want) {
		t.Errorf("chapters %v, want %v", chapters, want)
	}
	if d := p.Chapter(3); d == nil || !strings.Contains(d.Body, "林黛玉") {
		t.Errorf("chapter 3: %v", d)
	}
	if p.Chapter(4) != nil {
		t.Error("chapter 4 should not exist")
	}
}

func TestLoadProjectEval(t *testing.T) {
	p, errs := LoadProject(evalDir(t))
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	if len(p.Entities) != 20 || len(p.WorldRules.Forbidden) != 26 {
		t.Errorf("%d entities, %d forbidden terms", len(p.Entities), len(p.WorldRules.Forbidden))
	}
	kinds := map[string]int{}
	for _, e := range p.Entities {
		kinds[e.Kind]++
	}
	if !maps.Equal(kinds, map[string]int{"character": 15, "location": 5}) {
		t.Errorf("kinds %v", kinds)
	}
}

func TestLoadProjectMissingRoot(t *testing.T) {
	p, errs := LoadProject(filepath.Join(t.TempDir(), "nope"))
	if len(errs) != 0 || len(p.Documents) != 0 || p.WorldRules == nil {
		t.Errorf("missing root: %v %v", p, errs)
	}
}

// writeEntities makes a project of n small entity files.
func writeEntities(tb testing.TB, n int) string {
	root := tb.TempDir()
	dir := filepath.Join(root, "entities", "characters")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	for i := range n {
		s := fmt.Sprintf("---\nname: Person %d\naliases: [P%d, 人物%d]\nkind: character\nfacts: { age: %d, home: Town %d, status: unmarried }\nprogressions:\n  - { chapter: %d, facts: { status: away, location: London } }\nrelations:\n  - { to: entities/characters/p%d, kind: friend }\n---\nA person of no importance, number %d.\n", i, i, i, 20+i%50, i%30, i%100, (i+1)%n, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("p%d.md", i)), []byte(s), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return root
}

func TestLoadProjectManyFiles(t *testing.T) {
	root := writeEntities(t, 2000)
	p, errs := LoadProject(root)
	if len(errs) != 0 || len(p.Entities) != 2000 {
		t.Fatalf("%d entities, errors %v", len(p.Entities), errs)
	}
	if e := p.Entity("entities/characters/p1999"); e == nil || e.FactsAsOf(99)["status"] != "away" {
		t.Errorf("p1999: %+v", e)
	}
}

func BenchmarkLoadProject10k(b *testing.B) {
	root := writeEntities(b, 10000)
	for b.Loop() {
		p, errs := LoadProject(root)
		if len(errs) != 0 || len(p.Entities) != 10000 {
			b.Fatal(errs)
		}
	}
}

// A progression's facts may be written beside its chapter instead of
// under facts:, as authors (and one evaluation writer) do; both read
// alike, and where a key is given both ways the facts: mapping wins.
func TestProgressionFactsBesideTheChapter(t *testing.T) {
	for _, tc := range []struct {
		name, progression string
		want              map[string]string
	}{
		{"under facts", "{ chapter: 22, facts: { status: away, location: London } }", map[string]string{"status": "away", "location": "London"}},
		{"beside the chapter", "{ chapter: 22, status: away, location: London }", map[string]string{"status": "away", "location": "London"}},
		{"both, facts win", "{ chapter: 22, status: dead, facts: { status: away }, location: 倫敦 }", map[string]string{"status": "away", "location": "倫敦"}},
		{"a value with its reveal", "{ chapter: 22, status: { value: away, reveal: 25 } }", map[string]string{"status": "away"}},
		{"reveal stays the progression's", "{ chapter: 22, reveal: 30, status: away }", map[string]string{"status": "away"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := "---\nname: Charles Bingley\nkind: character\nfacts: { status: unmarried }\nprogressions:\n  - " + tc.progression + "\n---\nBingley.\n"
			d, err := ParseDocument("entities/characters/charles-bingley.md", []byte(src))
			if err != nil {
				t.Fatal(err)
			}
			e, err := EntityFromDocument(d)
			if err != nil {
				t.Fatal(err)
			}
			if len(e.Progressions) != 1 || e.Progressions[0].Chapter != 22 || !maps.Equal(e.Progressions[0].Facts, tc.want) {
				t.Errorf("progressions %+v, want facts %v", e.Progressions, tc.want)
			}
			if got := e.FactsAsOf(40)["status"]; got != tc.want["status"] {
				t.Errorf("status at 40 = %q, want %q", got, tc.want["status"])
			}
		})
	}
}
