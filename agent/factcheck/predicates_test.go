package factcheck

import (
	"strings"
	"testing"
)

// TestEnglishFactConstructions: facts stated in constructions beyond a
// copula and a number with its noun. Each case names the construction
// and the finding's text ("" for none).
func TestEnglishFactConstructions(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/denisov.md": "---\nname: Vasíli Denísov\naliases: [Denísov, Váska]\nkind: character\n" +
			"facts: { rank: lieutenant colonel, age: 40 }\n---\n",
		"entities/characters/karataev.md": "---\nname: Platón Karatáev\naliases: [Karatáev]\nkind: character\nfacts: { age: about fifty }\n---\n",
		"entities/characters/pierre.md": "---\nname: Pierre Bezúkhov\naliases: [Pierre]\nkind: character\ngender: m\n" +
			"facts: { income: five hundred thousand rubles a year }\n---\n",
		"entities/locations/bald-hills.md": "---\nname: Bald Hills\nkind: location\nfacts: { distance_from_smolensk: forty miles east }\n---\n",
		"entities/locations/smolensk.md":   "---\nname: Smolénsk\nkind: location\n---\n",
		"entities/characters/lise.md":      "---\nname: Princess Lise Bolkónskaya\naliases: [Lise]\nkind: character\nfacts: { spouse: Prince Andrew Bolkónski }\n---\n",
		"entities/characters/andrew.md":    "---\nname: Prince Andrew Bolkónski\naliases: [Prince Andrew]\nkind: character\nfacts: { serves_as: adjutant to Kutúzov }\n---\n",
		"entities/characters/anatole.md":   "---\nname: Anatole Kurágin\naliases: [Kurágin, Anatole]\nkind: character\n---\n",
		"entities/characters/fitz.md":      "---\nname: Colonel Fitzwilliam\nkind: character\nfacts: { position: younger son of an earl }\n---\n",
		"entities/characters/helene.md":    "---\nname: Hélène\naliases: [Countess Bezúkhova]\nkind: character\nfacts: { spouse: Pierre Bezúkhov }\n---\n",
		"entities/characters/dolokhov.md":  "---\nname: Dólokhov\nkind: character\nfacts: { rank: private (reduced to the ranks) }\n---\n",
		"entities/locations/otradnoe.md":   "---\nname: Otrádnoe\nkind: location\nfacts: { distance_to_ryazan_highroad: two miles }\n---\n",
		"entities/locations/pemberley.md":  "---\nname: Pemberley\nkind: location\nfacts: { distance_to_lambton: five miles }\n---\n",
		"entities/characters/lydia.md":     "---\nname: Lydia Bennet\naliases: [Lydia]\nkind: character\nfacts: { position: youngest }\n---\n",
		"entities/characters/mary.md":      "---\nname: Mary Bennet\naliases: [Mary]\nkind: character\nfacts: { position: third daughter }\n---\n",
		"entities/characters/natasha.md":   "---\nname: Natásha Rostóva\naliases: [Natásha]\nkind: character\nfacts: { children: three daughters and a son, wedding_year: 1813, born: 1793 }\n---\n",
		"entities/characters/dessalles.md": "---\nname: Dessalles\nkind: character\nfacts: { origin: Swiss }\n---\n",
		"entities/characters/charlotte.md": "---\nname: Charlotte Lucas\naliases: [Charlotte, Miss Lucas]\nkind: character\ngender: f\nfacts: { age: 27 }\n---\n",
		"entities/characters/collins.md":   "---\nname: Mr. Collins\nkind: character\ngender: m\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"the wedding's year and another's", "Natásha had married in the early spring of 1815, and in 1820 already had three daughters.", "1815"},
		{"a year under a key naming the event alone", "Natásha was born in 1795, in Moscow.", "1795"},
		{"a post under another", "This was Prince Andrew, one of Bagratión’s adjutants.", "Bagratión’s adjutants"},
		{"the post under the declared one", "This was Prince Andrew, one of Kutúzov’s adjutants.", ""},
		{"a post after a copula", "Prince Andrew was now adjutant to Prince Bagratión.", "adjutant to Prince Bagratión"},
		{"someone else's post", "Prince Andrew met Bagratión’s adjutants at the bridge.", ""},
		{"rank before a name declared without it", "“I’m Major Denísov,” he said.", "Major"},
		{"the age of, of the one woman the paragraph names", "Charlotte herself was composed. She had gained her point. She had time to consider it. Mr. Collins was neither sensible nor agreeable. But still he would be her husband. This she had now obtained; and at the age of two-and-thirty she felt all the good luck of it.", "two-and-thirty"},
		{"the age of, with two women in the paragraph", "Charlotte herself was composed. Mary had gained her point. She had time to consider it. Mr. Collins was neither sensible nor agreeable. But still he would be her husband. This she had now obtained; and at the age of two-and-thirty she felt all the good luck of it.", ""},
		{"the age of, dating an event", "Charlotte was no longer young, as she had come to Lucas Lodge at the age of sixteen.", ""},
		{"the age of, the paragraph before", "Charlotte herself was composed.\nShe had gained her point. She had time to consider it. Mr. Collins was neither sensible nor agreeable. But still he would be her husband. This she had now obtained; and at the age of two-and-thirty she felt all the good luck of it.", ""},
		{"the declared rank before the name", "“I’m Colonel Denísov,” he said.", ""},
		{"a post, not a rank", "The squadron commander Denísov rode up.", ""},
		{"age after must have been", "Platón Karatáev must have been thirty, judging by his stories.", "thirty"},
		{"age within the declared range", "Karatáev must have been fifty, judging by his stories.", ""},
		{"income the noun amounts to", "Since he had come into an income which was said to amount to fifty thousand rubles a year, Pierre felt poorer.", "fifty thousand rubles a year"},
		{"a cost is no income", "His Moscow estate, which had cost him eighty thousand rubles a year, brought nothing to Pierre.", ""},
		{"distance to an accented place", "Bald Hills lay ninety miles east from Smolénsk.", "ninety miles east"},
		{"an age joined to the name", "Before she had finished, thirty-year-old Karatáev rushed in.", "thirty"},
		{"an age joined to a thing", "Karatáev sat under the thirty-year-old birches.", ""},
		{"an age in apposition", "Denísov, a tall young man of thirty, came in.", "thirty"},
		{"someone else's age", "Denísov saw at the table a man of thirty.", ""},
		{"an age after a copula", "Karatáev was a tall, heavy-looking old man of thirty.", "thirty"},
		{"a spouse in apposition", "“I’ll speak to Lise, young Kurágin’s wife, this very evening.”", "young Kurágin’s wife"},
		{"the declared spouse in apposition", "“I’ll speak to Lise, Prince Andrew’s wife, this very evening.”", ""},
		{"a spouse before the name", "Kurágin’s wife, Lise, came in.", "Kurágin’s wife"},
		{"a spouse after a copula", "Lise was the wife of Anatole, they said.", "Anatole"},
		{"two names in a sentence", "Lise sat beside Kurágin’s wife.", ""},
		{"married another", "In the winter Lise married Anatole and moved away.", "Anatole"},
		{"married the declared spouse", "In the winter Lise married Prince Andrew and moved away.", ""},
		{"a rank joined to its arm", "The best quarters were assigned to cavalry-major Denísov.", "major"},
		{"the declared rank joined to its arm", "The best quarters were assigned to lieutenant-colonel Denísov.", ""},
		{"one of the things a value counts", "In 1820 Natásha already had two daughters besides a son.", "two daughters"},
		{"another of them, agreeing", "In 1820 Natásha already had a son and three daughters.", ""},
		{"a birth order in apposition", "Mr. Darcy had brought with him a Colonel Fitzwilliam, the eldest son of his uncle.", "eldest"},
		{"the declared birth order", "Colonel Fitzwilliam, the younger son of an earl, came in.", ""},
		{"a numbered place for a younger son", "Colonel Fitzwilliam, the second son of an earl, came in.", ""},
		{"a birth order against a bare declared one", "Lydia, the eldest daughter, came in.", "eldest"},
		{"a birth order agreeing with a bare declared one", "Lydia was the youngest daughter of the house.", ""},
		{"an only that restricts", "Mary was the only daughter who remained at home.", ""},
		{"an only that says it", "Mary was the only daughter of the house.", "only"},
		{"a rank against a rank with a remark", "He said that Lieutenant Dólokhov had taken an officer.", "Lieutenant"},
		{"the declared rank with a remark", "He said that Private Dólokhov had taken an officer.", ""},
		{"a rank served in", "The regiment in which Dólokhov was serving as an ensign stood on the left.", "ensign"},
		{"a rank served in, past", "Denísov served as a captain in the hussars.", "captain"},
		{"the declared rank served in", "The regiment in which Dólokhov was serving as a private stood on the left.", ""},
		{"serving as something else", "Denísov was serving as a guide to the Cossacks.", ""},
		{"a distance off a road the key names", "Otrádnoe lay only twelve miles off the Ryazán highroad.", "twelve miles"},
		{"the declared distance off it", "Otrádnoe lay only two miles off the Ryazán highroad.", ""},
		{"a distance to a place a comma ends", "Within fifteen miles of Lambton, Pemberley was situated.", "fifteen miles"},
		{"the declared distance to it", "Within five miles of Lambton, Pemberley was situated.", ""},
		{"a spouse made a sister", "She was the Countess Bezúkhova, Pierre’s sister, and the count bowed.", "Pierre’s sister"},
		{"a sister nothing contradicts", "She was the Countess Bezúkhova, Anatole’s sister, and the count bowed.", ""},
		{"a wife of someone no file declares", "She was the Countess Bezúkhova, Prince Ippolít’s wife, and the count bowed.", "Prince Ippolít’s wife"},
		{"a wife of the declared husband by his title", "She was the Countess Bezúkhova, Count Bezúkhov’s wife, and the count bowed.", ""},
		{"a possessive at the end of the text", "She was the Countess Bezúkhova, Prince Ippolít’s", ""},
		{"a possessive before a space only", "She was the Countess Bezúkhova, Ippolít’s ", ""},
		{"a people's adjective before a calling and a name", "Prince Andrew argued with the German tutor Dessalles.", "German"},
		{"the declared people", "Prince Andrew argued with the Swiss tutor Dessalles.", ""},
		{"a people's adjective as a subject", "Even a German beats Dessalles.", ""},
		{"an age after a copula, a new clause joined", "Charlotte was thirty-five and it was the year of her marriage.", "thirty-five"},
		{"an age after a copula, a new clause joined by a name", "Charlotte was thirty-five but Mr. Collins did not mind.", "thirty-five"},
		{"a number after a copula joined to a fraction", "Charlotte was thirty-five and a half miles from home.", ""},
		{"a few years more than the front matter's age, later on", "Charlotte was twenty-nine and she had grown very sensible.", ""},
		{"a few years more than the front matter's age, at a stop", "Charlotte was twenty-nine.", ""},
		{"many years more than the front matter's age", "Charlotte was thirty-one and she had grown very sensible.", "thirty-one"},
		{"a distance with a bearing before from", "Otrádnoe lay twelve miles south from the Ryazán highroad.", "twelve miles"},
		{"a distance with a bearing phrase before of", "Otrádnoe lay twelve miles to the north of the Ryazán highroad.", "twelve miles"},
		{"the declared distance with a bearing", "Otrádnoe lay two miles south from the Ryazán highroad.", ""},
		{"the year of an event the key names", "Natásha’s wedding to Bezúkhov, which took place in 1815, was the last happy event.", "1815"},
		{"the declared year", "Natásha’s wedding to Bezúkhov, which took place in 1813, was the last happy event.", ""},
		{"a year of another event", "Natásha was ill in 1815.", ""},
		{"the declared year beside another", "Natásha married in 1813, and in 1820 had three daughters.", ""},
	} {
		wantFacts(t, k, tc.name, tc.text, tc.want)
	}
}

