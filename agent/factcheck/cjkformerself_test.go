package factcheck

import (
	"strings"
	"testing"
)

// TestCJKFormerSelf: what a character came down from (本是…臨凡, 原是…轉世)
// against the declared former office, a title no file gives included;
// the declared one, a part of it or it with a word more, a post declared
// in a phrase, or words no copula ties to the holder
// say nothing.
func TestCJKFormerSelf(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/bajie.md": "---\nname: 豬八戒\naliases: [八戒]\nkind: character\nfacts: { former_office: 天蓬元帥 }\n---\n",
		"entities/characters/sha.md":   "---\nname: 沙僧\nkind: character\nfacts: { 舊職: 靈霄殿下侍鑾輿 }\n---\n",
		"entities/characters/long.md":  "---\nname: 敖烈\nkind: character\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"a title no file gives", "原來那八戒本是巡海夜叉臨凡，只因錯投了胎，嘴臉像一個野豬模樣。", "巡海夜叉"},
		{"reborn", "那八戒原是捲簾大將轉世。", "捲簾大將"},
		{"the declared one", "原來那八戒本是天蓬元帥臨凡，只因錯投了胎，嘴臉像一個野豬模樣。", ""},
		{"part of the declared one", "原來那八戒本是元帥臨凡。", ""},
		{"the declared one with a word more", "那八戒本是天蓬大元帥臨凡。", ""},
		{"a former post told in a phrase", "原來那沙僧本是捲簾大將臨凡。", ""},
		{"no former office declared", "原來那敖烈本是巡海夜叉臨凡。", ""},
		{"no copula", "八戒說巡海夜叉臨凡了。", ""},
	} {
		got := strings.Join(found(k, tc.text, 19, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
