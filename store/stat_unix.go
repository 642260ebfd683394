//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package store

import (
	"io/fs"
	"syscall"
	"time"
)

// changeTime returns the inode's change time and number.
func changeTime(fi fs.FileInfo) (time.Time, uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return time.Time{}, 0, false
	}
	sec, nsec := ctimeOf(st)
	return time.Unix(sec, nsec), uint64(st.Ino), true
}
