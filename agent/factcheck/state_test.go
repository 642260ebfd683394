package factcheck

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestAbsence(t *testing.T) {
	tests := []struct {
		status, why string
		absent      bool
	}{
		{"away", "away", true}, {"dead", "dead", true}, {"away (brighton)", "away", true}, {"dead since 1810", "dead", true},
		{"in prison", "imprisoned", true}, {"in prison at newgate", "imprisoned", true}, {"已于八月去世", "dead", true}, {"死", "dead", true},
		{"married", "", false}, {"unmarried", "", false}, {"alive", "", false}, {"在家", "", false}, {"", "", false},
	}
	for _, tt := range tests {
		why, absent := absence(tt.status)
		if why != tt.why || absent != tt.absent {
			t.Errorf("absence(%q) = %q, %v; want %q, %v", tt.status, why, absent, tt.why, tt.absent)
		}
	}
}

// TestScenePresenceConstructions: the ways a text puts a dead or away
// character into its scene, in both languages, beside the ways it only
// talks about them. Each case gives the number of state findings.
func TestScenePresenceConstructions(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/qinzhong.md":  "---\nname: 秦鐘\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/youer.md":     "---\nname: 尤二姐\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/sha.md":       "---\nname: 沙和尚\nkind: character\nfacts: { status: away, location: 流沙河 }\n---\n",
		"entities/characters/jiamu.md":     "---\nname: 賈母\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/wangfuren.md": "---\nname: 王夫人\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/daiyu.md":     "---\nname: 黛玉\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/baochai.md":   "---\nname: 寶釵\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/baoyu.md":     "---\nname: 寶玉\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/nicholas.md":  "---\nname: Nicholas Rostóv\naliases: [Nicholas, Rostóv]\nkind: character\nfacts: { status: away, location: the army }\n---\n",
		"entities/characters/andrew.md":    "---\nname: Prince Andrew\nkind: character\nfacts: { status: away, location: the army }\n---\n",
		"entities/characters/petya.md":     "---\nname: Pétya\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/natasha.md":   "---\nname: Natásha\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/count.md":     "---\nname: Count Ilyá Rostóv\naliases: [the old count]\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/erlang.md":    "---\nname: 二郎神\naliases: [二郎, 顯聖二郎神]\nkind: character\nfacts: { status: away, location: 灌江口 }\n---\n",
		"entities/characters/wukong.md":    "---\nname: 孫悟空\naliases: [悟空]\nkind: character\nfacts: { status: away, location: 花果山 }\n---\n",
		"entities/characters/fengjie.md":   "---\nname: 王熙鳳\naliases: [鳳姐]\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/karataev.md":  "---\nname: Platón Karatáev\naliases: [Karatáev]\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/puti.md":      "---\nname: 須菩提祖師\naliases: [祖師]\nkind: character\nfacts: { status: away, location: 靈臺方寸山 }\n---\n",
	})
	for _, tc := range []struct {
		text string
		want int
	}{
		{"秦鐘和眾清客都道：「好山！」", 1},                                                         // the first of joined subjects
		{"眾人看時，尤二姐倒也在座，只寶釵不在。", 1},                                                    // at the table, adverbs between
		{"Pétya, who sat by the samovar with his work, kept glancing at Natásha.", 1}, // a relative clause of the subject
		{"Natásha thought of Pétya, who sat by the samovar every evening.", 0},        // of someone named as an object
		{"只言賈母和王夫人提起甄寶玉。", 1},                                                         // the same with a name
		{"尤二姐在旁听說，便說：「你听見誰說？」", 1},                                                    // beside the speakers
		{"孫大聖停雲慢步，沙和尚隨後緊跟。", 1},                                                       // a verb of motion
		// The object of 將 or 把 and a verb of seizing or binding is at
		// hand; not its owner's things, nor one only spoken of.
		{"那怪把唐僧綑住，又將沙和尚也綑在一處。", 1},
		{"那怪把沙和尚拿了，押進洞來。", 1},
		{"那怪把沙和尚的禪杖拿了去。", 0},
		{"那怪將沙和尚說了一遍。", 0},
		{"眾人想起秦鐘和寶玉的舊事。", 0},  // remembered
		{"可怜寶釵黛玉寶玉等正在沒法。", 1}, // a list closed by 等
		{"寶釵想起寶玉黛玉的詩來。", 0},   // a list that is an object
		{"“It was my fault, mon père,” interceded Prince Andrew, with a blush.", 1},
		{"“It was his fault,” she said of Prince Andrew.", 0},
		{"At that table were his mother, his wife, Natásha, Pétya, and old Michael Ivánovich.", 1},
		{"She thought of Natásha, Pétya, and the others.", 0},
		{"The countess was sitting with the old count, playing grand-patience.", 1},
		{"The countess had often quarrelled with the old count.", 0},
		{"Little Nicholas cried because his heart was rent.", 0},        // a child named after him
		{"She and all the Rostóv family welcomed him.", 0},              // the family
		{"Anatole was in the provinces; Prince Andrew was abroad.", 0},  // elsewhere
		{"Until Prince Andrew settled in Boguchárovo, nobody came.", 0}, // a time before
		{"Nicholas laughed and took the letter.", 1},
		// The past retold: a flashback and verse name the absent as
		// actors of what happened before the scene.
		{"行者按落雲頭觀看。只因他鬧了天宮，此山被顯聖二郎神率領那梅山七弟兄，放火燒壞了。", 0},
		{"惡鬥一場無勝敗，觀音推薦二郎來。\n兩家對敵分高下，他有梅山兄弟儕。", 0},
		{"天羅地網漫山布，齊舉刀兵大會垓。  惡鬥一場無勝敗，觀音推薦二郎來。", 0}, // the couplet before
		{"那大聖回頭看時，二郎神率領眾將趕來。", 1},                 // the scene itself
		// A title shared by many (祖師) means the one named last; with no
		// fuller name before it, it proves nobody's presence.
		{"那太子奉旨，前來北天門，見真武。那祖師隨將旗付太子。", 0},
		{"須菩提祖師走進北天門，那祖師隨將旗付太子。", 2},
		// The dead are seen in dreams and visions; not after waking, nor
		// after talk in one's sleep.
		{"那知寶玉的魂魄早已出了竅了。只見尤二姐走來說道：「你來了。」", 0},
		{"寶釵道：「我想是說夢話。」尤二姐走來說道：「奶奶。」", 1},
		{"寶玉做了一夢，醒來時，尤二姐走來說道：「你來了。」", 1},
		{"That night he dreamed that Pétya came in and laughed.", 0},
		// A disposal marker (將, 把) after a name, outside verse; a
		// negation before the verb; an appositive before a progressive.
		{"獃子去了，悟空將酒亦一飲而乾。", 1},
		{"十萬天兵難近身，灌江小聖把兵揚。", 0},
		{"鳳姐不放心，也跟著來。", 1},
		{"Karatáev, the Russian soldier the Frenchman had pushed away, was sitting by the fire.", 1},
		{"Karatáev, the Russian soldier, was a good man.", 0},
		{"She went out into the porch; Dron, Dunyásha, the nurse, and the old count following her.", 1},
		{"She remembered the porch and the old count following her.", 0},
		// Verbs of carrying, adverbs before the verb, a step forward; a
		// seeing verb before a demonstrative.
		{"三藏牽著馬，孫悟空挑著行李，隨後而行。", 1},
		{"悟空暗笑道：「這廝好黑。」", 1},
		{"那國王跌下龍床，幸有悟空上前扶起。", 1},
		{"那國王跌下龍床，又見那悟空上前扶起。", 0},
		// A quotation the edition never closes ends with its first
		// sentence; a verb of speech not listed; a companion's list.
		{"興儿笑說：“快回二奶奶去，大奶奶來了．尤二姐陪笑迎上來，張口便叫：“姐姐下降。”", 1},
		{"賈環急忙道：“我也在這里嗎？”尤二姐啐道：“糊涂東西！”", 1},
		{"只見王夫人正和尤二姐寶釵眾姊妹商議還席。", 1},
		{"賈璉收拾了行裝，尤二姐寶釵等不免叮嚀了好些話。", 1},
		// A bare list that opens its clause; a bearing not shown; whom
		// one leaves; the agents of a passive; the object of a gaze.
		{"寶玉睡不著．尤二姐寶釵才伏侍他睡下。", 1},
		{"王夫人叫尤二姐寶釵來。", 0},
		{"Even Nicholas did not look perfectly calm.", 1},
		{"Nicholas did not come to dinner.", 0},
		{"Nicholas left them soon after breakfast.", 1},
		{"Nicholas left for the army in the spring.", 0},
		{"In the dining-room they were soon joined by Natásha and Nicholas.", 1},
		{"He slowly regarded his sister and Nicholas.", 1},
		{"He thought of his sister and Nicholas.", 0},
		// An alias that opens a sentence; a participle's phrase before
		// the verb; the next verb of the same subject after "was there".
		{"The old count, laughing till he wept, clapped his hands.", 1},
		{"Pétya, sitting at the foot of the bed, looked up at him.", 1},
		{"Pétya, sitting at the foot of the bed, and the others.", 0},
		{"Nicholas was there too, and sat opposite them at dinner.", 1},
		{"Nicholas was there in the spring, they said.", 0},
		// Beside the others after an adverb; a move from a place.
		{"請了三藏等，共入東閣赴宴，秦鐘也在席上相陪。", 1},
		{"眾女童一齊跪下，秦鐘也從洞裏跑出來。", 1},
		{"眾人說秦鐘從前住在這裏。", 0},
		// Verbs of the spot: speaking with someone, resenting, arming.
		{"那牛王正與秦鐘備言其事。", 1},
		{"秦鐘懷恨，沒奈何披掛了。", 1},
		{"眾人聞秦鐘之言，都笑了。", 0},
		// A subject after its verb; a turn to someone away (not the
		// dead, whose names children bear); a namesake with a surname.
		{"Beside her sat Nicholas, silent and pale.", 1},
		{"Among the guests was Nicholas.", 1},
		{"In those days Nicholas was abroad.", 0},
		{"Natásha turned to Nicholas and asked him to dance.", 1},
		{"Natásha beckoned to Pétya to follow her.", 0},
		{"He beckoned to Nicholas Kaysárov, his adjutant’s brother, who laughed.", 0},
		// The narrator shows someone acting; someone standing there; one
		// named for a group; 同 and 大 before the verb.
		{"只見秦鐘走上殿來。", 1},
		{"旁邊立著秦鐘。", 1},
		{"秦鐘等三人一齊上前。", 1},
		{"王夫人與秦鐘同坐。", 1},
		{"忽然秦鐘大喝一聲。", 1},
		{"只見秦鐘的舊物。", 0},
		{"秦鐘等人的事都說了。", 0},
		// Whom one sees arrive.
		{"寶玉正在看書，見是王夫人和秦鐘，欠身讓坐。", 1},
		{"寶玉看書，想是秦鐘的。", 0},
		// One of a list of any nouns after a companion word, someone
		// acting after it; the same list remembered.
		{"那國王換了關文，同皇后嬪妃、秦鐘、兩班文武，送出朝門。", 1},
		{"那國王同秦鐘、兩班文武，送出朝門。", 1},
		{"國王想起皇后嬪妃、秦鐘、兩班文武，哭了一場。", 0},
		// A scene set where the away character is: the paragraph names
		// the end of the place (方寸山 of 靈臺方寸山).
		{"大聖徑至方寸山前。只見須菩提祖師走出洞來。", 0},
		{"大聖徑至花果山前。只見須菩提祖師走出洞來。", 1},
		// Where they are, then what they do; whom one sees come out of
		// somewhere or stand by; whom a thing is handed to.
		{"寶玉道：“去罷。”秦鐘在屋里說：“好。”", 1},
		{"秦鐘在時常說起這話。", 0},
		{"忽見秦鐘從里間走出來，也不勸。", 1},
		{"只見秦鐘在旁袖手看著。", 1},
		{"行者接住，轉手遞與秦鐘。", 1},
		{"行者寫了一封書，寄與秦鐘。", 0},
		// A list closed by a group word after any nouns; a name that
		// opens its clause before an adverb of sequence, and any verb.
		{"秦鐘、鹿力大仙等也隨在後面。", 1},
		{"叫秦鐘、鹿力大仙等來。", 0},
		{"說著，秦鐘也掣出刀來。", 1},
		{"眾人說：秦鐘也是個好的。", 0},
		// The demons a dying woman sees are a vision.
		{"鳳姐此時只求速死，心里一想，邪魔悉至．只見尤二姐走來。", 0},
		// Seen doing something; an arrival told subject last; one of a
		// plural subject that is sitting.
		{"There he found Pétya bending over the cradle.", 1},
		{"He found Pétya’s letter on the table.", 0},
		{"She saw Pétya in the spring, before the war.", 0},
		{"In came Pétya, full of some nonsense he had heard.", 1},
		{"In those days Pétya was a boy.", 0},
		{"As he, Pétya and the ladies of the family were sitting together, a carriage came.", 1},
		{"She thought that he, Pétya and the ladies of the family were kind.", 0},
		// A return ends an absence (not death); a letter is written from
		// afar, but a letter held is held in the scene.
		{"Nicholas returned most punctually on the Monday.", 0},
		{"Pétya returned most punctually on the Monday.", 1},
		{"Nicholas came back from the regiment and laughed.", 0},
		{"Nicholas added, in his letter, that they might expect him.", 0},
		{"Nicholas wrote that he was well.", 0},
		{"Nicholas laughed and took the letter from the table.", 1},
		{"沙和尚回來了，眾人都笑。", 0},
		// The departure an away status begins with, told or recalled;
		// what someone did since when the scene opens.
		{"卻說寶玉因近日沙和尚回去，剩得自己孤悽。", 0},
		{"卻說寶玉因近日秦鐘回去，剩得自己孤悽。", 1},
		{"沙和尚已動身往長安去了。", 0},
		{"話說寶玉自沙和尚送唐僧往西天去后，心中無趣。", 0},
		{"話說寶玉見沙和尚送唐僧往西天去，心中無趣。", 1},
		{"自從沙和尚搬進園來以後，眾人都笑。", 0},
		{"自沙和尚送了唐僧，眾人都笑。", 1},
		{"秦鐘回來了，眾人都笑。", 1},
		{"沙和尚來信說：「師父好。」", 0},
		// A place of the speaker (在下面, 在一旁); a disposal marker's
		// object with 的; a subject, a phrase of place, then its verb; a
		// place that opens an inverted sentence.
		{"寶玉道：“好。”秦鐘在下面笑道：“姑娘們只管樂。”", 1},
		{"秦鐘在一旁急得只是跺腳。", 1},
		{"秦鐘早把他的書匣子收拾好了。", 1},
		{"秦鐘送來的書匣子還在。", 0},
		{"Nicholas, from the foot of the table, drily begged her to stop.", 1},
		{"She hoped to see him, Nicholas, in that last dim, indistinctly outlined square.", 0},
		{"At the other end of the table sat Nicholas, talking to Kitty.", 1},
		// A title before the family name the away man is called by is
		// another of his family's (Count Rostóv, his father).
		{"At the end of January old Count Rostóv went to Moscow with Natásha.", 0},
		{"At the end of January Rostóv went to Moscow with Natásha.", 1},
	} {
		wantStates(t, k, tc.text, tc.want)
	}
}

