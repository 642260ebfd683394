package lexicon

import "testing"

func TestSortedWords(t *testing.T) {
	s := newSortedWords([]string{"pear", "apple", "fig", "apple", "zebra", "a"})
	for _, w := range []string{"a", "apple", "fig", "pear", "zebra"} {
		if !s.has(w) {
			t.Errorf("%q missing", w)
		}
	}
	for _, w := range []string{"", "ap", "apples", "b", "zz", "Fig"} {
		if s.has(w) {
			t.Errorf("%q found", w)
		}
	}
	if len(s.ends) != 5 {
		t.Errorf("%d words kept, want 5 (duplicates dropped)", len(s.ends))
	}
}

func TestLists(t *testing.T) {
	for _, tc := range []struct {
		w                            string
		ordinary, nonName, shortName bool
	}{
		{"letter", true, false, false},
		{"Letter", true, false, false}, // any case
		{"Elizabth", false, false, false},
		{"December", true, true, false},
		{"Janet", false, false, true},
	} {
		if got := IsOrdinary(tc.w); got != tc.ordinary {
			t.Errorf("IsOrdinary(%q) = %v", tc.w, got)
		}
		if got := IsCapitalisedNonName(tc.w); got != tc.nonName {
			t.Errorf("IsCapitalisedNonName(%q) = %v", tc.w, got)
		}
		if got := IsShortName(tc.w); got != tc.shortName {
			t.Errorf("IsShortName(%q) = %v", tc.w, got)
		}
	}
}

func TestChineseVerbs(t *testing.T) {
	for _, tc := range []struct {
		w    string
		verb bool
	}{
		{"吩咐", true},
		{"回头", true},
		{"起身", true},
		{"宝玉", false}, // a name
		{"菩萨", false}, // a noun, a title
		{"吩咐道", false},
		{"", false},
	} {
		if got := IsChineseVerb(tc.w); got != tc.verb {
			t.Errorf("IsChineseVerb(%q) = %v", tc.w, got)
		}
	}
}

// BenchmarkDecode measures the one-time cost of decoding the lists.
func BenchmarkDecode(b *testing.B) {
	for b.Loop() {
		decode()
	}
}
