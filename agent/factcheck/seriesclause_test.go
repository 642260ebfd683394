package factcheck

import "testing"

// TestSeriesClauseOwnSubject: a verb of thought in one clause of a
// narrated series does not reach the next clause's subject; a thought
// that takes a clause of its own (thought that, remembered how) does.
func TestSeriesClauseOwnSubject(t *testing.T) {
	k := interactionProject(t)
	for _, tc := range []struct {
		text string
		want int
	}{
		{"Maria thought speaking out of the question, Lydia answered only when she was addressed, and the gentlemen did nothing but eat.", 1},
		{"Kitty remembered the evening, and Lydia laughed at her.", 1},
		{"Kitty remembered how they sat together, Lydia laughed at her.", 0}, // the series continues the memory
		{"Kitty thought that Mary was tired, Lydia answered for her.", 0},
		{"Kitty thought of Lydia.", 0},
	} {
		wantStates(t, k, tc.text, tc.want)
	}
}

// TestAbsoluteClause: the subject of an absolute clause after a bare
// comma, with a participle of what it is doing (after a phrase set off
// by commas or not), is in the scene; a memory before it, or lying as
// the dead lie, is not.
func TestAbsoluteClause(t *testing.T) {
	k := interactionProject(t)
	for _, tc := range []struct {
		text string
		want int
	}{
		{"The bride and bridegroom set off from the church door, Lydia, come down from town for the day, handing the bride into the carriage, and everybody talked.", 1},
		{"The servants came out to meet them, Pétya holding the dogs.", 0}, // no comma after the name: not read
		{"The servants came out to meet them, Pétya, holding the dogs, and the old count behind.", 1},
		{"She remembered the day, Pétya, holding the dogs, and the old count behind.", 0}, // a memory
		{"The servants stood round the table, Pétya, lying on it, and the candles burning.", 0},
		{"The servants came out to meet them, Lydia, being in Brighton, did not come.", 0},
	} {
		wantStates(t, k, tc.text, tc.want)
	}
}
