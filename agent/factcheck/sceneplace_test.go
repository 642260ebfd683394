package factcheck

import "testing"

// TestSceneSetWhereTheAwayAre: an away character acting in a scene the
// narration has brought to their declared location (arrived at, reached,
// stayed at, 來至, 到了; a person's house by their declared home; a place
// that lies in the location by its facts) is where they should be; in a
// scene brought elsewhere they are a finding. A location that says only
// where its owner is not proves nothing.
func TestSceneSetWhereTheAwayAre(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/jane.md":       "---\nname: Jane Bennet\naliases: [Jane]\nkind: character\nfacts: { status: away, location: London }\n---\n",
		"entities/characters/charlotte.md":  "---\nname: Charlotte Lucas\naliases: [Charlotte]\nkind: character\nfacts: { status: away, location: Hunsford }\n---\n",
		"entities/characters/caroline.md":   "---\nname: Caroline Bingley\naliases: [Caroline]\nkind: character\nfacts: { status: away, location: away from Hertfordshire }\n---\n",
		"entities/characters/lydia.md":      "---\nname: Lydia Bennet\naliases: [Lydia]\nkind: character\nfacts: { status: away, location: Kent }\n---\n",
		"entities/characters/gardiner.md":   "---\nname: Mr. Gardiner\nkind: character\nfacts: { residence: Gracechurch Street, city: London }\n---\n",
		"entities/characters/hurst.md":      "---\nname: Mr. Hurst\nkind: character\nfacts: { residence: Grosvenor Street, status: away, location: London }\n---\n",
		"entities/characters/phillips.md":   "---\nname: Mr. Phillips\nkind: character\nfacts: { home: Meryton }\n---\n",
		"entities/characters/liz.md":        "---\nname: Elizabeth\nkind: character\nfacts: { status: present }\n---\n",
		"entities/locations/hunsford.md":    "---\nname: Hunsford\nkind: location\n---\n",
		"entities/locations/rosings.md":     "---\nname: Rosings\nkind: location\nfacts: { county: Kent }\n---\n",
		"entities/locations/netherfield.md": "---\nname: Netherfield\nkind: location\nfacts: { county: Hertfordshire }\n---\n",
		"entities/characters/wukong.md":     "---\nname: 孫悟空\naliases: [悟空]\nkind: character\nfacts: { status: away, location: 花果山 }\n---\n",
		"entities/characters/sha.md":        "---\nname: 沙和尚\nkind: character\nfacts: { status: away, location: 流沙河 }\n---\n",
		"entities/characters/tang.md":       "---\nname: 唐僧\nkind: character\nfacts: { status: present }\n---\n",
		"entities/locations/hgs.md":         "---\nname: 花果山\nkind: location\n---\n",
		"entities/locations/cave.md":        "---\nname: 水簾洞\nkind: location\nfacts: { 所在: 花果山 }\n---\n",
	})
	for _, tc := range []struct {
		text string
		want int
	}{
		{"Within four hours they reached Mr. Gardiner's house.\n\nJane laughed and kissed Elizabeth.", 0},
		{"Within four hours they reached Mr. Hurst's house.\n\nJane laughed and kissed Elizabeth.", 0},
		{"Within four hours they reached Mr. Phillips's house.\n\nJane laughed and kissed Elizabeth.", 1},
		{"Sir William stayed only a week at Hunsford.\n\nCharlotte laughed and kissed Elizabeth.", 0},
		{"Sir William stayed only a week at Rosings.\n\nCharlotte laughed and kissed Elizabeth.", 1},
		{"At last they arrived at Rosings.\n\nLydia laughed and kissed Elizabeth.", 0},
		{"At last they arrived at Netherfield.\n\nLydia laughed and kissed Elizabeth.", 1},
		{"At last they arrived at Netherfield.\n\nCaroline laughed and kissed Elizabeth.", 1},
		// The last arrival is the scene's.
		{"They reached Mr. Gardiner's house. Next day they arrived at Netherfield.\n\nJane laughed and kissed Elizabeth.", 1},
		{"唐僧來至水簾洞。\n\n悟空笑道：「師父來了。」", 0},
		{"唐僧到了花果山。\n\n悟空笑道：「師父來了。」", 0},
		{"唐僧來至水簾洞。\n\n沙和尚笑道：「師父來了。」", 1},
	} {
		if got := found(k, tc.text, 3, TypeState); len(got) != tc.want {
			t.Errorf("%q: %d state findings %q, want %d", tc.text, len(got), got, tc.want)
		}
	}
}

// TestSceneCarriedFromTheChapterBefore: an English chapter that opens
// without a move is set where the chapter before it ended. A Chinese
// chapter is not: a 回 turns to another thread (卻說, 話表) without a
// verb of arrival, and planted slips in such chapters were lost to it.
func TestSceneCarriedFromTheChapterBefore(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/charlotte.md": "---\nname: Charlotte Lucas\naliases: [Charlotte]\nkind: character\nfacts: { status: away, location: Hunsford }\n---\n",
		"entities/characters/liz.md":       "---\nname: Elizabeth\nkind: character\nfacts: { status: present }\n---\n",
		"entities/locations/hunsford.md":   "---\nname: Hunsford\nkind: location\n---\n",
		"entities/locations/longbourn.md":  "---\nname: Longbourn\nkind: location\n---\n",
		"entities/characters/wukong.md":    "---\nname: 孫悟空\naliases: [悟空]\nkind: character\nfacts: { status: away, location: 花果山 }\n---\n",
		"entities/characters/tang.md":      "---\nname: 唐僧\nkind: character\nfacts: { status: present }\n---\n",
		"entities/locations/hgs.md":        "---\nname: 花果山\nkind: location\n---\n",
		"manuscript/chapter-05/content.md": "第五回\n\n唐僧來至花果山，住了一夜。\n",
		"manuscript/chapter-06/content.md": "第六回\n\n卻說那日天晴。悟空笑道：「師父。」\n",
		"manuscript/chapter-01/content.md": "Chapter 1\n\nElizabeth walked out. At length they arrived at Hunsford, and rested.\n",
		"manuscript/chapter-02/content.md": "Chapter 2\n\nThe morning was fine. Charlotte laughed and kissed Elizabeth.\n",
		"manuscript/chapter-03/content.md": "Chapter 3\n\nElizabeth walked out. At length they arrived at Longbourn, and rested.\n",
		"manuscript/chapter-04/content.md": "Chapter 4\n\nThe morning was fine. Charlotte laughed and kissed Elizabeth.\n",
	})
	text := "The morning was fine. Charlotte laughed and kissed Elizabeth.\n"
	if got := found(k, text, 2, TypeState); len(got) != 0 {
		t.Errorf("chapter 2, after an arrival at Hunsford: state findings %q, want none", got)
	}
	if got := found(k, text, 4, TypeState); len(got) != 1 {
		t.Errorf("chapter 4, after an arrival at Longbourn: state findings %q, want one", got)
	}
	if got := found(k, "卻說那日天晴。悟空笑道：「師父。」\n", 6, TypeState); len(got) != 1 {
		t.Errorf("a Chinese chapter after one that came to 花果山: state findings %q, want one", got)
	}
}
