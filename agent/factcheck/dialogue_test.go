package factcheck

import (
	"strings"
	"testing"
)

// TestAnswerHolder: an amount said on its own in a bare reply is the
// income of the one person the question's pronoun stands for, named in
// the nearest earlier quotation of the exchange that names anyone; no
// one's where narration, a pronoun in the reply, or a second person of
// that gender leaves two readings.
func TestAnswerHolder(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/bingley.md": "---\nname: Charles Bingley\naliases: [Bingley, Mr. Bingley]\nkind: character\n" +
			"facts: { income: four or five thousand a year }\n---\nHe takes Netherfield.\n",
		"entities/characters/darcy.md": "---\nname: Fitzwilliam Darcy\naliases: [Darcy, Mr. Darcy]\nkind: character\n" +
			"facts: { income: ten thousand a year }\n---\nHe owns Pemberley.\n",
		"entities/characters/long.md": "---\nname: Mrs. Long\nkind: character\n---\nShe is a neighbour.\n",
	})
	const ask = "“What is his name?”\n\n“Bingley.”\n\n“Is he married or single?”\n\n"
	for _, tc := range []struct {
		name, text, want string
	}{
		{"a bare reply to a question about him", ask + "“Oh, single, my dear, to be sure! A single man of large fortune; eight or nine thousand a year.”",
			"eight or nine thousand a year"},
		{"his declared income", ask + "“Oh, single, my dear, to be sure! A single man of large fortune; four or five thousand a year.”", ""},
		{"a woman named with him", "“What is his name?”\n\n“Bingley, says Mrs. Long.”\n\n“Is he married or single?”\n\n" +
			"“Oh, single, my dear! A single man of large fortune; eight or nine thousand a year.”", "eight or nine thousand a year"},
		{"two men named before the question", "“What are their names?”\n\n“Bingley and Darcy.”\n\n“Is he married or single?”\n\n" +
			"“Oh, single, my dear! A single man of large fortune; eight or nine thousand a year.”", ""},
		{"a question about her", "“What is his name?”\n\n“Bingley.”\n\n“Is she married or single?”\n\n" +
			"“Oh, single, my dear! A single woman of large fortune; eight or nine thousand a year.”", ""},
		{"narration in the exchange", "“What is his name?”\n\n“Bingley,” said she.\n\n“Is he married or single?”\n\n" +
			"“Oh, single, my dear! A single man of large fortune; eight or nine thousand a year.”", ""},
		{"a reply with a subject of its own", ask + "“Oh, single, my dear! They spent eight or nine thousand a year.”", ""},
		{"a reply to no question", "“What is his name?”\n\n“Bingley.”\n\n“He is single.”\n\n" +
			"“Oh, single, my dear! A single man of large fortune; eight or nine thousand a year.”", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(found(k, tc.text, 1, TypeFact), " ")
			if got != tc.want {
				t.Errorf("%q\n got %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}

// TestTaggedSpeechPronoun: an amount said on its own in a speech whose
// tag names only its speaker is the income of the one person of the
// gender of the speech's "his" (or "her") that its paragraph and the two
// before it name, the speaker aside; "per annum" is "a year".
func TestTaggedSpeechPronoun(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/darcy.md": "---\nname: Fitzwilliam Darcy\naliases: [Darcy, Mr. Darcy]\nkind: character\n" +
			"facts: { income: ten thousand a year }\n---\nHe owns Pemberley.\n",
		"entities/characters/bingley.md": "---\nname: Charles Bingley\naliases: [Bingley, Mr. Bingley]\nkind: character\n" +
			"facts: { income: four or five thousand a year }\n---\nHe takes Netherfield.\n",
		"entities/characters/wickham.md": "---\nname: George Wickham\naliases: [Wickham, Mr. Wickham]\nkind: character\n---\nHe is an officer.\n",
		"entities/characters/lizzy.md":   "---\nname: Elizabeth Bennet\naliases: [Elizabeth]\nkind: character\n---\nShe is the second daughter.\n",
	})
	const before = "Mr. Wickham asked how long Mr. Darcy had been staying there.\n\n“About a month,” said Elizabeth; “he is a man of very large property, I understand.”\n\n"
	for _, tc := range []struct {
		name, text, want string
	}{
		{"his, the one other man of the talk", before + "“Yes,” replied Wickham; “his estate there is a noble one. A clear twelve thousand per annum.”",
			"twelve thousand per annum"},
		{"his declared income", before + "“Yes,” replied Wickham; “his estate there is a noble one. A clear ten thousand per annum.”", ""},
		{"per annum said of a name", "“Mr. Darcy is here. A clear twelve thousand per annum.”", "twelve thousand per annum"},
		{"two other men in the talk", "Mr. Wickham asked how long Mr. Darcy and Mr. Bingley had been staying there.\n\n“About a month,” said Elizabeth.\n\n" +
			"“Yes,” replied Wickham; “his estate there is a noble one. A clear twelve thousand per annum.”", ""},
		{"her: the one woman, who has no income", before + "“Yes,” replied Wickham; “her estate there is a noble one. A clear twelve thousand per annum.”", ""},
		{"a scene break between", "Mr. Darcy came.\n\n* * *\n\n“Yes,” replied Wickham; “his estate there is a noble one. A clear twelve thousand per annum.”", ""},
		{"someone else in the tag", before + "“Yes,” replied Wickham to Mr. Bingley; “his estate there is a noble one. A clear twelve thousand per annum.”", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := strings.Join(found(k, tc.text, 16, TypeFact), " ")
			if got != tc.want {
				t.Errorf("%q\n got %q, want %q", tc.text, got, tc.want)
			}
		})
	}
}
