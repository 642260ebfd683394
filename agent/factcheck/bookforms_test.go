package factcheck

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/internal/projecttest"

	"github.com/flowcabal/flowcabal/knowledge"
)

// bookProject writes a project (files by path) and loads its knowledge.
func bookProject(t *testing.T, files map[string]string) *Knowledge {
	t.Helper()
	p, errs := knowledge.LoadProject(projecttest.Write(t, files))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	return FromProject(p, testFolder)
}

// found returns the texts of the findings of type typ on text, checked as
// chapter ch.
func found(k *Knowledge, text string, ch int, typ string) []string {
	var out []string
	for _, f := range Check(text, ch, k, "") {
		if f.Type == typ {
			out = append(out, text[f.Start:f.End])
		}
	}
	return out
}

// TestTheBookIsTheDictionary: a near-miss of a declared name that the
// manuscript itself uses often is a word of the book, in both languages
// (twice will do, unless the name is written over two hundred times as
// often); a form used once is a typo; a name in other accents or case is
// the name.
func TestTheBookIsTheDictionary(t *testing.T) {
	ents := map[string]string{
		"entities/characters/natasha.md":   "---\nname: Natásha Rostóva\naliases: [Natásha, Countess Rostóva, Rostóva]\nkind: character\n---\n",
		"entities/characters/napoleon.md":  "---\nname: Napoléon\naliases: [Bonaparte]\nkind: character\n---\n",
		"entities/characters/gardiner.md":  "---\nname: Mr. Gardiner\naliases: [Gardiner]\nkind: character\n---\n",
		"entities/locations/moscow.md":     "---\nname: Moscow\nkind: location\n---\n",
		"entities/characters/honghaier.md": "---\nname: 紅孩兒\naliases: [聖嬰大王, 聖嬰]\nkind: character\n---\n",
	}
	book := func(extra string) map[string]string {
		files := map[string]string{}
		for k, v := range ents {
			files[k] = v
		}
		files["manuscript/chapter-01/content.md"] = "Chapter I\n\n" + strings.Repeat("Countess Rostóva drove to Moscow. ", 12) +
			strings.Repeat("Mr. Gardiner came. ", 12) + extra
		return files
	}
	used := bookProject(t, book(strings.Repeat("The Rostóvs said, “Moscou est brûlé.” Mr. Gardener bowed. ", 3)+
		strings.Repeat("聖嬰大王來了。", 10)+strings.Repeat("那聖贏又來。", 3)))
	once := bookProject(t, book("The Rostóvs went home. 聖嬰大王來了。"))
	twice := bookProject(t, book(strings.Repeat("The Rostóvs said, “Moscou est brûlé.” 聖嬰大王來了。那聖贏又來。", 2)))
	twiceBesideMany := bookProject(t, book(strings.Repeat("The Rostóvs said, “Moscou est brûlé.” 那聖贏又來。", 2)+
		strings.Repeat("聖嬰大王來了。", 450)))
	named := bookProject(t, book(strings.Repeat("Natásha smiled. ", 3)))
	for _, tc := range []struct {
		name, text string
		k          *Knowledge
		want       string // the name findings, joined
	}{
		{"forms the book uses", "The Rostóvs were in Moscou when NAPOLEON came.", used, ""},
		{"a typo beside them", "The Rostóvs were in Moskow.", used, "Moskow"},
		{"forms used once are typos", "The Rostóvs were in Moscou.", once, "Rostóvs Moscou"},
		{"forms the book writes twice", "The Rostóvs were in Moscou.", twice, ""},
		{"a CJK form the book writes twice", "忽見那聖贏來了。", twice, ""},
		{"a CJK form written twice beside a name written 450 times", "忽見那聖贏來了。", twiceBesideMany, "聖贏"},
		{"another case and accents", "NAPOLEON and Napoleon and Napoléon came.", once, ""},
		{"a CJK form the book uses", "忽見那聖贏來了。", used, ""},
		{"a CJK form used once", "忽見那聖贏來了。", once, "聖贏"},
		{"part of a hyphenated word", "“De Moskow-machève!” said the King.", once, ""},
		{"two letters traded places", "Both Kitty and Natsáha looked out of a window.", once, "Natsáha"},
		{"the name itself", "Both Kitty and Natásha looked out of a window.", once, ""},
		{"an accent on another letter", "Both Kitty and Nátasha looked out of a window.", named, "Nátasha"},
		{"the accents left off", "Both Kitty and Natasha looked out of a window.", named, ""},
		{"an accent on another letter of a name the book never writes", "Both Kitty and Nátasha looked out of a window.", once, ""},
		{"a word of the dictionary after an honorific", "Mr. Gardener would be prevented by business.", once, "Gardener"},
		{"the same word as a word", "The Gardener would be prevented by business.", once, ""},
		{"the same word after an honorific, a name of the book", "Mr. Gardener would be prevented by business.", used, ""},
	} {
		if got := strings.Join(found(tc.k, tc.text, 2, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestAwayCharacterTheChapterFollows: an away character who acts in three
// sentences of a text is where the text is (the chapter follows them);
// one put into a scene once is a finding; the dead are never followed.
func TestAwayCharacterTheChapterFollows(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/nicholas.md": "---\nname: Nicholas Rostóv\naliases: [Nicholas]\nkind: character\nfacts: { status: away, location: the army in Austria }\n---\n",
		"entities/characters/lise.md":     "---\nname: Lise Bolkónskaya\naliases: [Lise]\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/li.md":       "---\nname: 李天王\naliases: [天王]\nkind: character\nfacts: { status: away, location: 天宮 }\n---\n",
	})
	for _, tc := range []struct {
		name, text string
		state      int
	}{
		{"followed", "Nicholas rode to the bridge. Nicholas shouted to Denísov. Then Nicholas fired.", 0},
		{"put into a scene once", "At Otrádnoe the count sat down to dinner. Nicholas laughed at the table.", 1},
		{"the dead are not followed", "Lise came in. Lise sat down. Lise laughed.", 3},
		{"followed, in Chinese", "天王道：「拿下。」天王又道：「放箭。」天王便走了。", 0},
		{"once, in Chinese", "眾人在花果山上吃酒。天王道：「好酒。」", 1},
	} {
		n := len(found(k, tc.text, 5, TypeState))
		if n != tc.state {
			t.Errorf("%s: %d state findings, want %d", tc.name, n, tc.state)
		}
	}
}

// TestForbiddenTermFoldedFromTheBooksWord: 香菸 (cigarettes) is forbidden;
// the book writes 香煙 (incense smoke), which folds to the same simplified
// form. The book's own word is not flagged; 香菸, or a spelling the book
// never uses, is.
func TestForbiddenTermFoldedFromTheBooksWord(t *testing.T) {
	files := map[string]string{
		"meta/world-rules.md":              "---\nname: World rules\nkind: meta\nforbidden: [香菸, 電話]\n---\n",
		"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("爐中香煙裊裊。", 4),
	}
	k := bookProject(t, files)
	for _, tc := range []struct {
		text string
		want int
	}{
		{"只見香煙繚繞。", 0},
		{"他點了一支香菸。", 1},
		{"他点了一支香烟。", 1},
		{"打了個電話。", 1},
	} {
		n := len(found(k, tc.text, 2, TypeWorld))
		if n != tc.want {
			t.Errorf("%s: %d world findings, want %d", tc.text, n, tc.want)
		}
	}
}

// TestCJKNearMissConstructions: the misspelt character at any place of a
// name, the first included, with the readings and Unihan's phonetic
// classes as the data of what looks or sounds alike; and what stays a
// word of its own.
func TestCJKNearMissConstructions(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/bajie.md":     "---\nname: 豬八戒\naliases: [八戒, 豬悟能]\nkind: character\n---\n",
		"entities/characters/sha.md":       "---\nname: 沙僧\naliases: [沙和尚, 沙悟淨]\nkind: character\n---\n",
		"entities/characters/tieshan.md":   "---\nname: 鐵扇公主\naliases: [羅剎女]\nkind: character\n---\n",
		"entities/characters/wukong.md":    "---\nname: 孫悟空\naliases: [大聖, 行者]\nkind: character\n---\n",
		"entities/characters/rulai.md":     "---\nname: 如來\naliases: [世尊]\nkind: character\n---\n",
		"entities/characters/honghaier.md": "---\nname: 紅孩兒\naliases: [聖嬰大王]\nkind: character\n---\n",
		"entities/characters/yudi.md":      "---\nname: 玉帝\naliases: [玉皇大帝]\nkind: character\n---\n",
		"entities/characters/sanzang.md":   "---\nname: 唐三藏\naliases: [唐僧, 三藏]\nkind: character\n---\n",
		"entities/characters/niu.md":       "---\nname: 牛魔王\naliases: [魔王]\nkind: character\n---\n",
		"entities/characters/xichun.md":    "---\nname: 惜春\nkind: character\n---\n",
		"entities/characters/liu.md":       "---\nname: 劉姥姥\nkind: character\n---\n",
		"entities/characters/feng.md":      "---\nname: 王熙鳳\naliases: [鳳奶奶]\nkind: character\n---\n",
		"entities/locations/yihong.md":     "---\nname: 怡紅院\nkind: location\n---\n",
		"entities/characters/puti.md":      "---\nname: 須菩提祖師\naliases: [祖師]\nkind: character\n---\n",
		"entities/characters/guanyin.md":   "---\nname: 觀世音菩薩\naliases: [菩薩, 觀音]\nkind: character\n---\n",
		"entities/characters/mile.md":      "---\nname: 彌勒\nkind: character\n---\n",
		"entities/characters/erlang.md":    "---\nname: 二郎神\naliases: [二郎]\nkind: character\n---\n",
		"entities/characters/taizong.md":   "---\nname: 唐太宗\naliases: [唐王]\nkind: character\n---\n",
		"entities/characters/xuepan.md":    "---\nname: 薛蟠\nkind: character\n---\n",
		"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("那和尚念經。八戒笑道。", 20) + strings.Repeat("沙和尚挑擔。", 3) +
			strings.Repeat("妖精要殺和尚。", 2) + strings.Repeat("紅孩兒笑道：孩兒去也。", 5) + strings.Repeat("玉帝傳旨，唐三藏與魔王。", 30) +
			strings.Repeat("惜春笑道：如來說劉姥姥來了。", 25) + strings.Repeat("回到怡紅院。", 20) +
			strings.Repeat("須菩提祖師說法。觀世音菩薩來了。彌勒笑道。二郎神到了。", 10) +
			strings.Repeat("唐王傳旨。長老往西去了。三藏道：好。", 25) + strings.Repeat("薛蟠來了。", 10) + strings.Repeat("劉老老笑了。", 3),
	})
	for _, tc := range []struct {
		text, want string
	}{
		{"只見那朱八戒扛著鈀來。", "朱八戒"}, // the first character, a family name
		{"那沙增挑著擔子。", "沙增"},     // 僧 and 增 share a phonetic element
		{"監里提出薛幡．知縣便問話。", "薛幡"},
		{"老僧道：「不敢。」三臧道：「有五千餘里。」", "三臧"}, // a name the book writes often, a window never
		{"只見瀏姥姥進來。", "瀏姥姥"},             // a radical added, in a long name the book writes often
		{"只見汪八戒進來。", ""},                // a name the book writes seldom    // 巾 put for 虫 beside 番
		{"原來是鐵扇宮主。", "鐵扇宮主"},            // a kinship word in a long name
		{"行者叫聲：助八戒一臂之力。", ""},           // a verb before the alias
		{"妖精要殺和尚吃。", ""},                // the book writes 殺和尚 elsewhere
		{"那洪孩兒笑道。", "洪孩兒"},              // 洪 is what an input method offers for 紅
		{"那午魔王大怒。", ""},                 // 魔王 a name of its own, 午 no family name
		{"只見孫悟室跳將起來。", "孫悟室"},           // 室 and 空 have the same four corners
		{"玉帝道：宣王帝旨意。", ""},              // two characters, the first differing
		{"那奉奶奶之命的人。", ""},               // 奶奶 only addresses: 奉 is a word
		{"那唐三臧下馬。", "唐三臧"},              // 藏 without its radical
		{"眾人都笑了。借春膽小。", "借春"},           // two characters where a name starts, a look-alike
		{"眾人都笑了。汝來此何干？", ""},            // 汝 is a pronoun, though it looks like 如
		{"眾人都笑了。柳姥姥也覷著眼看。", "柳姥姥"},      // after a break, the same syllable
		{"他們都喜歡柳姥姥的故事。", ""},            // not where a name starts: another tone is not enough
		{"行者大聲喝道。", ""},                 // 大聲 is not 大聖
		{"這是尊者的話。", ""},                 // two characters, the first differing
		{"寶玉回至恰紅院中。", "恰紅院"},            // one Cangjie frame: 怡 written 恰
		{"那神仙稱名須菩堤祖師。", "須菩堤祖師"},        // a slip before the name's own title (祖師)
		{"傍又閃上觀士音菩薩合掌。", "觀士音菩薩"},       // the same (菩薩), a same-sound character
		{"行者大驚。彌勤笑道：我去。", "彌勤"},         // one Cangjie part changed, two strokes more
		{"那小聖二郎身邊有犬。", ""},              // a name (二郎) before the differing character
		{"他說了。唐往西天取經去了。", ""},           // 往 with the next character is a word of the book (往西)
		{"眾臣拜見。唐汪傳旨。", "唐汪"},            // the same slip where no word follows
		{"眾人都笑了。劉佬佬只管千恩萬謝的。", "劉佬佬"},    // the doubled character changed as one slip
		{"眾人都笑了。劉老老只管千恩萬謝的。", ""},       // a doubled form the book writes itself
	} {
		got := strings.Join(found(k, tc.text, 5, TypeName), " ")
		if got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestContinuityAgainstTheBook: "Russian" after a chapter that wrote
// "Russia" is no misspelling when the book uses both often; a form the
// book has used once is still questioned.
func TestContinuityAgainstTheBook(t *testing.T) {
	often := bookProject(t, map[string]string{
		"manuscript/chapter-01/content.md": "Chapter I\n\n" + strings.Repeat("Russia and the Russian army. ", 10),
	})
	rarely := bookProject(t, map[string]string{
		"manuscript/chapter-01/content.md": "Chapter I\n\n" + strings.Repeat("Russia. ", 10) + "The Russian army.",
	})
	prev := "Chapter I\n\nThe Emperor of Russia spoke. Russia was at war."
	text := "The Russian army marched."
	count := func(k *Knowledge) int {
		n := 0
		for _, f := range Check(text, 2, k, prev) {
			if f.Type == TypeContinuity {
				n++
			}
		}
		return n
	}
	if n := count(often); n != 0 {
		t.Errorf("a form the book uses often: %d continuity findings", n)
	}
	if n := count(rarely); n != 1 {
		t.Errorf("a form the book used once: %d continuity findings, want 1", n)
	}
	// In Chinese, a window the book writes twice is words of the book,
	// not a name: “長老莫管他” after a chapter where 老魔 speaks.
	cjkPrev := "第一回\n\n那老魔笑道：「好！」老魔又道：「來。」"
	cjkText := "行者道：「長老莫管他。」"
	for _, tc := range []struct {
		book string
		want int
	}{
		{"長老莫管他。", 1},
		{"長老莫管他。長老莫管閒事。", 0},
	} {
		k := bookProject(t, map[string]string{"manuscript/chapter-01/content.md": cjkPrev + tc.book})
		n := 0
		for _, f := range Check(cjkText, 2, k, cjkPrev) {
			if f.Type == TypeContinuity {
				n++
			}
		}
		if n != tc.want {
			t.Errorf("book %q: %d continuity findings on %q, want %d", tc.book, n, cjkText, tc.want)
		}
	}
	// The changed character with the next one is a word the book writes
	// often (忽然): “那怪忽然省悟” is 那怪 + 忽然, not 怪物 misspelt.
	monsterPrev := "第一回\n\n那怪物笑道：「好！」怪物又道：「來。」"
	monsterText := "行者大怒。那怪忽然省悟。"
	for _, tc := range []struct {
		book string
		want int
	}{
		{"行者走了。", 1},
		{strings.Repeat("他忽然笑了。", 3), 0},
	} {
		k := bookProject(t, map[string]string{"manuscript/chapter-01/content.md": monsterPrev + tc.book})
		n := 0
		for _, f := range Check(monsterText, 2, k, monsterPrev) {
			if f.Type == TypeContinuity {
				n++
			}
		}
		if n != tc.want {
			t.Errorf("book %q: %d continuity findings on %q, want %d", tc.book, n, monsterText, tc.want)
		}
	}
}

// TestNearValues: a long Chinese fact value stated with one numeral or
// one place name changed contradicts the fact, whatever the construction;
// other wording of the same fact, and a value declared of someone else,
// do not.
func TestNearValues(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/tangseng.md": "---\nname: 唐僧\naliases: [三藏]\nkind: character\nfacts: { 原籍: 海州弘農郡聚賢莊 }\n---\n",
		"entities/characters/wukong.md":   "---\nname: 孫悟空\nkind: character\nfacts: { 金箍棒重: 一萬三千五百斤 }\n---\n",
		"entities/locations/lingshan.md":  "---\nname: 靈山\nkind: location\nfacts: { 所在: 西天天竺國 }\n---\n",
		"entities/characters/other.md":    "---\nname: 陳光蕊\nkind: character\nfacts: { 原籍: 泗州弘農郡聚賢莊 }\n---\n",
		"entities/characters/niu.md":      "---\nname: 牛魔王\nkind: character\nfacts: { 稱號: 平天大聖 }\n---\n",
		"entities/characters/sha.md":      "---\nname: 沙僧\nkind: character\nfacts: { 兵器: 降妖寶杖 }\n---\n",
		"entities/characters/bajie.md":    "---\nname: 豬八戒\nkind: character\nfacts: { 兵器: 九齒釘鈀 }\n---\n",
		"entities/characters/xingzhe.md":  "---\nname: 行者\nkind: character\nfacts: { 兵器: 如意金箍棒 }\n---\n",
		"entities/characters/jiazheng.md": "---\nname: 賈政\nkind: character\nfacts: { 官職: 工部員外郎, 任所: 江西糧道 }\n---\n",
		"entities/characters/yucun.md":    "---\nname: 賈雨村\naliases: [雨村]\nkind: character\nfacts: { office: 京兆府尹 }\n---\n",
	})
	for _, tc := range []struct {
		text, want string
	}{
		{"三藏道：我乃是唐朝江州弘農郡聚賢莊人氏。", "江州弘農郡聚賢莊"},
		{"喚做如意金箍棒，重一萬八千五百斤。", "一萬八千五百斤"},
		{"如意金箍棒，重一萬三千五百斤。", ""},               // the fact as declared
		{"那靈山在西方天竺國。", ""},                    // the same place in other words
		{"陳光蕊乃泗州弘農郡聚賢莊人。", ""},                // declared of someone else
		{"陳光蕊乃泗州弘農郡人。", ""},                   // the first levels of someone else's
		{"賈政現任禮部員外郎。", "禮部員外郎"},               // another board of state
		{"一日，賈政無事。外面官封上開著：飛遞江南糧道衙門。", "江南糧道"}, // a direction, its holder named just before
		{"外面官封上開著：飛遞江南糧道衙門。", ""},
		{"你令尊叫做牛魔王，稱為通天大聖。", "通天大聖"},       // any change, after a naming verb
		{"又有個大鵬魔王，稱為混天大聖。", ""},            // said of another
		{"行者橫擔著鐵棒，沙僧橫擔著月牙鏟，師徒們前進。", "月牙鏟"}, // a weapon of another kind
		{"沙僧橫擔著降妖杖，行者急掣出棍子。", ""},          // other names of the same ones
		{"悟能牽馬，沙僧拿了錫杖，行者挑擔。", ""},          // something carried, not borne
		{"沙僧取出月牙鏟，著頭便打。", "月牙鏟"},           // taken out to fight
		{"那魔王被八戒、沙僧使釘鈀、寶杖左右攻住了。", ""},      // a list of names, their weapons in order
		{"沙僧取出降妖杖，著頭便打。", ""},              // the declared one taken out
		{"沙僧取水來，著頭便打。", ""},                // fetched, not taken out
		{"三個徒弟，一個使金箍鐵棒，一個使七齒釘鈀。", "七齒釘鈀"},  // a weapon's number changed, whoever holds it
		{"三個徒弟，一個使金箍鐵棒，一個使九齒釘鈀。", ""},      // the declared one
		{"外面官封上開著：飛遞江北糧道衙門。", ""},          // a short value's direction, its holder not named
		{"且說賈雨村升了應天府尹兼管稅務。", "應天府尹"},       // a post of the same kind, after an appointment verb
		{"且說賈雨村升了京兆府尹兼管稅務。", ""},           // the declared post
		{"且說賈政升了應天府尹兼管稅務。", ""},            // someone whose post is of another kind
		{"且說賈雨村見了應天府尹。", ""},               // met, not made
		// a short value with no holder near
	} {
		got := found(k, tc.text, 10, TypeFact)
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s: fact findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestPredicatedRankAndStatus: a rank after a copula and a marital word in
// apposition or predicated, of a character declared otherwise; the same
// words said of someone else, or agreeing, are not findings.
func TestPredicatedRankAndStatus(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/bilibin.md": "---\nname: Bilíbin\nkind: character\nfacts: { status: unmarried }\n---\n",
		"entities/characters/berg.md":    "---\nname: Berg\nkind: character\nfacts: { rank: lieutenant colonel }\n---\n",
	})
	for _, tc := range []struct {
		text, want string
	}{
		{"Bilíbin was a man of thirty-five, a widower, and of the same circle.", "widower"},
		{"Bilíbin was a widower.", "widower"},
		{"Bilíbin spoke to the widower’s son.", ""},
		{"Bilíbin met Berg, a widower.", ""},
		{"Berg was already a general wearing the orders.", "general"},
		{"Berg was a colonel.", ""},
		{"Berg, the Rostóvs’ son-in-law, was already a general.", "general"},
		{"Berg, who met him, said a general was there.", ""},
		{"Berg saw a general.", ""},
	} {
		got := found(k, tc.text, 50, TypeFact)
		if strings.Join(got, " ") != tc.want {
			t.Errorf("%s: fact findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestCompanionInTheScene: an away character named as the companion of
// someone acting (同, 與, 和) is in the scene; named after 同 with no one
// acting, or as an object, is not.
func TestCompanionInTheScene(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/baigu.md":    "---\nname: 白骨夫人\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/huangpao.md": "---\nname: 黃袍怪\nkind: character\nfacts: { status: away, location: 天宮 }\n---\n",
	})
	for _, tc := range []struct {
		text string
		want int
	}{
		{"當晚那妖魔同白骨夫人進了銀安殿。", 1},
		{"三個老魔同黃袍怪笑呵呵問道：「你來了？」", 1},
		{"行者想起同黃袍怪那一場好殺。", 0},
		{"眾人去看白骨夫人的屍首。", 0},
	} {
		wantStates(t, k, tc.text, tc.want)
	}
}

// TestFactCoverage: the keys whose values the checkers read, and those
// left to the model angles.
func TestFactCoverage(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/a.md": "---\nname: Anna\nkind: character\nfacts: { age: 15, status: unmarried, rank: Colonel, income: ten thousand a year, daughters: 5, eyes: dark, personality: proud and shy, serves_as: adjutant to Kutúzov }\n---\n",
		"entities/characters/b.md": "---\nname: 唐僧\nkind: character\nfacts: { 原籍: 海州弘農郡聚賢莊, 前身: 金蟬長老, 兵器: 九環錫杖, master: 如來 }\n---\n",
		"entities/characters/c.md": "---\nname: Mr. Collins\nkind: character\nfacts: { living: Hunsford, patroness: Lady Catherine }\n---\n",
		"entities/locations/h.md":  "---\nname: Hunsford\nkind: location\n---\n",
		"entities/characters/d.md": "---\nname: 賈寶玉\nkind: character\nfacts: { exam_rank: 第七名, title: 絳洞花王 }\n---\n",
	})
	c := k.FactCoverage()
	for _, key := range []string{"age", "status", "rank", "income", "daughters", "eyes", "serves_as", "原籍", "兵器", "master", "living", "exam_rank", "title"} {
		if c.Checked[key] == 0 {
			t.Errorf("%s is not among the checked keys: %v", key, c.Checked)
		}
	}
	for _, key := range []string{"personality", "前身", "patroness"} {
		if c.Left[key] == 0 {
			t.Errorf("%s is not among the keys left to the model: %v", key, c.Left)
		}
	}
}

