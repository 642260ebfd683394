package factcheck

import "testing"

// TestGenerationPicksTheElder: a name a father and a son share names the
// father after "old" when one of his declared names holds "old" (the
// old prince); without the word, or when neither or both are so named,
// it stays ambiguous and proves nothing.
func TestGenerationPicksTheElder(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/old-prince.md": "---\nname: Prince Nicholas Bolkónski\naliases: [the old prince, Prince Bolkónski]\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/andrew.md":     "---\nname: Prince Andrew\naliases: [Prince Bolkónski]\nkind: character\nfacts: { status: away, location: the army }\n---\n",
		"entities/characters/count.md":      "---\nname: Count Rostóv\naliases: [Rostóv]\nkind: character\nfacts: { status: dead }\n---\n",
		"entities/characters/nicholas.md":   "---\nname: Nicholas Rostóv\naliases: [Rostóv]\nkind: character\nfacts: { status: away, location: the army }\n---\n",
	})
	for _, tc := range []struct {
		text string
		want int
	}{
		{"Two women came toward the officers, followed by old Prince Bolkónski on his stick.", 1},
		{"Two women came toward the officers, followed by Prince Bolkónski on his stick.", 0},       // either of two
		{"Two women came toward the officers, followed by young Prince Bolkónski on his stick.", 0}, // no one is named young
		{"Two women came toward the officers, followed by old Rostóv on his stick.", 0},             // no name of either holds old
	} {
		wantStates(t, k, tc.text, tc.want)
	}
}