// TestAwayWhereTheSceneIs: an away character acting where the narration
// of the paragraph has just set the scene, at the place declared for
// them by any name of its entity file, is no finding; the place named in
// speech, or another place, sets no scene.
func TestAwayWhereTheSceneIs(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/charlotte.md": "---\nname: Charlotte Lucas\naliases: [Charlotte, Mrs. Collins]\nkind: character\nfacts: { status: away, location: Hunsford }\n---\n",
		"entities/characters/sha.md":       "---\nname: 沙和尚\nkind: character\nfacts: { status: away, location: 流沙河 }\n---\n",
		"entities/locations/hunsford.md":   "---\nname: Hunsford\naliases: [the Parsonage, Hunsford Parsonage]\nkind: location\n---\n",
		"entities/locations/liusha.md":     "---\nname: 流沙河\naliases: [八百流沙界]\nkind: location\n---\n",
	})
	for _, tc := range []struct {
		text string
		want int
	}{
		{"Why Mr. Darcy came so often to the Parsonage was hard to understand. Mrs. Collins knew not what to make of him.", 0},
		{"Why Mr. Darcy came so often to Longbourn was hard to understand. Mrs. Collins knew not what to make of him.", 1},
		{"“I came to the Parsonage,” said Mr. Darcy.\n\nMrs. Collins knew not what to make of him.", 1},
		// A place only named in another paragraph sets no scene; one the
		// narration arrives at does (sceneplace_test.go).
		{"Mr. Darcy spoke of the Parsonage.\n\nMrs. Collins knew not what to make of him.", 1},
		{"唐僧到了八百流沙界，沙和尚笑道：「師父來了。」", 0},
		{"唐僧到了高老莊，沙和尚笑道：「師父來了。」", 1},
	} {
		wantStates(t, k, tc.text, tc.want)
	}
}

