package factcheck

import "testing"

// TestHolderKin: a relative named by a possessive kinship noun is
// compared with what the possessor's file gives under that noun.
func TestHolderKin(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/pierre.md": "---\nname: Pierre Bezúkhov\naliases: [Pierre]\nkind: character\ngender: m\n" +
			"facts: { father: Count Bezúkhov }\n---\n",
		"entities/characters/count.md":     "---\nname: Count Bezúkhov\nkind: character\ngender: m\n---\n",
		"entities/characters/vasili.md":    "---\nname: Prince Vasíli Kurágin\naliases: [Prince Vasíli]\nkind: character\ngender: m\nfacts: { son: Anatole, daughter: Hélène }\n---\n",
		"entities/characters/anatole.md":   "---\nname: Anatole Kurágin\naliases: [Anatole]\nkind: character\ngender: m\n---\n",
		"entities/characters/helene.md":    "---\nname: Hélène Kurágina\naliases: [Hélène]\nkind: character\ngender: f\n---\n",
		"entities/characters/ippolit.md":   "---\nname: Hippolyte Kurágin\naliases: [Hippolyte]\nkind: character\ngender: m\n---\n",
		"entities/characters/dolokhov.md":  "---\nname: Dólokhov\nkind: character\ngender: m\n---\n",
		"entities/characters/andrew.md":    "---\nname: Prince Andrew Bolkónski\naliases: [Prince Andrew]\nkind: character\ngender: m\nfacts: { spouse: Lise, father: Prince Nicholas Bolkónski }\n---\n",
		"entities/characters/nicholas.md":  "---\nname: Prince Nicholas Bolkónski\naliases: [Prince Nicholas]\nkind: character\n---\n",
		"entities/characters/lise.md":      "---\nname: Lise Bolkónskaya\naliases: [Lise]\nkind: character\ngender: f\n---\n",
		"entities/characters/darcy.md":     "---\nname: Fitzwilliam Darcy\naliases: [Mr. Darcy, Darcy]\nkind: character\ngender: m\nfacts: { sister: Georgiana Darcy, aunt: Lady Catherine de Bourgh }\n---\n",
		"entities/characters/georgiana.md": "---\nname: Georgiana Darcy\naliases: [Miss Darcy, Georgiana]\nkind: character\ngender: f\n---\n",
		"entities/characters/caroline.md":  "---\nname: Caroline Bingley\naliases: [Miss Bingley]\nkind: character\ngender: f\n---\n",
		"entities/characters/catherine.md": "---\nname: Lady Catherine de Bourgh\naliases: [Lady Catherine]\nkind: character\ngender: f\n---\n",
		"entities/characters/gardiner.md":  "---\nname: Mrs. Gardiner\nkind: character\ngender: f\nrelations:\n  - { to: entities/characters/darcy, kind: acquaintance }\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"a father in apposition after the possessive", "The snuffboxes had belonged to Pierre’s father, Prince Vasíli, and she showed them.", "Pierre’s father, Prince Vasíli"},
		{"the declared father", "The snuffboxes had belonged to Pierre’s father, Count Bezúkhov, and she showed them.", ""},
		{"a father after the name", "Prince Vasíli, Pierre’s father, came in.", "Prince Vasíli, Pierre’s father"},
		{"a son is not judged here", "He dined with Prince Vasíli’s son Dólokhov that night.", ""},
		{"a possessive going on", "Pierre’s father’s valet, Prince Vasíli, came in.", ""},
		{"a wife the possessor's file names otherwise", "Prince Andrew’s wife, Hélène, came in.", "Prince Andrew’s wife, Hélène"},
		{"a husband the file names otherwise", "Lise, the wife of Dólokhov, came in.", ""},
		{"a father after a copula", "Prince Vasíli was the father of Pierre.", "Prince Vasíli was the father of Pierre"},
		{"the declared father after a copula", "Count Bezúkhov was the father of Pierre.", ""},
		{"a father after a pronoun", "Prince Andrew saw the familiar, majestic figure of his father, Prince Vasíli, with his gray mane.", "his father, Prince Vasíli"},
		{"the declared father after a pronoun", "Prince Andrew saw the familiar, majestic figure of his father, Prince Nicholas, with his gray mane.", ""},
		{"a father after a pronoun whose holder is unclear", "Prince Andrew and Mr. Darcy saw the figure of his father, Prince Vasíli.", ""},
		{"a father and a pronoun after the name", "Prince Andrew looked at Prince Vasíli, his father, in silence.", "Prince Vasíli"},
		{"a name after the apposition's comma opening a clause", "When Prince Andrew returned from his father, Prince Vasíli sat working.", ""},
		{"a possessive after the kin noun", "Prince Andrew had received from his father Prince Vasíli’s note.", ""},
		{"a woman called a father", "Prince Andrew saw the figure of his father, Lady Catherine, at the door.", ""},
		{"a kin noun that is no single tie", "Mr. Darcy’s sister, Miss Bingley, was there.", ""},
	} {
		wantFacts(t, k, tc.name, tc.text, tc.want)
	}
}
