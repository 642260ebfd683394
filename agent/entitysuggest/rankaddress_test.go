package entitysuggest

import "testing"

// TestSuggestRankAddress: a rank among siblings and a title of kinship
// said alone (二哥哥) is the one of that rank and sex the book names with
// the rank (寶二爺, not 璉二爺, whom the nearby text does not name);
// not someone of another sex (尤二姐), rank or generation (二老爺, the
// elder of that rank, is not 寶二爺).
func TestSuggestRankAddress(t *testing.T) {
	checkSuggestCases(t, []suggestCase{
		{
			name: "二哥哥 is 寶二爺",
			chapters: book(2,
				"寶玉笑道：「好。」黛玉道：「二哥哥，你來。」寶玉道：「來了。」",
				"丫頭道：「寶二爺來了。」寶玉道：「是我。」探春笑道：「二哥哥，坐。」",
				"賈璉道：「走罷。」小廝道：「璉二爺，車來了。」賈璉又道：「去。」",
				"尤二姐道：「罷了。」尤二姐笑道：「你去。」鳳姐道：「好。」",
				"寶玉道：「二老爺叫我。」二老爺道：「寶玉，過來。」寶玉忙道：「是。」",
			),
			together: [][]string{{"寶玉", "二哥哥", "寶二爺"}, {"賈璉", "璉二爺"}, {"尤二姐"}},
			apart:    [][2]string{{"賈璉", "二哥哥"}, {"尤二姐", "二哥哥"}, {"寶玉", "二老爺"}},
		},
	})
}
