package factcheck

import (
	"strings"
	"testing"
)

// TestNamingFrames: a title given after a name and a naming verb, where
// the manuscript's other chapters give the declared title, contradicts it
// unless those chapters give that title there too; the chapter checked
// does not vouch for itself, and a two-character name (大哥) or a clause
// that starts after the name (悟空，你叫做…) says nothing.
func TestNamingFrames(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/hong.md":      "---\nname: 紅孩兒\nkind: character\ngender: m\nfacts: { title: 聖嬰大王 }\n---\n",
		"entities/characters/wukong.md":    "---\nname: 孫悟空\naliases: [悟空]\nkind: character\ngender: m\nfacts: { title: 齊天大聖 }\n---\n",
		"manuscript/chapter-01/content.md": "第一回\n\n山中有個紅孩兒妖精，號聖嬰大王，把我師父拿去。那悟空，號齊天大聖，又號美猴王。",
		"manuscript/chapter-02/content.md": "第二回\n\n悟空，號美猴王，好不威風。",
		"manuscript/chapter-03/content.md": "第三回\n\n行者道：「那紅孩兒也不知去向。」",
	})
	for _, tc := range []struct {
		name, text string
		ch         int
		want       string
	}{
		{"another title in the book's frame", "有一個紅孩兒妖精，喚作覆海大聖，把我師父攝去。", 3, "覆海大聖"},
		{"the declared title", "有一個紅孩兒妖精，喚作聖嬰大王，把我師父攝去。", 3, ""},
		{"a title the book gives there elsewhere", "那悟空，號美猴王，好不威風。", 3, ""},
		{"the chapter its own witness", "有一個紅孩兒妖精，喚作覆海大聖，把我師父攝去。", 1, ""},
		{"two characters", "有一個紅孩兒妖精，喚作大哥，把我師父攝去。", 3, ""},
		{"another clause after the name", "你師兄叫做悟空，你叫做覆海大聖。", 3, ""},
	} {
		got := strings.Join(found(k, tc.text, tc.ch, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
