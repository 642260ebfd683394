package factcheck

import "testing"

// interactionProject declares, for both languages, one away and one dead
// character, and present ones to act with them.
func interactionProject(t *testing.T) *Knowledge {
	t.Helper()
	return bookProject(t, map[string]string{
		"entities/characters/qingwen.md": "---\nname: 晴雯\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/jiamu.md":   "---\nname: 賈母\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/baochai.md": "---\nname: 寶釵\nkind: character\nfacts: { status: married }\n---\n",
		"entities/characters/baoyu.md":   "---\nname: 寶玉\nkind: character\nfacts: { status: married }\n---\n",
		"entities/characters/wukong.md":  "---\nname: 孫悟空\nkind: character\nfacts: { status: away, location: 五行山 }\n---\n",
		"entities/characters/erjie.md":   "---\nname: 尤二姐\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/lydia.md":   "---\nname: Lydia Bennet\naliases: [Lydia]\nkind: character\nfacts: { status: away, location: Brighton }\n---\n",
		"entities/characters/petya.md":   "---\nname: Pétya Rostóv\naliases: [Pétya]\nkind: character\nfacts: { status: dead }\n---\n",
	})
}

// TestToldFaceToFace: whom one tells something (告訴了), alone or first
// of a list, is there; a message sent, a telling denied, wished or
// remembered is not.
func TestToldFaceToFace(t *testing.T) {
	k := interactionProject(t)
	for _, tc := range []struct {
		text string
		want int
	}{
		{"寶玉回到自己房中，告訴了賈母和寶釵，說是明日要去。", 1},
		{"寶玉回來，告訴賈母一遍。", 1},
		{"寶玉回來，打發人去告訴賈母。", 0},   // a messenger sent
		{"寶玉即叫小丫頭告訴賈母。", 0},     // a maid sent
		{"尤氏等又遣人告訴了賈母。", 0},     // someone sent
		{"寶玉要去告訴賈母。", 0},        // going to tell
		{"寶玉不敢告訴賈母。", 0},        // denied
		{"寶玉寫信告訴了賈母。", 0},       // by letter
		{"寶玉想起那日告訴了賈母的話。", 0},   // a memory
		{"寶玉告訴了賈母的丫頭。", 0},      // whose maid
		{"牛王正告訴寶釵與賈母奪扇子之事。", 0}, // what is told, not whom
		{"寶玉悄悄的告訴寶釵和賈母等說。", 1},
		{"寶玉回來，告訴了寶釵。", 0},      // present: no finding
		{"寶玉回到房中，說賈母和寶釵都好。", 0}, // talk of them
	} {
		wantStates(t, k, tc.text, tc.want)
	}
}

// TestCompanionActsOnSomeone: a companion joined to the subject by 同, 和
// or 與 before a verb done to someone (搶白了寶玉) acts with the subject;
// a likeness or a state after the companion does not.
func TestCompanionActsOnSomeone(t *testing.T) {
	k := interactionProject(t)
	for _, tc := range []struct {
		text string
		want int
	}{
		{"這日香菱同晴雯搶白了寶玉。", 1},
		{"寶釵和晴雯拉著他走了。", 1},
		{"香菱同晴雯一樣了。", 0},     // a likeness
		{"香菱和晴雯是好的了。", 0},    // a state
		{"香菱想起同晴雯搶白了寶玉。", 0}, // a memory
	} {
		wantStates(t, k, tc.text, tc.want)
	}
}

// TestSubjectWithGroup: the first of a subject joined by 同 to a group
// of names the files need not declare, closed by 等, acts with them, a
// comma between the group and its verb or not.
func TestSubjectWithGroup(t *testing.T) {
	k := interactionProject(t)
	for _, tc := range []struct {
		text string
		want int
	}{
		{"原來是孫悟空同秦叔寶、徐茂公等，將著一個龍頭，擲在帝前。", 1},
		{"孫悟空同秦叔寶等走進殿來。", 1},
		{"孫悟空同秦叔寶、徐茂公等，都是好漢。", 0}, // no act after the group
		{"孫悟空同秦叔寶的名字，將著傳遍天下。", 0}, // no group closed by 等
	} {
		wantStates(t, k, tc.text, tc.want)
	}
}

