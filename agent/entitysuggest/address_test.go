package entitysuggest

import (
	"slices"
	"strings"
	"testing"
)

// TestAddressForms: forms of address built on a name join its entry
// (琏二爷, 林姑娘, 云丫头, 政老爹) counted apart from the full name; a stem two
// entries share (宝 of 宝玉 and 宝钗) and words that name someone else by
// the name (琏二奶奶, the wife) join no one.
func TestAddressForms(t *testing.T) {
	text := strings.Repeat("贾琏笑道。琏二爷来了。", 4) + strings.Repeat("林黛玉哭了。林姑娘不理。", 4) +
		strings.Repeat("史湘云笑道。云丫头来了。", 4) + strings.Repeat("宝玉道。宝钗道。宝姑娘来了。", 4) +
		strings.Repeat("琏二奶奶来了。", 3) + strings.Repeat("鸳鸯姐姐说。", 4) +
		strings.Repeat("唐三藏道。圣僧来了。圣兄来了。", 4) + strings.Repeat("贾政道。政老爹来了。", 4)
	out := []Suggestion{
		{Name: "贾琏", Kind: KindCharacter, Mentions: 4}, {Name: "林黛玉", Kind: KindCharacter, Mentions: 4},
		{Name: "史湘云", Aliases: []string{"湘云"}, Kind: KindCharacter, Mentions: 4},
		{Name: "宝玉", Kind: KindCharacter, Mentions: 4}, {Name: "宝钗", Kind: KindCharacter, Mentions: 4}, {Name: "鸳鸯", Kind: KindCharacter, Mentions: 4},
		// 圣僧 (the holy monk) is a word and a title: 圣 is no stem of
		// his name, and 圣兄 is someone else.
		{Name: "唐三藏", Aliases: []string{"圣僧"}, Kind: KindCharacter, Mentions: 8},
		// 老爹, old sir, after a character of a man's given name.
		{Name: "贾政", Kind: KindCharacter, Mentions: 4},
	}
	addressForms(out, []Chapter{{Number: 1, Text: text}}, testFolder, nil)
	want := map[string][]string{
		"贾琏": {"琏二爷"}, "林黛玉": {"林姑娘"}, "史湘云": {"湘云", "云丫头"}, "宝玉": nil, "宝钗": nil, "鸳鸯": {"鸳鸯姐姐"},
		"唐三藏": {"圣僧"}, "贾政": {"政老爹"},
	}
	for _, s := range out {
		got := slices.Clone(s.Aliases)
		slices.Sort(got)
		w := slices.Clone(want[s.Name])
		slices.Sort(w)
		if !slices.Equal(got, w) {
			t.Errorf("%s: aliases %v, want %v", s.Name, got, w)
		}
	}
}

// TestFamiliarForms: 老 before a family name (老孙) names the one entry
// whose full name has that family name; not where two entries' names
// hold it, not with 小 (小孙 is a grandson), not under three uses.
func TestFamiliarForms(t *testing.T) {
	cases := []struct {
		name     string
		text     string
		out      []Suggestion
		surnames bookSurnames
		want     map[string][]string
	}{
		{
			name: "老 and the family name of one full name",
			text: strings.Repeat("孙悟空笑道：老孙去也。", 4) + strings.Repeat("小孙来了。", 4),
			out:  []Suggestion{{Name: "孙悟空", Kind: KindCharacter, Mentions: 4}},
			want: map[string][]string{"孙悟空": {"老孙"}},
		},
		{
			name: "a family name two entries' names hold",
			text: strings.Repeat("孙悟空道。孙小圣道。老孙去也。", 4),
			out:  []Suggestion{{Name: "孙悟空", Kind: KindCharacter, Mentions: 4}, {Name: "孙小圣", Kind: KindCharacter, Mentions: 4}},
			want: map[string][]string{"孙悟空": nil, "孙小圣": nil},
		},
		{
			name: "used twice only",
			text: strings.Repeat("孙悟空道。", 6) + strings.Repeat("老孙去也。", 2),
			out:  []Suggestion{{Name: "孙悟空", Kind: KindCharacter, Mentions: 6}},
			want: map[string][]string{"孙悟空": nil},
		},
		{
			// 豬 is no common family name: the book says it is one.
			name:     "老 and a family name the book declares",
			text:     strings.Repeat("猪悟能道：老猪去也。", 4),
			out:      []Suggestion{{Name: "猪悟能", Kind: KindCharacter, Mentions: 4}},
			surnames: bookSurnames{'猪': true},
			want:     map[string][]string{"猪悟能": {"老猪"}},
		},
		{
			name: "老 and a word the book does not declare a family name",
			text: strings.Repeat("猪悟能道：老猪去也。", 4),
			out:  []Suggestion{{Name: "猪悟能", Kind: KindCharacter, Mentions: 4}},
			want: map[string][]string{"猪悟能": nil},
		},
		{
			name: "a given name is not made familiar",
			text: strings.Repeat("孙悟空道。老悟去了。", 4),
			out:  []Suggestion{{Name: "孙悟空", Kind: KindCharacter, Mentions: 4}},
			want: map[string][]string{"孙悟空": nil},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			addressForms(c.out, []Chapter{{Number: 1, Text: c.text}}, testFolder, c.surnames)
			for _, s := range c.out {
				if !slices.Equal(s.Aliases, c.want[s.Name]) {
					t.Errorf("%s: aliases %v, want %v", s.Name, s.Aliases, c.want[s.Name])
				}
			}
		})
	}
}

