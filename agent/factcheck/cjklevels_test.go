package factcheck

import (
	"strings"
	"testing"

	"github.com/flowcabal/flowcabal/internal/projecttest"
	"github.com/flowcabal/flowcabal/knowledge"
)

// TestCJKReplacedLastLevel: a long place value written with its last
// level replaced by another place of the book of the same ending (a
// declared one, or one the manuscript writes often), the levels above
// unchanged. Each case names the construction and the finding's text (""
// for none).
func TestCJKReplacedLastLevel(t *testing.T) {
	p, errs := knowledge.LoadProject(projecttest.Write(t, map[string]string{
		"entities/characters/honghaier.md": "---\nname: 紅孩兒\nkind: character\nfacts: { home: 號山枯松澗火雲洞 }\n---\n",
		"entities/locations/heifeng.md":    "---\nname: 黑風洞\nkind: location\n---\n",
	}))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	k := FromProject(p, testFolder)
	// The manuscript names another cave in its other chapters, and
	// writes words that end as a cave does.
	k.UseManuscript([]string{"那怪住在白骨洞。山上有個洞。", "行者打進白骨洞裏。崖下有個洞。", "白骨洞前一片荒涼。林中有個洞。"})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"the last level replaced by a declared place", "石碣上鐫著「號山枯松澗黑風洞」八個大字。", "號山枯松澗黑風洞"},
		{"the last level replaced by a place the book writes", "石碣上鐫著「號山枯松澗白骨洞」八個大字。", "號山枯松澗白骨洞"},
		{"the declared value", "石碣上鐫著「號山枯松澗火雲洞」八個大字。", ""},
		{"words that end alike", "號山枯松澗有個洞，深不可測。", ""},
		{"a form the book never writes", "石碣上鐫著「號山枯松澗青石洞」八個大字。", ""},
	} {
		got := strings.Join(found(k, tc.text, 41, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