// TestRadicalAddedInALongName: a radical added to the first character of
// a name (汪 for 王) is a slip in a name of three characters the book
// writes often, and no finding in one it writes seldom.
func TestRadicalAddedInALongName(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/wangfuren.md":  "---\nname: 王夫人\nkind: character\n---\n",
		"entities/characters/sunxingzhe.md": "---\nname: 孫行者\nkind: character\n---\n",
		"manuscript/chapter-01/content.md":  "第一回\n\n" + strings.Repeat("薛蟠來了。王夫人道：好。", 20) + "孫行者來了。",
	})
	for _, tc := range []struct{ text, want string }{
		{"鳳姐忙迎出來．只見汪夫人气色更變。", "汪夫人"},
		{"鳳姐忙迎出來．只見遜行者气色更變。", ""},
	} {
		if got := strings.Join(found(k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
	// Where the rest is a name of its own (行者 is 孫行者's alias), the
	// added radical still makes a slip where a name starts, for a name
	// the book writes often; after a verb (謙遜) it is a word.
	k = bookProject(t, map[string]string{
		"entities/characters/sunxingzhe.md": "---\nname: 孫行者\naliases: [行者]\nkind: character\n---\n",
		"manuscript/chapter-01/content.md":  "第一回\n\n" + strings.Repeat("孫行者來了。", 20),
	})
	for _, tc := range []struct{ text, want string }{
		{"眾官見了，又道：「灶君。」遜行者即教八戒牽馬。", "遜行者"},
		{"眾官見了，謙遜行者即教八戒牽馬。", ""},
	} {
		if got := strings.Join(found(k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestSharedTopInAFrequentName: the first character of a two-character
// name the book writes often, put as one on the same top part with as
// many strokes (龔 for 襲), is a slip where a name starts; where the book
// writes the window too, it is a word.
func TestSharedTopInAFrequentName(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/xiren.md":     "---\nname: 襲人\nkind: character\n---\n",
		"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("襲人笑了。", 20),
	})
	for _, tc := range []struct{ text, want string }{
		{"花自芳道：“有我送去。”龔人道：“不為不妨。”", "龔人"},
		{"寶玉道：“好。”襲人道：“不為不妨。”", ""},
	} {
		if got := strings.Join(found(k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestSharedBottomAsWritten: the first character of a two-character name
// the book writes often, put as one on the same bottom in the script the
// text is written in (買 for 賈: 貝 under both), is a slip where a name
// starts. Simplified, the two share nothing (买 贾); inside a phrase (去買
// 母雞) and for a name the book seldom writes, there is no finding.
func TestSharedBottomAsWritten(t *testing.T) {
	files := func(uses int) map[string]string {
		return map[string]string{
			"entities/characters/jiamu.md":     "---\nname: 賈母\nkind: character\n---\n",
			"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("賈母笑了。", uses),
		}
	}
	often, seldom := bookProject(t, files(20)), bookProject(t, files(2))
	for _, tc := range []struct {
		k          *Knowledge
		text, want string
	}{
		{often, "寶玉因下席往外走．買母因說：“你往那里去！”", "買母"},
		{often, "寶玉因下席往外走．賈母因說：“你往那里去！”", ""},
		{often, "宝玉因下席往外走．买母因说：“你往那里去！”", ""},
		{often, "寶玉因下席往外走，要去買母雞來吃。", ""},
		{seldom, "寶玉因下席往外走．買母因說：“你往那里去！”", ""},
	} {
		if got := strings.Join(found(tc.k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestNameSlot: after a word that is no break nor function word, a
// window on the same top as a frequent name's first character (龔 for 襲)
// is a slip where the book writes that word before the name itself (待
// 襲人) and never before the window; where the book never puts the name
// there, the window is no name start.
func TestNameSlot(t *testing.T) {
	files := func(slot string) map[string]string {
		return map[string]string{
			"entities/characters/xiren.md":     "---\nname: 襲人\nkind: character\n---\n",
			"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("襲人笑了。", 20) + strings.Repeat(slot, 2),
		}
	}
	slot, none := bookProject(t, files("老太太待襲人好。")), bookProject(t, files(""))
	for _, tc := range []struct {
		k          *Knowledge
		text, want string
	}{
		{slot, "李嬤嬤道：“難道待龔人比我還重？”", "龔人"},
		{slot, "李嬤嬤道：“難道待襲人比我還重？”", ""},
		{none, "李嬤嬤道：“難道待龔人比我還重？”", ""},
	} {
		if got := strings.Join(found(tc.k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestReadAlikeBeforeAName: the first character of a three-character
// name the book writes often, whose rest is a name of its own, put for
// one read alike is a slip where a name starts (．留姥姥 for 劉姥姥) or in
// a slot the book fills with the name (有個猻悟空: 個孫悟空); elsewhere
// the character is a word before the rest.
func TestReadAlikeBeforeAName(t *testing.T) {
	files := func(slot string) map[string]string {
		return map[string]string{
			"entities/characters/liulaolao.md": "---\nname: 劉姥姥\naliases: [姥姥]\nkind: character\n---\n",
			"entities/characters/wukong.md":    "---\nname: 孫悟空\naliases: [悟空]\nkind: character\n---\n",
			"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("劉姥姥笑了。孫悟空來了。", 20) + strings.Repeat(slot, 2),
		}
	}
	slot, none := bookProject(t, files("聞得有個孫悟空。")), bookProject(t, files(""))
	for _, tc := range []struct {
		k          *Knowledge
		text, want string
	}{
		{none, "周瑞家的帶了劉姥姥來，應了這件事．留姥姥見了王夫人等，便問好。", "留姥姥"},
		{none, "周瑞家的帶了劉姥姥來，應了這件事．劉姥姥見了王夫人等，便問好。", ""},
		{slot, "晝夜光明。近日聞得有個猻悟空往西天取經。", "猻悟空"},
		{none, "晝夜光明。近日聞得有個猻悟空往西天取經。", ""},
	} {
		if got := strings.Join(found(tc.k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestRadicalAnywhereInALongName: a radical added to or dropped from
// any character of a name of three the book writes often is a slip
// (牛魔閏 for 牛魔王, 沙和淌 for 沙和尚); not for a name it seldom writes.
func TestRadicalAnywhereInALongName(t *testing.T) {
	files := func(uses int) map[string]string {
		return map[string]string{
			"entities/characters/niumowang.md": "---\nname: 牛魔王\nkind: character\n---\n",
			"entities/characters/sha.md":       "---\nname: 沙和尚\nkind: character\n---\n",
			"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("牛魔王來了。沙和尚笑了。", uses),
		}
	}
	often, seldom := bookProject(t, files(20)), bookProject(t, files(2))
	for _, tc := range []struct {
		k          *Knowledge
		text, want string
	}{
		{often, "原來這條路是他前番襲牛魔閏盜金睛獸走熟了的。", "牛魔閏"},
		{often, "講那妖精的火毒。沙和淌倚著松根，笑得騃了。", "沙和淌"},
		{often, "講那妖精的火毒。沙和尚倚著松根，笑得騃了。", ""},
		{seldom, "原來這條路是他前番襲牛魔閏盜金睛獸走熟了的。", ""},
	} {
		if got := strings.Join(found(tc.k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestDemonstrativeBeforeAName: a storyteller's demonstrative (這, 那) or
// 共 before a frequent two-character name opens it like a preposition:
// the first character read alike after it is a slip (這鴇釵 for 寶釵, 共搪僧
// for 唐僧) unless the book writes the word before that character often
// (這鴇兒 is a phrase of its own).
func TestDemonstrativeBeforeAName(t *testing.T) {
	files := func(extra string) map[string]string {
		return map[string]string{
			"entities/characters/baochai.md":   "---\nname: 薛寶釵\naliases: [寶釵]\nkind: character\n---\n",
			"entities/characters/tangseng.md":  "---\nname: 唐僧\nkind: character\n---\n",
			"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("寶釵笑了。唐僧來了。", 20) + strings.Repeat(extra, 3),
		}
	}
	plain, phrase := bookProject(t, files("")), bookProject(t, files("這鴇兒來了。"))
	for _, tc := range []struct {
		k          *Knowledge
		text, want string
	}{
		{plain, "薛蝌才往外去了．這鴇釵方勸薛姨媽，不必著急。", "鴇釵"},
		{plain, "薛蝌才往外去了．這寶釵方勸薛姨媽，不必著急。", ""},
		{phrase, "薛蝌才往外去了．這鴇釵方勸薛姨媽，不必著急。", ""},
		{plain, "國王聽說，連忙下殿，共搪僧、沙僧迎著。", "搪僧"},
	} {
		if got := strings.Join(found(tc.k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestKinshipWordOfATwoCharacterName: in a two-character name the book
// writes often, a kinship word (or numeral) written with a character of
// its series read alike is a slip when the other character is no kinship
// word (賈拇 for 賈母, 叭戒 for 八戒, 御娣 for 御弟); of two kinship words
// (太泰 for 太太) it is not questioned.
func TestKinshipWordOfATwoCharacterName(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/jiamu.md":     "---\nname: 賈母\naliases: [老太太]\nkind: character\n---\n",
		"entities/characters/bajie.md":     "---\nname: 豬八戒\naliases: [八戒]\nkind: character\n---\n",
		"entities/characters/tangseng.md":  "---\nname: 唐僧\naliases: [御弟]\nkind: character\n---\n",
		"entities/characters/wangfuren.md": "---\nname: 王夫人\naliases: [太太]\nkind: character\n---\n",
		"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("賈母笑了。八戒來了。御弟坐了。太太說了。", 20),
	})
	for _, tc := range []struct{ text, want string }{
		{"眾人都散了，便覺冷清了好些．賈拇因笑道：“往年你老爺們不在家。”", "賈拇"},
		{"眾人都散了，便覺冷清了好些．賈母因笑道：“往年你老爺們不在家。”", ""},
		{"行者卻才歡喜。對叭戒、沙僧道：「兄弟們，走罷。」", "叭戒"},
		{"我師父乃唐朝御娣，因為過河吃了水。", "御娣"},
		{"我們只知遵太泰的話，管不得許多。", ""},
	} {
		if got := strings.Join(found(k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestCharacterOfTheSameSeries: a character of a name put for one on the
// same phonetic element and read alike is a slip in a name the book
// writes often: a kinship word in a name of three (薛姨嗎 for 薛姨媽), the
// second of an alias after a numeral (八誡 for 八戒: 言 beside 戒). For a
// name the book seldom writes, no finding; nor for two kinship words
// (薛姨娘 is another form of address).
func TestCharacterOfTheSameSeries(t *testing.T) {
	files := func(uses int) map[string]string {
		return map[string]string{
			"entities/characters/xueyima.md":   "---\nname: 薛姨媽\nkind: character\n---\n",
			"entities/characters/bajie.md":     "---\nname: 豬八戒\naliases: [八戒]\nkind: character\n---\n",
			"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("薛姨媽笑了。八戒來了。", uses),
		}
	}
	often, seldom := bookProject(t, files(20)), bookProject(t, files(2))
	for _, tc := range []struct {
		k          *Knowledge
		text, want string
	}{
		{often, "外面只剩了一兩個男子．因此薛姨嗎即日到書房，將一應陳設收了。", "薛姨嗎"},
		{often, "外面只剩了一兩個男子．因此薛姨媽即日到書房，將一應陳設收了。", ""},
		{often, "外面只剩了一兩個男子．因此薛姨娘即日到書房，將一應陳設收了。", ""},
		{seldom, "外面只剩了一兩個男子．因此薛姨嗎即日到書房，將一應陳設收了。", ""},
		{often, "那師父猛抬頭，咄的一聲，喝退了八誡道：「你這個孽畜！」", "八誡"},
		{often, "那師父猛抬頭，咄的一聲，喝退了八戒道：「你這個孽畜！」", ""},
		{seldom, "那師父猛抬頭，咄的一聲，喝退了八誡道：「你這個孽畜！」", ""},
	} {
		if got := strings.Join(found(tc.k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestFirstLetterChanged: a name word of five letters or more the book
// writes often, with its first letter alone changed (Atrádnoe for
// Otrádnoe, Hemberley for Pemberley, Rucas for Lucas), is a slip; a word
// of four so changed (Cane beside Jane), a word the dictionary knows as a
// name (Polly beside Molly), a name the book seldom writes and a form the
// book writes often itself (Volkónski beside Bolkónski) are not.
func TestFirstLetterChanged(t *testing.T) {
	files := func(uses int) map[string]string {
		return map[string]string{
			"entities/locations/otradnoe.md":   "---\nname: Otrádnoe\nkind: location\n---\n",
			"entities/locations/pemberley.md":  "---\nname: Pemberley\nkind: location\n---\n",
			"entities/characters/lucas.md":     "---\nname: Sir William Lucas\naliases: [Lucas]\nkind: character\n---\n",
			"entities/characters/jane.md":      "---\nname: Jane Bennet\naliases: [Jane]\nkind: character\n---\n",
			"entities/characters/molly.md":     "---\nname: Molly Brown\naliases: [Molly]\nkind: character\n---\n",
			"entities/characters/bolkonski.md": "---\nname: Prince Andrew Bolkónski\naliases: [Bolkónski]\nkind: character\n---\n",
			"manuscript/chapter-01/content.md": "Chapter 1\n\n" + strings.Repeat("They rode to Otrádnoe. Jane saw Pemberley. Bolkónski came. Lucas and Molly sat. ", uses) + strings.Repeat("Volkónski spoke. ", 5),
		}
	}
	often, seldom := bookProject(t, files(20)), bookProject(t, files(2))
	for _, tc := range []struct {
		k          *Knowledge
		text, want string
	}{
		{often, "He began to wonder how things would be at Atrádnoe and what he would find there.", "Atrádnoe"},
		{often, "He began to wonder how things would be at Otrádnoe and what he would find there.", ""},
		{often, "They drove on to Hemberley in the afternoon.", "Hemberley"},
		{often, "They called on Sir William Rucas in the afternoon.", "Rucas"},
		{often, "They saw Cane in the afternoon.", ""},
		{often, "They saw Polly in the afternoon.", ""},
		{often, "Prince Volkónski came in with the papers.", ""},
		{seldom, "He began to wonder how things would be at Atrádnoe and what he would find there.", ""},
	} {
		if got := strings.Join(found(tc.k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestDashAndTie: a name before a dash written as two hyphens
// ("Pemerley--for") is a word of its own, checked, while one joined by a
// single hyphen is part of a compound; a word as near two names of the
// chapter's equal use is taken for the one the book writes far more often
// (Rostóvv: Rostóv, not Rostóva), and left alone where the book writes
// both alike.
func TestDashAndTie(t *testing.T) {
	files := func(rostova int) map[string]string {
		return map[string]string{
			"entities/locations/pemberley.md":  "---\nname: Pemberley\nkind: location\n---\n",
			"entities/characters/nicholas.md":  "---\nname: Nicholas Rostóv\naliases: [Rostóv]\nkind: character\n---\n",
			"entities/characters/natasha.md":   "---\nname: Natásha Rostóva\naliases: [Rostóva]\nkind: character\n---\n",
			"manuscript/chapter-01/content.md": "Chapter 1\n\n" + strings.Repeat("They saw Pemberley. Rostóv came. ", 40) + strings.Repeat("Rostóva sat. ", rostova),
		}
	}
	far, alike := bookProject(t, files(2)), bookProject(t, files(40))
	for _, tc := range []struct {
		k          *Knowledge
		text, want string
	}{
		{far, "On the very day of her arrival at Pemerley--for she had reached it only then.", "Pemerley"},
		{far, "They took the Pemerley-road in the afternoon.", ""},
		{far, "The soldiers mounted. Rostóvv riding in front gave the order.", "Rostóvv"},
		{alike, "The soldiers mounted. Rostóvv riding in front gave the order.", ""},
	} {
		if got := strings.Join(found(tc.k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestWholeNameOfTheSameReading: a two-character name typed as another
// word of the same readings (巴界 for 八戒) is a slip where a name
// starts, for a name the book writes often; not in the middle of a
// phrase, and not for a name the book seldom writes.
func TestWholeNameOfTheSameReading(t *testing.T) {
	files := func(uses int) map[string]string {
		return map[string]string{
			"entities/characters/bajie.md":     "---\nname: 豬八戒\naliases: [八戒]\nkind: character\n---\n",
			"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("八戒笑了。", uses),
		}
	}
	often, seldom := bookProject(t, files(20)), bookProject(t, files(2))
	for _, tc := range []struct {
		k          *Knowledge
		text, want string
	}{
		{often, "行者道：「走罷。」巴界道：「哥哥等我。」", "巴界"},
		{often, "行者道：「走罷。」八戒道：「哥哥等我。」", ""},
		{often, "行者道：「這是尾巴界上的事。」", ""},
		{seldom, "行者道：「走罷。」巴界道：「哥哥等我。」", ""},
	} {
		if got := strings.Join(found(tc.k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestSlavicForms: the feminine of a Russian surname and a surname in
// -ova beside a patronymic in -ovna name other people, not slips; a letter
// changed elsewhere is still one.
func TestSlavicForms(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"dólokhova", "dólokhov", true},
		{"rostóva", "rostóv", true},
		{"ilyína", "ilyín", true},
		{"semënova", "semënovna", true},
		{"dólokhav", "dólokhov", false},
		{"rostóv", "rostóva", false},
		{"natasha", "natash", false},
	} {
		if got := slavicForm([]rune(tc.a), []rune(tc.b)); got != tc.want {
			t.Errorf("slavicForm(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
	k := bookProject(t, map[string]string{
		"entities/characters/dolokhov.md": "---\nname: Dólokhov\nkind: character\n---\n",
	})
	for _, tc := range []struct{ text, want string }{
		{"Dólokhova, his mother, came in.", ""},
		{"Dólakhov came in.", "Dólakhov"},
	} {
		if got := strings.Join(found(k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestFirstCharacterOfTheSameReading: a two-character name the book
// writes often, typed with its first character as another of the same
// reading and tone (習人 for 襲人, 相云 for 湘云), is a slip where a name
// stands as the subject; the same window the book writes as a word, or
// after a verb, is not.
func TestFirstCharacterOfTheSameReading(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/xiren.md":     "---\nname: 襲人\nkind: character\n---\n",
		"entities/characters/xiangyun.md":  "---\nname: 史湘云\naliases: [湘云]\nkind: character\n---\n",
		"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("襲人笑了。湘云來了。", 20) + strings.Repeat("相公來了。", 3),
	})
	for _, tc := range []struct{ text, want string }{
		{"寶玉道：“去罷。”習人道：“好。”", "習人"},
		{"寶玉道：“去罷。”“相云听說，忙道：“休說這話。”", "相云"},
		{"寶玉道：“去罷。”相公道：“好。”", ""},
		{"寶玉又學習人情世故。", ""},
		{"一則寶玉不便，二則習人嫌疑。", "習人"},
	} {
		if got := strings.Join(found(k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestTheBookTeachesWhatANumberMeasures: a Chinese number of a declared
// value's unit is that fact's when the words the other chapters write
// before the declared value stand before it (觔斗 before 十萬八千里), though
// the key, in English, is never in the text; its holder may be a
// possessor or the owner of another declared value in the sentence. The
// chapter checked never teaches: a cue only it would give is none.
func TestTheBookTeachesWhatANumberMeasures(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/wukong.md": "---\nname: 孫悟空\naliases: [行者, 老孫]\nkind: character\n" +
			"facts: { somersault_distance: 十萬八千里, weapon: 如意金箍棒, weapon_weight: 一萬三千五百斤 }\n---\n",
		"manuscript/chapter-01/content.md": "第一回\n\n行者駕觔斗雲，一去十萬八千里。如意金箍棒，重一萬三千五百斤。\n",
		"manuscript/chapter-02/content.md": "第二回\n\n行者道：「我一個觔斗有十萬八千里。」此去西天也有十萬八千里。那金箍棒有一萬三千五百斤。\n",
		"manuscript/chapter-03/content.md": "第三回\n\n那猴一觔斗就有十萬八千里。\n",
	})
	for _, tc := range []struct {
		name, text string
		ch         int
		want       string
	}{
		{"a possessor's measure", "行者笑道：「老孫的觔斗雲，一縱有八萬四千里。」", 5, "八萬四千里"},
		{"the subject's measure", "只因行者會駕觔斗雲，一去有五萬四千里路。", 5, "五萬四千里"},
		{"the declared value", "只因行者會駕觔斗雲，一去有十萬八千里路。", 5, ""},
		{"a journey of the same unit", "行者道：「此去西天有八萬四千里。」", 5, ""},
		{"a distance travelled", "好猴王，急縱觔斗雲，霎時間過了二百里水面。", 5, ""},
		{"the owner of the thing measured", "這條棍本是如意金箍棒，稱來有一萬八千斤重。", 5, "一萬八千斤"},
		{"a cue only the checked chapter writes", "行者的金箍棒有一萬八千斤。", 2, ""},
		{"the same, checked as another chapter", "行者的金箍棒有一萬八千斤。", 5, "一萬八千斤"},
	} {
		if got := strings.Join(found(k, tc.text, tc.ch, TypeFact), " "); got != tc.want {
			t.Errorf("%s: %s (chapter %d): fact findings %q, want %q", tc.name, tc.text, tc.ch, got, tc.want)
		}
	}
}

// TestAFullNameTheBookWrites: 的/之 with a kinship word after a full name
// no file declares judges the whole name when the manuscript writes it
// often (賈薔 is a person of the book, not 賈蓉's slip); a name the book
// does not write, or a familiar form, is left alone.
func TestAFullNameTheBookWrites(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/qin.md":       "---\nname: 秦可卿\naliases: [秦氏]\nkind: character\nfacts: { spouse: 賈蓉 }\n---\n",
		"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("賈薔來了，賈蓉也來了。", 5) + "\n",
	})
	for _, tc := range []struct {
		text, want string
	}{
		{"早有賈珍之妻尤氏与賈薔之妻秦氏婆媳兩個接出儀門。", "賈薔"},
		{"早有賈蓉之妻秦氏接出儀門。", ""},
		{"早有賈芸之妻秦氏接出儀門。", ""}, // a name the book never writes
		{"早有蓉哥兒之妻秦氏接出儀門。", ""},
	} {
		if got := strings.Join(found(k, tc.text, 7, TypeFact), " "); got != tc.want {
			t.Errorf("%s: fact findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestANameAfterADemonstrative: 那 before a name's first character makes
// no word with it, though the book writes 那朱 (那朱紫國) often, and the
// fix keeps the text's script where the window's characters are the same
// in both (朱八戒 in a traditional text: 豬八戒, not 猪八戒).
func TestANameAfterADemonstrative(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/bajie.md":     "---\nname: 豬八戒\naliases: [八戒]\nkind: character\n---\n",
		"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("豬八戒來了。", 20) + strings.Repeat("到了那朱紫國。", 3) + "\n",
	})
	text := "且不言三藏逢災。卻說那朱八戒從離了沙僧，一頭藏在草科裏。"
	var got []string
	for _, f := range Check(text, 5, k, "") {
		if f.Type == TypeName {
			got = append(got, text[f.Start:f.End]+"→"+f.Suggestion)
		}
	}
	if strings.Join(got, " ") != "朱八戒→豬八戒" {
		t.Errorf("name findings %q, want 朱八戒→豬八戒", got)
	}
}

// TestCountInIsStringsCount: counting a form by its rarest byte gives
// strings.Count's count, leftmost matches first and none overlapping,
// for Chinese, astral and Latin forms, forms that overlap themselves,
// and forms at both ends of the text.
func TestCountInIsStringsCount(t *testing.T) {
	text := "寶玉寶玉寶玉，黛玉笑道：寶寶寶玉。𝄞𝄞𝄞 aaaaa abab ababab 紅樓夢寶玉"
	b := &bookForms{chapters: []string{text}, folder: testFolder}
	b.once.Do(b.build)
	for _, s := range []string{"寶玉", "寶寶", "寶寶寶", "玉寶", "𝄞𝄞", "aa", "aaa", "abab", "ab", "紅樓夢寶玉", "寶玉寶玉", "\n", "玉", "x", "夢寶玉\n", "黛玉說"} {
		if got, want := b.countIn(b.cjk, s), strings.Count(b.cjk, s); got != want {
			t.Errorf("countIn(%q) = %d, strings.Count = %d", s, got, want)
		}
	}
	// Random texts and forms of three letters, one of them rare.
	r := rand.New(rand.NewPCG(1, 2))
	letters := []string{"寶", "寶", "寶", "a", "a", "玉"}
	word := func(n int) string {
		var w strings.Builder
		for range n {
			w.WriteString(letters[r.IntN(len(letters))])
		}
		return w.String()
	}
	for range 2000 {
		text := word(r.IntN(40))
		b := &bookForms{chapters: []string{text}, folder: testFolder}
		b.once.Do(b.build)
		s := word(1 + r.IntN(4))
		if got, want := b.countIn(text, s), strings.Count(text, s); got != want {
			t.Fatalf("countIn(%q, %q) = %d, strings.Count = %d", text, s, got, want)
		}
	}
}

// TestMayHoldRulesOutOnlyAbsentForms: every form the folded chapter
// holds (Chinese in either script, astral text) may be held; forms with
// a pair of characters the chapter never writes side by side are ruled
// out; a chapter without Chinese rules out nothing.
func TestMayHoldRulesOutOnlyAbsentForms(t *testing.T) {
	k := bookProject(t, map[string]string{"entities/characters/wukong.md": "---\nname: 孫悟空\nkind: character\n---\n"})
	d := k.analyze("那孫悟空駕觔斗雲，一去十萬八千里，𝄞𠀀到了東勝神洲傲來國花果山。", 3)
	fr := d.frunes
	for i := range fr {
		for j := i + 1; j <= min(len(fr), i+6); j++ {
			if s := string(fr[i:j]); !d.mayHold(s) {
				t.Errorf("mayHold(%q) = false; the chapter holds it", s)
			}
		}
	}
	if !d.mayHold(string(k.foldRunes("孫悟空"))) || !d.mayHold(string(k.foldRunes("孙悟空"))) {
		t.Error("the name in the other script is ruled out")
	}
	for _, s := range []string{"豬八戒", "悟空雲", "花果洞", "西牛賀洲"} {
		if d.mayHold(string(k.foldRunes(s))) {
			t.Errorf("mayHold(%q) = true; the chapter never writes it", s)
		}
	}
	if latin := k.analyze("Pierre came in.", 3); !latin.mayHold("豬八戒") {
		t.Error("a chapter without Chinese ruled a form out")
	}
}
