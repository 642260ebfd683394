package factcheck

import "testing"

// TestEnglishCompanions: the agents of a passive of accompanying, a
// list of people included (followed by his wife and Pétya), a company
// set off by commas between a subject and its verb (The countess, with
// Pétya and Sónya, drove), and a company after a verb of company and a
// phrase of place (walked in the garden with Pétya), are in the scene;
// a following of a time before, a leading that is no company, and a
// memory are not.
func TestEnglishCompanions(t *testing.T) {
	k := interactionProject(t)
	for _, tc := range []struct {
		text string
		want int
	}{
		{"Nicholas came in, followed by his wife and Pétya.", 1},
		{"The countess, with Pétya and Sónya, drove to the Troitsa.", 1},
		{"Nicholas walked in the garden with Pétya and Sónya.", 1},
		{"Nicholas went to the ball together with Pétya.", 1},
		{"Mrs. Bennet was talking to Lydia.", 1},
		{"He had once belonged to the wild set led by his cousin and Pétya.", 0}, // no company
		{"Nicholas had been followed by his wife and Pétya.", 0},                 // a time before
		{"She remembered the countess, with Pétya and Sónya, drove off.", 0},     // a memory
		{"The countess, with Pétya's letter, drove to the Troitsa.", 0},          // his letter, not he
		{"The countess, with Pétya and Sónya, went away.", 0},                    // leaving
	} {
		wantStates(t, k, tc.text, tc.want)
	}
}
