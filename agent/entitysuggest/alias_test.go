package entitysuggest

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// chaptersOf makes n chapters, each holding the paragraphs once: a name
// used once a chapter over many chapters.
func chaptersOf(n int, paras ...string) []Chapter {
	var chs []Chapter
	for i := 1; i <= n; i++ {
		chs = append(chs, Chapter{Number: i, Text: fmt.Sprintf("Chapter %d\n\n%s\n", i, strings.Join(paras, "\n\n"))})
	}
	return chs
}

// numbered joins the chapters and numbers them from 1.
func numbered(parts ...[]Chapter) []Chapter {
	var out []Chapter
	for _, p := range parts {
		for _, c := range p {
			c.Number = len(out) + 1
			out = append(out, c)
		}
	}
	return out
}

// filler is a paragraph of some 130 words with no name in it: it puts
// the paragraphs around it out of each other's reach.
var filler = strings.TrimSpace(strings.Repeat("the rain fell on the fields and the road was long and quiet ", 11))

// TestSuggestMergesAliases holds the constructions that merge the forms
// of one person, each beside a form that must stay apart.
func TestSuggestMergesAliases(t *testing.T) {
	cases := []struct {
		name     string
		chapters []Chapter
		together [][]string
		apart    [][2]string
		// named maps a name to the name its entry must have.
		named map[string]string
	}{
		{
			// Each chapter writes the full name once: counted chapter by
			// chapter it looked like two names side by side.
			name: "a full name used once a chapter is one name, and joins its given name",
			chapters: chaptersOf(12,
				"The squadron in which Nicholas Rostóv served was quartered near the river.",
				"In the morning Rostóv rode out, and Rostóv saw the hills; then Nicholas laughed, and Nicholas sang.",
				"At dinner Rostóv spoke of the horses, and Nicholas listened to the music.",
			),
			together: [][]string{{"Nicholas Rostóv", "Nicholas"}},
		},
		{
			// No title says Anatole Kurágin is a man, and the pronouns
			// after his given name are as often a woman's he speaks to;
			// Prince Anatole, a man, is the only other bearer of the
			// name. The bare given name joins the full name, not the
			// titled form alone.
			name: "a bare given name of a man joins the full name of unknown sex that bears it as a given name",
			chapters: numbered(chaptersOf(3,
				"At the ball Anatole Kurágin danced with the countess, and Anatole laughed.",
			), chaptersOf(2,
				"The hostess smiled when Prince Anatole bowed to her, and Anatole laughed.",
			), chaptersOf(12,
				"In the evening Anatole looked at the girl, and she smiled; Anatole drank, and he sang.",
				filler,
				"When Anatole wrote to her, she answered; then Anatole sealed the letter.",
			)),
			together: [][]string{{"Anatole Kurágin", "Anatole", "Prince Anatole"}},
		},
		{
			// "Count Bezúkhov" is placed before "Pierre", when the
			// bearers of the name are the old count and Pierre Bezúkhov,
			// named twice: asked again once Pierre is placed, the nearby
			// text names Pierre every time. Mrs. Lucas, a titled family
			// name too, stays apart from her daughter Charlotte Lucas.
			name: "a titled family name left alone joins the bearer the nearby text names once all names are placed",
			chapters: numbered(chaptersOf(2,
				"Count Cyril Vladímirovich Bezúkhov lay dying in his great house, and Count Cyril Vladímirovich Bezúkhov said nothing.",
			), chaptersOf(2,
				"Pierre Bezúkhov came to the ball, and Pierre smiled.",
				"Charlotte Lucas came too.",
			), chaptersOf(12,
				"Pierre rode to the city, and Pierre stopped at the inn.",
				filler,
				"Pierre sat down at the table. Count Bezúkhov, they said, was the richest man in Moscow.",
				filler,
				"Charlotte smiled, and Charlotte laughed. Mrs. Lucas was pleased.",
				filler,
			)),
			together: [][]string{{"Pierre", "Pierre Bezúkhov", "Count Bezúkhov"}, {"Charlotte Lucas", "Charlotte"}},
			apart:    [][2]string{{"Pierre", "Count Cyril Vladímirovich Bezúkhov"}, {"Charlotte", "Mrs. Lucas"}},
		},
		{
			// A bare family name is asked again as well: "Kurágin" is
			// said where Anatole is, not his father, Prince Vasíli, nor
			// his brother Hippolyte; when
			// it is placed, Anatole's sex is in doubt (the pronouns after
			// his name are the women's he speaks to), and a bare family
			// name is looked for among men first.
			name: "a bare family name left alone joins the bearer the nearby text names once all names are placed",
			chapters: numbered(chaptersOf(2,
				"Prince Vasíli Kurágin spoke to the guests, and Prince Vasíli smiled.",
				filler,
				"Prince Hippolyte Kurágin told a story.",
			), chaptersOf(3,
				"At the ball Anatole Kurágin danced with the countess, and Anatole laughed.",
			), chaptersOf(2,
				"The hostess smiled when Prince Anatole bowed to her, and Anatole laughed.",
			), chaptersOf(12,
				"In the evening Anatole looked at the girl, and she smiled; Anatole drank, and he sang.",
				filler,
				"When Anatole wrote to her, she answered; then Anatole sealed the letter. Kurágin laughed.",
				filler,
			)),
			together: [][]string{{"Anatole Kurágin", "Anatole", "Kurágin"}, {"Prince Vasíli Kurágin", "Prince Vasíli"}},
			apart:    [][2]string{{"Prince Vasíli", "Kurágin"}, {"Prince Hippolyte Kurágin", "Kurágin"}},
		},
		{
			name: "a given name used far more than its titled forms absorbs them; a saint and two ranks stay apart",
			chapters: numbered(chaptersOf(3,
				"In the hall Pierre sat down, and Pierre smiled at them all; then Pierre rose.",
				"The child ran up to Pierre and cried, Uncle Pierre, look! and Pierre laughed.",
				"Later the child came back: Uncle Pierre, come! and Pierre went.",
				"After that Pierre walked home, and Pierre read late; and Pierre slept.",
				"In the morning Pierre woke, and Pierre dressed; then Pierre went out.",
			), chaptersOf(3,
				"In the hall Pierre sat down, and Pierre smiled at them all; then Pierre rose.",
				"The Frenchman bowed to Pierre: Monsieur Pierre, he said, and Pierre nodded.",
				"After that Pierre walked home, and Pierre read late; and Pierre slept.",
				"In the morning Pierre woke, and Pierre dressed; then Pierre went out.",
			),
				// Three men called Nicholas, each in scenes of his own.
				[]Chapter{
					{Text: strings.Repeat("On the feast of St. Nicholas the bells rang, and the people prayed to Nicholas in the church.\n\n", 4)},
					{Text: strings.Repeat("At Bald Hills Prince Nicholas spoke, and the servants feared Nicholas in the house.\n\n", 4)},
					{Text: strings.Repeat("In the regiment Count Nicholas rode, and the hussars followed Nicholas to the river.\n\n", 4)},
				}),
			together: [][]string{{"Pierre", "Uncle Pierre", "Monsieur Pierre"}},
			apart:    [][2]string{{"Nicholas", "St. Nicholas"}, {"Prince Nicholas", "Count Nicholas"}, {"Nicholas", "Prince Nicholas"}, {"Pierre", "Nicholas"}},
		},
		{
			// The title and the family name a woman took are hers where
			// her full name has them both, not her husband's.
			name: "a woman's title and family name join the full name she bears with that title",
			chapters: numbered(chaptersOf(2,
				"The footman bowed: Countess Hélène Bezúkhova! And Hélène came in.",
				filler,
				"At the window Pierre Bezúkhov read, and Pierre Bezúkhov sighed.",
			), chaptersOf(6,
				"In the drawing room Hélène sat down, and Hélène smiled at them all; then Hélène rose.",
				"The guests praised Countess Bezúkhova, and Hélène smiled; Countess Bezúkhova was the fashion.",
				filler,
				"At the window Pierre read, and Pierre sighed; then Pierre went out.",
			)),
			together: [][]string{{"Hélène", "Countess Bezúkhova", "Countess Hélène Bezúkhova"}},
			apart:    [][2]string{{"Pierre", "Countess Bezúkhova"}},
		},
		{
			name: "a short given name under the same family name is the same person; two longer ones leave it alone",
			chapters: chaptersOf(4,
				"At the ball Elizabeth Bennet danced, and Elizabeth laughed with Jane.",
				"Later Miss Bingley said, Eliza Bennet is proud; and Eliza Bennet heard her.",
				"Then Elizabeth walked on, and Elizabeth read; but Jane sang to Elizabeth.",
				"At church Annabel Grey sang, and Annamaria Grey played, while Anna Grey listened.",
				"At home Annabel Grey read, and Annamaria Grey sewed, and Anna Grey slept.",
			),
			together: [][]string{{"Elizabeth Bennet", "Eliza Bennet"}},
			apart:    [][2]string{{"Anna Grey", "Annabel Grey"}, {"Anna Grey", "Annamaria Grey"}, {"Elizabeth Bennet", "Jane"}},
		},
		{
			name: "a form of address joins the one titled person the scene names, among several of that title",
			chapters: chaptersOf(6,
				"At Rosings Lady Catherine spoke, and her Ladyship was displeased; and Lady Catherine rose.",
				"At dinner Lady Catherine asked again, and her Ladyship frowned at them.",
				"Far away in the town, Lady Lucas called on her neighbours, and Lady Lucas talked.",
			),
			together: [][]string{{"Lady Catherine", "her Ladyship"}},
			apart:    [][2]string{{"Lady Catherine", "Lady Lucas"}},
		},
		{
			// Written together twice in the book only, far apart: not two
			// names side by side, as "General Bonaparte" shows the second
			// word is a family name.
			name: "a rare full name whose second word is a family name elsewhere is one name",
			chapters: numbered(
				chaptersOf(2, "The treaty with Napoleon Bonaparte was signed at last, they said."),
				chaptersOf(12,
					"At dawn Napoleon rode out, and Napoleon looked at the hills; the army of Napoleon waited.",
					"The officers of Bonaparte spoke of Bonaparte, and Bonaparte heard; so Bonaparte smiled.",
				),
				chaptersOf(2, "In the old days General Bonaparte had been poor, they said."),
			),
			together: [][]string{{"Napoleon", "Napoleon Bonaparte"}},
		},
		{
			name: "a family name used of one man far more than his other forms absorbs his titled forms; a kinsman stays apart",
			chapters: numbered(
				chaptersOf(3,
					"The old general Michael Ilariónovich Kutúzov came in, and Kutúzov sat down; then Kutúzov listened.",
					"Later Prince Kutúzov rose, and Kutúzov walked to the window, and Kutúzov sighed.",
					"The adjutant looked at Kutúzov, and Kutúzov nodded; Kutúzov was tired.",
					"Outside the staff waited for Kutúzov, and Kutúzov went out, and Kutúzov rode away.",
					"At night Kutúzov read, and Kutúzov wrote to his wife, and Kutúzov slept.",
					"Next day Kutúzov woke early, and Kutúzov prayed, and Kutúzov dressed.",
					"The aides found Kutúzov at table, and Kutúzov ate, and Kutúzov laughed.",
				),
				chaptersOf(3,
					"In the morning General Kutúzov rode, and Kutúzov spoke, and Kutúzov smiled.",
					"At noon Kutúzov ate, and Kutúzov rested, and then Kutúzov rode again.",
					"The soldiers cheered Kutúzov, and Kutúzov waved, and Kutúzov wept.",
					"At night Kutúzov read, and Kutúzov wrote to his wife, and Kutúzov slept.",
				),
				[]Chapter{{Text: strings.Repeat("Far off in the provinces his cousin Paul Ivánovich Kutúzov kept bees, and Paul Ivánovich Kutúzov sold honey.\n\n", 2)}},
			),
			together: [][]string{{"Kutúzov", "Michael Ilariónovich Kutúzov", "Prince Kutúzov", "General Kutúzov"}},
			apart:    [][2]string{{"Kutúzov", "Paul Ivánovich Kutúzov"}},
		},
		{
			// Andrúsha cuts Andrew short with a Russian ending; Váska
			// cuts Vasíli, but Váska Denísov bears that name himself,
			// not Prince Vasíli; Mary and Maria Lucas are used alike,
			// two women, not a pet name and its person; Mavrúshka, sent
			// off in one scene, is too seldom named to be anyone's.
			name: "a pet name joins the one person who bears the name it cuts short, far more often named otherwise",
			chapters: numbered(chaptersOf(2,
				"His old nurse wept: Andrúsha, my Andrúsha, come home! And Prince Andrew smiled at her.",
			), chaptersOf(6,
				"In the study Prince Andrew read, and Prince Andrew wrote; then Prince Andrew rode out with Andrew Bolkónski's men.",
				filler,
				"At the inn Prince Vasíli sat down, and Prince Vasíli ate; Prince Vasíli laughed at the soldiers.",
				filler,
				"In camp Vasíli Dmítrich Denísov drank; the hussars cried, Váska Denísov! and Váska laughed.",
				filler,
				"At church Maria Lucas sang, and Maria Lucas prayed, and Maria sat still.",
				filler,
				"At home Mary read, and Mary sang; Mary was alone.",
				filler,
				"In the pantry Mávra Kuzmínichna counted the plates, and Mávra Kuzmínichna sighed.",
			), []Chapter{{Text: "Natásha laughed: Go, Mavrúshka, go! And Mavrúshka ran off.\n"}}),
			together: [][]string{{"Prince Andrew", "Andrúsha"}},
			apart:    [][2]string{{"Prince Vasíli", "Váska"}, {"Maria Lucas", "Mary"}, {"Mávra Kuzmínichna", "Mavrúshka"}},
		},
		{
			// Prince Vasíli bears Vasíli far more often than anyone, but
			// Váska Denísov is of the family of Vasíli Dmítrich Denísov,
			// who bears the name too.
			name: "a pet name joins the bearer of the name it cuts short of its own family",
			chapters: numbered(chaptersOf(12,
				"At the inn Prince Vasíli Kurágin sat down, and Prince Vasíli ate; Prince Vasíli laughed at the soldiers.",
				filler,
				"In camp Denísov drank, and Denísov sang, and Denísov slept.",
				filler,
			), chaptersOf(3,
				"The colonel wrote to Vasíli Dmítrich Denísov, and Vasíli Dmítrich read it.",
				filler,
				"The hussars cried, Váska Denísov! and Váska laughed.",
			)),
			together: [][]string{{"Vasíli Dmítrich Denísov", "Váska Denísov", "Váska"}},
			apart:    [][2]string{{"Prince Vasíli", "Váska"}},
		},
		{
			// English and Russian pet names drop the first vowel of the
			// name they cut short (Lizzy, Kátya), and an English one
			// doubles the consonant before its ending (Lizzy); a name that
			// begins as the pet name does is its own first (Natásha is
			// Natalie's, not Anatole's, though Anatole without its A
			// begins so too).
			name: "a pet name may drop the first vowel of the name it cuts short",
			chapters: numbered(chaptersOf(1,
				"In the hall Lizzy sat, and Lizzy laughed; then Lizzy ran out.",
				filler,
				"In the nursery Kátya sat, and Kátya sang; then Kátya slept.",
				filler,
				"In the hall Natásha sat, and Natásha laughed; then Natásha ran out.",
			), chaptersOf(6,
				"In the garden Elizabeth Bennet walked, and Elizabeth read; Elizabeth laughed.",
				filler,
				"At the window Ekaterína Petróvna sat, and Ekaterína sewed; Ekaterína sighed.",
				filler,
				"In the ballroom Natalie Rostóva danced, and Natalie sang; Natalie smiled.",
				filler,
				"At the club Anatole Kurágin drank, and Prince Anatole played cards; Anatole Kurágin lost.",
			)),
			together: [][]string{{"Elizabeth", "Lizzy"}, {"Ekaterína", "Kátya"}, {"Natalie", "Natásha"}},
			apart:    [][2]string{{"Anatole Kurágin", "Natásha"}},
		},
		{
			// The translator writes the accent now and then: one name.
			name: "forms written alike but for their accents are one name",
			chapters: numbered(chaptersOf(2,
				"The letter was signed Napoléon, and Napoléon was proud of it.",
			), chaptersOf(8,
				"At dawn Napoleon rode out, and Napoleon looked at the hills.",
				filler,
				"In Paris Marie wrote to Mary, and Mary answered Marie.",
			)),
			together: [][]string{{"Napoleon", "Napoléon"}},
			apart:    [][2]string{{"Marie", "Mary"}},
		},
		{
			// The eldest unmarried daughter is Miss and the family name;
			// her sisters are Miss and their given names.
			name: "an unmarried woman's title before a family name alone is the sister never called by it with her given name",
			chapters: chaptersOf(6,
				"Elsewhere, Miss Elizabeth Bennet read a book, and Elizabeth laughed.",
				"Upstairs, Miss Lydia Bennet sang loudly, and Lydia shouted.",
				filler,
				"In the morning, Jane Bennet walked to the village with her aunt.",
				"At the ball Miss Bennet danced twice, and her partner admired Miss Bennet.",
				"Then Jane came home, and Jane sat down.",
			),
			together: [][]string{{"Jane Bennet", "Miss Bennet"}},
			apart:    [][2]string{{"Elizabeth Bennet", "Miss Bennet"}, {"Lydia Bennet", "Miss Bennet"}},
		},
		{
			// Lady and the family name is the wife of Sir William; the
			// daughter is Miss Lucas.
			name: "a lady called by the family name is not the family's unmarried daughter",
			chapters: chaptersOf(6,
				"In the evening, Charlotte Lucas sat with her father, Sir William Lucas, and her mother.",
				"Miss Lucas spoke to Elizabeth, and Lady Lucas listened to Miss Lucas; Charlotte smiled.",
				"Then Lady Lucas rose, and Charlotte followed her out, and Miss Lucas laughed.",
				"Charlotte was sensible, and Miss Lucas knew it; Lady Lucas called for Charlotte.",
			),
			together: [][]string{{"Charlotte Lucas", "Miss Lucas", "Charlotte"}},
			apart:    [][2]string{{"Charlotte Lucas", "Lady Lucas"}, {"Sir William Lucas", "Lady Lucas"}},
		},
		{
			// Howard is Lennox's given name, written once in full, and
			// his cousin's family name, written after Colonel all the
			// time; the bare word, said in scenes where Lennox is named
			// nearer, is the colonel.
			name: "a bare word that is one man's family name after a title and another's given name is the first man's",
			chapters: numbered(chaptersOf(1,
				"Everyone in the county had heard of Mr. Howard Lennox and his estate.",
			), chaptersOf(8,
				"At the house Colonel Howard arrived, and Colonel Howard bowed to the ladies.",
				filler,
				"Lennox was silent by the fire. \"I cannot say,\" said Howard, \"what my cousin means.\"",
				filler,
				"Lennox walked on with them, and Mr. Lennox said nothing at all; Lennox frowned.",
			)),
			together: [][]string{{"Colonel Howard", "Howard"}, {"Lennox", "Mr. Lennox"}},
			apart:    [][2]string{{"Lennox", "Howard"}, {"Lennox", "Colonel Howard"}},
		},
		{
			// 寶 stands in 寶玉 and 寶釵: 寶兄弟 and 寶哥哥 speak to the man,
			// 寶姐姐 to the woman.
			name: "chinese address on a stem two names share goes by the sex of the kinship word",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("寶玉笑道：「好。」寶二爺道：「來。」寶釵道：「是。」寶姑娘道：「罷了。」\n", 6)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("黛玉道：「好寶兄弟，好寶哥哥，好寶姐姐。」湘雲道：「好。」\n", 4)},
			},
			together: [][]string{{"寶玉", "寶兄弟", "寶哥哥"}, {"寶釵", "寶姐姐"}},
			apart:    [][2]string{{"寶玉", "寶釵"}, {"寶玉", "寶姐姐"}, {"寶釵", "寶兄弟"}},
		},
		{
			// The book spells out 王熙鳳 in one scene and calls her 鳳姐
			// and 鳳丫頭 everywhere else: her familiar name is built on
			// her given name. 王 is her family name, not her given name:
			// 王夫人 is someone else; 興兒 is a servant's own name, not
			// 冷子興's; 大舅 is a kinship word, not the given name of
			// 邢大舅, and 舅太太 is not he.
			name: "chinese entries named by one character of a given name and a word of address join that full name",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("王熙鳳笑道：「好。」冷子興道：「是。」邢大舅道：「來。」\n", 6)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("鳳姐笑道：「好。」王夫人道：「罷。」鳳丫頭道：「是。」興兒道：「來了。」舅太太道：「坐。」寶玉道：「走。」\n", 8)},
			},
			together: [][]string{{"王熙鳳", "鳳姐", "鳳丫頭"}},
			apart:    [][2]string{{"王熙鳳", "王夫人"}, {"冷子興", "興兒"}, {"邢大舅", "舅太太"}},
		},
		{
			// Two sisters of one family and title, told apart by their
			// rank among siblings, in the same scenes.
			name: "chinese forms with two ranks among siblings are two people",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("尤二姐笑道：「好。」尤三姐道：「是。」尤二姐道：「來。」賈璉道：「坐。」\n", 8)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("尤二姐道：「走。」賈璉道：「去。」璉二爺笑道：「好。」\n", 6)},
			},
			together: [][]string{{"賈璉", "璉二爺"}},
			apart:    [][2]string{{"尤二姐", "尤三姐"}},
		},
		{
			// The god of a river is no part of the river.
			name: "chinese title never joins a place",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("行者往黑水河去。八戒到黑水河來。沙僧道：「好。」\n", 6)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("那黑水河深。河神笑道：「我來了。」河神道：「莫怕。」行者在黑水河邊。\n", 6)},
			},
			apart: [][2]string{{"黑水河", "河神"}},
		},
		{
			// 兒 after a family name is a child of the family, no form
			// of address.
			name: "chinese family name and 兒 is no name of the person",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("孫悟空笑道：「好。」悟空道：「去。」老婆婆道：「我的孫兒。」孫悟空道：「走。」\n", 6)},
			},
			together: [][]string{{"孫悟空"}},
			apart:    [][2]string{{"孫悟空", "孫兒"}},
		},
		{
			// 八戒 answers when 獃子 is called, every time; 大王 is
			// answered by two demons in turn; 賢弟 is called too seldom.
			name: "chinese form called at the start of speech joins the one form that answers most calls",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("行者道：「獃子，莫睡。」八戒道：「曉得。」沙僧笑道：「好。」\n", 8) +
					strings.Repeat("小妖道：「大王，來了。」老魔道：「拿來。」小妖道：「大王，走了。」二魔道：「追。」\n", 5) +
					strings.Repeat("八戒道：「賢弟，來。」沙僧道：「是。」\n", 4)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("八戒道：「餓了。」行者道：「去。」沙僧道：「走。」老魔道：「吃。」二魔道：「喝。」\n", 4) +
					strings.Repeat("那獃子笑道：「飽了。」那大王笑道：「好。」那賢弟笑道：「是。」\n", 4)},
			},
			together: [][]string{{"八戒", "獃子"}},
			apart:    [][2]string{{"老魔", "大王"}, {"二魔", "大王"}, {"老魔", "二魔"}, {"沙僧", "賢弟"}, {"行者", "八戒"}},
		},
		{
			// 賈母 answers the speech that speaks of 老太太, and seldom
			// speaks otherwise; 行者 answers the speech of 國王 as he
			// answers all speech: the title is not his.
			name: "chinese title alone joins the one who answers the speech about it far more than any other",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("鳳姐道：「老太太說了，請坐。」賈母笑道：「好。」當下無話。\n", 24) +
					strings.Repeat("寶玉道：「走。」黛玉道：「來。」襲人道：「是。」當下無話。\n", 30)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("八戒道：「餓。」行者道：「去。」當下無話。\n", 60) +
					strings.Repeat("沙僧道：「國王來了。」行者道：「好。」當下無話。\n", 24) +
					strings.Repeat("次日，老太太笑道：「罷。」次日，國王笑道：「好。」次日，師父笑道：「走。」\n", 4)},
				// 師父 is answered by two, neither far more than the other.
				{Number: 3, Text: "第三回\n\n" + strings.Repeat("悟淨道：「師父餓了。」三藏道：「不餓。」當下無話。\n", 14) +
					strings.Repeat("悟淨道：「師父醒了。」唐僧道：「醒了。」當下無話。\n", 10)},
			},
			together: [][]string{{"賈母", "老太太"}},
			apart:    [][2]string{{"行者", "國王"}, {"鳳姐", "老太太"}, {"沙僧", "國王"}, {"三藏", "師父"}, {"唐僧", "師父"}},
		},
		{
			// 三藏 is the monk's given name, 唐三藏 his full name, 唐僧
			// "the monk 唐"; 有經三藏 is a phrase (there are three
			// baskets of scriptures), read as a rare second full name. 唐王 is the king of the
			// realm the text calls 大唐 and 唐朝, no kin of his; 牛王 is
			// 牛魔王, as 牛 names no realm.
			name: "chinese monk's title after a family name, a rare full name in a phrase, a ruler's title after a realm",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("那唐三藏笑道：「走。」三藏道：「好。」大唐的百姓道：「唐朝好。」\n", 24) +
					strings.Repeat("唐王道：「西天有經三藏。」三藏道：「是。」\n", 2) +
					strings.Repeat("唐王道：「御弟去罷。」三藏道：「是。」\n", 4)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("三藏道：「餓了。」八戒道：「我也餓。」唐僧笑道：「莫慌。」三藏道：「走罷。」\n", 24) +
					strings.Repeat("牛魔王笑道：「來。」牛王道：「吃。」行者道：「打。」\n", 5)},
				{Number: 3, Text: "第三回\n\n" + strings.Repeat("那三藏道：「阿彌陀佛。」唐僧道：「善哉。」行者道：「師父莫怕。」三藏道：「好。」\n", 30)},
			},
			together: [][]string{{"唐三藏", "三藏", "唐僧"}, {"牛魔王", "牛王"}},
			apart:    [][2]string{{"唐三藏", "唐王"}, {"三藏", "八戒"}, {"三藏", "行者"}},
		},
		{
			// 唐王, the king of the realm the text calls 大唐, is the
			// ruler the nearby text names (太宗皇帝, 太宗) under any
			// ruler's title, not another ruler called 王 as he is (牛王,
			// far off) nor 唐三藏, who bears 唐 as a family name.
			name: "chinese ruler's title after a realm joins the ruler the nearby text names",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("大唐的百姓道：「唐朝好。」太宗皇帝笑道：「好。」太宗道：「來。」唐王道：「去罷。」太宗道：「是。」\n", 12)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("那唐三藏笑道：「走。」三藏道：「好。」唐三藏道：「是。」\n", 12)},
				{Number: 3, Text: "第三回\n\n" + strings.Repeat("牛魔王笑道：「來。」牛王道：「吃。」行者道：「打。」牛王道：「好。」\n", 12)},
			},
			together: [][]string{{"太宗", "太宗皇帝", "唐王"}, {"牛魔王", "牛王"}},
			apart:    [][2]string{{"唐三藏", "唐王"}, {"牛魔王", "唐王"}},
		},
		{
			// 沙僧 (the monk 沙) is what the book mostly calls 沙悟淨;
			// wherever it names someone nearby, it is he. 薛姨媽 (aunt
			// 薛) is as often beside 薛寶釵 alone, but an aunt is a
			// kinswoman of the family, not the one of it in the scene.
			name: "chinese family name with a title that is no kinship word joins the one full name of the family the nearby text always names",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("沙悟淨道：「來。」悟淨道：「走。」沙僧道：「是。」\n", 3) + strings.Repeat("悟淨道：「走。」沙僧道：「是。」\n", 22) +
					strings.Repeat("薛寶釵道：「來。」寶釵道：「走。」薛姨媽道：「是。」\n", 3) + strings.Repeat("寶釵道：「走。」薛姨媽道：「是。」\n", 22)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("沙僧道：「好。」八戒道：「吃。」薛姨媽道：「好。」黛玉道：「睡。」\n", 60)},
			},
			together: [][]string{{"沙悟淨", "悟淨", "沙僧"}, {"薛寶釵", "寶釵"}},
			apart:    [][2]string{{"薛寶釵", "薛姨媽"}, {"沙僧", "八戒"}},
		},
		{
			// The naming words are stacked, and a comma may stand
			// between the name and them.
			name: "chinese names the text calls one another with stacked naming words and after a comma: ，法名叫做, 渾名喚做, ，字",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("石猴道：「我去。」眾猴道：「好。」\n", 6) + "那石猴，法名叫做悟空。\n" + "那豬剛鬣渾名喚做呆子。\n" + strings.Repeat("豬剛鬣道：「吃。」\n", 6) +
					"國王道：「內中有個大有德行者，法名玄奘。」\n" + strings.Repeat("玄奘道：「貧僧去。」\n", 6) +
					"原來那黛玉，字顰卿。\n" + strings.Repeat("黛玉道：「來。」\n", 6)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("悟空道：「走。」沙僧道：「是。」呆子道：「睡。」行者道：「來。」顰卿道：「去。」\n", 8)},
			},
			together: [][]string{{"悟空", "石猴"}, {"豬剛鬣", "呆子"}, {"黛玉", "顰卿"}},
			// 行者 ends 德行者, a man of virtue: not the name named.
			apart: [][2]string{{"悟空", "沙僧"}, {"悟空", "豬剛鬣"}, {"行者", "玄奘"}},
		},
		{
			// 寶姐姐 (cousin Bao) is said after 你 and 我 ("your cousin
			// Bao"), as a verb follows its subject; with a title of
			// kinship it is a form of address all the same, and joins
			// the woman whose given name holds 寶, not 寶玉 (寶二爺, a
			// man).
			name: "chinese form of address with a title of kinship after a possessive pronoun",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("寶釵笑道：「來。」寶玉道：「寶姐姐好。」寶釵道：「是。」\n", 12) +
					strings.Repeat("寶玉道：「你寶姐姐在家。」寶釵道：「是。」寶玉道：「我寶姐姐去了。」寶釵道：「來。」\n", 2)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("黛玉道：「寶姐姐來了。」寶釵笑道：「好。」寶玉笑道：「走。」\n", 12) +
					strings.Repeat("寶玉道：「來了。」襲人道：「寶二爺坐。」寶玉道：「好。」襲人道：「寶二爺，吃茶。」寶玉道：「走。」襲人道：「寶二爺也去。」\n", 10)},
			},
			together: [][]string{{"寶釵", "寶姐姐"}, {"寶玉", "寶二爺"}},
			apart:    [][2]string{{"寶玉", "寶姐姐"}, {"寶玉", "寶釵"}},
		},
		{
			// The speaker names themself: 猴王 twice, 大聖 once after 我,
			// 三藏 twice. Not so one who names the one spoken to (你),
			// names what they have (我有兩個徒弟), says what they are not
			// called (不叫做), or names someone spoken of (唐三藏 … 孫悟空).
			name: "chinese speaker who gives their own name in speech",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" +
					strings.Repeat("祖師道：「你就叫做悟空。」猴王笑道：「好！自今就叫做孫悟空也。」八戒道：「我不叫做三藏。」\n", 2) +
					"大聖道：「我已有名了，叫做孫悟空。」國王道：「我有兩個徒弟，叫做八戒。」驛丞道：「唐三藏有個徒弟，名喚悟空。」\n" +
					strings.Repeat("三藏道：「俗家姓陳，法名玄奘。」\n", 2)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("悟空道：「是。」沙僧道：「來。」孫悟空道：「來。」大聖道：「走。」猴王道：「吃。」三藏道：「好。」玄奘道：「善。」八戒道：「餓。」祖師道：「去。」國王道：「坐。」驛丞道：「請。」\n", 6)},
			},
			together: [][]string{{"孫悟空", "猴王", "大聖", "悟空"}, {"三藏", "玄奘"}},
			apart:    [][2]string{{"祖師", "悟空"}, {"八戒", "三藏"}, {"國王", "八戒"}, {"驛丞", "悟空"}, {"驛丞", "三藏"}},
		},
		{
			// 八戒 says what he is: 天蓬元帥, ending its clause. 行者
			// says he is 八戒's brother: the name does not end the
			// clause.
			name: "chinese speaker who says what they are: 我乃是",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + "八戒道：「我乃是天蓬元帥，只因醉了。」行者道：「我是八戒的哥哥。」\n" +
					strings.Repeat("眾神道：「天蓬元帥來了。」行者道：「好。」八戒道：「走。」沙僧道：「是。」\n", 6)},
			},
			together: [][]string{{"八戒", "天蓬元帥"}},
			apart:    [][2]string{{"行者", "八戒"}, {"沙僧", "八戒"}},
		},
		{
			// 陳玄奘 mostly follows 弟子 (the speaker's humble word for
			// himself) or a naming word: a full name may begin there.
			// 三藏 names himself 陳玄奘 once and 玄奘 once: the full name
			// counts for the given name, twice; 玄奘 alone could be
			// 陳玄奘 or 玄奘法師, an entry of its own.
			name: "chinese full name after a humble word or a naming word, and a speaker naming himself by full and given name",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("三藏道：「弟子陳玄奘，奉旨取經。」行者道：「好。」\n", 3) +
					"三藏道：「俗家姓陳，法名玄奘。」八戒道：「是。」\n三藏道：「我俗家也姓陳，我的法名叫做陳玄奘。」沙僧道：「是。」\n" +
					strings.Repeat("玄奘道：「善哉。」行者道：「走。」玄奘笑道：「好。」三藏道：「來。」\n", 6)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("眾僧道：「請玄奘法師登壇。」太宗道：「好。」\n", 6)},
			},
			together: [][]string{{"三藏", "陳玄奘", "玄奘"}},
			apart:    [][2]string{{"三藏", "行者"}, {"三藏", "八戒"}},
		},
		{
			// The courtesy name is given alone after the full name (李紈，
			// 字宮裁) and used with the family name elsewhere (李宮裁).
			name: "chinese courtesy name given after a full name, used with the family name",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + "這李氏因取名為李紈，字宮裁。\n" + strings.Repeat("李紈笑道：「來。」寶玉道：「好。」李宮裁道：「走。」李紋道：「是。」\n", 8)},
			},
			together: [][]string{{"李紈", "李宮裁"}},
			apart:    [][2]string{{"李紈", "李紋"}, {"李紈", "寶玉"}},
			// Of two names of one family, the entry is named by the
			// one the book uses more.
			named: map[string]string{"李宮裁": "李紈"},
		},
		{
			name: "chinese names the text calls one another: 叫做, 法名",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("三藏道：「我將悟空叫做行者，悟能叫做八戒。」行者笑道：「好。」八戒道：「是。」悟空道：「去。」悟能道：「來。」沙僧道：「走。」\n", 5)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("行者笑道：「師父。」八戒道：「餓了。」三藏道：「莫慌。」悟空道：「我去。」悟能道：「我也去。」沙僧道：「我看行李。」\n", 5)},
			},
			together: [][]string{{"行者", "悟空"}, {"八戒", "悟能"}},
			apart:    [][2]string{{"行者", "八戒"}, {"三藏", "行者"}, {"沙僧", "八戒"}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sugg, _ := suggestMerged(t, c.chapters, c.together)
			for _, ap := range c.apart {
				if e := entryOf(sugg, ap[0]); e != nil && hasName(e, ap[1]) {
					t.Errorf("%q merged with %q: %v", ap[1], ap[0], e.Names())
				}
			}
			for n, want := range c.named {
				if e := entryOf(sugg, n); e == nil || testFolder.Fold(e.Name) != testFolder.Fold(want) {
					t.Errorf("entry of %q: %+v, want it named %q", n, e, want)
				}
			}
		})
	}
}

