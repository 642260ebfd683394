package factcheck

import "testing"

// TestExclaimedAmounts: a sentence of direct speech that consists of an
// amount is said of the one entity with a fact of that kind the speech
// has named before it. Each case names the construction and the
// finding's text ("" for none).
func TestExclaimedAmounts(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/hale.md": "---\nname: Mr. Hale\nkind: character\ngender: m\nfacts: { income: ten thousand a year }\n---\n",
		"entities/characters/grey.md": "---\nname: Mr. Grey\nkind: character\ngender: m\nfacts: { income: two thousand a year }\n---\n",
		"entities/characters/kate.md": "---\nname: Kate\nkind: character\ngender: f\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"an amount on its own after the name", "“Mr. Hale! Who would have thought it? Oh, my dear Kate! A house in town! Eight thousand a year! What will become of me?”", "Eight thousand a year"},
		{"the declared amount", "“Mr. Hale! Who would have thought it? A house in town! Ten thousand a year! What will become of me?”", ""},
		{"an amount in a clause", "“Mr. Hale! Who would have thought it? Kate spent eight thousand a year!”", ""},
		{"two with an income named", "“Mr. Hale and Mr. Grey! A house in town! Eight thousand a year!”", ""},
		{"an amount in narration", "Mr. Hale came in. Eight thousand a year!", ""},
		{"the speech tag names someone", "“Kate!” cried Mr. Hale, “Eight thousand a year!”", ""},
	} {
		wantFacts(t, k, tc.name, tc.text, tc.want)
	}
}
