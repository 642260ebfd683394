package factcheck

import (
	"strings"
	"testing"
)

// TestNameOpeningANarratedClause: a Chinese name that opens a clause of
// narration, its predicate after it, is the clause's subject in the scene
// (鳳姐還不敢給他吃, 那奎木狼咬釘嚼鐵); a name that a particle makes
// a modifier or an item, a copula that describes it, and a clause of
// memory, talk, burial or an errand sent from afar are not.
func TestNameOpeningANarratedClause(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/fengjie.md": "---\nname: 王熙鳳\naliases: [鳳姐]\nkind: character\nfacts: {status: dead}\n---\n",
		"entities/characters/kuimu.md":   "---\nname: 奎木狼\nkind: character\nfacts: {status: away, location: 天宮}\n---\n",
		"entities/characters/longma.md":  "---\nname: 白龍馬\naliases: [小龍]\nkind: character\nfacts: {status: away, location: 西海}\n---\n",
	})
	for _, tc := range []struct{ text, want string }{
		{"婆子們果然取了飯來，鳳姐還不敢給他吃．寶玉只得罷了。", "鳳姐"},
		{"天色已晚。那奎木狼咬釘嚼鐵，要與行者相持。", "奎木狼"},
		{"寶玉又想起鳳姐當日的好處，不覺傷心。", ""},
		{"眾人都道：鳳姐的事不必再提了。", ""},
		{"鳳姐已葬入祖墳了，諸事停妥。", ""},
		{"鳳姐早打發了兩個小丫頭送了東西來。", ""},
		{"諕得老龍王膽戰心驚，小龍子魂飛魄散。", ""},
	} {
		if got := strings.Join(found(k, tc.text, 60, TypeState), " "); got != tc.want {
			t.Errorf("%s: state findings %q, want %q", tc.text, got, tc.want)
		}
	}
}