// TestGivenNameSex: a full name without a title takes the sex its given
// name has in the book, from titles before the given name above all.
func TestGivenNameSex(t *testing.T) {
	mk := func(tls []string, sex byte, he, she, count int, words ...string) *form {
		f := latinForm(tls, words, len(words), sex, 0, false, false)
		f.he, f.she, f.count = he, she, count
		return f
	}
	nicholas := mk(nil, 0, 0, 0, 20, "Nicholas", "Rostóv")
	natasha := mk(nil, 0, 0, 0, 5, "Natásha", "Rostóva")
	sonya := mk(nil, 0, 0, 0, 5, "Sónya", "Rostóva")
	forms := []*form{
		nicholas, natasha, sonya,
		mk(nil, 0, 64, 21, 565, "Nicholas"),
		mk([]string{"Prince"}, 'm', 0, 0, 11, "Nicholas"),
		mk([]string{"Countess"}, 'f', 0, 0, 4, "Natásha"),
		mk(nil, 0, 78, 103, 1207, "Natásha"),
		mk(nil, 0, 10, 9, 300, "Sónya"),
	}
	givenNameSex(forms)
	for _, c := range []struct {
		f    *form
		want byte
	}{{nicholas, 'm'}, {natasha, 0}, {sonya, 0}} {
		if c.f.sex != c.want {
			t.Errorf("%s: sex %q, want %q", c.f.text, c.f.sex, c.want)
		}
	}
}

