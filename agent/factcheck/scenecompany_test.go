package factcheck

import (
	"strings"
	"testing"
)

// sceneCompanyProject declares, in both languages, people dead or away
// beside people present, for the tests of this file.
func sceneCompanyProject(t *testing.T) *Knowledge {
	return bookProject(t, map[string]string{
		"entities/characters/youer.md":   "---\nname: 尤二姐\nkind: character\nfacts: {status: dead}\n---\n",
		"entities/characters/daiyu.md":   "---\nname: 林黛玉\naliases: [黛玉]\nkind: character\nfacts: {status: dead}\n---\n",
		"entities/characters/jiamu.md":   "---\nname: 賈母\nkind: character\nfacts: {status: dead}\n---\n",
		"entities/characters/qingwen.md": "---\nname: 晴雯\nkind: character\nfacts: {status: dead}\n---\n",
		"entities/characters/fengjie.md": "---\nname: 王熙鳳\naliases: [鳳姐]\nkind: character\n---\n",
		"entities/characters/pinger.md":  "---\nname: 平兒\nkind: character\n---\n",
		"entities/characters/xueyima.md": "---\nname: 薛姨媽\nkind: character\n---\n",
		"entities/characters/baochai.md": "---\nname: 薛寶釵\naliases: [寶釵]\nkind: character\n---\n",
		"entities/characters/baoqin.md":  "---\nname: 薛寶琴\naliases: [寶琴]\nkind: character\n---\n",
		"entities/characters/wukong.md":  "---\nname: 孫悟空\naliases: [齊天大聖]\nkind: character\nfacts: {status: away, location: 五行山}\n---\n",
		"entities/characters/baigu.md":   "---\nname: 白骨夫人\nkind: character\nfacts: {status: dead}\n---\n",
		"entities/characters/huli.md":    "---\nname: 虎力大仙\nkind: character\nfacts: {status: dead}\n---\n",
		"entities/characters/taizong.md": "---\nname: 唐太宗\nkind: character\nfacts: {status: away, location: 長安}\n---\n",
		"entities/characters/bingley.md": "---\nname: Mr. Bingley\naliases: [Bingley]\nkind: character\nfacts: {status: away, location: London}\n---\n",
		"entities/characters/lydia.md":   "---\nname: Lydia Bennet\naliases: [Lydia]\nkind: character\nfacts: {status: away, location: Brighton}\n---\n",
		"entities/characters/wickham.md": "---\nname: Mr. Wickham\naliases: [Wickham]\nkind: character\nfacts: {status: away, location: Brighton}\n---\n",
		"entities/characters/jane.md":    "---\nname: Jane Bennet\naliases: [Jane]\nkind: character\n---\n",
		"entities/characters/andrew.md":  "---\nname: Prince Andrew\nkind: character\nfacts: {status: dead}\n---\n",
		"entities/characters/prince.md":  "---\nname: Prince Nicholas Bolkónski\naliases: [the old prince]\nkind: character\nfacts: {status: dead}\n---\n",
		"entities/characters/lise.md":    "---\nname: Lise\naliases: [the little princess]\nkind: character\nfacts: {status: dead}\n---\n",
	})
}

