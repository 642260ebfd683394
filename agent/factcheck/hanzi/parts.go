package hanzi

// SharedPart reports whether a and b are built on one top (or left
// part) or on one bottom (or right part), with at most two strokes more
// or less in what differs (春 舂: 𡗗 over 日 and over 臼): their Cangjie
// codes open, or close, with the same two parts, and their four-corner
// codes agree in the two corners on that side. It is wider than
// [SharedTop] and [SharedBottom], too wide for any character of a name:
// it is for a character the book hardly writes, where nothing but the
// name explains the window.
func SharedPart(a, b rune) bool {
	sa, sb := shapeOf()[a], shapeOf()[b]
	if a == b || sa == nil || sb == nil || len(sa.cangjie) < 3 || len(sb.cangjie) < 3 || len(sa.four) != 4 || len(sb.four) != 4 ||
		abs(int(sa.total)-int(sb.total)) > maxStrokeGap+1 {
		return false
	}
	ca, cb := sa.cangjie, sb.cangjie
	top := ca[:2] == cb[:2] && sa.four[:2] == sb.four[:2]
	bottom := ca[len(ca)-2:] == cb[len(cb)-2:] && sa.four[2:] == sb.four[2:]
	return top || bottom
}