// TestSuggestMinorityScript: names in the book's lesser script are
// suggested too: an English name in a Chinese book, a Chinese name in an
// English book.
func TestSuggestMinorityScript(t *testing.T) {
	cases := []struct {
		name     string
		chapters []Chapter
		want     []string
	}{
		{
			name: "english name in a chinese book",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("那天Tom來了，寶玉笑道：「你好。」黛玉道：「Tom坐罷。」大家都看著Tom笑。\n", 6)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("次日寶玉又見了Tom，黛玉笑道：「去罷。」\n", 4)},
			},
			want: []string{"Tom", "寶玉", "黛玉"},
		},
		{
			name: "chinese name in an english book",
			chapters: chaptersOf(4,
				"In the morning Elizabeth met 李明 at the station, and 李明 bowed.",
				"Later Elizabeth asked 李明 about Shanghai; then Elizabeth laughed.",
			),
			want: []string{"李明", "Elizabeth"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sugg, err := Suggest(context.Background(), c.chapters, Options{Folder: testFolder})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range sugg {
				got = append(got, strings.Join(s.Names(), "|"))
			}
			for _, w := range c.want {
				if e := entryOf(sugg, w); e == nil || e.Kind != KindCharacter {
					t.Errorf("no character entry %q in %v", w, got)
				}
			}
		})
	}
}

