package entitysuggest

import (
	"slices"
	"testing"
)

// TestIndexBeyondBMP: the sets that let the indexes skip characters hold
// the Basic Multilingual Plane only; a word whose first or last character
// lies past it (𬞟, the simplified form of 蠙 in 蠙城) is still found.
func TestIndexBeyondBMP(t *testing.T) {
	cases := []struct {
		name   string
		keys   []string
		text   string
		at     int
		want   []string
		prefix int
		suffix int
	}{
		{name: "plane 0", keys: []string{"宝玉", "宝玉哥哥"}, text: "见宝玉哥哥", at: 1, want: []string{"宝玉哥哥", "宝玉"}, prefix: 4, suffix: 4},
		{name: "past plane 0", keys: []string{"𬞟城"}, text: "入𬞟城", at: 1, want: []string{"𬞟城"}, prefix: 2, suffix: 2},
		{name: "last past plane 0", keys: []string{"城𬞟"}, text: "入城𬞟", at: 1, want: []string{"城𬞟"}, prefix: 2, suffix: 2},
		{name: "none", keys: []string{"𬞟城"}, text: "入𬞟山", at: 1, want: nil, prefix: 0, suffix: 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := map[string]bool{}
			for _, k := range c.keys {
				m[k] = true
			}
			rs := []rune(c.text)
			var got []string
			for _, k := range newCJKIndex(m).at(rs, c.at) {
				got = append(got, k.s)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("index at %d of %s = %v, want %v", c.at, c.text, got, c.want)
			}
			l := runeListOf(c.keys)
			if n := l.prefix(rs[c.at:]); n != c.prefix {
				t.Errorf("prefix of %s = %d, want %d", string(rs[c.at:]), n, c.prefix)
			}
			if n := l.suffix(rs[c.at:]); n != c.suffix {
				t.Errorf("suffix of %s = %d, want %d", string(rs[c.at:]), n, c.suffix)
			}
		})
	}
}
