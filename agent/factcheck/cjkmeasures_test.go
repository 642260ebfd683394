package factcheck

import (
	"strings"
	"testing"
)

// TestCJKMeasureBeforePlace: a Chinese measure before the name of the
// place it measures (三百里火焰 for 火焰山, 三十里的黑水河) is that place's
// measure, whatever its key. Each case names the construction and the
// finding's text ("" for none).
func TestCJKMeasureBeforePlace(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/locations/huoyan.md":  "---\nname: 火焰山\nkind: location\nfacts: { extent: 八百里 }\n---\n",
		"entities/locations/liusha.md":  "---\nname: 流沙河\nkind: location\nfacts: { width: 八百里, length: 三千里 }\n---\n",
		"entities/locations/heishui.md": "---\nname: 黑水河\nkind: location\nfacts: { width: 十里 }\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"a measure before the place's name without its ending", "這般小物，如何搧得三百里火焰？", "三百里"},
		{"a measure before the place's whole name", "前面是三百里火焰山，寸草不生。", "三百里"},
		{"the declared measure before the place", "這般小物，如何搧得八百里火焰？", ""},
		{"a supposed measure", "那怕他八萬里火焰，可一扇而消也。", ""},
		{"a measure of no place", "師徒們又行了三百里路。", ""},
		{"a place with two measures of the unit", "前面是三百里流沙河。", ""},
		{"a measure before the place after 的", "好一條三十里的黑水河。", "三十里"},
	} {
		wantFacts(t, k, tc.name, tc.text, tc.want)
	}
}

// TestCJKSizedPlace: a measure the text marks a size (五里半大, 方圓五里半)
// is the size of the one place its sentence names, before or after it.
// Each case names the construction and the finding's text ("" for none).
func TestCJKSizedPlace(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/locations/garden.md":  "---\nname: 大觀園\naliases: [省親別院]\nkind: location\nfacts: { size: 三里半 }\n---\n",
		"entities/locations/huifang.md": "---\nname: 會芳園\nkind: location\nfacts: { distance_to_city: 二里半 }\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"a size before the place's name", "一共丈量准了，五里半大，可以蓋造省親別院了。", "五里半"},
		{"the declared size", "一共丈量准了，三里半大，可以蓋造省親別院了。", ""},
		{"a size after 方圓", "那省親別院方圓五里半，處處有景。", "五里半"},
		{"a distance, not a size", "從這裏到省親別院還有五里半遠。", ""},
		{"大 opening a word", "五里半大路直通省親別院。", ""},
		{"a place without a size", "會芳園五里半大，樹木參天。", ""},
	} {
		got := strings.Join(found(k, tc.text, 16, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}

// TestDimensionKeyInAnotherScript: a dimension key written in English
// (width: 八百里) is named in a Chinese sentence by the dimension's word
// next to the quantity (徑過六百里, 六百里寬); elsewhere in the sentence the
// same character is another word (長老).
func TestDimensionKeyInAnotherScript(t *testing.T) {
	k := bookProject(t, map[string]string{
		"entities/locations/river.md": "---\nname: 通天河\nkind: location\nfacts: { width: 八百里 }\n---\n",
		"entities/locations/hill.md":  "---\nname: 火焰山\nkind: location\nfacts: { length: 八百里 }\n---\n",
	})
	for _, tc := range []struct {
		name, text, want string
	}{
		{"the word before, a verb between", "三個大字乃「通天河」，下有小字：通天河徑過六百里，亙古少行人。", "六百里"},
		{"the word after the unit", "那通天河足有六百里寬，一望無邊。", "六百里"},
		{"the declared width", "通天河徑過八百里，亙古少行人。", ""},
		{"no dimension named", "長老到了通天河，又走了六百里。", ""},
		{"another dimension than the key's", "通天河深有六百里。", ""},
		{"the key's dimension", "火焰山長有六百里，寸草不生。", "六百里"},
	} {
		got := strings.Join(found(k, tc.text, 47, TypeFact), " ")
		if got != tc.want {
			t.Errorf("%s: %s: fact findings %q, want %q", tc.name, tc.text, got, tc.want)
		}
	}
}
