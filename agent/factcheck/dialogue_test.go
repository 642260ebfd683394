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
