package entitysuggest

import "testing"

// TestSuggestEpithetPlace: a title standing alone (佛祖) is the one name
// the book writes it after (如來佛祖); a place it is also written after
// (靈山佛祖, the Buddha of the mountain, 往靈山) is where the bearer is,
// no second name that would make the title anyone's.
func TestSuggestEpithetPlace(t *testing.T) {
	checkSuggestCases(t, []suggestCase{
		{
			name: "佛祖 after 如來 and after a place",
			chapters: book(2,
				"如來道：「善哉。」行者道：「是。」三藏拜如來佛祖。",
				"三藏往靈山去，拜靈山佛祖。",
				"佛祖道：「汝來了。」行者道：「來了。」三藏到靈山，又拜靈山佛祖。",
			),
			together: [][]string{{"如來", "佛祖"}},
			apart:    [][2]string{{"靈山", "佛祖"}},
		},
	})
}
