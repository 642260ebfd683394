package factcheck

import (
	"strings"
	"testing"
)

// TestTitledKin: a parent named by a titled name no file declares
// (東海龍王敖廣) is another than a declared one of the same title with
// another qualifier or given name (西海龍王敖閏), whether the child is
// named after the kinship word (之子，喚名龍馬) or before a copula; the
// title alone or the declared name agrees.
func TestTitledKin(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/horse.md": "---\nname: 白龍馬\naliases: [龍馬]\nkind: character\ngender: m\nfacts: { father: 西海龍王敖閏 }\n---\n",
		"entities/characters/hong.md":  "---\nname: 紅孩兒\nkind: character\ngender: m\nfacts: { mother: 鐵扇公主 }\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"another sea's king, the child named after", "行者道：「他不是凡馬，本是東海龍王敖廣之子，喚名龍馬三太子。」", "東海龍王敖廣"},
		{"the declared king", "行者道：「他不是凡馬，本是西海龍王敖閏之子，喚名龍馬三太子。」", ""},
		{"the declared king by his title", "行者道：「他不是凡馬，本是西海龍王之子，喚名龍馬三太子。」", ""},
		{"another sea's king after a copula", "原來那龍馬是北海龍王敖順之子。", "北海龍王敖順"},
		{"the declared king after a copula", "原來那龍馬是西海龍王敖閏之子。", ""},
		{"another princess", "那紅孩兒是玉面公主之子。", "玉面公主"},
	} {
		got := strings.Join(found(k, tc.text, 30, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestParseTitled: the parts of a titled name, and what is none.
func TestParseTitled(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want titledName
		ok   bool
	}{
		{"东海龙王敖广", titledName{"东海", "龙王", "敖广"}, true},
		{"铁扇公主", titledName{"铁扇", "公主", ""}, true},
		{"龙王", titledName{}, false},
		{"牛魔王", titledName{}, false},
		{"the king", titledName{}, false},
	} {
		got, ok := parseTitled(tc.in)
		if ok != tc.ok || got != tc.want {
			t.Errorf("parseTitled(%q) = %v, %v; want %v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}
