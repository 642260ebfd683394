package factcheck

import (
	"strings"
	"testing"
)

// TestDwellersDeclaredByThePlace: a place's file that names who lives
// there (蘅蕪苑: resident 薛寶釵; Netherfield: tenant Mr. Bingley) gives
// that person's residence where their own file gives none, so a text that
// puts them, or another dweller, in another place is checked the same way
// as against a residence they declare. A person whose own file gives a
// residence keeps it; one two places name at once is not judged.
func TestDwellersDeclaredByThePlace(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/baochai.md":  "---\nname: 薛寶釵\naliases: [寶釵]\nkind: character\ngender: f\n---\n",
		"entities/characters/baoyu.md":    "---\nname: 賈寶玉\naliases: [寶玉]\nkind: character\ngender: m\n---\n",
		"entities/characters/daiyu.md":    "---\nname: 林黛玉\naliases: [黛玉]\nkind: character\ngender: f\nfacts: { residence: 蘅蕪苑 }\n---\n",
		"entities/characters/liwan.md":    "---\nname: 李紈\nkind: character\ngender: f\n---\n",
		"entities/locations/hengwu.md":    "---\nname: 蘅蕪苑\nkind: location\nfacts: { resident: 薛寶釵 }\n---\n",
		"entities/locations/yihong.md":    "---\nname: 怡紅院\nkind: location\nfacts: { resident: 賈寶玉 }\n---\n",
		"entities/locations/daoxiang.md":  "---\nname: 稻香村\nkind: location\nfacts: { resident: 李紈 }\n---\n",
		"entities/locations/qiushuang.md": "---\nname: 秋爽齋\nkind: location\nfacts: { residents: \"李紈、探春\" }\n---\n",
		"entities/characters/tanchun.md":  "---\nname: 探春\nkind: character\ngender: f\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"a dweller another place declares", "薛寶釵住了蘅蕪苑，賈寶玉住了秋爽齋，迎春住了綴錦樓。", "秋爽齋"},
		{"one of the dwellers a place lists", "探春住了怡紅院，迎春住了綴錦樓。", "怡紅院"},
		{"the place that declares the dweller", "薛寶釵住了蘅蕪苑，賈寶玉住了怡紅院，迎春住了綴錦樓。", ""},
		{"the person's own file first", "林黛玉住了蘅蕪苑，迎春住了綴錦樓。", ""},
		{"two places name the dweller at once", "李紈住了怡紅院，迎春住了綴錦樓。", ""},
	} {
		got := strings.Join(found(k, tc.text, 23, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestDwellingCitesThePlace: a residence finding that rests on a place's
// dweller points at the place's file and its key, where the author wrote
// it; one that rests on the person's own residence points at the person.
func TestDwellingCitesThePlace(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/baoyu.md":    "---\nname: 賈寶玉\naliases: [寶玉]\nkind: character\ngender: m\n---\n",
		"entities/characters/daiyu.md":    "---\nname: 林黛玉\naliases: [黛玉]\nkind: character\ngender: f\nfacts: { residence: 瀟湘館 }\n---\n",
		"entities/locations/yihong.md":    "---\nname: 怡紅院\nkind: location\nfacts:\n  type: 院落\n  resident: 賈寶玉\n---\n",
		"entities/locations/qiushuang.md": "---\nname: 秋爽齋\nkind: location\n---\n",
		"entities/locations/xiaoxiang.md": "---\nname: 瀟湘館\nkind: location\n---\n",
	})
	for _, tc := range []struct {
		text, path, key string
		line            int
	}{
		{"賈寶玉住了秋爽齋，迎春住了綴錦樓。", "entities/locations/yihong.md", "resident", 6},
		{"林黛玉住了秋爽齋，迎春住了綴錦樓。", "entities/characters/daiyu.md", "residence", 6},
	} {
		fs := Check(tc.text, 23, k, "")
		if len(fs) != 1 || fs[0].Type != TypeFact {
			t.Fatalf("%s: findings %+v, want one fact finding", tc.text, fs)
		}
		ev := fs[0].Evidence
		if !strings.HasSuffix(ev.Path, tc.path) || ev.Key != tc.key || ev.Line != tc.line {
			t.Errorf("%s: evidence %s %s line %d, want %s %s line %d", tc.text, ev.Path, ev.Key, ev.Line, tc.path, tc.key, tc.line)
		}
	}
}