// TestAPassageOfAChapterThatFollowsTheCharacter: a passage checked alone
// as part of a chapter is judged with the whole chapter of the manuscript
// around it. Where the chapter follows the away character (she acts in
// many of its sentences), the passage is set where she is; where the
// chapter does not, her acting in the passage is a finding.
func TestAPassageOfAChapterThatFollowsTheCharacter(t *testing.T) {
	follows := strings.Repeat("Elizabeth walked in the grove. Elizabeth smiled at the view. Elizabeth said nothing. ", 4)
	home := strings.Repeat("Jane walked in the garden. Mrs. Bennet talked of Netherfield. Jane smiled. ", 4)
	k := bookProject(t, map[string]string{
		"entities/characters/elizabeth.md": "---\nname: Elizabeth Bennet\naliases: [Elizabeth]\nkind: character\nfacts: { status: away, location: Hunsford }\n---\n",
		"entities/characters/jane.md":      "---\nname: Jane Bennet\naliases: [Jane]\nkind: character\nfacts: { status: present }\n---\n",
		"manuscript/chapter-01/content.md": "Chapter 1\n\n" + follows,
		"manuscript/chapter-02/content.md": "Chapter 2\n\n" + home,
	})
	passage := "The morning was fine. Elizabeth laughed and took the letter."
	if n := len(found(k, passage, 1, TypeState)); n != 0 {
		t.Errorf("a passage of chapter 1, which follows Elizabeth: %d state findings, want 0", n)
	}
	if n := len(found(k, passage, 2, TypeState)); n != 1 {
		t.Errorf("the same passage as part of chapter 2, set at home: %d state findings, want 1", n)
	}
}