// TestSuggestNamedForms: a name the text gives ("叫做豬悟能。") is a form
// of its own where it holds a name found otherwise, and joins that
// person; a thing so named (月牙鏟) is suggested as nothing.
func TestSuggestNamedForms(t *testing.T) {
	cases := []struct {
		name     string
		chapters []Chapter
		entry    string   // an entry that must hold every name of with
		with     []string // names in the entry of entry
		absent   []string // names in no entry
	}{
		{
			name: "a fuller name given by the text joins the person; a weapon so named is no one",
			chapters: []Chapter{
				{Number: 1, Text: "第一回\n\n" + strings.Repeat("三藏道：「我將悟能叫做八戒。」八戒笑道：「好。」悟能道：「是。」\n", 3) +
					strings.Repeat("菩薩與他起個法名，叫做豬悟能。那豬悟能拜了。\n", 3) +
					strings.Repeat("沙僧的兵器叫做月牙鏟。那月牙鏟好重。沙僧道：「走。」\n", 4)},
				{Number: 2, Text: "第二回\n\n" + strings.Repeat("八戒道：「餓了。」行者道：「去。」沙僧道：「走。」悟能道：「來。」\n", 6)},
			},
			entry:  "八戒",
			with:   []string{"悟能", "豬悟能"},
			absent: []string{"月牙鏟"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sugg, err := Suggest(context.Background(), c.chapters, Options{Folder: testFolder})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range sugg {
				got = append(got, strings.Join(s.Names(), "|"))
			}
			e := entryOf(sugg, c.entry)
			if e == nil {
				t.Fatalf("no entry %q in %v", c.entry, got)
			}
			for _, n := range c.with {
				if !hasName(e, n) {
					t.Errorf("%q not in the entry of %q: %v", n, c.entry, got)
				}
			}
			for _, n := range c.absent {
				if entryOf(sugg, n) != nil {
					t.Errorf("%q suggested: %v", n, got)
				}
			}
		})
	}
}

