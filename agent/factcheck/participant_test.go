package factcheck

import "testing"

// TestParticipantReading: the general reading of an English clause that
// puts a name into its scene (participant.go), beside what is only talk
// of someone absent. Each case gives the number of state findings; the
// sentences use frames no narrower check reads.
func TestParticipantReading(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/lydia.md":    "---\nname: Lydia Bennet\naliases: [Lydia]\nkind: character\nfacts: { status: away, location: Brighton }\n---\n",
		"entities/characters/andrew.md":   "---\nname: Prince Andrew\nkind: character\nfacts: { status: away, location: the army }\n---\n",
		"entities/characters/princess.md": "---\nname: Lise Bolkónskaya\naliases: [the little princess]\nkind: character\nfacts: { status: dead }\n---\n",
	})
	for _, tc := range []struct {
		text string
		want int
	}{
		// The object of an act that needs its object at hand.
		{"They had long wished to see him, and were surprised to find Lydia at his elbow.", 1}, // found, after a feeling of what happened
		{"They found Lydia at her elbow.", 1},                                                  // found where she is
		{"Below in the avenue she saw Lydia and Tíkhon by the gate.", 1},                       // one of those seen
		{"She went to call on them, taking Prince Andrew with her.", 1},                        // taken along
		{"He brought Lydia and her sister with him.", 1},                                       // brought along
		{"Jane joined Lydia at the window.", 1},                                                // joined
		{"She entered the room with Lydia at her side.", 1},                                    // company at one's side
		{"Mary sat down next to Lydia.", 1},                                                    // beside someone who sits
		{"Elizabeth pointed to Lydia.", 1},                                                     // a gesture at someone
		{"He caught sight of Lydia among the crowd.", 1},                                       // seen where she is
		{"Kitty interrupted Lydia with a shriek.", 1},                                          // in earshot
		{"She took Lydia aside.", 1},                                                           // moved within the house
		{"She followed Lydia upstairs.", 1},
		{"Mrs. Bennet gave Lydia a look.", 1},         // a gesture to her face
		{"She stopped Lydia at the door.", 1},         // an act done at a part of a room
		{"She threw her arms round Lydia's neck.", 1}, // a part of her body
		{"She took Lydia back to Brighton.", 0},       // out of the scene
		{"He gave Lydia a thousand pounds.", 0},       // no gesture
		{"She used to meet Lydia at the door.", 0},    // a habit
		{"He lived near Lydia.", 0},                   // no posture or motion
		{"She would sit next to Lydia.", 0},           // a hypothesis
		{"He pointed to Lydia's letter.", 0},          // her letter, not her
		{"She hoped to find Lydia at his elbow.", 0},  // a hope, not a finding
		{"She did not bring Lydia with her.", 0},      // negated
		{"She saw Lydia in the spring.", 0},
		{"She found Lydia at the assembly last winter.", 0}, // a time before the scene                                                    // a time, not a place
		{"He went off with Lydia and the money.", 0},        // the elopement retold
		{"She would have joined Lydia at Brighton.", 0},     // a hypothesis
		// The subject of a verb of the scene, one item of a list.
		{"The count, Natásha, and Prince Andrew, still laughing, walked into the hall.", 1},
		{"The two girls, Kitty and Lydia, ran to the window.", 1}, // names in apposition to a noun of people
		{"Lydia and Kitty were both in high spirits.", 1},         // both of a list
		{"There was Lydia, laughing as usual.", 1},                // brought in by "there was"
		{"Only Lydia was missing.", 0},
		{"There was Lydia to think of.", 0},                                                     // no act
		{"Until Prince Andrew settled in Boguchárovo its owners had always been absentees.", 0}, // of a time before
		{"But Lydia, she soon found, was depending on the plan.", 0},                            // someone else's comment
		{"She remembered how Lydia, who drove up to the door, laughed.", 0},                     // a memory
		{"Lydia generally went with him, and talked the whole way of the officers.", 0},         // a habit
		{"He loved his sister, Lydia wrote to him often.", 0},                                   // writing
		{"The life of Lydia, Kitty, and Mary had greatly changed since then.", 0},               // of a life, not an act
	} {
		wantStates(t, k, tc.text, tc.want)
	}
}

// TestNamingIsNoAct: one who calls something by a name tells a habit of
// speech, not an act of the scene; calling out or calling to someone is
// an act.
func TestNamingIsNoAct(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/prince.md": "---\nname: Prince Nicholas Bolkónski\naliases: [the old prince]\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/lydia.md":  "---\nname: Lydia Bennet\naliases: [Lydia]\nkind: character\nfacts: { status: away, location: Brighton }\n---\n",
	})
	for _, tc := range []struct {
		text string
		want int
	}{
		{"It had strengthened in them the traits of character the old prince called boorishness.", 0},
		{"The estate was managed by the Elder, Dron, whom the old prince called by the diminutive “Drónushka.”", 0},
		{"Lydia named the puppy Wickham.", 0},
		{"Lydia called out to Kitty from the stairs.", 1},
		{"Lydia called to Kitty from the stairs.", 1},
	} {
		wantStates(t, k, tc.text, tc.want)
	}
}

// TestParticipantLearningIsNoSight: a verb of perception before a clause
// it takes is learning ("found, on further inquiry, that"), which the
// general reading does not take for being there.
func TestParticipantLearningIsNoSight(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/darcy.md": "---\nname: Fitzwilliam Darcy\naliases: [Mr. Darcy]\nkind: character\nfacts: { status: away, location: London }\n---\n",
	})
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"Mr. Gardiner could not be seen; and Mr. Darcy found, on further inquiry, that your father was still with him.", false},
		{"Mr. Darcy saw that she was tired.", false},
		{"Mr. Darcy found the book on the table.", true},
	} {
		d := k.analyze(tc.text, 40)
		if len(d.mentions) == 0 {
			t.Fatalf("%s: no mention", tc.text)
		}
		if got := participant(d, d.mentions[0], false); got != tc.want {
			t.Errorf("%s: participant = %v, want %v", tc.text, got, tc.want)
		}
	}
}

// TestMovedWithCompany: the company one moves or travels with,
// named in a list with nouns of people, goes along; the dead too.
func TestMovedWithCompany(t *testing.T) {
	k := interactionProject(t)
	for _, tc := range []struct {
		text string
		want int
	}{
		{"In the winter Nicholas married Princess Mary and moved to Bald Hills with his wife, his mother, Pétya, and Sónya.", 1},
		{"Nicholas travelled to Moscow with Pétya.", 1},
		{"Nicholas had moved to Bald Hills with Pétya.", 0},    // a time before
		{"Nicholas would have moved to Moscow with Pétya.", 0}, // a hypothesis
		{"Nicholas went off with Pétya's horse.", 0},
	} {
		wantStates(t, k, tc.text, tc.want)
	}
}