// TestAChapterThatFollowsTheCharacterInItsOtherHalf: a chapter whose
// second half follows the away character (行者 at his mountain) does not
// put him into a passage of its first half, which the chapter sets
// elsewhere; a passage of the second half is where he is.
func TestAChapterThatFollowsTheCharacterInItsOtherHalf(t *testing.T) {
	cave := strings.Repeat("那怪坐在洞中。沙僧被綁在柱上。八戒在外叫門。", 20)
	mountain := strings.Repeat("行者坐在石上。行者叫群猴來。行者笑了。", 20)
	k := bookProject(t, map[string]string{
		"entities/characters/wukong.md":    "---\nname: 孫悟空\naliases: [行者]\nkind: character\nfacts: { status: away, location: 花果山 }\n---\n",
		"entities/characters/bajie.md":     "---\nname: 豬八戒\naliases: [八戒]\nkind: character\nfacts: { status: present }\n---\n",
		"manuscript/chapter-01/content.md": "第一回\n\n" + cave + "\n\n" + mountain + "\n",
	})
	first := strings.Repeat("那怪坐在洞中。沙僧被綁在柱上。八戒在外叫門。", 3) + "只見行者在旁袖手看著。"
	if got := found(k, first, 1, TypeState); len(got) != 1 {
		t.Errorf("a passage of the half set in the cave: state findings %q, want one", got)
	}
	second := strings.Repeat("行者坐在石上。行者叫群猴來。行者笑了。", 3)
	if got := found(k, second, 1, TypeState); len(got) != 0 {
		t.Errorf("a passage of the half that follows 行者: state findings %q, want none", got)
	}
}

// TestInVisionFromMarksAsFromTheWindow: the dream marks found once per
// check give inVision's answer that reading the window before each
// offset gives, at every offset of texts with dreams, waking, 說夢話
// (話 at the offset itself too), capitals and a window edge inside a
// long dream, dream words in the title of a play (《…陰魂陣》, no
// dream); texts whose lower case changes a character's length, or
// invalid UTF-8, are read from the window.
func TestInVisionFromMarksAsFromTheWindow(t *testing.T) {
	k := bookProject(t, map[string]string{"entities/characters/you.md": "---\nname: 尤二姐\nkind: character\n---\n"})
	long := strings.Repeat("寶玉笑道。", 700)
	for _, text := range []string{
		"寶玉做了一夢，夢中尤二姐走來說道：「你來了。」寶玉醒來，尤二姐又來。",
		"寶釵道：「我想是說夢話。」尤二姐走來說道：「奶奶。」夢話。夢",
		"That night he had a DREAM: Pétya came in. He awoke; Pétya came in. A Vision, a ghost.",
		"夢" + long + "尤二姐來了。" + long + "尤二姐來了。醒",
		"寶玉魂魄出竅，入了幻境。KELVIN Kelvin dream İstanbul 尤二姐",
		"夢\xff中尤二姐來了。",
		"唱的是《黃伯央大擺陰魂陣》等戲文，尤二姐來了。《夢》尤二姐來了。夢中《書》尤二姐來了。《夢尤二姐來了。》夢",
	} {
		d := k.analyze(text, 5)
		for p := 0; p <= len(text); p++ {
			if p < len(text) && !utf8.RuneStart(text[p]) {
				continue
			}
			from := max(0, p-visionWindow)
			for from > 0 && !utf8.RuneStart(text[from]) {
				from--
			}
			if got, want := d.inVision(p), d.inVisionSlow(from, p); got != want {
				t.Fatalf("%.30q… at %d: inVision %v, from the window %v", text, p, got, want)
			}
		}
	}
}

// TestScenePresenceListsSeeingAndPlacing: more ways a text puts an away
// or dead character into its scene (a list joined by commas whose other
// items need not be declared, coordinated subjects, someone seen where
// they are, someone placed at a table, sent for, left to finish their
// tea, the first out to meet the others), each beside talk about the
// same person (memory, report, a list after a verb of thinking or
// saying), which is never a finding.
func TestScenePresenceListsSeeingAndPlacing(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/qinshi.md":   "---\nname: 秦可卿\naliases: [秦氏]\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/fengjie.md":  "---\nname: 王熙鳳\naliases: [鳳姐兒, 鳳姐]\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/daiyu.md":    "---\nname: 林黛玉\naliases: [黛玉]\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/xiangyun.md": "---\nname: 史湘雲\naliases: [湘云, 湘雲]\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/baoyu.md":    "---\nname: 賈寶玉\naliases: [寶玉]\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/jiazheng.md": "---\nname: 賈政\nkind: character\nfacts: { status: away, location: 學差任上 }\n---\n",
		"entities/characters/yingchun.md": "---\nname: 迎春\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/niu.md":      "---\nname: 牛魔王\naliases: [牛王]\nkind: character\nfacts: { status: away, location: 積雷山摩雲洞 }\n---\n",
		"entities/characters/luocha.md":   "---\nname: 羅剎女\naliases: [羅剎]\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/redboy.md":   "---\nname: 紅孩兒\nkind: character\nfacts: { status: away, location: 南海落伽山 }\n---\n",
		"entities/characters/tangwang.md": "---\nname: 唐太宗\naliases: [唐王]\nkind: character\nfacts: { status: away, location: 長安 }\n---\n",
		"entities/characters/collins.md":  "---\nname: William Collins\naliases: [Mr. Collins]\nkind: character\nfacts: { status: away, location: Hunsford }\n---\n",
		"entities/characters/lydia.md":    "---\nname: Lydia Bennet\naliases: [Lydia]\nkind: character\nfacts: { status: away, location: Brighton }\n---\n",
		"entities/characters/karataev.md": "---\nname: Platón Karatáev\naliases: [Karatáev]\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/lise.md":     "---\nname: Lise Bolkónskaya\naliases: [the little princess]\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/petya.md":    "---\nname: Pétya Rostóv\naliases: [Pétya]\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/pierre.md":   "---\nname: Pierre\nkind: character\nfacts: { status: present }\n---\n",
	})
	for _, tc := range []struct {
		text string
		want int
	}{
		// A list joined by commas, its other items undeclared, that
		// shares something out or acts; the same names after a verb of
		// thinking, or a list of two.
		{"賈母坐一乘八人大轎，李氏，鳳姐兒，秦氏，薛姨媽每人一乘四人轎。", 1},
		{"寶玉想起李氏，鳳姐兒，秦氏，薛姨媽每人的好處。", 0},
		{"賈母想起李氏，鳳姐兒，秦氏等人，不覺傷心。", 0},
		{"說起來，鳳姐兒，秦氏二人的事，誰不知道。", 0},
		// Companions: a list closed by 等 with an undeclared name
		// before it; a joined subject that wins and goes home; one more
		// name joined after 等, then boarding.
		{"寶玉但不与黛玉湘云寶琴等同席，便在賈母身旁坐著。", 1},
		{"寶玉夢見与黛玉湘云寶琴等說話。", 0},
		{"這羅剎與牛魔王得勝回歸。", 1},
		{"羅剎說起與牛魔王的舊事。", 0},
		{"然后賈政、迎春姊妹等并寶玉上了那只，隨后跟來。", 1},
		{"寶玉想起賈政、迎春姊妹等并寶玉上了那只船的事。", 0},
		// Seen where they are; seen in a dream; an adverb of degree
		// before the verb.
		{"羅剎女方跑進去，見紅孩兒也在洞裏，正告訴他。", 1},
		{"羅剎女夢見紅孩兒也在洞裏，醒來大哭。", 0},
		{"羅剎女聽說紅孩兒在南海，心中大怒。", 0},
		{"三藏道：「一言難盡。」唐王十分歡喜，即著典膳官備素齋管待。", 1},
		{"三藏道：「當年唐王十分歡喜。」", 0},
		// Placed at a table; sent for; left to finish their tea; the
		// first out to meet them; would not leave a room.
		{"Mrs. Bennet, to keep the table even, put Mr. Collins on her other side.", 1},
		{"Mrs. Bennet could not put Mr. Collins out of her head.", 0},
		{"Pierre generally kept him there, and would send for Karatáev as well.", 1},
		{"Pierre often thought of Karatáev as well.", 0},
		{"Pierre spoke for Karatáev, whom he remembered.", 0},
		{"Then, leaving “God’s folk” and the little princess to finish their tea, Princess Mary took Pierre away.", 1},
		{"Princess Mary remembered leaving the little princess to the doctors.", 0},
		{"Lydia was the first out upon the steps to meet them.", 1},
		{"Lydia was the first of them to marry, she said.", 0},
		{"Pétya would not leave his mother’s room.", 1},
		{"Pierre remembered that Pétya would never leave them.", 0},
	} {
		wantStates(t, k, tc.text, tc.want)
	}
}

