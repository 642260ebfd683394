package entitysuggest

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/textsearch"
)

// book repeats paragraphs into chapters: the counts the suggester judges
// by need more than one sentence of each kind.
func book(times int, paras ...string) []Chapter {
	var chs []Chapter
	for n := 1; n <= 3; n++ {
		var b strings.Builder
		b.WriteString("Chapter\n\n")
		for range times {
			for _, p := range paras {
				b.WriteString(p)
				b.WriteString("\n\n")
			}
		}
		chs = append(chs, Chapter{Number: n, Text: b.String()})
	}
	return chs
}

var testFolder = textsearch.NewFolder()

// entryOf returns the entry carrying name (traditional and simplified
// folded), or nil.
func entryOf(sugg []Suggestion, name string) *Suggestion {
	for i := range sugg {
		if hasName(&sugg[i], name) {
			return &sugg[i]
		}
	}
	return nil
}

func hasName(s *Suggestion, name string) bool {
	return slices.ContainsFunc(s.Names(), func(n string) bool { return testFolder.Fold(n) == testFolder.Fold(name) })
}

// suggestMerged suggests from chapters and checks that the names of each
// group of together are one entry; it returns the suggestions and their
// names for the caller's own checks.
func suggestMerged(t *testing.T, chapters []Chapter, together [][]string) ([]Suggestion, []string) {
	t.Helper()
	sugg, err := Suggest(context.Background(), chapters, Options{Folder: testFolder})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range sugg {
		got = append(got, strings.Join(s.Names(), "|"))
	}
	for _, tg := range together {
		e := entryOf(sugg, tg[0])
		if e == nil {
			t.Errorf("no entry with %q in %v", tg[0], got)
			continue
		}
		for _, n := range tg[1:] {
			if !hasName(e, n) {
				t.Errorf("%q not merged with %q: %v", n, tg[0], got)
			}
		}
	}
	return sugg, got
}

// A suggestCase is a small book and what its suggestions must show:
// together, names that must be in one entry; apart, names that must not;
// absent, words that must be in no entry; kinds, the kind of an entry.
type suggestCase struct {
	name     string
	chapters []Chapter
	together [][]string
	apart    [][2]string
	absent   []string
	kinds    map[string]string
}

// checkSuggestCases runs each case as a subtest.
func checkSuggestCases(t *testing.T, cases []suggestCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sugg, got := suggestMerged(t, c.chapters, c.together)
			for _, ap := range c.apart {
				if e := entryOf(sugg, ap[0]); e != nil && hasName(e, ap[1]) {
					t.Errorf("%q merged with %q: %v", ap[1], ap[0], got)
				}
			}
			for _, a := range c.absent {
				if entryOf(sugg, a) != nil {
					t.Errorf("%q suggested: %v", a, got)
				}
			}
			for n, k := range c.kinds {
				if e := entryOf(sugg, n); e == nil || e.Kind != k {
					t.Errorf("kind of %q: got %+v, want %s", n, e, k)
				}
			}
			for _, s := range sugg {
				if s.FirstChapter > s.LastChapter || s.Mentions <= 0 {
					t.Errorf("bad span or count: %+v", s)
				}
			}
		})
	}
}

