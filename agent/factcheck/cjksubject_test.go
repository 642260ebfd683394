package factcheck

import (
	"strings"
	"testing"
)

// TestNameOpeningANarratedClause: a Chinese name that opens a clause of
// narration, its predicate after it, is the clause's subject in the scene
// (鳳姐還不敢給他吃, 那奎木狼咬釘嚼鐵); a name that a particle makes
// a modifier or an item, a copula that describes it, and a clause of
// memory, talk, burial or an errand sent from afar are not.
func TestNameOpeningANarratedClause(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/fengjie.md": "---\nname: 王熙鳳\naliases: [鳳姐]\nkind: character\nfacts: {status: dead}\n---\n",
		"entities/characters/kuimu.md":   "---\nname: 奎木狼\nkind: character\nfacts: {status: away, location: 天宮}\n---\n",
		"entities/characters/longma.md":  "---\nname: 白龍馬\naliases: [小龍]\nkind: character\nfacts: {status: away, location: 西海}\n---\n",
	})
	for _, tc := range []struct{ text, want string }{
		{"婆子們果然取了飯來，鳳姐還不敢給他吃．寶玉只得罷了。", "鳳姐"},
		{"天色已晚。那奎木狼咬釘嚼鐵，要與行者相持。", "奎木狼"},
		{"寶玉又想起鳳姐當日的好處，不覺傷心。", ""},
		{"眾人都道：鳳姐的事不必再提了。", ""},
		{"鳳姐已葬入祖墳了，諸事停妥。", ""},
		{"鳳姐早打發了兩個小丫頭送了東西來。", ""},
		{"諕得老龍王膽戰心驚，小龍子魂飛魄散。", ""},
	} {
		if got := strings.Join(found(k, tc.text, 60, TypeState), " "); got != tc.want {
			t.Errorf("%s: state findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestTalkAfterANameIsItsOwners: talk or hearing told after a
// name that opens a clause is its owner's, who is in the scene (探春一听
// 麝月的話, 賈政也不等說完, 牛王口中嚷道); told as a habit or a report
// (素日常說, 所說) it is not.
func TestTalkAfterANameIsItsOwners(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/tanchun.md":  "---\nname: 賈探春\naliases: [探春]\nkind: character\nfacts: {status: away, location: 海疆}\n---\n",
		"entities/characters/jiazheng.md": "---\nname: 賈政\nkind: character\nfacts: {status: away, location: 江西}\n---\n",
		"entities/characters/niuwang.md":  "---\nname: 牛魔王\naliases: [牛王]\nkind: character\nfacts: {status: away, location: 芭蕉洞}\n---\n",
		"entities/characters/fengjie.md":  "---\nname: 王熙鳳\naliases: [鳳姐]\nkind: character\nfacts: {status: dead}\n---\n",
	})
	for _, tc := range []struct{ text, want string }{
		{"話說探春一听麝月的話，身往后仰，急得王夫人等哭叫不止。", "探春"},
		{"賈母道：“他母親又是痰症．\"賈政也不等說完，便跺腳的說：“偏不巧。”", "賈政"},
		{"做淨壇使者。”牛王口中嚷道：“他們都成佛，如何把我做個淨壇使者？”", "牛王"},
		{"寶玉在房中歇著。鳳姐素日常說寶玉不好，也不必提了。", ""},
		{"襲人回來了。鳳姐所說宋媽一事，早已回過寶玉了。", ""},
		{"寶玉又說起鳳姐的好處，不覺傷心。", ""},
		{"且說探春疾愈之后，家中俱各喜歡。", ""},
	} {
		if got := strings.Join(found(k, tc.text, 100, TypeState), " "); got != tc.want {
			t.Errorf("%s: state findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestNameAfterAWordOfSceneTime: a name right after a word of the time of
// the scene (此時, 當下, 須臾, 登時, 一時, 忽然) or after a storyteller's
// 卻說 and a demonstrative opens its clause and is in the scene (此時八戒
// 抖搜精神); not with a predicate of absence (此時黛玉不在自己房中).
func TestNameAfterAWordOfSceneTime(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/bajie.md":   "---\nname: 豬八戒\naliases: [八戒]\nkind: character\nfacts: {status: away, location: 高老莊}\n---\n",
		"entities/characters/daiyu.md":   "---\nname: 林黛玉\naliases: [黛玉]\nkind: character\nfacts: {status: dead}\n---\n",
		"entities/characters/kuimu.md":   "---\nname: 奎木狼\nkind: character\nfacts: {status: away, location: 天宮}\n---\n",
		"entities/characters/fengjie.md": "---\nname: 王熙鳳\naliases: [鳳姐]\nkind: character\nfacts: {status: dead}\n---\n",
	})
	for _, tc := range []struct{ text, want string }{
		{"妖精又來了。此時八戒抖搜精神，要與妖精賭鬥。", "八戒"},
		{"天已大亮。當下鳳姐尚未起來，平兒在外間收拾。", "鳳姐"},
		{"眾人正亂著。須臾黛玉方醒過來，哭了一回。", "黛玉"},
		{"卻說那奎木狼咬釘嚼鐵，要與行者相持。", "奎木狼"},
		{"寶玉走到瀟湘館。此時黛玉不在自己房中。", ""},
	} {
		if got := strings.Join(found(k, tc.text, 100, TypeState), " "); got != tc.want {
			t.Errorf("%s: state findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestPluralAfterASubject: a plural marker after a name that opens its
// clause (秦氏等猶在床邊坐著, 賈母等仍不肯放手, 八戒們聽了) leaves it the
// subject of the clause, in the scene; a possessive after the group does
// not (秦氏等人的東西).
func TestPluralAfterASubject(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/qinshi.md": "---\nname: 秦可卿\naliases: [秦氏]\nkind: character\nfacts: {status: dead}\n---\n",
		"entities/characters/jiamu.md":  "---\nname: 賈母\nkind: character\nfacts: {status: dead}\n---\n",
		"entities/characters/bajie.md":  "---\nname: 豬八戒\naliases: [八戒]\nkind: character\nfacts: {status: away, location: 高老莊}\n---\n",
	})
	for _, tc := range []struct{ text, want string }{
		{"只見寶玉才睡下，秦氏等猶在床邊坐著，大家頑笑。", "秦氏"},
		{"寶玉道：“我還得見他一見才好。”賈母等仍不肯放手，到底寶釵明決。", "賈母"},
		{"行者說了一遍。八戒們呵呵大笑，都道有趣。", "八戒"},
		{"天晚了。秦氏等人的東西都收起來了。", ""},
	} {
		if got := strings.Join(found(k, tc.text, 100, TypeState), " "); got != tc.want {
			t.Errorf("%s: state findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestNamesJoinedToASubject: names joined by 與, 和, 同, 並 or 、 to a
// subject that opens its clause share the clause and the scene (孫大聖與
// 紅孩兒正要使法, 寶玉與黛玉相視一笑, 此時旃檀佛、鬥戰佛、奎木狼…俱正果了
// 本位); joined as an object (找黛玉和鳳姐) or a topic (說起黛玉與鳳姐)
// they are not.
func TestNamesJoinedToASubject(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/wukong.md":  "---\nname: 孫悟空\naliases: [孫大聖, 行者]\nkind: character\n---\n",
		"entities/characters/bajie.md":   "---\nname: 豬八戒\naliases: [八戒]\nkind: character\n---\n",
		"entities/characters/shaseng.md": "---\nname: 沙悟淨\naliases: [沙僧, 金身羅漢]\nkind: character\n---\n",
		"entities/characters/honghai.md": "---\nname: 紅孩兒\nkind: character\nfacts: {status: away, location: 南海}\n---\n",
		"entities/characters/kuimu.md":   "---\nname: 奎木狼\nkind: character\nfacts: {status: away, location: 天宮}\n---\n",
		"entities/characters/baoyu.md":   "---\nname: 賈寶玉\naliases: [寶玉]\nkind: character\n---\n",
		"entities/characters/daiyu.md":   "---\nname: 林黛玉\naliases: [黛玉]\nkind: character\nfacts: {status: dead}\n---\n",
		"entities/characters/fengjie.md": "---\nname: 王熙鳳\naliases: [鳳姐]\nkind: character\nfacts: {status: dead}\n---\n",
	})
	for _, tc := range []struct{ text, want string }{
		{"卻說孫大聖與紅孩兒正要使法定那些婦女，忽聞得風響處。", "紅孩兒"},
		{"那奎木狼與行者相持到晚，料鬥他不過。", "奎木狼"},
		{"三藏放馬奔西。豬八戒並紅孩兒緊隨鞭鐙。", "紅孩兒"},
		{"此時旃檀佛、鬥戰佛、奎木狼、金身羅漢俱正果了本位。", "奎木狼"},
		{"襲人出去了。寶玉與黛玉相視一笑。", "黛玉"},
		{"賈母合了眼。黛玉寶玉上去輕輕扶著。", "黛玉"},
		{"寶玉便去找黛玉和鳳姐。", ""},
		{"寶玉又說起黛玉與鳳姐，不覺傷心。", ""},
	} {
		if got := strings.Join(found(k, tc.text, 100, TypeState), " "); got != tc.want {
			t.Errorf("%s: state findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestBiddenToDoSomething: one whom someone bids do something on the spot
// is there (因叫晴雯稱了几兩銀子, 請牛王收了眾怪, 宣龍馬顯聖); one only
// meant to be bidden (要叫), bidden to come (請黛玉來吃飯) or to go (叫晴
// 雯去拿) is not yet.
func TestBiddenToDoSomething(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/qingwen.md": "---\nname: 晴雯\nkind: character\nfacts: {status: dead}\n---\n",
		"entities/characters/daiyu.md":   "---\nname: 林黛玉\naliases: [黛玉]\nkind: character\nfacts: {status: dead}\n---\n",
		"entities/characters/niuwang.md": "---\nname: 牛魔王\naliases: [牛王]\nkind: character\nfacts: {status: away, location: 芭蕉洞}\n---\n",
		"entities/characters/longma.md":  "---\nname: 白龍馬\naliases: [龍馬]\nkind: character\nfacts: {status: away, location: 鷹愁澗}\n---\n",
	})
	for _, tc := range []struct{ text, want string }{
		{"鳳姐點點頭儿，因叫晴雯稱了几兩銀子，遞給周瑞家的。", "晴雯"},
		{"孫大聖用盡心機，請牛王收了眾怪，解脫三藏師徒之難。", "牛王"},
		{"老君領旨去訖。一壁廂宣龍馬顯聖，賞賜金花百朵。", "龍馬"},
		{"話說孫大聖用盡心機，請牛王收了眾怪，離獅駝城西行。", "牛王"},
		{"寶玉請黛玉來吃飯。", ""},
		{"鳳姐要叫晴雯稱了銀子。", ""},
		{"鳳姐便叫晴雯去拿了來。", ""},
	} {
		if got := strings.Join(found(k, tc.text, 100, TypeState), " "); got != tc.want {
			t.Errorf("%s: state findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestSpiritWordsAreNotFunerals: 靈 in a palace or a jade (靈霄殿, 通靈玉)
// keeps no one out of the scene as a coffin or a soul does (靈前, 停靈).
func TestSpiritWordsAreNotFunerals(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/daiyu.md":  "---\nname: 林黛玉\naliases: [黛玉]\nkind: character\nfacts: {status: dead}\n---\n",
		"entities/characters/longma.md": "---\nname: 白龍馬\naliases: [龍馬]\nkind: character\nfacts: {status: away, location: 鷹愁澗}\n---\n",
	})
	for _, tc := range []struct{ text, want string }{
		{"那龍馬收了金鋼琢，請玉帝同觀音、王母、眾仙等，俱回靈霄殿。", "龍馬"},
		{"寶玉睡著了。黛玉略覺清楚，細看那通靈玉。", "黛玉"},
		{"眾人都散了。黛玉靈前只有紫鵑守著。", ""},
	} {
		if got := strings.Join(found(k, tc.text, 100, TypeState), " "); got != tc.want {
			t.Errorf("%s: state findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestCuesAfterASubjectInItsOwnClause: what comes after a comma may be
// another's doing, and keeps no subject out of the scene (奎木狼咬釘嚼鐵，
// …感蒙行者等打死蝎子精); a name made a topic by 者 is no subject, nor
// one written on a card (寫著).
func TestCuesAfterASubjectInItsOwnClause(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/kuimu.md":  "---\nname: 奎木狼\nkind: character\nfacts: {status: away, location: 天宮}\n---\n",
		"entities/characters/miaoyu.md": "---\nname: 妙玉\naliases: [畸人, 檻外人]\nkind: character\nfacts: {status: away, location: 牟尼院}\n---\n",
	})
	for _, tc := range []struct{ text, want string }{
		{"話說奎木狼咬釘嚼鐵，以死命留得一個不壞之身，感蒙行者等打死蝎子精。", "奎木狼"},
		{"他便喜了．畸人者，他自稱是畸零之人。", ""},
		{"原來是一張粉箋子，上面寫著：妙玉恭肅遙叩芳辰。", ""},
	} {
		if got := strings.Join(found(k, tc.text, 100, TypeState), " "); got != tc.want {
			t.Errorf("%s: state findings %q, want %q", tc.text, got, tc.want)
		}
	}
}
