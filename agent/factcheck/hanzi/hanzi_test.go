package hanzi

import "testing"

// TestPairs: what the tables say of pairs authors and typists confuse,
// and of pairs they do not; folded (simplified) and traditional alike.
func TestPairs(t *testing.T) {
	for _, tc := range []struct {
		a, b                                  rune
		sound, homophone, look, near, similar bool
	}{
		{'红', '洪', true, true, false, true, true},     // hóng, hóng
		{'刘', '柳', true, false, false, true, true},    // liú, liǔ
		{'玉', '王', false, false, true, true, true},    // a confusion, and the same four corners
		{'空', '室', false, false, true, false, true},   // the same four corners only
		{'藏', '臧', false, false, true, false, true},   // 藏 without its radical
		{'臧', '藏', false, false, false, false, false}, // a radical added is a word of its own
		{'僧', '增', false, false, true, true, true},    // one phonetic element
		{'贾', '宝', false, false, false, false, false},
		{'怡', '恰', false, false, true, false, true},   // one frame (忄…口), a part changed inside
		{'怡', '悟', false, false, false, false, false}, // 忄 and 口 too, but two parts and two strokes apart
		{'勒', '勤', false, false, true, false, true},   // one part changed, two strokes more
		{'蟠', '幡', false, false, true, false, true},   // 虫 for 巾 beside the phonetic 番
		{'者', '都', false, false, false, false, false}, // one phonetic class, written apart
	} {
		got := [5]bool{SoundAlike(tc.a, tc.b), Homophone(tc.a, tc.b), LookAlike(tc.a, tc.b), Near(tc.a, tc.b), Similar(tc.a, tc.b)}
		want := [5]bool{tc.sound, tc.homophone, tc.look, tc.near, tc.similar}
		if got != want {
			t.Errorf("%c %c: sound, homophone, look, near, similar = %v, want %v", tc.a, tc.b, got, want)
		}
	}
}

// BenchmarkDecode measures the one-time cost of each table.
func BenchmarkDecode(b *testing.B) {
	b.Run("pinyin", func(b *testing.B) {
		for b.Loop() {
			decodeReadings()
		}
	})
	b.Run("phonetic", func(b *testing.B) {
		for b.Loop() {
			decodePhonetic()
		}
	})
	b.Run("shape", func(b *testing.B) {
		for b.Loop() {
			decodeShapes()
		}
	})
}

// TestRadicalAdded: a character with a radical put before another
// (孫 遜, 王 汪, 王 匡) or below it (能 熊: 灬), and pairs that only
// share a part or strokes.
func TestRadicalAdded(t *testing.T) {
	for _, tc := range []struct {
		a, b rune
		want bool
	}{
		{'孫', '遜', true},
		{'王', '汪', true},
		{'林', '淋', true},
		{'戒', '誡', true}, // 言 takes two parts of the code (YR) before 戒's
		{'戒', '诫', true}, // and 讠 too (IV)
		{'誡', '戒', false},
		{'遜', '孫', false}, // the radical dropped, not added
		{'襲', '龔', false}, // one part shared, none added
		{'賈', '寶', false},
		{'山', '仙', false}, // Cangjie writes 山 within 仙 apart from its code
		{'能', '熊', true},  // 灬 below: IP (能's first and last) and F
		{'熊', '能', false},
	} {
		if got := RadicalAdded(tc.a, tc.b); got != tc.want {
			t.Errorf("RadicalAdded(%c, %c) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestSharedTop: one top or left part and the same strokes (襲 龔), not
// one part with a different count (龍 龔) nor the same count alone.
func TestSharedTop(t *testing.T) {
	for _, tc := range []struct {
		a, b rune
		want bool
	}{
		{'襲', '龔', true},
		{'龍', '龔', false},
		{'賈', '寶', false},
		{'襲', '襲', false},
	} {
		if got := SharedTop(tc.a, tc.b); got != tc.want {
			t.Errorf("SharedTop(%c, %c) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestSharedBottom: one radical below under another top of nearly as
// many strokes (賈 買: 貝), traditional as written; not their simplified
// forms (贾 买 share nothing), nor a radical beside (林 村), nor a pair of
// different radicals.
func TestSharedBottom(t *testing.T) {
	for _, tc := range []struct {
		a, b rune
		want bool
	}{
		{'賈', '買', true},
		{'買', '賈', true},
		{'賈', '貴', true},
		{'贾', '买', false},
		{'林', '村', false},
		{'賈', '寶', false},
		{'襲', '龔', false}, // the same top, not the same bottom
		{'賈', '賈', false},
	} {
		if got := SharedBottom(tc.a, tc.b); got != tc.want {
			t.Errorf("SharedBottom(%c, %c) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

// TestSameSeries: characters read alike on one phonetic element (媽 嗎,
// 戒 誡), either way and in both scripts; not a shared reading on
// different elements (紅 洪), nor a shared element read differently (者
// 都), nor look-alikes that sound apart (王 玉).
func TestSameSeries(t *testing.T) {
	for _, tc := range []struct {
		a, b rune
		want bool
	}{
		{'媽', '嗎', true},
		{'妈', '吗', true},
		{'戒', '誡', true},
		{'誡', '戒', true},
		{'戒', '诫', true},
		{'紅', '洪', false},
		{'者', '都', false},
		{'王', '玉', false},
		{'媽', '媽', false},
	} {
		if got := SameSeries(tc.a, tc.b); got != tc.want {
			t.Errorf("SameSeries(%c, %c) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
