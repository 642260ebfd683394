package factcheck

import (
	"strings"
	"testing"
)

// TestFactValueTies: what ties a stated value to a fact when no
// possessive, have-form or key noun of the older rules does. The key's
// own word in the clause before an amount (inherited … pounds for
// inheritance), an age said with "at" after a future verb, a pronoun in
// direct speech that refers back to the one person of its gender the
// speech has named, and a Chinese measure before the name of the place it
// the finding's text ("" for none).
func TestFactValueTies(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/hale.md": "---\nname: Mr. Hale\naliases: [Hale]\nkind: character\ngender: m\n" +
			"facts: { inheritance: nearly eighty thousand pounds }\n---\n",
		"entities/characters/grey.md": "---\nname: Mrs. Grey\nkind: character\ngender: f\n" +
			"facts: { legacy: three thousand pounds }\n---\n",
		"entities/characters/kate.md": "---\nname: Kate Hale\naliases: [Kate]\nkind: character\ngender: f\n" +
			"progressions:\n  - { chapter: 5, facts: { age: sixteen } }\n---\nShe is the youngest.\n",
		"entities/characters/ann.md": "---\nname: Ann Hale\naliases: [Ann]\nkind: character\ngender: f\n---\nShe is the eldest.\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"the key's word before an amount", "Mr. Hale inherited property to the amount of nearly forty thousand pounds from an uncle.", "forty thousand pounds"},
		{"the key's word before the declared amount", "Mr. Hale inherited property to the amount of nearly eighty thousand pounds from an uncle.", ""},
		{"no word of the key", "Mr. Hale spent nearly forty thousand pounds on the house.", ""},
		{"the key's word as a noun", "Mrs. Grey was left a legacy of five thousand pounds by her aunt.", "five thousand pounds"},
		{"the key's word in another clause", "Mrs. Grey spoke of the legacy; she had spent five thousand pounds since.", ""},
		{"an age with at after will", "Kate will be married at seventeen, they say.", "seventeen"},
		{"an age with at after is to", "Kate is to be presented at seventeen.", "seventeen"},
		{"the declared age with at", "Kate will be married at sixteen, they say.", ""},
		{"an event dated with at", "Kate was married at seventeen, they say.", ""},
		{"a measure after at", "Kate will stop at seventeen miles from home.", ""},
		{"a pronoun in speech, the one woman it named", "“My poor Kate!” cried her aunt, “this is news indeed! She will be married at seventeen!”", "seventeen"},
		{"a pronoun in speech, after the one addressed", "“My dear Kate,” cried her aunt, “do you not see? She will be married at seventeen!”", ""},
		{"a pronoun in speech, two women named", "“Kate and Ann are here! She will be married at seventeen!”", ""},
		{"a pronoun in speech, the tag names someone", "“My poor Kate!” cried Ann, “She will be married at seventeen!”", ""},
	} {
		wantFacts(t, k, tc.name, tc.text, tc.want)
	}
}

// TestMoneyNamedByItsNoun: a sum "of" a money noun (a salary of, a debt
// of) is the fact whose key names that noun, and no other fact in the
// same unit.
func TestMoneyNamedByItsNoun(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/nicholas.md": "---\nname: Nicholas Rostóv\naliases: [Nicholas]\nkind: character\ngender: m\nfacts: { gambling_debt: forty-three thousand rubles }\n---\nA hussar.\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"another sum", "Nicholas hid his wretched condition. His position was the more difficult because with his salary of twelve hundred rubles he had to keep his mother too.", ""},
		{"the key's word", "Nicholas was left a gambling debt of twelve hundred rubles by the game.", "twelve hundred rubles"},
	} {
		got := strings.Join(found(k, tc.text, 100, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestDistanceToARoadOfAPlace: "two miles off the Smolénsk highroad" is a
// distance to the road, a fact of a key that names the road, never the
// distance to the town itself.
func TestDistanceToARoadOfAPlace(t *testing.T) {
	project := func(key string) *Knowledge {
		return bookProject(t, map[string]string{
			"entities/locations/bald-hills.md": "---\nname: Bald Hills\nkind: location\nfacts: { " + key + ": forty miles }\n---\nAn estate.\n",
			"entities/locations/smolensk.md":   "---\nname: Smolénsk\nkind: location\n---\nA town.\n",
		})
	}
	const text = "Prince Andrew visited Bald Hills which was directly on his way, being only two miles off the Smolénsk highroad."
	for _, tc := range []struct {
		key, want string
	}{
		{"distance_from_smolensk", ""},
		{"distance_to_smolensk_highroad", "two miles"},
	} {
		got := strings.Join(found(project(tc.key), text, 175, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: fact findings %q, want %q", tc.key, got, tc.want)
		}
	}
}

// TestCountOwnedByAPronoun: "her two daughters" is the count of the woman
// "her" stands for; when she has no such fact, no one else in scope who
// has one (a relation of hers) is its holder.
func TestCountOwnedByAPronoun(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/mrs-bennet.md": "---\nname: Mrs. Bennet\nkind: character\ngender: f\nfacts: { status: married }\n" +
			"relations:\n  - { to: entities/characters/lady, kind: acquaintance }\n---\nShe is a mother.\n",
		"entities/characters/lady.md": "---\nname: Lady Catherine de Bourgh\naliases: [Lady Catherine]\nkind: character\ngender: f\nfacts: { daughters: one }\n---\nShe is a widow.\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"her, who has no such fact", "He was received by Mrs. Bennet with a degree of civility which made her two daughters ashamed.", ""},
		{"named, who has it", "He was received by Lady Catherine with a degree of civility which made her two daughters ashamed.", "two daughters"},
	} {
		got := strings.Join(found(k, tc.text, 53, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
