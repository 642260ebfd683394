package entitysuggest

import "testing"

// TestSuggestCountsAndPlaceWords: words that stand where names stand
// without naming anyone or anywhere: the second item of a count (二來 of
// "一則…，二來…", secondly), a place word with a word of position (門前,
// before the gate), two place words (山坡, the slope of a hill). A rank
// before a word that is no count (二郎) and a place word before the seat
// of a government (江州) stay names.
func TestSuggestCountsAndPlaceWords(t *testing.T) {
	checkSuggestCases(t, []suggestCase{
		{
			name: "二來 after 一則 or 一來 is a count",
			chapters: book(3,
				"行者道：「一則天晚，二來聽說此山有怪，且住一宿。」三藏道：「也罷。」",
				"八戒道：「一來肚饑，二來聽了這話，心中害怕。」二郎笑道：「無妨。」",
				"二郎道：「你來了。」行者道：「來了。」",
			),
			absent: []string{"二來"},
			kinds:  map[string]string{"二郎": KindCharacter},
		},
		{
			name: "門前 and 山門前 are before a gate",
			chapters: book(3,
				"行者到門前道：「開門！」三藏道：「悟空，莫嚷。」",
				"八戒走到山門前道：「師兄，裏面有人。」行者道：「我去看看。」",
			),
			absent: []string{"門前", "山門前"},
		},
		{
			name: "著 before a title is a particle, in either form",
			chapters: book(3,
				"八戒跟著師父往前走，行者道：「師父慢行。」",
				"沙僧攙著師父下馬，行者看著師父道：「莫怕。」",
				"八戒扶着師父坐了，行者道：「好。」",
			),
			absent: []string{"著師父", "着師父"},
		},
		{
			name: "山坡 is a kind of place, 江州 a place",
			chapters: book(3,
				"三藏往山坡下走，行者道：「師父慢行。」",
				"八戒在山坡上睡了。三藏道：「悟能起來。」",
				"三藏要往江州去，八戒道：「江州遠哩。」",
			),
			absent: []string{"山坡"},
			kinds:  map[string]string{"江州": KindLocation},
		},
	})
}