// TestChineseFactConstructions: ages, residences and origins predicated
// in Chinese, against declared values of the kind they are (a number of
// years, a place).
func TestChineseFactConstructions(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/liu.md": "---\nname: 劉姥姥\nkind: character\n" +
			"progressions:\n  - { chapter: 6, facts: { 年紀: 七十五歲 } }\n---\n",
		"entities/characters/jiamu.md": "---\nname: 賈母\naliases: [老太太]\nkind: character\n" +
			"progressions:\n  - { chapter: 71, facts: { 年紀: 八十歲 } }\n  - { chapter: 110, facts: { 年紀: 八十三歲 } }\n---\n",
		"entities/characters/daiyu.md": "---\nname: 林黛玉\naliases: [黛玉]\nkind: character\nfacts: { 住處: 大觀園瀟湘館, 原籍: 蘇州 }\n---\n" +
			"第二十三回住進大觀園，選了瀟湘館。\n",
		"entities/characters/yucun.md":    "---\nname: 賈雨村\naliases: [雨村, 賈化]\nkind: character\nfacts: { 官職: 知縣, 原籍: 胡州 }\n---\n",
		"entities/characters/jiazhen.md":  "---\nname: 賈珍\nkind: character\nfacts: { 爵位: 世襲三品爵威烈將軍 }\n---\n",
		"entities/characters/bajie.md":    "---\nname: 豬八戒\nkind: character\nfacts: { 前身: 天蓬元帥 }\n---\n",
		"entities/characters/sha.md":      "---\nname: 沙悟淨\nkind: character\nfacts: { 前身: 捲簾大將 }\n---\n",
		"entities/characters/wukong.md":   "---\nname: 孫悟空\naliases: [行者]\nkind: character\nfacts: { 前身: 石猴, somersault: 十萬八千里, 金箍棒重: 一萬三千五百斤, home: 東勝神洲傲來國花果山水簾洞, master: 唐三藏 }\n---\n",
		"entities/characters/li.md":       "---\nname: 李嬤嬤\nkind: character\nfacts: { age: 83 }\n---\n",
		"entities/characters/tanchun.md":  "---\nname: 探春\nkind: character\nfacts: { 母親: 趙姨娘 }\n---\n",
		"entities/characters/guanyin.md":  "---\nname: 觀音菩薩\nkind: character\n---\n",
		"entities/characters/yuanchun.md": "---\nname: 賈元春\naliases: [元春, 大小姐]\nkind: character\nfacts: { birthday: 正月初一日 }\n---\n",
		"entities/characters/chen.md":     "---\nname: 陳光蕊\nkind: character\nfacts: { 原籍: 海州弘農郡聚賢莊 }\n---\n",
		"entities/characters/yousan.md":   "---\nname: 尤三姐\nkind: character\nfacts: { 丈夫: 賈珍 }\n---\n",
		"entities/locations/ningguo.md":   "---\nname: 寧國府\nkind: location\n---\n",
		"entities/locations/daguan.md":    "---\nname: 大觀園\nkind: location\n---\n",
		"entities/characters/youer.md":    "---\nname: 尤二姐\nkind: character\nfacts: { 原聘: 張華 }\n---\n",
		"entities/characters/hong.md":     "---\nname: 紅孩兒\nkind: character\nfacts: { 父親: 牛魔王 }\n---\n",
		"entities/characters/niu.md":      "---\nname: 牛魔王\nkind: character\n---\n",
		"entities/characters/xiren.md":    "---\nname: 襲人\nkind: character\nfacts: { 姓: 花 }\n---\n",
		// The book names 羅剎 and 羅成 often: full names no file declares.
		"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("羅剎來了。羅成來了。", 6) + "\n",
		"entities/characters/luocha.md":    "---\nname: 羅剎女\nkind: character\nfacts: { 丈夫: 牛魔王 }\nrelations:\n  - { to: entities/characters/hong, kind: son }\n---\n",
		"entities/characters/xiangling.md": "---\nname: 香菱\naliases: [英蓮]\nkind: character\nfacts: { 父親: 甄士隱, 母親: 封氏 }\n" +
			"progressions:\n  - { chapter: 1, facts: { 年紀: 三歲 } }\n  - { chapter: 4, facts: { 年紀: 十二三歲 } }\n---\n",
	})
	for _, tc := range []struct {
		name, text string
		ch         int
		want       string
	}{
		{"an age after 年方", "只有一女，乳名喚作英蓮，年方五歲。", 1, "五歲"},
		{"a classical range", "那英蓮年方十三歲。", 4, ""},
		{"the speaker's own age", "劉姥姥忙立身答道：「我今年八十五了。」", 6, "八十五"},
		{"an age in decades", "因今歲八月初三日乃賈母七旬之慶，便早同賈赦商議。", 72, "七旬"},
		{"the declared age in decades", "因今歲八月初三日乃賈母八旬之慶，便早同賈赦商議。", 72, ""},
		{"an age between two stated ones", "賈母道：「我今年八十一歲的人了。」", 88, ""},
		{"an age to come", "奉養老太太到一百歲的時候。", 88, ""},
		{"a residence", "原來黛玉住在寧國府中。", 83, "寧國府"},
		{"the part of a residence", "原來黛玉住在大觀園中。", 83, ""},
		{"an origin after a copula", "黛玉本是揚州人氏。", 83, "揚州"},
		{"the declared origin", "黛玉本是蘇州人氏。", 83, ""},
		{"an origin in a relative clause", "惟有原籍金陵的林黛玉看見家鄉之物。", 83, "金陵"},
		{"another first level after 祖貫", "那陳光蕊祖貫南贍部洲弘農郡聚賢莊人氏。", 20, "南贍部洲弘農郡聚賢莊"},
		{"the declared first level, the rest in other words", "那陳光蕊祖貫海州東海縣弘農郡人氏。", 20, ""},
		{"a copula after 原籍", "賈雨村原籍是江西饒州府人。", 92, "江西饒州府"},
		{"the declared place in characters of the same readings", "賈雨村原籍是浙江湖州府人。", 92, ""},
		{"a place one reading off", "賈雨村原籍是浙江徐州府人。", 92, "浙江徐州府"},
		{"他 of the one person the talk is about (holders.go)", "馮紫英道：“雨村老先生是貴本家不是？”賈政道：“說也話長．他原籍是江西饒州府人。”", 92, "江西饒州府"},
		{"他 is not judged when the one talked about is in the scene", "雨村也在座。馮紫英道：“雨村老先生是貴本家不是？”賈政道：“說也話長．他原籍是江西饒州府人。”", 92, ""},
		{"born on another day", "只因現今大小姐是正月十五日所生，故名元春。", 2, "正月十五日"},
		{"born on the declared day", "只因現今大小姐是正月初一日所生，故名元春。", 2, ""},
		{"a date that is no birth", "元春於正月十五日回家省親。", 2, ""},
		{"a disciple of another", "那觀音菩薩的徒弟孫悟空來了。", 17, "觀音菩薩"},
		{"a disciple of the declared master", "孫悟空乃唐三藏之徒弟。", 17, ""},
		{"born of another", "探春是周姨娘所生的姑娘，所以只說了一句。", 55, "周姨娘"},
		{"born of the declared mother", "探春是趙姨娘所生的姑娘，所以只說了一句。", 55, ""},
		{"an age at death, of the latest subject", "黛玉上去扶著，听見李嬤嬤喉間略一響動，竟是去了，享年七十三歲。", 110, "七十三歲"},
		{"a name that ends its clause is no subject", "黛玉見了李嬤嬤，今年七十三歲。", 110, ""},
		{"the declared origin in a relative clause", "惟有原籍蘇州的林黛玉看見家鄉之物。", 83, ""},
		{"an office before the name", "只見知府賈雨村進來。", 3, "知府"},
		{"an office predicated", "雨村便補授了知府。", 3, "知府"},
		{"someone else's office", "雨村見了那知府，便說起舊事。", 3, ""},
		{"another title before the name", "祖，乙卯科進士賈敬，父，世襲三品爵神威將軍賈珍。", 13, "神威將軍"},
		{"the declared title", "父，世襲三品爵威烈將軍賈珍。", 13, ""},
		{"a phrase ending in a head", "那有名的大將軍賈珍來了。", 13, ""},
		{"another's value, addressed", "如來道：「沙悟淨，汝本是天蓬元帥。」", 100, "天蓬元帥"},
		{"another's value, as subject", "沙悟淨本是天蓬元帥。", 100, "天蓬元帥"},
		{"the one who holds it", "豬八戒本是天蓬元帥。", 100, ""},
		{"a clause between", "行者急回頭上望，原來是天蓬元帥。", 100, ""},
		{"part of something else", "沙悟淨是天蓬元帥的兄弟。", 100, ""},
		{"another's value, said of oneself", "國王道：「怎麼降？」沙悟淨道：「我乃是天蓬元帥，只因罪犯天條。」", 100, "天蓬元帥"},
		{"one's own value, said of oneself", "國王道：「怎麼降？」豬八戒道：「我乃是天蓬元帥，只因罪犯天條。」", 100, ""},
		{"a place's first level replaced", "那怪道：「你鬧天宮時，家住在南贍部洲傲來國花果山水簾洞裏。」", 19, "南贍部洲傲來國花果山水簾洞"},
		{"the declared place", "那怪道：「你鬧天宮時，家住在東勝神洲傲來國花果山水簾洞裏。」", 19, ""},
		{"the rest of the place alone", "那怪道：「你鬧天宮時，家住在傲來國花果山水簾洞裏。」", 19, ""},
		{"a first level replaced before the next level alone", "三藏道：「大的個徒弟，祖貫西牛賀洲傲來國人氏。」", 54, "西牛賀洲傲來國"},
		{"the declared first level before the next level alone", "三藏道：「大的個徒弟，祖貫東勝神洲傲來國人氏。」", 54, ""},
		{"another first level before a place of two characters", "三藏道：「他是西牛賀洲花果人氏。」", 54, ""},
		{"a family name right after the name", "原來襲人本姓柳，自幼賣到賈府。", 23, "姓柳"},
		{"the declared family name", "原來襲人本姓花，自幼賣到賈府。", 23, ""},
		{"someone else's family name asked", "襲人問道：「你姓什麼？」那人道：「我姓柳。」", 23, ""},
		{"a name split by 姓 and 名, a place before 人氏", "原來本府新升的太爺姓賈名化，本貫金陵人氏。", 2, "金陵"},
		{"the declared place before 人氏", "原來本府新升的太爺姓賈名化，本貫胡州人氏。", 2, ""},
		{"a count of people before 人也", "不是雨村該有命不死，就是二十個僧人也打為肉醬。", 2, ""},
		{"a speaker who names themself", "那婆子道：「老身叫做劉姥姥。我今年八十五了。」", 6, "八十五"},
		{"an age that tells a past time", "那婆子道：「老身叫做劉姥姥。我五十歲上還沒兒子。」", 6, ""},
		{"a distance whose key is not named", "孫悟空駕雲走了二百里。", 3, ""},
		{"a weight whose key is named", "孫悟空說金箍棒重三千斤。", 3, "三千斤"},
		{"long live the emperor", "眾人山呼萬歲，劉姥姥也跪下。", 6, ""},
		{"a betrothal is no marriage", "看得尤三姐實系張華指腹為婚未娶之妻。", 107, ""},
		{"another house's daughter", "他就是葫蘆廟旁住的封老爺的小姐，名喚英蓮的。", 4, "封老爺"},
		{"the father's house", "他就是葫蘆廟旁住的甄老爺的小姐，名喚英蓮的。", 4, ""},
		{"betrothed to another", "看得尤二姐實系柳湘蓮指腹為婚未娶之妻，因伊貧苦自愿退婚。", 107, "柳湘蓮"},
		{"the declared betrothed", "看得尤二姐實系張華指腹為婚未娶之妻。", 107, ""},
		{"someone else's wife seen", "尤二姐見了柳湘蓮之妻。", 107, ""},
		{"a father made a brother", "原來那紅孩兒是牛魔王的兄弟。", 40, "牛魔王"},
		{"a son of another", "前年在火雲洞，曾與羅成之子紅孩兒有些言語。", 59, "羅成"},
		{"a son of another, declared", "前年在火雲洞，曾與觀音菩薩之子紅孩兒有些言語。", 59, "觀音菩薩"},
		{"a son of the mother whose file names him", "前年在火雲洞，曾與羅剎女之子紅孩兒有些言語。", 59, ""},
		{"a son of the mother whose file names him, by a shorter name", "前年在火雲洞，曾與羅剎之子紅孩兒有些言語。", 59, ""},
		{"a brother, and a name after a comma", "他道是牛魔王的兄弟，羅剎女養的。", 40, ""},
	} {
		got := strings.Join(found(k, tc.text, tc.ch, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestEnglishPlaceConstructions: a residence or origin predicated of a
// sentence's subject, against the declared place; a move narrated in a
// chapter the file does not date is the story, not a contradiction.
func TestEnglishPlaceConstructions(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/nicholas.md": "---\nname: Nicholas Rostóv\naliases: [Nicholas]\nkind: character\nfacts: { home: Moscow, origin: Moscow }\n" +
			"progressions:\n  - { chapter: 344, facts: { home: Bald Hills } }\n---\n",
		"entities/characters/mary.md":      "---\nname: Princess Mary\nkind: character\n---\n",
		"entities/locations/otradnoe.md":   "---\nname: Otrádnoe\nkind: location\n---\n",
		"entities/locations/bald-hills.md": "---\nname: Bald Hills\nkind: location\n---\n",
		"entities/locations/moscow.md":     "---\nname: Moscow\nkind: location\n---\nThe old capital; the Rostóvs' house on the Povarskáya.\n",
		"entities/locations/povarskaya.md": "---\nname: Povarskáya\nkind: location\n---\nA street of Moscow.\n",
		"entities/locations/voronezh.md":   "---\nname: Vorónezh\nkind: location\n---\n",
		"entities/characters/berg.md":      "---\nname: Alphonse Berg\naliases: [Berg]\nkind: character\nfacts: { origin: Livonian }\n---\n",
		"entities/characters/dron.md":      "---\nname: Dron\nkind: character\nfacts: { native_place: Moscow }\n---\n",
		"entities/characters/darcy.md":     "---\nname: Mr. Darcy\nkind: character\ngender: m\nfacts: { estate_county: Derbyshire, town_house: Brook Street }\n---\n",
		"entities/characters/lucas.md":     "---\nname: Sir William Lucas\naliases: [Sir William]\nkind: character\ngender: m\nfacts: { former_occupation: trade in Meryton }\n---\n",
		"entities/characters/collins.md":   "---\nname: Mr. Collins\nkind: character\ngender: m\nfacts: { profession: clergyman }\n---\n",
		"entities/locations/longbourn.md":  "---\nname: Longbourn\nkind: location\nfacts: { miles_from_meryton: one }\n---\n",
	})
	for _, tc := range []struct {
		name, text string
		ch         int
		want       string
	}{
		{"a people's adjective of a parent", "Berg proposed. It seemed strange that the son of an obscure Polish gentleman should propose.", 100, "Polish"},
		{"the declared people", "Berg proposed. It seemed strange that the son of an obscure Livonian gentleman should propose.", 100, ""},
		{"of a people's stock", "Berg, who was of German descent, bowed.", 100, "German"},
		{"a title, someone else", "Berg spent the night on the estate of a Polish count.", 100, ""},
		{"a move in the chapter the file dates", "In the winter of 1813 Nicholas married Princess Mary and moved to Otrádnoe with his wife.", 344, "Otrádnoe"},
		{"the move the file dates", "In the winter of 1813 Nicholas married Princess Mary and moved to Bald Hills with his wife.", 344, ""},
		{"a move the file does not date", "At the beginning of winter Nicholas moved to Otrádnoe.", 200, ""},
		{"a residence", "Nicholas lived at Otrádnoe then.", 200, "Otrádnoe"},
		{"a place inside the declared one", "Nicholas lived in Povarskáya then.", 200, ""},
		{"an origin", "Nicholas, a native of Vorónezh, came in.", 200, "Vorónezh"},
		{"the declared origin", "Nicholas, a native of Moscow, came in.", 200, ""},
		{"someone else's sentence", "Pierre told her that Nicholas lived at Otrádnoe.", 200, ""},
		{"a key written with an underscore", "Dron, a native of Vorónezh, came in.", 200, "Vorónezh"},
		{"an estate in a county of the declared kind", "Mr. Darcy was proud; and not all his large estate in Staffordshire could save him.", 3, "Staffordshire"},
		{"the declared county", "Mr. Darcy was proud; and not all his large estate in Derbyshire could save him.", 3, ""},
		{"a house in a street of the declared kind", "Mr. Darcy came to his house in Harley Street.", 3, "Harley Street"},
		{"a place of another kind", "Mr. Darcy was proud; and not all his large estate in London could save him.", 3, ""},
		{"no estate noun", "Mr. Darcy was proud; he had been in Staffordshire.", 3, ""},
		{"a calling of another kind", "“I am the less surprised,” replied Sir William, who had formerly practised as an attorney in Meryton.", 29, "attorney"},
		{"the declared calling", "Sir William had formerly been in trade in Meryton.", 29, ""},
		{"a calling of the same kind", "Mr. Collins had been a curate before he was a rector.", 29, ""},
		{"a calling of someone else", "Mr. Collins met a man who had practised as an attorney.", 29, ""},
		{"a calling the file gives none of", "Mr. Darcy had been a soldier.", 29, ""},
		{"a way measured is no count", "They must have passed within ten miles of us, at Longbourn.", 46, ""},
	} {
		got := strings.Join(found(k, tc.text, tc.ch, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestAFatherNoFileDescribes: "NAME, Prince X’s daughter", where Prince X
// is a name the book writes but no file describes, gives NAME another
// father when the declared one bears none of X's names; a name of the
// declared father's, or one the book never writes, is no finding.
func TestAFatherNoFileDescribes(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/helene.md":    "---\nname: Hélène\naliases: [Princess Hélène]\nkind: character\nfacts: { father: Prince Vasíli }\n---\n",
		"entities/characters/vasili.md":    "---\nname: Prince Vasíli\naliases: [Prince Vasíli Kurágin]\nkind: character\n---\n",
		"manuscript/chapter-01/content.md": "Chapter 1\n\n" + strings.Repeat("Prince Hippolyte laughed. Prince Kurágin came. ", 3) + "\n",
	})
	for _, tc := range []struct{ text, want string }{
		{"Another group was round the beautiful Princess Hélène, Prince Hippolyte’s daughter, and the little princess.", "Prince Hippolyte"},
		{"Another group was round the beautiful Princess Hélène, Prince Kurágin’s daughter, and the little princess.", ""},
		{"Another group was round the beautiful Princess Hélène, Prince Dolgorúkov’s daughter, and the little princess.", ""},
	} {
		if got := strings.Join(found(k, tc.text, 3, TypeFact), " "); got != tc.want {
			t.Errorf("%s: fact findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestRelativesCalling: a calling said of a possessive's relative ("Her
// father had been a clergyman") against the calling the holder's file
// gives under that relation's key; the holder is a name in the clause or,
// with none, the one person of the pronoun's gender whose file gives that
// relative's calling, when she or a relation of hers is named near.
func TestRelativesCalling(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/mrs-bennet.md": "---\nname: Mrs. Bennet\nkind: character\ngender: f\nfacts: { father: an attorney in Meryton }\n" +
			"relations:\n  - { to: entities/characters/mr-bennet, kind: husband }\n---\n",
		"entities/characters/mr-bennet.md": "---\nname: Mr. Bennet\nkind: character\ngender: m\nrelations:\n  - { to: entities/characters/mrs-bennet, kind: wife }\n---\n",
		"entities/characters/darcy.md":     "---\nname: Mr. Darcy\nkind: character\ngender: m\n---\n",
		"entities/characters/wickham.md":   "---\nname: Mr. Wickham\nkind: character\ngender: m\nfacts: { father: steward of the late Mr. Darcy }\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"her father, a relation of hers named", "Mr. Bennet’s estate was entailed; and their mother’s fortune could not supply it. Her father had been a clergyman in Meryton.", "clergyman"},
		{"her father's declared calling", "Mr. Bennet’s estate was entailed; and their mother’s fortune could not supply it. Her father had been an attorney in Meryton.", ""},
		{"her father, no one of hers named", "Mr. Darcy’s estate was large. Her father had been a clergyman in Meryton.", ""},
		{"the father named by possessive", "Mr. Wickham’s father had been a clergyman.", "clergyman"},
		{"his father, two men whose files could be meant", "Mr. Darcy’s estate was large. His father had been a clergyman.", ""},
		{"her own calling, which her file does not give", "Mrs. Bennet had been a governess.", ""},
	} {
		got := strings.Join(found(k, tc.text, 7, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// wantFacts fails unless checking text finds exactly the fact findings
// want, their texts joined by spaces ("" for none).
func wantFacts(t *testing.T, k *Knowledge, name, text, want string) {
	t.Helper()
	if got := strings.Join(found(k, text, 5, TypeFact), " "); got != want {
		t.Errorf("%s: %s: fact findings %q, want %q", name, text, got, want)
	}
}
