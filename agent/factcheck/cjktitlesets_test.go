package factcheck

import (
	"strings"
	"testing"
)

// TestCJKTitleSets: another character's title or office, by the value
// their file gives it, right before a name or after it and a copula or
// 號, contradicts the name's own; the name's own title of another
// chapter, a title of no file, or one of a key the name does not
// declare say nothing.
func TestCJKTitleSets(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/characters/wukong.md": "---\nname: 孫悟空\naliases: [行者, 大聖]\nkind: character\nfacts: { title: 齊天大聖 }\nprogressions:\n  - { chapter: 100, title: 鬥戰勝佛 }\n---\n",
		"entities/characters/bajie.md":  "---\nname: 豬八戒\naliases: [八戒, 天蓬元帥]\nkind: character\nfacts: { former_office: 天蓬元帥 }\nprogressions:\n  - { chapter: 100, title: 淨壇使者 }\n---\n",
		"entities/characters/sha.md":    "---\nname: 沙僧\naliases: [悟淨, 捲簾大將]\nkind: character\nfacts: { former_office: 捲簾大將 }\n---\n",
		"entities/characters/hong.md":   "---\nname: 紅孩兒\nkind: character\nfacts: { title: 聖嬰大王 }\n---\n",
		"entities/characters/niu.md":    "---\nname: 牛魔王\nkind: character\nfacts: { 稱號: 平天大聖 }\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"another's title before the name", "大聖道：「我乃淨壇使者孫悟空，要見師相。」", "淨壇使者"},
		{"another's office after 本是", "原來八戒本是捲簾大將臨凡，他當年掌管天河八萬水兵大眾。", "捲簾大將"},
		{"another's office after the name's own words and 乃", "第三個姓沙，名悟淨和尚，乃天蓬元帥臨凡。", "天蓬元帥"},
		{"another's title after 號", "那妖精名字喚做紅孩兒，號齊天大聖。", "齊天大聖"},
		{"the name's own title", "大聖道：「我乃齊天大聖孫悟空，要見師相。」", ""},
		{"the name's own title of a later chapter", "大聖道：「我乃鬥戰勝佛孫悟空，要見師相。」", ""},
		{"a title no file gives", "大聖道：「我乃美猴王孫悟空，要見師相。」", ""},
		{"a key the name does not declare", "大聖道：「我乃平天大聖孫悟空，要見師相。」", ""},
		{"the office far from the name", "八戒見了那捲簾大將，便道：住手。", ""},
	} {
		got := strings.Join(found(k, tc.text, 50, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestCJKPlaceChains: a place named after the places it lies in, with no
// break between, is said to lie in them: another place's continent there
// contradicts its own; the same words after a break, or its own, do not.
func TestCJKPlaceChains(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/locations/huaguo.md":   "---\nname: 花果山\nkind: location\nfacts: { continent: 東勝神洲, country: 傲來國 }\n---\n",
		"entities/locations/lingshan.md": "---\nname: 靈山\nkind: location\nfacts: { continent: 西牛賀洲 }\n---\n",
		"entities/characters/wukong.md":  "---\nname: 孫悟空\naliases: [老孫]\nkind: character\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"another's continent right before", "那怪道：「你家住在西牛賀洲花果山水簾洞裏。」", "西牛賀洲"},
		{"another's continent, a country between", "猴王道：「弟子乃西牛賀洲傲來國花果山水簾洞人氏。」", "西牛賀洲"},
		{"its own continent", "猴王道：「弟子乃東勝神洲傲來國花果山水簾洞人氏。」", ""},
		{"after a break", "臣奉旨觀聽金光之處，乃西牛賀洲傲來小國之界，有一座花果山。", ""},
		{"words between that are no place", "老孫從西牛賀洲回來看花果山。", ""},
		{"names of places in a list, no place's values", "此一匾一聯書于正殿大觀園有鳳來儀紅香綠玉蘅芷清芬。", ""},
	} {
		got := strings.Join(found(k, tc.text, 20, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
