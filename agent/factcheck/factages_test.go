package factcheck

import (
	"strings"
	"testing"
)

// TestAgeAfterCopulaAdverb: an adverb between the copula and the noun an
// age is said with ("was now a lad of seventeen") leaves the age said of
// the subject; a negation does not.
func TestAgeAfterCopulaAdverb(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/petya.md": "---\nname: Pétya Rostóv\naliases: [Pétya]\nkind: character\ngender: m\n" +
			"progressions:\n  - { chapter: 10, facts: { age: fifteen } }\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"now between", "Pétya was now a handsome rosy lad of seventeen with full red lips.", "seventeen"},
		{"two adverbs between", "Pétya was evidently still a boy of seventeen then.", "seventeen"},
		{"no adverb", "Pétya was a handsome rosy lad of seventeen with full red lips.", "seventeen"},
		{"the declared age", "Pétya was now a handsome rosy lad of fifteen with full red lips.", ""},
		{"a negation", "Pétya was not a lad of seventeen, whatever he said.", ""},
		{"someone else, the object", "Pétya now saw a lad of seventeen at the door.", ""},
	} {
		got := strings.Join(found(k, tc.text, 10, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestAgeTimePassing: an age declared as of a chapter is the one of that
// chapter; a year more for every chaptersPerYear chapters after it is time
// passing, in either language, while a year more a few chapters on is
// another age.
func TestAgeTimePassing(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/petya.md": "---\nname: Pétya Rostóv\naliases: [Pétya]\nkind: character\ngender: m\n" +
			"progressions:\n  - { chapter: 133, facts: { age: 13 } }\n---\n",
		"entities/characters/jiamu.md": "---\nname: 賈母\nkind: character\ngender: f\n" +
			"progressions:\n  - { chapter: 71, facts: { 年紀: 八十歲 } }\n---\n",
	})
	for _, tc := range []struct {
		name, text string
		ch         int
		want       string
	}{
		{"two years, fifty chapters on", "Pétya was a handsome rosy lad of fifteen.", 187, ""},
		{"a year, nine chapters on", "Pétya was a handsome rosy lad of fourteen.", 142, "fourteen"},
		{"five years, fifty chapters on", "Pétya was a handsome rosy lad of eighteen.", 187, "eighteen"},
		{"a year less, far on", "Pétya was a handsome rosy lad of twelve.", 187, "twelve"},
		{"a year, twenty-five chapters on", "賈母道：「我今年八十一歲了。」", 96, ""},
		{"a year, in the same chapter", "賈母道：「我今年八十一歲了。」", 71, "八十一歲"},
		{"three years, twenty-five chapters on", "賈母道：「我今年八十三歲了。」", 96, "八十三歲"},
	} {
		got := strings.Join(found(k, tc.text, tc.ch, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s (ch. %d): fact findings %q, want %q", tc.name, tc.text, tc.ch, got, tc.want)
		}
	}
}

// TestAgeDifferenceIsNoAge: the years between two people (比寶玉小兩歲,
// 大他三歲) are no one's age; an age said plainly still is.
func TestAgeDifferenceIsNoAge(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/daiyu.md": "---\nname: 林黛玉\naliases: [林丫頭, 黛玉]\nkind: character\ngender: f\n" +
			"progressions:\n  - { chapter: 80, facts: { 年紀: 十五歲 } }\n---\n",
		"entities/characters/baoyu.md": "---\nname: 賈寶玉\naliases: [寶玉]\nkind: character\ngender: m\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"younger by", "況且林丫頭年紀到底比寶玉小兩歲，倒是寶玉定親要緊。", ""},
		{"older by", "黛玉原比那丫頭大三歲，自然懂事些。", ""},
		{"an age", "黛玉今年十二歲，生得怯弱。", "十二歲"},
	} {
		got := strings.Join(found(k, tc.text, 90, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestAgeOfTheNounItModifies: "N year-old" written with one hyphen is an
// adjective as much as "N-year-old": the age of the noun after it (her six
// year-old nephew), not of the name before; a widower said of a woman is
// some man's word.
func TestAgeOfTheNounItModifies(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/mary.md":     "---\nname: Princess Mary\nkind: character\ngender: f\nfacts: { age: twenty-eight }\n---\nShe lives at Bald Hills.\n",
		"entities/characters/countess.md": "---\nname: Countess Rostóva\nkind: character\ngender: f\nfacts: { status: married }\n---\nShe is the count's wife.\n",
		"entities/characters/bilibin.md":  "---\nname: Bilíbin\nkind: character\ngender: m\nfacts: { status: married }\n---\nHe is a diplomat.\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"someone else's age", "Princess Mary was troubled by the lessons she gave her six year-old nephew.", ""},
		{"a noun after it, as with two hyphens", "Princess Mary, a six year-old girl in her nurse's arms, laughed.", ""},
		{"her own, after the copula", "Princess Mary was then forty years old.", "forty"},
		{"a man's word of a woman", "“Mamma, one need not be ashamed of his being a widower?” Countess Rostóva, a widower, said nothing.", ""},
		{"a man's word of a man", "Bilíbin, a widower, said nothing.", "widower"},
	} {
		got := strings.Join(found(k, tc.text, 90, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
