package entitysuggest

import (
	"strings"
	"testing"
)

// TestSuggestReasksLinked holds that a form whose nearby text named two
// entries, which the text's own links then made one, joins that entry;
// and that the nearby text is not asked about a ruler's title, which
// any ruler of the book's entries could be.
func TestSuggestReasksLinked(t *testing.T) {
	cases := []struct {
		name     string
		chapters []Chapter
		together [][]string
		apart    [][2]string
	}{
		{
			// 李氏 (the lady of the Li family) speaks after 李紈 six
			// times and after 李宮裁 four: split, neither holds 80% of
			// the votes, until "李紈，字宮裁" makes the two one.
			name: "a family name with a title joins two entries the text's links made one",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n李紈，字宮裁。\n" + strings.Repeat("李紈笑道：「好。」李氏道：「是。」\n", 6) +
					strings.Repeat("李宮裁笑道：「來。」李氏道：「走。」\n", 4) + strings.Repeat("寶玉道：「去。」\n", 6)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("李紈道：「好。」寶玉道：「是。」\n", 4) + strings.Repeat("李宮裁道：「來。」寶玉道：「去。」\n", 3)},
			},
			together: [][]string{{"李紈", "李宮裁", "李氏"}},
		},
		{
			// 女王 is the queen of the realm 女 (西梁女國), a ruler as
			// 猴王 is, whom "猴王叫做行者" makes one with 行者, named
			// beside her at every turn: she is no one of his.
			name: "a ruler's title after a realm is not asked again",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n猴王叫做行者。\n" + strings.Repeat("猴王道：「好。」眾猴道：「是。」\n", 5) + strings.Repeat("行者道：「走。」八戒道：「是。」\n", 5)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("行者到了西梁女國。女國的人都來看。\n", 6) +
					strings.Repeat("女王道：「請。」行者道：「好。」\n", 6)},
			},
			together: [][]string{{"行者", "猴王"}},
			apart:    [][2]string{{"行者", "女王"}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sugg, _ := suggestMerged(t, c.chapters, c.together)
			for _, ap := range c.apart {
				if e := entryOf(sugg, ap[0]); e != nil && hasName(e, ap[1]) {
					t.Errorf("%q merged with %q: %v", ap[1], ap[0], e.Names())
				}
			}
		})
	}
}
