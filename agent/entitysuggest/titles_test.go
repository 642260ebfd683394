package entitysuggest

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// rankOf returns the 1-based rank of the entry carrying name, or 0.
func rankOf(sugg []Suggestion, name string) int {
	i := slices.IndexFunc(sugg, func(s Suggestion) bool { return hasName(&s, name) })
	return i + 1
}

// TestSuggestRanksTitles holds how a title used alone for a person ranks:
// under the names when the book gives it by name to several people, by its
// mentions when to no one else. English books name their titled people
// with the title before the name ("the countess", "Countess Rostóva"),
// which is resolved by the nearby text, not ranked apart.
func TestSuggestRanksTitles(t *testing.T) {
	cases := []struct {
		name     string
		chapters []Chapter
		// above lists pairs whose first must rank above the second.
		above [][2]string
	}{
		{
			// 國王 is the king of whichever realm the pilgrims are in:
			// the book names two (烏雞國王, 車遲國王), so the word is a
			// rank, said of many, and ranks under 八戒, used less.
			name: "a title the book gives by name to several people ranks under the names",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("國王道：「請坐。」行者道：「好。」國王笑道：「來。」\n", 8) +
					strings.Repeat("八戒道：「吃飯。」行者道：「走。」\n", 5) +
					strings.Repeat("眾臣道：「烏雞國王來了。」行者道：「好。」\n", 6)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("國王道：「請坐。」行者道：「好。」國王笑道：「來。」\n", 8) +
					strings.Repeat("八戒道：「吃飯。」行者道：「走。」\n", 5) +
					strings.Repeat("眾臣道：「車遲國王來了。」行者道：「好。」\n", 6)},
			},
			above: [][2]string{{"八戒", "國王"}},
		},
		{
			// 雲頭 (the cloud one rides) stands before 道 twice, taken
			// for a speaker, in 92 uses: a common word, under 八戒.
			name: "a word that hardly ever shows a person ranks under the names",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("行者按下雲頭，八戒道：「好。」行者道：「走。」\n", 45) + "雲頭道：「來。」\n"},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("行者落下雲頭，沙僧道：「好。」行者道：「走。」\n", 45) + "雲頭道：「來。」\n" +
					strings.Repeat("八戒道：「吃。」\n", 2)},
			},
			above: [][2]string{{"八戒", "雲頭"}},
		},
		{
			// 祖師 is the one master of the book, named by no other
			// name with the title: it ranks by its mentions.
			name: "a title given by name to no one ranks by its mentions",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("祖師道：「請坐。」行者道：「好。」祖師笑道：「來。」\n", 8) +
					strings.Repeat("八戒道：「吃飯。」行者道：「走。」\n", 5) +
					strings.Repeat("眾臣道：「烏雞國王來了。」行者道：「好。」\n", 6)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("祖師道：「請坐。」行者道：「好。」祖師笑道：「來。」\n", 8) +
					strings.Repeat("八戒道：「吃飯。」行者道：「走。」\n", 5) +
					strings.Repeat("眾臣道：「車遲國王來了。」行者道：「好。」\n", 6)},
			},
			above: [][2]string{{"祖師", "八戒"}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sugg, err := Suggest(context.Background(), c.chapters, Options{Folder: testFolder})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range sugg {
				got = append(got, strings.Join(s.Names(), "|"))
			}
			for _, ab := range c.above {
				a, b := rankOf(sugg, ab[0]), rankOf(sugg, ab[1])
				if a == 0 || b == 0 || a > b {
					t.Errorf("%q (rank %d) not above %q (rank %d): %v", ab[0], a, ab[1], b, got)
				}
			}
		})
	}
}

