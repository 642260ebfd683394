package factcheck

import (
	"strings"
	"testing"
)

// TestOrdinalPlaces: a place in a list (第N名) right before a name or
// after the name and a verb of passing contradicts a declared place of
// that shape; the declared place, a place next to someone else, and a
// place with other words between say nothing.
func TestOrdinalPlaces(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/baoyu.md": "---\nname: 賈寶玉\naliases: [寶玉]\nkind: character\ngender: m\nfacts: { exam_rank: 第七名 }\n---\n",
		"entities/characters/lan.md":   "---\nname: 賈蘭\nkind: character\ngender: m\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"another place before the name", "見第十二名賈寶玉是金陵籍貫，第一百三十名又是金陵賈蘭。", "第十二名"},
		{"another place after a verb", "原來寶玉中了第十二名。", "第十二名"},
		{"the declared place", "見第七名賈寶玉是金陵籍貫，第一百三十名又是金陵賈蘭。", ""},
		{"someone else's place", "第一百三十名又是金陵賈蘭，寶玉也中了。", ""},
		{"other words between", "寶玉說那人中的是第十二名。", ""},
	} {
		got := strings.Join(found(k, tc.text, 119, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
