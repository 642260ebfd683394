package entitysuggest

import (
	"strings"
	"testing"
)

// TestSuggestSpeechWords holds that a word the book uses only in speech
// (老祖宗, how the household addresses and speaks of 賈母) joins the one
// speaker who answers that speech, on fewer answers than a title alone
// needs; a word answered by several stays apart, and so does a name the
// narrator uses too. A speech may close with a straight quotation mark
// where it opened with a curly one (“…"), as some editions type it.
// English books have no such path: their forms of address are titled
// names the nearby text resolves.
func TestSuggestSpeechWords(t *testing.T) {
	filler := strings.Repeat("寶玉道：「走。」黛玉道：「來。」襲人道：「是。」當下無話。\n", 20)
	checkSuggestCases(t, []suggestCase{
		{
			name: "a word used only in speech joins the one who answers it",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("鳳姐道：「老祖宗，請坐。」賈母笑道：「好。」當下無話。\n", 4) +
					strings.Repeat("鳳姐道：「請老祖宗坐。」賈母笑道：「好。」當下無話。\n", 10) + filler},
			},
			together: [][]string{{"賈母", "老祖宗"}},
			apart:    [][2]string{{"鳳姐", "老祖宗"}},
		},
		{
			name: "a speech opened with a curly mark may close with a straight one",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("鳳姐道：“老祖宗，請坐。\"賈母笑道：“好。”當下無話。\n", 4) +
					strings.Repeat("鳳姐道：“請老祖宗坐。\"賈母笑道：“好。”當下無話。\n", 10) + filler},
			},
			together: [][]string{{"賈母", "老祖宗"}},
		},
		{
			name: "a word used only in speech and answered by several is no one's",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("鳳姐道：「老祖宗，請坐。」賈母笑道：「好。」當下無話。\n", 3) +
					strings.Repeat("鳳姐道：「請老祖宗坐。」賈母笑道：「好。」當下無話。\n", 5) +
					strings.Repeat("鳳姐道：「請老祖宗坐。」寶玉笑道：「好。」當下無話。\n", 5) +
					strings.Repeat("鳳姐道：「請老祖宗坐。」黛玉笑道：「好。」當下無話。\n", 4) + filler},
			},
			apart: [][2]string{{"賈母", "老祖宗"}, {"寶玉", "老祖宗"}, {"黛玉", "老祖宗"}},
		},
		{
			// 賢弟 (worthy brother) is said to any younger man: 八戒
			// answers it far more than anyone else, but not most of it.
			name: "a word used only in speech that one answers far more often than others, but not most of the time, is no one's",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("行者道：「賢弟，來。」八戒道：「好。」當下無話。\n", 4) +
					strings.Repeat("行者道：「請賢弟坐。」八戒道：「好。」當下無話。\n", 7) +
					strings.Repeat("行者道：「請賢弟坐。」沙僧道：「好。」當下無話。\n", 4) +
					strings.Repeat("老魔道：「請賢弟坐。」三藏道：「好。」當下無話。\n", 3) +
					strings.Repeat("老魔道：「請賢弟坐。」唐僧道：「好。」當下無話。\n", 3) +
					strings.Repeat("三藏道：「走。」唐僧道：「來。」沙僧道：「是。」行者道：「吃。」八戒道：「喝。」當下無話。\n", 20) +
					strings.Repeat(filler, 3)},
			},
			apart: [][2]string{{"八戒", "賢弟"}, {"沙僧", "賢弟"}},
		},
		{
			// 寶玉 is spoken of in the speech 襲人 answers, but the
			// narrator names him too: a name, not a word of address.
			name: "a name the narrator uses is not a word of address",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("麝月道：「寶玉睡了。」襲人笑道：「好。」當下無話。\n", 14) +
					strings.Repeat("寶玉來了，寶玉坐下。黛玉道：「來。」當下無話。\n", 6) + filler},
			},
			apart: [][2]string{{"寶玉", "襲人"}},
		},
	})
}
