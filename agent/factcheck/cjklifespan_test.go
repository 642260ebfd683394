package factcheck

import (
	"strings"
	"testing"
)

// TestCJKLifespans: a number of years 壽 marks (該壽, 享壽) is a lifespan,
// compared with the holder's declared lifespan, never with an age. Each
// case names the construction and the finding's text ("" for none).
func TestCJKLifespans(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/wukong.md": "---\nname: 孫悟空\naliases: [石猴]\nkind: character\nfacts: { lifespan: 三百四十二歲 }\n---\n",
		"entities/characters/laojun.md": "---\nname: 老君\nkind: character\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"another lifespan after 該壽", "簿上寫著石猴該壽三百二十四歲，善終。", "三百二十四歲"},
		{"the declared lifespan", "簿上寫著石猴該壽三百四十二歲，善終。", ""},
		{"an age, not a lifespan", "那石猴今年三百二十四歲了。", ""},
		{"someone without a lifespan", "簿上寫著老君該壽三百二十四歲，善終。", ""},
		{"壽 too far before", "石猴壽終之時，已有三百二十四歲。", ""},
	} {
		got := strings.Join(found(k, tc.text, 3, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
