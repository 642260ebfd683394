package entitysuggest

import (
	"strings"
	"testing"
)

// TestNameBeforeTitle holds which runs before a Chinese title may be a
// name of their own, and which title after a name makes it one.
func TestNameBeforeTitle(t *testing.T) {
	cases := []struct {
		x, title string
		name     bool // nameBeforeTitle(x)
		titled   bool // titledName(x, title)
	}{
		{"观音", "菩萨", true, true},
		{"观世音", "菩萨", true, true},
		{"虎力", "大仙", true, true},
		{"观", "菩萨", false, true},   // one character: a family name or a pet name's
		{"史大", "妹妹", false, true},  // a family name and a rank
		{"琏二", "奶奶", false, true},  // a name's character and a rank
		{"哥儿", "姐儿", false, true},  // a title before a title
		{"倘或老", "太太", true, false}, // 老太太 is the title
		{"递与", "师父", true, false},  // handed to the master
		{"观音", "院", true, false},   // no title
	}
	for _, c := range cases {
		if got := nameBeforeTitle([]rune(c.x)); got != c.name {
			t.Errorf("nameBeforeTitle(%q) = %v, want %v", c.x, got, c.name)
		}
		if got := titledName([]rune(c.x), []rune(c.title)); got != c.titled {
			t.Errorf("titledName(%q, %q) = %v, want %v", c.x, c.title, got, c.titled)
		}
	}
}

// TestSuggestNameBeforeTitle holds how a Chinese name the text writes
// before a title (觀音 of 觀音菩薩, 虎力 of 虎力大仙) is found and placed:
// it is a name of its own, though it has no cue of its own (it never
// speaks, nor is it addressed), and it joins the one entry holding it
// with the title, however much more that titled form is used. English
// writes the title before the name ("Lady Catherine"), where the bare
// name is resolved by the nearby text (TestSuggest: "Catherine" stays
// apart from "Lady Catherine" with nothing nearby tying them).
func TestSuggestNameBeforeTitle(t *testing.T) {
	checkSuggestCases(t, []suggestCase{
		{
			// 觀音 speaks once, too seldom to be a speaker's name, and
			// is never addressed: only 觀音菩薩 is. It is used alone
			// less often than with the title, far from it, so the
			// nearby text does not tie them.
			name: "a name before a title joins its titled form",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("，觀音菩薩道：「悟空，你來。」行者道：「弟子來也。」\n", 10)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("行者又去見觀音。八戒道：「哥哥快來。」沙僧道：「好。」\n", 6) + "觀音道：「去罷。」\n"},
			},
			together: [][]string{{"觀音菩薩", "觀音"}},
		},
		{
			// 幸 (fortunately) is a family name too, but before a name
			// found only before a title it makes no full name: the
			// entry is 觀音菩薩, not 幸觀音.
			name: "a character before a name found only before a title makes no full name",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("，觀音菩薩道：「悟空，你來。」行者道：「弟子來也。」\n", 10) +
					strings.Repeat("行者正慌，幸觀音菩薩到了。\n", 3)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("行者又去見觀音。八戒道：「哥哥快來。」沙僧道：「好。」\n", 6) + "觀音道：「去罷。」\n"},
			},
			together: [][]string{{"觀音菩薩", "觀音"}},
			absent:   []string{"幸觀音"},
		},
		{
			// 觀世音 is followed by 菩薩 in 10 of its 14 uses: a name
			// with its title is not a longer word the name is a fragment
			// of.
			name: "a name mostly written with its title is no fragment of it",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("，觀世音菩薩道：「悟空，你來。」行者道：「弟子來也。」\n", 10)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("行者又去見觀世音。八戒道：「哥哥快來。」沙僧道：「好。」\n", 4) + "觀世音道：「去罷。」\n"},
			},
			together: [][]string{{"觀世音菩薩", "觀世音"}},
		},
		{
			// 遞與師父 (handed to the master), 從老太太 (from the old
			// lady), 四個丫頭 (four maids) and 璉二奶奶 (the second
			// mistress of 璉) stand where a titled name would: what
			// comes before the title is a verb and its preposition, a
			// word and the first character of the title 老太太, a count,
			// a name and a rank among siblings.
			name: "a phrase, a count or a rank before a title, or part of a longer title, is no name",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("行者接了，遞與師父。三藏道：「好。」八戒道：「吃飯。」\n", 8) +
					strings.Repeat("沙僧接了，遞與八戒。八戒道：「好。」\n", 4)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("鴛鴦道：「剛才，從老太太那裏來。」寶玉笑道：「好。」\n", 8) +
					strings.Repeat("鳳姐道：「叫了，四個丫頭來。」平兒道：「那四個不來。」\n", 8)},
				{Number: 3, Text: "第三回\n\n" + strings.Repeat("，璉二奶奶道：「好。」平兒道：「是。」\n", 8) +
					strings.Repeat("，璉二道：「來。」\n", 1)},
			},
			absent: []string{"遞與", "從老", "四個", "璉二"},
		},
		{
			// 觀音院, the temple of Guanyin, is where one goes: a place
			// named after her, though the name alone is used five times
			// as often.
			name: "a place named after a person found before a title stays a place",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("，觀音菩薩道：「悟空，你來。」行者道：「弟子來也。」\n", 10) +
					strings.Repeat("三藏道：「天晚了。」師徒們往觀音院去。\n", 5)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("行者又去見觀音。八戒道：「哥哥快來。」沙僧道：「好。」\n", 12) + "觀音道：「去罷。」\n"},
			},
			kinds:    map[string]string{"觀音院": KindLocation},
			together: [][]string{{"觀音菩薩", "觀音"}},
		},
		{
			// 北海 of 北海龍王 is the sea he rules, where one goes: a
			// place, not the king's name.
			name: "a place before a ruler's title does not join the ruler",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("，北海龍王道：「大聖，請坐。」行者道：「多謝。」\n", 10)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("行者道：「我往北海去。」八戒道：「我往北海去。」\n", 4)},
			},
			apart: [][2]string{{"北海", "北海龍王"}},
		},
	})
}
