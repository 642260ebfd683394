package factcheck

import (
	"strings"
	"testing"
)

// TestSurnameOpeningASpeech: a speech that opens with 姓 (after a word for
// oneself at most) gives the speaker's own family name; a speech about
// someone else (他姓白) does not.
func TestSurnameOpeningASpeech(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/yinger.md": "---\nname: 鶯兒\nkind: character\nfacts: { surname: 黃 }\n---\n",
		"entities/characters/baoyu.md":  "---\nname: 寶玉\nkind: character\nfacts: { surname: 賈 }\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"the answer alone", "寶玉道：“你本姓什么？”鶯兒道：“姓白。”", "姓白"},
		{"after a word for oneself", "寶玉道：“你本姓什么？”鶯兒道：“小的本姓白。”", "姓白"},
		{"the declared name", "寶玉道：“你本姓什么？”鶯兒道：“姓黃。”", ""},
		{"someone else's", "寶玉道：“他本姓什么？”鶯兒道：“他姓白。”", ""},
		{"the listener after 對 is not the speaker", "寶玉對鶯兒道：“我本姓白。”", ""},
	} {
		got := strings.Join(found(k, tc.text, 35, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
