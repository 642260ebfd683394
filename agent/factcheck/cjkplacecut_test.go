package factcheck

import (
	"strings"
	"testing"
)

// TestCJKPlaceCutShort: a place that runs on past the ten characters the
// scan reads is cut there, and a cut place is not compared (花果山 cut to
// 花); a place that ends within them still is.
func TestCJKPlaceCutShort(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/wukong.md": "---\nname: 孫悟空\naliases: [行者, 老孫]\nkind: character\nfacts: { origin: 花果山 }\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"a place cut by the scan", "行者道：「老孫祖貫東勝神洲海東傲來國花果山水簾洞居住。」", ""},
		{"another place within the scan", "行者道：「老孫祖貫福陵山人氏。」", "福陵山"},
	} {
		got := strings.Join(found(k, tc.text, 20, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
