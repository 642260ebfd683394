package factcheck

import (
	"strings"
	"testing"
)

// TestAnothersWeaponHeld: a weapon of the holder's own kind (a staff) by
// the full name another character's file gives it is not the holder's;
// so is another's weapon taken up in the clause after the holder's own
// (沙僧放下吊桶，取出…), where a tool of no file (戒刀) says nothing.
// A shorter name reads as before. The holder stays the subject through
// the later clauses of the sentence until another opens one. A weapon a
// name is said to have (有一柄) counts as one in hand.
func TestAnothersWeaponHeld(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/sha.md":     "---\nname: 沙僧\nkind: character\nfacts: { weapon: 降妖寶杖 }\n---\n",
		"entities/characters/wukong.md":  "---\nname: 孫悟空\naliases: [行者]\nkind: character\nfacts: { weapon: 如意金箍棒 }\n---\n",
		"entities/characters/bajie.md":   "---\nname: 八戒\nkind: character\nfacts: { weapon: 九齒釘鈀 }\n---\n",
		"entities/characters/sanzang.md": "---\nname: 三藏\nkind: character\n---\n",
		"entities/characters/luosha.md":  "---\nname: 羅剎女\nkind: character\nfacts: { weapon: 芭蕉扇 }\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"another's staff by its full name", "長老橫擔著錫杖，沙僧橫擔著如意金箍棒，師徒們前進。", "如意金箍棒"},
		{"the holder's own", "長老橫擔著錫杖，沙僧橫擔著降妖寶杖，師徒們前進。", ""},
		{"a staff by a short name", "長老橫擔著錫杖，沙僧橫擔著金箍棒，師徒們前進。", ""},
		{"its owner holds it", "行者橫擔著如意金箍棒，師徒們前進。", ""},
		{"taken out in the next clause", "沙僧放下吊桶，取出九齒釘鈀，著頭便打。", "九齒釘鈀"},
		{"taken out in the next clause, his own", "沙僧放下吊桶，取出降妖寶杖，著頭便打。", ""},
		{"a blade of no one's file in the next clause", "八戒發起性來，掣出戒刀，將辟塵兒頭一刀砍下。", ""},
		{"the next clause after turning to another", "沙僧叫八戒，取出九齒釘鈀，著頭便打。", ""},
		{"a name inside its clause is no subject there", "那怪見沙僧來了，掣出九齒釘鈀，著頭便打。", ""},
		// The subject holds on through the clauses of its sentence.
		{"taken up clauses later", "卻說那沙僧久坐林間，盼望行者不到，將行李捎在馬上，一隻手執著如意金箍棒，一隻手牽著韁繩。", "如意金箍棒"},
		{"his own clauses later", "卻說那沙僧久坐林間，盼望行者不到，將行李捎在馬上，一隻手執著降妖寶杖，一隻手牽著韁繩。", ""},
		{"another subject opens a clause between", "卻說那沙僧久坐林間，行者將行李捎在馬上，一隻手執著如意金箍棒。", ""},
		{"a bidding between", "沙僧久坐林間，叫八戒將行李捎在馬上，一隻手執著九齒釘鈀。", ""},
		// A fan is no weapon's kind: anyone may carry another's treasure
		// (大師兄執著芭蕉扇 in the book).
		{"another's fan", "卻說那沙僧久坐林間，將行李捎在馬上，一隻手執著芭蕉扇。", ""},
		// Having one: 有 and a measure word right after the name.
		{"has another's staff", "詢問土人，知尊嫂羅剎女有一柄降妖寶杖，欲求一用。", "降妖寶杖"},
		{"has her own", "詢問土人，知尊嫂羅剎女有一柄芭蕉扇，欲求一用。", ""},
		{"has none", "那羅剎女沒有一柄降妖寶杖。", ""},
		{"a name inside its clause, clauses later", "那怪見沙僧來了，將行李捎在馬上，一隻手執著九齒釘鈀。", ""},
	} {
		got := strings.Join(found(k, tc.text, 30, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
