package assemble

import (
	"fmt"
	"strconv"
	"strings"
)

// PassageID is the passage index id of bytes [start, end) of a chapter's
// L2: "manuscript/chapter-06/content.md#1200-2450".
func PassageID(path string, start, end int) string {
	return fmt.Sprintf("%s#%d-%d", path, start, end)
}

// ParsePassageID splits a [PassageID].
func ParsePassageID(id string) (path string, start, end int, ok bool) {
	i := strings.LastIndexByte(id, '#')
	if i < 0 {
		return "", 0, 0, false
	}
	a, b, found := strings.Cut(id[i+1:], "-")
	if !found {
		return "", 0, 0, false
	}
	s, err1 := strconv.Atoi(a)
	e, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || s < 0 || e < s {
		return "", 0, 0, false
	}
	return id[:i], s, e, true
}