// TestScenePresenceByHandAndAddress: someone whose hand is held, who is
// spoken to, seen doing something, doing something now (正在), taken by
// the arm, handed something, shaken hands with or sat beside; each beside
// the same name in talk, a dream or a letter.
func TestScenePresenceByHandAndAddress(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/daiyu.md":    "---\nname: 林黛玉\naliases: [黛玉]\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/baoyu.md":    "---\nname: 賈寶玉\naliases: [寶玉]\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/jiazheng.md": "---\nname: 賈政\nkind: character\nfacts: { status: away, location: 學差任上 }\n---\n",
		"entities/characters/lydia.md":    "---\nname: Lydia Bennet\naliases: [Lydia]\nkind: character\nfacts: { status: away, location: Brighton }\n---\n",
		"entities/characters/eliz.md":     "---\nname: Elizabeth Bennet\naliases: [Elizabeth]\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/petya.md":    "---\nname: Pétya Rostóv\naliases: [Pétya]\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/natasha.md":  "---\nname: Natásha\nkind: character\nfacts: { status: present }\n---\n",
	})
	for _, tc := range []struct {
		text string
		want int
	}{
		{"寶玉拉著黛玉的手說話。", 1},
		{"寶玉攜了黛玉的手，一同進去。", 1},
		{"寶玉想起那日拉著黛玉的手說話。", 0},
		{"寶玉說起當日向黛玉笑道的話。", 0},
		{"寶玉拉著黛玉的丫頭問話。", 0},
		{"寶玉向黛玉笑道：「妹妹好。」", 1},
		{"寶玉對黛玉說：「你看。」", 1},
		{"寶玉向黛玉靈前哭道：「妹妹。」", 0},
		{"寶玉對人說起黛玉的詩。", 0},
		{"眾人見黛玉來了，都起身讓坐。", 1},
		{"寶玉夢見黛玉來了，醒來大哭。", 0},
		{"寶玉聽見黛玉死了，大哭。", 0},
		{"寶玉見黛玉的詩稿，哭了。", 0},
		{"寶玉回頭看時，黛玉正在垂淚。", 1},
		{"寶玉聽說黛玉正在那裏。", 0},
		{"賈政一面說，一面走。", 1},
		{"寶玉一面想賈政的話，一面走。", 0},
		{"Elizabeth took Lydia by the arm.", 1},
		{"Elizabeth took Lydia’s letter by the corner.", 0},
		{"Elizabeth handed the letter to Lydia.", 1},
		{"Elizabeth sent the letter to Lydia.", 0},
		{"Lavrúshka, the serf Elizabeth had handed over to Lydia, rode up.", 0},
		{"Elizabeth shook hands with Lydia.", 1},
		{"Elizabeth was angry with Lydia.", 0},
		{"Natásha sat beside Pétya on the sofa.", 1},
		{"Natásha thought of the days beside Pétya.", 0},
		{"Elizabeth said to Lydia, “Come.”", 1},
		{"Elizabeth wrote to Lydia.", 0},
		{"Natásha said to Pétya’s tutor that he might go.", 0},
	} {
		wantStates(t, k, tc.text, tc.want)
	}
}

// TestScenePresenceBySpeechTagsAndBearing: a tag of speech with its
// manner (冷笑道：「), a bearing shown (低頭不語, 紅了臉), a weapon drawn, a
// question asked to someone's face; English: found in a room, could not
// help laughing, came in herself, meanwhile laughing. Each beside talk,
// knowledge (知道) or a season instead of a room.
func TestScenePresenceBySpeechTagsAndBearing(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/daiyu.md":     "---\nname: 林黛玉\naliases: [黛玉]\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/baoyu.md":     "---\nname: 賈寶玉\naliases: [寶玉]\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/niu.md":       "---\nname: 牛魔王\naliases: [牛王]\nkind: character\nfacts: { status: away, location: 積雷山摩雲洞 }\n---\n",
		"entities/characters/lydia.md":     "---\nname: Lydia Bennet\naliases: [Lydia]\nkind: character\nfacts: { status: away, location: Brighton }\n---\n",
		"entities/characters/petya.md":     "---\nname: Pétya Rostóv\naliases: [Pétya]\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/eliz.md":      "---\nname: Elizabeth Bennet\naliases: [Elizabeth]\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/natasha.md":   "---\nname: Natásha\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/wangfuren.md": "---\nname: 王夫人\nkind: character\nfacts: { status: present }\n---\n",
	})
	for _, tc := range []struct {
		text string
		want int
	}{
		{"黛玉冷笑道：「我知道了。」", 1},
		{"黛玉歎道：「罷了。」", 1},
		{"那時黛玉知道：這也是命。", 0},
		{"寶玉說黛玉的話道：「罷了。」", 0},
		{"黛玉低頭不語。", 1},
		{"黛玉紅了臉。", 1},
		{"寶玉想起黛玉紅了臉的樣子。", 0},
		{"牛王掣出寶劍，劈面就砍。", 1},
		{"牛王變做一個老兒。", 1},
		{"寶玉忙問黛玉：「怎樣？」", 1},
		{"寶玉問黛玉好。", 0},
		{"寶玉想起問黛玉：「怎樣？」", 0},
		{"They found Lydia in the hall.", 1},
		{"They found Lydia in the spring much grown.", 0},
		{"Lydia could not help laughing.", 1},
		{"Elizabeth could not help thinking of Lydia.", 0},
		{"Lydia herself came in.", 1},
		{"Pétya himself was a boy then.", 0},
		{"Lydia, meanwhile, was laughing with Kitty.", 1},
		{"Elizabeth, meanwhile, thought of Lydia.", 0},
	} {
		wantStates(t, k, tc.text, tc.want)
	}
}