func checkStates(t *testing.T, k *Knowledge, cases []struct{ text, want string }) {
	t.Helper()
	for _, tc := range cases {
		if got := strings.Join(found(k, tc.text, 60, TypeState), " "); got != tc.want {
			t.Errorf("%s: state findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestCompanionOfASubject: a name joined by 同, 與, 和 to a subject shares
// what the subject does on the spot, be it a tag of speech with its
// manner (老魔與白骨夫人喜道), a place and an act (鴛鴦同晴雯在旁邊瞧著),
// the seat of honour or a crowding round (同賈母上坐, 嬪妃和唐太宗簇擁著);
// a likeness (和黛玉一樣) or a talk about them is none.
func TestCompanionOfASubject(t *testing.T) {
	checkStates(t, sceneCompanyProject(t), []struct{ text, want string }{
		{"老魔與白骨夫人喜道：「拿來我看。」", "白骨夫人"},
		{"賈寶玉見是甄太太同賈母上坐，便先請過了安。", "賈母"},
		{"少時，皇后、嬪妃和唐太宗簇擁著公主出宮，一齊迎接。", "唐太宗"},
		{"寶玉同黛玉冷笑道：「你們只管去。」", "黛玉"},
		{"襲人的性情和晴雯一樣，也是個爽快的。", ""},
		{"寶玉和黛玉的事，眾人都不敢提。", ""},
	})
}

// TestNameAtASpotActing: 在 and a bare locative (前, 後, 旁), then an act,
// put the subject there (虎力大仙在前引路); 在前 as a time (在前日) is
// no place, and no act follows it.
func TestNameAtASpotActing(t *testing.T) {
	checkStates(t, sceneCompanyProject(t), []struct{ text, want string }{
		{"眾信人等喧喧嚷嚷，虎力大仙在前引路，直抬至廟裏。", "虎力大仙"},
		{"寶玉出來，晴雯在後跟著。", "晴雯"},
		{"寶玉想起晴雯在前日的話，不覺傷心。", ""},
	})
}

// TestListsOfThoseThere: a list of people closed by a count (三人, 幾個)
// or a group word (都) is one subject, its items joined by commas and 和
// alike, after the storyteller's 這里 too (這里鳳姐和平兒，尤二姐三人猜
// 疑); the narrator's 只有 lists who is there, whatever follows (家里只有
// 薛姨媽，寶釵，寶琴和林黛玉几個); those called together by a verb of
// gathering are there (喚聚諸佛、…、齊天大聖、比丘僧尼等眾). Recalled (想起)
// they are not.
func TestListsOfThoseThere(t *testing.T) {
	checkStates(t, sceneCompanyProject(t), []struct{ text, want string }{
		{"這里鳳姐和平兒，尤二姐三人猜疑，終是誰人走的風聲。", "尤二姐"},
		{"那時賈璉出門，家里只有邢岫烟，寶釵，李紋和林黛玉几個，何曾見過個陣仗。", "林黛玉"},
		{"家里只有薛姨媽，寶釵，寶琴和林黛玉几個，何曾見過個陣仗。", "林黛玉"},
		{"一日，喚聚諸佛、阿羅、揭諦、菩薩、金剛、齊天大聖、比丘僧尼等眾曰：「今值孟秋望日。」", "齊天大聖"},
		{"這里晴雯和平兒，鳳姐，賈母都笑了．", "晴雯 賈母"},
		{"寶玉想起鳳姐和平兒，尤二姐三人當日的話。", ""},
	})
}

// TestEnglishCompanyKeptUpToTheScene: a posture kept up to the moment of
// the scene ("had been sitting with them", "who had been waiting on the
// bank"), the company one keeps as a habit of the time ("who often sat
// with them"), what one is doing where the sentence is ("the house,
// where the old prince was still pacing his study") and a walk being
// begun ("preparing to walk with Lydia") put their subject there; a
// death at the place, a walk wished for and a habit recalled do not.
func TestEnglishCompanyKeptUpToTheScene(t *testing.T) {
	checkStates(t, sceneCompanyProject(t), []struct{ text, want string }{
		{"Mr. Darcy came, but Colonel Fitzwilliam and Mr. Bingley had been sitting with them at least an hour.", "Mr. Bingley"},
		{"He gave his hand to the little princess, who had been waiting on the bank, and looked up at the sky.", "the little princess"},
		{"Only the old countess, and Prince Andrew, who often sat with them, had realized it.", "Prince Andrew"},
		{"Stillness reigned over the house, where the old prince was still pacing his study.", "the old prince"},
		{"They had just been preparing to walk with Lydia as the letters came in.", "Lydia"},
		{"It was the room where the old prince had died.", ""},
		{"She wished to walk with Lydia.", ""},
		{"Natásha thought of Prince Andrew, who often sat with them.", ""},
	})
}

// TestEmphaticDid: an emphatic "did" before a name and a bare verb of the
// scene makes its owner act there ("more than once during dinner did
// Lydia say voluntarily to Elizabeth"); denied or asked ("nor did Lydia
// come", "why did Lydia go?") it does not.
func TestEmphaticDid(t *testing.T) {
	checkStates(t, sceneCompanyProject(t), []struct{ text, want string }{
		{"Their party was large; and more than once during dinner did Lydia say voluntarily to Elizabeth that she was glad.", "Lydia"},
		{"Jane waited all evening. Nor did Lydia come to the ball.", ""},
		{"Jane wondered. Why did Lydia go away?", ""},
		{"Not once during dinner did Lydia look at him.", ""},
	})
}

// TestDoneWithSomeone: 和, 與, 同 or 跟 after an adverb opens a verb
// phrase, and what is done with someone is done where they are, whatever
// the verb (正和晴雯盤算, 忙與晴雯束裙整袂); a likeness (又和晴雯一樣),
// a possessive (也和晴雯的性情相近) or a memory (想起當日也和晴雯頑笑)
// is none.
func TestDoneWithSomeone(t *testing.T) {
	checkStates(t, sceneCompanyProject(t), []struct{ text, want string }{
		{"寶玉听了這諭，喜的無可不可．正和晴雯盤算，要這個，弄那個．", "晴雯"},
		{"鳳姐平兒等忙與晴雯束裙整袂，口內喝著。", "晴雯"},
		{"襲人又和晴雯一樣，也是個爽快的。", ""},
		{"寶玉也和晴雯的性情相近。", ""},
		{"寶玉想起當日也和晴雯頑笑。", ""},
	})
}
