package factcheck

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
	if l := loadWords(); !l.has("letter") || !l.has("Letter") || l.has("Elizabth") {
		t.Error("the embedded dictionary lost its words")
	}
}
