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
