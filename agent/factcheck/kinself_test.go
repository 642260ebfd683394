package factcheck

import (
	"strings"
	"testing"
)

// TestSelfKin: a speaker who states their own parentage (「我是劉洪的兒子」,
// “I am the son of Prince Vasíli”) is checked against their declared
// father as a named subject would be; a first person that does not open
// its clause, a quotation with no known speaker, a name no file declares
// with more than the kinship word after it, and the declared parent say
// nothing.
func TestSelfKin(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/xz.md":      "---\nname: 唐僧\naliases: [玄奘]\nkind: character\ngender: m\nfacts: { father: 陳光蕊 }\n---\n",
		"entities/characters/chen.md":    "---\nname: 陳光蕊\nkind: character\ngender: m\n---\n",
		"entities/characters/bajie.md":   "---\nname: 豬八戒\nkind: character\ngender: m\nfacts: { master: 唐僧 }\n---\n",
		"entities/characters/anatole.md": "---\nname: Anatole\nkind: character\ngender: m\nfacts: { father: Prince Vasíli }\n---\n",
		"entities/characters/vasili.md":  "---\nname: Prince Vasíli\nkind: character\ngender: m\n---\n",
		"entities/characters/bolk.md":    "---\nname: Prince Bolkónski\nkind: character\ngender: m\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"a name no file declares", "玄奘道：「我不是陳光蕊，我是劉洪的兒子。」", "劉洪"},
		{"the declared father", "玄奘道：「我不是陳光蕊，我是陳光蕊的兒子。」", ""},
		{"no speaker tag", "「我不是陳光蕊，我是劉洪的兒子。」", ""},
		{"the first person inside a clause", "玄奘道：「他說我是劉洪的兒子。」", ""},
		{"a family name at the head of a phrase", "八戒道：「我是東土大唐聖僧的徒弟。」", ""},
		{"a name of two characters after a named subject", "原來這玄奘是劉洪的兒子。", "劉洪"},
		{"a declared person in English", "“I am the son of Prince Bolkónski,” said Anatole.", "Prince Bolkónski"},
		{"a possessive in English", "Anatole said, “I am Prince Bolkónski’s son.”", "Prince Bolkónski’s son"},
		{"the declared father in English", "“I am the son of Prince Vasíli,” said Anatole.", ""},
		{"no speaker tag in English", "“I am the son of Prince Bolkónski.”", ""},
	} {
		got := strings.Join(found(k, tc.text, 3, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
