package assemble

import (
	"fmt"
	"strings"
	"testing"
)

// At 3,000 chapters the arcs before the latest ten are read as volumes:
// every earlier chapter is still covered by one summary item, and the
// summaries stay within their share of the budget.
func TestArcsOfArcsAtThreeThousandChapters(t *testing.T) {
	var in Input
	const n = 3000
	for c := 1; c <= n; c++ {
		in.Chapters = append(in.Chapters, ChapterDoc{Number: c, Path: fmt.Sprintf("manuscript/chapter-%04d/content.md", c),
			Text: fmt.Sprintf("第%d章。寶玉在第%d處園中讀書，黛玉送來第%d首詩。", c, c%97, c%89)})
	}
	snap, err := newBuilder().Build(in)
	if err != nil {
		t.Fatal(err)
	}
	const budget = 24000
	ctx, err := Assemble(Node{Text: "寫第三千零一章：寶玉讀書。", Chapter: n + 1, Budget: budget}, snap, Options{})
	if err != nil {
		t.Fatal(err)
	}
	covered := make([]bool, n+1)
	items, tokens := 0, 0
	cover := func(first, last int) {
		for c := first; c <= last && c <= n; c++ {
			covered[c] = true
		}
	}
	for _, s := range append(ctx.Sources, ctx.Dropped...) {
		var a, b, x, y int
		switch {
		case strings.HasPrefix(s.Path, "summaries/volume-"):
			if _, err := fmt.Sscanf(s.Reason, "earlier arcs %d-%d (chapters %d-%d)", &x, &y, &a, &b); err != nil {
				t.Fatalf("volume reason %q: %v", s.Reason, err)
			}
		case strings.HasPrefix(s.Path, "summaries/arc-"):
			if _, err := fmt.Sscanf(s.Reason, "earlier arc (chapters %d-%d)", &a, &b); err != nil {
				if s.Reason != "arc of the previous chapter (no arc file: its chapters' L0)" {
					t.Fatalf("arc reason %q", s.Reason)
				}
				a, b = n-ArcSpan+1, n
			}
		default:
			continue
		}
		cover(a, b)
		items++
		if s.Why == "" { // injected, not dropped
			tokens += s.Tokens
		}
	}
	for c := 1; c <= n; c++ {
		if !covered[c] {
			t.Fatalf("chapter %d is in no arc or volume offered", c)
		}
	}
	if want := 1 + recentArcs + (n/ArcSpan-1-recentArcs+volumeArcs-1)/volumeArcs; items != want {
		t.Errorf("%d summary items; want %d (the current arc, %d recent arcs, the volumes)", items, want, recentArcs)
	}
	if share := int(DefaultShares.Summaries * budget); tokens > share {
		t.Errorf("summaries took %d tokens; share %d", tokens, share)
	}
	for _, s := range ctx.Dropped {
		if strings.HasPrefix(s.Path, "summaries/") {
			t.Errorf("summary dropped: %s (%s)", s.Path, s.Why)
		}
	}
}
