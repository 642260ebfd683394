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