// TestScenePresenceBesideAndFollowed: whom someone sits beside or
// between, follows into a room, goes up to or comes in with; a cleft
// subject; a list joined by 、 closed by 都; and the same names in a
// clause of memory or report, in both languages, which is no finding
// even where the name then acts (寶玉記得黛玉說過, "remembered how Pétya
// laughed").
func TestScenePresenceBesideAndFollowed(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/daiyu.md":   "---\nname: 林黛玉\naliases: [黛玉]\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/baoyu.md":   "---\nname: 賈寶玉\naliases: [寶玉]\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/baochai.md": "---\nname: 薛寶釵\naliases: [寶釵]\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/lydia.md":   "---\nname: Lydia Bennet\naliases: [Lydia]\nkind: character\nfacts: { status: away, location: Brighton }\n---\n",
		"entities/characters/jane.md":    "---\nname: Jane Bennet\naliases: [Jane]\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/eliz.md":    "---\nname: Elizabeth Bennet\naliases: [Elizabeth]\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/petya.md":   "---\nname: Pétya Rostóv\naliases: [Pétya]\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/natasha.md": "---\nname: Natásha\nkind: character\nfacts: { status: present }\n---\n",
	})
	for _, tc := range []struct {
		text string
		want int
	}{
		{"寶玉坐在黛玉身邊。", 1},
		{"寶玉坐在黛玉靈前。", 0},
		{"寶玉挨著黛玉坐下。", 1},
		{"寶玉與黛玉對坐。", 1},
		{"黛玉、寶釵都笑了。", 1},
		{"寶玉想起黛玉、寶釵都笑了的那日。", 0},
		{"寶玉記得黛玉說過。", 0},
		{"寶玉想起當日黛玉笑道：「好。」", 0},
		{"Elizabeth sat between Jane and Lydia.", 1},
		{"Elizabeth chose between Jane and Lydia.", 0},
		{"Elizabeth followed Lydia into the room.", 1},
		{"Elizabeth followed Lydia’s advice.", 0},
		{"Natásha went up to Pétya and kissed him.", 1},
		{"Natásha came in with Pétya.", 1},
		{"Natásha came in with a letter about Pétya.", 0},
		{"It was Lydia who opened the door.", 1},
		{"It was Lydia of whom they spoke.", 0},
		{"Mrs. Bennet called Lydia to her side.", 1},
		{"Lydia burst into the room.", 1},
		{"Elizabeth caught Lydia’s eye.", 1},
		{"Pétya, too, laughed.", 1},
		{"Natásha remembered how Pétya laughed.", 0},
		{"Natásha told them that Pétya laughed.", 0},
		{"Natásha thought of Pétya, who ran in.", 0},
	} {
		wantStates(t, k, tc.text, tc.want)
	}
}

// TestScenePresenceFightsAndLists: two who fight (與牛王戰了百十回合),
// someone seen at a window, a list of three or more people that opens a
// sentence as its subject; beside a fight told of, a letter seen, and a
// list after a verb of thinking.
func TestScenePresenceFightsAndLists(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/niu.md":    "---\nname: 牛魔王\naliases: [牛王]\nkind: character\nfacts: { status: away, location: 積雷山摩雲洞 }\n---\n",
		"entities/characters/wukong.md": "---\nname: 孫悟空\naliases: [行者]\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/lydia.md":  "---\nname: Lydia Bennet\naliases: [Lydia]\nkind: character\nfacts: { status: away, location: Brighton }\n---\n",
		"entities/characters/eliz.md":   "---\nname: Elizabeth Bennet\naliases: [Elizabeth]\nkind: character\nfacts: { status: present }\n---\n",
	})
	for _, tc := range []struct {
		text string
		want int
	}{
		{"行者與牛王戰了百十回合。", 1},
		{"行者想起與牛王戰了百十回合的事。", 0},
		{"Elizabeth saw Lydia at the window.", 1},
		{"Elizabeth saw Lydia’s letter on the table.", 0},
		{"Elizabeth saw Lydia at the ball last winter.", 0},
		{"The Bennets, the Lucases, Lydia, and the officers sat down to supper.", 1},
		{"Elizabeth thought of the Bennets, the Lucases, Lydia, and the officers.", 0},
		{"The Bennets, the Lucases, Lydia, and the officers were often spoken of.", 0},
	} {
		wantStates(t, k, tc.text, tc.want)
	}
}

