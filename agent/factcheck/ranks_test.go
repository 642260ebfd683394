package factcheck

import (
	"strings"
	"testing"
)

// TestRankCompoundsAndNobleTitles: a rank before a name may have a title
// of nobility between ("General Prince Bagratión"); a hyphened compound
// ("Lieutenant-General") is one rank, compared whole with the head of the
// declared rank ("General in Chief").
func TestRankCompoundsAndNobleTitles(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/bolkonski.md": "---\nname: Prince Nicholas Bolkónski\naliases: [Nicholas Andréevich]\nkind: character\ngender: m\n" +
			"facts: { rank: General in Chief }\n---\n",
		"entities/characters/bagration.md": "---\nname: Bagratión\nkind: character\ngender: m\nfacts: { rank: general }\n---\n",
		"entities/characters/orlov.md":     "---\nname: Orlóv\nkind: character\ngender: m\nfacts: { rank: major }\n---\n",
		"entities/characters/kutuzov.md":   "---\nname: Kutúzov\nkind: character\ngender: m\nfacts: { rank: lieutenant general }\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"a compound against a qualified rank", "Lieutenant-General Prince Nicholas Andréevich ever since the Emperor Paul had lived at Bald Hills.", "Lieutenant-General"},
		{"the declared compound", "Lieutenant-General Kutúzov rode up.", ""},
		{"another compound", "Major-General Kutúzov rode up.", "Major-General"},
		{"a compound against a plain rank", "Major-General Prince Bagratión rode up.", ""},
		{"a rank before a title of nobility", "Colonel Prince Orlóv rode up.", "Colonel"},
		{"the declared rank before a title of nobility", "Major Prince Orlóv rode up.", ""},
	} {
		got := strings.Join(found(k, tc.text, 25, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
