package entitysuggest

import (
	"strings"
	"testing"
)

// TestSuggestFamilyCharIsAWord: a character of the family names that the
// book mostly uses as a word (幸, fortunately) makes no full name with the
// name after it (幸如來); one that begins or precedes the book's names
// (賈 of 賈母) does (賈寶玉).
func TestSuggestFamilyCharIsAWord(t *testing.T) {
	checkSuggestCases(t, []suggestCase{
		{
			name: "幸 before 如來, fortunately",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("如來道：「善哉。」行者道：「弟子來也。」\n", 10) +
					strings.Repeat("行者正慌，幸如來到了。\n", 3)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("八戒道：「我們幸喜無事，也幸得師兄來了。」沙僧道：「好。」\n", 20) + "如來道：「去罷。」\n"},
			},
			absent: []string{"幸如來"},
		},
		{
			name: "賈 before 寶玉, the family name of 賈母",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("賈母道：「寶玉來。」寶玉道：「是。」\n", 10) +
					strings.Repeat("那賈寶玉笑了。\n", 3)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("寶玉道：「姐姐好。」賈母笑道：「好。」\n", 6)},
			},
			together: [][]string{{"寶玉", "賈寶玉"}},
		},
	})
}