// TestScenePresenceByCompany: the company a name keeps puts it in the
// scene whatever its place in the clause: one item of a list of people
// that is sat with, gathered round, seen with someone or asked to sit;
// with someone riding beside; taken hold of (拉了秦鐘走開); looked at
// (看著黛玉); a subject whose verb follows a relative clause; a message
// sent down from upstairs. Each beside the same words in a memory, a
// habit, a letter, a funeral or a list that is talked of.
func TestScenePresenceByCompany(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/qinzhong.md": "---\nname: 秦鐘\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/daiyu.md":    "---\nname: 林黛玉\naliases: [黛玉]\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/jiamu.md":    "---\nname: 賈母\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/jinchuan.md": "---\nname: 金釧\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/pinger.md":   "---\nname: 平兒\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/baoyu.md":    "---\nname: 賈寶玉\naliases: [寶玉]\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/lydia.md":    "---\nname: Lydia Bennet\naliases: [Lydia]\nkind: character\nfacts: { status: away, location: Brighton }\n---\n",
		"entities/characters/eliz.md":     "---\nname: Elizabeth Bennet\naliases: [Elizabeth]\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/petya.md":    "---\nname: Pétya Rostóv\naliases: [Pétya]\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/natasha.md":  "---\nname: Natásha\nkind: character\nfacts: { status: present }\n---\n",
	})
	for _, tc := range []struct {
		text string
		want int
	}{
		// One of a list of people sat with, walked with.
		{"Miss Darcy was sitting there with Mrs. Hurst and Miss Bingley, her cousin Lydia, and the lady.", 1},
		{"Miss Darcy had often sat there with Mrs. Hurst and Miss Bingley, her cousin Lydia, and the lady.", 0},
		// The place of another noun's relative clause is not where the
		// list's people are; one's own relative clause is.
		{"Miss Darcy was sitting there with Mrs. Hurst, her cousin Lydia, and the lady with whom she lived in Brighton.", 1},
		{"Lydia, who was still in Brighton, laughed at the news.", 0},
		{"Jane walked to Meryton with Lydia.", 1},
		{"Jane had walked to Meryton with Lydia.", 0},
		{"Elizabeth remembered that Jane walked to Meryton with Lydia.", 0},
		// With someone doing something now: an absolute.
		{"Besides the family, with Pétya riding at Natásha’s side, there were eight kennelmen.", 1},
		{"Natásha remembered the hunt, with Pétya riding at her side.", 0},
		{"Natásha was angry with Pétya, riding off alone.", 0},
		// Gathered round; seen with someone.
		{"The largest circles formed round Pétya, Count Rostopchín, Valúev, and Narýshkin.", 1},
		{"The talk turned round Pétya and his death.", 0},
		{"She saw Elizabeth and her sister Lydia with him, and sat down again.", 1},
		{"She never saw Lydia with him.", 0},
		{"She saw Lydia’s letter with him.", 0},
		// Asked or made to sit.
		{"Mrs. Bennet begged Lydia to sit down.", 1},
		{"Mrs. Bennet begged Lydia to come home.", 0},
		{"She made Natásha and Pétya sit down beside her.", 1},
		// A subject, a relative clause, its verb; a message sent down.
		{"Lady Lucas was inquiring after Maria; Lydia, who had ridden over from Meryton on hearing of it, was talking to Mr. Bennet.", 1},
		{"Lady Lucas was inquiring after Maria, and Lydia, who had come in with Kitty, was laughing at them.", 1},
		{"Lady Lucas was inquiring after Maria; Lydia, who had been at Brighton all summer, was expected on Monday.", 0},
		{"Natásha wept; Pétya, whom she had loved so, was buried at Moscow.", 0},
		{"Natásha spoke of Lydia, who had ridden over from Meryton, laughed Kitty.", 0},
		{"Lydia sent down word from her rooms that she would travel with him.", 1},
		{"Lydia sent word from Brighton that she would travel with him.", 0},
		// Taken hold of; a coffin escorted; a journey told; 按著 of
		// "according to".
		{"寶玉只略坐了一坐，便拉了秦鐘走開各處閒耍。", 1},
		{"寶玉想起那日拉了秦鐘走開的事。", 0},
		{"賈政扶了賈母靈柩一路南行。", 0},
		{"二爺帶了黛玉同送靈到蘇州。", 0},
		// Brought along into the room; taken away on a journey.
		{"寶玉帶著金釧進來坐下。", 1},
		{"寶玉領了秦鐘過來。", 1},
		{"寶玉帶了金釧往揚州去了。", 0},
		{"寶玉帶著黛玉的信進來。", 0},
		// Whom the narrator shows, whatever they do; not whose servant,
		// not one shown dead, not a ghost seen by a soul leaving its body.
		{"忽見秦鐘和平兒招手叫他。", 1},
		{"只見金釧，平兒二人遠遠的站著。", 1},
		{"忽見金釧的丫頭走來。", 0},
		{"只見秦鐘死在炕上。", 0},
		{"可怜香魂出竅，正無投奔，只見秦鐘隱隱在前。", 0},
		{"按著秦鐘方才比的地方拴上。", 0},
		// Looked at; a death watched; what is the name's.
		{"眾人都看著黛玉，不敢言語。", 1},
		{"寶玉看了黛玉一眼，便走了。", 1},
		{"寶玉看著黛玉的詩稿，哭了。", 0},
		{"寶玉眼看著黛玉死去。", 0},
		{"寶玉去看了黛玉回來。", 0},
		// Asked to sit, alone or in a list of undeclared names; asked to
		// come; remembered.
		{"湘云又令人在廊上擺了兩桌，讓鴛鴦，琥珀，彩霞，金釧，平兒去坐。", 1},
		{"寶玉讓黛玉坐，自己站著。", 1},
		{"寶玉請黛玉來吃飯。", 0},
		{"寶玉想起讓鴛鴦，琥珀，金釧，平兒去坐的事。", 0},
		// A dream word in the title of a play is no dream.
		{"唱的是《黃伯央大擺陰魂陣》等戲文，寶玉便拉了秦鐘走開。", 1},
		{"寶玉入了幻境，便拉了秦鐘走開。", 0},
	} {
		wantStates(t, k, tc.text, tc.want)
	}
}

