package factcheck

import (
	"strings"
	"testing"
)

// TestCJKPlaceOtherUnderOneLevel: two places of one kind under the same
// first level (福陵山白雲洞 and 福陵山雲棧洞, two caves of one mountain) are
// two places, though the mountain is a declared location whose file names
// the declared cave; the same place told in more or fewer levels, or of
// another kind under it, still agrees.
func TestCJKPlaceOtherUnderOneLevel(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/bajie.md":  "---\nname: 豬八戒\naliases: [豬剛鬣]\nkind: character\nfacts: { residence: 福陵山雲棧洞 }\n---\n",
		"entities/locations/fuling.md":  "---\nname: 福陵山\nkind: location\n---\n山中有一洞，叫做雲棧洞。\n",
		"entities/characters/wukong.md": "---\nname: 孫悟空\naliases: [行者]\nkind: character\nfacts: { home: 東勝神洲傲來國花果山水簾洞 }\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"another cave of the mountain", "那怪道：「我家住在福陵山白雲洞。我以相貌為姓，故姓豬，官名叫做豬剛鬣。」", "福陵山白雲洞"},
		{"the declared cave", "那怪道：「我家住在福陵山雲棧洞。我以相貌為姓，故姓豬，官名叫做豬剛鬣。」", ""},
		{"the mountain alone", "那怪道：「我家住在福陵山。我以相貌為姓，故姓豬，官名叫做豬剛鬣。」", ""},
		{"fewer levels of another kind", "行者道：「我家住在東勝神洲傲來國。」", ""},
	} {
		got := strings.Join(found(k, tc.text, 18, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestCJKPlaceThatHoldsTheDeclaredOne: living in the garden is living in
// the lodge the files put inside it, whether the lodge's file gives the
// garden as a fact or relates to it; a place the files do not put around
// the lodge is still another residence.
func TestCJKPlaceThatHoldsTheDeclaredOne(t *testing.T) {
	files := func(lodge string) map[string]string {
		return map[string]string{
			"entities/characters/daiyu.md":  "---\nname: 林黛玉\naliases: [黛玉]\nkind: character\nfacts: { 住處: 瀟湘館 }\n---\n",
			"entities/locations/lodge.md":   lodge,
			"entities/locations/garden.md":  "---\nname: 大觀園\nkind: location\n---\n",
			"entities/locations/mansion.md": "---\nname: 寧國府\nkind: location\n---\n",
		}
	}
	byFact := bookProject(t, files("---\nname: 瀟湘館\nkind: location\nfacts: { 所在: 大觀園 }\n---\n"))
	byRelation := bookProject(t, files("---\nname: 瀟湘館\nkind: location\nrelations:\n  - { to: entities/locations/garden, kind: part of }\n---\n"))
	alone := bookProject(t, files("---\nname: 瀟湘館\nkind: location\n---\n"))
	for _, tc := range []struct {
		name string
		k    *Knowledge
		text string
		want string
	}{
		{"by a fact", byFact, "原來黛玉住在大觀園中，雖靠著賈母疼愛，凡事終要自己留心。", ""},
		{"by a relation", byRelation, "原來黛玉住在大觀園中，雖靠著賈母疼愛，凡事終要自己留心。", ""},
		{"not put around it", alone, "原來黛玉住在大觀園中，雖靠著賈母疼愛，凡事終要自己留心。", "大觀園"},
		{"another place", byFact, "原來黛玉住在寧國府中，雖靠著賈母疼愛，凡事終要自己留心。", "寧國府"},
	} {
		got := strings.Join(found(tc.k, tc.text, 83, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestLatinPlaceThatHoldsTheDeclaredOne: the same in English: the county
// the home's file puts it in is no other residence.
func TestLatinPlaceThatHoldsTheDeclaredOne(t *testing.T) {
	files := func(home string) map[string]string {
		return map[string]string{
			"entities/characters/eliz.md": "---\nname: Elizabeth Bennet\naliases: [Elizabeth]\nkind: character\nfacts: { home: Longbourn }\n---\n",
			"entities/locations/home.md":  home,
			"entities/locations/herts.md": "---\nname: Hertfordshire\nkind: location\n---\n",
			"entities/locations/kent.md":  "---\nname: Kent\nkind: location\n---\n",
		}
	}
	within := bookProject(t, files("---\nname: Longbourn\nkind: location\nfacts: { county: Hertfordshire }\n---\n"))
	alone := bookProject(t, files("---\nname: Longbourn\nkind: location\n---\n"))
	for _, tc := range []struct {
		name string
		k    *Knowledge
		text string
		want string
	}{
		{"the county around it", within, "Elizabeth lived in Hertfordshire with her sisters.", ""},
		{"not put around it", alone, "Elizabeth lived in Hertfordshire with her sisters.", "Hertfordshire"},
		{"another county", within, "Elizabeth lived in Kent with her sisters.", "Kent"},
	} {
		got := strings.Join(found(tc.k, tc.text, 10, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestCJKMovedInto: 住了 and a dwelling (寶釵住了蘅蕪苑) say where someone
// lives, compared with a declared dwelling; 住了 as "stopped" (哭聲住了,
// 止住了眾人), a house against a court of it (怡紅院 in 榮國府), and a
// subject that is not right before it (探春住了秋爽齋，惜春住了蓼風軒 with
// 惜春 undeclared) say nothing.
func TestCJKMovedInto(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/baochai.md": "---\nname: 薛寶釵\naliases: [寶釵]\nkind: character\ngender: f\nfacts: { residence: 蘅蕪苑 }\n---\n",
		"entities/characters/tanchun.md": "---\nname: 賈探春\naliases: [探春]\nkind: character\ngender: f\nfacts: { residence: 秋爽齋 }\n---\n",
		"entities/characters/baoyu.md":   "---\nname: 賈寶玉\naliases: [寶玉]\nkind: character\ngender: m\nfacts: { home: 榮國府 }\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"another dwelling", "薛寶釵住了櫳翠庵，林黛玉住了瀟湘館。", "櫳翠庵"},
		{"after an adverb", "寶釵也住了櫳翠庵。", "櫳翠庵"},
		{"the declared dwelling", "薛寶釵住了蘅蕪苑，林黛玉住了瀟湘館。", ""},
		{"a court of the declared house", "寶玉住了怡紅院。", ""},
		{"the next clause's subject", "探春住了秋爽齋，惜春住了蓼風軒。", ""},
		{"stopped", "寶釵止住了眾人，便往園中來。", ""},
		{"stayed a night", "寶釵在那裡住了一夜。", ""},
	} {
		got := strings.Join(found(k, tc.text, 23, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestCJKPlaceOfLevelsAndDwelling: 祖居 gives an origin and 現居 (見居) a
// residence; a place told in levels from a continent down to a
// cave is read whole past ten characters, and a continent of its first
// level that is another than the declared one contradicts it, though the
// mountain under it is a declared location; a long place that starts
// below the declared level, or any place beside a declared region alone,
// is not judged.
func TestCJKPlaceOfLevelsAndDwelling(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/wukong.md": "---\nname: 孫悟空\naliases: [老孫, 行者]\nkind: character\nfacts: { origin: 東勝神洲 }\n---\n",
		"entities/locations/huaguo.md":  "---\nname: 花果山\nkind: location\n---\n東勝神洲傲來國的名山。\n",
		"entities/characters/erlang.md": "---\nname: 二郎真君\nkind: character\nfacts: { residence: 灌江口 }\n---\n",
		"entities/characters/jiang.md":  "---\nname: 江南生\nkind: character\nfacts: { origin: 江西省 }\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"another continent at the top", "行者才奏道：「老孫祖居北俱蘆洲傲來國花果山水簾洞。父天母地，石裂吾生。」", "北俱蘆洲傲來國花果山水簾洞"},
		{"the declared continent", "行者才奏道：「老孫祖居東勝神洲傲來國花果山水簾洞。父天母地，石裂吾生。」", ""},
		{"the verb after the place", "行者才奏道：「老孫祖居北俱蘆洲傲來國花果山水簾洞居住。」", "北俱蘆洲傲來國花果山水簾洞"},
		{"a long place that starts lower", "行者笑道：「我小和尚祖居傲來國花果山水簾洞，姓孫，名悟空。」", ""},
		{"a place under the declared region", "行者笑道：「我小和尚祖居花果山水簾洞，姓孫，名悟空。」", ""},
		{"another province", "那江南生祖居浙江省，後來京中。", "浙江省"},
		{"the declared province", "那江南生祖居江西省，後來京中。", ""},
		{"lives now elsewhere", "菩薩道：「乃陛下令甥二郎真君，見居灌洲黃風嶺，享受下方香火。」", "灌洲黃風嶺"},
		{"lives now at the declared place", "菩薩道：「乃陛下令甥二郎真君，見居灌洲灌江口，享受下方香火。」", ""},
		{"a place of no levels runs on", "那江南生祖居江北一個有名的大村莊裏面，後來京中。", ""},
	} {
		got := strings.Join(found(k, tc.text, 18, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
