package factcheck

import (
	"strings"
	"testing"
)

// TestDescribedKin: kinship predicated of a description opening its
// sentence with This or That, said of the one person of its gender the
// paragraphs around name besides the kin. Each case names the
// construction and the finding's text ("" for none).
func TestDescribedKin(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/pierre.md": "---\nname: Pierre Bezúkhov\naliases: [Pierre, Count Bezúkhov]\nkind: character\n" +
			"facts: { father: Count Bezúkhov }\n---\nHe is the heir.\n",
		"entities/characters/ilya.md":   "---\nname: Count Ilyá Rostóv\naliases: [Count Rostóv]\nkind: character\n---\nHe keeps open house.\n",
		"entities/characters/vasili.md": "---\nname: Prince Vasíli Kurágin\naliases: [Prince Vasíli]\nkind: character\n---\nHe is a courtier.\n",
		"entities/characters/anna.md":   "---\nname: Anna Pávlovna\nkind: character\n---\nShe gives a soirée.\n",
	})
	const after = " Anna Pávlovna nodded to him, and she saw Pierre come in."
	for _, tc := range []struct {
		name, text, want string
	}{
		{"a son of another count", "This stout young man was an illegitimate son of Count Rostóv, who lay dying." + after, "Count Rostóv"},
		{"a son of the declared father", "This stout young man was an illegitimate son of Count Bezúkhov, who lay dying." + after, ""},
		{"two men around", "This stout young man was an illegitimate son of Count Rostóv, who lay dying. Prince Vasíli turned away." + after, ""},
		{"no demonstrative", "A stout young man was an illegitimate son of Count Rostóv, who lay dying." + after, ""},
		{"a description of the other gender", "This stout young woman was a daughter of Count Rostóv, who lay dying." + after, ""},
	} {
		got := strings.Join(found(k, tc.text, 2, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
