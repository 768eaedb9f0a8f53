package grade

import (
	"io/fs"
	"syscall"
	"time"
)

// changeTime is the time a file's inode last changed (written, or its times set): a file whose
// modification time was restored by an unpacker changed after it, one written by a copy did not.
func changeTime(info fs.FileInfo) (time.Time, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return time.Time{}, false
	}
	return time.Unix(st.Ctim.Sec, st.Ctim.Nsec), true
}
