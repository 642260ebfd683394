package factcheck

import (
	"strings"
	"testing"
)

// TestCJKSiblingOfAnotherFamily: a brother named after a declared person
// by a full name the book writes but no file declares (襲人之兄王子騰) is
// of another family than the declared brother of her own (花自芳), where
// her names say she is a 花; one of her family, a declared sibling of
// another family (a cousin), a name the book seldom writes, or a holder
// with no sibling declared, says nothing.
func TestCJKSiblingOfAnotherFamily(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/xiren.md":     "---\nname: 襲人\naliases: [花大姐姐]\nkind: character\nfacts: { brother: 花自芳 }\n---\n",
		"entities/characters/fengjie.md":   "---\nname: 王熙鳳\naliases: [鳳姐]\nkind: character\nfacts: { brother: 王仁 }\n---\n",
		"entities/characters/xiangyun.md":  "---\nname: 史湘雲\naliases: [湘雲]\nkind: character\nfacts: { sister: 林黛玉 }\n---\n",
		"entities/characters/daiyu.md":     "---\nname: 林黛玉\nkind: character\n---\n",
		"entities/characters/sheyue.md":    "---\nname: 麝月\nkind: character\n---\n",
		"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("王子騰來了，花自芳也來了，薛寶琴也來了。", 5) + "\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"another family", "茗煙先進去叫襲人之兄王子騰。", "王子騰"},
		{"another family after 的", "茗煙先進去叫襲人的哥哥王子騰。", "王子騰"},
		{"the declared brother", "茗煙先進去叫襲人之兄花自芳。", ""},
		{"her own family", "可巧鳳姐之兄王子騰也正進京。", ""},
		{"a declared sister of another family", "湘雲的妹妹薛寶琴也來了。", ""},
		{"a name the book seldom writes", "茗煙先進去叫襲人之兄李自芳。", ""},
		{"no sibling declared", "茗煙先進去叫麝月之兄王子騰。", ""},
	} {
		got := strings.Join(found(k, tc.text, 19, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
