//go:build unix

package ociimage

import (
	"io/fs"
	"syscall"
)

// owner is the file's owner, where the system tells it.
func owner(info fs.FileInfo) (int, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int(st.Uid), true
}
