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

// TestEnglishNameBeforeAParenthesis: a parenthesis between commas after
// the name ("as if quite distraught", "after a pause", "agitated and
// confused") leaves it the subject of the verb after it; one that is a
// clause of its own ("she said", "as she remembered") does not, nor a
// list of names a passive follows ("Wickham, Lydia, were all
// forgotten"), nor a sentence in the first person (a letter).
func TestEnglishNameBeforeAParenthesis(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/wickham.md": "---\nname: Mr. Wickham\naliases: [Wickham]\nkind: character\nfacts: {status: away, location: Newcastle}\n---\n",
		"entities/characters/lydia.md":   "---\nname: Lydia Bennet\naliases: [Lydia]\nkind: character\nfacts: {status: away, location: Newcastle}\n---\n",
		"entities/characters/andrew.md":  "---\nname: Prince Andrew\nkind: character\nfacts: {status: dead}\n---\n",
	})
	for _, tc := range []struct{ text, want string }{
		{"She tried to comfort him, but Prince Andrew, as if quite distraught, said nothing.", "Prince Andrew"},
		{"Natásha rose. Prince Andrew, after a long pause, turned to the window.", "Prince Andrew"},
		{"The lovers talked; and Lydia, agitated and confused, rather looked at her sister.", "Lydia"},
		{"The night was cold. Prince Andrew, she said, looked ill.", ""},
		{"The night was cold. Prince Andrew, as she remembered, said nothing.", ""},
		{"Jane was her favourite child. Wickham, Lydia, were all forgotten.", ""},
		// A letter in the first person tells of another time and place.
		{"I joined them unexpectedly; and then Lydia, unable to support the idea of grieving a brother whom she almost looked up to as a father, acknowledged the whole to me.", ""},
	} {
		if got := strings.Join(found(k, tc.text, 30, TypeState), " "); got != tc.want {
			t.Errorf("%s: state findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestEnglishIrregularPastsOfTheScene: the clause-subject reading knows
// the irregular pasts a scene moves its people with beyond the commonest
// ("Lydia still knelt", "Prince Andrew beheld").
func TestEnglishIrregularPastsOfTheScene(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/lydia.md":  "---\nname: Lydia Bennet\naliases: [Lydia]\nkind: character\nfacts: {status: away, location: Newcastle}\n---\n",
		"entities/characters/andrew.md": "---\nname: Prince Andrew\nkind: character\nfacts: {status: dead}\n---\n",
	})
	for _, tc := range []struct{ text, want string }{
		{"Elizabeth sat down. Lydia still knelt by the bed.", "Lydia"},
		{"Elizabeth sat down. Lydia then forgave him.", "Lydia"},
		{"The night was cold. Prince Andrew beheld the sky.", "Prince Andrew"},
		{"The night was cold. Prince Andrew overtook them at the bridge.", "Prince Andrew"},
		{"The night was cold. Prince Andrew swam across.", "Prince Andrew"},
		{"The night was cold. Prince Andrew would have swum across.", ""},
	} {
		if got := strings.Join(found(k, tc.text, 30, TypeState), " "); got != tc.want {
			t.Errorf("%s: state findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestEnglishNameAfterAFrontedClause: a name right after a fronted
// clause of time or concession ("and as Miss Bingley dared not approach
// nearer to him, Lydia also recovered") is the subject of the main clause
// in the scene; after a condition ("If the weather held", "Unless he
// came") it is not.
func TestEnglishNameAfterAFrontedClause(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/lydia.md":  "---\nname: Lydia Bennet\naliases: [Lydia]\nkind: character\nfacts: {status: away, location: Newcastle}\n---\n",
		"entities/characters/andrew.md": "---\nname: Prince Andrew\nkind: character\nfacts: {status: dead}\n---\n",
	})
	for _, tc := range []struct{ text, want string }{
		{"She was vexed; and as Miss Bingley dared not approach nearer to him, Lydia also recovered in time.", "Lydia"},
		{"Though the room was full, Prince Andrew was silent.", "Prince Andrew"},
		{"When the gentlemen entered, Prince Andrew still stood by the fire.", "Prince Andrew"},
		{"If the weather held, Lydia also recovered in time.", ""},
		{"Unless the room was full, Prince Andrew was silent.", ""},
	} {
		if got := strings.Join(found(k, tc.text, 30, TypeState), " "); got != tc.want {
			t.Errorf("%s: state findings %q, want %q", tc.text, got, tc.want)
		}
	}
}

// TestEnglishNameInTheSceneBeyondTheSubject: besides the subject opening
// its clause, English puts a name in the scene as the subject right
// after "when" ("when Prince Andrew entered"); as the
// goal of speech, motion or gaze ("went to", "moved threateningly
// toward", "looking at Pétya and"); as the subject of a relative clause
// of the scene ("—who sat … at the samovar"); as the speaker after a
// line of dialogue (“…,” chimed in; “…?” Prince Andrew was about to
// ask); in a room or a mood ("was in the porch", "was in very great
// spirits"); or as the owner of a face there. A portrait or a coffin, a
// state told in the relative clause, a comparison or a far town are not.
func TestEnglishNameInTheSceneBeyondTheSubject(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/lydia.md":  "---\nname: Lydia Bennet\naliases: [Lydia]\nkind: character\nfacts: {status: away, location: Newcastle}\n---\n",
		"entities/characters/andrew.md": "---\nname: Prince Andrew\naliases: [Andrew]\nkind: character\nfacts: {status: dead}\n---\n",
	})
	for _, tc := range []struct{ text, want string }{
		{"She got up quickly when Prince Andrew entered the room.", "Prince Andrew"},
		{"Natásha went to Prince Andrew and began sorting patterns with him.", "Prince Andrew"},
		{"The soldier moved threateningly toward Prince Andrew.", "Prince Andrew"},
		{"They were all looking at Pétya and Prince Andrew and moving toward the porch.", "Prince Andrew"},
		{"Nicholas went to fetch more tea from Prince Andrew—who sat weary but resolute at the samovar—and questioned Pierre.", "Prince Andrew"},
		{"In the middle of a figure he bowed to Prince Andrew who was passing.", "Prince Andrew"},
		{"“That’s right, my dear,” chimed in Prince Andrew, thoroughly aroused.", "Prince Andrew"},
		{"“Why haven’t they carried him away?” Prince Andrew was about to ask.", "Prince Andrew"},
		{"The carts stood loaded. Prince Andrew was in the porch, giving out weapons.", "Prince Andrew"},
		{"Jane looked happy. Lydia, in short, was in very great spirits.", "Lydia"},
		{"Smiles decked the face of Lydia, as the carriage drove up to the door.", "Lydia"},
		{"She looked at Prince Andrew lying in his coffin.", ""},
		{"Until Prince Andrew settled in Boguchárovo, nobody came.", ""},
		{"He went up to Andrew Kaysárov, his adjutant’s brother.", ""},
		{"She got up quickly just as Prince Andrew entered the room.", ""},
		{"She met a cousin of Prince Andrew, who lived at Bald Hills.", ""},
		{"The carts stood loaded. Prince Andrew was in Moscow.", ""},
	} {
		if got := strings.Join(found(k, tc.text, 30, TypeState), " "); got != tc.want {
			t.Errorf("%s: state findings %q, want %q", tc.text, got, tc.want)
		}
	}
}
