package entitysuggest

import "testing"

// TestSuggestJoinedTitle: a name and the title the book writes right after
// it, both of one entry (如來 and 佛祖), are a form of that entry where the
// book writes them so three times (如來佛祖), not where it does so twice.
func TestSuggestJoinedTitle(t *testing.T) {
	const (
		p1 = "如來道：「善哉。」行者道：「是。」三藏拜如來佛祖。\n\n"
		p2 = "佛祖道：「汝來了。」行者道：「來了。」三藏往靈山去。\n\n"
		p3 = "如來道：「去罷。」行者道：「是。」\n\n"
	)
	checkSuggestCases(t, []suggestCase{
		{
			name: "如來佛祖 three times",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + p1 + p2 + p3},
				{Number: 2, Text: "第二回\n\n" + p1 + p2 + p3},
				{Number: 3, Text: "第三回\n\n" + p1 + p2 + p3},
			},
			together: [][]string{{"如來", "佛祖", "如來佛祖"}},
		},
		{
			name: "如來佛祖 twice",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + p1 + p2 + p3},
				{Number: 2, Text: "第二回\n\n" + p1 + p2 + p3},
				{Number: 3, Text: "第三回\n\n" + p3 + p2 + p3},
			},
			together: [][]string{{"如來", "佛祖"}},
			absent:   []string{"如來佛祖"},
		},
	})
}
