package entitysuggest

import "testing"

// TestSuggestBareTitle: a title alone that the book gives by name to
// several (長老: 唐長老, 金蟬長老) is the one of them the nearby text
// names nearly always (唐僧); one the text gives to two alike (大王 of
// 牛大王 and 熊大王) is neither's.
func TestSuggestBareTitle(t *testing.T) {
	checkSuggestCases(t, []suggestCase{
		{
			name: "長老 is 唐僧",
			chapters: book(2,
				"唐僧道：「悟空。」行者道：「師父。」長老道：「走罷。」唐長老笑道：「好。」",
				"唐僧又道：「餓了。」長老聞言，唐僧下馬。行者道：「長老，且住。」",
				"金蟬長老道：「善哉。」菩薩道：「去。」金蟬長老又道：「是。」",
			),
			together: [][]string{{"唐僧", "唐長老", "長老"}, {"金蟬長老"}},
			apart:    [][2]string{{"金蟬長老", "長老"}, {"金蟬長老", "唐僧"}},
		},
		{
			name: "大王 of two kings alike",
			chapters: book(2,
				"牛大王道：「來。」小妖道：「大王，來了。」牛大王笑道：「好。」",
				"熊大王道：「去。」小妖道：「大王，去了。」熊大王笑道：「好。」",
			),
			together: [][]string{{"牛大王"}, {"熊大王"}},
			apart:    [][2]string{{"牛大王", "大王"}, {"熊大王", "大王"}, {"牛大王", "熊大王"}},
		},
	})
}
