package textsearch

import (
	"bytes"
	"fmt"
	"github.com/flowcabal/flowcabal/internal/projecttest"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// sharedDir finds the team's shared data folder (../shared beside the
// repository) by walking up from the test's directory.
func sharedDir(t testing.TB) string {
	t.Helper()
	return projecttest.Shared(t)
}

func readChapters(t testing.TB, book string) []string {
	t.Helper()
	dir := filepath.Join(sharedDir(t), "corpus", book)
	var out []string
	for i := 1; ; i++ {
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("%03d.txt", i)))
		if err != nil {
			break
		}
		out = append(out, string(b))
	}
	if len(out) == 0 {
		t.Fatalf("no chapters in %s", dir)
	}
	return out
}

func TestFold(t *testing.T) {
	f := NewFolder()
	tests := []struct{ in, want string }{
		{"紅樓夢", "红楼梦"},
		{"賈寶玉與林黛玉", "贾宝玉与林黛玉"},
		{"红楼梦", "红楼梦"},
		{"Mr. DARCY", "mr. darcy"},
		{"ＡＢＣ１２３", "abc123"},
		{"Elizabeth’s", "elizabeth's"},
		{"𠀀 emoji 😀", "𠀀 emoji 😀"},
	}
	for _, tt := range tests {
		if got := f.Fold(tt.in); got != tt.want {
			t.Errorf("Fold(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if err := f.Err(); err != nil {
		t.Fatal(err)
	}
	s := "A紅b\xffＣ"
	folded, off := f.FoldWithOffsets(s)
	if !utf8.ValidString(folded) {
		t.Fatalf("folded not valid UTF-8: %q", folded)
	}
	for i := range folded {
		r, _ := utf8.DecodeRuneInString(s[off[i]:])
		if r != utf8.RuneError && f.FoldRune(r) != []rune(folded[i:])[0] {
			t.Errorf("offset %d maps to %q", i, r)
		}
	}
	if off[len(folded)] != len(s) {
		t.Errorf("end offset %d, want %d", off[len(folded)], len(s))
	}
}

func TestStem(t *testing.T) {
	tests := map[string]string{
		"caresses": "caress", "ponies": "poni", "ties": "ti", "cats": "cat",
		"feed": "feed", "agreed": "agre", "plastered": "plaster", "motoring": "motor",
		"hopping": "hop", "falling": "fall", "filing": "file", "happy": "happi",
		"relational": "relat", "conditional": "condit", "generalization": "gener",
		"hopeful": "hope", "goodness": "good", "adjustment": "adjust", "dependent": "depend",
		"adoption": "adopt", "controll": "control", "marriage": "marriag", "married": "marri",
		"dancing": "danc", "danced": "danc", "letters": "letter", "is": "is", "élan": "élan",
	}
	for in, want := range tests {
		if got := Stem(in); got != want {
			t.Errorf("Stem(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTerms(t *testing.T) {
	a := NewAnalyzer(nil)
	tests := []struct {
		in   string
		want []string
	}{
		{"The letters were delivered to Elizabeth's sister.", []string{"letter", "deliv", "elizabeth", "sister"}},
		{"紅樓夢", []string{"红楼", "楼梦"}},
		{"红楼梦", []string{"红楼", "楼梦"}},
		{"宝玉说：好", []string{"宝玉", "玉说", "好"}},
		{"Darcy與寶玉", []string{"darci", "与宝", "宝玉"}},
		{"", nil},
		{"\xff\xfe", nil},
	}
	for _, tt := range tests {
		if got := a.Terms(tt.in); !slices.Equal(got, tt.want) {
			t.Errorf("Terms(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	toks := a.Tokens("Hi 寶玉 reading")
	want := []Token{{"hi", 0, 2}, {"宝玉", 3, 9}, {"read", 10, 17}}
	if !slices.Equal(toks, want) {
		t.Errorf("Tokens = %v, want %v", toks, want)
	}
}

func TestIndexSearchAndRoundTrip(t *testing.T) {
	a := NewAnalyzer(nil)
	docs := map[string]string{
		"a": "Elizabeth walked to Netherfield across the muddy fields.",
		"b": "Mr. Collins proposed to Elizabeth, who refused him.",
		"c": "Jane caught a cold at Netherfield and stayed there.",
		"d": "賈寶玉初試雲雨情",
		"e": "林黛玉進賈府",
	}
	x := NewIndex(0, 0)
	for _, id := range []string{"a", "b", "c", "d", "e"} {
		x.Add(id, a.Terms(docs[id]))
	}
	hits := x.Search(a.Terms("Collins proposal"), 0, nil)
	if len(hits) != 1 || hits[0].ID != "b" {
		t.Fatalf("collins: %v", hits)
	}
	hits = x.Search(a.Terms("Netherfield"), 0, nil)
	if len(hits) != 2 {
		t.Fatalf("netherfield: %v", hits)
	}
	hits = x.Search(a.Terms("林黛玉进贾府"), 1, nil) // simplified finds traditional
	if len(hits) != 1 || hits[0].ID != "e" {
		t.Fatalf("simplified query: %v", hits)
	}
	hits = x.Search(a.Terms("Netherfield"), 0, func(id string) bool { return id != "a" })
	if len(hits) != 1 || hits[0].ID != "c" {
		t.Fatalf("filtered: %v", hits)
	}

	// Replace and remove keep the statistics right: an index built by edits
	// scores like one built from scratch.
	x.Add("a", a.Terms("Bingley danced twice with Jane."))
	x.Remove("e")
	x.Remove("nope")
	y := NewIndex(0, 0)
	y.Add("a", a.Terms("Bingley danced twice with Jane."))
	for _, id := range []string{"b", "c", "d"} {
		y.Add(id, a.Terms(docs[id]))
	}
	q := a.Terms("Jane Netherfield Bingley Elizabeth 寶玉")
	if got, want := x.Search(q, 0, nil), y.Search(q, 0, nil); !slices.Equal(got, want) {
		t.Fatalf("edited %v != fresh %v", got, want)
	}
	if x.Len() != 4 || x.Has("e") || !x.Has("a") {
		t.Fatalf("Len %d Has(e) %v", x.Len(), x.Has("e"))
	}

	bx, err := x.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	by, _ := y.MarshalBinary()
	if !bytes.Equal(bx, by) {
		t.Errorf("equal indexes encode differently")
	}
	var z Index
	if err := z.UnmarshalBinary(bx); err != nil {
		t.Fatal(err)
	}
	if got, want := z.Search(q, 0, nil), x.Search(q, 0, nil); !slices.Equal(got, want) {
		t.Fatalf("decoded %v != original %v", got, want)
	}
	z.Add("f", a.Terms("Jane again"))
	z.Remove("a")
	x.Add("f", a.Terms("Jane again"))
	x.Remove("a")
	if z.Len() != 4 {
		t.Errorf("decoded index not editable: len %d", z.Len())
	}
	if got, want := z.Search(q, 0, nil), x.Search(q, 0, nil); !slices.Equal(got, want) {
		t.Errorf("decoded then edited %v != edited %v", got, want)
	}
	// Every truncation and some corruptions fail cleanly.
	for i := 0; i < len(bx); i++ {
		var w Index
		if err := w.UnmarshalBinary(bx[:i]); err == nil {
			t.Fatalf("truncated at %d decoded", i)
		}
	}
	for i := len(indexMagic) + 16; i < len(bx); i++ {
		c := bytes.Clone(bx)
		c[i] ^= 0xff
		var w Index
		_ = w.UnmarshalBinary(c) // must not panic
	}
}

func TestMatcher(t *testing.T) {
	m := NewMatcher(nil, []MatchEntry{
		{Key: "bingley", Names: []string{"Bingley", "Charles Bingley"}},
		{Key: "caroline", Names: []string{"Miss Bingley", "Caroline"}},
		{Key: "rose", Names: []string{"Rose"}, Exclude: []string{"rose garden"}},
		{Key: "kitty", Names: []string{"Kitty", "Catherine"}},
		{Key: "lady", Names: []string{"Lady Catherine", "Catherine"}},
		{Key: "baoyu", Names: []string{"宝玉", "賈寶玉"}},
		{Key: "darcy", Names: []string{"Mr. Darcy", "Darcy"}},
	})
	text := "Miss Bingley saw Bingleys' Bingley. Rose walked in the Rose Garden. Catherine met 賈寶玉 and 寶玉, Mr.\nDarcy; Darcyish."
	got := m.Find(text)
	var s []string
	for _, g := range got {
		s = append(s, g.Key+"="+text[g.Start:g.End])
	}
	want := []string{"caroline=Miss Bingley", "bingley=Bingley", "rose=Rose", "kitty=Catherine", "lady=Catherine",
		"baoyu=賈寶玉", "baoyu=寶玉", "darcy=Mr.\nDarcy"}
	if !slices.Equal(s, want) {
		t.Errorf("Find:\n got %q\nwant %q", s, want)
	}
	if got := NewMatcher(nil, nil).Find("anything"); got != nil {
		t.Errorf("empty matcher found %v", got)
	}
	if got := m.Find("\xffBingley\xfe"); len(got) != 1 || got[0].Start != 1 || got[0].End != 8 {
		t.Errorf("invalid UTF-8 around a name: %v", got)
	}
}

func TestCounter(t *testing.T) {
	c := NewCounter("gpt-4")
	if c.Encoding() != "cl100k_base" || NewCounter("gpt-4o-mini").Encoding() != "o200k_base" ||
		NewCounter("deepseek-chat").Encoding() != "cl100k_base" || NewCounter("o3").Encoding() != "o200k_base" {
		t.Fatal("wrong encodings chosen")
	}
	n, err := c.Count("hello world")
	if err != nil || n != 2 {
		t.Fatalf("Count(hello world) = %d, %v", n, err)
	}
	// The long-text path splits at blank lines; it must count exactly what
	// one pass over the whole text counts.
	for _, book := range []string{"pride-and-prejudice", "hongloumeng"} {
		all := strings.Join(readChapters(t, book)[:8], "\n\n")
		if len(all) <= longText {
			t.Fatal("test text too short for the long path")
		}
		got, err := c.Count(all)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.load(); err != nil {
			t.Fatal(err)
		}
		want, _ := c.codec.Count(all)
		if got != want {
			t.Errorf("%s: long path %d, direct %d", book, got, want)
		}
	}
}

func TestPassages(t *testing.T) {
	for _, book := range []string{"pride-and-prejudice", "hongloumeng"} {
		for ci, ch := range readChapters(t, book)[:10] {
			ps := Passages(ch, 0)
			if len(ps) < 2 {
				t.Errorf("%s %d: %d passages", book, ci+1, len(ps))
			}
			prev := 0
			covered := 0
			for _, p := range ps {
				if p.Start < prev || p.End <= p.Start {
					t.Fatalf("%s %d: bad passage %v after %d", book, ci+1, p, prev)
				}
				if w := textWeight(ch[p.Start:p.End]); w > 4*DefaultPassageSize {
					t.Errorf("%s %d: passage of weight %d", book, ci+1, w)
				}
				covered += len(strings.TrimSpace(ch[p.Start:p.End]))
				prev = p.End
			}
			if nonSpace := len(strings.Join(strings.Fields(ch), "")); covered < nonSpace {
				t.Errorf("%s %d: passages cover %d bytes, text has %d non-space", book, ci+1, covered, nonSpace)
			}
		}
	}
	if got := Passages("", 0); got != nil {
		t.Errorf("empty text: %v", got)
	}
}

func BenchmarkSearchHongloumeng(b *testing.B) {
	a := NewAnalyzer(nil)
	x := NewIndex(0, 0)
	for i, ch := range readChapters(b, "hongloumeng") {
		x.Add(fmt.Sprintf("manuscript/chapter-%03d/content.md", i+1), a.Terms(ch))
	}
	q := a.Terms("林黛玉葬花，宝玉在沁芳闸桥边看西厢记")
	b.ResetTimer()
	for b.Loop() {
		x.Search(q, 10, nil)
	}
}

func BenchmarkAnalyzeHongloumengChapter(b *testing.B) {
	a := NewAnalyzer(nil)
	ch := readChapters(b, "hongloumeng")[0]
	a.Terms(ch)
	b.SetBytes(int64(len(ch)))
	for b.Loop() {
		a.Terms(ch)
	}
}

func TestSearchTopK(t *testing.T) {
	a := NewAnalyzer(nil)
	x := NewIndex(0, 0)
	for i := 0; i < 200; i++ {
		x.Add(fmt.Sprintf("d%03d", i), a.Terms(strings.Repeat("fox ", i%7+1)+strings.Repeat("dog ", i%5)+fmt.Sprint(i)))
	}
	q := a.Terms("fox dog")
	all := x.Search(q, 0, nil)
	for _, k := range []int{1, 2, 5, 17, 199, 200, 500} {
		got := x.Search(q, k, nil)
		want := all[:min(k, len(all))]
		if !slices.Equal(got, want) {
			t.Fatalf("k=%d: top-k differs from the full ranking", k)
		}
	}
}

func FuzzAnalyzeAndMatch(f *testing.F) {
	for _, s := range []string{"", "Elizabeth's", "紅樓夢", "\xff\xfe", "Mr.\nDarcy", "𠀀😀", "a'b'c''", "ＡＢＣ"} {
		f.Add(s)
	}
	a := NewAnalyzer(nil)
	m := NewMatcher(a.Folder(), []MatchEntry{{Key: "d", Names: []string{"Darcy", "Mr. Darcy"}, Exclude: []string{"Darcy's"}}, {Key: "b", Names: []string{"宝玉"}}})
	f.Fuzz(func(t *testing.T, s string) {
		for _, tok := range a.Tokens(s) {
			if tok.Start < 0 || tok.End > len(s) || tok.Start >= tok.End || tok.Term == "" {
				t.Fatalf("bad token %+v in %q", tok, s)
			}
		}
		for _, men := range m.Find(s) {
			if men.Start < 0 || men.End > len(s) || men.Start >= men.End {
				t.Fatalf("bad mention %+v in %q", men, s)
			}
		}
		for _, p := range Passages(s, 50) {
			if p.Start < 0 || p.End > len(s) || p.Start >= p.End {
				t.Fatalf("bad passage %+v in %q", p, s)
			}
		}
	})
}

func BenchmarkIndexEncodeHongloumeng(b *testing.B) {
	a := NewAnalyzer(nil)
	x := NewIndex(0, 0)
	text := 0
	for i, ch := range readChapters(b, "hongloumeng") {
		x.Add(fmt.Sprintf("manuscript/chapter-%03d/content.md", i+1), a.Terms(ch))
		text += len(ch)
	}
	data, _ := x.MarshalBinary()
	b.Logf("index %d bytes for %d bytes of text (%.2fx)", len(data), text, float64(len(data))/float64(text))
	for b.Loop() {
		var y Index
		if err := y.UnmarshalBinary(data); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadFolder(b *testing.B) {
	for b.Loop() {
		NewFolder().Fold("紅")
	}
}

func BenchmarkLoadCounter(b *testing.B) {
	for b.Loop() {
		NewCounter("gpt-4o").MustCount("x")
	}
}

func BenchmarkCountHongloumengChapter(b *testing.B) {
	c := NewCounter("")
	ch := readChapters(b, "hongloumeng")[26]
	c.MustCount(ch)
	b.SetBytes(int64(len(ch)))
	for b.Loop() {
		c.MustCount(ch)
	}
}

func TestSearchFilterIsolatesStatistics(t *testing.T) {
	a := NewAnalyzer(nil)
	docs := []string{"the fox and the dog", "a fox alone", "dog days", "fox fox fox hunting"}
	full := NewIndex(0, 0)
	part := NewIndex(0, 0)
	for i, d := range docs {
		full.Add(fmt.Sprint(i), a.Terms(d))
		if i < 3 {
			part.Add(fmt.Sprint(i), a.Terms(d))
		}
	}
	q := a.Terms("fox dog")
	got := full.Search(q, 0, func(id string) bool { return id != "3" })
	if want := part.Search(q, 0, nil); !slices.Equal(got, want) {
		t.Errorf("filtered %v != index of the accepted documents %v", got, want)
	}
}

// Indexes that share a dictionary, and compacted ones, score and encode
// exactly like indexes of their own.
func TestSharedDictAndCompact(t *testing.T) {
	a := NewAnalyzer(nil)
	docs := []string{
		"Elizabeth walked to Netherfield across the muddy fields.",
		"Mr. Collins proposed to Elizabeth, who refused him.",
		"賈寶玉初試雲雨情，林黛玉進賈府",
		"Jane caught a cold at Netherfield.",
	}
	d := NewDict()
	shared1, shared2 := NewIndexDict(0, 0, d), NewIndexDict(0, 0, d)
	own1, own2 := NewIndex(0, 0), NewIndex(0, 0)
	for i, s := range docs {
		id := fmt.Sprint(i)
		if i%2 == 0 {
			shared1.Add(id, a.Terms(s))
			own1.Add(id, a.Terms(s))
		} else {
			shared2.Add(id, a.Terms(s))
			own2.Add(id, a.Terms(s))
		}
	}
	if want := distinctTerms(a, docs); d.Len() != want {
		t.Errorf("shared dictionary holds %d terms, want %d (each term once)", d.Len(), want)
	}
	shared1.Compact()
	shared2.Compact()
	q := a.Terms("Elizabeth Netherfield 林黛玉 Collins")
	for i, pair := range [][2]*Index{{shared1, own1}, {shared2, own2}} {
		if got, want := pair[0].Search(q, 0, nil), pair[1].Search(q, 0, nil); !slices.Equal(got, want) {
			t.Errorf("index %d: shared %v != own %v", i, got, want)
		}
		bs, _ := pair[0].MarshalBinary()
		bo, _ := pair[1].MarshalBinary()
		if !bytes.Equal(bs, bo) {
			t.Errorf("index %d: shared dictionary changes the encoding", i)
		}
		if got, want := pair[0].DocFreq("elizabeth"), pair[1].DocFreq("elizabeth"); got != want {
			t.Errorf("index %d: DocFreq %d != %d", i, got, want)
		}
	}
	// A compacted index can still be edited.
	shared1.Remove("0")
	own1.Remove("0")
	shared1.Add("9", a.Terms("Elizabeth again"))
	own1.Add("9", a.Terms("Elizabeth again"))
	if got, want := shared1.Search(q, 0, nil), own1.Search(q, 0, nil); !slices.Equal(got, want) {
		t.Errorf("compacted then edited %v != %v", got, want)
	}
}

// distinctTerms counts the distinct terms of texts.
func distinctTerms(a *Analyzer, texts []string) int {
	seen := map[string]bool{}
	for _, s := range texts {
		for _, t := range a.Terms(s) {
			seen[t] = true
		}
	}
	return len(seen)
}

// A union of documents is indexed as their joined terms, within one
// dictionary or across two, compacted or not.
func TestAddUnion(t *testing.T) {
	a := NewAnalyzer(nil)
	parts := map[string]string{"1": "Elizabeth walked to Netherfield.", "2": "林黛玉進賈府", "3": "Jane at Netherfield again."}
	for _, tc := range []struct {
		name            string
		shared, compact bool
	}{{"shared", true, false}, {"shared compacted", true, true}, {"two dictionaries", false, true}} {
		t.Run(tc.name, func(t *testing.T) {
			d := NewDict()
			from := NewIndexDict(0, 0, d)
			for _, id := range []string{"1", "2", "3"} {
				from.Add(id, a.Terms(parts[id]))
			}
			if tc.compact {
				from.Compact()
			}
			x := NewIndex(0, 0)
			if tc.shared {
				x = NewIndexDict(0, 0, d)
			}
			want := NewIndex(0, 0)
			x.AddUnion("arc", from, []string{"1", "3", "missing"})
			want.Add("arc", a.Terms(parts["1"]+" "+parts["3"]))
			x.AddUnion("other", from, []string{"2"})
			want.Add("other", a.Terms(parts["2"]))
			bx, _ := x.MarshalBinary()
			bw, _ := want.MarshalBinary()
			if !bytes.Equal(bx, bw) {
				t.Errorf("union differs from the joined text's index")
			}
		})
	}
}

// Terms counted apart (CountTerms, on any goroutine) and added with
// AddCounted give the index Add gives, byte for byte, replacing a
// document as Add does; the counts keep the order of first occurrence.
func TestAddCounted(t *testing.T) {
	a := NewAnalyzer(nil)
	docs := []struct{ id, text string }{
		{"1", "Elizabeth walked to Netherfield. Elizabeth walked back."},
		{"2", "林黛玉進賈府，賈寶玉見了林黛玉𝄞"},
		{"3", ""},
		{"1", "Jane at Netherfield again."}, // replaces 1
	}
	for _, shared := range []bool{false, true} {
		d := NewDict()
		x, want := NewIndex(0, 0), NewIndex(0, 0)
		if shared {
			x, want = NewIndexDict(0, 0, d), NewIndexDict(0, 0, NewDict())
		}
		for _, doc := range docs {
			x.AddCounted(doc.id, CountTerms(a.Terms(doc.text)))
			want.Add(doc.id, a.Terms(doc.text))
		}
		bx, _ := x.MarshalBinary()
		bw, _ := want.MarshalBinary()
		if !bytes.Equal(bx, bw) {
			t.Errorf("shared %v: AddCounted's index differs from Add's", shared)
		}
		if got, w := x.Search(a.Terms("林黛玉 Netherfield"), 0, nil), want.Search(a.Terms("林黛玉 Netherfield"), 0, nil); !reflect.DeepEqual(got, w) {
			t.Errorf("shared %v: search %v, want %v", shared, got, w)
		}
	}
	tc := CountTerms([]string{"b", "a", "b", "c", "b"})
	if !reflect.DeepEqual(tc, TermCounts{Terms: []string{"b", "a", "c"}, Counts: []int32{3, 1, 1}, Len: 5}) {
		t.Errorf("CountTerms = %+v", tc)
	}
	// Documents counted apart and merged count as their terms joined.
	var parts []TermCounts
	var joined []string
	for _, doc := range docs {
		terms := a.Terms(doc.text)
		parts = append(parts, CountTerms(terms))
		joined = append(joined, terms...)
	}
	if got, want := MergeCounts(parts), CountTerms(joined); !reflect.DeepEqual(got, want) {
		t.Errorf("MergeCounts = %+v\nwant %+v", got, want)
	}
}

// Unions made together, on several goroutines, give the index the
// unions made one at a time give, in the order asked.
func TestAddUnions(t *testing.T) {
	a := NewAnalyzer(nil)
	d := NewDict()
	from := NewIndexDict(0, 0, d)
	var ids []string
	for i := range 40 {
		id := fmt.Sprintf("c%02d", i)
		ids = append(ids, id)
		from.Add(id, a.Terms(fmt.Sprintf("第%d回 寶玉見了黛玉 chapter %d walks to Netherfield %d", i, i, i%7)))
	}
	from.Compact()
	var arcs []string
	var of [][]string
	for lo := 0; lo < len(ids); lo += 3 {
		arcs = append(arcs, fmt.Sprintf("arc-%d", lo/3+1))
		of = append(of, append(ids[lo:min(len(ids), lo+3):min(len(ids), lo+3)], "missing"))
	}
	for _, workers := range []int{1, 2, 3} {
		x, want := NewIndexDict(0, 0, d), NewIndexDict(0, 0, d)
		x.AddUnions(arcs, from, of, workers)
		for i, id := range arcs {
			want.AddUnion(id, from, of[i])
		}
		bx, _ := x.MarshalBinary()
		bw, _ := want.MarshalBinary()
		if !bytes.Equal(bx, bw) || x.Len() != len(arcs) {
			t.Errorf("%d workers: the unions differ from AddUnion's (%d arcs)", workers, x.Len())
		}
	}
}

func TestIsGrammaticalPair(t *testing.T) {
	an := NewAnalyzer(nil)
	for _, tc := range []struct {
		term string
		want bool
	}{
		{"的那", true}, {"看了", true}, {"她们", true}, {"他家", true},
		{"宝玉", false}, {"那位", false}, {"丫头", false},
		{"的", false},   // a lone character is not a pair
		{"the", false}, // nor is an English word
		{"a的", false},  // nor a pair that is not all Chinese
		{"𠀀的", false},  // outside the BMP: not a folded pair of three-byte characters
	} {
		if got := IsGrammaticalPair(tc.term); got != tc.want {
			t.Errorf("IsGrammaticalPair(%q) = %v, want %v", tc.term, got, tc.want)
		}
	}
	// Traditional input folds to the pairs the list names.
	var kept []string
	for _, term := range an.Terms("她們看著黛玉") {
		if !IsGrammaticalPair(term) {
			kept = append(kept, term)
		}
	}
	if strings.Join(kept, " ") != "黛玉" {
		t.Errorf("kept %q, want only 黛玉", kept)
	}
}

func TestRuneSet(t *testing.T) {
	s := RuneSetOf("贾宝玉a")
	for _, tc := range []struct {
		r    rune
		want bool
	}{{'贾', true}, {'玉', true}, {'a', true}, {'b', false}, {'林', false}, {'𠀀', false}, {-1, false}} {
		if s.Has(tc.r) != tc.want {
			t.Errorf("Has(%q) = %v, want %v", tc.r, !tc.want, tc.want)
		}
	}
	s.Add('𠀀') // outside the plane: never held
	if s.Has('𠀀') {
		t.Error("an astral character was added")
	}
}

func TestCountChat(t *testing.T) {
	c := NewCounter("gpt-4")
	// OpenAI's API reference answers this request with prompt_tokens 13.
	n, err := c.CountChat([]ChatMessage{{Role: "user", Content: "Say this is a test!"}})
	if err != nil || n != 13 {
		t.Fatalf("CountChat = %d, %v; want 13", n, err)
	}
	sys := []ChatMessage{{Role: "system", Content: "保持文風。"}, {Role: "user", Content: "寫第六回 𝄞"}}
	two, _ := c.CountChat(sys)
	a, _ := c.Count(sys[0].Content)
	b, _ := c.Count(sys[1].Content)
	if two != 3+(3+1+a)+(3+1+b) {
		t.Errorf("two messages: %d, want %d", two, 3+(3+1+a)+(3+1+b))
	}
}