// TestCJKSelfNamingLinks: the links a speaker's own naming makes,
// checked on the pairs of forms: a full name named counts for its given
// name too (陳玄奘 for 玄奘), so that two namings link the speaker to the
// given name even where one of them gives the full name.
func TestCJKSelfNamingLinks(t *testing.T) {
	cases := []struct {
		name     string
		text     string
		forms    []string
		want     [][2]string
		dontWant [][2]string
	}{
		{
			name:  "full name and given name named once each",
			text:  "三藏道：「俗家姓陳，法名玄奘。」八戒道：「是。」三藏道：「我的法名叫做陳玄奘。」",
			forms: []string{"三藏", "玄奘", "陳玄奘", "八戒"},
			want:  [][2]string{{"三藏", "玄奘"}, {"三藏", "陳玄奘"}},
		},
		{
			name:     "given name named once, no first person: too little",
			text:     "三藏道：「俗家姓陳，法名玄奘。」八戒道：「是。」",
			forms:    []string{"三藏", "玄奘", "八戒"},
			dontWant: [][2]string{{"三藏", "玄奘"}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			orig := []rune(c.text)
			ch := cjkChapter{orig: orig, folded: make([]rune, len(orig)), para: make([]int32, len(orig))}
			for i, r := range orig {
				ch.folded[i] = testFolder.FoldRune(r)
			}
			accepted := map[string]*cjkCand{}
			for _, f := range c.forms {
				accepted[testFolder.Fold(f)] = &cjkCand{}
			}
			ex := cjkMentions([]cjkChapter{ch}, accepted, nil)
			got := map[[2]string]bool{}
			for _, l := range cjkSelfNamingLinks([]cjkChapter{ch}, ex) {
				got[[2]string{ex.forms[l[0]].text, ex.forms[l[1]].text}] = true
			}
			for _, w := range c.want {
				if !got[w] {
					t.Errorf("no link %v in %v", w, got)
				}
			}
			for _, w := range c.dontWant {
				if got[w] {
					t.Errorf("link %v", w)
				}
			}
		})
	}
}

