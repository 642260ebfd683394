package entitysuggest

import (
	"strings"
	"testing"
)

// TestPlaceApartFromTitled holds that a place stays apart from the person
// the book names by a title after it: 南海 (the southern sea, where one
// goes) is not 南海菩薩 (the bodhisattva of it), though the titled name
// holds the place's. English has no such case here: a name of a place
// before a title ("the Duke of York") is found as a place name already,
// and the rule is Chinese only.
func TestPlaceApartFromTitled(t *testing.T) {
	chapters := []Chapter{{Number: 1, Text: "第一回\n\n" +
		strings.Repeat("行者駕雲往南海去了。八戒道：「哥哥去南海做甚？」\n", 6) +
		strings.Repeat("行者道：「我虧了南海菩薩勸善。」正走，卻遇著南海菩薩。南海菩薩道：「悟空，你來何幹？」行者道：「我是南海菩薩的徒弟。」\n", 4)}}
	sugg, _ := suggestMerged(t, chapters, nil)
	if e := entryOf(sugg, "南海"); e != nil && hasName(e, "南海菩薩") {
		t.Errorf("南海 and 南海菩薩 in one entry: %v", e.Names())
	}
	if entryOf(sugg, "南海") == nil {
		t.Errorf("南海 not suggested: %v", sugg)
	}
}

// TestPlaceTitleLinks holds that a person named by a place and a title
// (南海菩薩) is the one person the book names by a name and that title
// (觀音菩薩) and writes after the place as an epithet (南海觀音), twice
// at least; and no one where the book so writes two names after the
// place. English writes a place after the title ("the Lady of Shalott")
// and that is one name already, so there is no English case.
func TestPlaceTitleLinks(t *testing.T) {
	scene := strings.Repeat("行者駕雲往南海去了。八戒道：「哥哥去南海做甚？」\n", 6) +
		strings.Repeat("行者道：「我虧了南海菩薩勸善。」正走，卻遇著南海菩薩。南海菩薩道：「悟空，你來何幹？」\n", 3) +
		strings.Repeat("觀音菩薩道：「悟空，去罷。」行者拜了觀音菩薩。\n", 5)
	cases := []struct {
		name     string
		text     string
		together [][]string
		apart    [][2]string
	}{
		{
			name:     "one name written after the place",
			text:     scene + strings.Repeat("行者道：「我去請南海觀音來。」\n", 2),
			together: [][]string{{"觀音菩薩", "南海菩薩"}},
			apart:    [][2]string{{"南海", "南海菩薩"}},
		},
		{
			name: "two names written after the place",
			text: scene + strings.Repeat("行者道：「我去請南海觀音來。」\n", 2) +
				strings.Repeat("文殊菩薩道：「悟空，來。」行者拜了文殊菩薩。\n", 5) +
				strings.Repeat("八戒道：「我去請南海文殊來。」\n", 2),
			apart: [][2]string{{"觀音菩薩", "南海菩薩"}, {"文殊菩薩", "南海菩薩"}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sugg, _ := suggestMerged(t, []Chapter{{Number: 1, Text: "第一回\n\n" + c.text}}, c.together)
			for _, ap := range c.apart {
				if a := entryOf(sugg, ap[0]); a != nil && hasName(a, ap[1]) {
					t.Errorf("%q and %q in one entry: %v", ap[0], ap[1], a.Names())
				}
			}
			if entryOf(sugg, "南海菩薩") == nil {
				t.Errorf("南海菩薩 not suggested")
			}
		})
	}
}