// TestScenePresenceCommonActs: the commonest ways a chapter puts someone
// on the stage that earlier rules missed, in both languages: a verb in
// an irregular past, a phrase of one's own between commas, a perfect of
// the moment before, one more who "too was there", a turn to someone, a
// thing handed or an introduction or a question to one's face, a
// subject after "then came", someone led somewhere, who leaves the
// room; a manner by doubling (笑吟吟的道), not holding back (忍不住), a
// silence kept (只是不理, 半日不言語), an adverb of time or manner of two
// characters (不覺, 方才, 微微), a hand that holds something (手里拿著),
// speech turned to someone (向寶玉說), a pair counted (兩個), a gesture
// (抿著嘴, 瞅了一眼), someone met (見了黛玉，), gone along with (同著黛玉出
// 來), one of a list that opens its clause (探春、惜春、黛玉、湘雲進來), a
// subject across a phrase between commas (黛玉，那個最愛哭的，也笑了),
// told to sit (叫黛玉坐下); an arm round someone, one "among them", a
// name and a group as subject ("Pétya and the others sat down"). Each beside the same words
// of habit, memory, a letter, a dream or kinship.
func TestScenePresenceCommonActs(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/daiyu.md":   "---\nname: 林黛玉\naliases: [黛玉]\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/baoyu.md":   "---\nname: 賈寶玉\naliases: [寶玉]\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/zijuan.md":  "---\nname: 紫鵑\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/lydia.md":   "---\nname: Lydia Bennet\naliases: [Lydia]\nkind: character\nfacts: { status: away, location: Brighton }\n---\n",
		"entities/characters/kitty.md":   "---\nname: Kitty Bennet\naliases: [Kitty]\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/petya.md":   "---\nname: Pétya Rostóv\naliases: [Pétya]\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/natasha.md": "---\nname: Natásha\nkind: character\nfacts: { status: present }\n---\n",
	})
	for _, tc := range []struct {
		text string
		want int
	}{
		{"Pétya shut the door behind him.", 1},
		{"Pétya strode across the room.", 1},
		{"The door Pétya had shut was open.", 0},
		{"Pétya, his face flushed, ran to the door.", 1},
		{"She thought of Pétya, his face flushed, and wept.", 0},
		{"Pétya had just come in from the garden.", 1},
		{"Pétya had come in from the garden every evening.", 0},
		{"Lydia too was there.", 1},
		{"Lydia was there in the spring, they said.", 0},
		{"Turning to Lydia, she said she was tired.", 1},
		{"Turning to Lydia’s letter, she said she was tired.", 0},
		{"She handed Lydia the cup.", 1},
		{"She had handed Lydia the cup last winter.", 0},
		{"Mrs. Bennet introduced Lydia to them.", 1},
		{"Mrs. Bennet had introduced Lydia to them at Brighton.", 0},
		{"Mr. Bennet asked Lydia whether she was well.", 1},
		{"Mr. Bennet had asked Lydia whether she was well.", 0},
		{"Then came Lydia, flushed and laughing.", 1},
		{"Then came the news of Lydia.", 0},
		{"Lydia, with a loud laugh, declared she would go.", 1},
		{"She thought of Lydia, with her loud laugh, and sighed.", 0},
		{"Kitty and Lydia, who had been quarrelling, fell silent.", 1},
		{"She scolded Kitty and Lydia, who had been quarrelling, and went out.", 0},
		{"Without a word Pétya left the room.", 1},
		{"Pétya left the army in the spring.", 0},
		{"Natásha led Pétya to the window.", 1},
		{"Natásha pulled Pétya into the room.", 1},
		{"Natásha led Pétya to believe it.", 0},
		{"黛玉笑吟吟的道：「好。」", 1},
		{"黛玉悄悄的拉了寶玉一把。", 1},
		{"黛玉哥哥的東西都在這裏。", 0},
		{"黛玉只是不理。", 1},
		{"黛玉半日不言語。", 1},
		{"寶玉想起黛玉只是不理。", 0},
		{"黛玉不覺紅了臉。", 1},
		{"黛玉只是半日不言語。", 1},
		{"黛玉方才醒來。", 1},
		{"黛玉手里拿著一本書。", 1},
		{"黛玉手里的書還在。", 0},
		{"黛玉向寶玉說：「好。」", 1},
		{"黛玉對紫鵑笑道：「好。」", 1},
		{"黛玉向來不說這話。", 0},
		{"寶玉與黛玉兩個坐在一處。", 1},
		{"寶玉與黛玉兩個的事，誰不知道。", 0},
		{"黛玉抿著嘴笑。", 1},
		{"黛玉瞅了寶玉一眼。", 1},
		{"黛玉忍不住笑了。", 1},
		{"寶玉同著黛玉出來。", 1},
		{"紫鵑是同著黛玉來的。", 0},
		{"眾人見了黛玉，都站起來。", 1},
		// Running into someone (遇見, 撞見, 碰見) meets them there; not
		// in a dream, nor never.
		{"鴛鴦方出來，在院門口遇見黛玉，二人站著說了幾句閒話。", 1},
		{"寶玉剛進園門，迎頭遇見黛玉，便問好。", 1},
		{"寶玉在園中碰見黛玉。", 1},
		{"寶玉夢中遇見黛玉，醒來便哭。", 0},
		{"寶玉再不曾遇見黛玉。", 0},
		// A gesture made to someone: a nod, a wave, a wink, as a verb or
		// as a noun.
		{"寶玉向黛玉點了點頭，便出去了。", 1},
		{"寶玉朝黛玉使了個眼色。", 1},
		{"寶玉向黛玉的屋子點了點頭。", 0},
		{"“True,” said Kitty, with a nod to Lydia, who had just come in.", 1},
		{"“True,” said Kitty, with a nod to the memory of Lydia.", 0},
		// Calling out to someone, waking them (喚, 唤), as 叫 and 喊.
		{"黛玉喚紫鵑進來。", 1},
		{"見賈母驚嚇氣逆，寶玉，黛玉，紫鵑等喚醒回來。", 1},
		// A list that opens its clause, undeclared names in it, its last
		// item running into the verb or a group word closing it; the
		// same list after a verb, or in a memory.
		{"探春、惜春、黛玉、湘雲進來。", 1},
		{"說著，探春、黛玉進來了。", 1},
		{"當下寶玉、黛玉、探春、惜春等都在賈母房中。", 1},
		{"寶玉想起探春、惜春、黛玉進來的事。", 0},
		{"寶玉，紫鵑，黛玉，探春，惜春都來了。", 1},
		{"寶玉想起紫鵑，黛玉，探春，惜春都來了的那日。", 0},
		{"黛玉、紫鵑的詩都好。", 0},
		{"紫鵑、黛玉兩個也來了。", 1},
		// A phrase between commas after the subject, then 也 and a verb.
		{"黛玉，那個最愛哭的，也笑了。", 1},
		{"黛玉，寶玉常說的，也是可憐。", 0},
		{"黛玉，寶玉聽了這話，便笑道：「好。」", 0},
		// Surrounded; tended by hand; avenged or written to.
		{"丫頭們簇擁著黛玉進來。", 1},
		{"寶玉替黛玉披上斗篷。", 1},
		{"寶玉要替黛玉報仇。", 0},
		{"寶玉給黛玉寫了一封信。", 0},
		// Told to sit.
		{"賈母叫黛玉坐下。", 1},
		{"賈母叫黛玉去。", 0},
		// English: an arm round someone; one of a group between commas;
		// someone and a group as subject.
		{"Natásha put her arm round Pétya.", 1},
		{"Natásha’s talk went round and round Pétya.", 0},
		{"The whole party, Lydia among them, walked to Meryton.", 1},
		{"Lydia among them, they walked to Meryton.", 1},
		{"Lydia among them, they were often spoken of.", 0},
		{"Pétya and the others sat down to supper.", 1},
		{"Pétya and the others were often spoken of.", 0},
		{"寶玉夢見了黛玉，醒來大哭。", 0},
		{"寶玉見了黛玉的詩稿，哭了。", 0},
	} {
		wantStates(t, k, tc.text, tc.want)
	}
}

// wantStates checks that text, checked as chapter 40, has want state
// findings.
func wantStates(t *testing.T, k *Knowledge, text string, want int) {
	t.Helper()
	if n := len(found(k, text, 40, TypeState)); n != want {
		t.Errorf("%s: %d state findings, want %d", text, n, want)
	}
}
