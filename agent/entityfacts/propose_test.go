package entityfacts

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/flowcabal/flowcabal/agent/llm"
	"github.com/flowcabal/flowcabal/agent/llm/llmtest"
	"github.com/flowcabal/flowcabal/knowledge"
	"github.com/flowcabal/flowcabal/textsearch"
)

func TestFindQuote(t *testing.T) {
	text := "第一行，黛玉　進了垂花門。\nShe said, \"Mr. Bingley\nis come.\" Then 𝄞 rang.\n"
	cases := []struct {
		name, q, want string
		ok            bool
	}{
		{"exact", "黛玉　進了垂花門", "黛玉　進了垂花門", true},
		{"a full-width space dropped", "黛玉 進了垂花門", "黛玉　進了垂花門", true},
		{"a hard line break as a space", "Mr. Bingley is come.", "Mr. Bingley\nis come.", true},
		{"marks around the whole", "“Then 𝄞 rang.”", "Then 𝄞 rang.", true},
		{"marks that are in the text", "\"Mr. Bingley is come.\"", "\"Mr. Bingley\nis come.\"", true},
		{"an ellipsis", "Mr. Bingley ... come.", "", false},
		{"a changed character", "黛玉進了垂花门", "", false},
		{"simplified for traditional", "黛玉　进了垂花门", "", false},
		{"empty", "  ", "", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, e, ok := findQuote(text, c.q)
			if ok != c.ok || (ok && text[s:e] != c.want) {
				t.Fatalf("findQuote(%q) = %q, %v; want %q, %v", c.q, text[s:e], ok, c.want, c.ok)
			}
		})
	}
}

func TestCheck(t *testing.T) {
	e := &knowledge.Entity{Name: "Lydia", Facts: map[string]string{"home": "Longbourn", "age": "15"},
		Progressions: []knowledge.Progression{{Chapter: 5, Facts: map[string]string{"location": "Brighton"}}}}
	chapters := []Chapter{{1, "Lydia lives at Longbourn.\nShe is fifteen years old."}, {5, "Lydia went to Brighton.\nThen to London she went."}}
	a := answer{
		Facts: []Item{
			{"Home", "longbourn", 1, "Lydia lives at Longbourn."},   // same (case)
			{"age", "fifteen", 1, "She is fifteen years old."},      // conflict with 15
			{"Eye Colour", "blue", 1, "She is fifteen years old."},  // new, key normalised
			{"eye_colour", "green", 1, "Lydia lives at Longbourn."}, // conflict with the proposal above
			{"sister", "Jane", 9, "Lydia lives at Longbourn."},      // no chapter 9
			{"sister", "Kitty", 1, "She"},                           // too short
			{"---", "x", 1, "Lydia lives at Longbourn."},            // no key
			{"home", "", 1, "Lydia lives at Longbourn."},            // no value
			{"Eye Colour", "blue", 1, "She is fifteen years old."},  // a repeat: dropped
		},
		Progressions: []Item{
			{"location", "Brighton", 5, "Lydia went to Brighton."},      // same as the file's
			{"location", "Meryton", 5, "Then to London she went."},      // conflict at chapter 5
			{"location", "London", 5, "She went to London."},            // not in the text
			{"home", "Longbourn", 5, "Then to London she went."},        // holds already (base fact)
			{"location", "London", 6, "Then to London she went."},       // no chapter 6
			{"companion", "Mrs. Forster", 5, "Lydia went to Brighton."}, // new
		},
	}
	res := &Result{}
	check(res, e, a, chapters)
	var got []string
	for _, p := range res.Proposals {
		got = append(got, fmt.Sprintf("%s %s=%s@%d line %d %s %s", p.Kind, p.Key, p.Value, p.Chapter, p.Line, p.Status, p.Existing))
	}
	want := []string{
		"fact home=longbourn@1 line 1 same ",
		"fact age=fifteen@1 line 2 conflict 15",
		"fact eye_colour=blue@1 line 2 new ",
		"fact eye_colour=green@1 line 1 conflict proposed above: blue",
		"progression location=Brighton@5 line 1 same ",
		"progression location=Meryton@5 line 2 conflict Brighton",
		"progression home=Longbourn@5 line 2 same ",
		"progression companion=Mrs. Forster@5 line 1 new ",
	}
	if !slices.Equal(got, want) {
		t.Errorf("proposals:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	var reasons []string
	for _, r := range res.Rejected {
		reasons = append(reasons, r.Key+": "+r.Reason)
	}
	wantR := []string{
		"sister: chapter 9 is not in the manuscript",
		"sister: the quotation is too short to be evidence",
		"---: the key is not a name",
		"home: no value",
		"location: the quotation is not in chapter 5",
		"location: chapter 6 is not in the manuscript",
	}
	if !slices.Equal(reasons, wantR) {
		t.Errorf("rejected:\n%s\nwant\n%s", strings.Join(reasons, "\n"), strings.Join(wantR, "\n"))
	}
	add := Accepted(res)
	if len(add.Facts) != 1 || add.Facts[0] != (KV{"eye_colour", "blue"}) || len(add.Progressions) != 1 || add.Progressions[0].Chapter != 5 {
		t.Errorf("accepted: %+v", add)
	}
}

func sharedCorpus(t testing.TB, book string, last int) []Chapter {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "shared", "corpus", book)
	var out []Chapter
	for n := 1; n <= last; n++ {
		data, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("%03d.txt", n)))
		if err != nil {
			t.Fatalf("the shared corpus (../shared/corpus from the repository): %v", err)
		}
		out = append(out, Chapter{Number: n, Text: string(data)})
	}
	return out
}

