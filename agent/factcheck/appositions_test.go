package factcheck

import "testing"

// TestAppositions: another member of the closed set a character's
// declared office or relation belongs to, set in apposition to the name
// with "the", states that fact otherwise. Each case names the
// construction and the finding's text ("" for none).
func TestAppositions(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/kutuzov.md":  "---\nname: Kutúzov\nkind: character\nfacts: { office: commander in chief }\nprogressions:\n  - { chapter: 9, office: governor general }\n---\n",
		"entities/characters/sonya.md":    "---\nname: Sónya\nkind: character\nfacts: { relation_to_count: niece }\n---\n",
		"entities/characters/collins.md":  "---\nname: Mr. Collins\nkind: character\nfacts: { position: rector of Hunsford }\n---\n",
		"entities/characters/nicholas.md": "---\nname: Nicholas\nkind: character\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"another office before the name", "At the quarters of the chief of staff, Kutúzov, he inquired for Bolkónski.", "chief of staff"},
		{"the declared office before the name", "At the quarters of the commander in chief, Kutúzov, he inquired for Bolkónski.", ""},
		{"an office the character holds in a later chapter", "At the quarters of the governor general, Kutúzov, he inquired.", ""},
		{"another office after the name", "He went to Kutúzov, the chief of staff, and waited.", "chief of staff"},
		{"a hyphenated office", "He went to Kutúzov, the aide-de-camp, and waited.", "aide-de-camp"},
		{"an office of someone else, named after", "He spoke with the chief of staff, Weyrother, and with Kutúzov.", ""},
		{"another relation after the name", "There were Nicholas and Sónya, the goddaughter. Sónya was a slender brunette.", "goddaughter"},
		{"the declared relation", "There were Nicholas and Sónya, the niece. Sónya was a slender brunette.", ""},
		{"a relation with its relative named", "There was Sónya, the daughter of a poor gentleman.", ""},
		{"a relation with a possessive", "There was Sónya, his cousin, by the window.", ""},
		{"another office after as", "The popular choice of Kutúzov as minister of war was received.", "minister of war"},
		{"the declared office after as", "The popular choice of Kutúzov as commander in chief was received.", ""},
		{"as a comparison", "He listened to Kutúzov as a minister listens to a clerk.", ""},
		{"as opening another clause", "Kutúzov as usual said nothing to the minister of war.", ""},
		{"another relation after a copula", "Sónya was the goddaughter, and a favourite.", "goddaughter"},
		{"a relation of someone else after a copula", "Sónya was the daughter of a poor gentleman.", ""},
		{"a possessive after the member", "Sónya was the goddaughter’s friend.", ""},
		{"the head of an office with its place", "He was received by Mr. Collins, the curate, at the door.", "curate"},
		{"the declared office's head", "He was received by Mr. Collins, the rector, at the door.", ""},
	} {
		wantFacts(t, k, tc.name, tc.text, tc.want)
	}
}
