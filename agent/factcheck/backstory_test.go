package factcheck

import "testing"

// TestPastPerfectBackstory: a past-perfect clause with a time word of the
// past, or inside a clause of report opened by "that", tells of a time
// before the scene and puts no away character in it; the past perfect
// alone, or "had" as a verb of having, still does. Chinese has no such
// tense (its flashbacks are retold's), so its scene stays found.
func TestPastPerfectBackstory(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/jane.md":   "---\nname: Jane Bennet\naliases: [Jane]\nkind: character\nfacts: { status: away, location: London }\n---\n",
		"entities/characters/darcy.md":  "---\nname: Mr. Darcy\nkind: character\nfacts: { status: away, location: London }\n---\n",
		"entities/characters/liz.md":    "---\nname: Elizabeth\nkind: character\nfacts: { status: present }\n---\n",
		"entities/characters/wukong.md": "---\nname: 孫悟空\naliases: [悟空]\nkind: character\nfacts: { status: away, location: 花果山 }\n---\n",
	})
	for _, tc := range []struct {
		text string
		want int
	}{
		{"Elizabeth could not but allow that Mr. Bingley, when questioned by Jane, had long ago asserted his blamelessness in the affair.", 0},
		{"Elizabeth was sorry that she had, from the distress of the moment, been led to make Mr. Darcy acquainted with their fears.", 0},
		{"Elizabeth was surprised to find that he had already been frequently seen by Jane and herself.", 0},
		{"Mr. Bingley, when questioned by Jane, had formerly denied it.", 0},
		{"Mr. Bingley, when questioned by Jane, had denied it.", 1},
		// Still an act of the text about her: with another, the text
		// follows her (followed), as it does one writing from afar.
		{"Mr. Bingley, when questioned by Jane, had long ago asserted it. Jane laughed and kissed Elizabeth.", 0},
		// The past perfect of the scene itself, and "had" as a verb.
		{"Jane, who had come down, laughed and kissed Elizabeth.", 1},
		{"Jane, who had never before been in so grand a room, kept close beside her sister.", 1},
		{"They were soon joined by Jane, who had been too busily engaged to appear before.", 1},
		{"Jane laughed and kissed Elizabeth, who had come down.", 1},
		{"Mr. Darcy laughed and had a letter before him.", 1},
		{"悟空笑道：「師父，這廝好黑。」", 1},
	} {
		if got := found(k, tc.text, 3, TypeState); len(got) != tc.want {
			t.Errorf("%q: %d state findings %q, want %d", tc.text, len(got), got, tc.want)
		}
	}
}
