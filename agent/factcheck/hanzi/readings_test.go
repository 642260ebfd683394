package hanzi

import "testing"

// TestReadAlike: a character's other readings count (藏 zàng and 葬
// zàng), as its first does; characters that share no reading do not.
func TestReadAlike(t *testing.T) {
	for _, tc := range []struct {
		a, b rune
		want bool
	}{
		{'藏', '葬', true},  // zàng of 三藏
		{'行', '杭', true},  // háng of 行家
		{'紅', '洪', true},  // the first reading, as SoundAlike
		{'春', '舂', false}, // chūn, chōng
		{'藏', '春', false},
	} {
		if got := ReadAlike(tc.a, tc.b); got != tc.want {
			t.Errorf("ReadAlike(%c, %c) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
	if SoundAlike('藏', '葬') {
		t.Errorf("SoundAlike(藏, 葬): the first reading alone should not pair them")
	}
}
