package textsearch

// RuneSet is a set of characters of the Basic Multilingual Plane (the
// tables of CJK characters the checkers and the entity suggestions keep
// hold nothing else), as a bitmap: they ask it several times per
// character of a manuscript. Characters outside the plane are never in
// it. The zero value is empty and ready to use.
type RuneSet struct{ bits [1 << 16 / 64]uint64 }

// RuneSetOf returns the set of the characters of s.
func RuneSetOf(s string) *RuneSet {
	m := &RuneSet{}
	for _, r := range s {
		m.Add(r)
	}
	return m
}

// Add puts r in the set.
func (m *RuneSet) Add(r rune) {
	if r >= 0 && r < 1<<16 {
		m.bits[r>>6] |= 1 << (r & 63)
	}
}

// Has reports whether r is in the set.
func (m *RuneSet) Has(r rune) bool {
	return r >= 0 && r < 1<<16 && m.bits[r>>6]&(1<<(r&63)) != 0
}
