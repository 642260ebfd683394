package factcheck

import (
	"strings"
	"testing"
)

// TestHeadedValues: a value made of a name and its kind's noun (Semënov
// regiment, Gracechurch Street) stated with another name before the same
// noun, or the noun the key names, in a clause that says it of the holder.
func TestHeadedValues(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/dolokhov.md": "---\nname: Dólokhov\nkind: character\ngender: m\nfacts: { regiment: Semënov regiment }\n---\n",
		"entities/characters/nicholas.md": "---\nname: Nicholas Rostóv\naliases: [Rostóv, Nicholas]\nkind: character\ngender: m\n" +
			"facts: { regiment: Pávlograd hussars }\nprogressions:\n  - { chapter: 300, facts: { regiment: Akhtýrka hussars } }\n---\n",
		"entities/characters/gardiner.md": "---\nname: Mr. Gardiner\nkind: character\ngender: m\nfacts: { home: Gracechurch Street }\n---\n",
		"entities/characters/pierre.md":   "---\nname: Pierre\nkind: character\ngender: m\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"apposition", "This was Dólokhov, an officer of the Preobrazhénsk regiment, a notorious gambler.", "Preobrazhénsk regiment"},
		{"apposition, the declared name", "This was Dólokhov, an officer of the Semënov regiment, a notorious gambler.", ""},
		{"the key's noun after a verb of serving, through a pronoun", "Nicholas Rostóv was happy when, after 1807, he continued to serve in the Izyúm regiment.", "Izyúm regiment"},
		{"the declared name by the key's noun", "Nicholas Rostóv continued to serve in the Pávlograd regiment.", ""},
		{"a value of another chapter", "Nicholas Rostóv continued to serve in the Akhtýrka regiment.", ""},
		{"a copula and a street", "Mr. Gardiner lived in Wimpole Street, near the park.", "Wimpole Street"},
		{"the declared street", "Mr. Gardiner lived in Gracechurch Street, near the park.", ""},
		{"someone no file declares between", "Among them were Rostóv and Dólokhov—who was now in the Izyúm regiment.", ""},
		{"no link to the holder", "Nicholas Rostóv saw the Izyúm regiment pass.", ""},
		{"two people named before", "Pierre met Nicholas Rostóv, who served in the Izyúm regiment.", ""},
		{"a possessive is another's thing", "Dólokhov’s friend was in the Izyúm regiment.", ""},
	} {
		got := strings.Join(found(k, tc.text, 10, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestHeadedOneWordValues: a value of one capitalized word whose key ends
// in the noun of its kind (regiment: Pávlograd, street: Gracechurch) is
// that name before that noun. Chinese writes a place's kind into its name
// (雲棧洞), which nearvalue.go reads.
func TestHeadedOneWordValues(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/nicholas.md": "---\nname: Nicholas Rostóv\naliases: [Rostóv, Nicholas]\nkind: character\ngender: m\n" +
			"facts: { regiment: Pávlograd }\n---\n",
		"entities/characters/gardiner.md": "---\nname: Mr. Gardiner\nkind: character\ngender: m\nfacts: { street: Gracechurch }\n---\n",
		"entities/characters/kitty.md":    "---\nname: Kitty Bennet\naliases: [Kitty]\nkind: character\ngender: f\nfacts: { sister: Lydia }\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"another name before the key's noun", "Nicholas Rostóv was happy when, after 1807, he continued to serve in the Izyúm regiment.", "Izyúm regiment"},
		{"the declared name", "Nicholas Rostóv was happy when, after 1807, he continued to serve in the Pávlograd regiment.", ""},
		{"a street", "Mr. Gardiner lived in Wimpole Street, near the park.", "Wimpole Street"},
		{"the declared street", "Mr. Gardiner lived in Gracechurch Street, near the park.", ""},
		{"no link to the holder", "Nicholas Rostóv saw the Izyúm regiment pass.", ""},
		{"a key that is no kind of place or body", "Kitty was with Lydia in the Meryton shops.", ""},
	} {
		got := strings.Join(found(k, tc.text, 10, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