// TestTakenAlongStaying: one taken along (帶著), alone or an item of a
// list, whose company then denies a going (也不回那府里去) or comes to a
// place (往水月庵來) stays in the scene; a going away told after is a
// journey.
func TestTakenAlongStaying(t *testing.T) {
	k := interactionProject(t)
	for _, tc := range []struct {
		text string
		want int
	}{
		{"這几日，寶釵帶著尤二姐晚間也不回那府里去，白日間待客。", 1},
		{"寶釵帶著尤二姐不一時到了園中。", 0},     // 不一時 is soon, and a going follows
		{"寶釵帶著尤二姐回那府里去了。", 0},      // a journey
		{"鳳姐帶了寶玉，尤二姐，寶釵往水月庵來。", 1}, // an item of a list, coming to a place
		{"鳳姐帶了寶玉、尤二姐進來。", 1},
		{"鳳姐帶了寶玉，尤二姐，寶釵往揚州去了。", 0},   // a journey
		{"鳳姐帶了寶玉，尤二姐的丫頭進來。", 0},      // whose maid
		{"鳳姐想起帶了寶玉，尤二姐，寶釵往水月庵來。", 0}, // a memory
	} {
		wantStates(t, k, tc.text, tc.want)
	}
}

// TestFollowedAndHandled: whom one follows (跟著, 隨著) with a verb of
// the moment after, and whom one handles by the body after 把 or 將
// (扶起來, 推了一把), is at hand; a journey after the one followed, a
// rank raised (扶了正) and a memory are not.
func TestFollowedAndHandled(t *testing.T) {
	k := interactionProject(t)
	for _, tc := range []struct {
		text string
		want int
	}{
		{"寶玉跟著晴雯進來。", 1},
		{"寶玉隨著晴雯走進房來。", 1},
		{"寶玉跟著晴雯往揚州去了。", 0}, // a journey
		{"紫鵑是跟著晴雯來的。", 0},   // who came with her once
		{"寶玉忙把晴雯扶起來。", 1},
		{"寶釵將晴雯摟入懷內。", 1},
		{"賈璉把晴雯扶了正。", 0},   // a rank
		{"寶玉想起把晴雯扶起來。", 0}, // a memory
	} {
		wantStates(t, k, tc.text, tc.want)
	}
}

// TestNewReadingsKeepNotPresence: the readings of interaction and
// company (interaction.go, companions.go, seriesclause.go) under each
// frame the checker reads as no presence: a dream, a memory, talk of
// someone, a portrait, a coffin or funeral, speech, "the late", a
// letter, a vision.
func TestNewReadingsKeepNotPresence(t *testing.T) {
	k := interactionProject(t)
	for _, text := range []string{
		"寶玉夢見告訴了晴雯。",
		"寶玉夢見晴雯跟著他進來。",
		"寶玉夢見同晴雯搶白了寶釵。",
		"寶玉提起那日同晴雯搶白了寶釵。",
		"寶玉說起晴雯跟著他進來的事。",
		"寶玉看著晴雯的畫像，告訴了寶釵。",
		"寶玉哭著告訴了賈母的靈前。",
		"寶玉跟著晴雯的靈柩出來。",
		"寶玉把晴雯的棺木扶起來。",
		"寶玉道：「我告訴了晴雯。」",
		"寶玉道：「晴雯跟著我進來。」",
		"寶釵想起香菱同晴雯搶白了寶玉。",
		"She dreamed that Nicholas came in, followed by his wife and Pétya.",
		"She remembered how Nicholas walked in the garden with Pétya and Sónya.",
		"“The countess, with Pétya and Sónya, drove to the Troitsa,” she said.",
		"Nicholas wrote that he had moved to Bald Hills with his wife and Pétya.",
		"She looked at the portrait of Pétya, followed by her maid.",
		"The funeral of Pétya was followed by a dinner.",
		"The late Pétya, followed by his dogs, had been a favourite.",
		"She thought of the day when the bride set off, Pétya, coming down from town, handing her into the carriage.",
		"She saw in a vision Pétya, followed by his dogs.",
		"The coffin, followed by Pétya's mother, was carried out.",
	} {
		wantStates(t, k, text, 0)
	}
}
