package factcheck

import (
	"strings"
	"testing"
)

// TestSiblingOfAnotherFamily: a brother or sister the text gives someone
// (襲人的哥哥薛蟠, "Miss Darcy’s brother, Mr. Bingley") is checked against
// the declared sibling by family: siblings by blood share the family
// name, so a declared person of another family is someone else's sibling.
// A sibling the file does not name but of the same family, a declared
// sibling of another family (a sworn brother), a sister in English (who
// takes her husband's name) and a holder of no known family are not
// judged.
func TestSiblingOfAnotherFamily(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/xiren.md":   "---\nname: 襲人\naliases: [花大姐姐]\nkind: character\ngender: f\nfacts: { brother: 花自芳 }\n---\n",
		"entities/characters/hua.md":     "---\nname: 花自芳\nkind: character\ngender: m\n---\n",
		"entities/characters/xuepan.md":  "---\nname: 薛蟠\nkind: character\ngender: m\n---\n",
		"entities/characters/baochai.md": "---\nname: 薛寶釵\naliases: [寶釵]\nkind: character\ngender: f\nfacts: { brother: 薛蟠 }\n---\n",
		"entities/characters/baoqin.md":  "---\nname: 薛寶琴\nkind: character\ngender: f\n---\n",
		"entities/characters/wukong.md":  "---\nname: 孫悟空\nkind: character\ngender: m\nfacts: { brother: 牛魔王 }\n---\n",
		"entities/characters/bajie.md":   "---\nname: 豬八戒\nkind: character\ngender: m\n---\n",
		"entities/characters/niu.md":     "---\nname: 牛魔王\nkind: character\ngender: m\n---\n",
		"entities/characters/qingwen.md": "---\nname: 晴雯\nkind: character\ngender: f\nfacts: { brother: 薛蟠 }\n---\n",
		"entities/characters/gd.md":      "---\nname: Georgiana Darcy\naliases: [Miss Darcy]\nkind: character\ngender: f\nfacts: { brother: Fitzwilliam Darcy }\n---\n",
		"entities/characters/darcy.md":   "---\nname: Fitzwilliam Darcy\naliases: [Mr. Darcy, Darcy]\nkind: character\ngender: m\n---\n",
		"entities/characters/bingley.md": "---\nname: Charles Bingley\naliases: [Mr. Bingley, Bingley]\nkind: character\ngender: m\nfacts: { sister: Caroline Bingley }\n---\n",
		"entities/characters/caro.md":    "---\nname: Caroline Bingley\naliases: [Miss Bingley]\nkind: character\ngender: f\n---\n",
		"entities/characters/eliz.md":    "---\nname: Elizabeth Bennet\naliases: [Elizabeth]\nkind: character\ngender: f\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"a brother of another family", "因有人回王夫人說：「襲人的哥哥薛蟠進來說，他母親病重了。」", "襲人的哥哥薛蟠"},
		{"之兄, a brother in one character", "茗煙先進去叫襲人之兄薛蟠。", "襲人之兄薛蟠"},
		{"之兄, the declared brother", "茗煙先進去叫襲人之兄花自芳。", ""},
		{"the declared brother", "因有人回王夫人說：「襲人的哥哥花自芳進來說，他母親病重了。」", ""},
		{"a sister of the same family the file does not name", "寶釵的妹妹薛寶琴也來了。", ""},
		{"the other way round: her declared brother is of another family", "薛蟠的妹妹襲人也來了。", "薛蟠的妹妹襲人"},
		{"a sworn brother declared", "孫悟空的兄弟豬八戒也來了。", ""},
		{"a holder of no known family", "晴雯的哥哥花自芳進來了。", ""},
		{"a brother of another family in English", "Miss Darcy’s brother, Mr. Bingley, came in.", "Miss Darcy’s brother, Mr. Bingley"},
		{"the declared brother in English", "Miss Darcy’s brother, Mr. Darcy, came in.", ""},
		{"a sister in English", "Mr. Bingley’s sister, Elizabeth, came in.", ""},
	} {
		got := strings.Join(found(k, tc.text, 3, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestChildOfAnotherFamily: a son or daughter the text gives a parent
// (賈政之子薛蟠, "Mrs. Bennet’s daughter, Charlotte Lucas") is checked
// against the declared children by family where the parent bears the
// children's family name; a mother of another family (王夫人, née 王,
// whose son is a 賈) is not judged, nor a child of the family the file
// does not list.
func TestChildOfAnotherFamily(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/zheng.md":  "---\nname: 賈政\nkind: character\ngender: m\nfacts: { son: 賈寶玉 }\n---\n",
		"entities/characters/baoyu.md":  "---\nname: 賈寶玉\naliases: [寶玉]\nkind: character\ngender: m\n---\n",
		"entities/characters/huan.md":   "---\nname: 賈環\nkind: character\ngender: m\n---\n",
		"entities/characters/xuepan.md": "---\nname: 薛蟠\nkind: character\ngender: m\n---\n",
		"entities/characters/wang.md":   "---\nname: 王夫人\nkind: character\ngender: f\nfacts: { son: 賈寶玉 }\n---\n",
		"entities/characters/mrsb.md":   "---\nname: Mrs. Bennet\nkind: character\ngender: f\nfacts: { daughters: \"Jane Bennet, Elizabeth Bennet\" }\n---\n",
		"entities/characters/jane.md":   "---\nname: Jane Bennet\naliases: [Jane]\nkind: character\ngender: f\n---\n",
		"entities/characters/lydia.md":  "---\nname: Lydia Bennet\naliases: [Lydia]\nkind: character\ngender: f\n---\n",
		"entities/characters/charl.md":  "---\nname: Charlotte Lucas\naliases: [Charlotte]\nkind: character\ngender: f\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"a son of another family", "原來這薛蟠乃賈政之子，今年十五歲。", "薛蟠乃賈政"},
		{"a son of the family the file does not list", "原來這賈環乃賈政之子，今年十五歲。", ""},
		{"a mother of another family", "原來這薛蟠乃王夫人之子，今年十五歲。", ""},
		{"a daughter of another family in English", "Charlotte, Mrs. Bennet’s daughter, came in.", "Charlotte, Mrs. Bennet’s daughter"},
		{"a daughter the file does not list, of the family", "Lydia, Mrs. Bennet’s daughter, came in.", ""},
	} {
		got := strings.Join(found(k, tc.text, 3, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