// TestGivenCharAddress: an entry named only by one character and a word
// of address joins the one entry whose full name has that character in
// its given name (鳳姐 of 王熙鳳), or as its family name where the word
// addresses someone of the speaker's generation (史妹妹 of 史湘雲); never
// an elder's title (王夫人 is not 王熙鳳), nor where two bear the family
// name.
func TestGivenCharAddress(t *testing.T) {
	ch := func(name string, aliases ...string) Suggestion {
		return Suggestion{Name: name, Aliases: aliases, Kind: KindCharacter, Mentions: 10, Score: 10, FirstChapter: 1, LastChapter: 1}
	}
	cases := []struct {
		name string
		in   []Suggestion
		want map[string][]string // entry -> its names, of the entries kept
	}{
		{
			name: "a character of the given name with a word of address",
			in:   []Suggestion{ch("王熙鳳"), ch("鳳姐", "鳳丫頭")},
			want: map[string][]string{"王熙鳳": {"王熙鳳", "鳳姐", "鳳丫頭"}},
		},
		{
			name: "a family name with a word of address to a peer; a title holding the character is no bearer",
			in:   []Suggestion{ch("史湘雲", "湘雲"), ch("史妹妹", "史大妹妹"), ch("長史官")},
			want: map[string][]string{"史湘雲": {"史湘雲", "史妹妹", "史大妹妹", "湘雲"}, "長史官": {"長史官"}},
		},
		{
			name: "an elder's title after a family name",
			in:   []Suggestion{ch("王熙鳳"), ch("王夫人")},
			want: map[string][]string{"王熙鳳": {"王熙鳳"}, "王夫人": {"王夫人"}},
		},
		{
			name: "two bear the family name",
			in:   []Suggestion{ch("史湘雲"), ch("史鼎"), ch("史妹妹")},
			want: map[string][]string{"史湘雲": {"史湘雲"}, "史鼎": {"史鼎"}, "史妹妹": {"史妹妹"}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := givenCharAddress(slices.Clone(c.in), testFolder, nil)
			got := map[string][]string{}
			for _, s := range out {
				got[s.Name] = s.Names()
			}
			if len(got) != len(c.want) {
				t.Errorf("entries %v, want %v", got, c.want)
			}
			for n, w := range c.want {
				if !slices.Equal(got[n], w) {
					t.Errorf("%s: names %v, want %v", n, got[n], w)
				}
			}
		})
	}
}

// TestCJKDeclaredSurnames: a character the text writes after 姓 and
// before a pause, 名 or 的, three times at least, is a family name of
// the book where it is none of the common ones; not a question (姓甚),
// a word of 姓 (姓名, 百姓), a common family name, nor under three uses.
func TestCJKDeclaredSurnames(t *testing.T) {
	cases := []struct {
		name, text string
		want       string
	}{
		{"declared before a pause", strings.Repeat("八戒道：「我姓豬，名悟能。」", 3), "猪"},
		{"the one of that name", strings.Repeat("那姓豬的來了。", 3), "猪"},
		{"before 名", strings.Repeat("他姓豬名剛鬣。", 3), "猪"},
		{"twice only", strings.Repeat("我姓豬，名悟能。", 2), ""},
		{"a question", strings.Repeat("你姓甚名誰？姓甚？", 3), ""},
		{"words of 姓", strings.Repeat("百姓的田。問他姓名。", 3), ""},
		{"a common family name", strings.Repeat("我姓孫，名悟空。", 3), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			orig := []rune(c.text)
			ch := cjkChapter{orig: orig, folded: make([]rune, len(orig))}
			for i, r := range orig {
				ch.folded[i] = testFolder.FoldRune(r)
			}
			var got []rune
			for r := range cjkDeclaredSurnames([]cjkChapter{ch}) {
				got = append(got, r)
			}
			slices.Sort(got)
			if string(got) != c.want {
				t.Errorf("declared %q, want %q", string(got), c.want)
			}
		})
	}
}
