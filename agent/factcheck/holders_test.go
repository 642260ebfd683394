package factcheck

import (
	"strings"
	"testing"
)

// TestHolders: a fact stated of a pronoun, a demonstrative or an
// introduction that names its person later is checked against the person
// holders.go resolves, and against no one where two readings remain. Each
// case gives the fact finding's text ("" for none).
func TestHolders(t *testing.T) {
	k := bookProject(t, map[string]string{
		// Chinese.
		"entities/characters/hong.md":   "---\nname: 紅孩兒\naliases: [聖嬰大王]\nkind: character\nfacts: { 父親: 牛魔王 }\n---\n",
		"entities/characters/niu.md":    "---\nname: 牛魔王\nkind: character\n---\n",
		"entities/characters/huang.md":  "---\nname: 黃風大王\nkind: character\n---\n",
		"entities/characters/miaoyu.md": "---\nname: 妙玉\nkind: character\nfacts: { 原籍: 蘇州, 年紀: 十八歲 }\n---\n",
		"entities/characters/yucun.md":  "---\nname: 賈雨村\naliases: [雨村, 雨村老先生]\nkind: character\nfacts: { 原籍: 湖州, 官職: 知縣 }\n---\n",
		"entities/characters/bajie.md":  "---\nname: 豬八戒\naliases: [八戒]\nkind: character\nfacts: { 前身: 天蓬元帥 }\n---\n",
		"entities/characters/sha.md":    "---\nname: 沙悟淨\naliases: [沙僧]\nkind: character\nfacts: { 前身: 捲簾大將, 寶杖重: 五十斤 }\n---\n",
		"entities/characters/zheng.md":  "---\nname: 賈政\nkind: character\nfacts: { 原籍: 金陵 }\n---\n",
		"entities/characters/ruhai.md":  "---\nname: 林如海\nkind: character\nfacts: { 原籍: 姑蘇 }\n---\n",
		"entities/characters/chen.md":   "---\nname: 陳澄\nkind: character\nfacts: { 年紀: 六十三歲 }\n---\n",
		"entities/characters/tang.md":   "---\nname: 唐僧\nkind: character\nfacts: { 原籍: 海州 }\n---\n",
		// English.
		"entities/characters/pierre.md": "---\nname: Pierre Bezúkhov\naliases: [Pierre, Count Bezúkhov]\nkind: character\n" +
			"facts: { income: five hundred thousand rubles a year }\n---\nHe inherits his father's fortune.\n",
		"entities/characters/andrew.md":  "---\nname: Prince Andrew Bolkónski\naliases: [Prince Andrew]\nkind: character\n---\nHe serves Kutúzov.\n",
		"entities/characters/natasha.md": "---\nname: Natásha Rostóva\naliases: [Natásha]\nkind: character\nfacts: { age: 13 }\n---\nShe is the count's younger daughter.\n",
		"entities/characters/sonya.md":   "---\nname: Sónya\nkind: character\nfacts: { age: 15 }\n---\nShe is the count's niece.\n",
		"entities/characters/ilya.md":    "---\nname: Count Ilyá Rostóv\naliases: [Ilyá]\nkind: character\n---\nHe is Natásha's father.\n",
	})
	const income = "since he had come into an income which was said to amount to fifty thousand rubles a year, Pierre felt himself far poorer than before."
	const party = "“You spoil her, Ilyá,” she added, turning to her husband.\n\n" +
		"This black-eyed, wide-mouthed girl of eleven, not pretty but full of life, was just at that charming age when a girl is no longer a child.\n\n"
	for _, tc := range []struct {
		name, text, want string
	}{
		// Chinese forward naming.
		{"他 named two sentences on, the one between opening with 他",
			"眾神道：「他是黃風大王的兒子，羅剎女養的。他曾在火燄山修行了三百年，煉成三昧真火。乳名叫做紅孩兒，號叫做聖嬰大王。」", "黃風大王"},
		{"the declared parent", "眾神道：「他是牛魔王的兒子，羅剎女養的。他曾在火燄山修行了三百年。乳名叫做紅孩兒。」", ""},
		{"a sentence between about someone else",
			"眾神道：「他是黃風大王的兒子，羅剎女養的。牛魔王使他來鎮守號山。乳名叫做紅孩兒。」", ""},
		{"他道: the speaker, not the one named", "他道是黃風大王的兒子，名字喚做紅孩兒。", ""},
		{"someone else introduced before the naming", "眾神道：「他是黃風大王的兒子。第二個姓紅，乳名叫做紅孩兒。」", ""},
		{"a name before 他 in its sentence", "眾神道：「那牛魔王，他是黃風大王的兒子，乳名叫做紅孩兒。」", ""},
		{"an introduction named in the next sentence",
			"林之孝家的來回：“外有一個帶發修行的，本是揚州人氏，祖上也是讀書仕宦之家．因生了這位姑娘自小多病，所以帶發修行，今年才十八歲，法名妙玉．”", "揚州"},
		{"an introduction named too far on",
			"林之孝家的來回：“外有一個帶發修行的，本是揚州人氏．祖上也是讀書仕宦之家．因生了這位姑娘自小多病．所以帶發修行．法名妙玉．”", ""},
		{"a naming word that does not open a clause", "外有一個帶發修行的，本是揚州人氏，那丫頭法名妙玉．", ""},
		// Chinese subject left out until a naming clause.
		{"an age, then the naming", "外有一個帶發修行的，本是蘇州人氏．因生了這位姑娘自小多病，所以帶發修行，今年才三十歲，法名妙玉．", "三十歲"},
		{"the declared age, then the naming", "外有一個帶發修行的，本是蘇州人氏．因生了這位姑娘自小多病，所以帶發修行，今年才十八歲，法名妙玉．", ""},
		{"an introduction, an age and a naming", "還有一女，今年三十歲，乳名妙玉，生得肌骨瑩潤．", "三十歲"},
		{"an introduction, an origin and a naming", "還有一女，本是揚州人氏，乳名妙玉，生得肌骨瑩潤．", "揚州"},
		{"someone named before the value", "賈政還有一女，今年三十歲，乳名妙玉．", ""},
		{"a pronoun before the value, whose 有一 brings in someone else", "他還有一女，今年三十歲，乳名妙玉．", ""},
		{"the naming four clauses on", "還有一女，今年三十歲，生得好，讀過書，識得字，乳名妙玉．", ""},
		{"a naming of someone undeclared", "還有一女，今年三十歲，乳名英蓮．", ""},
		{"a naming in the next sentence", "還有一女，今年三十歲．乳名妙玉．", ""},
		{"someone brought in after the value", "那鄉紳今年三十歲，膝下只有一位小姐，乳名妙玉．", ""},
		{"a daughter born after the value", "本是揚州人氏，生得一女，乳名妙玉．", ""},
		// Chinese conversation topic.
		{"他 of the one person the talk is about",
			"馮紫英道：“雨村老先生是貴本家不是？”賈政道：“是。”馮紫英道：“是有服的還是無服的？”賈政道：“說也話長．他原籍是江西饒州府人，流寓到蘇州，甚不得意．”", "江西饒州府"},
		{"the place in another spelling of the same sounds",
			"馮紫英道：“雨村老先生是貴本家不是？”賈政道：“是。”馮紫英道：“是有服的還是無服的？”賈政道：“說也話長．他原籍是浙江胡州府人，流寓到蘇州，甚不得意．”", ""},
		{"a speaker in the scene is not whom 他 means",
			"迎春道：“我們又不大會詩，白起個號作什么？”探春道：“雖如此，也起個才是。”李紈道：“賈政呢？”寶釵道：“他原籍是江西饒州府人，就叫他`饒州'就完了。”", ""},
		{"an office of the one talked about",
			"馮紫英道：“雨村老先生是貴本家不是？”賈政道：“是。他如今做了知府。”", "知府"},
		{"an office of 他 with no one talked about", "賈政道：“是。他如今做了知府。”", ""},
		{"another's former self of the one talked about",
			"行者道：「沙僧那裏去了？」八戒道：「他本是天蓬元帥，如今去了。」", "天蓬元帥"},
		{"a former self with the copula far from 他",
			"行者道：「沙僧那裏去了？」八戒道：「他說那人本是天蓬元帥。」", ""},
		{"a measure of the one talked about",
			"行者道：「沙僧那裏去了？」八戒道：「他使的寶杖重五千斤，去不遠。」", "五千斤"},
		{"他兩個: two people", "馮紫英道：“雨村老先生是貴本家不是？”賈政道：“是。他兩個原籍是江西饒州府人。”", ""},
		{"他父親: a relative's value", "馮紫英道：“雨村老先生是貴本家不是？”賈政道：“是。他父親原籍是江西饒州府人。”", ""},
		{"the last question asks about 你",
			"馮紫英道：“雨村老先生是貴本家不是？”賈政道：“是。”馮紫英道：“你怎麼與他相識？”賈政道：“說也話長．他原籍是江西饒州府人。”", ""},
		{"the answer speaks of someone else first",
			"馮紫英道：“雨村老先生是貴本家不是？”賈政道：“那甄老先生，非凡人也。他原籍是江西饒州府人。”", ""},
		{"a long question that is not about one person",
			"馮紫英道：“雨村老先生和前日在吏部里見的那些人都是貴本家不是？”賈政道：“說也話長．他原籍是江西饒州府人。”", ""},
		{"the talk about two people",
			"馮紫英道：“雨村老先生和林如海是貴本家不是？”賈政道：“是。”馮紫英道：“是有服的還是無服的？”賈政道：“說也話長．他原籍是江西饒州府人，流寓到蘇州．”", ""},
		{"the speaker who named himself", "那老者道：「老拙叫做陳澄。我今年六十三歲，他今年五十八歲。」", ""},
		{"someone named whom no file declares", "那老者道：「這個是我舍弟，名喚陳清。陳澄是我。他今年五十八歲。」", ""},
		{"他 in narration", "雨村笑了，又喝了一杯酒．他原籍是江西饒州府人，流寓到蘇州．", ""},
		// Chinese first person.
		{"a humble I opening the sentence", "陳澄道：「老拙今年八十五歲，有兩個兒女。」", "八十五歲"},
		{"a humble I and an origin", "唐僧道：「貧僧原籍揚州，自幼出家。」", "揚州"},
		{"the speaker's declared origin", "唐僧道：「貧僧原籍海州，自幼出家。」", ""},
		{"a humble I bringing in a brother", "陳澄道：「老拙有個舍弟，今年八十五歲。」", ""},
		{"a humble I, then 他", "陳澄道：「老拙說他今年八十五歲。」", ""},
		{"a humble I in another sentence", "陳澄道：「老拙來了。那個今年八十五歲。」", ""},
		// English pronoun, one person of its gender in the sentence.
		{"he after a possessive of the same person", "Despite Count Bezúkhov’s enormous wealth, " + income, "fifty thousand rubles a year"},
		{"he after a possessive of another man", "Despite Prince Andrew’s enormous wealth, " + income, ""},
		{"he after a possessive with an undeclared relative", "Despite Count Bezúkhov’s brother’s enormous wealth, " + income, ""},
		{"a pronoun after a possessive only", "By Count Bezúkhov’s leave, since he had come into an income which was said to amount to fifty thousand rubles a year, the steward felt poorer.", ""},
		{"a pronoun with no name before it", "He had given Pierre an income of fifty thousand rubles a year.", ""},
		// English demonstrative description.
		{"this girl, the one girl named around", party + "“Do you see?... My doll...” was all Natásha managed to utter.", "eleven"},
		{"this girl, two girls named around", party + "“Do you see?... My doll...” was all Natásha and Sónya managed to utter.", ""},
		{"a girl, not this girl", "A black-eyed, wide-mouthed girl of eleven sat by the door. Natásha came in.", ""},
		{"this girl inside a clause", "“You spoil her, Ilyá,” she said. The count kissed this black-eyed girl of eleven.\n\n“Do you see?” was all Natásha managed to utter.", ""},
	} {
		got := strings.Join(found(k, tc.text, 40, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
