package factcheck

import (
	"strings"
	"testing"
)

// TestServingVerbValueSwaps: a verb of serving as (做, 作, 任) predicates
// a post or a former self as a copula does, so another character's value
// after it is a swap; 叫做, 看作 name or liken and do not.
func TestServingVerbValueSwaps(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/bajie.md":  "---\nname: 豬八戒\nkind: character\nfacts: { 前身: 天蓬元帥 }\n---\n",
		"entities/characters/sha.md":    "---\nname: 沙悟淨\naliases: [沙僧]\nkind: character\nfacts: { 前身: 捲簾大將 }\n---\n",
		"entities/characters/horse.md":  "---\nname: 白龍馬\nkind: character\nfacts: { 住處: 蛇盤山鷹愁澗 }\n---\n",
		"entities/characters/wukong.md": "---\nname: 孫悟空\naliases: [行者]\nkind: character\nfacts: { 住處: 花果山水簾洞 }\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"the speaker served as another's post", "沙僧道：「小弟雖不曾吃，但舊時做天蓬元帥，扶侍鸞輿赴蟠桃宴。」", "天蓬元帥"},
		{"the speaker's own post", "沙僧道：「小弟雖不曾吃，但舊時做捲簾大將，扶侍鸞輿赴蟠桃宴。」", ""},
		{"a place called so", "行者道：「我記得此處叫做蛇盤山鷹愁澗，想必是澗裏水響。」", ""},
		{"a copula, as before", "沙悟淨本是天蓬元帥。", "天蓬元帥"},
	} {
		got := strings.Join(found(k, tc.text, 24, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestComparedWithIsNoSubject: the person something is compared with
// ("than Mr. Bingley", "比黛玉") is not whom a pronoun or a value of the
// clause goes back to.
func TestComparedWithIsNoSubject(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/darcy.md":   "---\nname: Mr. Darcy\nkind: character\ngender: m\nfacts: { county: Derbyshire }\n---\n",
		"entities/characters/bingley.md": "---\nname: Mr. Bingley\nkind: character\ngender: m\n---\n",
		"entities/characters/georgiana.md": "---\nname: Miss Darcy\nkind: character\ngender: f\n" +
			"progressions:\n  - { chapter: 44, facts: { age: sixteen } }\n---\n",
		"entities/characters/elizabeth.md": "---\nname: Elizabeth\nkind: character\ngender: f\n" +
			"progressions:\n  - { chapter: 44, facts: { age: twenty } }\n---\n",
		"entities/characters/baoyu.md": "---\nname: 寶玉\nkind: character\ngender: m\n" +
			"progressions:\n  - { chapter: 44, facts: { 年紀: 十三歲 } }\n---\n",
		"entities/characters/daiyu.md": "---\nname: 黛玉\nkind: character\ngender: f\n" +
			"progressions:\n  - { chapter: 44, facts: { 年紀: 十二歲 } }\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"a pronoun past the compared name", "Mr. Darcy came in. The ladies declared he was much handsomer than Mr. Bingley, and not all his large estate in Staffordshire could save him.", "Staffordshire"},
		{"the subject named before the comparison", "Mr. Bingley declared he was much richer than Mr. Darcy, and not all his large estate in Staffordshire could save him.", ""},
		{"an age past the compared name", "Miss Darcy was tall, and on a larger scale than Elizabeth; and, though little more than sixteen, her figure was formed.", ""},
		{"an age past the compared name, in Chinese", "那孩子比黛玉大，今年十四歲了。", ""},
		{"the subject named before the comparison, in Chinese", "寶玉比黛玉大，今年十四歲了。", "十四歲"},
	} {
		got := strings.Join(found(k, tc.text, 44, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
