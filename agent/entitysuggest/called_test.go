package entitysuggest

import (
	"strings"
	"testing"
)

// TestSuggestCalledForms holds that a word called at the start of speech
// ("唐王道：「御弟，…」") is a candidate name, kept where one person
// answers the calls (御弟 is 三藏), dropped where many do (爺爺, grandpa,
// said to any old man); an interjection (哥呵, brother!) ends no name.
// English vocatives ("Mary, come here") are found as capitalised words
// already.
func TestSuggestCalledForms(t *testing.T) {
	cases := []struct {
		name     string
		chapters []Chapter
		together [][]string
		apart    [][2]string
		absent   []string
	}{
		{
			name: "a word called and answered by one person is that person",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("唐王道：「御弟，請坐。」三藏道：「多謝陛下。」\n", 9) +
					strings.Repeat("三藏道：「走罷。」行者道：「好。」\n", 6)},
			},
			together: [][]string{{"三藏", "御弟"}},
		},
		{
			name: "a word called and answered by many is no one's name",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("行者道：「爺爺，這是何處？」老者道：「高老莊。」\n", 4) +
					strings.Repeat("八戒道：「爺爺，有飯麼？」老翁道：「有。」\n", 4) +
					strings.Repeat("沙僧道：「爺爺，請了。」老漢道：「請。」\n", 4) +
					strings.Repeat("老者道：「來。」老翁道：「好。」老漢道：「是。」\n", 4)},
			},
			absent: []string{"爺爺"},
		},
		{
			name: "an interjection ends no name called",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("八戒道：「哥呵，走罷。」行者道：「好。」\n", 9) +
					strings.Repeat("八戒道：「吃飯。」\n", 3)},
			},
			absent: []string{"哥呵"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sugg, _ := suggestMerged(t, c.chapters, c.together)
			for _, a := range c.absent {
				if e := entryOf(sugg, a); e != nil {
					t.Errorf("%q suggested: %v", a, e.Names())
				}
			}
		})
	}
}
