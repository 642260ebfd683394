package hanzi

import "testing"

// TestSharedPart: one top or one bottom with a few strokes more or less
// in the rest (春 舂, 賈 買); characters of other parts are none.
func TestSharedPart(t *testing.T) {
	for _, tc := range []struct {
		a, b rune
		want bool
	}{
		{'春', '舂', true},
		{'賈', '買', true},
		{'春', '秋', false},
		{'藏', '葬', false},
		{'春', '春', false},
	} {
		if got := SharedPart(tc.a, tc.b); got != tc.want {
			t.Errorf("SharedPart(%c, %c) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
