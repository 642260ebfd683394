package factcheck

import (
	"strings"
	"testing"
)

// TestFrequentNameSlips: one character of a name the book writes often,
// put for one that reads or looks like it, in a window the book writes
// nowhere else and in the name's place, is a slip, the first character
// included; a window the book writes elsewhere, one outside the name's
// place, a numeral's count (a character the book writes after other
// numerals) and an address of another family name are not.
func TestFrequentNameSlips(t *testing.T) {
	book := func(extra string) *Knowledge {
		return bookProject(t, map[string]string{
			"entities/characters/jiamu.md":   "---\nname: 賈母\naliases: [老太太]\nkind: character\n---\n",
			"entities/characters/fengjie.md": "---\nname: 王熙鳳\naliases: [鳳姐]\nkind: character\n---\n",
			"entities/characters/bajie.md":   "---\nname: 豬八戒\naliases: [八戒, 老豬]\nkind: character\n---\n",
			"entities/characters/erjie.md":   "---\nname: 尤二姐\naliases: [二姐]\nkind: character\n---\n",
			"entities/characters/rulai.md":   "---\nname: 如來\nkind: character\n---\n",
			"entities/characters/wukong.md":  "---\nname: 孫悟空\naliases: [悟空]\nkind: character\n---\n",
			"entities/characters/wangfr.md":  "---\nname: 王夫人\naliases: [太太]\nkind: character\n---\n",
			"entities/characters/tangs.md":   "---\nname: 唐三藏\naliases: [三藏, 玄奘]\nkind: character\n---\n",
			"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("賈母道：「好。」眾人見了賈母，都笑了。", 20) +
				strings.Repeat("鳳姐還要說話，八戒道：「老豬的買賣。」", 40) + strings.Repeat("二姐笑了。如來說法。", 40) + strings.Repeat("三藏道：「悟空，你來。」", 40) + strings.Repeat("寶玉道：「老太太，我來了。」", 40) + strings.Repeat("行者道：「弟子玄奘到了。」", 40) + extra +
				strings.Repeat("天氣晴好，園中花開。", 100),
		})
	}
	for _, tc := range []struct {
		name, extra, text, want string
	}{
		{"first character, same sound", "", "寶玉進來，加母道：「你來了。」", "加母"},
		{"second character, same sound", "", "須尋各自門．鳳結還欲問時，只見人來。", "鳳結"},
		{"the stops the book puts around the name", "", "三藏鞭指道：「屋空，那座山也。」", "屋空"},
		{"a declared name inside the window", "", "寶玉哭道：「勞太太，這是什麼話？」", "勞太太"},
		{"a pair the book writes before the declared name", strings.Repeat("這樣勞太甚了。", 3), "寶玉哭道：「勞太太，這是什麼話？」", ""},
		{"a look-alike", "", "沙僧道：「八戒道：『八戎道：「哥哥。」』」", "八戎"},
		{"the book writes the window", strings.Repeat("他加母道理。", 3), "寶玉進來，加母道：「你來了。」", ""},
		{"not the name's place", "", "汝來何幹？菩薩問道。", ""},
		{"a numeral's count", "一解．三解．", "惻肺肝！二解．惟鮪有潭兮。", ""},
		{"a character the book counts nowhere", "", "沙僧道：「八結道：『師父。』」", "八結"},
		{"a character after a numeral once", "一結．", "沙僧道：「八結道：『師父。』」", "八結"},
		{"the numeral of a name, second character by sound", "", "行者道：「三蒼道：『悟空，你來。』」", "三蒼"},
		{"another family name", "", "叫道：「造化！老朱的買賣到了！」", ""},
	} {
		if got := strings.Join(found(book(tc.extra), tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: %s: name findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestSlipLooksAlikeAsWritten: a character that looks like the name's in
// the traditional text (壯 for 奘) is a slip though folding parts them
// (壮); the slips pass compares them as written.
func TestSlipLooksAlikeAsWritten(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/tangs.md":     "---\nname: 唐三藏\naliases: [玄奘]\nkind: character\n---\n",
		"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("行者道：「弟子玄奘到了。」", 40) + strings.Repeat("天氣晴好，園中花開。", 100),
	})
	for _, tc := range []struct{ text, want string }{
		{"三藏躬身道：「是，弟子玄壯到了。」", "玄壯"},
		{"三藏躬身道：「是，弟子玄奘到了。」", ""},
	} {
		d := k.analyze(tc.text, 5)
		var got []string
		for _, f := range k.cjkFrequentSlips(d) {
			got = append(got, tc.text[f.Start:f.End])
		}
		if g := strings.Join(got, " "); g != tc.want {
			t.Errorf("%s: slips %q, want %q", tc.text, g, tc.want)
		}
	}
}

// TestSlipStandsAlone: a slip in a word the book writes hundreds of
// times (探春, 丫頭 of 林丫頭, 夫人 of 王夫人) needs no slot the book
// writes around the name, where the slipped character makes no pair the
// book writes with either neighbour and the kept edges no word with the
// text outside (春天 of 貪春天), or, the slip last, the kept part is
// written only as the name's start (寶兄 of 寶兄低); a name written less
// often still needs its slot.
func TestSlipStandsAlone(t *testing.T) {
	book := func(uses int, extra string) *Knowledge {
		return bookProject(t, map[string]string{
			"entities/characters/tanchun.md": "---\nname: 賈探春\naliases: [探春]\nkind: character\n---\n",
			"entities/characters/daiyu.md":   "---\nname: 林黛玉\naliases: [林丫頭]\nkind: character\n---\n",
			"entities/characters/wangfr.md":  "---\nname: 王夫人\nkind: character\n---\n",
			"entities/characters/baoyu.md":   "---\nname: 賈寶玉\naliases: [寶玉, 寶兄弟]\nkind: character\n---\n",
			"manuscript/chapter-01/content.md": "第一回\n\n" + strings.Repeat("探春笑道：「好。」", uses) + strings.Repeat("小丫頭倒了茶來。", uses) +
				strings.Repeat("王夫人道：「是。」", uses) + strings.Repeat("林丫頭睡了。", 5) + strings.Repeat("他兄弟來了。", uses) +
				strings.Repeat("寶兄弟來了。", 5) + strings.Repeat("那儿寶玉睡了。", 5) + extra + strings.Repeat("天氣晴好，園中花開。", 100),
		})
	}
	for _, tc := range []struct {
		name       string
		uses       int
		extra      string
		text, want string
	}{
		{"a two-character name after a break", 120, "", "眾人都問，談春悉把昨夜的事說了。", "談春"},
		{"a two-character name after a word", 120, "", "政老爹之庶出，名貪春，四小姐。", "貪春"},
		{"the title of a name written seldom", 120, "", "別的事都好說．林壓頭倒沒有什麼。", "林壓頭"},
		{"the title of a name, after a break", 120, "", "老爺請太太呢。”王浮人叮嚀了几句話。", "王浮人"},
		{"the last character, the kept part the name's start", 120, "", "家常不大作，今儿寶兄低提起來了。", "寶兄低"},
		{"the last character, the kept part a word of its own", 120, strings.Repeat("寶兄說了。", 5), "家常不大作，今儿寶兄低提起來了。", ""},
		{"a name written less often", 40, "", "眾人都問，談春悉把昨夜的事說了。", ""},
		{"the kept character a word with the text after", 120, strings.Repeat("春天到了。", 5), "他只貪春天的景致。", ""},
		{"the slipped character a word with the text before", 120, strings.Repeat("他名貪了。", 3), "政老爹之庶出，名貪春，四小姐。", ""},
	} {
		if got := strings.Join(found(book(tc.uses, tc.extra), tc.text, 5, TypeName), " "); got != tc.want {
			t.Errorf("%s: %s: name findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
