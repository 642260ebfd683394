package factcheck

import (
	"strings"
	"testing"
)

// TestServantsMaster: a servant said to be another's (王夫人之婢, Lady
// Catherine’s maid) against a master the file gives, when it gives a
// former one too; a file with one master only may have had another.
func TestServantsMaster(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/xiren.md":  "---\nname: 襲人\nkind: character\ngender: f\nfacts: { master: 賈寶玉, former_master: 賈母 }\n---\n",
		"entities/characters/sheyue.md": "---\nname: 麝月\nkind: character\ngender: f\nfacts: { master: 賈寶玉 }\n---\n",
		"entities/characters/baoyu.md":  "---\nname: 賈寶玉\nkind: character\ngender: m\n---\n",
		"entities/characters/jiamu.md":  "---\nname: 賈母\nkind: character\ngender: f\n---\n",
		"entities/characters/wang.md":   "---\nname: 王夫人\nkind: character\ngender: f\n---\n",
		"entities/characters/hill.md":   "---\nname: Hill\nkind: character\ngender: f\nfacts: { master: Mr. Bennet, former_master: Mr. Gardiner }\n---\n",
		"entities/characters/bennet.md": "---\nname: Mr. Bennet\nkind: character\ngender: m\n---\n",
		"entities/characters/gard.md":   "---\nname: Mr. Gardiner\nkind: character\ngender: m\n---\n",
		"entities/characters/lady.md":   "---\nname: Lady Catherine\nkind: character\ngender: f\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"another's maid after an adverb and a copula", "原來這襲人亦是王夫人之婢，本名珍珠。", "王夫人"},
		{"the former master", "原來這襲人亦是賈母之婢，本名珍珠。", ""},
		{"the master now", "原來這襲人就是賈寶玉的丫頭。", ""},
		{"one master declared, the text another", "原來這麝月亦是王夫人之婢。", ""},
		{"another's maid in English", "Hill was Lady Catherine’s maid, they said.", "Lady Catherine’s maid"},
		{"the former master in English", "Hill was Mr. Gardiner’s servant, they said.", ""},
	} {
		got := strings.Join(found(k, tc.text, 3, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
