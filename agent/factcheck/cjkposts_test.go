package factcheck

import "testing"

// TestCJKPostsAfterAppointment: a post given right after its holder and
// an appointment verb, one adverb between them allowed (賈政又點了鹽差),
// against the declared post; a two-character post is compared by its
// last character after a verb that gives nothing but a post. Each case
// names the construction and the finding's text ("" for none).
func TestCJKPostsAfterAppointment(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/zheng.md": "---\nname: 賈政\nkind: character\n" +
			"facts: { post: 學差 }\nprogressions:\n  - { chapter: 2, status: home, location: 京中 }\n---\n",
		"entities/characters/yucun.md": "---\nname: 賈雨村\nkind: character\nfacts: { 官職: 京兆府尹 }\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"a two-character post after an appointment verb", "這年賈政點了鹽差，擇日起身。", "鹽差"},
		{"an adverb before the verb", "這年賈政又點了鹽差，擇日起身。", "鹽差"},
		{"the declared post after an adverb", "這年賈政又點了學差，擇日起身。", ""},
		{"a two-character value of where the holder is", "原來是賈政升了郎中了，眾人都來道喜。", ""},
		{"a two-character post after a verb of many things", "這年賈政做了鹽差。", ""},
		{"a longer post after an adverb", "且說賈雨村又升了應天府尹兼管稅務。", "應天府尹"},
		{"two adverbs: not read", "且說賈雨村今又升了應天府尹兼管稅務。", ""},
	} {
		wantFacts(t, k, tc.name, tc.text, tc.want)
	}
}
