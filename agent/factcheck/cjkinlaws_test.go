package factcheck

import (
	"strings"
	"testing"
)

// TestCJKInLaws: a son-in-law named from the other side, by a word for
// the wife's parent between his name and hers (X遂將岳母Y接來, X的岳母Y),
// against the parent's declared son-in-law. Each case names the
// construction and the finding's text ("" for none).
func TestCJKInLaws(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/liu.md":   "---\nname: 劉姥姥\nkind: character\nfacts: { son_in_law: 狗儿 }\n---\n",
		"entities/characters/zhou.md":  "---\nname: 周老娘\nkind: character\nfacts: { 女婿: 王狗兒 }\n---\n",
		"entities/characters/lian.md":  "---\nname: 賈璉\nkind: character\n---\n",
		"entities/characters/other.md": "---\nname: 張媽\nkind: character\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"an undeclared name, an adverb and 將", "家中無人看管，王成遂將岳母劉姥姥接來同住。", "王成"},
		{"the declared son-in-law", "家中無人看管，狗儿遂將岳母劉姥姥接來同住。", ""},
		{"the declared full name, shortened", "家中無人看管，狗兒遂將岳母周老娘接來同住。", ""},
		{"a declared person with 的", "原來賈璉的岳母劉姥姥也在座。", "賈璉"},
		{"a pronoun", "家中無人看管，他遂將岳母劉姥姥接來同住。", ""},
		{"no son-in-law declared", "家中無人看管，王成遂將岳母張媽接來同住。", ""},
		{"a run that is no clause's opening", "家中無人看管便叫王成遂將岳母劉姥姥接來同住。", ""},
	} {
		got := strings.Join(found(k, tc.text, 6, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
