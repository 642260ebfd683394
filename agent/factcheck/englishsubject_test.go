package factcheck

import (
	"strings"
	"testing"
)

// TestEnglishNameOpeningAClause: a name that opens a sentence or a clause
// after "and"/"but", with a verb in the past after it, is its subject
// acting in the scene ("Lydia still looked all amazement"); being
// elsewhere ("was not there", "was abroad"), a habit ("was occasionally
// a visitor"), a modal, a letter, a stay told whole and speech are not.
func TestEnglishNameOpeningAClause(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/lydia.md":  "---\nname: Lydia Bennet\naliases: [Lydia]\nkind: character\nfacts: {status: away, location: Brighton}\n---\n",
		"entities/characters/andrew.md": "---\nname: Prince Andrew\nkind: character\nfacts: {status: away, location: abroad}\n---\n",
	})
	for _, tc := range []struct{ text, want string }{
		{"Elizabeth said nothing. Lydia still looked all amazement.", "Lydia"},
		{"The servants stood round the table, but Prince Andrew pulled out a chair.", "Prince Andrew"},
		{"The servants stood round the table; but Prince Andrew was not there.", ""},
		{"Anatole was in the provinces; Prince Andrew was abroad.", ""},
		{"Lydia was occasionally a visitor there, when her husband was gone.", ""},
		{"Lydia would come in later, they supposed.", ""},
		{"Lydia wrote again to her mother.", ""},
		{"Lydia stayed only a week at Meryton.", ""},
		{"“Lydia laughed at him,” said Kitty.", ""},
	} {
		if got := strings.Join(found(k, tc.text, 30, TypeState), " "); got != tc.want {
			t.Errorf("%s: state findings %q, want %q", tc.text, got, tc.want)
		}
	}
}
