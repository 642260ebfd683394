package factcheck

import "testing"

// TestTopicMeasures: a number with the unit of a place's declared measure,
// framed as that measure (a word of its key or of the key's dimension by
// the number, or in the question a bare reply answers), and whose holder
// the clause leaves unsaid, is the measure of the place the paragraph is
// about. Each case names the reading and the finding's text ("" for none).
func TestTopicMeasures(t *testing.T) {
	zh := bookProject(t, map[string]string{
		"entities/locations/river.md":    "---\nname: 流沙河\nkind: location\nfacts: { width: 八百里 }\n---\n",
		"entities/locations/mountain.md": "---\nname: 靈山\naliases: [雷音寺]\nkind: location\nfacts: { distance_from_changan: 十萬八千里 }\n---\n",
		"entities/characters/monkey.md":  "---\nname: 孫悟空\naliases: [行者]\nkind: character\nfacts: { somersault_distance: 十萬八千里 }\n---\n",
		"entities/characters/monk.md":    "---\nname: 沙僧\nkind: character\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"a width in a paragraph after the one naming the river", "忽然見弱水三千，乃是流沙河界。惠岸道：「你看河有多遠？」\n\n東連沙磧，西抵諸番。徑過有五百里遙，上下有千萬里遠。", "五百里"},
		{"the declared width", "忽然見弱水三千，乃是流沙河界。惠岸道：「你看河有多遠？」\n\n東連沙磧，西抵諸番。徑過有八百里遙，上下有千萬里遠。", ""},
		{"another dimension of the river", "忽然見弱水三千，乃是流沙河界。\n\n東連沙磧，西抵諸番。上下有五百里遠。", ""},
		{"the dimension word not by the number", "忽然見弱水三千，乃是流沙河界。\n\n徑直行來，走了五百里。", ""},
		{"a paragraph that names someone else", "忽然見弱水三千，乃是流沙河界。\n\n沙僧看了半日。徑過有五百里遙。", ""},
		{"the declared width in the paragraph too", "忽然見弱水三千，乃是流沙河界，八百里寬。\n\n東連沙磧，西抵諸番。徑過有五百里遙。", ""},
		{"a bare reply to how far a place is", "沙僧道：「師兄，我們到雷音有多少遠？」行者道：「五萬四千里，十停中還不曾走了一停哩。」", "五萬四千里"},
		{"the declared distance in reply", "沙僧道：「師兄，我們到雷音有多少遠？」行者道：「十萬八千里，十停中還不曾走了一停哩。」", ""},
		{"a reply that measures another place", "唐僧道：「貴府至靈山還有許多遠近？」眾僧道：「此間到都下有二千里。」", ""},
		{"a person's measure is not every distance", "行者道：「師父，前面還有五七里遠。」", ""},
		{"a far word that is an adverb", "行至靈山腳下。\n\n鐘聲遠送三千里，經韻輕飛。", ""},
	} {
		wantFacts(t, zh, tc.name, tc.text, tc.want)
	}
	en := bookProject(t, map[string]string{
		"entities/locations/pemberley.md":   "---\nname: Pemberley\nkind: location\nfacts: { park_circumference: ten miles, distance_from_lambton: five miles }\n---\n",
		"entities/locations/rosings.md":     "---\nname: Rosings\nkind: location\nfacts: { distance_to_london: fifty miles }\n---\n",
		"entities/characters/gardiner.md":   "---\nname: Mr. Gardiner\nkind: character\n---\n",
		"entities/locations/bogucharovo.md": "---\nname: Boguchárovo\nkind: location\nfacts: { distance_from_bald_hills: twenty-five miles }\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"the round of the park the paragraph speaks of", "Mr. Gardiner expressed a wish of going round the whole park. They were told that it was four miles round. It settled the matter.", "four miles"},
		{"the park of another place", "They walked round the park of Rosings. They were told that it was four miles round.", ""},
		{"the declared round", "Mr. Gardiner expressed a wish of going round the whole park. They were told that it was ten miles round. It settled the matter.", ""},
		{"the declared value in the paragraph too", "The whole park was ten miles round, they heard. Mr. Gardiner wished to go round a part of it. They were told that it was four miles round.", ""},
		{"a walk with no dimension word", "Mr. Gardiner expressed a wish of going round the whole park. They walked four miles. It settled the matter.", ""},
		{"the place named in the paragraph", "They came in sight of Pemberley. How far was Lambton? It was a distance of two miles, they were told.", "two miles"},
		{"a bare reply to how far", "They reached Rosings at last.\n\n“How distant is it from here?” “About thirty miles.”", "thirty miles"},
		{"the other end of the distance is not its frame", "They reached Rosings at last. London lay thirty miles behind.", ""},
		{"a holder in the sentence", "Mr. Gardiner walked round Pemberley, four miles round.", ""},
		// Every word of the other end's name is left out of the frame.
		{"a word of the other end's name", "Marching thirty miles that stormy night across roadless hills, Mr. Gardiner came out on the road.", ""},
	} {
		wantFacts(t, en, tc.name, tc.text, tc.want)
	}
}
