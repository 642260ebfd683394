package entitysuggest

import (
	"strings"
	"testing"
)

func TestAbbreviates(t *testing.T) {
	for _, c := range []struct {
		short, long string
		want        bool
	}{
		{"观音", "观世音", true},
		{"观音菩萨", "观世音菩萨", true},
		{"玉帝", "玉皇大帝", true}, // 大 of the title 大帝
		{"托塔天王", "托塔李天王", true},
		{"哪吒太子", "哪吒三太子", false}, // a rank among siblings
		{"尤姐", "尤二姐", false},
		{"太太", "老太太", false}, // another title
		{"老王", "老大王", false},
		{"唱喏", "唱个喏", false}, // a classifier
		{"观世音", "观世音", false},
		{"观音", "观世音菩萨", false}, // the ends differ
	} {
		// The ends are checked by the caller; here only what is left out.
		got := abbreviates([]rune(c.short), []rune(c.long)) &&
			[]rune(c.short)[len([]rune(c.short))-1] == []rune(c.long)[len([]rune(c.long))-1]
		if got != c.want {
			t.Errorf("abbreviates(%s, %s) = %v, want %v", c.short, c.long, got, c.want)
		}
	}
}

// TestSuggestAbbreviation: a name shortened by leaving out characters
// between its ends joins the full name; a family name and a given name
// are not shortened so (王熙鳳 and 王鳳 stay two people).
func TestSuggestAbbreviation(t *testing.T) {
	checkSuggestCases(t, []suggestCase{
		{
			name: "觀世音 shortened to 觀音",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("觀音道：「去罷。」行者道：「是。」\n觀音菩薩笑道：「好。」\n", 4)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("那觀世音菩薩道：「來。」八戒道：「走。」\n觀世音道：「住。」\n", 4)},
			},
			together: [][]string{{"觀音", "觀世音"}},
		},
		{
			name:     "a full name is not shortened",
			chapters: book(3, "王熙鳳笑道：「去罷。」寶玉道：「是。」", "王鳳道：「來。」黛玉道：「走。」"),
			together: [][]string{{"王鳳"}, {"王熙鳳"}},
			apart:    [][2]string{{"王熙鳳", "王鳳"}},
		},
	})
}