// TestDominantGivenRanks: a bare given name used far more than its
// titled forms is their person's main name; two ranks tell two men
// apart (Prince Nicholas, Count Nicholas), not a woman, who takes her
// husband's rank (Princess Hélène, Countess Hélène Bezúkhova).
func TestDominantGivenRanks(t *testing.T) {
	entryOf := func(title string, sex byte, count, fulls int) *entry {
		e := &entry{count: count, fulls: fulls, feats: map[string]bool{"title:" + title: true}}
		if sex == 'm' {
			e.m = count + 2
		} else {
			e.f = count + 2
		}
		return e
	}
	cases := []struct {
		name    string
		form    *form
		entries []*entry
		votes   map[int32]int
		want    bool
	}{
		{"a woman under two ranks", &form{text: "Hélène", count: 154},
			[]*entry{entryOf("Princess", 'f', 5, 0), entryOf("Countess", 'f', 6, 1)}, map[int32]int{0: 7, 1: 3}, true},
		{"two men under two ranks", &form{text: "Nicholas", count: 154},
			[]*entry{entryOf("Prince", 'm', 5, 0), entryOf("Count", 'm', 6, 1)}, map[int32]int{0: 7, 1: 3}, false},
		{"a man under one rank", &form{text: "Pierre", count: 154},
			[]*entry{entryOf("Count", 'm', 5, 0), entryOf("Count", 'm', 6, 1)}, map[int32]int{0: 7, 1: 3}, true},
		{"a man named like a woman of another rank", &form{text: "Sasha", count: 154},
			[]*entry{entryOf("Princess", 'f', 5, 0), entryOf("Count", 'm', 6, 1)}, map[int32]int{0: 7, 1: 3}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &resolution{entries: c.entries}
			strength := map[int32]int{0: linkGiven, 1: linkGiven}
			if got := dominantGiven(&extraction{}, r, c.form, []int32{0, 1}, strength, c.votes); got != c.want {
				t.Errorf("dominantGiven = %v, want %v", got, c.want)
			}
		})
	}
}
