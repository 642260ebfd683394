package factcheck

import (
	"strings"
	"testing"
)

// TestLooseListOfPeople: a list of people joined by 、 和 與 that opens
// its clause and a verb of acting or a group word closes is one subject
// in the scene, though the files declare only one of its items; talk of
// such a list, or a list of things, is not.
func TestLooseListOfPeople(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/qingwen.md": "---\nname: 晴雯\nkind: character\nfacts: {status: dead}\n---\n",
		"entities/characters/redboy.md":  "---\nname: 紅孩兒\nkind: character\nfacts: {status: away, location: 落伽山}\n---\n",
	})
	for _, tc := range []struct{ text, want string }{
		{"行者厲聲高叫。火德、紅孩兒與哪吒答應一聲，都笑吟吟的。", "紅孩兒"},
		{"晴雯和丫鬟們見寶玉來了，連忙打起帘子。", "晴雯"},
		{"寶玉又提起晴雯和丫鬟們的舊事，不覺傷心。", ""},
		{"箱中的衣服、晴雯的舊帕子都在這里。", ""},
	} {
		if got := strings.Join(found(k, tc.text, 60, TypeState), " "); got != tc.want {
			t.Errorf("%s: state findings %q, want %q", tc.text, got, tc.want)
		}
	}
}