func TestSuggest(t *testing.T) {
	checkSuggestCases(t, []suggestCase{
		{
			name: "english given name joins its full name; titles keep two people apart",
			chapters: book(4,
				"Elizabeth Bennet walked to Meryton with her sister, and the walk was long.",
				"However tired she was, Elizabeth said nothing; the road went on, and Elizabeth smiled at Jane.",
				"Mrs. Bennet was loud, and Mr. Bennet was quiet in the library at Longbourn.",
				"The evening came. Jane laughed, and Mr. Bennet read while Mrs. Bennet talked of Netherfield Park.",
				"They dined at Netherfield, and she said that Netherfield was grand; Darcy's pride was plain.",
				"Mr. Darcy bowed, and Darcy said little; Elizabeth's answer was quick.",
			),
			together: [][]string{{"Elizabeth Bennet", "Elizabeth"}, {"Mr. Darcy", "Darcy"}, {"Netherfield Park", "Netherfield"}},
			apart:    [][2]string{{"Mr. Bennet", "Mrs. Bennet"}, {"Elizabeth", "Jane"}},
			absent:   []string{"However", "The", "They"},
			kinds:    map[string]string{"Netherfield": KindLocation, "Elizabeth": KindCharacter, "Mr. Darcy": KindCharacter},
		},
		{
			name: "a bare given name with nothing nearby tying it to the titled one stays apart",
			chapters: append(book(3,
				"Lady Catherine spoke at Rosings, and Lady Catherine de Bourgh ruled the table.",
				"Lady Catherine asked again; Lady Catherine was displeased.",
			), Chapter{Number: 4, Text: strings.Repeat("Far away, Kitty and Catherine ran to the shops in the village.\n\nCatherine laughed at the shops, and Kitty laughed with her.\n\n", 3)}),
			together: [][]string{{"Lady Catherine", "Lady Catherine de Bourgh"}},
			apart:    [][2]string{{"Catherine", "Lady Catherine"}},
		},
		{
			name: "chinese speakers, full names and forms of address, traditional and simplified folded",
			chapters: []Chapter{
				{Number: 1, Text: "第一回　開卷\n\n" + strings.Repeat("賈寶玉進來了。寶玉笑道：“好。”黛玉道：“去罷。”林黛玉聽了，便往大觀園來。寶玉說：“妹妹。”黛玉笑道：“是。”眾人都說：“好。”一個婆子道：“來了。”婆子們都笑。\n", 6)},
				{Number: 2, Text: "第二回　又一回\n\n" + strings.Repeat("宝玉笑道：“来。”黛玉道：“不。”林黛玉叹道：“罢了。”宝玉便往大观园去。贾宝玉说道：“是。”林姑娘道：“嗯。”\n", 6)},
			},
			together: [][]string{{"寶玉", "賈寶玉"}, {"黛玉", "林黛玉"}},
			apart:    [][2]string{{"寶玉", "黛玉"}},
			absent:   []string{"眾人", "婆子", "一個"},
			kinds:    map[string]string{"大觀園": KindLocation, "寶玉": KindCharacter},
		},
		{
			// 厲聲高 stands before 叫道 every time: the head of a phrase
			// ("厲聲高叫", shouted loudly), not a speaker; 行者 is a name,
			// though 叫道 follows him too. 蒙 (to receive a favour from)
			// takes a person: 蒙玉帝 is 玉帝 in a phrase. 花果山, always
			// before 來, is a place one goes to.
			name: "chinese run nearly always followed by one verb, or after a verb that takes a person, is a phrase, not a name",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("那妖精，厲聲高叫道：「拿來！」行者叫道：「來也。」八戒笑道：「好。」行者道：「走。」\n", 8)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("那老魔，厲聲高叫道：「休走！」行者笑道：「好。」\n", 8) +
					strings.Repeat("那老魔，厲聲高叫，趕上前來。行者便往花果山來。\n", 12) +
					strings.Repeat("行者道：「多蒙玉帝恩典。」玉帝笑道：「好。」八戒道：「老孫蒙玉帝看顧。」\n", 6)},
			},
			absent: []string{"厲聲高", "厲聲", "蒙玉帝"},
			kinds:  map[string]string{"行者": KindCharacter, "八戒": KindCharacter, "玉帝": KindCharacter, "花果山": KindLocation},
		},
		{
			// 柳湘蓮 is named eight times; once after 你 ("你柳湘蓮…"),
			// once after a classifier: one use each, no evidence of a
			// verb or a common noun.
			name: "chinese rare name with one use after a pronoun and one after a classifier",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("寶玉聽了，柳湘蓮笑道：「走。」寶玉道：「好。」\n", 3) + "寶玉道：「你柳湘蓮也來。」\n"},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("寶玉聽了，柳湘蓮笑道：「來。」寶玉道：「是。」\n", 3) + "寶玉道：「這個柳湘蓮好。」\n"},
			},
			kinds: map[string]string{"柳湘蓮": KindCharacter, "寶玉": KindCharacter},
		},
		{
			// 乃 (to be) stands before names: "我乃天蓬元帥". One use
			// after an adverb (又王母娘娘) is no evidence of a verb.
			name: "chinese name after 乃, and a name once after an adverb",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("那怪道：「我乃天蓬元帥。」眾神道：「天蓬元帥來了。」行者道：「好。」\n", 4) +
					strings.Repeat("仙女道：「王母娘娘來了。」行者道：「好。」仙女道：「王母娘娘，請。」\n", 5) + "行者道：「又王母娘娘的桃。」\n"},
			},
			kinds: map[string]string{"天蓬元帥": KindCharacter, "王母娘娘": KindCharacter},
		},
		{
			// "賈赦等" is Jia She and the others: a full name at the head
			// of a list, not a plural, as "婆子等" is.
			name: "chinese full name before 等 is a name; a common noun before it is not",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("賈赦道：「來。」賈政道：「好。」賈赦笑道：「走。」\n", 4) +
					strings.Repeat("賈赦等都來了。賈政道：「坐。」婆子等都笑。婆子道：「是。」\n", 3) + strings.Repeat("婆子道：「來了。」婆子們都走了。\n", 3)},
			},
			kinds:  map[string]string{"賈赦": KindCharacter, "賈政": KindCharacter},
			absent: []string{"婆子"},
		},
		{
			// One may be made a 齊天大聖 ("封他做個齊天大聖"): a name with
			// a title after a classifier is still a name; a bare word so
			// written (一個婆子) is not.
			name: "chinese name with a title after a classifier",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("眾神道：「齊天大聖來了。」行者道：「好。」眾神道：「齊天大聖，請坐。」\n", 6) +
					strings.Repeat("玉帝道：「封他做個齊天大聖。」行者道：「好。」\n", 2) + strings.Repeat("一個婆子道：「來了。」婆子們都笑。\n", 6)},
			},
			kinds:  map[string]string{"齊天大聖": KindCharacter},
			absent: []string{"婆子"},
		},
		{
			// 吩咐 (to order) and 起身 (to rise) stand before 道 as a
			// speaker would, and are verbs of the dictionary. 思量 (to
			// ponder) is no verb there, but comes after 又 and 便, which
			// stand between a subject and its verb, never before a name.
			// 鐵棒 (the iron staff) stands before 道 after 了: what was
			// put away, not who speaks. 急 (in haste) starts no name.
			name: "chinese verbs and objects where a speaker would stand are no names",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("那妖精聽了，吩咐道：「拿來！」行者聽了，起身道：「來也。」八戒笑道：「好。」\n", 8)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("行者收了鐵棒道：「走。」八戒聽了，思量道：「好。」沙僧聽了，急回頭道：「師父。」\n", 8) +
					strings.Repeat("那老魔又思量，行者便思量，八戒又吩咐。行者收了鐵棒，八戒道：「是。」\n", 3)},
			},
			absent: []string{"吩咐", "起身", "思量", "鐵棒", "急回頭"},
			kinds:  map[string]string{"行者": KindCharacter, "八戒": KindCharacter, "沙僧": KindCharacter},
		},
		{
			// 老 before a family name makes it familiar (老孫, 孫悟空
			// speaking of himself); before a common noun it is old:
			// 老魔 is the old demon of whichever cave the pilgrims are
			// at, no one's name.
			// 小 before a character of a given name is a pet name (小玉).
			// A parent with a title (父王, father and king) or another
			// (父母, parents) is said by any child of his or her own.
			name: "chinese 老 before a family name is familiar, before a common noun old; a parent's title is no name",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("孫悟空道：「老孫來也。」老孫道：「好。」八戒道：「是。」\n", 6) +
					strings.Repeat("老魔道：「拿來。」行者道：「不。」老魔笑道：「走。」\n", 6) +
					strings.Repeat("小玉道：「茶來了。」八戒道：「好。」小玉笑道：「請。」\n", 6) +
					strings.Repeat("公主道：「父王，請坐。」父王道：「好。」父母道：「是。」\n", 6)},
			},
			together: [][]string{{"孫悟空", "老孫"}},
			absent:   []string{"老魔", "父王", "父母"},
			kinds:    map[string]string{"小玉": KindCharacter},
		},
		{
			// A preposition (對眾, to the crowd), an adverb (快早, quick)
			// or a word of a crowd (群妖, the demons) starts no name.
			name: "chinese prepositions, adverbs and crowds start no name",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("行者對眾道：「來。」八戒快早道：「好。」群妖道：「走。」沙僧道：「是。」\n", 8) +
					strings.Repeat("行者道：「來。」八戒道：「好。」\n", 8)},
			},
			absent: []string{"對眾", "快早", "群妖"},
			kinds:  map[string]string{"行者": KindCharacter, "八戒": KindCharacter},
		},
	})
}

func TestSuggestEmptyAndCancelled(t *testing.T) {
	sugg, err := Suggest(context.Background(), nil, Options{})
	if err != nil || len(sugg) != 0 {
		t.Fatalf("no chapters: %v %v", sugg, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Suggest(ctx, book(2, "Elizabeth met Jane, and Elizabeth smiled at Jane."), Options{}); err == nil {
		t.Fatal("a cancelled context must stop the suggester")
	}
}

// FuzzSuggest: any text gives suggestions or an error, never a panic.
func FuzzSuggest(f *testing.F) {
	f.Add("Mr. Darcy said, “Elizabeth!” and Elizabeth's reply came.", "寶玉笑道：“好。”往大觀園來。")
	f.Add("\x00\xff'’s — “", "道道道說")
	f.Fuzz(func(t *testing.T, a, b string) {
		if _, err := Suggest(context.Background(), []Chapter{{Number: 1, Text: a}, {Number: 2, Text: b}}, Options{Folder: testFolder}); err != nil {
			t.Fatal(err)
		}
	})
}
