package factcheck

import (
	"strings"
	"testing"
)

// TestKinAddress: an age said of a kinship address (薛大妹妹) is the age of
// the one person of that surname and sex not known by an elder's term.
func TestKinAddress(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/baochai.md": "---\nname: 薛寶釵\naliases: [寶釵, 寶二奶奶]\nkind: character\ngender: f\n" +
			"progressions:\n  - { chapter: 22, facts: { age: 15 } }\n---\n",
		"entities/characters/auntxue.md": "---\nname: 薛姨媽\nkind: character\ngender: f\nfacts: { age: 45 }\n---\n",
		"entities/characters/daiyu.md":   "---\nname: 林黛玉\nkind: character\ngender: f\nfacts: { age: 12 }\n---\n",
		"entities/characters/hongyu.md":  "---\nname: 林紅玉\nkind: character\ngender: f\nfacts: { age: 16 }\n---\n",
		"entities/characters/jiamu.md":   "---\nname: 賈母\naliases: [老太太]\nkind: character\ngender: f\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"an address by surname, order and term", "鳳姐道：“昨儿听見老太太說，問起大家的年紀，听見薛大妹妹今年十七歲。”", "十七歲"},
		{"the declared age", "鳳姐道：“昨儿听見老太太說，問起大家的年紀，听見薛大妹妹今年十五歲。”", ""},
		{"an address two could answer to", "鳳姐道：“听見林妹妹今年十七歲。”", ""},
		{"an address of the other sex", "鳳姐道：“听見薛大哥哥今年十七歲。”", ""},
	} {
		got := strings.Join(found(k, tc.text, 22, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
