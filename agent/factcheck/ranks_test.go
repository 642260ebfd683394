package factcheck

import (
	"fmt"
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

// TestRankTheBookUsesNearby: a rank with a name that other chapters close
// by write the same way is the book's usage then (a promotion the files
// never record); far from those chapters, or written nowhere else, it is
// still against the declared rank. The chapter checked is never its own
// witness.
func TestRankTheBookUsesNearby(t *testing.T) {
	files := map[string]string{
		"entities/characters/denisov.md": "---\nname: Vasíli Denísov\naliases: [Denísov]\nkind: character\ngender: m\nfacts: { rank: cavalry captain }\n---\n",
		"entities/characters/fitz.md":    "---\nname: Colonel Fitzwilliam\nkind: character\ngender: m\nfacts: { rank: colonel }\n---\n",
	}
	for ch := 1; ch <= 40; ch++ {
		text := fmt.Sprintf("Chapter %d\n\nThe regiment marched on through the rain.\n", ch)
		if ch == 30 || ch == 33 {
			text += "Major Denísov rode up. Captain Fitzwilliam bowed.\n"
		}
		if ch == 20 {
			text += "Lieutenant Denísov rode up.\n"
		}
		files[fmt.Sprintf("manuscript/chapter-%02d/content.md", ch)] = text
	}
	k := bookProject(t, files)
	for _, tc := range []struct {
		name string
		ch   int
		text string
		want string
	}{
		{"written so two chapters off", 31, "Major Denísov came in, shaking the rain from his cloak.", ""},
		{"written so only in the chapter itself", 20, "Lieutenant Denísov came in, shaking the rain from his cloak.", "Lieutenant"},
		{"far from where the book writes it", 5, "Major Denísov came in, shaking the rain from his cloak.", "Major"},
		{"a rank the book never writes", 31, "Colonel Denísov came in, shaking the rain from his cloak.", "Colonel"},
		{"a title the book writes nearby", 31, "Captain Fitzwilliam came in, shaking the rain from his cloak.", ""},
		{"a title far from it", 5, "Captain Fitzwilliam came in, shaking the rain from his cloak.", "Captain"},
	} {
		got := strings.Join(found(k, tc.text, tc.ch, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s (ch. %d): fact findings %q, want %q", tc.name, tc.text, tc.ch, got, tc.want)
		}
	}
}
