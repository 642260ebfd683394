package factcheck

import (
	"strings"
	"testing"
)

// TestCJKPlaceOtherUnderOneLevel: two places of one kind under the same
// first level (福陵山白雲洞 and 福陵山雲棧洞, two caves of one mountain) are
// two places, though the mountain is a declared location whose file names
// the declared cave; the same place told in more or fewer levels, or of
// another kind under it, still agrees.
func TestCJKPlaceOtherUnderOneLevel(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/bajie.md":  "---\nname: 豬八戒\naliases: [豬剛鬣]\nkind: character\nfacts: { residence: 福陵山雲棧洞 }\n---\n",
		"entities/locations/fuling.md":  "---\nname: 福陵山\nkind: location\n---\n山中有一洞，叫做雲棧洞。\n",
		"entities/characters/wukong.md": "---\nname: 孫悟空\naliases: [行者]\nkind: character\nfacts: { home: 東勝神洲傲來國花果山水簾洞 }\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"another cave of the mountain", "那怪道：「我家住在福陵山白雲洞。我以相貌為姓，故姓豬，官名叫做豬剛鬣。」", "福陵山白雲洞"},
		{"the declared cave", "那怪道：「我家住在福陵山雲棧洞。我以相貌為姓，故姓豬，官名叫做豬剛鬣。」", ""},
		{"the mountain alone", "那怪道：「我家住在福陵山。我以相貌為姓，故姓豬，官名叫做豬剛鬣。」", ""},
		{"fewer levels of another kind", "行者道：「我家住在東勝神洲傲來國。」", ""},
	} {
		got := strings.Join(found(k, tc.text, 18, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
