package entitysuggest

import "testing"

// TestSuggestKinRoot: an aunt or uncle by the mother or by marriage
// named with a title of respect alone (姨太太) is the one of that kin the
// book names with a family name (薛姨媽) and the nearby text is about; a
// concubine called by the same kinship word (趙姨娘), whom the text
// speaks of elsewhere, is someone else.
func TestSuggestKinRoot(t *testing.T) {
	checkSuggestCases(t, []suggestCase{
		{
			name: "姨太太 is 薛姨媽",
			chapters: book(2,
				"薛姨媽笑道：「好孩子。」寶玉道：「是。」丫頭道：「姨太太來了。」",
				"薛姨媽道：「坐罷。」寶玉忙道：「姨太太請坐。」",
				"趙姨娘道：「哼。」賈環道：「走罷。」趙姨娘又道：「去。」",
			),
			together: [][]string{{"薛姨媽", "姨太太"}, {"趙姨娘"}},
			apart:    [][2]string{{"趙姨娘", "姨太太"}, {"趙姨娘", "薛姨媽"}},
		},
	})
}
