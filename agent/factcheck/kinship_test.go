package factcheck

import (
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/internal/projecttest"
	"github.com/flowcabal/flowcabal/knowledge"
)

// TestServantsMaster: a servant said to be another's (王夫人之婢, Lady
// Catherine’s maid) against the master the file gives; a former master
// the file or the rest of the manuscript gives, or a tie the text puts in
// the past (原是, formerly), is no contradiction.
func TestServantsMaster(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/xiren.md":     "---\nname: 襲人\nkind: character\ngender: f\nfacts: { master: 賈寶玉, former_master: 賈母 }\n---\n",
		"entities/characters/sheyue.md":    "---\nname: 麝月\nkind: character\ngender: f\nfacts: { master: 賈寶玉 }\n---\n",
		"entities/characters/baoyu.md":     "---\nname: 賈寶玉\nkind: character\ngender: m\n---\n",
		"entities/characters/jiamu.md":     "---\nname: 賈母\nkind: character\ngender: f\n---\n",
		"entities/characters/wang.md":      "---\nname: 王夫人\nkind: character\ngender: f\n---\n",
		"entities/characters/hill.md":      "---\nname: Hill\nkind: character\ngender: f\nfacts: { master: Mr. Bennet, former_master: Mr. Gardiner }\n---\n",
		"entities/characters/bennet.md":    "---\nname: Mr. Bennet\nkind: character\ngender: m\n---\n",
		"entities/characters/gard.md":      "---\nname: Mr. Gardiner\nkind: character\ngender: m\n---\n",
		"entities/characters/lady.md":      "---\nname: Lady Catherine\nkind: character\ngender: f\n---\n",
		"entities/characters/qiuwen.md":    "---\nname: 秋紋\nkind: character\ngender: f\nfacts: { master: 賈寶玉 }\n---\n",
		"manuscript/chapter-01/content.md": "第一回\n\n王夫人的丫頭秋紋走來。\n",
		"manuscript/chapter-03/content.md": "第三回\n\n王夫人的丫頭麝月走來。\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"another's maid after an adverb and a copula", "原來這襲人亦是王夫人之婢，本名珍珠。", "王夫人"},
		{"the former master", "原來這襲人亦是賈母之婢，本名珍珠。", ""},
		{"the master now", "原來這襲人就是賈寶玉的丫頭。", ""},
		{"one master declared, the text another", "麝月是王夫人的丫頭。", "王夫人"},
		{"one master declared, another before a name", "王夫人的丫頭麝月走來。", "王夫人"},
		{"one master declared, the text's in the past", "原來這麝月亦是王夫人之婢。", ""},
		{"an earlier master the rest of the book gives", "王夫人的丫頭秋紋走來。", ""},
		// The apposition of a scene names the master she serves now.
		{"one master declared, another's maid in a scene", "然后王夫人的丫頭麝月，秋紋跟著出來。", "王夫人"},
		{"one master declared, hers in a scene", "然后賈寶玉的丫頭麝月，秋紋跟著出來。", ""},
		{"one master declared, an old maid of another", "然后王夫人的舊丫頭麝月跟著出來。", ""},
		{"another's maid in English", "Hill was Lady Catherine’s maid, they said.", "Lady Catherine’s maid"},
		{"the former master in English", "Hill was Mr. Gardiner’s servant, they said.", ""},
	} {
		got := strings.Join(found(k, tc.text, 3, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestBornOfNextClause: the clause after a kinship construction goes on
// about the same child and may name who bore them (他是牛魔王的兒子，玉面公主
// 養的), checked against the declared mother; two names of one title
// with other names before it (鐵扇公主, 玉面公主) are two people.
func TestBornOfNextClause(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/hong.md":  "---\nname: 紅孩兒\nkind: character\ngender: m\nfacts: { 父親: 牛魔王, 母親: 羅剎女 }\nrelations:\n  - { to: entities/characters/luo, kind: mother }\n---\n",
		"entities/characters/niu.md":   "---\nname: 牛魔王\nkind: character\ngender: m\n---\n",
		"entities/characters/luo.md":   "---\nname: 鐵扇公主\naliases: [羅剎女]\nkind: character\ngender: f\nrelations:\n  - { to: entities/characters/hong, kind: son }\n---\n",
		"entities/characters/huan.md":  "---\nname: 賈環\nkind: character\ngender: m\nfacts: { 父親: 賈政, 母親: 趙姨娘 }\n---\n",
		"entities/characters/zheng.md": "---\nname: 賈政\nkind: character\ngender: m\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"a woman no file declares", "眾神道：「他是牛魔王的兒子，玉面公主養的。他曾在火燄山修行了三百年。乳名叫做紅孩兒。」", "玉面公主"},
		{"the declared mother", "眾神道：「他是牛魔王的兒子，羅剎女養的。他曾在火燄山修行了三百年。乳名叫做紅孩兒。」", ""},
		{"the declared mother by her title", "眾神道：「他是牛魔王的兒子，鐵扇公主養的。他曾在火燄山修行了三百年。乳名叫做紅孩兒。」", ""},
		{"a family name and a woman's title", "他是賈政的兒子，周姨娘養的。他在學裡念書，名叫賈環。", "周姨娘"},
		{"the declared family", "他是賈政的兒子，趙姨娘養的。他在學裡念書，名叫賈環。", ""},
		{"a parent of no known gender", "他是牛魔王的兒子，羅剎養的。他曾在火燄山修行了三百年。乳名叫做紅孩兒。", ""},
		{"a clause about something else", "他是牛魔王的兒子，玉面公主的洞府在積雷山。他曾在火燄山修行了三百年。乳名叫做紅孩兒。", ""},
	} {
		got := strings.Join(found(k, tc.text, 40, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestServantChapterDoesNotVouch: checked as a chapter of the manuscript,
// the chapter's own servant pair is not counted as the rest of the book
// naming it, though the text checked is the manuscript's chapter itself.
func TestServantChapterDoesNotVouch(t *testing.T) {
	p, errs := knowledge.LoadProject(projecttest.Write(t, map[string]string{
		"entities/characters/sheyue.md":    "---\nname: 麝月\nkind: character\nfacts: { master: 賈寶玉 }\n---\n",
		"entities/characters/baoyu.md":     "---\nname: 賈寶玉\nkind: character\n---\n",
		"entities/characters/wang.md":      "---\nname: 王夫人\nkind: character\n---\n",
		"manuscript/chapter-01/content.md": "第一回\n\n賈寶玉走來。\n",
		"manuscript/chapter-02/content.md": "第二回\n\n王夫人的丫頭麝月走來。\n",
	}))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	k := FromProject(p, testFolder)
	var got []string
	for _, f := range CheckChapter(p, k, 2) {
		if f.Type == TypeFact {
			got = append(got, f.Evidence.Key)
		}
	}
	if len(got) != 1 || got[0] != "master" {
		t.Errorf("fact findings on chapter 2: %v, want the master", got)
	}
}
