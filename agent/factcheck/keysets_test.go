package factcheck

import "testing"

// TestKeySets: a county or a regiment the files list for some entity,
// put beside another in apposition or a predicate, against its own.
func TestKeySets(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/locations/hunsford.md":  "---\nname: Hunsford\nkind: location\nfacts: { county: Kent }\n---\n",
		"entities/locations/longbourn.md": "---\nname: Longbourn\nkind: location\nfacts: { county: Hertfordshire }\n---\n",
		"entities/locations/pemberley.md": "---\nname: Pemberley\nkind: location\nfacts: { county: Derbyshire }\n---\n",
		"entities/characters/darcy.md":    "---\nname: Fitzwilliam Darcy\naliases: [Mr. Darcy]\nkind: character\nfacts: { county: Derbyshire }\n---\n",
		"entities/characters/dolokhov.md": "---\nname: Dólokhov\nkind: character\nfacts: { regiment: Semënov regiment }\n---\n",
		"entities/characters/denisov.md":  "---\nname: Vasíli Denísov\naliases: [Denísov]\nkind: character\nfacts: { regiment: Pávlograd hussars }\n---\n",
		"entities/characters/pierre.md":   "---\nname: Pierre Bezúkhov\naliases: [Pierre]\nkind: character\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"a county after a nearer place", "“Hunsford, near Westerham, Hertfordshire, 15th October.”", "Hertfordshire"},
		{"the declared county after a nearer place", "“Hunsford, near Westerham, Kent, 15th October.”", ""},
		{"a county after in", "They drove to Longbourn in Derbyshire that day.", "Derbyshire"},
		{"the declared county after in", "They drove to Longbourn in Hertfordshire that day.", ""},
		{"a list of places", "He had seen Pemberley, Kent and London that year.", ""},
		{"a county of a person", "It was Mr. Darcy of Kent who came.", "Kent"},
		{"a person in a county is a visit", "It was Mr. Darcy in Kent who came.", ""},
		{"a regiment in apposition", "This was Dólokhov, an officer of the Pávlograd Hussars, a notorious gambler.", "Pávlograd"},
		{"a regiment after a copula", "Dólokhov—who was now again an officer in the Pávlograd Hussars—sat down.", "Pávlograd"},
		{"the declared regiment", "This was Dólokhov, an officer of the Semënov regiment, a notorious gambler.", ""},
		{"another officer", "Dólokhov met an officer of the Pávlograd Hussars.", ""},
		{"a regiment no file lists", "This was Dólokhov, an officer of the Preobrazhénsk Guards.", ""},
		{"someone with no regiment", "This was Pierre, an officer of the Pávlograd Hussars.", ""},
	} {
		wantFacts(t, k, tc.name, tc.text, tc.want)
	}
}

// TestKeySetsCoverage: a county or a regiment the files list is among the
// keys checked deterministically; a county written in lower case is not.
func TestKeySetsCoverage(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/locations/hunsford.md":  "---\nname: Hunsford\nkind: location\nfacts: { county: Kent }\n---\n",
		"entities/characters/dolokhov.md": "---\nname: Dólokhov\nkind: character\nfacts: { regiment: Semënov regiment, position: youngest }\n---\n",
		"entities/locations/cottage.md":   "---\nname: Cottage\nkind: location\nfacts: { district: somewhere in the north }\n---\n",
	})
	c := k.FactCoverage()
	for _, key := range []string{"county", "regiment", "position"} {
		if c.Checked[key] == 0 {
			t.Errorf("%s is not among the checked keys: %v", key, c.Checked)
		}
	}
	if c.Left["district"] == 0 {
		t.Errorf("district is not among the keys left to the model: %v", c.Left)
	}
}
