package factcheck

import (
	"strings"
	"testing"
)

// TestEnglishFactConstructions: facts stated in constructions beyond a
// copula and a number with its noun. Each case names the construction
// and the finding's text ("" for none).
func TestEnglishFactConstructions(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/denisov.md": "---\nname: Vasíli Denísov\naliases: [Denísov, Váska]\nkind: character\n" +
			"facts: { rank: lieutenant colonel, age: 40 }\n---\n",
		"entities/characters/karataev.md": "---\nname: Platón Karatáev\naliases: [Karatáev]\nkind: character\nfacts: { age: about fifty }\n---\n",
		"entities/characters/pierre.md": "---\nname: Pierre Bezúkhov\naliases: [Pierre]\nkind: character\ngender: m\n" +
			"facts: { income: five hundred thousand rubles a year }\n---\n",
		"entities/locations/bald-hills.md": "---\nname: Bald Hills\nkind: location\nfacts: { distance_from_smolensk: forty miles east }\n---\n",
		"entities/locations/smolensk.md":   "---\nname: Smolénsk\nkind: location\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"rank before a name declared without it", "“I’m Major Denísov,” he said.", "Major"},
		{"the declared rank before the name", "“I’m Colonel Denísov,” he said.", ""},
		{"a post, not a rank", "The squadron commander Denísov rode up.", ""},
		{"age after must have been", "Platón Karatáev must have been thirty, judging by his stories.", "thirty"},
		{"age within the declared range", "Karatáev must have been fifty, judging by his stories.", ""},
		{"income the noun amounts to", "Since he had come into an income which was said to amount to fifty thousand rubles a year, Pierre felt poorer.", "fifty thousand rubles a year"},
		{"a cost is no income", "His Moscow estate, which had cost him eighty thousand rubles a year, brought nothing to Pierre.", ""},
		{"distance to an accented place", "Bald Hills lay ninety miles east from Smolénsk.", "ninety miles east"},
	} {
		got := strings.Join(found(k, tc.text, 5, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
