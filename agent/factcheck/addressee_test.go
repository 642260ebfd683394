package factcheck

import (
	"strings"
	"testing"
)

// TestAddressee: a fact a Chinese quotation states of 你 (汝, 您) is the
// listener's, when a vocative opening a sentence of the quotation or the
// attribution's 對 (向, 問) names them, and no one's where the speech
// leaves two readings. Each case gives the fact finding's text ("" for
// none).
func TestAddressee(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/tang.md":  "---\nname: 唐僧\naliases: [聖僧]\nkind: character\nfacts: { 原籍: 海州 }\n---\n",
		"entities/characters/zheng.md": "---\nname: 賈政\nkind: character\nfacts: { 原籍: 金陵 }\n---\n",
		"entities/characters/ruhai.md": "---\nname: 林如海\nkind: character\nfacts: { 原籍: 姑蘇 }\n---\n",
		"entities/characters/rulai.md": "---\nname: 如來\nkind: character\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"a vocative in an earlier sentence of the speech",
			"如來道：“聖僧，汝前世原是我之二徒，轉生東土。汝原籍是江州，甚有功果。”", "江州"},
		{"the vocative's own value",
			"如來道：“聖僧，汝前世原是我之二徒，轉生東土。汝原籍是海州，甚有功果。”", ""},
		{"the speech turns to someone else",
			"如來道：“聖僧，汝前世原是我之二徒，轉生東土。──賈政，汝原籍是金陵，甚有功果。”", ""},
		{"the listener after 對 in the attribution", "賈政對唐僧冷笑道：“你原籍是江州，也該瞻顧些。”", "江州"},
		{"the listener after 問", "林如海問唐僧道：“你原籍是江州，是也不是？”", "江州"},
		{"你 that does not open its clause", "賈政對唐僧道：“那個隨你的，原籍是江州。”", ""},
		{"你父親: a relative's value", "賈政對唐僧道：“你父親原籍是江州。”", ""},
		{"你 in an earlier clause", "賈政對唐僧道：“你來了，原籍是江州。”", ""},
		{"someone named between the vocative and 你", "如來道：“聖僧，林如海前日來了。你原籍是江州。”", ""},
		{"a vocative and an attribution naming two people", "賈政對林如海道：“聖僧，汝前世原是我之二徒。你原籍是江州。”", ""},
		{"no one to say who 你 is", "賈政道：“你原籍是江州，也該瞻顧些。”", ""},
		{"我 after 對: the speaker's value, not the listener's", "賈政對唐僧道：“我原籍是金陵。”", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(found(k, tc.text, 10, "fact"), " ")
			if got != tc.want {
				t.Errorf("%s\n got %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}

// TestEnglishAddressee: a value an English quotation states of "you"
// opening its clause is the listener's, when a vocative earlier in the
// speech or "to" after a speech verb in its tag names them; no one's
// where two are called or someone else is named before "you".
func TestEnglishAddressee(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/lydia.md": "---\nname: Lydia Bennet\naliases: [Lydia]\nkind: character\nfacts: { age: 15 }\n---\nShe is the youngest.\n",
		"entities/characters/kitty.md": "---\nname: Kitty Bennet\naliases: [Kitty]\nkind: character\nfacts: { age: 17 }\n---\nShe is the fourth.\n",
		"entities/characters/jane.md":  "---\nname: Jane Bennet\naliases: [Jane]\nkind: character\n---\nShe is the eldest.\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"a vocative opening the speech", "“Lydia! Come here. You are but twelve years old.”", "twelve"},
		{"a vocative closing a sentence", "“Come here, Lydia. You are but twelve years old.”", "twelve"},
		{"the listener after said to", "Jane said to Lydia, “Come here. You are but twelve years old.”", "twelve"},
		{"the listener's declared age", "“Come here, Lydia. You are but fifteen years old.”", ""},
		{"the speech turns to someone else", "“Come here, Lydia. Kitty! Come here. You are but seventeen years old.”", ""},
		{"someone named between the vocative and you", "“Come here, Lydia. Kitty came. You are but twelve years old.”", ""},
		{"you not opening its clause", "“Come here, Lydia. Mrs. Long thinks that you are but twelve years old.”", ""},
		{"a vocative and a tag naming two people", "Jane said to Kitty, “Lydia! You are but twelve years old.”", ""},
		{"no one called", "“Come here. You are but twelve years old.”", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(found(k, tc.text, 10, TypeFact), " ")
			if got != tc.want {
				t.Errorf("%q\n got %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}
