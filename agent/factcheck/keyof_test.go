package factcheck

import (
	"strings"
	"testing"
)

// TestKeyOf: "the KEY of W" with W another proper name contradicts a key
// whose value is a declared place, for the one holder the sentence names
// or a pronoun of it stands for; the declared place, a value that is a
// person (the other side of the tie), a W that is a person, and a
// sentence about someone without the key say nothing.
func TestKeyOf(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/collins.md": "---\nname: Mr. Collins\nkind: character\ngender: m\nfacts: { living: Hunsford, patroness: Lady Catherine }\n---\n",
		"entities/characters/lady.md":    "---\nname: Lady Catherine\nkind: character\ngender: f\n---\n",
		"entities/characters/wickham.md": "---\nname: Mr. Wickham\nkind: character\ngender: m\n---\n",
		"entities/locations/hunsford.md": "---\nname: Hunsford\nkind: location\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"another place through a pronoun", "Mr. Collins was not a sensible man. A chance had recommended him to Lady Catherine when the living of Kympton was vacant.", "Kympton"},
		{"another place of the named holder", "Mr. Collins had taken the living of Kympton at last.", "Kympton"},
		{"the declared place", "Mr. Collins was not a sensible man. A chance had recommended him to Lady Catherine when the living of Hunsford was vacant.", ""},
		{"a value that is a person", "Lady Catherine, the patroness of Mr. Wickham, came.", ""},
		{"someone without the key", "Mr. Wickham had hoped for the living of Kympton.", ""},
	} {
		got := strings.Join(found(k, tc.text, 15, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