// TestSuggestTitledGiven holds that a bare Chinese name joins the entries
// that are only that name with a title, where it is the name the book
// uses of them; not a place before titles of several people. English
// books have the same construction ("Pierre", "Monsieur Pierre", "Uncle
// Pierre"), held in TestSuggestMergesAliases, where the bare name must be
// used five times as often, as a given name is shared by many.
func TestSuggestTitledGiven(t *testing.T) {
	cases := []struct {
		name     string
		chapters []Chapter
		together [][]string
		apart    [][2]string
	}{
		{
			name: "a bare name joins its titled forms",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("哪吒道：「來也。」行者道：「好。」天王道：「哪吒，去。」\n", 9) +
					strings.Repeat("眾神道：「哪吒太子來了。」哪吒道：「我去。」\n", 7)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("哪吒道：「來也。」行者道：「好。」\n", 3) +
					strings.Repeat("眾神道：「哪吒三太子來了。」哪吒道：「我去。」\n", 5)},
			},
			together: [][]string{{"哪吒", "哪吒太子", "哪吒三太子"}},
		},
		{
			// 南海 is where the goddess lives and a dragon king rules:
			// the titled forms are two people, the bare word a place.
			// (Used as often as the other, a titled form of one given
			// name joins it: the counts differ, as in the book.)
			name: "a place before the titles of two people joins neither",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("行者往南海去了。行者到南海來。南海道：「好。」\n", 6) +
					strings.Repeat("眾神道：「南海菩薩來了。」行者道：「好。」\n", 8)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("行者往南海去了。行者到南海來。\n", 3) +
					strings.Repeat("眾神道：「南海龍王來了。」行者道：「好。」\n", 5)},
			},
			apart: [][2]string{{"南海菩薩", "南海龍王"}, {"南海", "南海菩薩"}, {"南海", "南海龍王"}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sugg, got := suggestMerged(t, c.chapters, c.together)
			for _, ap := range c.apart {
				if e := entryOf(sugg, ap[0]); e != nil && hasName(e, ap[1]) {
					t.Errorf("%q merged with %q: %v", ap[1], ap[0], e.Names())
				}
			}
			if len(c.apart) > 0 && len(sugg) < 2 {
				t.Errorf("too few entries to tell: %v", got)
			}
		})
	}
}

// TestSuggestEpithetTitle holds that a title alone joins the one name the
// book writes it after (二郎真君, 二郎顯聖真君: 真君 is 二郎), and not a
// wife's title after her husband's name (丞相夫人), nor a title written
// after two names. English writes the title before the name ("Prince
// Andrew"), which the title features already tie.
func TestSuggestEpithetTitle(t *testing.T) {
	cases := []struct {
		name     string
		chapters []Chapter
		together [][]string
		apart    [][2]string
	}{
		{
			name: "a title written after one name only is that person",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("二郎道：「來也。」行者道：「好。」\n", 6) +
					"眾神道：「顯聖二郎真君到了。」行者道：「好。」\n吾乃二郎顯聖真君。\n" +
					strings.Repeat("真君道：「拿來。」行者道：「不。」\n", 6)},
			},
			together: [][]string{{"二郎", "真君"}},
		},
		{
			name: "a wife's title after a man's name is his wife",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("丞相道：「來也。」行者道：「好。」\n", 6) +
					"眾人道：「丞相夫人到了。」行者道：「好。」\n又見丞相夫人。\n" +
					strings.Repeat("夫人道：「請坐。」行者道：「是。」\n", 6)},
			},
			apart: [][2]string{{"丞相", "夫人"}},
		},
		{
			name: "a title written after two names is neither's",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("二郎道：「來也。」行者道：「好。」\n", 6) +
					strings.Repeat("許遜道：「來也。」行者道：「好。」\n", 6) +
					"眾神道：「二郎真君到了。」\n又見二郎真君。\n眾神道：「許遜真君到了。」\n又見許遜真君。\n" +
					strings.Repeat("真君道：「拿來。」行者道：「不。」\n", 6)},
			},
			apart: [][2]string{{"二郎", "真君"}, {"許遜", "真君"}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sugg, got := suggestMerged(t, c.chapters, c.together)
			for _, ap := range c.apart {
				a, b := entryOf(sugg, ap[0]), entryOf(sugg, ap[1])
				if a == nil || b == nil {
					t.Errorf("%q or %q in no entry: %v", ap[0], ap[1], got)
				} else if hasName(a, ap[1]) {
					t.Errorf("%q merged with %q: %v", ap[1], ap[0], a.Names())
				}
			}
		})
	}
}
