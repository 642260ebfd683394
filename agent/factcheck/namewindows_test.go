package factcheck

import (
	"strings"
	"testing"
)

// TestSlipBeforeTheRestOfALongName: the first character of a long name
// the book writes often, put for one read alike (官 for 觀), is a slip
// though the character before it makes a word with it (見官), when the
// part after it (音菩薩) is one the book writes only inside the entity's
// names (觀音菩薩, 觀世音菩薩); a title at the end of the window (菩薩)
// is no word that the first character stands before. Where the book
// writes that part on its own, the pair may be a word before it.
func TestSlipBeforeTheRestOfALongName(t *testing.T) {
	files := func(extra string) map[string]string {
		return map[string]string{
			"entities/characters/guanyin.md":   "---\nname: 觀音菩薩\naliases: [觀世音菩薩, 菩薩]\nkind: character\n---\n",
			"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("觀音菩薩來了。觀世音菩薩笑了。他要見官去。", 20) + strings.Repeat(extra, 3),
		}
	}
	bound, free := bookProject(t, files("")), bookProject(t, files("好聲音菩薩聽了。"))
	for _, tc := range []struct {
		k          *Knowledge
		text, want string
	}{
		{bound, "遂落下雲頭，直到普陀巖上，見官音菩薩在紫竹林中講經說法。", "官音菩薩"},
		{bound, "遂落下雲頭，直到普陀巖上，見觀音菩薩在紫竹林中講經說法。", ""},
		{free, "遂落下雲頭，直到普陀巖上，見官音菩薩在紫竹林中講經說法。", ""},
	} {
		if got := strings.Join(found(tc.k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestSlipAfterTheStartOfALongName: a long name whose own alias opens it
// (太上 of 太上老君) and goes on with more of the name before the changed
// character (老) is the name misspelled at its end (太上老軍), not the
// alias followed by a word; the alias followed at once by the changed
// character (二郎身 for 二郎神) is the alias and a word of its own.
func TestSlipAfterTheStartOfALongName(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/laojun.md":    "---\nname: 太上老君\naliases: [太上, 老君]\nkind: character\n---\n",
		"entities/characters/erlang.md":    "---\nname: 二郎神\naliases: [二郎]\nkind: character\n---\n",
		"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("太上老君來了。二郎神笑了。", 20),
	})
	for _, tc := range []struct{ text, want string }{
		{"倏的裝在裏面，被行者貼上「太上老軍急急如律令奉敕」的帖子。", "太上老軍"},
		{"倏的裝在裏面，被行者貼上「太上老君急急如律令奉敕」的帖子。", ""},
		{"那真君抖擻神威，二郎身上披著黃金甲。", ""},
	} {
		if got := strings.Join(found(k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestFirstCharacterOfTheSameSeries: the first character of a
// two-character name the book writes often, put for one on the same
// phonetic element and read alike, tones aside (秒 for 妙: 少 under
// both, miǎo and miào), is a slip where a name starts, as a homophone
// is; the book's own use of the window makes it a word.
func TestFirstCharacterOfTheSameSeries(t *testing.T) {
	files := func(extra string) map[string]string {
		return map[string]string{
			"entities/characters/miaoyu.md":    "---\nname: 妙玉\nkind: character\n---\n",
			"entities/characters/guanyin.md":   "---\nname: 觀音\nkind: character\n---\n",
			"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("妙玉笑了。去請觀音來。", 20) + strings.Repeat(extra, 3),
		}
	}
	plain, word := bookProject(t, files("")), bookProject(t, files("只一秒玉已碎了。"))
	for _, tc := range []struct {
		k          *Knowledge
		text, want string
	}{
		{plain, "寶玉進來坐著．秒玉聽了，便冷笑道：“你這么個人。”", "秒玉"},
		{plain, "寶玉進來坐著．妙玉聽了，便冷笑道：“你這么個人。”", ""},
		{word, "寶玉進來坐著．秒玉聽了，便冷笑道：“你這么個人。”", ""},
		{plain, "孫大聖十分歡喜，請罐音出了潮音仙洞。", "罐音"},
		{plain, "孫大聖十分歡喜，請觀音出了潮音仙洞。", ""},
	} {
		if got := strings.Join(found(tc.k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestLookAlikeAsWritten: characters are compared folded to simplified
// forms, where some look-alikes of traditional text fall apart (東 束
// are 东 束, 鳳 閱 are 凤 阅): a writer of traditional characters
// confuses what he sees, so a name's character and the text's are also
// compared as written, the name's in traditional form.
func TestLookAlikeAsWritten(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/locations/dongfu.md":     "---\nname: 寧國府\naliases: [東府]\nkind: location\n---\n",
		"entities/characters/fengjie.md":   "---\nname: 王熙鳳\naliases: [鳳姐]\nkind: character\n---\n",
		"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("他在東府裏。王熙鳳笑了。", 20),
	})
	for _, tc := range []struct{ text, want string }{
		{"這是發難制伏了．前年我在束府里，親眼見過的。", "束府"},
		{"這是發難制伏了．前年我在東府里，親眼見過的。", ""},
		{"那李宮裁王熙閱与迎春姊妹早已出來了。", "王熙閱"},
		{"那李宮裁王熙鳳与迎春姊妹早已出來了。", ""},
	} {
		if got := strings.Join(found(k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestKinshipWordPutForARareCharacter: the kinship word of a short name
// the book writes often, put for a look-alike the book hardly writes
// (妲 for 姐), leaves a window no word of the book explains: a slip. A
// character the book writes often beside it (接 of 鳳接) may make a word,
// and in a short manuscript every character is rare.
func TestKinshipWordPutForARareCharacter(t *testing.T) {
	files := func(extra string, filler int) map[string]string {
		return map[string]string{
			"entities/characters/fengjie.md":   "---\nname: 王熙鳳\naliases: [鳳姐]\nkind: character\n---\n",
			"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("鳳姐笑了，接著說。", 20) + strings.Repeat("天氣晴好。", filler) + strings.Repeat(extra, 3),
		}
	}
	long, used, short := bookProject(t, files("", 21000)), bookProject(t, files("說起妲己。", 21000)), bookProject(t, files("", 0))
	for _, tc := range []struct {
		k          *Knowledge
		text, want string
	}{
		{long, "眾人都笑了．鳳妲笑道：“你們只管樂，我可不管。”", "鳳妲"},
		{long, "眾人都笑了．鳳姐笑道：“你們只管樂，我可不管。”", ""},
		{used, "眾人都笑了．鳳妲笑道：“你們只管樂，我可不管。”", ""},
		{short, "眾人都笑了．鳳妲笑道：“你們只管樂，我可不管。”", ""},
	} {
		if got := strings.Join(found(tc.k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestRadicalAddedInATwoCharacterName: the second character of a
// two-character name the book writes often, written with a radical added
// (啼 for 帝), is a slip where the book never writes the window, as in a
// longer name (a particle, which ends no name, or a kinship word is no
// such character). The book's own use of the window makes it a word.
func TestRadicalAddedInATwoCharacterName(t *testing.T) {
	files := func(extra string) map[string]string {
		return map[string]string{
			"entities/characters/yudi.md":      "---\nname: 玉皇大帝\naliases: [玉帝]\nkind: character\n---\n",
			"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("玉帝聞言。", 20) + strings.Repeat(extra, 3),
		}
	}
	plain, written := bookProject(t, files("")), bookProject(t, files("如碎玉啼鳴。"))
	for _, tc := range []struct {
		k          *Knowledge
		text, want string
	}{
		{plain, "眾仙都來朝賀．玉啼聞言，即傳旨著雷部眾神。", "玉啼"},
		{plain, "眾仙都來朝賀．玉帝聞言，即傳旨著雷部眾神。", ""},
		{written, "眾仙都來朝賀．玉啼聞言，即傳旨著雷部眾神。", ""},
	} {
		if got := strings.Join(found(tc.k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestLookAlikeInTheNamesSlot: the first character of a frequent
// two-character name put for a look-alike (王 for 玉), after a word the
// book writes before the name (奉玉帝), is a slip in a window the book
// never writes, though the book writes the pair before it now and then
// (奉王命): the window's second character starts no word there.
func TestLookAlikeInTheNamesSlot(t *testing.T) {
	files := func(extra string) map[string]string {
		return map[string]string{
			"entities/characters/yudi.md":      "---\nname: 玉皇大帝\naliases: [玉帝]\nkind: character\n---\n",
			"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("特奉玉帝旨意。", 20) + "又奉王命。又奉王命。" + strings.Repeat(extra, 3),
		}
	}
	plain, written := bookProject(t, files("")), bookProject(t, files("奉王帝之命。"))
	for _, tc := range []struct {
		k          *Knowledge
		text, want string
	}{
		{plain, "困害東土聖僧，奉王帝金旨，特來拿你。", "王帝"},
		{plain, "困害東土聖僧，奉玉帝金旨，特來拿你。", ""},
		{written, "困害東土聖僧，奉王帝金旨，特來拿你。", ""},
	} {
		if got := strings.Join(found(tc.k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestRadicalBelowInATwoCharacterName: a radical written below the
// second character of a frequent two-character name (熊 for 能: 灬 under
// it) is a slip where the book never writes the window.
func TestRadicalBelowInATwoCharacterName(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/bajie.md":     "---\nname: 豬八戒\naliases: [悟能]\nkind: character\n---\n",
		"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("悟能笑了。", 20),
	})
	for _, tc := range []struct{ text, want string }{
		{"三藏道：「悟熊，你且住手。」那呆子只得丟了鈀。", "悟熊"},
		{"三藏道：「悟能，你且住手。」那呆子只得丟了鈀。", ""},
	} {
		if got := strings.Join(found(k, tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: name findings %q, want %q", tc.text, got, tc.want)
		}
	}
}
