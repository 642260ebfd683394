package prose

import (
	"slices"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

func TestParseCJKNumber(t *testing.T) {
	for in, want := range map[string]int{"十五": 15, "二十七": 27, "一万": 10000, "两千三百": 2300, "十": 10, "12": 12, "一萬三千五百": 13500, "一九一二": 1912} {
		if got, ok := ParseCJKNumber(in); !ok || got != want {
			t.Errorf("ParseCJKNumber(%q) = %d, %v; want %d", in, got, ok, want)
		}
	}
	for _, in := range []string{"林", "", "十二三"} {
		if _, ok := ParseCJKNumber(in); ok {
			t.Errorf("ParseCJKNumber(%q) ok", in)
		}
	}
}

func TestParseCJKAge(t *testing.T) {
	for _, tc := range []struct {
		in     string
		vals   []int
		approx bool
	}{
		{"十五", []int{15}, false}, {"七十五歲", []int{75}, false}, {"約五十歲", []int{50}, true},
		{"五十上下", []int{50}, true}, {"十二三歲", []int{12, 13}, false},
	} {
		vals, approx, ok := ParseCJKAge(tc.in)
		if !ok || !slices.Equal(vals, tc.vals) || approx != tc.approx {
			t.Errorf("ParseCJKAge(%q) = %v, %v, %v", tc.in, vals, approx, ok)
		}
	}
}

func TestScripts(t *testing.T) {
	if got := LatinWords("Natásha 和 Pierre, 1812!"); !slices.Equal(got, []string{"Natásha", "Pierre", "1812"}) {
		t.Errorf("LatinWords: %q", got)
	}
	if !HasCJK("Tom 說") || HasCJK("Tom said") || !AllCJK([]rune("寶玉𠀀")) || AllCJK([]rune("寶玉。")) {
		t.Error("HasCJK or AllCJK")
	}
	if Unaccented("NAPOLÉON") != "napoleon" {
		t.Errorf("Unaccented: %q", Unaccented("NAPOLÉON"))
	}
	if NumberWords(27) != "twenty-seven" || NumberWords(100) != "" {
		t.Errorf("NumberWords: %q %q", NumberWords(27), NumberWords(100))
	}
}

// TestRetold: verse couplets and flashbacks are told apart from the scene
// by their form.
func TestRetold(t *testing.T) {
	couplet := "惡鬥一場無勝敗，觀音推薦二郎來。\n兩家對敵分高下，他有梅山兄弟儕。"
	if !InVerse(couplet, strings.Index(couplet, "二郎")) {
		t.Error("a couplet is not verse")
	}
	scene := "那大聖回頭看時，二郎神率領眾將趕來。"
	if InVerse(scene, strings.Index(scene, "二郎")) {
		t.Error("a sentence of the scene is verse")
	}
	back := "行者按落雲頭觀看。只因他鬧了天宮，此山被二郎神燒壞了。"
	if !InFlashback(back, strings.Index(back, "二郎")) || InFlashback(back, strings.Index(back, "行者")) {
		t.Error("flashback")
	}
}

// TestUnaccentedPlainRunes: the short way for ASCII and CJK text gives
// what the normalising chain gives, and accented text still takes the
// chain (a compatibility ideograph, which NFD maps to the unified one, is
// not plain).
func TestUnaccentedPlainRunes(t *testing.T) {
	chain := func(s string) string {
		out, _, err := transform.String(transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC), s)
		if err != nil {
			t.Fatal(err)
		}
		return strings.ToLower(out)
	}
	for _, s := range []string{"Mr. Darcy", "賈寶玉", "孫悟空、豬八戒。", "ＡＢＣ１", "Kutúzov", "NAPOLÉON", "\uF900", "Sónya’s"} {
		if got, want := Unaccented(s), chain(s); got != want {
			t.Errorf("Unaccented(%q) = %q, want %q", s, got, want)
		}
	}
	if plainRunes("Kutúzov") || plainRunes("\uF900") || !plainRunes("賈寶玉 and Mr. Darcy") {
		t.Error("plainRunes: wrong on an accented letter, a compatibility ideograph or plain text")
	}
}