func TestGather(t *testing.T) {
	chapters := sharedCorpus(t, "hongloumeng", 10)
	// A simplified alias finds the traditional text.
	e := &knowledge.Entity{Name: "賈寶玉", Aliases: []string{"宝玉"}, Resource: "entities/characters/jia-baoyu"}
	folder := textsearch.NewFolder()
	book := NewBook(chapters)
	ev := Gather(e, book, folder, 1500)
	if len(ev.Passages) == 0 || ev.Chapters < 5 {
		t.Fatalf("%d passages from %d chapters", len(ev.Passages), ev.Chapters)
	}
	total := 0
	chs := map[int]bool{}
	for i, p := range ev.Passages {
		total += weight(p.Text)
		chs[p.Chapter] = true
		if !strings.Contains(folder.Fold(p.Text), folder.Fold("寶玉")) {
			t.Errorf("passage %d does not mention him: %.60q", i, p.Text)
		}
		if i > 0 && (p.Chapter < ev.Passages[i-1].Chapter || p.Chapter == ev.Passages[i-1].Chapter && p.Start <= ev.Passages[i-1].Start) {
			t.Errorf("passages out of order at %d", i)
		}
		if p.Text != strings.TrimSpace(chapters[p.Chapter-1].Text[p.Start:p.End]) {
			t.Errorf("passage %d is not the chapter's text at its span", i)
		}
	}
	if total > 1500 {
		t.Errorf("passages weigh %d, over the budget of 1500", total)
	}
	// Spread: a budget too small for every chapter still shows the
	// first and the last that mention him, and no chapter twice while
	// another has none.
	if !chs[ev.First] || !chs[ev.Last] || len(chs) != len(ev.Passages) {
		t.Errorf("passages from chapters %v; he is in %d to %d", slices.Sorted(maps.Keys(chs)), ev.First, ev.Last)
	}
	if again := Gather(e, NewBook(chapters), folder, 1500); !slices.Equal(again.Passages, ev.Passages) {
		t.Error("two gatherings differ")
	}
	var b strings.Builder
	ev.render(&b)
	if q1, q2 := question(e, ev), question(e, Gather(e, book, folder, 1500)); q1 != q2 || cacheKey("m", q1) == cacheKey("n", q1) {
		t.Error("the question or its key is not a function of the text and model")
	}
}

// TestProposeModelFailures runs the real client against the scripted
// server: a failed or declined call yields an error, caches nothing, and
// never shows the key.
func TestProposeModelFailures(t *testing.T) {
	chapters := []Chapter{{1, "Lydia lives at Longbourn with her sisters."}}
	e := &knowledge.Entity{Name: "Lydia", Resource: "entities/characters/lydia", Facts: map[string]string{}}
	const key = "sk-test-NEVER-SHOWN-77"
	for _, c := range []struct {
		name  string
		reply llmtest.Reply
		want  string
	}{
		{"rejected key", llmtest.Reply{Fault: llmtest.Fault401}, "401"},
		{"declined", llmtest.Reply{Refusal: "I cannot help with that."}, "refused"},
		{"not the schema", llmtest.Reply{Fault: llmtest.FaultSchema, Times: -1}, "schema"},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Script{Replies: []llmtest.Reply{c.reply}})
			client, err := llm.New(llm.Config{Name: llm.Agent, BaseURL: srv.URL, Model: "m", APIKey: llm.NewSecret(key)},
				llm.Options{Retry: llm.RetryPolicy{MaxRetries: 1}, Sleep: func(context.Context, time.Duration) error { return nil }})
			if err != nil {
				t.Fatal(err)
			}
			cache := &memCache{m: map[string]json.RawMessage{}}
			p := &Proposer{Model: "m", Chat: client, Cache: cache}
			res, err := p.Propose(context.Background(), e, NewBook(chapters))
			if err == nil || res != nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("res %v, err %v; want an error about %q", res, err, c.want)
			}
			if strings.Contains(err.Error(), key) {
				t.Error("the key is in the error")
			}
			if len(cache.m) != 0 {
				t.Error("a failed answer was cached")
			}
		})
	}
	// An entity the text never names: no call at all.
	srv := llmtest.New(t, llmtest.Script{})
	client, _ := llm.New(llm.Config{Name: llm.Agent, BaseURL: srv.URL, Model: "m"}, llm.Options{})
	p := &Proposer{Model: "m", Chat: client}
	if _, err := p.Propose(context.Background(), &knowledge.Entity{Name: "Wickham"}, NewBook(chapters)); err != ErrNoMentions || srv.Count() != 0 {
		t.Errorf("err %v, %d requests", err, srv.Count())
	}
}

type memCache struct{ m map[string]json.RawMessage }

func (c *memCache) CachedAnswer(_ context.Context, k string) (json.RawMessage, bool, error) {
	v, ok := c.m[k]
	return v, ok, nil
}

func (c *memCache) PutCachedAnswer(_ context.Context, k string, v json.RawMessage) error {
	c.m[k] = v
	return nil
}

func TestSpread(t *testing.T) {
	for n, want := range map[int][]int{0: nil, 1: {0}, 2: {0, 1}, 5: {0, 4, 2, 1, 3}, 9: {0, 8, 4, 2, 6, 1, 3, 5, 7}} {
		got := spread(n)
		if !slices.Equal(got, want) {
			t.Errorf("spread(%d) = %v, want %v", n, got, want)
		}
	}
	for n := 0; n < 300; n++ {
		got := slices.Sorted(slices.Values(spread(n)))
		for i, v := range got {
			if v != i {
				t.Fatalf("spread(%d) is not a permutation: %v", n, spread(n))
			}
		}
	}
}
