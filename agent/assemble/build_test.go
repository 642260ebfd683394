package assemble

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/flowcabal/flowcabal/internal/projecttest"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/textsearch"
)

// Build analyses the chapters on several goroutines, counts their terms
// there, and indexes one batch while the next is analysed. Its chapter
// and passage indexes are exactly those of each text's terms added one
// by one in chapter order, over enough chapters for several batches,
// with and without Forget; its arc search (from the chapter index) ranks
// and scores, bit for bit, as an index of each arc's chapters' terms
// joined.
func TestBuildIndexesAreTheTextsIndexes(t *testing.T) {
	var in Input
	for n := 1; n <= 300; n++ {
		var b strings.Builder
		for p := range 3 {
			fmt.Fprintf(&b, "第%d回第%d段：賈寶玉見了林黛玉，說起第%d件事。Elizabeth walked %d miles to Netherfield. 𝄞\n\n", n, p, n%17, n%5)
		}
		if n == 40 {
			b.Reset() // an empty chapter
		}
		in.Chapters = append(in.Chapters, ChapterDoc{Number: n, Path: fmt.Sprintf("manuscript/chapter-%03d.md", n), Text: b.String()})
	}
	// Out of order: Build sorts them.
	in.Chapters[3], in.Chapters[250] = in.Chapters[250], in.Chapters[3]
	for _, forget := range []bool{false, true} {
		b := newBuilder()
		b.Forget = forget
		s, err := b.Build(in)
		if err != nil {
			t.Fatal(err)
		}
		an := b.Analyzer()
		chapters, passages, arcs := textsearch.NewIndex(0, 0), textsearch.NewIndex(0, 0), textsearch.NewIndex(0, 0)
		arcTerms := map[int][]string{}
		for n := 1; n <= 300; n++ {
			var text, path string
			for _, c := range in.Chapters {
				if c.Number == n {
					text, path = c.Text, c.Path
				}
			}
			chapters.Add(path, an.Terms(text))
			for _, p := range textsearch.Passages(text, 0) {
				passages.Add(PassageID(path, p.Start, p.End), an.Terms(text[p.Start:p.End]))
			}
			arc := (n-1)/ArcSpan + 1
			arcTerms[arc] = append(arcTerms[arc], an.Terms(text)...)
		}
		for a := 1; a <= len(arcTerms); a++ {
			arcs.Add(fmt.Sprintf("summaries/arc-%d.md", a), arcTerms[a])
		}
		for _, x := range []struct {
			name      string
			got, want *textsearch.Index
		}{{"chapters", s.ChapterIndex(), chapters}, {"passages", s.PassageIndex(), passages}} {
			g, err := x.got.MarshalBinary()
			if err != nil {
				t.Fatal(err)
			}
			w, _ := x.want.MarshalBinary()
			if !bytes.Equal(g, w) || x.got.Len() != x.want.Len() {
				t.Errorf("forget %v: the %s index (%d documents) differs from the texts' (%d)", forget, x.name, x.got.Len(), x.want.Len())
			}
		}
		for _, q := range arcQueries {
			w := map[string]float64{}
			for i, t := range an.Terms(q) {
				w[t] += 1 + float64(i%3)/2
			}
			for _, k := range []int{0, 3} {
				got, want := s.SearchArcs(w, k), arcs.SearchWeighted(w, k, nil)
				if len(want) == 0 || !slices.Equal(got, want) {
					t.Errorf("forget %v: arcs for %q (k %d):\n got %v\nwant %v", forget, q, k, got, want)
				}
			}
		}
		if len(s.Chapters()) != 300 || s.Analysed() != 300 {
			t.Errorf("forget %v: %d chapters, %d analysed; want 300", forget, len(s.Chapters()), s.Analysed())
		}
		for i, c := range s.Chapters() {
			if c.Number != i+1 {
				t.Fatalf("forget %v: chapter %d is numbered %d", forget, i, c.Number)
			}
		}
	}
}

// arcQueries are searched in arcs: a term of every chapter, of some, of
// one arc's chapters (第3件事 is in chapters 3, 20, 37…), and English.
var arcQueries = []string{"賈寶玉見了林黛玉", "第3件事", "第41回第2段", "walked 4 miles to Netherfield", "𝄞 第250回"}

// A chapter read from a project carries its hash when its body is the
// whole file (the hash the reading made), and that hash is the body's:
// a chapter with front matter or a byte-order mark has none, and is
// hashed from its body. A chapter given with a hash is not hashed again.
func TestChapterHashFromTheReading(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"manuscript/chapter-01.md": "# 第一回\n\n寶玉笑道：「𝄞」\n",
		"manuscript/chapter-02.md": "---\ntitle: 二\n---\n# 第二回\n\n黛玉不答。\n",
		"manuscript/chapter-03.md": "\ufeff# 第三回\n\n襲人來了。\n",
	}
	for name, text := range files {
		projecttest.WriteFile(t, root, name, text)
	}
	p, errs := knowledge.LoadProject(root)
	if len(errs) != 0 {
		t.Fatal(errs)
	}
	in := InputFromProject(p)
	if len(in.Chapters) != 3 {
		t.Fatalf("%d chapters; want 3", len(in.Chapters))
	}
	for _, c := range in.Chapters {
		want := c.Number == 1
		if (c.Hash != "") != want {
			t.Errorf("chapter %d: hash %q; want one only for the chapter whose body is the whole file", c.Number, c.Hash)
		}
		if c.Hash != "" && c.Hash != hashOf(c.Text) {
			t.Errorf("chapter %d: hash %s is not its body's (%s)", c.Number, c.Hash, hashOf(c.Text))
		}
	}
	// The hash given is the one the snapshot's chapter has: a wrong one
	// shows (it is trusted, as the reading made it).
	in.Chapters[0].Hash = hashOf("another text")
	s, err := newBuilder().Build(in)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Chapters()[0].Hash; got != in.Chapters[0].Hash {
		t.Errorf("chapter 1's hash %s; want the one given", got)
	}
	for _, c := range s.Chapters()[1:] {
		if c.Hash != hashOf(c.L2) {
			t.Errorf("chapter %d's hash %s is not its text's", c.Number, c.Hash)
		}
	}
}

// Texts asked for at once by several assemblies (a hover's and an
// estimate's) are counted once: the others wait for that count and get
// it, the same as a count of their own.
func TestTokensCountedOnceWhenAskedAtOnce(t *testing.T) {
	b := newBuilder()
	s, err := b.Build(Input{})
	if err != nil {
		t.Fatal(err)
	}
	// Long enough that the askers overlap: counting it takes a while.
	text := strings.Repeat("寶玉聽了，笑道：「𝄞 Elizabeth walked to Netherfield.」\n", 4000)
	want := b.tc.MustCount(text)
	for _, key := range []string{CountKey(hashOf(text), "L2", ""), ""} {
		before := b.Counted()
		const askers = 8
		got := make([]int, askers)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range askers {
			wg.Go(func() {
				<-start
				got[i] = s.Tokens(key, text)
			})
		}
		close(start)
		wg.Wait()
		for i, n := range got {
			if n != want {
				t.Errorf("key %q: asker %d got %d tokens; want %d", key, i, n, want)
			}
		}
		if n := b.Counted() - before; n != 1 {
			t.Errorf("key %q: counted %d times by %d askers at once; want 1", key, n, askers)
		}
		if n := s.Tokens(key, text); n != want || b.Counted()-before != 1 {
			t.Errorf("key %q: asked again: %d tokens, %d counts; want %d and still 1", key, n, b.Counted()-before, want)
		}
	}
}
