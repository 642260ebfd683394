package textsearch

import (
	"slices"
	"testing"
)

func TestHolding(t *testing.T) {
	x := NewIndex(0, 0)
	x.Add("a", []string{"fox", "ran", "fox"})
	x.Add("b", []string{"dog", "sat"})
	x.Add("c", []string{"fox", "dog"})
	x.Remove("c")
	for _, tc := range []struct {
		id    string
		terms []string
		want  []string
	}{
		{"a", []string{"dog", "fox", "fox", "ran"}, []string{"fox", "ran"}},
		{"b", []string{"fox", "dog"}, []string{"dog"}},
		{"c", []string{"fox"}, nil},  // removed
		{"zz", []string{"fox"}, nil}, // unknown
		{"a", []string{"cat"}, nil},  // no such term
	} {
		if got := x.Holding(tc.id, tc.terms); !slices.Equal(got, tc.want) {
			t.Errorf("Holding(%q, %v) = %v, want %v", tc.id, tc.terms, got, tc.want)
		}
	}
}
