package factcheck

import (
	"strings"
	"testing"
)

// TestCJKReturnsHome: a character going back to another's declared home
// (寶玉…因回到瀟湘館來) against their own, the subject found clauses back
// while no one else opens a clause; escorting or following someone, a
// pronoun opening a clause, speech, a place that is no one's home, or a
// household set against a lodge say nothing.
func TestCJKReturnsHome(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/baoyu.md":     "---\nname: 賈寶玉\naliases: [寶玉]\nkind: character\nfacts: { residence: 怡紅院 }\n---\n",
		"entities/characters/daiyu.md":     "---\nname: 林黛玉\naliases: [黛玉]\nkind: character\nfacts: { residence: 瀟湘館 }\n---\n",
		"entities/characters/baochai.md":   "---\nname: 薛寶釵\naliases: [寶釵]\nkind: character\nfacts: { residence: 蘅蕪苑 }\n---\n",
		"entities/characters/wukong.md":    "---\nname: 孫悟空\naliases: [行者]\nkind: character\nfacts: { home: 花果山水簾洞 }\n---\n",
		"entities/characters/xiangling.md": "---\nname: 香菱\nkind: character\nfacts: { residence: 薛家 }\n---\n",
		"entities/characters/bajie.md":     "---\nname: 豬八戒\naliases: [八戒]\nkind: character\nfacts: { home: 福陵山雲棧洞 }\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"another's home clauses on", "寶玉聽了，半日竟無一言可答，因回到瀟湘館來。", "瀟湘館"},
		{"his own", "寶玉聽了，半日竟無一言可答，因回到怡紅院來。", ""},
		{"the subject of its own clause", "黛玉一溜煙回蘅蕪苑去了。", "蘅蕪苑"},
		{"past a name inside a clause", "寶玉聽了，方到賈母處去稟明了，然后回到蘅蕪苑中。", "蘅蕪苑"},
		{"escorting her", "寶玉送黛玉回瀟湘館去了。", ""},
		{"another opens a clause between", "寶玉聽了，黛玉便回瀟湘館去了。", ""},
		{"a pronoun opens a clause between", "寶玉聽了，他便回瀟湘館去了。", ""},
		{"in speech", "寶玉道：「我回瀟湘館去。」", ""},
		{"another's cave in the other book", "八戒聽了，急縱雲頭，回花果山水簾洞來。", "花果山水簾洞"},
		{"a stop that is no one's home", "八戒聽了，急縱雲頭，回高老莊來。", ""},
		{"a household against a lodge", "寶釵和香菱說了，香菱便回蘅蕪苑來。", ""},
		{"the first part of a longer name", "寶玉回瀟湘館後院看竹子。", ""},
	} {
		got := strings.Join(found(k, tc.text, 30, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
