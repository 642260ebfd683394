package factcheck

import (
	"strings"
	"testing"
)

// TestFirstWifeAndSon: 先妻 is a wife and 之兒 a child of the one named
// before them, against the declared spouse and father; 之兒 before
// another kinship word (兒媳婦) is not a child.
func TestFirstWifeAndSon(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/qin.md":     "---\nname: 秦可卿\naliases: [秦氏]\nkind: character\ngender: f\nfacts: { spouse: 賈蓉 }\n---\n",
		"entities/characters/rong.md":    "---\nname: 賈蓉\nkind: character\ngender: m\n---\n",
		"entities/characters/lian.md":    "---\nname: 賈璉\nkind: character\ngender: m\n---\n",
		"entities/characters/sanzang.md": "---\nname: 玄奘\nkind: character\ngender: m\nfacts: { father: 陳光蕊 }\n---\n",
		"entities/characters/chen.md":    "---\nname: 陳光蕊\nkind: character\ngender: m\n---\n",
		"entities/characters/niu.md":     "---\nname: 牛魔王\nkind: character\ngender: m\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"another's first wife", "鳳姐此時方想起來是賈璉的先妻秦氏，便說道：噯呀。", "賈璉"},
		{"the declared husband's first wife", "鳳姐此時方想起來是賈蓉的先妻秦氏，便說道：噯呀。", ""},
		{"another's son", "太宗沉思良久道：可是學士牛魔王之兒玄奘否？", "牛魔王"},
		{"the declared father's son", "太宗沉思良久道：可是學士陳光蕊之兒玄奘否？", ""},
		{"a daughter-in-law, not a child", "秦氏原是賈珍的兒媳婦。", ""},
		{"another's wife after 即", "原來這秦氏即賈璉之妻。", "賈璉"},
		{"the declared husband's wife after 即", "原來這秦氏即賈蓉之妻。", ""},
	} {
		got := strings.Join(found(k, tc.text, 10, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestPronounKin: "his wife, NAME" ties NAME to the one man named before
// in the sentence, against his declared wife and NAME's declared husband
// or father; with two men before it, or none, nothing is judged.
func TestPronounKin(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/pierre.md":  "---\nname: Pierre\nkind: character\nfacts: { spouse: Hélène }\n---\nHe is a man of the book.\n",
		"entities/characters/helene.md":  "---\nname: Hélène\nkind: character\nfacts: { spouse: Pierre, father: Prince Vasíli }\n---\nShe is a woman of the book.\n",
		"entities/characters/natasha.md": "---\nname: Natásha\nkind: character\nfacts: { father: Count Rostóv }\n---\nShe is a woman of the book.\n",
		"entities/characters/vasili.md":  "---\nname: Prince Vasíli\nkind: character\n---\nHe is a man of the book.\n",
		"entities/characters/rostov.md":  "---\nname: Count Rostóv\nkind: character\n---\nHe is a man of the book.\n",
		"entities/characters/andrew.md":  "---\nname: Prince Andrew\nkind: character\nfacts: { spouse: Lise }\n---\nHe is a man of the book.\n",
		"entities/characters/lise.md":    "---\nname: Lise\nkind: character\nfacts: { spouse: Prince Andrew }\n---\nShe is a woman of the book.\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"another's wife by his file", "Pierre came in with his wife, Natásha, and bowed.", "Natásha"},
		{"another's husband by her file", "Prince Andrew came in with his wife, Hélène, and bowed.", "Hélène"},
		{"another's husband, her pronoun", "Hélène came in with her husband, Prince Andrew, and bowed.", "Prince Andrew"},
		{"the declared wife", "Pierre came in with his wife, Hélène, and bowed.", ""},
		{"another's daughter", "Prince Vasíli came in with his daughter Natásha and bowed.", "Natásha"},
		{"the declared father's daughter", "Count Rostóv came in with his daughter Natásha and bowed.", ""},
		{"the pronoun after the name", "Pierre came in, and Natásha, his wife, bowed.", "Natásha"},
		{"the pronoun after the name, the declared wife", "Pierre came in, and Hélène, his wife, bowed.", ""},
		{"the noun holds another", "Pierre came in, and Natásha, his wife’s friend, bowed.", ""},
		{"two men before the pronoun", "Prince Vasíli led Pierre to his daughter, Hélène.", ""},
		{"no one before it", "His wife, Natásha, bowed.", ""},
	} {
		got := strings.Join(found(k, tc.text, 100, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestCJKSiblings: a brother named after the one whose he is (襲人的哥哥…)
// is no brother when the file declares one of the holder's family and he
// is of another (families.go); one of the declared family may be another
// brother, and a cousin's word is left alone.
func TestCJKSiblings(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/xiren.md":  "---\nname: 花襲人\naliases: [襲人]\nkind: character\nfacts: { brother: 花自芳 }\n---\n",
		"entities/characters/xuepan.md": "---\nname: 薛蟠\nkind: character\n---\n",
		"entities/characters/hua.md":    "---\nname: 花自芳\nkind: character\n---\n",
		"entities/characters/feng.md":   "---\nname: 王熙鳳\naliases: [鳳姐]\nkind: character\nfacts: { brother: 王仁 }\n---\n",
		"entities/characters/wzt.md":    "---\nname: 王子騰\nkind: character\n---\n",
		"entities/characters/bc.md":     "---\nname: 薛寶釵\naliases: [寶釵]\nkind: character\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"another family's man as her brother", "因有人回王夫人說：“襲人的哥哥薛蟠進來說，他母親病重了。”", "襲人的哥哥薛蟠"},
		{"after 之兄", "茗煙先進去叫襲人之兄薛蟠。", "襲人之兄薛蟠"},
		{"the declared brother", "茗煙先進去叫襲人之兄花自芳。", ""},
		{"one of the declared family: maybe another brother", "可巧鳳姐之兄王子騰也正進京。", ""},
		{"someone with no brother declared", "寶釵的哥哥花自芳來了。", ""},
		{"a cousin's word", "襲人的表哥薛蟠來了。", ""},
	} {
		got := strings.Join(found(k, tc.text, 30, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
